"""Rattle and Rend dice: checks on 1, 2 or 3 d20 against a stat, as exact distributions.

Seed (Core Dice Mechanic): a standard check rolls 2d20, a check with any number of
penalties rolls 1d20, with any number of bonuses 3d20; bonuses and penalties
together cancel (2d20).  A die *hits* when it shows the stat or more.  At least one
hit is a success, two hits a critical success.

A check's outcome is coded as an integer so the core :class:`Distribution` can
carry it: ``FAIL = 0``, ``SUCCESS = 1`` (a simple success), ``CRITICAL = 2``.  The
number of hits of ``n`` dice is binomial; outcomes merge 2 and 3 hits.

An attack (seed: Attacks) is a Fury check; on a success the target makes a Will
check, with a penalty if the Fury check was critical.  Its outcome is coded
``MISS = 0``, ``DEFY = 1`` (critical Will success: the target stays and may move),
``STAND = 2`` (simple Will success: the attacker may push it back), ``BREAK = 3``
(failed Will check: the target leaves play); names per RR-D3.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from armybuilder.core.dice import Distribution
from armybuilder.core.engine import uniform_die
from armybuilder.odds.rattle_and_rend import DEFAULT_DICE, dice_count  # noqa: F401 - re-exported

# Final: the compiled engine reads them as constants, not from the module's dictionary
FAIL: Final = 0
SUCCESS: Final = 1
CRITICAL: Final = 2
MISS: Final = 0
DEFY: Final = 1
STAND: Final = 2
BREAK: Final = 3
OUTCOME_NAMES = ("fail", "success", "critical")
#: a Will check's result by its outcome (RR-D3)
BREAK_NAMES = ("BREAK", "Stand Firm", "DEFY!")
#: the chance step of one die of a check: a d20's faces, each 1/20
D20 = uniform_die(20)
ATTACK_NAMES = ("miss", "DEFY!", "Stand Firm / Muddled", "BREAK")

# A check's dice count (bonuses and penalties cancel) is the exact odds' rule, kept once there.


def hit_chance(stat: int | None) -> float:
    """P(one d20 >= stat); a group without the stat never succeeds."""
    if stat is None:
        return 0.0
    return min(1.0, max(0.0, (21 - stat) / 20))


@lru_cache(maxsize=512)
def check(stat: int | None, dice: int) -> Distribution:
    """Distribution of FAIL / SUCCESS / CRITICAL for ``dice`` d20 against ``stat``."""
    if dice < 1:
        raise ValueError("a check rolls at least one die")
    p = hit_chance(stat)
    hits = [math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)]
    return Distribution([hits[0], hits[1] if dice >= 1 else 0.0, sum(hits[2:])])


@lru_cache(maxsize=512)
def check_probabilities(stat: int | None, dice: int) -> tuple[float, float, float]:
    pmf = check(stat, dice).pmf
    return tuple(float(pmf[k]) if k < len(pmf) else 0.0 for k in range(3))  # type: ignore[return-value]


@lru_cache(maxsize=2048)
def attack(
    fury: int | None,
    fury_dice: int,
    will: int | None,
    will_dice: int,
    critical_will_dice: int,
    poisoned: bool = False,
    poisoned_dice: int = 1,
) -> Distribution:
    """Distribution of MISS / DEFY / STAND / BREAK for one attack.

    ``will_dice`` is rolled after a simple success, ``critical_will_dice`` after a
    critical one (the caller applies the penalty, which may cancel a bonus).
    ``poisoned`` (Poisoners): a critical Will result is rolled again with
    ``poisoned_dice`` and that second result stands.
    """
    f_fail, f_success, f_critical = check_probabilities(fury, fury_dice)
    out = [f_fail, 0.0, 0.0, 0.0]
    for weight, dice in ((f_success, will_dice), (f_critical, critical_will_dice)):
        w_fail, w_success, w_critical = check_probabilities(will, dice)
        if poisoned:
            r_fail, r_success, r_critical = check_probabilities(will, poisoned_dice)
            w_fail += w_critical * r_fail
            w_success += w_critical * r_success
            w_critical = w_critical * r_critical
        out[DEFY] += weight * w_critical
        out[STAND] += weight * w_success
        out[BREAK] += weight * w_fail
    return Distribution(out)


def outcome_of(rolls: list[int], stat: int | None) -> int:
    """FAIL / SUCCESS / CRITICAL of dice already rolled (the simulator's path)."""
    if stat is None:
        return FAIL
    hits = sum(1 for r in rolls if r >= stat)
    return CRITICAL if hits >= 2 else (SUCCESS if hits == 1 else FAIL)


@lru_cache(maxsize=4096)
def break_odds(fury: int | None, will: int | None, will_bonus: int, bonus: int, penalty: int, table: tuple[int, int, int]) -> tuple[float, float]:
    """(P(target breaks), P(target stands)) of one attack with these dice (cached: a few dozen cases)."""
    _, s, c = check_probabilities(fury, dice_count(bonus, penalty, table))
    w1 = check_probabilities(will, dice_count(will_bonus, 0, table))
    w2 = check_probabilities(will, dice_count(will_bonus, 1, table))
    return s * w1[0] + c * w2[0], s * (1 - w1[0]) + c * (1 - w2[0])
