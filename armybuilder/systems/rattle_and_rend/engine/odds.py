"""Exact odds for Rattle and Rend: one check, or one attack (Fury, then Will).

``armybuilder odds rattle-and-rend --mode check --stat 12 --bonus 1`` gives the
fail / success / critical chances of one check; ``--mode attack`` (the default)
gives those of the Fury check and of what happens to the target.  Stats may be
typed (``--fury 11 --will 13``) or taken from group types of the catalogue
(``--attacker fighters --target shooters``).  The dice counts come from the
catalogue's ``check_dice`` table.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import Choice, OddsResult, Param

from .dice import ATTACK_NAMES, attack, check_probabilities, dice_count

GROUP_TYPES = tuple(
    Choice(g, g.capitalize()) for g in ("champion", "heavy", "fighters", "shooters", "skirmishers", "ward")
)

PARAMETERS: tuple[Param, ...] = (
    Param("mode", "What to compute", "choice", (Choice("attack", "An attack"), Choice("check", "One check")), default="attack"),
    Param("stat", "Stat of the check (mode check)", "int", default=11, minimum=1, maximum=21, help="target number of a single check, e.g. 12 for Guile 12+"),
    Param("bonus", "Bonuses", "int", default=0, minimum=0, help="bonuses to the check or to the Fury check"),
    Param("penalty", "Penalties", "int", default=0, minimum=0, help="penalties to the check or to the Fury check"),
    Param("fury", "Attacker's Fury", "int", default=11, minimum=1, maximum=21, help="Fury of the attacker (ignored with --attacker)"),
    Param("will", "Target's Will", "int", default=11, minimum=1, maximum=21, help="Will of the target (ignored with --target)"),
    Param("attacker", "Attacking group type", "choice", GROUP_TYPES, help="take the Fury from this group type"),
    Param("target", "Target group type", "choice", GROUP_TYPES, help="take the Will from this group type"),
    Param("will_bonus", "Bonuses to the Will check", "int", default=0, minimum=0, help="e.g. an attached Champion"),
    Param("will_penalty", "Penalties to the Will check", "int", default=0, minimum=0, help="e.g. Fearsome; a critical Fury check adds one"),
    Param("poisoners", "Attacker has Poisoners", "bool", default=False, help="a DEFY! result is rolled again with a penalty"),
)


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


def _dice_table(cat: Catalogue | None) -> tuple[int, int, int]:
    table = getattr(getattr(getattr(cat, "data", None), "tables", None), "check_dice", None)
    if table is None:
        return (2, 1, 3)
    return (table.standard, table.penalty, table.bonus)


def _stat_of(cat: Catalogue | None, type_id: str | None, stat: str, typed: int) -> tuple[int | None, str]:
    if not type_id:
        return typed, f"{stat.capitalize()} {typed}+"
    gt = cat.get("group_types", type_id) if cat is not None else None
    if gt is None:
        raise ValueError(f"no group type '{type_id}' in the catalogue")
    value = getattr(gt, stat)
    return value, f"{gt.name} {stat.capitalize()} " + ("-" if value is None else f"{value}+")


def _pct(p: float) -> str:
    return f"{100 * p:7.3f} %"


def odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    dice = _dice_table(cat)
    mode = params.get("mode") or "attack"
    bonus, penalty = _int(params, "bonus"), _int(params, "penalty")
    if mode == "check":
        stat = _int(params, "stat", 11, 1, 21)
        n = dice_count(bonus, penalty, dice)
        fail, success, critical = check_probabilities(stat, n)
        payload = {
            "mode": "check",
            "input": {"stat": stat, "bonus": bonus, "penalty": penalty, "catalogue": getattr(cat, "version", None)},
            "dice": n,
            "fail": fail,
            "success": success,
            "critical": critical,
            "at_least_success": success + critical,
            "check": {"pmf": [fail, success, critical], "mean": success + 2 * critical},  # 0 fail, 1 success, 2 critical
        }
        lines = (
            f"check against {stat}+ with {n}d20 ({bonus} bonus, {penalty} penalty)",
            f"fail      {_pct(fail)}",
            f"success   {_pct(success)}  (one die at or above {stat})",
            f"critical  {_pct(critical)}  (two dice or more)",
            f"succeeds  {_pct(success + critical)}",
        )
        return OddsResult(payload, lines)
    if mode != "attack":
        raise ValueError("--mode must be attack or check")
    fury, fury_label = _stat_of(cat, params.get("attacker"), "fury", _int(params, "fury", 11, 1, 21))
    will, will_label = _stat_of(cat, params.get("target"), "will", _int(params, "will", 11, 1, 21))
    will_bonus, will_penalty = _int(params, "will_bonus"), _int(params, "will_penalty")
    poisoners = bool(params.get("poisoners"))
    fury_dice = dice_count(bonus, penalty, dice)
    will_dice = dice_count(will_bonus, will_penalty, dice)
    critical_will_dice = dice_count(will_bonus, will_penalty + 1, dice)
    poisoned_dice = dice_count(will_bonus, will_penalty + 1, dice)
    dist = attack(fury, fury_dice, will, will_dice, critical_will_dice, poisoners, poisoned_dice)
    pmf = [float(dist.pmf[k]) if k < len(dist.pmf) else 0.0 for k in range(4)]
    f_fail, f_success, f_critical = check_probabilities(fury, fury_dice)
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
            "catalogue": getattr(cat, "version", None),
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
    return OddsResult(payload, tuple(lines))


# --------------------------------------------------------------------------- group against group


def unit_choices(army: Any, cat: Catalogue) -> list[tuple[int, str]]:
    """Groups of a warband the odds panel can pit against each other; an attached
    Champion is part of its group, so it is not offered on its own."""
    from ..army import attachment_target, group_title, group_type
    from ..editing import option_names

    out = []
    for gi, g in enumerate(army.groups):
        gt = group_type(cat, g)
        if gt is None or (gt.can_attach and attachment_target(army, gi) is not None):
            continue
        names = option_names(cat, g)
        names += [
            f"Champion: {', '.join(option_names(cat, c)) or 'no action'}"
            for ci, c in enumerate(army.groups)
            if ci != gi and c.attached_to == gi and c.type == "champion"
        ]
        out.append((gi, f"{gi + 1}. {group_title(cat, g, gi)}" + (f" ({'; '.join(names)})" if names else "")))
    return out


def unit_odds_params(army: Any, unit: int, other: Any, other_unit: int, cat: Catalogue) -> dict[str, Any]:
    """Parameters of :func:`odds` for group ``unit`` of ``army`` attacking ``other_unit`` of ``other``.

    Stats are those in play (heavy trait and warband traits applied); a target with an
    attached Champion makes its Will check with a bonus; Poisoners and Fearsome come
    from the attacker's traits (Fearsome assumes the attacker is within S).
    """
    from ..army import effective_stats

    g, t = army.groups[unit], other.groups[other_unit]
    mine, theirs = effective_stats(army, cat, g), effective_stats(other, cat, t)
    if mine is None or theirs is None:
        raise ValueError("one of the groups has a type missing from the catalogue")
    attached = any(c.attached_to == other_unit for i, c in enumerate(other.groups) if i != other_unit and c.type == "champion")
    return {
        "mode": "attack",
        "bonus": 0,
        "penalty": 0,
        # stat 21 never succeeds: a group without Fury (a Ward) never hits
        "fury": mine.fury if mine.fury is not None else 21,
        "will": theirs.will if theirs.will is not None else 1,
        "attacker": "",  # the stats above are those in play, not the type's
        "target": "",
        "will_bonus": 1 if attached else 0,
        "will_penalty": 1 if "fearsome" in army.traits else 0,
        "poisoners": "poisoners" in army.traits,
    }
