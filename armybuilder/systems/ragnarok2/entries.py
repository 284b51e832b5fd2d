"""The methods of the Rag'Narok 2 catalogue entries, apart from their pydantic schema.

The models of catalog.py and their plain mirrors (plain.py, generated; see
:mod:`armybuilder.core.plain`) both inherit these mixins, so the rules call the same
code whichever way a list was read.  No pydantic here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import Ability, Profile


class ProfileMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        roles: Sequence[str]
        abilities: list[str]

    def has_role(self, role: str) -> bool:
        return role in self.roles

    def ability_value(self, ability_id: str) -> int | None:
        """X of "ability/X", 0 for a bare ability, None when absent."""
        for text in self.abilities:
            name, _, value = text.partition("/")
            if name == ability_id:
                match = re.match(r"-?\d+", value)
                return int(match.group()) if match else 0
        return None

    def has_ability(self, ability_id: str) -> bool:
        return self.ability_value(ability_id) is not None


class AspectsMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        alteration: int
        creation: int
        destruction: int

    @property
    def total(self) -> int:
        return self.alteration + self.creation + self.destruction


class MiracleMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        fervor: int | None

    @property
    def budget_cost(self) -> int:
        return self.fervor if self.fervor is not None else 2


class R2CatalogMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        abilities: list[Ability]
        profiles: list[Profile]

    def references(self) -> Iterator[tuple[str, str, str]]:
        ability_ids = {a.id for a in self.abilities}
        for p in self.profiles:
            yield f"profiles[{p.id}].people", "peoples", p.people
            yield f"profiles[{p.id}].rank", "ranks", p.rank
            if ability_ids:
                for text in p.abilities:
                    yield f"profiles[{p.id}].abilities", "abilities", text.partition("/")[0]
            for option in p.options:
                for text in option.grants:
                    yield f"profiles[{p.id}].options[{option.id}]", "abilities", text.partition("/")[0]

    def assigned_fields(self) -> Iterator[tuple[str, str]]:
        for p in self.profiles:
            for name in p.assigned:
                yield p.id, name

    def data_notes(self) -> Iterator[tuple[str, str]]:
        for p in self.profiles:
            if p.data_note:
                yield p.id, p.data_note
