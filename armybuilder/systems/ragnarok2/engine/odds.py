"""Exact odds of one Rag'Narok 2 combat roll: attacks, then the Wounds they cause.

The contest table is read from the catalogue the player is using (R2-D1 is
provisional data), never from code, so a corrected table in a later catalogue
version changes the odds without a code change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.dice import Distribution
from armybuilder.core.system import OddsResult, Param

from .dice import R2_D1_COLUMNS, ContestColumn, attack_then_wounds, contest_column

PARAMETERS: tuple[Param, ...] = (
    Param("attack", "Attacker's ATT", "int", help="ATT of the attacking fighters"),
    Param("defense", "Defender's DEF", "int", help="DEF of the attacked fighters"),
    Param("strength", "Attacker's STR", "int", help="STR of the attacking fighters"),
    Param("resistance", "Defender's RES", "int", help="RES of the attacked fighters"),
    Param("dice", "Combat dice", "int", minimum=0, maximum=200, help="number of attack dice rolled"),
    Param("attack_shift", "Attack column shift", "int", default=0, help="columns right (+) or left (-) for the attacks"),
    Param("wound_shift", "Wound column shift", "int", default=0, help="columns right (+) or left (-) for the Wound rolls"),
)

PMF_TAIL = 1e-12


@lru_cache(maxsize=16)
def _columns_for(catalogue_hash: str, raw_columns: tuple[tuple, ...]) -> tuple[ContestColumn, ...]:
    del catalogue_hash  # part of the cache key only
    return tuple(ContestColumn(*c) for c in raw_columns)


def contest_columns(cat: Catalogue | None) -> tuple[ContestColumn, ...]:
    """The catalogue's contest table as engine columns (R2-D1 when the catalogue has none)."""
    table = getattr(getattr(getattr(cat, "data", None), "tables", None), "contest", None)
    if table is None:
        return R2_D1_COLUMNS
    raw = tuple((c.label, c.low, c.high, c.success, c.reroll_from, c.halved) for c in table.columns)
    return _columns_for(cat.hash, raw)


def _pmf(dist: Distribution) -> list[float]:
    """The pmf cut where what remains is below 1e-12 (the JSON contract of design.md)."""
    pmf = dist.pmf
    tail = 0.0
    end = len(pmf)
    while end > 1 and tail + pmf[end - 1] < PMF_TAIL:
        tail += pmf[end - 1]
        end -= 1
    return [float(x) for x in pmf[:end]]


def _int(params: dict[str, Any], name: str, default: int | None = None) -> int:
    value = params.get(name, default)
    if value is None:
        raise ValueError(f"--{name.replace('_', '-')} is needed")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--{name.replace('_', '-')} must be a whole number") from None


def combat_odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    att, defense = _int(params, "attack"), _int(params, "defense")
    strength, res = _int(params, "strength"), _int(params, "resistance")
    dice = _int(params, "dice")
    if not 0 <= dice <= 200:
        raise ValueError("--dice must be between 0 and 200")
    a_shift, w_shift = _int(params, "attack_shift", 0), _int(params, "wound_shift", 0)
    columns = contest_columns(cat)
    attacks, wounds = attack_then_wounds(columns, att - defense, strength - res, dice, a_shift, w_shift)
    a_col = contest_column(columns, att - defense, a_shift)
    w_col = contest_column(columns, strength - res, w_shift)
    payload = {
        "attacks": {"column": a_col.label, "result": a_col.notation, "pmf": _pmf(attacks), "mean": attacks.mean()},
        "wounds": {"column": w_col.label, "result": w_col.notation, "pmf": _pmf(wounds), "mean": wounds.mean()},
        "input": {
            "attack": att,
            "defense": defense,
            "strength": strength,
            "resistance": res,
            "dice": dice,
            "attack_shift": a_shift,
            "wound_shift": w_shift,
            "catalogue": getattr(cat, "version", None),
        },
        "provisional": "R2-D1",
    }
    lines = [
        f"{dice} combat dice, ATT {att} vs DEF {defense}: column {a_col.label} ({a_col.notation})"
        + (f", shifted {a_shift:+d}" if a_shift else ""),
        f"Wound rolls STR {strength} vs RES {res}: column {w_col.label} ({w_col.notation})"
        + (f", shifted {w_shift:+d}" if w_shift else ""),
        f"mean successful attacks {attacks.mean():.3f}, mean Wounds {wounds.mean():.3f} (before allocation)",
        "",
        f"{'k':>3} {'P(attacks = k)':>15} {'P(attacks >= k)':>16} {'P(wounds = k)':>14} {'P(wounds >= k)':>15}",
    ]
    a_pmf, w_pmf = _pmf(attacks), _pmf(wounds)
    a_at_least, w_at_least = attacks.at_least_table(), wounds.at_least_table()
    shown = [
        k
        for k in range(max(len(a_pmf), len(w_pmf)))
        if (k < len(a_pmf) and a_pmf[k] >= 5e-5) or (k < len(w_pmf) and w_pmf[k] >= 5e-5)
    ]
    for k in range(shown[0], shown[-1] + 1) if shown else ():
        cells = []
        for pmf, at_least in ((a_pmf, a_at_least), (w_pmf, w_at_least)):
            p = pmf[k] if k < len(pmf) else 0.0
            q = float(at_least[k]) if k < len(at_least) else 0.0
            cells.append((p, q))
        lines.append(f"{k:>3} {cells[0][0]:>15.4%} {cells[0][1]:>16.4%} {cells[1][0]:>14.4%} {cells[1][1]:>15.4%}")
    lines.append("")
    lines.append("Contest table R2-D1 is provisional (reconstructed; see the reference sheets).")
    return OddsResult(payload, tuple(lines))
