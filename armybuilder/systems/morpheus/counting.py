"""Ragnarok (Morpheus Engine) Glory counting and equipment kinds.

Plain functions over a war clan and its catalogue, read the same way from the pydantic
models (army.py, catalog.py) and from their plain mirrors (plain.py), so validation
need not import pydantic.  ``army.py`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from armybuilder.core.checks import list_format

if TYPE_CHECKING:
    from .army import WarClan, Warrior
    from .catalog import MECat, MEFormat, WarriorType

EquipmentKind = Literal["armour", "shields", "weapons", "items"]
KINDS: tuple[EquipmentKind, ...] = ("armour", "shields", "weapons", "items")


def warrior_type(cat: MECat, type_id: str) -> WarriorType | None:
    return cat.get("warriors", type_id)


def fmt_of(army: WarClan, cat: MECat) -> MEFormat | None:
    return list_format(army, cat)


def equipment_kind(cat: MECat, item_id: str) -> EquipmentKind | None:
    for kind in KINDS:
        if cat.get(kind, item_id) is not None:
            return kind
    return None


def equipment_entry(cat: MECat, item_id: str):
    kind = equipment_kind(cat, item_id)
    return None if kind is None else cat.get(kind, item_id)


def equipment_cost(cat: MECat, item_id: str) -> int:
    entry = equipment_entry(cat, item_id)
    return 0 if entry is None else entry.cost


def warrior_cost(cat: MECat, w: Warrior) -> int:
    t = warrior_type(cat, w.type)
    return (t.cost if t else 0) + sum(equipment_cost(cat, e) for e in w.equipment)


def warrior_name(cat: MECat, w: Warrior) -> str:
    t = warrior_type(cat, w.type)
    base = t.name if t else f"{w.type} (missing from catalogue)"
    return f"{base} “{w.label}”" if w.label else base


@dataclass(frozen=True)
class GloryBreakdown:
    total: int
    warriors: int
    equipment: int


def breakdown(army: WarClan, cat: MECat) -> GloryBreakdown:
    base = sum((t.cost if (t := warrior_type(cat, w.type)) else 0) for w in army.warriors)
    gear = sum(equipment_cost(cat, e) for w in army.warriors for e in w.equipment)
    return GloryBreakdown(base + gear, base, gear)


def counts(cat: MECat, w: Warrior) -> dict[str, int]:
    """Number of pieces of each equipment kind a warrior carries (unknown ids left out)."""
    out: dict[str, int] = {k: 0 for k in KINDS}
    for e in w.equipment:
        kind = equipment_kind(cat, e)
        if kind is not None:
            out[kind] += 1
    return out
