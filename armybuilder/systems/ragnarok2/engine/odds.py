"""Exact odds of one Rag'Narok 2 combat roll: attacks, then the Wounds they cause.

The maths and the parameters live in :mod:`armybuilder.systems.ragnarok2.odds_calculator` (pure Python, which ``armybuilder
odds`` runs without loading the system, so it starts at once); this module is the game
system's side: it reads the contest table from the catalogue the player is using (R2-D1
is provisional data), never from code, so a corrected table in a later catalogue version
changes the odds without a code change, and hands it to the same ``compute`` as the
command, so the TUI, the bench and the command show the same floats.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.odds import parameters
from armybuilder.core.system import OddsResult

from .. import odds_calculator as calculator

if TYPE_CHECKING:
    from .dice import ContestColumn

PARAMETERS = parameters(calculator.PARAMETERS)


@lru_cache(maxsize=16)
def _columns_for(catalogue_hash: str, raw_columns: tuple[tuple, ...]) -> tuple[ContestColumn, ...]:
    from .dice import ContestColumn

    del catalogue_hash  # part of the cache key only
    return tuple(ContestColumn(*c) for c in raw_columns)


def contest_columns(cat: Catalogue | None) -> tuple[ContestColumn, ...]:
    """The catalogue's contest table as engine columns (R2-D1 when the catalogue has none)."""
    table = getattr(getattr(getattr(cat, "data", None), "tables", None), "contest", None)
    if table is None:
        from .dice import R2_D1_COLUMNS

        return R2_D1_COLUMNS
    assert cat is not None  # (a contest table came from it)
    raw = tuple((c.label, c.low, c.high, c.success, c.reroll_from, c.halved) for c in table.columns)
    return _columns_for(cat.hash, raw)


def odds_tables(cat: Catalogue | None) -> list[list[Any]]:
    """The contest table as the calculator's plain rows (JSON-able: the command remembers them)."""
    table = getattr(getattr(getattr(cat, "data", None), "tables", None), "contest", None)
    columns = table.columns if table is not None else contest_columns(None)
    return [[c.label, c.low, c.high, c.success, c.reroll_from, c.halved] for c in columns]


def combat_odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    """The odds of one combat roll (see :func:`armybuilder.systems.ragnarok2.odds_calculator.compute`)."""
    payload, lines = calculator.compute(odds_tables(cat), params)
    return OddsResult(payload, lines)


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
    from .tables import combat_dice

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
