"""The combat phase's frame and the outcome of the fray: designations, morale rolls by balance
of Power, rout, push on and the Implacable combats.

Seed (Outcome of the fray): once all the combats of a fray are resolved, the players designate
pairs of units that fought each other, in turn (the tactical roll's winner first); the unit of
the pair that inflicted fewer Wounds on the other during the combat phase (ties: the tactical
roll's winner wins) rolls a morale roll, COU (or DIS in close formation) against the Outcome of
the fray table read by the balance of Power (one row lower when the winner is frightening and
the loser is not). A unit can be designated once per enemy unit it fought; routed units are
never designated. A failed roll routs the unit: its fighters in contact with an enemy are
eliminated whatever their Wound levels, the others flee MOV × 2. Then the units free from any
opponent push on (seed: Push on), and Implacable/X fighters that came into contact fight new
combats with all their dice, without the charge bonus and without morale rolls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mypy_extensions import trait

from .base import BattleBase
from .combat import engage
from .formation import FACE_NAMES, FRONT, shape
from .fray import CombatKey, Contact, test_distribution, unit_key
from .narration import at, count, name, say_fray, say_outcome, test_roll, test_words
from .state import Fighting
from .tables import balance_of_power, memo_row_value

if TYPE_CHECKING:
    from .battle import Battle  # noqa: F401


@trait
class OutcomeRules(BattleBase):
    __slots__ = ()

    def combat(self) -> None:
        """The frays in turn: the tactical roll's winner picks the first, then the other player."""
        self.phase = "fray"
        pending = self.frays()
        picker = self.winner_of_roll
        while pending:
            chosen = pending[0] if len(pending) == 1 else self.policies[picker].pick_fray(cast("Battle", self), picker, pending)
            pending.remove(chosen)
            live = [u for u in chosen if u.alive and u.engaged]
            if live:
                self.resolve_fray(live)
            picker = 1 - picker

    def resolve_fray(self, units: list[Fighting]) -> None:
        self.frays_fought += 1
        fighters = self.build_contact(units)
        wounds: dict[tuple[int, int], int] = {}
        self.loss_caused = set()
        if self.logging:
            say_fray(self, units)
        self.resolve_combats(fighters, wounds, charge=True)
        pairs = sorted({(min(k), max(k)) for k in wounds} | self.fought_pairs(fighters))
        self.fray_outcome(pairs, wounds, fighters)
        fighters.release()  # (read no more: push on builds the Implacable combats' own contacts)
        for u in units:  # the assaults of the round are fought: from now on the fray goes on
            u.new_foes.clear()
            u.assailed_by_me.clear()
            u.withstood.clear()
        self.push_on(units, wounds)

    def fought_pairs(self, fighters: Contact) -> set[tuple[int, int]]:
        return {(key[0], key[2]) for key in self.combats_of(fighters)}

    # -- outcome of the fray -------------------------------------------------

    def fray_outcome(self, pairs: list[tuple[int, int]], wounds: dict[tuple[int, int], int], fighters: Contact) -> None:
        """Designations in turn, a morale roll for the loser of each designated pair."""
        pending = {pair: (self.unit_of(pair[0]), self.unit_of(pair[1])) for pair in pairs}  # (in pair order)
        picker = self.winner_of_roll
        while True:
            live = [
                pair for pair, (a, b) in pending.items()
                if a.alive and b.alive and a.state != "rout" and b.state != "rout"
            ]  # fmt: skip
            if not live:
                return
            # One pair left to designate: nothing to choose (the player is asked only between pairs).
            chosen = live[0] if len(live) == 1 else self.policies[picker].designate(cast("Battle", self), picker, live, wounds)
            a, b = pending.pop(chosen)
            k0, k1 = chosen
            wa, wb = wounds.get((k0, k1), 0), wounds.get((k1, k0), 0)
            if wa != wb:
                winner, loser = (a, b) if wa > wb else (b, a)
            else:
                winner, loser = (a, b) if a.side == self.winner_of_roll else (b, a)
            if self.logging:
                say_outcome(self, a, b, wa, wb, loser)
            self.morale(winner, loser, fighters)
            picker = 1 - picker

    def morale_difficulty(self, winner: Fighting, loser: Fighting) -> int:
        """Outcome of the fray table by the balance of Power, one row lower against a frightening winner."""
        lower = 1 if winner.troops.profile.fear is not None and loser.troops.profile.fear is None else 0
        balance = balance_of_power(
            loser.power(loser.charged, loser.was_charged), winner.power(winner.charged, winner.was_charged)
        )
        if self.outcome_rows:
            return memo_row_value(self.outcome_rows, balance, lower)
        order = [3, 2, 1, -2, -3]
        return (4, 6, 8, 10, 12)[min(order.index(balance) + lower, 4)]

    def morale_words(self, loser: Fighting, value: int, difficulty: int) -> str:
        """``DIS 7 against difficulty 8`` for the log (the value the roll used)."""
        return f"{'DIS' if self.morale_value(loser)[1] else 'COU'} {value} against difficulty {difficulty}"

    def morale_value(self, loser: Fighting) -> tuple[int, bool]:
        """(value, uses DIS): COU, or DIS for a unit in close formation if better (seed: Formations),
        bonuses of standard bearer / musician / war staff and the tactic on the final result."""
        tactic = loser.tactic
        cou = loser.cou_value + loser.cou_bonus + (tactic.get("courage", 0) if tactic else 0)
        if loser.close:
            dis = loser.dis_value + loser.dis_bonus + (tactic.get("discipline", 0) if tactic else 0)
            if dis > cou:
                return dis, True
        return cou, False

    def morale(self, winner: Fighting, loser: Fighting, fighters: Contact | None = None) -> None:
        if loser.state == "rout":
            return
        if loser.all_have("auto_morale"):
            if self.logging:
                self.say(f"    {name(self, loser)} passes its morale roll automatically (Living dead or Righteous)")
            return
        difficulty = self.morale_difficulty(winner, loser)
        value, _ = self.morale_value(loser)
        ones_fail = not loser.all_have("morale_no_auto_fail")
        reroll = loser.all_have("morale_reroll_ones")
        p_hold = test_distribution(value, difficulty, loser.best_of, ones_fail, reroll)[0][0]
        held = self.dice.chance(p_hold)
        if self.logging:
            # The roll shown is the one the draw decided (narration.test_roll()), Bravery's
            # second die after a 1 included.
            roll = test_roll(value, difficulty, loser.best_of, held, self.dice.buffer[self.dice.index - 1], p_hold, ones_fail, reroll)
            words = self.morale_words(loser, value, difficulty) + (f", {roll}" if roll else "")
        if held:
            if self.logging:
                self.say(f"    {name(self, loser)} passes its morale roll ({words})")
            return
        if loser.all_have("fanaticism"):
            # Seed (Fanaticism): the same roll again with the unit's DIS; a success routs it in place.
            dis = loser.dis_value + loser.dis_bonus
            kept = self.test(dis, difficulty, loser.best_of)
            if self.logging:
                again = test_words(self, "DIS", dis, difficulty, loser.best_of, kept)
                self.say(f"    {name(self, loser)} fails its morale roll ({words}); Fanaticism, the roll again: {again}")
            if kept:
                loser.state = "rout"  # routed, but does not flee
                if self.logging:
                    self.say(f"    {name(self, loser)} is in Rout; Fanaticism keeps it in place")
                return
            if self.logging:
                self.say(f"    {name(self, loser)} is in Rout")
            self.rout(loser, winner, fighters)
            return
        if self.logging:
            self.say(f"    {name(self, loser)} fails its morale roll ({words}) and is in Rout")
        self.rout(loser, winner, fighters)

    def rout(self, loser: Fighting, winner: Fighting | None, fighters: Contact | None) -> None:
        """Rout after a fray: the fighters in contact with an enemy are eliminated, the others flee."""
        loser.state = "rout"
        before = self.phase
        self.phase = "rout"
        if fighters is not None:
            uk = unit_key(loser.side, loser.index)
            in_contact: dict[int, int] = {}
            alive = fighters.alive.get(uk)
            if alive is not None:
                grp = fighters.groups[uk]
                for p, combats in enumerate(fighters.per[uk]):
                    if alive[p] and combats and self._touches_live(fighters, uk, combats):
                        in_contact[grp[p]] = in_contact.get(grp[p], 0) + 1
                        alive[p] = False
            self.eliminate_in_contact(loser, winner, in_contact)
        else:
            self.kill_in_contact(loser, winner)
        if loser.alive:
            # It flees away from the enemy that beat it (the fray's direction; a unit in the middle
            # of the table does not run for an edge behind that enemy).
            away = None
            if winner is not None:
                wb, lb = winner.box(), loser.box()
                away = (lb.cx - wb.cx, lb.cy - wb.cy)
            self.flee(loser, away, "away from the enemy that beat it")
        self.phase = before

    def _touches_live(self, fighters: Contact, uk: int, combats: dict[CombatKey, tuple[int, ...]]) -> bool:
        """A fighter of unit *uk* with these *combats* touches a live fighter of a standing enemy."""
        for key, touched in combats.items():
            ek = key[2] if key[0] == uk else key[0]
            if self.unit_of(ek).alive:
                other = fighters.alive[ek]
                for q in touched:
                    if other[q]:
                        return True
        return False

    def eliminate_in_contact(self, u: Fighting, killer: Fighting | None, per_group: dict[int, int]) -> None:
        lost = 0
        for gi, n in sorted(per_group.items()):
            g = u.groups[gi]
            take = min(g.count, n)
            if take:
                g.count -= take
                lost += take
                self.eliminate_points(killer, u, take * g.cost)
        if lost:
            if self.logging:
                self.say(f"    {count(lost, 'fighter')} of {name(self, u)} in contact with the enemy eliminated")
            u.recount()
            if u.count == 0:
                u.state = "gone"
        self.break_contacts(u)

    # -- push on and Implacable ------------------------------------------------

    def push_on(self, units: list[Fighting], wounds: dict[tuple[int, int], int]) -> None:
        """Units free from any opponent push on up to MOV into an enemy still in the fray, on the
        face of it they reach (a close unit loosened by its assault re-forms first: an automatic
        Reformation); Implacable units that caused a loss and are in contact fight again (seed:
        Push on, Implacable fighters)."""
        dealt = [0, 0]
        for (kx, _ky), w in wounds.items():
            dealt[kx // 1000] += w
        first = 0 if dealt[0] > dealt[1] else 1 if dealt[1] > dealt[0] else self.winner_of_roll
        in_fray = {unit_key(u.side, u.index) for u in units}
        for side in (first, 1 - first):
            for u in units:
                if u.side != side or not u.alive or u.state == "rout" or u.engaged:
                    continue
                if u.loose:
                    u.loose = False  # free of any opponent: re-forms (automatic success)
                    shape(u)
                reach = u.mov
                targets = [
                    e for e in self.sides[1 - side]
                    if e.alive and e.engaged and e.state != "rout" and unit_key(e.side, e.index) in in_fray
                    and self.gap(u, e) <= reach
                ]  # fmt: skip
                if not targets:
                    continue
                e = min(targets, key=lambda e: (self.gap(u, e), e.index))
                d = self.gap(u, e)
                face, x, y, fx, fy = self.contact_spot(u, e)
                where = at(u)
                u.place(x, y, fx, fy)
                self.moved(u)
                engage(u, e, FRONT, face)
                if self.logging:
                    self.say(f"  {name(self, u)} pushes on {d:.1f} cm (MOV {reach:g}) from {where} to {at(u)} into {name(self, e)}, on its {FACE_NAMES[face]}")
        self.implacable(units)

    def implacable(self, units: list[Fighting]) -> None:
        """The Implacable combats after push on: each round's fighters are those whose unit caused
        a loss (removed an opponent: ``loss_caused``) in the combats just fought."""
        for rnd in range(1, 1 + max((u.implacable for u in units), default=0)):
            found = self.implacable_combat(units, set(self.loss_caused), rnd)
            if found is None:
                return
            movers, chain, only = found
            if self.logging:
                self.say("  Implacable: " + ", ".join(name(self, u) for u in movers) + " fight again")
            fighters = self.build_contact(chain, only)
            self.loss_caused = set()
            self.resolve_combats(fighters, {}, charge=False)
            fighters.release()

    def implacable_combat(
        self, units: list[Fighting], caused: set[int], rnd: int
    ) -> tuple[list[Fighting], list[Fighting], dict[int, set[int]]] | None:  # fmt: skip
        """Who fights the *rnd*-th Implacable combats of a fray (seed: Implacable fighters): the
        units whose Implacable/X reaches *rnd*, standing, not in Rout, still in contact, that
        caused a loss in the last combats (removed at least one opponent, as the ability says;
        *caused*: their unit keys), with their fighter types of
        Implacable/X >= *rnd*, against the whole enemy units they touch. (movers, the units of the
        new contact in fray order, unit key -> the groups allowed to fight), or None when nobody
        fights again. Shared by the battle (:meth:`implacable`) and the exact fray
        (:mod:`.exact_implacable`), so both read the rule once."""
        movers = [
            u for u in units
            if u.implacable >= rnd and u.alive and u.state != "rout" and u.engaged
            and unit_key(u.side, u.index) in caused
        ]  # fmt: skip
        if not movers:
            return None
        only: dict[int, set[int]] = {}
        chain: list[Fighting] = []
        for u in movers:
            uk = unit_key(u.side, u.index)
            only[uk] = {i for i, g in enumerate(u.groups) if g.count and g.traits.implacable >= rnd}
            if u not in chain:
                chain.append(u)
            for j in sorted(u.engaged):
                e = self.sides[1 - u.side][j]
                if e.alive and e not in chain:
                    chain.append(e)
                    only.setdefault(unit_key(e.side, e.index), set(range(len(e.groups))))
        chain.sort(key=lambda x: (x.side, x.index))
        return movers, chain, only
