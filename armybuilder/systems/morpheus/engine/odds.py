"""Exact odds of one Morpheus Engine attack: the hit roll, then the Damage it causes.

The maths and the parameters live in :mod:`armybuilder.systems.morpheus.odds_calculator` (pure Python, so
``armybuilder odds`` starts without loading the system); this module is the game system's
side: it reads the catalogue's opposed-roll and damage tables (ME-D1 is provisional data)
into the plain tables the calculator takes, and calls the same ``compute`` as the command.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.catalog import Catalogue
from armybuilder.core.odds import parameters
from armybuilder.core.system import OddsResult

from .. import odds_calculator as calculator

PARAMETERS = parameters(calculator.PARAMETERS)


def odds_tables(cat: Catalogue | None) -> dict[str, Any]:
    """The catalogue's opposed-roll and damage tables as plain, JSON-able values (ME-D1 where
    the catalogue has none)."""
    return {"rules": list(calculator.rules_of(cat)), "version": getattr(cat, "version", None)}


def attack_odds(cat: Catalogue | None, params: dict[str, Any]) -> OddsResult:
    """The odds of one or more attacks (see :func:`armybuilder.systems.morpheus.odds_calculator.compute`)."""
    payload, lines = calculator.compute(odds_tables(cat), params)
    return OddsResult(payload, lines)


# --------------------------------------------------------------------------- warrior against warrior


def unit_choices(army, cat: Catalogue) -> list[tuple[int, str]]:
    """(index, label) of every warrior of a clan whose type the catalogue knows."""
    from ..army import warrior_name, warrior_type

    return [(i, f"{i + 1}. {warrior_name(cat, w)}") for i, w in enumerate(army.warriors) if warrior_type(cat, w.type) is not None]


def unit_odds_params(army, index: int, other, other_index: int, cat: Catalogue) -> dict[str, Any]:
    """Parameters of :func:`attack_odds` for warrior ``index`` of ``army`` attacking ``other_index`` of ``other``.

    The attacker uses its melee weapon with the best expected Damage (fists, ST 0, if
    it has none); the target's RS includes its armour.
    """
    from ..army import warrior_type
    from .dice import expected_damage, rules_from

    me, them = army.warriors[index], other.warriors[other_index]
    t_me, t_them = warrior_type(cat, me.type), warrior_type(cat, them.type)
    if t_me is None or t_them is None:
        raise KeyError("a warrior type is missing from the catalogue")
    rs = t_them.rs + sum(a.rs for e in them.equipment if (a := cat.get("armour", e)) is not None)
    weapons = [w for e in me.equipment if (w := cat.get("weapons", e)) is not None and w.kind == "melee"]
    rules = rules_from(cat)

    def value(w) -> float:
        kind = "lethal" if "lethal" in w.abilities else "savage" if "savage" in w.abilities else "normal"
        return expected_damage(rules, rules.tn(t_me.ma, t_them.df), rules.tn(w.st, rs), kind)

    best = max(weapons, key=value) if weapons else None
    kind = "normal"
    if best is not None:
        kind = "lethal" if "lethal" in best.abilities else "savage" if "savage" in best.abilities else "normal"
    return {
        "attack": t_me.ma,
        "defense": t_them.df,
        "strength": best.st if best is not None else 0,
        "resistance": rs,
        "attacks": 3 if any(a.startswith("rapid-attack") for a in t_me.abilities) else 1,
        "damage": kind,
        "charge": False,
        "overwhelm": False,
        "attack_bonus": 0,
        "strength_bonus": 0,
        "hp": t_them.hp,
    }


#: the name every odds module gives its calculator (PackagedSystem.odds calls it)
odds = attack_odds
