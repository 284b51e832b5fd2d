"""Wound levels: the one rule of how many a Rag'Narok 2 fighter has.

Three sources decide it, read here and nowhere else (the sheets, cards, rosters, the
editor's detail pane and the battle engine all ask :func:`wound_levels`):

- the generic rules, *Health status*: Short and Medium Size troops 1, Large Size troops
  or above 2 (the catalogue's Size table);
- the same section: every Incarnate Character 4 (the catalogue's
  ``incarnate_wound_levels``);
- the FAQ, *Fighter wound racks*: the Warrior-mage and Warrior-monk skills give a
  Character one more Wound level, once even when it has both (the catalogue's
  ``mystic_warrior_wound_levels``).

No pydantic here: the rules and the engine read catalogues as plain mirrors too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import Profile, Tables

#: the skills (roles and abilities alike) that add the FAQ's Wound level to a Character
MYSTIC_WARRIOR = ("warrior-mage", "warrior-monk")
#: where each part of the rule comes from, as prints cite it
SIZE_SOURCE = "seed: The fighters / Health status"
INCARNATE_SOURCE = "seed: The fighters / Health status"
FAQ_SOURCE = "FAQ: II.3 Fighter wound racks"


def size_wound_levels(tables: Tables, size: str) -> int:
    """Wound levels of a troop of ``size``: the catalogue's Size table, else the seed's rule
    (Short and Medium 1, Large or above 2)."""
    for row in tables.sizes:
        if row.size == size:
            return row.wound_levels
    return 1 if size in ("small", "medium") else 2


def is_mystic_warrior(p: Profile) -> bool:
    """A warrior-mage or warrior-monk, by role or by ability (the catalogue writes both)."""
    return any(p.has_role(skill) or p.has_ability(skill) for skill in MYSTIC_WARRIOR)


def wound_levels(tables: Tables, p: Profile) -> int:
    """How many Wound levels the fighter of profile ``p`` has (see the module's sources)."""
    base = tables.incarnate_wound_levels if p.has_role("incarnate") else size_wound_levels(tables, p.size)
    if p.has_role("character") and is_mystic_warrior(p):
        base += tables.mystic_warrior_wound_levels
    return base


def wound_level_reasons(tables: Tables, p: Profile) -> list[str]:
    """Why ``p`` has its Wound levels, part by part, for the detail pane and the sheets:
    ["Medium Size: 1 (seed: ...)", "warrior-monk Character: +1 (FAQ: ...)"]."""
    if p.has_role("incarnate"):
        out = [f"Incarnate Character: {tables.incarnate_wound_levels} ({INCARNATE_SOURCE})"]
    else:
        name = next((row.name for row in tables.sizes if row.size == p.size), p.size.capitalize())
        out = [f"{name} Size: {size_wound_levels(tables, p.size)} ({SIZE_SOURCE})"]
    if p.has_role("character") and is_mystic_warrior(p):
        skills = " and ".join(s for s in MYSTIC_WARRIOR if p.has_role(s) or p.has_ability(s))
        out.append(f"{skills} Character: +{tables.mystic_warrior_wound_levels} ({FAQ_SOURCE})")
    return out
