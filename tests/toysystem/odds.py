"""Pit Fighters' odds on the protocol's path (the TUI, the bench, the command's first run): the
catalogue's fighter types as the calculator's plain tables, and fighter against fighter."""

from __future__ import annotations

from typing import Any

from armybuilder.core.odds import parameters
from armybuilder.core.system import OddsResult

from . import odds_calculator as calculator
from .model import PitCat, PitList, fighter_type, name

PARAMETERS = parameters(calculator.PARAMETERS)


def odds_tables(cat: PitCat | None) -> dict[str, Any]:
    """Every fighter type as ``[name, attack, guard]`` (JSON-able: the command remembers it)."""
    fighters = cat.data.fighters if cat is not None else []
    return {"fighters": {f.id: [f.name, f.attack, f.guard] for f in fighters}}


def odds(cat: PitCat | None, params: dict[str, Any]) -> OddsResult:
    payload, lines = calculator.compute(odds_tables(cat), params)
    return OddsResult(payload, tuple(lines))


def unit_choices(army: PitList, cat: PitCat) -> list[tuple[int, str]]:
    """(index, label) of the crew's fighters whose type the catalogue knows."""
    return [(i, f"{i + 1}. {name(cat, f)}") for i, f in enumerate(army.fighters) if fighter_type(cat, f) is not None]


def unit_odds_params(army: PitList, index: int, other: PitList, other_index: int, cat: PitCat) -> dict[str, Any]:
    """One blow of fighter ``index`` of ``army`` at fighter ``other_index`` of ``other``."""
    mine, theirs = fighter_type(cat, army.fighters[index]), fighter_type(cat, other.fighters[other_index])
    if mine is None or theirs is None:
        raise ValueError("that fighter's type is not in this catalogue")
    return {"attack": mine.attack, "guard": theirs.guard, "blows": 1, "striker": "", "target": ""}
