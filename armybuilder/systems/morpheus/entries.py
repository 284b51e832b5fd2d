"""Ragnarok (Morpheus Engine) ability references and the catalogue entries' methods,
apart from the pydantic schema.

The models of catalog.py and their plain mirrors (plain.py, generated; see
:mod:`armybuilder.core.plain`) both use these, so the rules call the same code
whichever way a list was read.  No pydantic here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import GodPower, WarriorType, Weapon


def ability_id(ref: str) -> str:
    """'tactician/12' → 'tactician'; 'aid/dr/1' → 'aid'."""
    return ref.partition("/")[0]


def ability_args(ref: str) -> list[str]:
    """'aid/dr/1' → ['dr', '1']; 'savage' → []."""
    _, _, rest = ref.partition("/")
    return rest.split("/") if rest else []


def ability_value(refs: list[str], wanted: str) -> int | None:
    """The last numeric argument of ability ``wanted`` in ``refs`` (None if absent or not numeric)."""
    for ref in refs:
        if ability_id(ref) == wanted:
            args = ability_args(ref)
            for arg in reversed(args):
                if re.fullmatch(r"-?\d+", arg):
                    return int(arg)
            return 0
    return None


class WeaponMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        range: str

    @property
    def reach(self) -> int:
        """Range in inches: ML 0, MR 2, ranged weapons their number."""
        if self.range == "ML":
            return 0
        if self.range == "MR":
            return 2
        return int(self.range)


class MECatalogMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        warriors: list[WarriorType]
        weapons: list[Weapon]
        god_powers: list[GodPower]

    def references(self) -> Iterator[tuple[str, str, str]]:
        for w in self.warriors:
            for ref in w.abilities:
                yield f"warriors[{w.id}].abilities", "abilities", ability_id(ref)
        for weapon in self.weapons:
            for ref in weapon.abilities:
                yield f"weapons[{weapon.id}].abilities", "abilities", ability_id(ref)
        for p in self.god_powers:
            for ref in p.grants:
                yield f"god_powers[{p.id}].grants", "abilities", ability_id(ref)
            if p.attack is not None:
                for ref in p.attack.abilities:
                    yield f"god_powers[{p.id}].attack.abilities", "abilities", ability_id(ref)

    def assigned_fields(self) -> Iterator[tuple[str, str]]:
        for w in self.warriors:
            for f in w.assigned:
                yield w.id, f
