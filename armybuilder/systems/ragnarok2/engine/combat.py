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

from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple, cast

from mypy_extensions import trait

from .base import BattleBase
from .contact import contact_positions
from .dice import ContestColumn
from .formation import FRONT, shape, slots
from .fray import (
    CombatKey,
    Contact,
    Fighter,
    Member,
    pair_contact,
    share_dice,
    unit_key,
)
from .narration import count, say_combat, say_exchange
from .state import Fighting, Group
from .tables import contest_cdf, opposed_chance, table_column
from .wounds import allocate_wounds, wound_one_group

if TYPE_CHECKING:
    from .battle import Battle  # noqa: F401

_side_index = attrgetter("side", "index")  # a fray's units: side 0 first, then by unit index


def _combatants_at(fighters: Contact, key: CombatKey, side_key: int, other_key: int, fierce: bool = False) -> list[int]:
    """Positions of the live fighters of unit *side_key* in combat *key* touching a live enemy
    there (*fierce*: with the fallen Fierce fighters that still strike), in position order."""
    alive, other = fighters.alive[side_key], fighters.alive[other_key]
    fallen = fighters.fierce[side_key]
    out = []
    for p, touched, _dice in fighters.members.get((key, side_key), ()):
        if alive[p] or (fierce and fallen[p]):
            for q in touched:
                if other[q]:
                    out.append(p)
                    break
    return out


# One side of a combat: (unit, fighter type's index in the unit, unit key).
Striker = tuple[Fighting, int, int]
# exchange_terms() as a plain tuple (see _terms()): strikers' and targets' positions, dice,
# fallen Fierce dice, ATT, DEF, attack shift, re-roll, STR, RES, Wound shift, grace.
Terms = tuple[list[int], list[int], int, int, int, int, int, str, int, int, int, str]


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


def forget(u: Fighting, enemy: int) -> None:
    """*u* is no longer in contact with enemy unit *enemy*."""
    u.engaged.discard(enemy)
    u.faces.pop(enemy, None)
    u.new_foes.discard(enemy)
    u.assailed_by_me.discard(enemy)
    u.withstood.discard(enemy)


def engage(a: Fighting, b: Fighting, a_face: int, b_face: int) -> None:
    """*a* and *b* are in contact, on these faces of each."""
    a.engaged.add(b.index)
    b.engaged.add(a.index)
    a.faces[b.index] = a_face
    b.faces[a.index] = b_face


def earns_charge_bonus(assailant: Fighting, assailed: Fighting) -> bool:
    """Seed (Assault (Charge)): a successful charge gives its fighters +3 on their Initiative
    tests only "if the Power of the assailing unit is higher or equal to the Power of the
    assailed unit". The Initiative test section repeats the +3 without the condition; the
    Assault section is the specific rule, so it is read as the condition of that bonus. Power
    is taken as the charge gives it to both sides (a close unit doubles it, Hard-boiled and
    similar traits count)."""
    return assailant.power(True, False) >= assailed.power(False, True)


@trait
class CombatRules(BattleBase):
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
        self.record_loss(target.side, lost_points)
        if not emptied:
            # recount(), incrementally: no group was emptied, so the live groups (hence troops, MOV,
            # unit-wide traits and the all_have() answers) are unchanged; only the numbers drop.
            target.count -= killed
            target.points -= lost_points
            target.damage_memo = {}  # the AI's expected damage follows the numbers (a new dict, as recount() gives)
            shape(target)  # the rear rank thins
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
        killed = wound_one_group(g, wounds, in_contact, scattered)[0]
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
        self.record_loss(target.side, points)
        if killer is not None:
            killer.kills += points
        if g.count:
            # recount(), incrementally (see deal())
            target.count -= killed
            target.points -= points
            target.damage_memo = {}
            shape(target)
            return killed
        target.recount()
        if target.count == 0 and not any(h.fierce_left for h in target.groups):
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def break_contacts(self, unit: Fighting) -> None:
        me = unit.index
        for other in list(unit.engaged):
            forget(self.sides[1 - unit.side][other], me)
        unit.engaged.clear()
        unit.faces.clear()
        unit.new_foes.clear()
        unit.assailed_by_me.clear()
        unit.withstood.clear()

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
        sides = self.sides
        for side in (0, 1):
            for u in sides[side]:
                if not u.engaged or not u.alive:
                    continue
                k = side * 1000 + u.index
                if k in seen:
                    continue
                seen.add(k)
                if len(u.engaged) == 1:
                    # The commonest fray: two units engaged only with each other (no chain to walk).
                    (j,) = u.engaged
                    w = sides[1 - side][j]
                    kw = (1 - side) * 1000 + j
                    if len(w.engaged) == 1 and u.index in w.engaged and w.alive and kw not in seen:
                        seen.add(kw)
                        out.append([u, w] if side == 0 else [w, u])
                        continue
                chain, todo = [], [u]
                while todo:
                    v = todo.pop()
                    chain.append(v)
                    for j in sorted(v.engaged):
                        w = sides[1 - v.side][j]
                        kw = w.side * 1000 + w.index
                        if kw not in seen and w.alive:
                            seen.add(kw)
                            todo.append(w)
                chain.sort(key=_side_index)
                out.append(chain)
        return out

    def build_contact(self, units: list[Fighting], only: dict[int, set[int]] | None = None) -> Contact:
        """Who touches whom in a fray (see :mod:`.fray` and :mod:`.contact`), and every fighter's
        combat dice shared between its combats. *only*: unit key -> the groups allowed to fight
        (Implacable combats).

        Each unit's row is its fighters in slot order (:func:`.formation.slots`), the fallen
        Fierce fighters after them; the fighters facing each enemy come from where the units
        stand (:func:`.contact.contact_positions`). Each pair of units facing each other gives its
        touches and most dice by value (:func:`.fray.pair_contact`, cached: the same fronts come
        back game after game); the contact adds the fighters' flags and asks the players how the
        fighters touching several types share their dice (only when the sharing can differ: dice
        that divide evenly between the combats go the same way in any order)."""
        contact = Contact()
        sides = self.sides
        faced: dict[int, dict[int, tuple[int, ...]]] = {}
        overlapping: list[int] = []
        for u in units:
            uk = u.side * 1000 + u.index
            allowed = only.get(uk, ()) if only is not None else None
            row: list[int] = []
            fallen: list[int] = []
            for _a, _b, gi, _f, _r in slots(u):
                row.append(gi)
            for gi, g in enumerate(u.groups):
                if g.fierce_left:
                    fallen += [gi] * g.fierce_left  # fallen Fierce fighters still fight (seed: Fierce)
            standing = len(row)
            if fallen:  # where they fell, in contact
                row += fallen
                contact.alive[uk] = [True] * standing + [False] * len(fallen)
                contact.fierce[uk] = [False] * standing + [True] * len(fallen)
            else:
                contact.alive[uk] = [True] * standing
                contact.fierce[uk] = [False] * standing
            grp = contact.groups[uk] = tuple(row)
            foes = sides[1 - u.side]
            enemies = [foes[j] for j in sorted(u.engaged) if foes[j].alive]
            facing = contact_positions(u, enemies)
            if fallen:
                extra = tuple(range(standing, len(row)))
                facing = {j: ps + extra for j, ps in facing.items()}
            if allowed is not None:
                facing = {j: tuple(p for p in ps if grp[p] in allowed) for j, ps in facing.items()}
            faced[uk] = facing
            seen: set[int] = set()
            for ps in facing.values():
                if seen.intersection(ps):
                    overlapping.append(uk)  # some fighters face several units
                    break
                seen.update(ps)
        # Each pair of units facing each other (side 0's units in order, then their enemies):
        # its touches and members by value (:func:`.fray.pair_contact`).
        members = contact.members
        shared: dict[int, list[tuple[int, tuple[CombatKey, ...]]]] = {}
        groups_of = contact.groups
        for ka, faced_a in faced.items():
            if ka >= 1000:
                continue
            grp_a, each_a = groups_of[ka], sides[0][ka].dice_row
            for j, pos_a in faced_a.items():
                kb = 1000 + j
                faced_b = faced.get(kb)
                if faced_b is None:
                    continue
                pos_b = faced_b.get(ka)
                if not pos_b or not pos_a:
                    continue
                grp_b = groups_of[kb]
                block_a = tuple(grp_a[p] for p in pos_a)  # the groups of the fighters facing each other
                block_b = tuple(grp_b[p] for p in pos_b)
                pair = pair_contact(pos_a, block_a, each_a, pos_b, block_b, sides[1][j].dice_row)
                for ga, gb, side, listed in pair.members:
                    members[((ka, ga, kb, gb), kb if side else ka)] = listed
                for side, p, combos in pair.shared:
                    shared.setdefault(kb if side else ka, []).append((p, tuple((ka, ga, kb, gb) for ga, gb in combos)))
        for uk in overlapping:
            # Its fighters facing several units join combats of several pairs: gathered here.
            keys_at: dict[int, list[CombatKey]] = {}
            for (key, owner), listed in members.items():
                if owner == uk:
                    for p, _touched, _d in listed:
                        keys_at.setdefault(p, []).append(key)
            shared[uk] = [(p, tuple(keys)) for p, keys in sorted(keys_at.items()) if len(keys) > 1]
        for uk, fighters_shared in shared.items():
            if fighters_shared:
                self._share_dice(contact, uk, fighters_shared)
        return contact

    def _share_dice(self, contact: Contact, uk: int, shared: list[tuple[int, tuple[CombatKey, ...]]]) -> None:
        """The dice of unit *uk*'s fighters in several combats (position, its combats), shared
        as its player prefers (seed: Combat dice), written into the combats' members."""
        u = self.sides[uk // 1000][uk % 1000]
        groups, grp = u.groups, contact.groups[uk]
        members = contact.members
        # The player's sharing for the same set of combats, asked once per set (each combat key
        # names the fighter type), shared by the fighters that join the same ones.
        preferred: dict[tuple[CombatKey, ...], dict[CombatKey, int]] = {}
        patched: dict[CombatKey, list[Member]] = {}
        for p, keys in shared:
            dice = preferred.get(keys)
            if dice is None:
                gi = grp[p]
                each, n = groups[gi].dice_each, len(keys)
                if each % n == 0:
                    # As many dice for every combat: the same sharing in any order (no choice to ask).
                    dice = {key: each // n for key in keys} if each > 0 else {}
                else:
                    order = self.policies[u.side].dice_order(cast("Battle", self), u, gi, list(keys))
                    dice = share_dice(each, order)
                preferred[keys] = dice
            for key in keys:
                listed = patched.get(key)
                if listed is None:
                    listed = patched[key] = list(members[(key, uk)])
                for i, (q, touched, _d) in enumerate(listed):
                    if q == p:
                        listed[i] = (p, touched, dice.get(key, 0))
                        break
        for key, listed in patched.items():
            members[(key, uk)] = tuple(listed)

    @staticmethod
    def combatants(fighters: Contact, key: CombatKey, side_key: int, group: int, other_key: int, other_group: int, fierce: bool = False) -> list[Fighter]:
        """Live fighters of *group* of unit *side_key* touching a live fighter of *other_group*
        (*fierce*: with the fallen Fierce fighters that still strike), in position order."""
        return [Fighter(fighters, side_key, p) for p in _combatants_at(fighters, key, side_key, other_key, fierce)]

    @staticmethod
    def _in_combat(fighters: Contact, key: CombatKey, side_key: int, group: int, other_key: int, other_group: int) -> bool:
        """Some live fighter of *group* of *side_key* touches a live one of *other_group*
        (``bool(combatants(...))``, stopping at the first)."""
        alive, other = fighters.alive[side_key], fighters.alive[other_key]
        for p, touched, _dice in fighters.members.get((key, side_key), ()):
            if alive[p]:
                for q in touched:
                    if other[q]:
                        return True
        return False

    def combats_of(self, fighters: Contact) -> list[CombatKey]:
        return list(fighters.keys_sorted)

    def resolve_combats(self, fighters: Contact, wounds: dict[tuple[int, int], int], charge: bool = True) -> None:
        """Every combat of the fray, picked in turn, the winner of the tactical roll first (seed:
        Picking the fray and the combat)."""
        for key in self.combat_sequence(fighters):
            self.resolve_combat(key, fighters, wounds, charge)

    def combat_sequence(self, fighters: Contact) -> list[tuple[int, int, int, int]]:
        """The fray's combats in the order they are resolved: each player ranks them once, as the
        fray stands when it begins, and they pick in turn, the tactical roll's winner first.
        (Shared with the exact fray, :mod:`.exact`: the order depends on no die.)"""
        pending = self.combats_of(fighters)
        tally: dict[CombatKey, list[int]] = {key: [0, 0] for key in pending}
        alive = fighters.alive
        for (key, uk), listed in fighters.members.items():
            flags = alive[uk]
            n = 0
            for p, _touched, d in listed:
                if flags[p]:
                    n += d
            tally[key][0 if key[0] == uk else 1] += n
        dice = {key: (v[0], v[1]) for key, v in tally.items()}
        ranks = [self.policies[side].combat_order(cast("Battle", self), side, pending, dice) for side in (0, 1)]
        done: set = set()
        picker = self.winner_of_roll
        out = []
        at = [0, 0]  # each player's place in its ranking: the combats before it are all taken
        for _ in range(len(pending)):
            rank, i = ranks[picker], at[picker]
            while rank[i] in done:
                i += 1
            key = rank[i]
            at[picker] = i + 1
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
        if charge and u.charge_bonus:
            ini += 3  # seed: a successful charge at no less Power gives +3 on this Initiative test
        return ini

    def resolve_combat(self, key: tuple[int, int, int, int], fighters: Contact, wounds: dict[tuple[int, int], int], charge: bool = True) -> None:
        """One combat (seed: Resolving a combat): Initiative test, exchange, extra exchanges."""
        ka, ga, kb, gb = key
        sides = self.sides
        a, b = sides[ka // 1000][ka % 1000], sides[kb // 1000][kb % 1000]  # unit_of(), inlined
        if not (a.alive and b.alive):
            return
        # Some live fighter of A touches a live one of B here (touching is mutual: one side read)
        alive_a, alive_b = fighters.alive[ka], fighters.alive[kb]
        for p, touched, _dice in fighters.members.get((key, ka), ()):
            if alive_a[p]:
                for q in touched:
                    if alive_b[q]:
                        break
                else:
                    continue
                break
        else:
            return
        GA, GB = a.groups[ga], b.groups[gb]
        ini_a, ini_b = self.combat_ini(a, GA, charge), self.combat_ini(b, GB, charge)
        p_first = opposed_chance(ini_a, ini_b, a.side == self.winner_of_roll)
        a_first = self.dice.chance(p_first)
        first, second = ((a, ga, ka), (b, gb, kb)) if a_first else ((b, gb, kb), (a, ga, ka))
        if self.logging:
            fa = self.combatants(fighters, key, ka, ga, kb, gb)
            fb = self.combatants(fighters, key, kb, gb, ka, ga)
            say_combat(self, a, ga, len(fa), b, gb, len(fb), ini_a, ini_b, a_first, p_first, charge)
        ta, tb = GA.traits, GB.traits
        lowered = {
            ka: bool(ta.lower_def_att or ta.lower_def_str) and self.lowers_def(a, GA),
            kb: bool(tb.lower_def_att or tb.lower_def_str) and self.lowers_def(b, GB),
        }  # (lowers_def() read only for a type that may lower its DEF)
        self.exchange(first, second, key, fighters, wounds, lowered, 0)
        self.exchange(second, first, key, fighters, wounds, lowered, 0)
        # Extra exchanges: only fighters that used a die here, still touching the same type.
        # (Read only for a type or unit that may have them: most have none.)
        fu, su = first[0], second[0]
        GF, GS = (GA, GB) if a_first else (GB, GA)
        n1 = self.extra_exchanges(fu, GF) if (GF.traits.extra_exchanges or GF.traits.brutish_charge or fu.round_effects or fu.tactic) else 0
        n2 = self.extra_exchanges(su, GS) if (GS.traits.extra_exchanges or GS.traits.brutish_charge or su.round_effects or su.tactic) else 0
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
        self, striker: Striker, target: Striker, key: tuple[int, int, int, int], fighters: Contact,
        lowered: dict[int, bool], extra_round: int,
    ) -> ExchangeTerms | None:  # fmt: skip
        """What one side's attacks in a combat roll, as the fray stands (seed: Exchange): None when
        nobody strikes or nobody is struck. The battle rolls these dice (:meth:`exchange`), the
        exact fray (:mod:`.exact`) enumerates them: one reading of the rules for both."""
        terms = self._terms(striker, target, key, fighters, lowered, extra_round)
        if terms is None:
            return None
        kx, ky = striker[2], target[2]
        fx = [Fighter(fighters, kx, p) for p in terms[0]]
        fy = [Fighter(fighters, ky, p) for p in terms[1]]
        return ExchangeTerms._make((fx, fy, *terms[2:]))

    def _terms(
        self, striker: Striker, target: Striker, key: tuple[int, int, int, int], fighters: Contact,
        lowered: dict[int, bool], extra_round: int,
    ) -> Terms | None:  # fmt: skip
        """exchange_terms() as a plain tuple in the same order (the battle's exchange unpacks it:
        no named tuple built and read by name 18,000 times a thousand games)."""
        x, gx, kx = striker[0], striker[1], striker[2]
        y, gy, ky = target[0], target[1], target[2]
        if not y.alive:
            return None
        # The strikers and the struck of both sides and their dice, in one pass over the
        # combat's index (positions in the units' rows)
        members = fighters.members
        alive_x, alive_y = fighters.alive[kx], fighters.alive[ky]
        fx: list[int] = []
        fy: list[int] = []
        dice = fierce_dice = 0
        fierce_x: list[bool] | None = None
        for p, touched, d in members.get((key, kx), ()):
            if alive_x[p]:
                for q in touched:
                    if alive_y[q]:
                        fx.append(p)
                        if not extra_round:
                            dice += d
                        elif d > 0:
                            dice += 1  # an extra exchange: one die per fighter that used one here
                        break
            elif not extra_round:
                if fierce_x is None:
                    fierce_x = fighters.fierce[kx]
                if fierce_x[p]:
                    for q in touched:
                        if alive_y[q]:
                            fierce_dice += d  # fallen Fierce fighters still strike (ATT 0)
                            break
        has_die = False
        for p, touched, d in members.get((key, ky), ()):
            if alive_y[p]:
                for q in touched:
                    if alive_x[q]:
                        fy.append(p)
                        if d > 0:
                            has_die = True
                        break
        if not fy:
            return None
        GX, GY = x.groups[gx], y.groups[gy]
        if x.no_attack:
            dice = fierce_dice = 0  # a failed disengagement (seed: Progress (Disengagement))
        if dice <= 0 and fierce_dice <= 0:
            return None
        # DEF of the targets: 0 when none of them kept a die for this combat, or lowered to 0.
        d_lowered = lowered.get(ky, False)
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
        return (fx, fy, dice, fierce_dice, att, d_def, a_shift, reroll, strength, d_res, w_shift, grace)

    def exchange(self, striker: Striker, target: Striker, key: tuple[int, int, int, int], fighters: Contact, wounds: dict[tuple[int, int], int], lowered: dict[int, bool], extra_round: int) -> int:
        """One side's attacks in a combat (seed: Exchange): its dice rolled once, Wound rolls,
        Wounds dealt to the opponents in contact, the surplus spread over a scattered unit only."""
        terms = self._terms(striker, target, key, fighters, lowered, extra_round)
        if terms is None:
            return 0
        x, gx, kx = striker
        y, gy, ky = target
        GX, GY = x.groups[gx], y.groups[gy]
        _fx, fy, dice, fierce_dice, att, d_def, a_shift, reroll, strength, d_res, w_shift, grace = terms
        x_effects = x.round_effects
        table = self.table
        counter = 0
        if GY.traits.counter_attack_face and not extra_round:
            attacks, counter = self.attack_roll(table_column(table, att - d_def, a_shift, reroll), dice)
        else:
            attacks = self.dice.from_cdf(contest_cdf(table, att - d_def, dice, a_shift, reroll)) if dice > 0 else 0
        if fierce_dice:
            # Eliminated Fierce (or one-level Possessed) fighters still strike, ATT 0 (seed: Fierce).
            attacks += self.dice.from_cdf(contest_cdf(table, 0 - d_def, fierce_dice, a_shift, reroll))
        if GY.traits.survival_face and attacks:
            attacks = self._survival(GY.traits.survival_face, attacks)
        dealt = self.dice.from_cdf(contest_cdf(table, strength - d_res, attacks, w_shift, grace)) if attacks else 0
        killed = 0
        if dealt:
            wounds[(kx, ky)] = wounds.get((kx, ky), 0) + dealt
            killed = self._wound_at(x, y, gy, dealt, fy, key, fighters)
            if killed:
                self.loss_caused.add(kx)
            GX.kills += killed * GY.cost
            if x_effects and x_effects.get("anger"):
                self.deal(y, x, dealt, x.count, True)  # Divine anger
        if self.logging:
            say_exchange(self, x, GX, y, GY, extra_round, dice, fierce_dice, att, d_def, attacks, strength, d_res, dealt, killed)
        if counter and y.alive and x.alive:
            self.counter_attack(y, GY, x, GX, counter, self.combatants(fighters, key, kx, gx, ky, gy))
        return dealt

    def _survival(self, face: int, rolls: int) -> int:
        cancel = (7 - face) / 6
        return rolls - self.dice.binomial(rolls, cancel)

    def wound_type(self, x: Fighting, y: Fighting, gy: int, dealt: int, fy: list[Fighter], key: CombatKey, fighters: Contact) -> int:
        """Wounds dealt to fighter type *gy* of *y*, *fy* its fighters in contact (views, as
        :meth:`exchange_terms` gives them): see :meth:`_wound_at`."""
        return self._wound_at(x, y, gy, dealt, [f.pos for f in fy], key, fighters)

    def _wound_at(self, x: Fighting, y: Fighting, gy: int, dealt: int, fy: list[int], key: CombatKey, fighters: Contact) -> int:
        """Wounds dealt to fighter type *gy* of *y*: the opponents in contact (positions *fy*)
        first, as many losses as possible; the surplus to the others of the type in a scattered
        unit, lost in a close one. The fighters removed are those in contact (the ones with most
        dice here first), then the type's fighters out of contact, then its other fighters in
        the fray."""
        g = y.groups[gy]
        killed = self.deal(x, y, dealt, len(fy), not y.close, victims=[g])
        if not killed:
            return 0
        ky = y.side * 1000 + y.index
        # fy is in position order (a combat's fighters are listed so): a stable sort on the dice
        # alone gives the order by (most dice here, position); all of them fall when enough Wounds.
        if killed < len(fy):
            here = {p: d for p, _touched, d in fighters.members[(key, ky)]}
            fy = sorted(fy, key=lambda p: -here[p])[:killed]
        fierce = g.traits.fierce or (g.traits.possessed and g.wound_levels == 1)
        alive, fallen = fighters.alive[ky], fighters.fierce[ky]
        for p in fy:
            alive[p] = False
            fallen[p] = fierce
        if y.state == "gone":
            for p in range(len(alive)):
                alive[p] = False
            return killed
        grp = fighters.groups[ky]
        if g.count >= len(grp):
            return killed  # the type has at least as many left as the contact holds fighters
        front_alive = [p for p, gi in enumerate(grp) if gi == gy and alive[p]]  # (in position order)
        extra = len(front_alive) - g.count
        if extra > 0:  # more standing in the contact than the type has left: the last ones go
            for p in front_alive[-extra:]:
                alive[p] = False
        return killed

    def counter_attack(self, defender: Fighting, dg: Group, attacker: Fighting, ag: Group, dice: int, in_contact: list[Fighter]) -> None:
        """Counter-attack: the defender's won dice attack fighters of the same combat."""
        att_diff, str_diff, shift = self.counter_terms(defender, dg, attacker, ag)
        attacks = self.dice.from_cdf(contest_cdf(self.table, att_diff, dice, 0))
        if attacks:
            wounds = self.dice.from_cdf(contest_cdf(self.table, str_diff, attacks, shift))
            self.counter_deal(defender, attacker, ag, wounds, in_contact)
            if self.logging:
                self.say(f"    {dg.profile.name} counter-attacks with {count(dice, 'die')}: {count(wounds, 'Wound')}")

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
        if killed:
            self.loss_caused.add(defender.side * 1000 + defender.index)
        return killed

    def fray(self, a: Fighting, b: Fighting, implacable: bool = False) -> tuple[int, int]:
        """The combats of two engaged units alone (no outcome): the Wounds each inflicted.

        For scenarios and the exact fray: the same contact, dice sharing and exchanges as the
        combat phase. *implacable*: a push-on combat (no charge bonus)."""
        if b.index not in a.engaged:
            engage(a, b, FRONT, FRONT)
        pair = sorted((a, b), key=lambda u: (u.side, u.index))
        fighters = self.build_contact(pair)
        wounds: dict[tuple[int, int], int] = {}
        self.resolve_combats(fighters, wounds, charge=not implacable)
        ka, kb = unit_key(a.side, a.index), unit_key(b.side, b.index)
        return wounds.get((ka, kb), 0), wounds.get((kb, ka), 0)
