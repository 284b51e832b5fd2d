"""The protocol every game system implements, and the neutral shapes it speaks in.

The TUI, the PDF code and the command line know nothing of Rag'Narok units or
Rattle and Rend groups: they ask a :class:`GameSystem` for an outline of the list,
the edit actions allowed at a place, a roster made of neutral blocks, sheets,
odds and games.  A fourth game system is then one new package plus its data
(the python-chess model: one core, variants as subclasses).
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from .catalog import Catalogue, CatalogueSource, CatalogModel, Strict
from .findings import Finding

# --------------------------------------------------------------------------- list base


class ArmyListBase(Strict):
    """Fields every list file has, whatever its system."""

    armybuilder: int = Field(1, description="list file format version")
    system: str
    catalogue: str = Field(description="catalogue version the list is pinned to")
    format: str = Field(description="id of a format preset of the catalogue")
    name: str = "Unnamed list"
    notes: str = ""


# --------------------------------------------------------------------------- neutral shapes


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
class OutlineNode:
    """One line of the list tree. ``path`` is the list path findings use."""

    path: str
    label: str
    detail: str = ""
    cost: float | None = None
    ref: EntryRef | None = None
    children: tuple[OutlineNode, ...] = ()


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str
    detail: str = ""


@dataclass(frozen=True)
class Param:
    name: str
    label: str
    kind: Literal["choice", "int", "text", "float", "bool"]
    choices: tuple[Choice, ...] = ()
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""


@dataclass(frozen=True)
class EditAction:
    """An edit allowed at a place of the list; the UI asks for ``params`` then applies."""

    id: str
    label: str
    params: tuple[Param, ...] = ()
    group: str = "edit"
    destructive: bool = False


@dataclass(frozen=True)
class BrowserEntry:
    ref: EntryRef
    name: str
    kind: str
    cost: str = ""
    facets: dict[str, str] = field(default_factory=dict)  # e.g. people, category, rank, role
    search: str = ""  # lower-case text matched by incremental search


# Document blocks: neutral content that the PDF and text renderers lay out.


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1


@dataclass(frozen=True)
class Paragraph:
    text: str
    style: Literal["body", "note", "warning", "error", "provisional"] = "body"


@dataclass(frozen=True)
class KeyValues:
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""
    note: str = ""
    provisional: bool = False
    widths: tuple[float, ...] | None = None  # relative widths, optional


Block = Heading | Paragraph | KeyValues | Table


@dataclass(frozen=True)
class Card:
    title: str
    kind: str  # "profile", "tactic", "communion", ...
    subtitle: str = ""
    stats: tuple[tuple[str, str], ...] = ()
    text: tuple[tuple[str, str], ...] = ()  # (heading, body)
    footer: str = ""
    provisional: bool = False


@dataclass(frozen=True)
class Roster:
    title: str
    header: tuple[tuple[str, str], ...]  # system, people, format, catalogue, fingerprint...
    legal: bool
    findings: tuple[Finding, ...]
    blocks: tuple[Block, ...]
    glossary: tuple[tuple[str, str], ...] = ()  # (term, text)
    fingerprint: str = ""


@dataclass(frozen=True)
class Sheets:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Detail:
    title: str
    subtitle: str = ""
    stats: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, str], ...] = ()  # (heading, text)
    cost: str = ""


@dataclass(frozen=True)
class OddsResult:
    """Exact odds of one action, in a JSON-able payload plus a human rendering."""

    payload: dict[str, Any]
    lines: tuple[str, ...]


@dataclass
class UnitRecord:
    side: int
    name: str
    points: float
    survived: bool = True
    eliminated_points: float = 0.0  # A.P. of enemies this unit eliminated or routed


@dataclass
class GameRecord:
    """Outcome of one simulated game: winner 0 (first list), 1, or None for a draw."""

    winner: int | None
    rounds: int
    scores: tuple[float, float]
    units: list[UnitRecord] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- the protocol


class GameSystem(abc.ABC):
    """A game system: its catalogue, list model, rules, editor actions and engine."""

    id: ClassVar[str]
    name: ClassVar[str]
    catalog_model: ClassVar[type[CatalogModel]]
    list_model: ClassVar[type[ArmyListBase]]
    #: label of the faction field in the UI ("People", "Faction", "Clan")
    faction_label: ClassVar[str] = "People"

    # -- catalogue ------------------------------------------------------------

    @functools.cached_property
    def source(self) -> CatalogueSource:
        return CatalogueSource(self.id, self.catalog_model)

    def catalogue(self, version: str | None = None) -> Catalogue:
        return self.source.resolve(version)

    def catalogue_for(self, army: ArmyListBase) -> Catalogue:
        """The catalogue a list is pinned to (its own version, never silently newer)."""
        return self.catalogue(army.catalogue)

    @abc.abstractmethod
    def formats(self, cat: Catalogue) -> list[Format]: ...

    def format_of(self, army: ArmyListBase, cat: Catalogue) -> Format | None:
        return next((f for f in self.formats(cat) if f.id == army.format), None)

    def default_format(self, cat: Catalogue) -> Format:
        formats = self.formats(cat)
        return next((f for f in formats if f.default), formats[0])

    @abc.abstractmethod
    def factions(self, cat: Catalogue) -> list[Choice]:
        """Peoples / factions / clans a new list can be built for."""

    # -- lists ------------------------------------------------------------------

    @abc.abstractmethod
    def new_list(
        self, cat: Catalogue, *, faction: str | None = None, format: str | None = None, name: str | None = None
    ) -> ArmyListBase: ...

    @abc.abstractmethod
    def points(self, army: ArmyListBase, cat: Catalogue) -> Points: ...

    @abc.abstractmethod
    def validate(self, army: ArmyListBase, cat: Catalogue) -> list[Finding]:
        """All findings; must never raise, whatever the (half-built) list holds."""

    def findings(self, army: ArmyListBase, cat: Catalogue | None = None) -> list[Finding]:
        """Validation plus the information that a newer catalogue version exists."""
        from .upgrade import newer_version_finding

        found = list(self.validate(army, cat or self.catalogue_for(army)))
        newer = newer_version_finding(self, army)
        if newer is not None:
            found.append(newer)
        return found

    @abc.abstractmethod
    def status(self, army: ArmyListBase, cat: Catalogue) -> list[StatusItem]: ...

    @abc.abstractmethod
    def referenced_entries(self, army: ArmyListBase) -> list[tuple[str, EntryRef]]:
        """(list path, catalogue entry) for every catalogue id the list uses.

        Used to mark entries missing from a version and to compute upgrade impact.
        """

    # -- editor -------------------------------------------------------------------

    @abc.abstractmethod
    def outline(self, army: ArmyListBase, cat: Catalogue) -> list[OutlineNode]: ...

    @abc.abstractmethod
    def actions(self, army: ArmyListBase, cat: Catalogue, path: str) -> list[EditAction]:
        """Edits allowed at ``path`` ("" is the list itself)."""

    @abc.abstractmethod
    def apply(
        self, army: ArmyListBase, cat: Catalogue, path: str, action: str, args: dict[str, Any]
    ) -> tuple[ArmyListBase, str]:
        """Return the edited list (a new object) and the path to select afterwards.

        Raises ``ValueError`` with a user-readable message when ``args`` are unusable.
        """

    @abc.abstractmethod
    def browse(self, cat: Catalogue) -> list[BrowserEntry]: ...

    @abc.abstractmethod
    def detail(self, cat: Catalogue, ref: EntryRef) -> Detail: ...

    # -- printing ---------------------------------------------------------------------

    @abc.abstractmethod
    def roster(self, army: ArmyListBase, cat: Catalogue, fingerprint: str) -> Roster: ...

    @abc.abstractmethod
    def sheets(self, cat: Catalogue) -> Sheets: ...

    @abc.abstractmethod
    def cards(self, army: ArmyListBase, cat: Catalogue) -> list[Card]: ...

    # -- engine ----------------------------------------------------------------------

    def odds_parameters(self) -> Sequence[Param]:
        return ()

    def odds(self, cat: Catalogue, params: dict[str, Any]) -> OddsResult:
        raise NotImplementedError(f"{self.name} has no odds calculator yet")

    def play_game(
        self,
        cat: Catalogue,
        first: ArmyListBase,
        second: ArmyListBase,
        rng: np.random.Generator,
        log: bool = False,
    ) -> GameRecord:
        raise NotImplementedError(f"{self.name} has no battle simulator yet")

    def engine_ready(self) -> bool:
        return type(self).play_game is not GameSystem.play_game


ProgressCallback = Callable[[int, int], None]
