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

from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import Strict
from armybuilder.core.system import ArmyListBase

# Glory counting and equipment kinds live in counting.py (no pydantic: validation reads
# plain mirrors); these names stay importable from here
from .counting import (  # noqa: F401
    KINDS,
    EquipmentKind,
    GloryBreakdown,
    breakdown,
    counts,
    equipment_cost,
    equipment_entry,
    equipment_kind,
    fmt_of,
    warrior_cost,
    warrior_name,
    warrior_type,
)


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
