"""Combat phase: contact, exchanges, Wounds dealt, extra exchanges."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .chance import _BLOCK, _bisect_right
from .dice import (
    ContestColumn,
)
from .state import Fighting, Group
from .tables import CLOSE_MIN_FRONT, _column, _contest_cdf, _opposed_p
from .wounds import _wound_one_group, allocate_wounds

if TYPE_CHECKING:
    from .battle import Battle  # noqa



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

    def contact(self, unit: Fighting, enemy: Fighting) -> int:
        """Fighters of *unit* in contact with *enemy* (see the battlefield model)."""
        if unit.count == 0:
            return 0
        n = min(unit.front(), 2 * max(enemy.front(), 1) + 1)
        share = max(len(unit.engaged), 1)
        return max(1, math.ceil(n / share))

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

    def d6_reroll(self, column: ContestColumn) -> int:
        face = self.dice.d6()
        if column.reroll == "ones" and face == 1:
            face = self.dice.d6()
        return face

    def strike(self, attacker: Fighting, defender: Fighting, st: dict, extra: bool = False) -> int:
        """One side's attacks with the fray's state in a dict (contact, wounds, lowered, mutagenic,
        extra_round): the interface of old, for direct calls; fray() calls _strike()."""
        contact, lowered = st["contact"], st["lowered"]
        total = self._strike(
            attacker, defender, contact[attacker], contact[defender], bool(lowered.get(attacker)),
            bool(lowered.get(defender)), st["mutagenic"] or None, extra, st["extra_round"],
        )  # fmt: skip
        st["wounds"][attacker] += total
        return total

    def _strike(
        self, attacker: Fighting, defender: Fighting, left: int, d_contact: int, a_lowered: bool,
        d_lowered: bool, mutagenic: dict[Group, int] | None, extra: bool = False, extra_round: int = 0,
    ) -> int:  # fmt: skip
        """One side's attacks of an exchange; returns the Wounds inflicted (before allocation).

        fray() passes the state of the fray as arguments (no per-fray dicts): *left* and *d_contact*
        are the attacker's and the defender's fighters in contact, *a_lowered*/*d_lowered* whether
        they lowered DEF to 0, *mutagenic* the Mutagenic bonuses by group (None: none), *extra* and
        *extra_round* the extra exchange being fought (War fury...).
        """
        if not defender.alive or not attacker.count and not any(g.fierce_left for g in attacker.groups):
            return 0
        a_tactic = attacker.tactic
        a_effects = attacker.round_effects
        d_tactic = defender.tactic
        # defender.stat("def") and stat("res"), inlined
        d_effects = defender.round_effects
        d_base = defender.troops.base
        d_res = d_base["res"]
        d_def = 0 if d_lowered else d_base["def"]
        base_w_shift = defender.base_wound_shift  # (wound_shift_against(defender), inlined below)
        # Each tactic's modifiers read only when the unit has one (integer sums: order is free).
        if d_tactic:
            if not d_lowered:
                d_def += d_tactic.get("defense", 0)
            d_res += d_tactic.get("resistance", 0)
            base_a_shift = -d_tactic.get("defense_shift", 0)
            base_w_shift -= d_tactic.get("toughness_shift", 0)
        else:
            base_a_shift = 0
        if d_effects:
            if not d_lowered:
                d_def += d_effects.get("def", 0)
            d_res += d_effects.get("res", 0)
        if a_tactic:
            base_a_shift += a_tactic.get("attack_shift", 0)
            base_w_shift += a_tactic.get("wound_shift", 0)
            att_bonus, str_bonus = a_tactic.get("attack", 0), a_tactic.get("strength", 0)
        else:
            att_bonus = str_bonus = 0
        if a_effects:
            att_bonus += a_effects.get("att", 0)
            str_bonus += a_effects.get("str", 0)
            grace = "failures" if a_effects.get("grace") else ""
        else:
            grace = ""
        counter_face = defender.counter_face
        survival_face = defender.survival_face
        routed = attacker.state == "rout"
        table = self.table
        dice_box = self.dice
        bisect_right = _bisect_right
        contest_cdf = _contest_cdf
        total = 0
        counter_dice = 0
        # The dice block is read through locals for the whole loop (from_cdf(), inlined: the commonest
        # draws of a game): written back before and reread after any call that draws, and at the end.
        buffer = dice_box.buffer
        i = dice_box.index
        for g in attacker.ordered:
            n = g.count
            fighters = n if n < left else left  # min(), written out
            left -= fighters
            t = g.traits
            if extra:
                if fighters <= 0:
                    continue
                fierce = 0
                bonus = (a_effects.get("war-fury", 0) if a_effects else 0) + (
                    a_tactic.get("extra_exchange", 0) if a_tactic else 0
                )
                n_extra = (
                    t.extra_exchanges + bonus + (1 if t.brutish_charge and attacker.charged else 0)
                )
                if routed and not t.brutish_charge:
                    n_extra = 0  # War fury ceases in rout
                if n_extra < extra_round:
                    continue
                dice = fighters
            else:
                fierce = g.fierce_left
                if fighters <= 0 and not fierce:
                    continue
                dice = fighters * g.dice_each
            profile = g.profile
            att = 0 if routed else profile.att + att_bonus
            strength = profile.str_ + str_bonus
            if a_lowered:
                att += t.lower_def_att
                strength += t.lower_def_str
            if g.plain:
                a_shift = base_a_shift
            else:
                att, strength, dice, a_shift = self._special_attacks(
                    g, mutagenic, extra, routed, fighters, dice, att, strength, base_a_shift, d_def
                )
            reroll = t.attack_reroll or grace
            if counter_face:
                dice_box.index = i
                attacks, ones = self.attack_roll(_column(table, att - d_def, a_shift, reroll), dice)
                buffer, i = dice_box.buffer, dice_box.index
                counter_dice += ones
            else:
                cdf = contest_cdf(table, att - d_def, dice, a_shift, reroll)
                if i >= len(buffer):
                    buffer = dice_box.buffer = dice_box.rng.random(_BLOCK).tolist()
                    i = 0
                attacks = bisect_right(cdf, buffer[i])
                i += 1
                if attacks >= len(cdf) - 1:
                    attacks = len(cdf) - 1
            if fierce:
                # Eliminated Fierce (or one-level Possessed) fighters strike with ATT 0.
                dice_box.index = i
                attacks += dice_box.from_cdf(contest_cdf(table, 0 - d_def, fierce * g.dice_each, a_shift, reroll))
                buffer, i = dice_box.buffer, dice_box.index
            if survival_face:
                dice_box.index = i
                attacks = self.survival_thinning(defender, attacks)
                buffer, i = dice_box.buffer, dice_box.index
            if attacks:
                cdf = contest_cdf(table, strength - d_res, attacks, base_w_shift, grace)
                if i >= len(buffer):
                    buffer = dice_box.buffer = dice_box.rng.random(_BLOCK).tolist()
                    i = 0
                k = bisect_right(cdf, buffer[i])
                i += 1
                total += k if k < len(cdf) - 1 else len(cdf) - 1
        dice_box.index = i
        if total:
            # (defender.current_formation == "scattered", inlined)
            killed = self.deal(
                attacker, defender, total, d_contact,
                not (defender.formation == "close" and defender.count >= 5 and defender.state != "rout"),
            )  # fmt: skip
            if a_effects and a_effects.get("anger"):
                self.deal(defender, attacker, total, attacker.count, True)  # Divine anger
        else:
            killed = 0  # (deal() of no Wounds does nothing)
        if counter_dice and defender.alive and attacker.alive:
            self.counter_attack(defender, attacker, counter_dice)
        if killed:
            self.logging and self.say(
                f"  {attacker.name} inflicts {total} Wounds on {defender.name}: {killed} eliminated"
            )
        return total

    @staticmethod
    def _special_attacks(
        g: Group, mutagenic: dict[Group, int] | None, extra: bool, routed: bool, fighters: int, dice: int, att: int, strength: int,
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
        if t.mutagenic is not None and mutagenic and g in mutagenic:
            att += mutagenic[g]
        if t.sequence and not extra and not routed:
            seq = max(0, min(t.sequence, att - 1 - d_def))
            dice += seq * fighters
            att -= seq
        if t.master_strike is not None and not routed:
            a_shift -= 1
            strength += min(att, profile.att) + t.master_strike
        return att, strength, dice, a_shift

    def counter_attack(self, defender: Fighting, attacker: Fighting, dice: int) -> None:
        g = defender.troops
        att, strength = g.profile.att, g.profile.str_
        attacks = self.dice.from_cdf(_contest_cdf(self.table, att - attacker.stat("def"), dice, 0))
        if attacks:
            wounds = self.dice.from_cdf(
                _contest_cdf(
                    self.table,
                    strength - attacker.stat("res"),
                    attacks,
                    self.wound_shift_against(attacker),
                )
            )
            self.deal(
                defender,
                attacker,
                wounds,
                attacker.count,
                attacker.current_formation == "scattered",
            )
            self.logging and self.say(f"  {defender.name} counter-attacks with {dice} dice: {wounds} Wounds")

    def fray(self, a: Fighting, b: Fighting, implacable: bool = False) -> tuple[int, int]:
        """One combat between two units: Initiative, exchange, extra exchanges."""
        # contact(a, b) and contact(b, a), each front computed once (front(), inlined)
        na, nb = a.count, b.count
        if a.formation == "close" and na >= 5 and a.state != "rout":
            fa = (na + 1) // 2 if na > 2 * CLOSE_MIN_FRONT else CLOSE_MIN_FRONT
        else:
            fa = na
        if b.formation == "close" and nb >= 5 and b.state != "rout":
            fb = (nb + 1) // 2 if nb > 2 * CLOSE_MIN_FRONT else CLOSE_MIN_FRONT
        else:
            fb = nb
        # (min()/max() written out: builtin calls cost more than the tests)
        if na:
            n = 2 * (fb if fb > 1 else 1) + 1
            if fa < n:
                n = fa
            share = len(a.engaged) or 1
            ca = -(-n // share)  # ceil(n / share), exact on integers
            if ca < 1:
                ca = 1
        else:
            ca = 0
        if nb:
            n = 2 * (fa if fa > 1 else 1) + 1
            if fb < n:
                n = fb
            share = len(b.engaged) or 1
            cb = -(-n // share)
            if cb < 1:
                cb = 1
        else:
            cb = 0
        # The fray's state goes to strike() as arguments (no per-fray dicts): DEF lowered, Mutagenic.
        # Lower DEF to 0 for the Bravery/Righteous/Fanaticism bonus when DEF is worth little.
        t = a.troops.traits
        la = bool((t.lower_def_att or t.lower_def_str) and a.stat("def") <= 1 and a.state != "rout")
        t = b.troops.traits
        lb = bool((t.lower_def_att or t.lower_def_str) and b.stat("def") <= 1 and b.state != "rout")
        mutagenic: dict[Group, int] | None = None
        for u in (a, b):
            if not u.round_effects or not u.round_effects.get("mutagenic"):
                continue  # (nothing else follows in this loop)
            if mutagenic is None:
                mutagenic = {}
            for g in u.groups:
                if g.count and g.traits.mutagenic is not None:
                    roll = self.dice.d6()
                    bonus = 0 if roll == 1 else roll + g.traits.mutagenic
                    mutagenic[g] = max(0, min(bonus, 2 + max(g.traits.mutagenic, 0)))
        ini_a = 0 if a.state == "rout" else a.stat("ini")
        ini_b = 0 if b.state == "rout" else b.stat("ini")
        if not implacable:
            if a.charge_bonus:
                ini_a += 3
            if b.charge_bonus:
                ini_b += 3
        # self.dice.chance(), inlined
        dice = self.dice
        i = dice.index
        buffer = dice.buffer
        if i >= len(buffer):
            buffer = dice.buffer = dice.rng.random(_BLOCK).tolist()
            i = 0
        dice.index = i + 1
        a_first = buffer[i] < _opposed_p(ini_a, ini_b, a.side == self.winner_of_roll)
        if a_first:
            first, second, c1, c2, l1, l2 = a, b, ca, cb, la, lb
        else:
            first, second, c1, c2, l1, l2 = b, a, cb, ca, lb, la
        strike = self._strike
        w1 = strike(first, second, c1, c2, l1, l2, mutagenic)
        w2 = strike(second, first, c2, c1, l2, l1, mutagenic)
        # Extra exchanges: War fury, Born killer, Brutish charge... one die per fighter.
        effects, tactic = a.round_effects, a.tactic
        bonus = (effects.get("war-fury", 0) if effects else 0) + (tactic.get("extra_exchange", 0) if tactic else 0)
        ea = self._extra_exchanges(a, bonus) if bonus or a.extra_traits else 0
        effects, tactic = b.round_effects, b.tactic
        bonus = (effects.get("war-fury", 0) if effects else 0) + (tactic.get("extra_exchange", 0) if tactic else 0)
        eb = self._extra_exchanges(b, bonus) if bonus or b.extra_traits else 0
        if ea or eb:
            e_first, e_second = (ea, eb) if a_first else (eb, ea)
            for r in range(1, (ea if ea > eb else eb) + 1):
                if not (first.alive and second.alive):
                    break
                if e_first >= r:
                    w1 += strike(first, second, c1, c2, l1, l2, mutagenic, True, r)
                if e_second >= r and second.alive and first.alive:
                    w2 += strike(second, first, c2, c1, l2, l1, mutagenic, True, r)
        return (w1, w2) if a_first else (w2, w1)

    @staticmethod
    def _extra_exchanges(u: Fighting, bonus: int) -> int:
        """Extra exchanges of a unit in a fray (the most of its live groups; *bonus*: War fury, tactic)."""
        most = 0
        for g in u.groups:
            if g.count:
                n = g.traits.extra_exchanges + (1 if g.traits.brutish_charge and u.charged else 0) + bonus
                if n > most:
                    most = n
        return most

