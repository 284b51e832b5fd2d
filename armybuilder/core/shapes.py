"""The neutral shapes a game system answers in, beyond what validating a list needs.

The outline of a list, the edits allowed at a place, document blocks for the PDF and
text renderers, cards, odds results and game records.  They were defined in
:mod:`armybuilder.core.system` (and are still importable from there, on first use):
creating their frozen dataclasses cost ~10 ms of every process, ``validate`` included,
which uses none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .findings import Finding
from .records import Choice, EntryRef

__all__ = ["OutlineNode", "Param", "EditKind", "EditAction", "BrowserEntry", "Heading", "Paragraph", "KeyValues", "Table", "Block", "Card", "Roster", "ListSummary", "Sheets", "Detail", "OddsResult", "UnitRecord", "GameRecord", "MapPiece", "MapUnit", "MapFrame", "BattleMap", "edit_kind_of"]


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
class Param:
    name: str
    label: str
    kind: Literal["choice", "int", "text", "float", "bool"]
    choices: tuple[Choice, ...] = ()
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""


EditKind = Literal["add", "remove", "rename", "notes", "change"]
"""What an edit does, for the editor's keys: ``a`` offers the "add" edits, ``delete``
the "remove" ones, ``r`` "rename", ``n`` "notes"; every other edit is a "change"."""


@dataclass(frozen=True)
class EditAction:
    """An edit allowed at a place of the list; the UI asks for ``params`` then applies.

    ``kind`` says what the edit does (the editor's keys pick edits by it, never by ``id``);
    a system should state it; when it does not, :func:`edit_kind_of` reads it from the id.
    ``refused`` is why the rules forbid this edit here ("" when they allow it), in the
    validator's own words: menus hide it, or grey it out with the reason on "show all",
    and never apply it (as :attr:`Choice.refused` for one value of a picker).
    """

    id: str
    label: str
    params: tuple[Param, ...] = ()
    group: str = "edit"
    destructive: bool = False
    kind: EditKind | None = None
    refused: str = ""

    def __post_init__(self) -> None:
        if self.kind is None:
            object.__setattr__(self, "kind", edit_kind_of(self.id, self.destructive))


def edit_kind_of(action_id: str, destructive: bool = False) -> EditKind:
    """The kind of an edit a system did not state, from its id (``add-unit`` → "add").

    The one place such a reading exists: ids that start with ``add`` add, a
    destructive edit removes, ``rename-*``/``set-label`` rename, ``*-notes`` edit notes.
    """
    if action_id.startswith("add"):
        return "add"
    if destructive:
        return "remove"
    if action_id.startswith("rename") or action_id.endswith("label"):
        return "rename"
    if action_id.endswith("notes"):
        return "notes"
    return "change"


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
    #: system, faction and format names for the title line, filled by the protocol
    summary: ListSummary | None = None
    #: "limit set by the list: 1250 A.P. (format 1000 A.P.)" when the list's own limit is not
    #: its format's (filled by the protocol): every print shows it in the legality status
    limit_note: str = ""


@dataclass(frozen=True)
class ListSummary:
    """What names a list in a title: its game, its faction (if the game has any), its format."""

    system: str
    faction: str = ""
    format: str = ""

    def parts(self) -> tuple[str, ...]:
        return tuple(p for p in (self.system, self.faction, self.format) if p)


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


Point = tuple[float, float]


@dataclass(frozen=True)
class MapPiece:
    """A piece of scenery on a battle map: its outline (corners, in cm on the table)."""

    name: str
    outline: tuple[Point, ...]
    height: float = 0.0
    impassable: bool = True
    round: bool = False  # drawn as the ellipse inside its outline


@dataclass(frozen=True)
class MapUnit:
    """A unit on a battle map: its block's outline (front-left, front-right, back-right,
    back-left), the way it faces and what a player reads on it."""

    side: int  # 0: the first list, 1: the opponent
    name: str
    outline: tuple[Point, Point, Point, Point]
    facing: Point  # a unit vector
    fighters: int
    state: str = ""  # valiant, disorganized, rout ("" when it does not apply)
    order: str = ""
    engaged: bool = False


@dataclass(frozen=True)
class MapFrame:
    """The table at one moment of a game, and what happened since the previous frame."""

    round: int
    caption: str
    units: tuple[MapUnit, ...]
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class BattleMap:
    """A game on its table, frame by frame: what ``playtest --replay`` draws and the playtest
    screen steps through. Lengths in cm; y grows from the first list's edge."""

    title: str
    width: float
    depth: float
    zones: tuple[tuple[float, float], ...]  # the deployment zones, as bands of depth
    pieces: tuple[MapPiece, ...]
    frames: tuple[MapFrame, ...]
    sides: tuple[str, str] = ("", "")


@dataclass
class GameRecord:
    """Outcome of one simulated game: winner 0 (first list), 1, or None for a draw."""

    winner: int | None
    rounds: int
    scores: tuple[float, float]
    units: list[UnitRecord] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    #: the scenario played, where the game has scenarios (its catalogue id)
    scenario: str | None = None
    #: per side, how many times it used each option its list has (a champion action, a God
    #: power, a reaction, a trait's effect: the engine's ids), so a playtest can show that the
    #: players use what a list brings
    used: tuple[dict[str, int], dict[str, int]] = field(default_factory=lambda: ({}, {}))
    #: the game on its table, frame by frame (systems with a table, when asked for a replay)
    map: BattleMap | None = None
    #: named figures of this game a system reports for its own statistics (e.g. A.P. destroyed
    #: by phase); summed over a playtest by :class:`armybuilder.core.playtest.Tally`
    figures: dict[str, float] = field(default_factory=dict)
