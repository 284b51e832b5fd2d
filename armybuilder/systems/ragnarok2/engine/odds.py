"""Exact odds of one Rag'Narok 2 combat roll: attacks, then the Wounds they cause.

The contest table is read from the catalogue the player is using (R2-D1 is
provisional data), never from code, so a corrected table in a later catalogue
version changes the odds without a code change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.odds import int_param, pmf_list
from armybuilder.core.system import OddsResult, Param

from .dice import R2_D1_COLUMNS, ContestColumn, attack_then_wounds, contest_column

PARAMETERS: tuple[Param, ...] = (
    Param("attack", "Attacker's ATT", "int", minimum=0, maximum=30, help="ATT of the attacking fighters"),
    Param("defense", "Defender's DEF", "int", minimum=0, maximum=30, help="DEF of the attacked fighters"),
    Param("strength", "Attacker's STR", "int", minimum=0, maximum=30, help="STR of the attacking fighters"),
    Param("resistance", "Defender's RES", "int", minimum=0, maximum=30, help="RES of the attacked fighters"),
    Param("dice", "Combat dice", "int", minimum=0, maximum=200, help="number of attack dice rolled"),
    Param("attack_shift", "Attack column shift", "int", default=0, minimum=-30, maximum=30, help="columns right (+) or left (-) for the attacks"),
    Param("wound_shift", "Wound column shift", "int", default=0, minimum=-30, maximum=30, help="columns right (+) or left (-) for the Wound rolls"),
)


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


def combat_odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    att, defense = int_param(params, "attack"), int_param(params, "defense")
    strength, res = int_param(params, "strength"), int_param(params, "resistance")
    dice = int_param(params, "dice")
    if not 0 <= dice <= 200:
        raise ValueError("--dice must be between 0 and 200")
    a_shift, w_shift = int_param(params, "attack_shift", 0), int_param(params, "wound_shift", 0)
    columns = contest_columns(cat)
    attacks, wounds = attack_then_wounds(columns, att - defense, strength - res, dice, a_shift, w_shift)
    a_col = contest_column(columns, att - defense, a_shift)
    w_col = contest_column(columns, strength - res, w_shift)
    # Exactly the JSON contract of the issue: column label, pmf (cut only where the
    # remaining mass is below 1e-12) and mean, for the attacks and for the Wounds.
    a_pmf, w_pmf = pmf_list(attacks), pmf_list(wounds)  # once, for the payload and the table
    a_mean, w_mean = attacks.mean(), wounds.mean()
    payload = {
        "attacks": {"column": a_col.label, "pmf": a_pmf, "mean": a_mean},
        "wounds": {"column": w_col.label, "pmf": w_pmf, "mean": w_mean},
    }
    lines = [
        f"{dice} combat dice, ATT {att} vs DEF {defense}: column {a_col.label} ({a_col.notation})"
        + (f", shifted {a_shift:+d}" if a_shift else ""),
        f"Wound rolls STR {strength} vs RES {res}: column {w_col.label} ({w_col.notation})"
        + (f", shifted {w_shift:+d}" if w_shift else ""),
        f"mean successful attacks {a_mean:.3f}, mean Wounds {w_mean:.3f} (before allocation)",
        "",
        f"{'k':>3} {'P(attacks = k)':>15} {'P(attacks >= k)':>16} {'P(wounds = k)':>14} {'P(wounds >= k)':>15}",
    ]
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


# --------------------------------------------------------------------------- unit against unit


def unit_choices(army: Any, cat: Catalogue) -> list[tuple[int, str]]:
    """(index, label) of the list's units that can fight (they have a profile in *cat*)."""
    from ..army import profile

    out = []
    for i, unit in enumerate(army.units):
        pid = unit.troops.profile if unit.troops and unit.troops.count else (unit.members[0].profile if unit.members else None)
        p = profile(cat, pid) if pid else None
        if p is None:
            continue
        count = unit.troops.count if unit.troops and unit.troops.count else 1
        out.append((i, f"{unit.name or p.name} ({count} × {p.name})"))
    return out


def unit_odds_params(army: Any, index: int, other: Any, other_index: int, cat: Catalogue) -> dict[str, Any]:
    """Odds parameters for unit *index* of *army* attacking unit *other_index* of *other*.

    The attacker's troops (or its first member) roll all their combat dice (seed:
    Combat dice) with their ATT and STR against the DEF and RES of the target's
    troops; Master strike moves the attacks one column left, Hard boiled the
    Wound rolls against the target.  Characters of the unit are not added (they
    have their own profile and would make a second combat).
    """
    from ..army import profile
    from .abilities import traits_of
    from .battle import combat_dice

    def troops(lst: Any, i: int):
        unit = lst.units[i]
        if unit.troops and unit.troops.count:
            return profile(cat, unit.troops.profile), unit.troops.count
        return (profile(cat, unit.members[0].profile), 1) if unit.members else (None, 0)

    mine, n = troops(army, index)
    theirs, _ = troops(other, other_index)
    if mine is None or theirs is None:
        raise ValueError("that unit has no known profile in this catalogue")
    t_mine = traits_of(tuple(mine.abilities), tuple(mine.roles))
    t_theirs = traits_of(tuple(theirs.abilities), tuple(theirs.roles))
    strength = mine.str_ + (mine.att + t_mine.master_strike if t_mine.master_strike is not None else 0)
    return {
        "attack": mine.att,
        "defense": theirs.def_,
        "strength": strength,
        "resistance": theirs.res,
        "dice": min(n * combat_dice(mine), 200),
        "attack_shift": -1 if t_mine.master_strike is not None else 0,
        "wound_shift": t_theirs.wound_shift_against,
    }


#: the name every odds module gives its calculator (PackagedSystem.odds calls it)
odds = combat_odds
