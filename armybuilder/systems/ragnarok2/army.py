"""The Rag'Narok 2 list model and its point counting.

A list file looks like this (comments are kept when the program edits it)::

    system: ragnarok2
    catalogue: 1.1.0
    format: 1000-ap
    name: Lions of the dawn
    people: alahan
    units:
      - name: Spearmen          # optional label
        troops: {profile: alahan-spearman, count: 10, leader: true}
        members:
          - profile: alahan-knight-commander
            commander_in_chief: true
          - {profile: alahan-musician}
    tactics: [brutality, rallying]
    communions: [divine-grace]
    rituals: []

A member's place in the unit (commander, musician, standard bearer, Character or
other independent) follows from its profile, so a player never has to say it twice.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import Strict
from armybuilder.core.system import ArmyListBase

# point counting lives in counting.py (no pydantic: validation reads plain mirrors);
# these names stay importable from here
from .counting import (  # noqa: F401
    PointsBreakdown,
    Slot,
    breakdown,
    effective,
    is_commander,
    is_war_machine,
    member_cost,
    option_cost,
    profile,
    ritual_cost,
    slot_of,
    troop_fighter_cost,
    unit_cost,
)


class Troops(Strict):
    profile: str
    count: int = Field(1, ge=0, le=999)
    leader: bool = False  # one trooper is promoted to leader
    options: list[str] = Field(default_factory=list)


class Member(Strict):
    profile: str
    label: str = ""  # optional personal name
    leader: bool = False
    commander_in_chief: bool = False
    army_standard: bool = False
    familiars: int = Field(0, ge=0, le=20)
    miracles: list[str] = Field(default_factory=list)
    options: list[str] = Field(default_factory=list)


class Unit(Strict):
    name: str = ""
    troops: Troops | None = None
    members: list[Member] = Field(default_factory=list)
    notes: str = ""


class R2List(ArmyListBase):
    system: Literal["ragnarok2"] = "ragnarok2"
    people: str
    units: list[Unit] = Field(default_factory=list)
    tactics: list[str] = Field(default_factory=list)
    communions: list[str] = Field(default_factory=list)
    rituals: list[str] = Field(default_factory=list)
