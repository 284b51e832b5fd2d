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

from typing import TYPE_CHECKING

from .tables import _mean_per_die

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Fighting

CombatKey = tuple[int, int, int, int]

# combat_value() answers by (catalogue hash, attacker profile id, target profile id, target cost).
_COMBAT_VALUES: dict[tuple[str, str, str, int], int] = {}


_BALANCES = ("combat_order",)  # the round memo's key of combat_order()'s shared balances


def _score(x: float) -> int:
    """A float value as an integer score (ties then go to the stable order, never to float ==)."""
    return round(x * 1000)  # (round() of a float is already an int: the same integer)


class Policy:
    """Default choices (the interface and the classic player's answers)."""

    name = "classic"

    # -- orders, movement and shooting: the battle's AI rules ----------------

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting], spots: list[float]) -> str:
        return b.choose_order(unit, foes, spots)

    def charge_target(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> Fighting | None:
        return b.best_charge_target(unit, foes, reach)[0]

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        """The order of a unit already in a fray: fight on (Assault) or Progress (Disengagement)."""
        return "assault"

    def stop_short(self, b: Battle, unit: Fighting, target: Fighting, distance: float) -> float:
        """How far from *target* (its nearest enemy, *distance* away) a unit under Progress stops:
        out of the target's charge reach when the exchange is clearly unfavourable, else 1 cm."""
        mine, theirs = b._exchange_values(unit, target)
        if theirs > mine * 1.25 and target.count > 0 and target.state in ("valiant", "disorganized"):
            tactic = target.tactic  # target.mov, inlined
            return min(distance, (target._mov + tactic.get("movement", 0) if tactic else target._mov) * 2 + 1)
        return 1.0

    def advance_limit(self, b: Battle, unit: Fighting) -> float | None:
        """How far a unit under Progress may run forward this activation (None: as far as it can)."""
        return None

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
            per_die = _mean_per_die(b.table, g.profile.att - h.base["def"], g.profile.str_ - h.base["res"], 0, 0)
            if len(_COMBAT_VALUES) > 65536:
                _COMBAT_VALUES.clear()
            value = _COMBAT_VALUES[key] = _score(per_die * h.cost / max(h.wound_levels, 1))
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
