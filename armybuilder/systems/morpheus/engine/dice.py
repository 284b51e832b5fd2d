"""Morpheus Engine dice (ME-D1, provisional): opposed 2d6 rolls, stages and damage.

"X versus Y" is rolled on 2d6 against TN = base - (X - Y); a roll of TN or more
succeeds and the success stages are the points above TN.  Damage is 1 + stages
// step, with step 3 (normal), 2 (Savage) or 1 (Lethal).  The base, the dice and
the steps are read from the catalogue's ``tables.opposed`` / ``tables.damage``
(provisional data), with ME-D1 as the fallback, so a corrected table in a later
catalogue version changes every figure without a code change.

All distributions here are exact (small convolutions of a fair die).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from armybuilder.core.dice import Distribution

from ..odds_calculator import Rules, rules_of

#: ME-D1, the provisional opposed-roll and damage tables (the odds calculator's record: one
#: definition of the fields and of the ``tn`` and ``step`` rules for the engine, the sheets
#: and the ``odds`` command; the odds package loads no game system, so the engine builds on it)
ME_D1 = Rules()

#: The catalogue's tables as a :class:`Rules` (read by the odds calculator, which loads no numpy)
rules_from = rules_of


@lru_cache(maxsize=32)
def roll_distribution(dice: int = 2, sides: int = 6) -> Distribution:
    """Sum of ``dice`` fair dice with ``sides`` faces (2d6: values 2..12)."""
    return Distribution.uniform(1, sides).power(dice)


#: P(roll >= t) for t = 0 .. dice × sides + 1, by dice × 1000 + sides: read for every attack
#: the player weighs, so kept as a plain list (the same floats as ``Distribution.at_least``)
_AT_LEAST: dict[int, list[float]] = {}


def success_probability(rules: Rules, tn: int) -> float:
    dice, sides = rules.dice, rules.sides
    key = dice * 1000 + sides
    table = _AT_LEAST.get(key)
    if table is None:
        roll = roll_distribution(dice, sides)
        table = _AT_LEAST[key] = [roll.at_least(t) for t in range(dice * sides + 2)]
    t = tn if tn > 0 else 0
    if t < len(table):
        return table[t]
    return roll_distribution(dice, sides).at_least(t)


def stages_distribution(rules: Rules, tn: int) -> tuple[float, Distribution | None]:
    """(P(failure), distribution of success stages given success, or None if success is impossible).

    A target number at or below the lowest roll makes every roll a success with
    stages counted from TN (so TN 0 on 2d6 gives 2..12 stages).
    """
    roll = roll_distribution(rules.dice, rules.sides).pmf
    low = max(tn, 0)
    if low >= len(roll):
        return 1.0, None
    p_fail = float(roll[:low].sum())
    pmf = np.zeros(len(roll) - tn)
    for value in range(low, len(roll)):
        pmf[value - tn] += roll[value]
    return p_fail, Distribution(pmf / pmf.sum())


def damage_of(stages: int, step: int) -> int:
    """ME-D1: 1 Damage, +1 for every ``step`` success stages."""
    return 1 + stages // step


def damage_distribution(rules: Rules, tn: int, savage: bool = False, lethal: bool = False) -> Distribution:
    """Damage of one successful hit's damage roll (0 when the damage roll fails)."""
    step = rules.step(savage, lethal)
    p_fail, stages = stages_distribution(rules, tn)
    out: dict[int, float] = {0: p_fail}
    if stages is not None:
        for s, p in enumerate(stages.pmf):
            if p > 0:
                d = damage_of(s, step)
                out[d] = out.get(d, 0.0) + p * (1.0 - p_fail)
    return Distribution.from_mapping(out)


def attack_distribution(
    rules: Rules,
    hit_tn: int,
    damage_tn: int,
    savage: bool = False,
    lethal: bool = False,
    attacks: int = 1,
    auto_hit: bool = False,
) -> tuple[Distribution, Distribution]:
    """(hits, damage) of ``attacks`` independent attacks: each hits on 2d6 ≥ hit_tn, then rolls damage."""
    p_hit = 1.0 if auto_hit else success_probability(rules, hit_tn)
    one_hit = Distribution([1.0 - p_hit, p_hit]) if p_hit < 1.0 else Distribution.point(1)
    per_hit = damage_distribution(rules, damage_tn, savage, lethal)
    one_attack = {0: 1.0 - p_hit}
    for d, p in enumerate(per_hit.pmf):
        one_attack[d] = one_attack.get(d, 0.0) + p_hit * p
    damage = Distribution.from_mapping(one_attack)
    return one_hit.power(attacks), damage.power(attacks)


# --------------------------------------------------------------------------- sampling


def roll(rng: np.random.Generator, rules: Rules = ME_D1) -> int:
    return int(rng.integers(1, rules.sides + 1, size=rules.dice).sum())


def opposed(rng: np.random.Generator, x: int, y: int, rules: Rules = ME_D1) -> tuple[bool, int, int]:
    """Roll 'X versus Y': (success, stages, natural roll)."""
    natural = roll(rng, rules)
    tn = rules.tn(x, y)
    return natural >= tn, max(0, natural - tn), natural


# expected Damage of one attack, memoised: the AI weighs thousands of attacks per game
DAMAGE_MEMOS: dict[Rules, dict[tuple[int, int, str], float]] = {}


@lru_cache(maxsize=4096)
def expected_damage(rules: Rules, hit_tn: int, dmg_tn: int, step_kind: str) -> float:
    p_hit = success_probability(rules, hit_tn)
    return p_hit * damage_distribution(rules, dmg_tn, step_kind == "savage", step_kind == "lethal").mean()
