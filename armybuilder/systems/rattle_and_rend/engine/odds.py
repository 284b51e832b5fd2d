"""Exact odds for Rattle and Rend: one check, or one attack (Fury, then Will).

The maths and the parameters live in :mod:`armybuilder.systems.rattle_and_rend.odds_calculator` (pure Python,
so ``armybuilder odds`` starts without loading the system); this module is the game
system's side: it reads the catalogue's ``check_dice`` table and group types into the plain
tables the calculator takes, and calls the same ``compute`` as the command.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.odds import parameters
from armybuilder.core.system import OddsResult

from .. import odds_calculator as calculator

PARAMETERS = parameters(calculator.PARAMETERS)


def odds_tables(cat: Catalogue | None) -> dict[str, Any]:
    """The catalogue's check dice and group types (name, Fury, Will) as plain, JSON-able tables."""
    table = getattr(getattr(getattr(cat, "data", None), "tables", None), "check_dice", None)
    dice = list(calculator.DEFAULT_DICE) if table is None else [table.standard, table.penalty, table.bonus]
    group_types = getattr(getattr(cat, "data", None), "group_types", None) or []
    return {
        "dice": dice,
        "group_types": {g.id: [g.name, g.fury, g.will] for g in group_types},
        "version": getattr(cat, "version", None),
    }


def odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    """The odds of a check or an attack (see :func:`armybuilder.systems.rattle_and_rend.odds_calculator.compute`)."""
    payload, lines = calculator.compute(odds_tables(cat), params)
    return OddsResult(payload, lines)


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
