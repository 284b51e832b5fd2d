"""Combat phase: frays, contact, combats between fighter types, exchanges, Wounds dealt.

Seed (Combat phase): a fray is a chain of engaged units; a combat opposes one type of fighters
to another (troops, each Character and independent as itself: its own ATT, DEF, STR, RES, INI,
combat dice and abilities). A fighter's combat dice serve the whole fray: a fighter touching
several types shares them (:func:`.fray.share_dice`), never rolls them twice, and its DEF is 0
in a combat where it kept no die. The players pick the combats in turn (the tactical roll's
winner first); each combat has its own Initiative test (+3 for a unit that charged
successfully this round); the side that strikes first removes its losses before the other
strikes back; extra exchanges follow with one die per fighter that used a die and is still in
contact with the same type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .chance import _BLOCK, _bisect_right  # noqa: F401
from .dice import ContestColumn
from .fray import Fighter, _split_front, pair_touches, pair_widths, share_dice, unit_key
from .state import Fighting, Group
from .tables import _column, _contest_cdf, _opposed_p
from .wounds import _wound_one_group, allocate_wounds

if TYPE_CHECKING:
    from .battle import Battle  # noqa: F401


class ExchangeTerms(NamedTuple):
    """One side's attacks in a combat: strikers, targets in contact, dice and the columns read."""

    fx: list[Fighter]  # live strikers in contact
    fy: list[Fighter]  # targets in contact
    dice: int
    fierce_dice: int  # dice of fallen Fierce fighters (ATT 0)
    att: int
    d_def: int
    a_shift: int
    reroll: str
    strength: int
    d_res: int
    w_shift: int
    grace: str


class CombatRules:
    __slots__ = ()

    # -- combat phase ---------------------------------------------------------

    def wound_shift_against(self, target: Fighting) -> int:
        return target.base_wound_shift - target.tactic.get("toughness_shift", 0) if target.tactic else target.base_wound_shift

    def survival_thinning(self, target: Fighting, rolls: int) -> int:
        """Survival instinct: each Wound roll is cancelled on a 6 (when the whole unit has it)."""
        face = target.survival_face
        if face and rolls:
            cancel = (7 - face) / 6  # natural result >= face cancels the roll
            return rolls - self.dice.binomial(rolls, cancel)
        return rolls

    def deal(
        self, killer: Fighting | None, target: Fighting, wounds: int, in_contact: int, scattered: bool,
        victims: list[Group] | None = None,
    ) -> int:  # fmt: skip
        """Allocate Wounds, record the losses, Fierce/Possessed survivors and Thaumaturge faith."""
        if wounds <= 0 or not target.alive:
            return 0
        groups = victims or target.groups
        if len(groups) == 1 and groups[0].count > 0:
            return self._deal_one(killer, target, groups[0], wounds, in_contact, scattered)
        killed, per_group, _lost = allocate_wounds(groups, wounds, in_contact, scattered)
        self._upkeep.add(target)  # lost, damage or fierce_left may have changed: maintenance() looks
        scores, other = self.scores, 1 - target.side
        emptied = False
        lost_points = 0
        for g, n in per_group:
            g.lost += n
            t = g.traits
            if t.fierce or (t.possessed and g.wound_levels == 1):
                g.fierce_left += n
            # eliminate_points(), inlined
            points = n * g.cost
            lost_points += points
            scores[other] += points
            if killer is not None:
                killer.kills += points
            if not g.count:
                emptied = True
        if killer is not None:
            killer.wounds_dealt_round += wounds
        if target.thaumaturge:
            target.faith += wounds
        if not killed:
            return 0  # nobody fell: numbers, troops and unit-wide traits are unchanged (no recount)
        if not emptied:
            # recount(), incrementally: no group was emptied, so the live groups (hence troops, MOV,
            # unit-wide traits and the all_have() answers) are unchanged; only the numbers drop.
            target.count -= killed
            target.points -= lost_points
            target.damage_memo = {}  # the AI's expected damage follows the numbers (a new dict, as recount() gives)
            return killed
        target.recount()
        if target.count == 0 and not any(g.fierce_left for g in target.groups):
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def _deal_one(
        self, killer: Fighting | None, target: Fighting, g: Group, wounds: int, in_contact: int, scattered: bool
    ) -> int:  # fmt: skip
        """deal() to a single live group (the commonest case): the one-group closed form, then the
        bookkeeping of its one (group, eliminated) pair inlined (no lists, no tuples)."""
        killed = _wound_one_group(g, wounds, in_contact, scattered)[0]
        self._upkeep.add(target)  # lost, damage or fierce_left may have changed: maintenance() looks
        if killer is not None:
            killer.wounds_dealt_round += wounds
        if target.thaumaturge:
            target.faith += wounds
        if not killed:
            return 0  # nobody fell: numbers, troops and unit-wide traits are unchanged (no recount)
        g.lost += killed
        t = g.traits
        if t.fierce or (t.possessed and g.wound_levels == 1):
            g.fierce_left += killed
        points = killed * g.cost  # eliminate_points(), inlined
        self.scores[1 - target.side] += points
        if killer is not None:
            killer.kills += points
        if g.count:
            # recount(), incrementally (see deal())
            target.count -= killed
            target.points -= points
            target.damage_memo = {}
            return killed
        target.recount()
        if target.count == 0 and not any(h.fierce_left for h in target.groups):
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def break_contacts(self, unit: Fighting) -> None:
        me = unit.index
        for other in list(unit.engaged):
            self.sides[1 - unit.side][other].engaged.discard(me)
        unit.engaged.clear()

    def attack_roll(self, column: ContestColumn, dice: int) -> tuple[int, int]:
        """Physical attack roll (used when the target can counter-attack): (successes, first natural 1s)."""
        succ = ones = 0
        d6 = self.dice.d6
        success, reroll_from, reroll_ones = column.success, column.reroll_from, column.reroll == "ones"
        for _ in range(dice):
            face = d6()  # d6_reroll(column), inlined
            if reroll_ones and face == 1:
                face = d6()
            if face == 1:
                ones += 1
            while face != 1:
                if face >= success:
                    succ += 1
                if face >= reroll_from:
                    face = d6()
                    continue
                break
        return ((succ + 1) // 2 if column.halved else succ), ones

    @staticmethod
    def _special_attacks(
        g: Group, mutagenic: int, extra: bool, routed: bool, fighters: int, dice: int, att: int, strength: int,
        a_shift: int, d_def: int,
    ) -> tuple[int, int, int, int]:  # fmt: skip
        """(ATT, STR, dice, attack shift) of a group with a trait that changes its attacks (not plain)."""
        t = g.traits
        profile = g.profile
        if t.possessed and g.wound_levels > 1 and g.count == 1:
            att += g.damage
            strength += g.damage
        if t.concentration and not extra:
            att += t.concentration
        if t.mutagenic is not None and mutagenic:
            att += min(mutagenic, 2 + max(t.mutagenic, 0))  # at most 2 + X on one characteristic
        if t.sequence and not extra and not routed:
            seq = max(0, min(t.sequence, att - 1 - d_def))
            dice += seq * fighters
            att -= seq
        if t.master_strike is not None and not routed:
            a_shift -= 1
            strength += min(att, profile.att) + t.master_strike
        return att, strength, dice, a_shift


    # -- the fray: contact, combats, exchanges ---------------------------------

    def unit_of(self, key: int) -> Fighting:
        return self.sides[key // 1000][key % 1000]

    def frays(self) -> list[list[Fighting]]:
        """The frays: chains of units engaged with one another (seed: A fray is an uninterrupted
        chain of units engaged by another), each listed side 0 first, then by unit index."""
        seen: set[int] = set()
        out = []
        for side in (0, 1):
            for u in self.sides[side]:
                k = unit_key(u.side, u.index)
                if k in seen or not u.engaged or not u.alive:
                    continue
                chain, todo = [], [u]
                seen.add(k)
                while todo:
                    v = todo.pop()
                    chain.append(v)
                    for j in sorted(v.engaged):
                        w = self.sides[1 - v.side][j]
                        kw = unit_key(w.side, w.index)
                        if kw not in seen and w.alive:
                            seen.add(kw)
                            todo.append(w)
                chain.sort(key=lambda x: (x.side, x.index))
                out.append(chain)
        return out

    def build_contact(self, units: list[Fighting], only: dict[int, set[int]] | None = None) -> dict[int, list[Fighter]]:
        """Who touches whom in a fray (see :mod:`.fray`), and every fighter's combat dice shared
        between its combats. *only*: unit key -> the groups allowed to fight (Implacable combats)."""
        fighters: dict[int, list[Fighter]] = {}
        faced: dict[int, dict[int, list[int]]] = {}
        for u in units:
            uk = unit_key(u.side, u.index)
            order: list[int] = []
            fallen: list[int] = []
            for g in u.ordered:  # independents first: they lead the contact
                gi = u.groups.index(g)  # (groups compare by identity: eq=False)
                if only is not None and gi not in only.get(uk, ()):
                    continue
                order += [gi] * g.count
                fallen += [gi] * g.fierce_left  # fallen Fierce fighters still fight (seed: Fierce)
            order = order[: u.front()]
            live = len(order)
            order += fallen  # where they fell, in contact
            fighters[uk] = [Fighter(uk, pos, gi, alive=pos < live, fierce=pos >= live) for pos, gi in enumerate(order)]
            enemies = [j for j in sorted(u.engaged) if self.sides[1 - u.side][j].alive]
            faced[uk] = dict(zip(enemies, _split_front(len(order), len(enemies)), strict=True))
        for a in units:
            if a.side != 0:
                continue
            ka = unit_key(0, a.index)
            for j in sorted(a.engaged):
                kb = unit_key(1, j)
                if kb not in fighters:
                    continue
                pos_a, pos_b = faced[ka].get(j, []), faced[kb].get(a.index, [])
                ca, cb = pair_widths(len(pos_a), len(pos_b))
                pos_a, pos_b = pos_a[:ca], pos_b[:cb]
                for p, q in pair_touches(ca, cb):
                    fighters[ka][pos_a[p]].touches.append((kb, pos_b[q]))
                    fighters[kb][pos_b[q]].touches.append((ka, pos_a[p]))
        preferred: dict[tuple, list] = {}  # the player's order of the same set of combats, asked once
        for uk, row in fighters.items():
            u = self.unit_of(uk)
            for f in row:
                keys = []
                for ek, epos in f.touches:
                    e = fighters[ek][epos]
                    key = (uk, f.group, ek, e.group) if uk < ek else (ek, e.group, uk, f.group)
                    if key not in keys:
                        keys.append(key)
                if keys:
                    ask = (uk, f.group, tuple(keys))
                    order = preferred.get(ask)
                    if order is None:
                        order = preferred[ask] = self.policies[u.side].dice_order(self, u, f.group, keys)
                    f.dice = share_dice(u.groups[f.group].dice_each, order)
                    f.combats = tuple(keys)
        return fighters

    @staticmethod
    def combatants(fighters: dict[int, list[Fighter]], key: tuple[int, int, int, int], side_key: int, group: int, other_key: int, other_group: int, fierce: bool = False) -> list[Fighter]:
        """Live fighters of *group* of unit *side_key* touching a live fighter of *other_group*
        (*fierce*: with the fallen Fierce fighters that still strike)."""
        row, other = fighters.get(side_key, ()), fighters.get(other_key, ())
        out = []
        for f in row:
            if (f.alive or (fierce and f.fierce)) and f.group == group:
                for ek, epos in f.touches:
                    if ek == other_key and other[epos].alive and other[epos].group == other_group:
                        out.append(f)
                        break
        return out

    @staticmethod
    def combats_of(fighters: dict[int, list[Fighter]]) -> list[tuple[int, int, int, int]]:
        keys: set[tuple[int, int, int, int]] = set()
        for row in fighters.values():
            for f in row:
                keys.update(f.combats)
        return sorted(keys)

    def resolve_combats(self, fighters: dict[int, list[Fighter]], wounds: dict[tuple[int, int], int], charge: bool = True) -> None:
        """Every combat of the fray, picked in turn, the winner of the tactical roll first (seed:
        Picking the fray and the combat)."""
        for key in self.combat_sequence(fighters):
            self.resolve_combat(key, fighters, wounds, charge)

    def combat_sequence(self, fighters: dict[int, list[Fighter]]) -> list[tuple[int, int, int, int]]:
        """The fray's combats in the order they are resolved: each player ranks them once, as the
        fray stands when it begins, and they pick in turn, the tactical roll's winner first.
        (Shared with the exact fray, :mod:`.exact`: the order depends on no die.)"""
        pending = self.combats_of(fighters)
        tally: dict[tuple[int, int, int, int], list[int]] = {key: [0, 0] for key in pending}
        for uk, row in fighters.items():
            for f in row:
                if f.alive:
                    for key, n in f.dice.items():
                        tally[key][0 if key[0] == uk else 1] += n
        dice = {key: (v[0], v[1]) for key, v in tally.items()}
        ranks = [self.policies[side].combat_order(self, side, pending, dice) for side in (0, 1)]
        done: set = set()
        picker = self.winner_of_roll
        out = []
        for _ in range(len(pending)):
            key = next(k for k in ranks[picker] if k not in done)
            done.add(key)
            out.append(key)
            picker = 1 - picker
        return out

    def combat_ini(self, u: Fighting, g: Group, charge: bool) -> int:
        ini = g.base["ini"]
        if u.tactic:
            ini += u.tactic.get("initiative", 0)
        if u.round_effects:
            ini += u.round_effects.get("ini", 0)
        if charge and u.charged:
            ini += 3  # seed: a unit having successfully charged gets +3 on this Initiative test
        return ini

    def resolve_combat(self, key: tuple[int, int, int, int], fighters: dict[int, list[Fighter]], wounds: dict[tuple[int, int], int], charge: bool = True) -> None:
        """One combat (seed: Resolving a combat): Initiative test, exchange, extra exchanges."""
        ka, ga, kb, gb = key
        a, b = self.unit_of(ka), self.unit_of(kb)
        if not (a.alive and b.alive):
            return
        fa = self.combatants(fighters, key, ka, ga, kb, gb)
        fb = self.combatants(fighters, key, kb, gb, ka, ga)
        if not fa or not fb:
            return
        GA, GB = a.groups[ga], b.groups[gb]
        ini_a, ini_b = self.combat_ini(a, GA, charge), self.combat_ini(b, GB, charge)
        a_first = self.dice.chance(_opposed_p(ini_a, ini_b, a.side == self.winner_of_roll))
        first, second = ((a, ga, ka), (b, gb, kb)) if a_first else ((b, gb, kb), (a, ga, ka))
        if self.logging:
            self.say(
                f"  combat {a.groups[ga].profile.name} ({a.name}, {len(fa)}) vs {b.groups[gb].profile.name} ({b.name}, {len(fb)}):"
                f" INI {ini_a} vs {ini_b}, {first[0].groups[first[1]].profile.name} strike first"
            )
        lowered = {ka: self.lowers_def(a, GA), kb: self.lowers_def(b, GB)}
        self.exchange(first, second, key, fighters, wounds, lowered, 0)
        self.exchange(second, first, key, fighters, wounds, lowered, 0)
        # Extra exchanges: only fighters that used a die here, still touching the same type.
        n1, n2 = self.extra_exchanges(first[0], first[0].groups[first[1]]), self.extra_exchanges(second[0], second[0].groups[second[1]])
        for r in range(1, max(n1, n2) + 1):
            if n1 >= r:
                self.exchange(first, second, key, fighters, wounds, lowered, r)
            if n2 >= r:
                self.exchange(second, first, key, fighters, wounds, lowered, r)

    def lowers_def(self, u: Fighting, g: Group) -> bool:
        """The AI lowers DEF to 0 for Bravery/Righteous/Fanaticism when its DEF is worth little."""
        t = g.traits
        return bool((t.lower_def_att or t.lower_def_str) and g.base["def"] <= 1 and u.state != "rout")

    def extra_exchanges(self, u: Fighting, g: Group) -> int:
        """Extra exchanges of a fighter type: War fury, Born killer, Brutish charge, tactic, effects."""
        t = g.traits
        bonus = (u.round_effects.get("war-fury", 0) if u.round_effects else 0) + (u.tactic.get("extra_exchange", 0) if u.tactic else 0)
        n = t.extra_exchanges + bonus
        if u.state == "rout":
            n = 0  # War fury ceases in Rout (seed: Rout, particular cases)
        return n + (1 if t.brutish_charge and u.charged else 0)

    def exchange_terms(
        self, striker: tuple, target: tuple, key: tuple[int, int, int, int], fighters: dict[int, list[Fighter]],
        lowered: dict[int, bool], extra_round: int,
    ) -> ExchangeTerms | None:  # fmt: skip
        """What one side's attacks in a combat roll, as the fray stands (seed: Exchange): None when
        nobody strikes or nobody is struck. The battle rolls these dice (:meth:`exchange`), the
        exact fray (:mod:`.exact`) enumerates them: one reading of the rules for both."""
        x, gx, kx = striker[0], striker[1], striker[2]
        y, gy, ky = target[0], target[1], target[2]
        if not y.alive:
            return None
        strikers = self.combatants(fighters, key, kx, gx, ky, gy, fierce=True)
        fx = [f for f in strikers if f.alive]
        fy = self.combatants(fighters, key, ky, gy, kx, gx)
        if not fy:
            return None
        GX, GY = x.groups[gx], y.groups[gy]
        if x.no_attack:
            dice = fierce_dice = 0  # a failed disengagement (seed: Progress (Disengagement))
        elif extra_round:
            dice = sum(1 for f in fx if f.dice.get(key, 0) > 0)
            fierce_dice = 0
        else:
            dice = sum(f.dice.get(key, 0) for f in fx)
            fierce_dice = sum(f.dice.get(key, 0) for f in strikers if not f.alive)
        if dice <= 0 and fierce_dice <= 0:
            return None
        # DEF of the targets: 0 when none of them kept a die for this combat, or lowered to 0.
        d_lowered = lowered.get(ky, False)
        has_die = any(f.dice.get(key, 0) > 0 for f in fy)
        d_def = 0 if d_lowered or not has_die else GY.base["def"]
        d_res = GY.base["res"]
        y_tactic, y_effects = y.tactic, y.round_effects
        a_shift = 0
        # Hard boiled of the type struck (its own abilities), and the tactic of its unit
        w_shift = GY.traits.wound_shift_against - (y_tactic.get("toughness_shift", 0) if y_tactic else 0)
        if y_tactic:
            if d_def:
                d_def += y_tactic.get("defense", 0)
            d_res += y_tactic.get("resistance", 0)
            a_shift -= y_tactic.get("defense_shift", 0)
        if y_effects:
            if d_def:
                d_def += y_effects.get("def", 0)
            d_res += y_effects.get("res", 0)
        x_tactic, x_effects = x.tactic, x.round_effects
        att, strength = GX.profile.att, GX.profile.str_
        grace = ""
        if x_tactic:
            a_shift += x_tactic.get("attack_shift", 0)
            w_shift += x_tactic.get("wound_shift", 0)
            att += x_tactic.get("attack", 0)
            strength += x_tactic.get("strength", 0)
        if x_effects:
            att += x_effects.get("att", 0)
            strength += x_effects.get("str", 0)
            grace = "failures" if x_effects.get("grace") else ""
        routed = x.state == "rout"
        if routed:
            att = 0  # seed: in Rout, ATT is 0
        if lowered.get(kx, False):
            att += GX.traits.lower_def_att
            strength += GX.traits.lower_def_str
        if not GX.plain:
            mutagenic = x_effects.get("mutagenic", 0) if x_effects else 0
            att, strength, dice, a_shift = self._special_attacks(
                GX, mutagenic, bool(extra_round), routed, len(fx), dice, att, strength, a_shift, d_def
            )
        reroll = GX.traits.attack_reroll or grace
        return ExchangeTerms(fx, fy, dice, fierce_dice, att, d_def, a_shift, reroll, strength, d_res, w_shift, grace)

    def exchange(self, striker: tuple, target: tuple, key: tuple[int, int, int, int], fighters: dict[int, list[Fighter]], wounds: dict[tuple[int, int], int], lowered: dict[int, bool], extra_round: int) -> int:
        """One side's attacks in a combat (seed: Exchange): its dice rolled once, Wound rolls,
        Wounds dealt to the opponents in contact, the surplus spread over a scattered unit only."""
        terms = self.exchange_terms(striker, target, key, fighters, lowered, extra_round)
        if terms is None:
            return 0
        x, gx, kx = striker[0], striker[1], striker[2]
        y, gy, ky = target[0], target[1], target[2]
        GX, GY = x.groups[gx], y.groups[gy]
        fy, dice, fierce_dice, att, d_def, a_shift, reroll = terms.fy, terms.dice, terms.fierce_dice, terms.att, terms.d_def, terms.a_shift, terms.reroll
        strength, d_res, w_shift, grace = terms.strength, terms.d_res, terms.w_shift, terms.grace
        x_effects = x.round_effects
        table = self.table
        counter = 0
        if GY.traits.counter_attack_face and not extra_round:
            attacks, counter = self.attack_roll(_column(table, att - d_def, a_shift, reroll), dice)
        else:
            attacks = self.dice.from_cdf(_contest_cdf(table, att - d_def, dice, a_shift, reroll)) if dice > 0 else 0
        if fierce_dice:
            # Eliminated Fierce (or one-level Possessed) fighters still strike, ATT 0 (seed: Fierce).
            attacks += self.dice.from_cdf(_contest_cdf(table, 0 - d_def, fierce_dice, a_shift, reroll))
        if GY.traits.survival_face and attacks:
            attacks = self._survival(GY.traits.survival_face, attacks)
        dealt = self.dice.from_cdf(_contest_cdf(table, strength - d_res, attacks, w_shift, grace)) if attacks else 0
        killed = 0
        if dealt:
            wounds[(kx, ky)] = wounds.get((kx, ky), 0) + dealt
            killed = self.wound_type(x, y, gy, dealt, fy, key, fighters)
            GX.kills += killed * GY.cost
            if x_effects and x_effects.get("anger"):
                self.deal(y, x, dealt, x.count, True)  # Divine anger
        if self.logging:
            label = f" (extra exchange {extra_round})" if extra_round else ""
            self.say(
                f"    {GX.profile.name} ({x.name}){label}: {dice} dice at ATT {att} vs DEF {d_def}, {attacks} hits,"
                f" {dealt} Wounds (STR {strength} vs RES {d_res}): {killed} {GY.profile.name} eliminated"
            )
        if counter and y.alive and x.alive:
            self.counter_attack(y, GY, x, GX, counter, self.combatants(fighters, key, kx, gx, ky, gy))
        return dealt

    def _survival(self, face: int, rolls: int) -> int:
        cancel = (7 - face) / 6
        return rolls - self.dice.binomial(rolls, cancel)

    def wound_type(self, x: Fighting, y: Fighting, gy: int, dealt: int, fy: list[Fighter], key: tuple[int, int, int, int], fighters: dict[int, list[Fighter]]) -> int:
        """Wounds dealt to fighter type *gy* of *y*: the opponents in contact first, as many losses
        as possible; the surplus to the others of the type in a scattered unit, lost in a close one.
        The fighters removed are those in contact (the ones with most dice here first), then the
        type's fighters out of contact, then its other fighters in the fray."""
        g = y.groups[gy]
        killed = self.deal(x, y, dealt, len(fy), not y.close, victims=[g])
        if not killed:
            return 0
        order = sorted(fy, key=lambda f: (-f.dice.get(key, 0), f.pos))
        fierce = g.traits.fierce or (g.traits.possessed and g.wound_levels == 1)
        for f in order[:killed]:
            f.alive = False
            f.fierce = fierce
        row = fighters.get(unit_key(y.side, y.index), [])
        front_alive = [f for f in row if f.alive and f.group == gy]
        extra = len(front_alive) - g.count
        for f in sorted(front_alive, key=lambda f: -f.pos)[: max(extra, 0)]:
            f.alive = False
        if y.state == "gone":
            for f in row:
                f.alive = False
        return killed

    def counter_attack(self, defender: Fighting, dg: Group, attacker: Fighting, ag: Group, dice: int, in_contact: list[Fighter]) -> None:
        """Counter-attack: the defender's won dice attack fighters of the same combat."""
        att_diff, str_diff, shift = self.counter_terms(defender, dg, attacker, ag)
        attacks = self.dice.from_cdf(_contest_cdf(self.table, att_diff, dice, 0))
        if attacks:
            wounds = self.dice.from_cdf(_contest_cdf(self.table, str_diff, attacks, shift))
            self.counter_deal(defender, attacker, ag, wounds, in_contact)
            self.logging and self.say(f"    {dg.profile.name} counter-attacks with {dice} dice: {wounds} Wounds")

    def counter_terms(self, defender: Fighting, dg: Group, attacker: Fighting, ag: Group) -> tuple[int, int, int]:
        """(ATT - DEF, STR - RES, Wound roll shift) of a counter-attack (shared with :mod:`.exact`)."""
        a_def = ag.base["def"] + (attacker.tactic.get("defense", 0) if attacker.tactic else 0)
        a_res = ag.base["res"] + (attacker.tactic.get("resistance", 0) if attacker.tactic else 0)
        return dg.profile.att - a_def, dg.profile.str_ - a_res, self.wound_shift_against(attacker)

    def counter_deal(self, defender: Fighting, attacker: Fighting, ag: Group, wounds: int, in_contact: list[Fighter]) -> int:
        """A counter-attack's Wounds to the attackers in contact (shared with :mod:`.exact`)."""
        killed = self.deal(defender, attacker, wounds, len(in_contact), not attacker.close, victims=[ag])
        for f in sorted(in_contact, key=lambda f: f.pos)[:killed]:
            f.alive = False
        return killed

    def fray(self, a: Fighting, b: Fighting, implacable: bool = False) -> tuple[int, int]:
        """The combats of two engaged units alone (no outcome): the Wounds each inflicted.

        For scenarios and the exact fray: the same contact, dice sharing and exchanges as the
        combat phase. *implacable*: a push-on combat (no charge bonus)."""
        a.engaged.add(b.index)
        b.engaged.add(a.index)
        pair = sorted((a, b), key=lambda u: (u.side, u.index))
        fighters = self.build_contact(pair)
        wounds: dict[tuple[int, int], int] = {}
        self.resolve_combats(fighters, wounds, charge=not implacable)
        ka, kb = unit_key(a.side, a.index), unit_key(b.side, b.index)
        return wounds.get((ka, kb), 0), wounds.get((kb, ka), 0)
