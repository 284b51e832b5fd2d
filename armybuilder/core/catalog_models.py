"""The pydantic side of catalogues: the base of every schema, and the manifest and errata.

Kept apart from :mod:`armybuilder.core.catalog` so that reading a cached catalogue (and
validating a list with the plain mirrors of :mod:`armybuilder.core.plain`) never imports
pydantic; ``armybuilder.core.catalog`` still offers these names (imported on first use).
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from .catalog_base import CatalogMethods

#: MAJOR.MINOR.PATCH, checked where the version is written (so the error names the file)
VERSION_PATTERN = r"^\d+\.\d+\.\d+$"


class Strict(BaseModel):
    """Base of every schema: unknown fields are errors, not silently ignored.

    Validators are built on first use (``defer_build``): a command that reads a cached
    catalogue never validates one, and should not pay for building its validator.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        """``count: true`` is not a count: pydantic would read true as 1 and false as 0,
        so a slip (or a hostile file) would pass as a number.  A field that wants a whole
        number or a fraction, and not a true/false, refuses them at their position."""
        if isinstance(value, bool) and info.field_name is not None and _wants_number(cls, info.field_name):
            raise ValueError("a number is needed here, not true or false")
        return value


def _wants_number(model: type[BaseModel], name: str) -> bool:
    """Whether the field ``name`` of ``model`` holds an int or float and never a bool."""
    field = model.model_fields.get(name)
    if field is None:
        return False
    annotation = field.annotation
    options = typing.get_args(annotation) if typing.get_origin(annotation) in (typing.Union, types.UnionType) else (annotation,)
    return bool(options) and bool not in options and any(o in (int, float) for o in options)


class Decision(Strict):
    """A rules decision (rules-decisions.md) the data relies on, shown with what it decides."""

    id: str
    title: str
    summary: str
    provisional: bool = False


class CatalogModel(CatalogMethods, Strict):
    """Base of a system's catalogue schema; collections are lists of entries with ids."""

    # Its methods come from CatalogMethods (no pydantic), which the plain mirrors of a
    # catalogue inherit too. (The docstring is part of the schema's fingerprint: a
    # catalogue model without its own inherits it.)


class Manifest(Strict):
    id: str
    system: str
    name: str
    version: str = Field(pattern=VERSION_PATTERN)
    date: str
    summary: str
    notes: list[str] = Field(default_factory=list)


class Operation(Strict):
    op: Literal["set", "add", "remove", "rename", "add-item", "remove-item"]
    path: str
    value: Any = None
    name: str | None = None
    note: str | None = None


class Erratum(Strict):
    version: str = Field(pattern=VERSION_PATTERN)
    date: str
    summary: str
    source: str
    provisional: bool = False
    operations: list[Operation]
