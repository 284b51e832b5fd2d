"""Rag'Narok 2 mystics: mana and Temporary Faith, rituals, communions, counter-magic, censure.

Pure rules from the mystics seed, shared by the battle simulator and the tests:

* **Incantation / divination roll** (seed: "8/ Incantation roll", "8/ Divination
  roll"): a Power (or Faith) test with the magister (eminence), rolling 1d6 plus
  one die per gem (T.F. point) spent on mastery; under R2-D2 each die is an
  open-ended test die (natural 1 fails, 6 rolled again and added) and the best
  one is kept.  Skills change the dice: Spirit of X and Exalted (a 1 is not a
  failure), Focus and Illuminated (a natural 5 may be rolled again: the roller
  does so only when 5 is not enough).
* **Counter-magic / censure**: an enemy unit under a Reaction order spends gems
  (T.F.); when they equal what the caster spent, the effect is lost; every gem
  (point) spent is lost either way.
* **Mana recovery**: one die per magician (plus Recuperation/X dice); each 3 or
  more (-2 when routed) gives the unit that magician's POW; the reserve never
  exceeds twice the unit's total POW.
* **Temporary Faith recovery**: one T.F. per unit member plus a bonus per faithful
  by faith rank (catalogue table ``faith_recovery``, default devout 1 ... avatar
  4) and Loyal/X; a routed unit loses 2.  T.F. is not kept from a round to the
  next except through Piety/X (seed: Piety), so the recovered amount replaces
  the reserve.

Exact probabilities sit beside the dice-rolling twins so tests can compare them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from .dice import open_ended_at_least

__all__ = [
    "DEFAULT_FAITH_RECOVERY",
    "mystic_die_success",
    "mystic_test_success",
    "roll_mystic_test",
    "counter_succeeds",
    "mana_recovery",
    "faith_recovery",
    "parse_range",
    "best_mastery",
]

DEFAULT_FAITH_RECOVERY: Mapping[str, int] = {"devout": 1, "zealot": 2, "dean": 3, "avatar": 4}
MANA_SUCCESS = 3  # seed: "each result of 3 or more"
ROUT_MANA_PENALTY = 2
ROUT_FAITH_LOSS = 2


@lru_cache(maxsize=4096)
def mystic_die_success(value: int, difficulty: int, ones_fail: bool = True, reroll_fives: bool = False) -> float:
    """P(one die of a Power/Faith test reaches *difficulty*): value + open-ended d6.

    With *reroll_fives* (Focus, Illuminated) a first natural 5 is rolled again as
    a new die whenever 5 would not be enough; the new die follows the same rules.
    """
    need = difficulty - value  # result needed on the open-ended die

    def base(need: int) -> float:
        p = open_ended_at_least(need)
        if ones_fail and need <= 1:
            p = 5.0 / 6.0  # only the natural 1 fails
        return p

    p = base(need)
    if reroll_fives and need > 5:
        # A first 5 reaches at most 5 (no extra roll): a failure that is rolled again.
        p += (1.0 / 6.0) * base(need)
    return min(p, 1.0)


def mystic_test_success(
    value: int, difficulty: int, dice: int, ones_fail: bool = True, reroll_fives: bool = False
) -> float:
    """P(an incantation/divination roll with *dice* dice (keep the best) succeeds)."""
    if dice < 1:
        raise ValueError("dice must be >= 1")
    p = mystic_die_success(value, difficulty, ones_fail, reroll_fives)
    return 1.0 - (1.0 - p) ** dice


def roll_mystic_test(
    d6: Callable[[], int], value: int, difficulty: int, dice: int, ones_fail: bool = True, reroll_fives: bool = False
) -> bool:
    """Roll the test with real dice (``d6`` returns 1..6): the twin of :func:`mystic_test_success`."""
    need = difficulty - value
    for _ in range(dice):
        for attempt in range(2):
            first = d6()
            if first == 5 and reroll_fives and need > 5 and attempt == 0:
                continue  # roll this die again
            if first == 1 and ones_fail:
                break
            total = first
            last = first
            while last == 6:
                last = d6()
                total += last
            if total >= need:
                return True
            break
    return False


def counter_succeeds(spent_by_caster: int, spent_against: int) -> bool:
    """Counter-magic or censure cancels the effect when it matches what was spent."""
    return spent_against >= spent_by_caster > 0


@lru_cache(maxsize=4096)  # pure; asked at every cast and call of a game
def best_mastery(
    value: int, difficulty: int, available: int, target: float = 0.9, ones_fail: bool = True, reroll_fives: bool = False
) -> int:
    """Fewest extra dice (gems, T.F.) reaching *target* success, at most *available*.

    The AI's choice when improving mastery / strengthening the bond: more dice only
    while they buy probability (a hopeless test gets none).
    """
    best = 0
    for extra in range(available + 1):
        p = mystic_test_success(value, difficulty, 1 + extra, ones_fail, reroll_fives)
        best = extra
        if p >= target:
            break
    if mystic_test_success(value, difficulty, 1 + best, ones_fail, reroll_fives) < 0.05:
        return 0
    return best


def mana_recovery(
    d6: Callable[[], int], powers: Sequence[int], extra_dice: int, reserve: int, routed: bool
) -> int:
    """New mana reserve of a unit after the mystic phase's recovery roll.

    One die per magician plus *extra_dice* (Recuperation/X); successful dice are
    given to the magicians with the highest POW first (the player attributes the
    dice), each adding that POW.  Capped at twice the total POW.
    """
    if not powers:
        return reserve
    # Only the number of successes matters (the dice are rolled all the same, in order).
    need = MANA_SUCCESS + (ROUT_MANA_PENALTY if routed else 0)
    successes = 0
    for _ in range(len(powers) + extra_dice):
        if d6() >= need:
            successes += 1
    ranked = sorted(powers, reverse=True)
    # Extra dice beyond one per magician go to the most powerful magician again.
    gained = sum(ranked[i] if i < len(ranked) else ranked[0] for i in range(successes))
    return min(reserve + gained, 2 * sum(powers))


def faith_recovery(
    members: int,
    faith_ranks: Sequence[str],
    table: Mapping[str, int] | None,
    routed: bool,
    kept: int = 0,
    loyal: int = 0,
) -> int:
    """T.F. reserve of a unit after the mystic phase (one per member + rank bonuses), one faithful per rank given."""
    return faith_recovery_counts(members, [(rank, 1) for rank in faith_ranks], table, routed, kept, loyal)


def faith_recovery_counts(
    members: int,
    faith_ranks: Sequence[tuple[str, int]],
    table: Mapping[str, int] | None,
    routed: bool,
    kept: int = 0,
    loyal: int = 0,
) -> int:
    """:func:`faith_recovery` with the ranks given as (rank, number of faithful) pairs (the engine's hot path)."""
    bonuses = table or DEFAULT_FAITH_RECOVERY
    total = members + sum(bonuses.get((r or "").lower(), 0) * n for r, n in faith_ranks) + loyal + kept
    if routed:
        total -= ROUT_FAITH_LOSS
    return max(total, 0)


@lru_cache(maxsize=256)  # pure; asked at every cast and call of a game
def parse_range(text: str) -> float:
    """Range of a ritual/communion in cm ("50 cm" → 50; "LOS", "-" or "Special" → unlimited)."""
    digits = "".join(ch for ch in text if ch.isdigit())
    return float(digits) if digits else float("inf")
