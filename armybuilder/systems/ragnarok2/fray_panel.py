"""What the editor's fray view asks of Rag'Narok 2, in the protocol's terms.

Why a module of its own: the editor names units by their place in the list (its cursor is on
``units[3]``), the battle engine by their place among the units it builds (a unit whose
profiles are all unknown to the catalogue is skipped). This module translates between the two
and hands the exact fray (:mod:`.fray_odds`, the same payload and text as
``armybuilder odds ragnarok2 --fray``) back as a neutral :class:`OddsResult`.
"""

from __future__ import annotations

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import Choice, OddsResult

from .army import R2List, profile


def _fields_a_unit(cat: Catalogue, unit) -> bool:
    """Whether the battle engine builds this unit (the test of ``engine.state._build_side``:
    troops with a count, or members, whose profile the catalogue knows)."""
    pids = [unit.troops.profile] if unit.troops and unit.troops.count > 0 else []
    pids += [m.profile for m in unit.members]
    return any(profile(cat, pid) is not None for pid in pids)


def battle_indices(cat: Catalogue, army: R2List) -> list[int]:
    """For each unit the battle builds, in order, its index in ``army.units``."""
    return [i for i, unit in enumerate(army.units) if _fields_a_unit(cat, unit)]


def fray_units(army: R2List, cat: Catalogue) -> list[Choice]:
    """The list's units a fray can use: (index in the list, the name the battle gives it)."""
    from .fray_odds import unit_names

    names = unit_names(cat, army)
    indices = battle_indices(cat, army)
    return [Choice(i, name) for i, name in zip(indices, names, strict=True)]


def _battle_index(cat: Catalogue, army: R2List, unit: int, whose: str) -> int:
    indices = battle_indices(cat, army)
    if unit not in indices:
        raise ValueError(f"{whose} unit number {unit + 1} cannot fight (no profile the catalogue knows)")
    return indices.index(unit)


def fray_odds(cat: Catalogue, army: R2List, unit: int, other: R2List, other_unit: int, charge: bool) -> OddsResult:
    """The exact fray of ``army.units[unit]`` against ``other.units[other_unit]``; ValueError
    (the calculation's refusal, in words) when a rule of these units is not enumerated."""
    from . import fray_odds as fo

    first = _battle_index(cat, army, unit, "the first")
    second = _battle_index(cat, other, other_unit, "the second")
    odds = fo.compute(cat, army, first, other, second, charge)
    return OddsResult(fo.payload(odds), tuple(fo.lines(odds)))
