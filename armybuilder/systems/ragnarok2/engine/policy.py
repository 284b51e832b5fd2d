"""The players' choices during a battle, behind one small interface.

The rules (phase modules) decide what is legal and what happens; a :class:`Policy` only picks
among legal options when the seed leaves the choice to a player. A battle holds one policy per
side (``Battle(..., policies=(p0, p1))``), so two policies can play each other. Every choice is
broken by a stable order (integer scores, then unit and group indices), never by float equality.

This module holds the combat choices of the seed's combat phase (which fray and which combat
next, how a fighter shares its combat dice, which pair of units is designated for the outcome
of the fray). Orders, charges, volleys and tactics are answered by :class:`ClassicPolicy`
through the battle's AI rules (:mod:`.ai`); :class:`LinePolicy` (:mod:`.line_ai`) changes them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .tables import mean_per_die

if TYPE_CHECKING:
    from .assault import AssaultOption
    from .battle import Battle
    from .state import Fighting, Group

CombatKey = tuple[int, int, int, int]

# combat_value() answers by (catalogue hash, attacker profile id, target profile id, target cost).
_COMBAT_VALUES: dict[tuple[str, str, str, int], int] = {}


_BALANCES = ("combat_order",)  # the round memo's key of combat_order()'s shared balances


def int_score(x: float) -> int:
    """A float value as an integer score (ties then go to the stable order, never to float ==)."""
    return round(x * 1000)  # (round() of a float is already an int: the same integer)


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests script players: a subclass in Python)
class Policy:
    """Default choices (the interface and the classic player's answers)."""

    name = "classic"

    # -- deployment ----------------------------------------------------------

    def deployment(self, b: Battle, side: int) -> tuple[list[Fighting], list[Fighting]]:
        """The units of the first line, left to right as the player sees the table, and of the
        second: the fighting units in line, the strongest in the middle and the fastest on the
        wings; the units that neither fight nor shoot (mystics, war machines) behind."""
        units = [u for u in b.sides[side] if u.alive]
        back = [u for u in units if u.scheme == "support" and not u.shooting_groups and (u.mana or u.faith)]
        front = [u for u in units if u not in back]
        ranked = sorted(front, key=lambda u: (u.mov >= 15, -u.points, u.index))
        line: list[Fighting] = []
        for k, u in enumerate(ranked):  # centre out, alternately right and left
            if k % 2:
                line.insert(0, u)
            else:
                line.append(u)
        return line, back

    # -- activations ----------------------------------------------------------

    def pick_activation(self, b: Battle, side: int, queue: list[Fighting]) -> int:
        """Which unit of *queue* (the side's units still to activate, the default order's next
        last) the player activates now: its index in the queue."""
        return len(queue) - 1

    def wants_to_pass(self, b: Battle, side: int, queue: list[Fighting], nxt: Fighting) -> bool:
        """Pass the turn (allowed once per extra enemy unit) instead of activating *nxt*: when it
        is to assault and has no target in reach yet."""
        return nxt.order == "assault" and not nxt.engaged and not b.assault_options(nxt)

    # -- orders, movement and shooting: the battle's AI rules ----------------

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting]) -> str:
        return b.choose_order(unit, foes)

    def assault_target(self, b: Battle, unit: Fighting, options: list[AssaultOption]) -> AssaultOption | None:
        """The foe to assault among those in reach (None: none; an Assault order then closes in)."""
        best, score = b.best_charge_target(unit, options)
        return best

    def change_of_plans(self, b: Battle, unit: Fighting) -> str | None:
        """The order a unit given Change of plans reveals instead of its own when it is
        activated (None: it keeps its order). This player keeps the order it gave."""
        return None

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        """The order of a unit already in a fray: fight on (Assault) or Progress (Disengagement)."""
        return "assault"

    def reaction(self, b: Battle, unit: Fighting, assailant: Fighting) -> str | None:
        """The Reaction a unit under a Reaction order reveals when *assailant* assaults it:
        counter-charge when it can reach the assailant and expects the better exchange, retreat
        before an assailant it cannot hold, else withstand the charge."""
        mine, theirs = b._exchange_values(unit, assailant)
        if b.gap(unit, assailant) <= unit.mov * 2.0 and b.in_view(unit, assailant) and mine >= theirs:
            return "counter-charge"
        if theirs > 2.0 * mine and b.in_view(unit, assailant):
            return "retreat"
        return "withstand"

    def stop_short(self, b: Battle, unit: Fighting, target: Fighting, distance: float) -> float:
        """How far from *target* (its nearest enemy, *distance* away) a unit under Progress stops:
        out of the target's charge reach when the exchange is clearly unfavourable, else 1 cm."""
        mine, theirs = b._exchange_values(unit, target)
        if theirs > mine * 1.25 and target.count > 0 and target.state in ("valiant", "disorganized"):
            tactic = target.tactic  # target.mov, inlined
            return min(distance, (target._mov + tactic.get("movement", 0) if tactic else target._mov) * 2 + 1)
        return 1.0

    def advance_limit(self, b: Battle, unit: Fighting) -> float | None:
        """How far a unit under Progress may move toward the enemy's edge this activation (None:
        as far as it can)."""
        return None

    def progress_move(self, b: Battle, unit: Fighting) -> tuple[float, float, bool, float] | None:
        """Where a unit under Progress goes: (x, y, run, stop) — toward the nearest foe (routed
        ones last), running, stopping *stop* cm short of the spot where it would touch it; None:
        it stays (Stationary)."""
        target, gap = nearest_standing(b, unit)
        if target is None:
            return None
        stop = self.stop_short(b, unit, target, gap)
        limit = self.advance_limit(b, unit)
        return approach_move(b, unit, target, gap, stop, limit, True)

    def support_move(self, b: Battle, unit: Fighting) -> tuple[float, float, bool, float] | None:
        """A supporting unit's March before it acts, when nothing is in range yet: toward the
        nearest foe, stopping out of its charge reach."""
        if b.shooting_candidates(unit, b.shooters(unit)) if unit.shooting_groups else False:
            return None
        if (unit.mana > 0 or unit.faith > 0) and not unit.shooting_groups:
            return None  # its mystics reach 30-50 cm: it keeps its place behind the line
        target, gap = b.nearest_foe(unit)
        if target is None:
            return None
        fighting = target.count > 0 and target.state in ("valiant", "disorganized")
        stop = max(target.mov * 2 + 1, 1.0) if fighting else 1.0
        return approach_move(b, unit, target, gap, stop, None, False)

    def shooting_target(self, b: Battle, unit: Fighting, shooters: list[Group]) -> Fighting | None:
        """The foe the unit's marksmen shoot at (None: none in range and sight): the one whose
        loss in A.P. the volley is expected to make largest."""
        return b.best_shooting_target(unit, shooters)

    # -- combat phase --------------------------------------------------------

    def pick_fray(self, b: Battle, side: int, frays: list[list[Fighting]]) -> list[Fighting]:
        """The fray with most A.P. in it first (ties: its first unit's order)."""
        return min(frays, key=lambda f: (-sum(u.points for u in f), [(u.side, u.index) for u in f]))

    def combat_value(self, b: Battle, u: Fighting, gi: int, e: Fighting, gj: int) -> int:
        """Expected A.P. one combat die of type *gi* of *u* takes from type *gj* of *e* (integer)."""
        g, h = u.groups[gi], e.groups[gj]
        key = (b.table, g.pid, h.pid, h.cost)  # by value: catalogue hash and ids
        value = _COMBAT_VALUES.get(key)
        if value is None:
            per_die = mean_per_die(b.table, g.profile.att - h.base["def"], g.profile.str_ - h.base["res"], 0, 0)
            if len(_COMBAT_VALUES) > 65536:
                _COMBAT_VALUES.clear()
            value = _COMBAT_VALUES[key] = int_score(per_die * h.cost / max(h.wound_levels, 1))
        return value

    def dice_order(self, b: Battle, u: Fighting, gi: int, keys: list[CombatKey]) -> list[CombatKey]:
        """A fighter's combats, the most profitable first (its dice go round robin in this order)."""
        me = u.side * 1000 + u.index

        def value(key: CombatKey) -> tuple[int, CombatKey]:
            ka, ga, kb, gb = key
            ek, eg = (kb, gb) if ka == me else (ka, ga)
            return (-self.combat_value(b, u, gi, b.unit_of(ek), eg), key)

        return sorted(keys, key=value)

    def combat_order(self, b: Battle, side: int, pending: list[CombatKey], dice: dict[CombatKey, tuple[int, int]]) -> list[CombatKey]:
        """This side's order of the fray's combats (it picks the first not yet resolved when its
        turn comes): the combats where its type expects the best exchange of A.P. first.
        *dice*: each combat's combat dice, (side of key[0], side of key[2])."""
        if len(pending) == 1:
            return list(pending)
        # Each combat's balance for side 0, found once for both players when they weigh combats
        # alike: combat_sequence() has the two sides rank the same *pending* and *dice* one after
        # the other. The round memo holds those lists with the answer, so another fray's lists
        # (new objects while these are held) never read it.
        weigh = type(self).combat_value
        known = b.round_memo.get(_BALANCES)
        if known is not None and known[0] is pending and known[1] is dice and known[2] is weigh:
            balances = known[3]
        else:
            balances = []
            for key in pending:
                ka, ga, kb, gb = key
                a, c = b.unit_of(ka), b.unit_of(kb)
                dice_a, dice_c = dice[key]
                mine = dice_a * self.combat_value(b, a, ga, c, gb) - dice_c * self.combat_value(b, c, gb, a, ga)
                balances.append((mine if a.side == 0 else -mine, key))
            b.round_memo[_BALANCES] = (pending, dice, weigh, balances)
        # (-(this side's balance), key): side 0 the largest balance first, side 1 the smallest
        ranked = sorted([(-v, key) for v, key in balances] if side == 0 else balances)
        return [key for _, key in ranked]

    def designate(self, b: Battle, side: int, pairs: list[tuple[int, int]], wounds: dict[tuple[int, int], int]) -> tuple[int, int]:
        """Outcome of the fray: first the pairs this side won (the hardest morale roll for the
        enemy first), then those it lost (the easiest roll first)."""

        def value(pair: tuple[int, int]) -> tuple[int, int, tuple[int, int]]:
            k0, k1 = pair
            a, c = b.unit_of(k0), b.unit_of(k1)
            wa, wc = wounds.get((k0, k1), 0), wounds.get((k1, k0), 0)
            a_wins = wa > wc or (wa == wc and a.side == b.winner_of_roll)
            winner, loser = (a, c) if a_wins else (c, a)
            difficulty = b.morale_difficulty(winner, loser)
            won = winner.side == side
            return (0 if won else 1, -difficulty if won else difficulty, pair)

        return min(pairs, key=value)


ClassicPolicy = Policy


def nearest_standing(b: Battle, unit: Fighting) -> tuple[Fighting | None, float]:
    """The nearest foe that still fights, else the nearest routed one; and its distance."""
    target = routed = None
    d = d_routed = 1e18
    for e in b.sides[1 - unit.side]:
        if not e.alive or e.state == "gone" or e.hidden:
            continue
        gap = b.gap(unit, e)
        if e.state == "rout":
            if gap < d_routed:
                routed, d_routed = e, gap
        elif gap < d:
            target, d = e, gap
    if target is None:
        return routed, d_routed
    return target, d


def approach_move(b: Battle, unit: Fighting, target: Fighting, gap: float, stop: float, limit: float | None, run: bool) -> tuple[float, float, bool, float] | None:
    """A move toward the spot where *unit* would touch *target*, ending *stop* cm from it (edge
    to edge) and, with a *limit*, at most that far toward the enemy's edge."""
    _face, x, y, _fx, _fy = b.contact_spot(unit, target)
    dist = math.hypot(x - unit.x, y - unit.y)
    if dist < 1e-6:
        return None
    # The spot is about *gap* away along the way; stop *stop* short of the target's edge.
    want = max(0.0, gap - stop) if gap < dist else max(0.0, dist - stop)
    if limit is not None:
        forward = (y - unit.y) / dist * (1.0 if unit.side == 0 else -1.0)
        if forward > 1e-6 and want * forward > limit:
            want = limit / forward
    if want < 0.5:
        return None
    return x, y, run, dist - want
