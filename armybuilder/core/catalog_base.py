"""What the catalogue layer's models and checks share, below all of them: the methods every
catalogue answers beside its data, and catalogue version numbers.

:mod:`armybuilder.core.catalog` (sources, resolution), :mod:`.catalog_models` (the pydantic
schemas) and :mod:`.catalog_checks` build on this module, which imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .errors import InputError


class CatalogMethods:
    """What every catalogue answers beside its data: the catalogue models inherit it
    (through ``CatalogModel``), and so do their plain mirrors (:mod:`.plain`)."""

    __slots__ = ()

    def references(self) -> Iterator[tuple[str, str, str]]:
        """Yield (where, collection, id) for every id this data refers to."""
        return iter(())

    def assigned_fields(self) -> Iterator[tuple[str, str]]:
        """Yield (entry id, field) for figures the project assigned (CAT-D1)."""
        return iter(())

    def data_notes(self) -> Iterator[tuple[str, str]]:
        """Yield (entry id, note) for what the reference data lacked or misprinted and what
        the project did about it: ``catalog check`` lists them; prints never show them."""
        return iter(())


def parse_version(text: str) -> tuple[int, int, int]:
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", text.strip())
    if not match:
        raise InputError.at(f"'{text}' is not a version of the form MAJOR.MINOR.PATCH")
    return int(match[1]), int(match[2]), int(match[3])
