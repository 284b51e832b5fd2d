"""Exact odds for Rattle and Rend: one check, or one attack (Fury, then Will).

``armybuilder odds rattle-and-rend --mode check --stat 12 --bonus 1`` gives the fail /
success / critical chances of one check; ``--mode attack`` (the default) gives those of the
Fury check and of what happens to the target.  Stats may be typed (``--fury 11 --will 13``)
or taken from group types of the catalogue (``--attacker fighters --target shooters``).

The catalogue's part comes as plain tables (``systems/rattle_and_rend/engine/odds.py``
reads them): ``{"dice": [standard, penalty, bonus], "group_types": {id: [name, fury,
will]}}``.  The rules are those of the engine's dice (seed: Core Dice Mechanic, Attacks):
a die hits on the stat or more, one hit succeeds, two are critical; each chance here is an
exact ratio of whole numbers (powers of 20), rounded to a float once.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.odds_params import Option, Spec

from .exact import Ratio, add, mul

GROUP_TYPES = tuple(Option(g, g.capitalize()) for g in ("champion", "heavy", "fighters", "shooters", "skirmishers", "ward"))
ATTACK_NAMES = ("miss", "DEFY!", "Stand Firm / Muddled", "BREAK")
#: dice rolled for (standard, penalty, bonus) when the catalogue says nothing else
DEFAULT_DICE = (2, 1, 3)

PARAMETERS: tuple[Spec, ...] = (
    Spec("mode", "What to compute", "choice", (Option("attack", "An attack"), Option("check", "One check")), default="attack"),
    Spec("stat", "Stat of the check (mode check)", "int", default=11, minimum=1, maximum=21, help="target number of a single check, e.g. 12 for Guile 12+"),
    Spec("bonus", "Bonuses", "int", default=0, minimum=0, help="bonuses to the check or to the Fury check"),
    Spec("penalty", "Penalties", "int", default=0, minimum=0, help="penalties to the check or to the Fury check"),
    Spec("fury", "Attacker's Fury", "int", default=11, minimum=1, maximum=21, help="Fury of the attacker (ignored with --attacker)"),
    Spec("will", "Target's Will", "int", default=11, minimum=1, maximum=21, help="Will of the target (ignored with --target)"),
    Spec("attacker", "Attacking group type", "choice", GROUP_TYPES, help="take the Fury from this group type"),
    Spec("target", "Target group type", "choice", GROUP_TYPES, help="take the Will from this group type"),
    Spec("will_bonus", "Bonuses to the Will check", "int", default=0, minimum=0, help="e.g. an attached Champion"),
    Spec("will_penalty", "Penalties to the Will check", "int", default=0, minimum=0, help="e.g. Fearsome; a critical Fury check adds one"),
    Spec("poisoners", "Attacker has Poisoners", "bool", default=False, help="a DEFY! result is rolled again with a penalty"),
)


def dice_count(bonuses: int, penalties: int, dice: tuple[int, int, int] = DEFAULT_DICE) -> int:
    """Dice rolled for a check with so many bonuses and penalties (any amounts cancel)."""
    standard, penalty, bonus = dice
    if bonuses > 0 and penalties > 0:
        return standard
    if penalties > 0:
        return penalty
    if bonuses > 0:
        return bonus
    return standard


def check(stat: int | None, dice: int) -> tuple[Ratio, Ratio, Ratio]:
    """(fail, success, critical) of ``dice`` d20 against ``stat``, exactly; a group without
    the stat never succeeds."""
    if dice < 1:
        raise ValueError("a check rolls at least one die")
    hits = 0 if stat is None else min(20, max(0, 21 - stat))  # faces of a d20 at or above the stat
    den = 20**dice
    fail = (20 - hits) ** dice
    success = dice * hits * (20 - hits) ** (dice - 1)
    return (fail, den), (success, den), (den - fail - success, den)


def attack(
    fury: int | None, fury_dice: int, will: int | None, will_dice: int, critical_will_dice: int,
    poisoned: bool = False, poisoned_dice: int = 1,
) -> tuple[Ratio, Ratio, Ratio, Ratio]:  # fmt: skip
    """MISS / DEFY / STAND / BREAK of one attack, exactly.

    ``will_dice`` is rolled after a simple success, ``critical_will_dice`` after a critical
    one (the caller applies the penalty, which may cancel a bonus).  ``poisoned``
    (Poisoners): a critical Will result is rolled again with ``poisoned_dice`` and that
    second result stands."""
    f_fail, f_success, f_critical = check(fury, fury_dice)
    defy: Ratio = (0, 1)
    stand: Ratio = (0, 1)
    broken: Ratio = (0, 1)
    for weight, dice in ((f_success, will_dice), (f_critical, critical_will_dice)):
        w_fail, w_success, w_critical = check(will, dice)
        if poisoned:
            r_fail, r_success, r_critical = check(will, poisoned_dice)
            w_fail = add(w_fail, mul(w_critical, r_fail))
            w_success = add(w_success, mul(w_critical, r_success))
            w_critical = mul(w_critical, r_critical)
        defy = add(defy, mul(weight, w_critical))
        stand = add(stand, mul(weight, w_success))
        broken = add(broken, mul(weight, w_fail))
    return f_fail, defy, stand, broken


def _int(params: dict[str, Any], name: str, default: int = 0, low: int = 0, high: int = 99) -> int:
    value = params.get(name)
    if value is None:
        value = default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number") from None
    if not low <= number <= high:
        raise ValueError(f"--{name.replace('_', '-')} must be between {low} and {high}")
    return number


def _stat_of(tables: dict[str, Any], type_id: str | None, stat: str, typed: int) -> tuple[int | None, str]:
    if not type_id:
        return typed, f"{stat.capitalize()} {typed}+"
    gt = tables.get("group_types", {}).get(type_id)
    if gt is None:
        raise ValueError(f"no group type '{type_id}' in the catalogue")
    name, value = gt[0], gt[1 if stat == "fury" else 2]
    return value, f"{name} {stat.capitalize()} " + ("-" if value is None else f"{value}+")


def _pct(p: float) -> str:
    return f"{100 * p:7.3f} %"


def _f(x: Ratio) -> float:
    return x[0] / x[1]


def compute(tables: dict[str, Any] | None, params: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The payload and the text of a check or an attack, for the catalogue's ``tables``."""
    tables = tables or {}
    standard, penalty_dice, bonus_dice = tables.get("dice") or DEFAULT_DICE
    dice = (int(standard), int(penalty_dice), int(bonus_dice))
    version = tables.get("version")
    mode = params.get("mode") or "attack"
    bonus, penalty = _int(params, "bonus"), _int(params, "penalty")
    if mode == "check":
        stat = _int(params, "stat", 11, 1, 21)
        n = dice_count(bonus, penalty, dice)
        fail, success, critical = (_f(x) for x in check(stat, n))
        payload = {
            "mode": "check",
            "input": {"stat": stat, "bonus": bonus, "penalty": penalty, "catalogue": version},
            "dice": n,
            "fail": fail,
            "success": success,
            "critical": critical,
            "at_least_success": success + critical,
            "check": {"pmf": [fail, success, critical], "mean": success + 2 * critical},  # 0 fail, 1 success, 2 critical
        }
        check_lines = (
            f"check against {stat}+ with {n}d20 ({bonus} bonus, {penalty} penalty)",
            f"fail      {_pct(fail)}",
            f"success   {_pct(success)}  (one die at or above {stat})",
            f"critical  {_pct(critical)}  (two dice or more)",
            f"succeeds  {_pct(success + critical)}",
        )
        return payload, check_lines
    if mode != "attack":
        raise ValueError("--mode must be attack or check")
    fury, fury_label = _stat_of(tables, params.get("attacker"), "fury", _int(params, "fury", 11, 1, 21))
    will, will_label = _stat_of(tables, params.get("target"), "will", _int(params, "will", 11, 1, 21))
    will_bonus, will_penalty = _int(params, "will_bonus"), _int(params, "will_penalty")
    poisoners = bool(params.get("poisoners"))
    fury_dice = dice_count(bonus, penalty, dice)
    will_dice = dice_count(will_bonus, will_penalty, dice)
    critical_will_dice = dice_count(will_bonus, will_penalty + 1, dice)
    poisoned_dice = dice_count(will_bonus, will_penalty + 1, dice)
    pmf = [_f(x) for x in attack(fury, fury_dice, will, will_dice, critical_will_dice, poisoners, poisoned_dice)]
    f_fail, f_success, f_critical = (_f(x) for x in check(fury, fury_dice))
    payload = {
        "mode": "attack",
        "input": {
            "fury": fury,
            "will": will,
            "attacker": params.get("attacker"),
            "target": params.get("target"),
            "bonus": bonus,
            "penalty": penalty,
            "will_bonus": will_bonus,
            "will_penalty": will_penalty,
            "poisoners": poisoners,
            "catalogue": version,
        },
        "fury_check": {
            "dice": fury_dice,
            "fail": f_fail,
            "success": f_success,
            "critical": f_critical,
            "pmf": [f_fail, f_success, f_critical],  # 0 fail, 1 success, 2 critical
            "mean": f_success + 2 * f_critical,
        },
        "will_dice": {"after_success": will_dice, "after_critical": critical_will_dice},
        "outcome": {
            "miss": pmf[0],
            "defy": pmf[1],
            "stand_firm": pmf[2],
            "break": pmf[3],
            # by harm to the target: 0 miss, 1 DEFY!, 2 Stand Firm (pushed back), 3 BREAK
            "pmf": pmf,
            "mean": pmf[1] + 2 * pmf[2] + 3 * pmf[3],
        },
    }
    lines = [
        f"{fury_label} with {fury_dice}d20 against {will_label} "
        f"({will_dice}d20 after a success, {critical_will_dice}d20 after a critical)"
        + (", Poisoners" if poisoners else ""),
        f"Fury check: fail {_pct(f_fail)}, success {_pct(f_success)}, critical {_pct(f_critical)}",
        "",
    ]
    for name, p in zip(ATTACK_NAMES, pmf, strict=True):
        lines.append(f"{name:<22} {_pct(p)}")
    return payload, tuple(lines)
