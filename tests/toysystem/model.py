"""Pit Fighters' catalogue schema and list model (pydantic, strict like every system's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import CatalogModel, Catalogue, Strict
from armybuilder.core.system import ArmyListBase


class Crew(Strict):
    id: str
    name: str


class FighterType(Strict):
    id: str
    name: str
    crew: str
    cost: int
    attack: int
    guard: int
    leader: bool = False
    text: str = ""


class PitFormat(Strict):
    id: str
    name: str
    limit: int
    unit: str = "coins"
    default: bool = False
    leader_share: int = Field(40, description="at most this % of the limit on leaders")


class PitCatalog(CatalogModel):
    crews: list[Crew] = Field(default_factory=list)
    fighters: list[FighterType] = Field(default_factory=list)
    formats: list[PitFormat] = Field(default_factory=list)

    def references(self) -> Iterator[tuple[str, str, str]]:
        for f in self.fighters:
            yield f"fighters[{f.id}].crew", "crews", f.crew


PitCat = Catalogue[PitCatalog]


class Fighter(Strict):
    type: str
    label: str = ""
    notes: str = ""


class PitList(ArmyListBase):
    system: Literal["toy-pit"] = "toy-pit"
    crew: str
    fighters: list[Fighter] = Field(default_factory=list)


def fighter_type(cat: PitCat, fighter: Fighter) -> FighterType | None:
    found: FighterType | None = cat.get("fighters", fighter.type)
    return found


def cost(cat: PitCat, fighter: Fighter) -> int:
    """A fighter's cost; an unknown type costs nothing (the rules report it)."""
    t = fighter_type(cat, fighter)
    return t.cost if t else 0


def name(cat: PitCat, fighter: Fighter) -> str:
    t = fighter_type(cat, fighter)
    base = t.name if t else f"{fighter.type} (missing from catalogue)"
    return f"{fighter.label} ({base})" if fighter.label else base


def totals(army: PitList, cat: PitCat) -> tuple[int, int]:
    """(all coins, coins on leaders)."""
    total = leaders = 0
    for f in army.fighters:
        t = fighter_type(cat, f)
        if t is not None:
            total += t.cost
            leaders += t.cost if t.leader else 0
    return total, leaders
