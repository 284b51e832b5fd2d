"""The small records a game system answers with (formats, points, status, entry references,
choices), below :mod:`armybuilder.core.system` and :mod:`.shapes`, which both use them.

Importable from :mod:`armybuilder.core.system` too; kept here so that the modules the system
protocol builds on (shapes, house catalogues, upgrades) need not import the protocol itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Format:
    id: str
    name: str
    limit: int
    unit: str  # "A.P.", "points", "Glory"
    default: bool = False
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Points:
    total: float
    limit: int
    unit: str
    breakdown: tuple[tuple[str, float], ...] = ()  # (label, points) for the status bar


@dataclass(frozen=True)
class StatusItem:
    label: str
    value: str
    ok: bool | None = None  # None: informative only


@dataclass(frozen=True)
class EntryRef:
    collection: str
    id: str


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str
    detail: str = ""
    #: why this choice is not allowed here ("" when it is): pickers hide it, or grey it
    #: out with this reason when the player asks to see everything
    refused: str = ""
