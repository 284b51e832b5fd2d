"""The protocol every game system implements, and the neutral shapes it speaks in.

The TUI, the PDF code and the command line know nothing of Rag'Narok units or
Rattle and Rend groups: they ask a :class:`GameSystem` for an outline of the list,
the edit actions allowed at a place, a roster made of neutral blocks, sheets,
odds and games.  A fourth game system is then one new package plus its data
(the python-chess model: one core, variants as subclasses).
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from .catalog import Catalogue, CatalogueSource
from .checks import list_format
from .findings import Finding
from .paths import ListPath, PathError
from .records import Choice as Choice
from .records import EntryRef as EntryRef
from .records import Format as Format
from .records import Points as Points
from .records import StatusItem as StatusItem

if TYPE_CHECKING:  # numpy costs a noticeable part of the editor's start-up; only the engines need it
    import numpy as np

    from .catalog import CatalogModel
    from .list_model import ArmyListBase as ArmyListBase
    from .shapes import (  # re-exported: importable from here, as before
        Block as Block,
    )
    from .shapes import (
        BrowserEntry as BrowserEntry,
    )
    from .shapes import (
        Card as Card,
    )
    from .shapes import (
        Detail as Detail,
    )
    from .shapes import (
        EditAction as EditAction,
    )
    from .shapes import (
        EditKind as EditKind,
    )
    from .shapes import (
        GameRecord as GameRecord,
    )
    from .shapes import (
        Heading as Heading,
    )
    from .shapes import (
        KeyValues as KeyValues,
    )
    from .shapes import (
        ListSummary as ListSummary,
    )
    from .shapes import (
        OddsResult as OddsResult,
    )
    from .shapes import (
        OutlineNode as OutlineNode,
    )
    from .shapes import (
        Paragraph as Paragraph,
    )
    from .shapes import (
        Param as Param,
    )
    from .shapes import (
        Roster as Roster,
    )
    from .shapes import (
        Sheets as Sheets,
    )
    from .shapes import (
        Table as Table,
    )
    from .shapes import (
        UnitRecord as UnitRecord,
    )
    from .shapes import (
        edit_kind_of as edit_kind_of,
    )

# --------------------------------------------------------------------------- neutral shapes


# The other neutral shapes (outline, edits, documents, cards, games) live in
# :mod:`armybuilder.core.shapes`: creating ~20 frozen dataclasses cost ~10 ms of every
# process, and ``validate`` uses none of them.  They are still importable from here.
_SHAPES = frozenset({"Block", "BrowserEntry", "Card", "Detail", "EditAction", "EditKind", "GameRecord", "Heading", "KeyValues", "ListSummary", "OddsResult", "OutlineNode", "Paragraph", "Param", "Roster", "Sheets", "Table", "UnitRecord", "edit_kind_of"})


def __getattr__(name: str) -> Any:
    """The shapes of :mod:`.shapes`, and the pydantic base of list models, imported on
    first use (PEP 562): validating a list through its plain mirror needs neither."""
    if name in _SHAPES:
        from . import shapes

        return getattr(shapes, name)
    if name == "ArmyListBase":
        from .list_model import ArmyListBase

        return ArmyListBase
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------- the protocol


L = TypeVar("L", bound="ArmyListBase")
"""The list model of a system."""
CM = TypeVar("CM", bound="CatalogModel")
"""The catalogue model of a system."""


class GameSystem(abc.ABC, Generic[L, CM]):
    """A game system: its catalogue, list model, rules, editor actions and engine.

    Generic over its list model ``L`` and catalogue model ``CM``, so a system's
    methods receive ``army: R2List`` and ``cat: Catalogue[R2Catalog]`` and read
    ``cat.data.profiles`` typed.  The TUI, the PDF code and the command line hold
    systems as ``GameSystem[Any, Any]`` and pass back what the system gave them.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    catalog_model: ClassVar[type[CatalogModel]]
    list_model: ClassVar[type[ArmyListBase]]
    #: label of the faction field in the UI ("People", "Faction", "Clan")
    faction_label: ClassVar[str] = "People"
    #: the list field holding the chosen faction's id (Rag'Narok 2: "people"); None in a
    #: game whose lists have no faction
    faction_field: ClassVar[str | None] = None
    #: the facet of :class:`BrowserEntry` that names an entry's faction (by its label),
    #: so the browser can start on the list's own; None: entries do not say theirs
    faction_facet: ClassVar[str | None] = None
    #: the folder of the catalogue (catalogue.yaml, data, errata, samples); None: the
    #: bundled ``catalog/<id>/``.  A system outside the package names its own.
    catalogue_folder: ClassVar[Traversable | None] = None
    #: dotted module converting BattleScribe data (``convert(paths) -> {rel: text}``), if any
    importer_module: ClassVar[str | None] = None
    #: the normalised playtest rate ``armybuilder bench`` holds its engine to, if any: games per
    #: second per core × the seconds of the bench's reference workload (a plain loop adding the
    #: integers below 10 M, timed in the same run), over every ordered pairing of its samples
    playtest_budget: ClassVar[int | None] = None
    #: the module of the plain mirrors of the list and catalogue models (generated by
    #: :mod:`armybuilder.core.plain_gen`; classes named as the models), with which
    #: ``validate`` reads a list without pydantic; None: lists are read with pydantic only.
    #: ``catalog_model`` and ``list_model`` are then best declared with
    #: :func:`armybuilder.core.lazy.lazy_class`, so that reading them imports nothing.
    plain_module: ClassVar[str | None] = None
    #: sha256 of the catalogue model's JSON schema (``catalog_cache.computed_schema_fingerprint``),
    #: written here when the model changes (a test says the value): a catalogue's cache key
    #: includes it, and without it every start generates the schema, importing pydantic.
    #: None: computed at run time.
    schema_fingerprint: ClassVar[str | None] = None
    #: dotted name of the package holding the battle engine, whose ``__init__`` calls
    #: :func:`armybuilder._native.choose` (setup.py may compile its modules); None: no engine
    #: whose build matters (``bench`` and ``python -m armybuilder._native`` report each build)
    engine_package: ClassVar[str | None] = None
    #: the modules of :attr:`engine_package` that setup.py compiles with mypyc, as one group
    #: (they call each other directly, so they run compiled or from source together); a module
    #: left out stays Python (code that runs once per question, not once per game); empty:
    #: nothing compiled.  ``./scripts/compile`` builds them; ``armybuilder._native`` runs the
    #: build only while it matches these sources.
    compiled_engine_modules: ClassVar[tuple[str, ...]] = ()
    #: dotted module of the exact odds calculator, a module of the system's package that
    #: imports only the standard library, ``armybuilder.odds`` and ``armybuilder.core`` (checked
    #: by an import-linter contract): ``PARAMETERS`` (:class:`~armybuilder.core.odds_params.Spec`)
    #: and ``compute(tables, values) -> (payload, lines)``, ``tables`` being what
    #: :meth:`odds_tables` reads from a catalogue.  ``armybuilder odds`` runs it on remembered
    #: tables without loading the system (:mod:`armybuilder.odds.tables`).  None: no calculator.
    odds_calculator: ClassVar[str | None] = None
    #: dotted module of what ``armybuilder bench`` measures of this system beyond the protocol
    #: (an exact fray, credibility figures, a planted weakness for suggest...): the bench asks
    #: the registered systems in turn for each workload by name (``armybuilder.bench_figures.workload``);
    #: None: the protocol's lines alone (engine rates, start-up)
    bench_module: ClassVar[str | None] = None
    #: dotted module writing the skeleton of a house catalogue (``armybuilder catalog new``):
    #: ``files(cat, people, folder) -> {file name: text}`` and ``people_choices(cat) -> {id: name}``
    #: (every faction a house catalogue may write for); None: no skeleton for this system
    house_skeleton_module: ClassVar[str | None] = None

    # -- catalogue ------------------------------------------------------------

    @functools.cached_property
    def source(self) -> CatalogueSource[CM]:
        from .lazy import dotted_name

        model = dotted_name(type(self), "catalog_model")
        plain = f"{self.plain_module}.{model.rpartition('.')[2]}" if self.plain_module else None
        return CatalogueSource(self.id, model, self.catalogue_folder, plain, self.schema_fingerprint)

    def catalogue(self, version: str | None = None, *, plain: bool = False) -> Catalogue[CM]:
        """The catalogue at ``version``; ``plain``: as the plain mirror (for a plain list)."""
        source = self.source
        return source.resolve(version, plain=plain and source.plain_name is not None)

    def catalogue_for(self, army: L) -> Catalogue[CM]:
        """The catalogue a list is pinned to (its own version, never silently newer), as
        the list was read: plain mirrors for a plain list, pydantic models otherwise."""
        from .plain import is_plain

        if getattr(army, "house", None):  # house catalogues merged in (core/house.py)
            from .house import pinned_catalogue

            return pinned_catalogue(self, army, plain=is_plain(army) and self.source.plain_name is not None)
        return self.catalogue(army.catalogue, plain=is_plain(army))

    def plain_list_class(self) -> Any:
        """The plain mirror of :attr:`list_model`, or None when the system has none."""
        if self.plain_module is None:
            return None
        from .lazy import dotted_name

        model = dotted_name(type(self), "list_model").rpartition(".")[2]
        return getattr(importlib.import_module(self.plain_module), model)

    def read_plain(self, doc: Any) -> L | None:
        """The list ``doc`` as its plain mirror when pydantic would accept it unchanged;
        None otherwise (or without a mirror): then pydantic validates it and words any
        refusal (:mod:`armybuilder.core.plain`)."""
        plain = self.plain_list_class()
        if plain is None:
            return None
        from .plain import Unsure

        try:
            army: L = plain.checked(doc)
        except Unsure:
            return None
        return army

    def list_field_names(self) -> list[str]:
        """The fields of the list model (from the plain mirror when there is one)."""
        plain = self.plain_list_class()
        return list((plain if plain is not None else self.list_model).model_fields)

    @abc.abstractmethod
    def formats(self, cat: Catalogue[CM]) -> list[Format]: ...

    def format_of(self, army: L, cat: Catalogue[CM]) -> Format | None:
        """The list's format; a list with its own limit gets that limit, named by it."""
        found = next((f for f in self.formats(cat) if f.id == army.format), None)
        limit = getattr(army, "limit", None)
        if found is not None and limit is not None and limit != found.limit:
            found = dataclasses.replace(found, name=f"{limit} {found.unit}", limit=limit)
        return found

    def limit_note(self, army: L, cat: Catalogue[CM]) -> str:
        """"limit set by the list: 1250 A.P. (format 1000 A.P.)" when the list's own limit is
        not its format's, else "": the words every print and ``validate`` add to the status."""
        limit = getattr(army, "limit", None)
        found = next((f for f in self.formats(cat) if f.id == army.format), None)
        if found is None or limit is None or limit == found.limit:
            return ""
        from .checks import own_limit_note

        return own_limit_note(limit, found.limit, found.unit)

    def default_format(self, cat: Catalogue[CM]) -> Format:
        formats = self.formats(cat)
        return next((f for f in formats if f.default), formats[0])

    @abc.abstractmethod
    def factions(self, cat: Catalogue[CM]) -> list[Choice]:
        """Peoples / factions / clans a new list can be built for."""

    def faction_of(self, army: L) -> str | None:
        """The id of the list's faction (the value of :attr:`faction_field`), or None."""
        if self.faction_field is None:
            return None
        value = getattr(army, self.faction_field, None)
        return value if isinstance(value, str) and value else None

    def faction_name(self, army: L, cat: Catalogue[CM]) -> str:
        """The list's faction as a player reads it (its label among :meth:`factions`)."""
        faction = self.faction_of(army)
        if faction is None:
            return ""
        return next((c.label for c in self.factions(cat) if c.value == faction), faction)

    def summary(self, army: L, cat: Catalogue[CM]) -> ListSummary:
        """System, faction and format names of a list, for titles (PDF, editor)."""
        fmt = self.format_of(army, cat)
        from .shapes import ListSummary

        return ListSummary(self.name, self.faction_name(army, cat), fmt.name if fmt else army.format)

    def notes_at(self, army: L, path: str | ListPath) -> str:
        """The notes of the list item at ``path`` (a unit, a group, a warrior), or ""."""
        try:
            target = ListPath.parse(path).resolve(army) if path else None
        except PathError:
            return ""
        notes = getattr(target, "notes", "") if target is not None else ""
        return notes if isinstance(notes, str) else ""

    # -- lists ------------------------------------------------------------------

    @abc.abstractmethod
    def new_list(
        self, cat: Catalogue[CM], *, faction: str | None = None, format: str | None = None, name: str | None = None,
        limit: int | None = None,
    ) -> L: ...

    @abc.abstractmethod
    def points(self, army: L, cat: Catalogue[CM]) -> Points: ...

    @abc.abstractmethod
    def validate(self, army: L, cat: Catalogue[CM]) -> list[Finding]:
        """All findings; must never raise, whatever the (half-built) list holds."""

    def findings(self, army: L, cat: Catalogue[CM] | None = None) -> list[Finding]:
        """Validation plus the information that a newer catalogue version exists, and what
        the list's house catalogues are (or why they cannot be used)."""
        from .upgrade import newer_version_finding

        cat = cat or self.catalogue_for(army)
        found = list(self.validate(army, cat))
        newer = newer_version_finding(self, army)
        if newer is not None:
            found.append(newer)
        if getattr(army, "house", None):
            from .house_use import house_findings

            found += house_findings(self, army, cat)
        return found

    @abc.abstractmethod
    def status(self, army: L, cat: Catalogue[CM]) -> list[StatusItem]: ...

    @abc.abstractmethod
    def referenced_entries(self, army: L) -> list[tuple[str, EntryRef]]:
        """(list path, catalogue entry) for every catalogue id the list uses.

        Used to mark entries missing from a version and to compute upgrade impact.
        """

    # -- editor -------------------------------------------------------------------

    @abc.abstractmethod
    def outline(self, army: L, cat: Catalogue[CM]) -> list[OutlineNode]: ...

    @abc.abstractmethod
    def actions(self, army: L, cat: Catalogue[CM], path: str) -> list[EditAction]:
        """Edits allowed at ``path`` ("" is the list itself)."""

    @abc.abstractmethod
    def apply(
        self, army: L, cat: Catalogue[CM], path: str, action: str, args: dict[str, Any]
    ) -> tuple[L, str]:
        """Return the edited list (a new object) and the path to select afterwards.

        Raises ``ValueError`` with a user-readable message when ``args`` are unusable.
        """

    @abc.abstractmethod
    def browse(self, cat: Catalogue[CM]) -> list[BrowserEntry]: ...

    @abc.abstractmethod
    def detail(self, cat: Catalogue[CM], ref: EntryRef) -> Detail: ...

    # -- printing ---------------------------------------------------------------------

    @abc.abstractmethod
    def roster(self, army: L, cat: Catalogue[CM], fingerprint: str) -> Roster:
        """The printed roster; its ``summary`` should be :meth:`summary` (the PDF title line)."""

    @abc.abstractmethod
    def sheets(self, cat: Catalogue[CM]) -> Sheets: ...

    @abc.abstractmethod
    def cards(self, army: L, cat: Catalogue[CM]) -> list[Card]: ...

    # -- engine ----------------------------------------------------------------------

    def odds_parameters(self) -> Sequence[Param]:
        return ()

    def odds(self, cat: Catalogue[CM], params: dict[str, Any]) -> OddsResult:
        raise NotImplementedError(f"{self.name} has no odds calculator yet")

    def odds_tables(self, cat: Catalogue[CM]) -> Any:
        """The plain, JSON-able tables :attr:`odds_calculator` takes, read from ``cat``
        (remembered by ``armybuilder odds`` for its next runs); None: the system has none."""
        return None

    def play_game(
        self,
        cat: Catalogue[CM],
        first: L,
        second: L,
        rng: np.random.Generator,
        log: bool = False,
        **options: Any,
    ) -> GameRecord:
        """One simulated game, ``first`` as side 0; all randomness from ``rng``. ``options`` fix
        the setup where the engine offers it: ``scenario`` (an id of :meth:`scenarios`),
        ``policies`` (two names of :meth:`policies`, one per side), ``table`` (a layout spec from
        :meth:`table_spec`) and ``replay`` (keep the game's frames, ``GameRecord.map``)."""
        raise NotImplementedError(f"{self.name} has no battle simulator yet")

    def scenarios(self, cat: Catalogue[CM]) -> list[Choice]:
        """The scenarios a game may be fixed to (``playtest --scenario``); none by default (the
        game has none, or draws its own)."""
        return []

    def policies(self) -> list[str]:
        """The names of the engine's players (``POLICIES``), the default first; none by default."""
        return []

    def table_spec(self, cat: Catalogue[CM], table: str | None) -> dict[str, Any] | None:
        """The table layout *table* names (a bundled layout or a player's file) as JSON-able data
        for :meth:`play_game`, read once per playtest; None: the default table. A system whose
        games have no table layouts refuses a name with a sentence for the player."""
        if table is None:
            return None
        from .errors import InputError

        raise InputError.at(f"{self.name} plays on its own board: table layouts (--table) are not available")

    def table_layouts(self, cat: Catalogue[CM]) -> list[tuple[str, str]]:
        """The bundled table layouts (id, name) a player can name with ``--table``."""
        return []

    def odds_units(self, army: L, cat: Catalogue[CM]) -> list[Choice]:
        """Units of a list the odds panel can pit against each other (value: index, label).

        Only asked when :meth:`has_unit_odds` is true; the default offers none.
        """
        return []

    def unit_odds_params(
        self, cat: Catalogue[CM], army: L, unit: int, other: L, other_unit: int
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

    # -- the exact fray (optional) ------------------------------------------------------

    def fray_units(self, army: L, cat: Catalogue[CM]) -> list[Choice]:
        """Units of a list that can fight a fray: value = the unit's index in ``army.units``
        (so the editor's cursor names one), label = its name as the battle knows it.

        Only asked when :meth:`has_fray_odds` is true; the default offers none.
        """
        return []

    def fray_odds(
        self, cat: Catalogue[CM], army: L, unit: int, other: L, other_unit: int, charge: bool
    ) -> OddsResult:
        """The exact outcome of one whole fray: ``unit`` of ``army`` (its index in the list)
        against ``other_unit`` of ``other``, the first unit charging when ``charge``.

        The payload is the JSON of ``armybuilder odds <system> --fray`` (docs/commands.md): ``attacker``
        and ``defender`` each with ``unit``, ``fighters``, ``points``, ``losses`` (pmf),
        ``at_least``, ``expected_losses``, ``p_rout``, ``expected_ap_eliminated`` and
        ``characters`` (``name``, ``p_falls``).  Raises ``ValueError`` with a sentence for
        the player when this fray cannot be computed (a rule the calculation refuses).
        """
        raise NotImplementedError(f"{self.name} has no exact fray")

    def has_fray_odds(self) -> bool:
        """Whether the odds panel offers the fray view (a subclass wrote :meth:`fray_odds`)."""
        return type(self).fray_odds is not GameSystem.fray_odds

    def engine_ready(self) -> bool:
        return type(self).play_game is not GameSystem.play_game

    # -- credibility (optional) -------------------------------------------------------

    def cut_copy(self, army: L, cat: Catalogue[CM], share: float = 0.2) -> L:
        """A copy of *army* with about *share* of its points removed, to play the full list
        against (:mod:`armybuilder.core.credibility`): the engine should let the full list win
        clearly. Raises ``NotImplementedError`` when the system has none."""
        raise NotImplementedError(f"{self.name} cannot cut a list")

    def has_cut_copy(self) -> bool:
        """Whether :meth:`cut_copy` is implemented (the bench then prints credibility figures)."""
        return type(self).cut_copy is not GameSystem.cut_copy

    def option_study(self, games: int, seed: int) -> list[Any]:
        """Every option a player may use (champion actions, reactions, God powers, the choices of
        traits), each in a list built around it: how often it is used and how the list does with
        it against without it (``armybuilder bench --options``); a list of
        :class:`armybuilder.core.credibility.OptionFigure`. Raises ``NotImplementedError`` when
        the system has none."""
        raise NotImplementedError(f"{self.name} has no option study")

    def has_option_study(self) -> bool:
        return type(self).option_study is not GameSystem.option_study


class EditingModule(Protocol):
    """What :attr:`PackagedSystem.editing_module` holds (module-level functions)."""

    def outline(self, army: Any, cat: Any, /) -> list[OutlineNode]: ...
    def actions(self, army: Any, cat: Any, path: str, /) -> list[EditAction]: ...
    def apply(self, army: Any, cat: Any, path: str, action: str, args: dict[str, Any], /) -> tuple[Any, str]: ...
    def browse(self, cat: Any, /) -> list[BrowserEntry]: ...
    def detail(self, cat: Any, ref: EntryRef, /) -> Detail: ...


class SheetsModule(Protocol):
    """What :attr:`PackagedSystem.sheets_module` holds."""

    def roster(self, army: Any, cat: Any, fingerprint: str, /) -> Roster: ...
    def sheets(self, cat: Any, /) -> Sheets: ...
    def cards(self, army: Any, cat: Any, /) -> list[Card]: ...


class RulesModule(Protocol):
    """What :attr:`PackagedSystem.rules_module` holds."""

    def run_rules(self, army: Any, cat: Any, /) -> list[Finding]: ...


class PackagedSystem(GameSystem[L, CM]):
    """A game system laid out as the bundled ones are: one package, one module a concern.

    The three bundled systems were written from the same model, so their protocol
    methods were the same one-line delegations three times.  A subclass names its
    modules here and states only what differs (catalogue questions, points, status,
    referenced entries and the odds function):

    - ``editing_module``: ``outline``, ``actions``, ``apply``, ``browse``, ``detail``;
    - ``sheets_module``: ``roster``, ``sheets``, ``cards``;
    - ``rules_module``: ``run_rules(army, cat)``;
    - ``odds_module`` (dotted name, imported on first use, may not exist yet):
      ``PARAMETERS``, ``odds(cat, params)``, ``odds_tables(cat)`` (the plain tables of
      :attr:`odds_calculator`), ``unit_choices(army, cat)`` and
      ``unit_odds_params(army, unit, other, other_unit, cat)``;
    - ``game_module`` (dotted name, imported on first use, may not exist yet):
      ``play_game(cat, first, second, rng, log)``;
    - ``engine_package`` (dotted name): the package holding the engine, whose ``__init__``
      calls :func:`armybuilder._native.choose` when setup.py may compile its modules.

    :meth:`shown` is the list as the outline, cards and odds see it (a system whose
    stored lists need normalising overrides it); edits and the roster get the list
    as stored.
    """

    # plain annotations, not ClassVar: mypy reads a module assigned in a class body
    # as an instance attribute, and checks it against these protocols
    editing_module: EditingModule
    sheets_module: SheetsModule
    rules_module: RulesModule
    odds_module: ClassVar[str | None] = None
    game_module: ClassVar[str | None] = None
    #: fields of a catalogue format passed on as :attr:`Format.params`, in this order
    format_params: ClassVar[tuple[str, ...]] = ()
    #: the name of a new list when the player gives none
    new_list_name: ClassVar[str] = "New list"

    def shown(self, army: L, cat: Catalogue[CM]) -> L:
        """The list as displayed and measured; the stored list by default."""
        return army

    def formats(self, cat: Catalogue[CM]) -> list[Format]:
        """The catalogue's ``formats`` collection (every packaged catalogue has one), in order."""
        return [
            Format(f.id, f.name, f.limit, f.unit, f.default, {name: getattr(f, name) for name in self.format_params})
            for f in cat.index.get("formats", {}).values()
        ]

    def new_list(
        self, cat: Catalogue[CM], *, faction: str | None = None, format: str | None = None, name: str | None = None,
        limit: int | None = None,
    ) -> L:
        """An empty list pinned to ``cat``, on ``format`` or the catalogue's default one;
        ``limit`` replaces the format's point limit (kept only when it differs)."""
        chosen = format or self.default_format(cat).id
        fmt = cat.get("formats", chosen)
        return cast(L, self.list_model(
            catalogue=cat.version,
            format=chosen,
            limit=limit if limit is not None and (fmt is None or limit != fmt.limit) else None,
            name=name or self.new_list_name,
            **self.faction_fields(cat, faction),
        ))

    def faction_fields(self, cat: Catalogue[CM], faction: str | None) -> dict[str, Any]:
        """List fields a new list gets from the chosen faction: none for a game with one
        faction or none (the choice is then ignored)."""
        return {}

    def format_limit(self, army: L, cat: Catalogue[CM]) -> int:
        """The points limit of the list's format; 0 when the format is unknown."""
        fmt = list_format(army, cat)
        return fmt.limit if fmt else 0

    def validate(self, army: L, cat: Catalogue[CM]) -> list[Finding]:
        return self.rules_module.run_rules(army, cat)

    # -- editor ---------------------------------------------------------------

    def outline(self, army: L, cat: Catalogue[CM]) -> list[OutlineNode]:
        return self.editing_module.outline(self.shown(army, cat), cat)

    def actions(self, army: L, cat: Catalogue[CM], path: str) -> list[EditAction]:
        actions = self.editing_module.actions(army, cat, path)
        if cat.houses:  # the pickers mark house entries as the browser does (core/house_use.py)
            from .house_use import mark_actions

            actions = mark_actions(actions, cat)
        return actions

    def apply(
        self, army: L, cat: Catalogue[CM], path: str, action: str, args: dict[str, Any]
    ) -> tuple[L, str]:
        return self.editing_module.apply(army, cat, path, action, args)

    def browse(self, cat: Catalogue[CM]) -> list[BrowserEntry]:
        entries = self.editing_module.browse(cat)
        if cat.houses:  # house data marked (core/house.py)
            from .house_use import mark_entries

            entries = mark_entries(entries, cat)
        return entries

    def detail(self, cat: Catalogue[CM], ref: EntryRef) -> Detail:
        detail = self.editing_module.detail(cat, ref)
        if cat.houses:
            from .house_use import mark_detail

            detail = mark_detail(detail, cat, ref.collection, ref.id)
        return detail

    # -- printing -------------------------------------------------------------

    def roster(self, army: L, cat: Catalogue[CM], fingerprint: str) -> Roster:
        """The sheets module's roster, with the list's :meth:`summary` for its title and its
        :meth:`limit_note` for the status."""
        roster: Roster = self.sheets_module.roster(army, cat, fingerprint)
        if getattr(army, "house", None):  # a house catalogue missing or changed: said in the legality box too
            from .findings import Severity
            from .house_use import house_findings

            wrong = tuple(f for f in house_findings(self, army, cat) if f.severity is not Severity.INFO)
            if wrong:
                legal = roster.legal and not any(f.severity is Severity.ERROR for f in wrong)
                roster = dataclasses.replace(roster, findings=roster.findings + wrong, legal=legal)
        if roster.summary is None:
            roster = dataclasses.replace(roster, summary=self.summary(army, cat))
        if not roster.limit_note:
            roster = dataclasses.replace(roster, limit_note=self.limit_note(army, cat))
        return roster

    def sheets(self, cat: Catalogue[CM]) -> Sheets:
        return self.sheets_module.sheets(cat)

    def cards(self, army: L, cat: Catalogue[CM]) -> list[Card]:
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

    def odds(self, cat: Catalogue[CM], params: dict[str, Any]) -> OddsResult:
        """``odds(cat, params)`` of the odds module (every system names its calculator ``odds``)."""
        odds = self._engine(self.odds_module)
        if odds is None:
            return super().odds(cat, params)
        result: OddsResult = odds.odds(cat, params)
        return result

    def odds_tables(self, cat: Catalogue[CM]) -> Any:
        """The odds module's ``odds_tables(cat)``, when the system names an :attr:`odds_calculator`."""
        odds = self._engine(self.odds_module) if self.odds_calculator is not None else None
        return odds.odds_tables(cat) if odds is not None and hasattr(odds, "odds_tables") else None

    def odds_units(self, army: L, cat: Catalogue[CM]) -> list[Choice]:
        odds = importlib.import_module(str(self.odds_module))
        return [Choice(i, label) for i, label in odds.unit_choices(self.shown(army, cat), cat)]

    def unit_odds_params(
        self, cat: Catalogue[CM], army: L, unit: int, other: L, other_unit: int
    ) -> dict[str, Any]:
        odds = importlib.import_module(str(self.odds_module))
        params: dict[str, Any] = odds.unit_odds_params(self.shown(army, cat), unit, self.shown(other, cat), other_unit, cat)
        return params

    def has_unit_odds(self) -> bool:
        return self.odds_module is not None

    def engine_ready(self) -> bool:
        return self.game_module is not None and importlib.util.find_spec(self.game_module) is not None

    def play_game(self, cat: Catalogue[CM], first: L, second: L, rng: np.random.Generator, log: bool = False, **options: Any) -> GameRecord:
        if self.game_module is None:
            return super().play_game(cat, first, second, rng, log, **options)
        record: GameRecord = importlib.import_module(self.game_module).play_game(cat, first, second, rng, log, **options)
        return record

    def policies(self) -> list[str]:
        """The game module's ``POLICIES`` (core/engine.py), the default first."""
        if self.game_module is None or not self.engine_ready():
            return []
        return list(getattr(importlib.import_module(self.game_module), "POLICIES", {}))


ProgressCallback = Callable[[int, int], None]
