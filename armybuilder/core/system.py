"""The protocol every game system implements, and the neutral shapes it speaks in.

The TUI, the PDF code and the command line know nothing of Rag'Narok units or
Rattle and Rend groups: they ask a :class:`GameSystem` for an outline of the list,
the edit actions allowed at a place, a roster made of neutral blocks, sheets,
odds and games.  A fourth game system is then one new package plus its data
(the python-chess model: one core, variants as subclasses).
"""

from __future__ import annotations

import abc
import datetime
import functools
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from .catalog import CatalogModel, Catalogue, CatalogueSource, Strict
from .findings import Finding
from .organiser import OneLine, Round

if TYPE_CHECKING:  # numpy costs a noticeable part of the editor's start-up; only the engines need it
    import numpy as np

# --------------------------------------------------------------------------- list base


class ArmyListBase(Strict):
    """Fields every list file has, whatever its system."""

    armybuilder: int = Field(1, description="list file format version")
    system: str
    catalogue: str = Field(description="catalogue version the list is pinned to")
    format: str = Field(description="id of a format preset of the catalogue")
    name: str = "Unnamed list"
    notes: str = ""
    # tournament fields (core/organiser.py): optional, printed on rosters, not fingerprinted
    player: OneLine = ""
    team: OneLine = ""
    event: OneLine = ""
    date: datetime.date | None = None
    round: Round | None = None


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

    def odds_units(self, army: ArmyListBase, cat: Catalogue) -> list[Choice]:
        """Units of a list the odds panel can pit against each other (value: index, label).

        Only asked when :meth:`has_unit_odds` is true; the default offers none.
        """
        return []

    def unit_odds_params(
        self, cat: Catalogue, army: ArmyListBase, unit: int, other: ArmyListBase, other_unit: int
    ) -> dict[str, Any]:
        """Parameters of :meth:`odds` for ``unit`` of ``army`` attacking ``other_unit`` of ``other``.

        Only asked when :meth:`has_unit_odds` is true; raises ``NotImplementedError``
        otherwise (the odds panel then keeps to its plain form).
        """
        raise NotImplementedError(f"{self.name} cannot derive odds from two units")

    def has_unit_odds(self) -> bool:
        """Whether the odds panel may offer the unit-against-unit view.

        True when a subclass implements :meth:`odds_units` and :meth:`unit_odds_params`,
        so a new system gets the view by writing the two methods, nothing else.
        """
        cls = type(self)
        return cls.odds_units is not GameSystem.odds_units and cls.unit_odds_params is not GameSystem.unit_odds_params

    def engine_ready(self) -> bool:
        return type(self).play_game is not GameSystem.play_game


class PackagedSystem(GameSystem):
    """A game system laid out as the bundled ones are: one package, one module a concern.

    The three bundled systems were written from the same model, so their protocol
    methods were the same one-line delegations three times.  A subclass names its
    modules here and states only what differs (catalogue questions, points, status,
    referenced entries and the odds function):

    - ``editing_module``: ``outline``, ``actions``, ``apply``, ``browse``, ``detail``;
    - ``sheets_module``: ``roster``, ``sheets``, ``cards``;
    - ``rules_module``: ``run_rules(army, cat)``;
    - ``odds_module`` (dotted name, imported on first use, may not exist yet):
      ``PARAMETERS``, ``unit_choices(army, cat)`` and
      ``unit_odds_params(army, unit, other, other_unit, cat)``;
    - ``game_module`` (dotted name, imported on first use, may not exist yet):
      ``play_game(cat, first, second, rng, log)``.

    :meth:`shown` is the list as the outline, cards and odds see it (a system whose
    stored lists need normalising overrides it); edits and the roster get the list
    as stored.
    """

    editing_module: ClassVar[ModuleType]
    sheets_module: ClassVar[ModuleType]
    rules_module: ClassVar[ModuleType]
    odds_module: ClassVar[str | None] = None
    game_module: ClassVar[str | None] = None
    #: fields of a catalogue format passed on as :attr:`Format.params`, in this order
    format_params: ClassVar[tuple[str, ...]] = ()
    #: the name of a new list when the player gives none
    new_list_name: ClassVar[str] = "New list"

    def shown(self, army: ArmyListBase, cat: Catalogue) -> ArmyListBase:
        """The list as displayed and measured; the stored list by default."""
        return army

    def formats(self, cat: Catalogue) -> list[Format]:
        return [
            Format(f.id, f.name, f.limit, f.unit, f.default, {name: getattr(f, name) for name in self.format_params})
            for f in cat.data.formats  # type: ignore[attr-defined]
        ]

    def new_list(
        self, cat: Catalogue, *, faction: str | None = None, format: str | None = None, name: str | None = None
    ) -> ArmyListBase:
        """An empty list pinned to ``cat``, on ``format`` or the catalogue's default one."""
        return self.list_model(
            catalogue=cat.version,
            format=format or self.default_format(cat).id,
            name=name or self.new_list_name,
            **self.faction_fields(cat, faction),
        )

    def faction_fields(self, cat: Catalogue, faction: str | None) -> dict[str, Any]:
        """List fields a new list gets from the chosen faction: none for a game with one
        faction or none (the choice is then ignored)."""
        return {}

    def format_limit(self, army: ArmyListBase, cat: Catalogue) -> int:
        """The points limit of the list's format; 0 when the format is unknown."""
        fmt = cat.get("formats", army.format)
        return fmt.limit if fmt else 0

    def validate(self, army: ArmyListBase, cat: Catalogue) -> list[Finding]:
        return self.rules_module.run_rules(army, cat)

    # -- editor ---------------------------------------------------------------

    def outline(self, army: ArmyListBase, cat: Catalogue) -> list[OutlineNode]:
        return self.editing_module.outline(self.shown(army, cat), cat)

    def actions(self, army: ArmyListBase, cat: Catalogue, path: str) -> list[EditAction]:
        return self.editing_module.actions(army, cat, path)

    def apply(
        self, army: ArmyListBase, cat: Catalogue, path: str, action: str, args: dict[str, Any]
    ) -> tuple[ArmyListBase, str]:
        return self.editing_module.apply(army, cat, path, action, args)

    def browse(self, cat: Catalogue) -> list[BrowserEntry]:
        return self.editing_module.browse(cat)

    def detail(self, cat: Catalogue, ref: EntryRef) -> Detail:
        return self.editing_module.detail(cat, ref)

    # -- printing -------------------------------------------------------------

    def roster(self, army: ArmyListBase, cat: Catalogue, fingerprint: str) -> Roster:
        return self.sheets_module.roster(army, cat, fingerprint)

    def sheets(self, cat: Catalogue) -> Sheets:
        return self.sheets_module.sheets(cat)

    def cards(self, army: ArmyListBase, cat: Catalogue) -> list[Card]:
        return self.sheets_module.cards(self.shown(army, cat), cat)

    # -- engine ---------------------------------------------------------------

    def _engine(self, name: str | None) -> ModuleType | None:
        """The engine module ``name``, or None when the system has none (yet)."""
        if name is None or importlib.util.find_spec(name) is None:
            return None
        return importlib.import_module(name)

    def odds_parameters(self) -> Sequence[Param]:
        odds = self._engine(self.odds_module)
        return odds.PARAMETERS if odds is not None else ()

    def odds_units(self, army: ArmyListBase, cat: Catalogue) -> list[Choice]:
        odds = importlib.import_module(str(self.odds_module))
        return [Choice(i, label) for i, label in odds.unit_choices(self.shown(army, cat), cat)]

    def unit_odds_params(
        self, cat: Catalogue, army: ArmyListBase, unit: int, other: ArmyListBase, other_unit: int
    ) -> dict[str, Any]:
        odds = importlib.import_module(str(self.odds_module))
        return odds.unit_odds_params(self.shown(army, cat), unit, self.shown(other, cat), other_unit, cat)

    def has_unit_odds(self) -> bool:
        return self.odds_module is not None

    def engine_ready(self) -> bool:
        return self.game_module is not None and importlib.util.find_spec(self.game_module) is not None

    def play_game(self, cat: Catalogue, first: ArmyListBase, second: ArmyListBase, rng: np.random.Generator, log: bool = False) -> GameRecord:
        if self.game_module is None:
            return super().play_game(cat, first, second, rng, log)
        return importlib.import_module(self.game_module).play_game(cat, first, second, rng, log)


ProgressCallback = Callable[[int, int], None]
