"""The Ragnarok (Morpheus Engine) list model: a war clan, and its Glory count.

A list file looks like this (comments are kept when the program edits it)::

    system: morpheus-ragnarok
    catalogue: 1.0.0
    format: 800-glory
    name: Ravens of Hrafnsey
    warriors:
      - type: jarl
        label: Sigrun         # optional personal name
        jarl: true            # this warrior leads the clan
        equipment: [heavy-armor, shield, ulfbert]
      - {type: huskarl, equipment: [scale-chain-armor, shield, spear]}
    god_powers:
      - {power: split-mountains, imprinted: true}

Equipment ids name armour, shields, weapons or other items of the catalogue; the
kind of each follows from the catalogue, so a player never has to say it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import Strict
from armybuilder.core.checks import list_format
from armybuilder.core.system import ArmyListBase

from .catalog import MECat, MEFormat, WarriorType

EquipmentKind = Literal["armour", "shields", "weapons", "items"]
KINDS: tuple[EquipmentKind, ...] = ("armour", "shields", "weapons", "items")


class Warrior(Strict):
    type: str
    label: str = ""
    jarl: bool = False
    equipment: list[str] = Field(default_factory=list)
    notes: str = ""


class GodPowerPick(Strict):
    power: str
    imprinted: bool = False


class WarClan(ArmyListBase):
    system: Literal["morpheus-ragnarok"] = "morpheus-ragnarok"
    warriors: list[Warrior] = Field(default_factory=list)
    god_powers: list[GodPowerPick] = Field(default_factory=list)


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
