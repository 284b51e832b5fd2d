"""Rattle and Rend range bands and the catalogue's methods, apart from its pydantic schema.

The models of catalog.py and their plain mirrors (plain.py, generated; see
:mod:`armybuilder.core.plain`) both use these, so the rules call the same code
whichever way a list was read.  No pydantic here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .catalog import GroupType, WarbandTrait

Band = Literal["B", "S", "M", "L"]  # base-to-base, short, medium, long (RR: Ranges)

#: Order of the range bands, nearest first; used to add "one range band".
BANDS: tuple[Band, ...] = ("B", "S", "M", "L")


def band_plus(band: Band | None, steps: int = 1) -> Band | None:
    """``band`` widened by ``steps`` range bands, never beyond L (RR: Movement)."""
    if band is None:
        return None
    return BANDS[min(len(BANDS) - 1, BANDS.index(band) + steps)]


class RRCatalogMethods:
    __slots__ = ()
    if TYPE_CHECKING:  # the fields the methods read (annotations here would be pydantic fields)
        group_types: list[GroupType]
        warband_traits: list[WarbandTrait]

    def references(self) -> Iterator[tuple[str, str, str]]:
        for g in self.group_types:
            yield f"group_types[{g.id}].reaction", "reactions", g.reaction
            for target in g.attach_targets:
                yield f"group_types[{g.id}].attach_targets", "group_types", target
        for t in self.warband_traits:
            for m in t.stat_modifiers:
                for gt in m.group_types:
                    yield f"warband_traits[{t.id}].stat_modifiers", "group_types", gt

    def canonical(self, collection: str, name: str) -> str | None:
        """The id of the entry called ``name`` (id, name or alias, any case), else None.

        Lets RR-D3's aliases ("Stand and Shoot", "Tactitians") find their entry.
        """
        wanted = name.strip().lower()
        for entry in getattr(self, collection, []):
            names = [entry.id, getattr(entry, "name", ""), *getattr(entry, "aliases", [])]
            if any(wanted == n.lower() for n in names):
                return entry.id
        return None
