"""The playtest screen's battle map: one game on its table, frame by frame, in character cells.

It draws a :class:`~armybuilder.core.shapes.BattleMap` (what a system with a table returns for a
replay) and knows nothing of any game's rules. The table is scaled to the space the widget has,
keeping its proportions (a terminal cell is about twice as tall as it is wide); the first list's
edge is at the bottom, as in ``playtest --replay``. Each cell shows what covers most of it:

- a unit, as its label repeated over its footprint on a background of its side's colour (the
  first list's units are numbered ``1``–``9`` then ``A``–``Z``, the opponent's lettered
  ``a``–``z``), so a capture without colours still reads; pale when the unit flees, the label
  bold yellow while it is in a fray;
- a piece of scenery: ``█`` blocks movement and stands at least as tall as a man-sized miniature
  (so it hides what stands behind it), ``▄`` blocks movement but is lower, ``▒`` can be crossed
  but is tall enough to hide, ``░`` can be crossed and is low;
- a deployment zone, tinted with its side's colour, or the open table (``·``).

Beside the table the legend lists every unit of the game (label, facing, name, fighters left,
or routing, in a fray, removed), the scenery with its height, and what happened since the
previous frame when the game was narrated. Every name comes from a list or a layout file and is
escaped (:func:`armybuilder.tui.safe_text.safe_text`) and appended as plain text, never markup.

Units are followed from frame to frame by side and name; two units of one name are told apart by
their order and their positions (:func:`track_units`), so a label stays on its unit all game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Span, Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from armybuilder.core.sanitize import visible
from armybuilder.core.shapes import BattleMap, MapFrame, MapPiece, MapUnit

from ..cut import cut_words
from ..safe_text import safe_text

Point = tuple[float, float]

SIDE_COLOUR = ("#3a6fc4", "#c4453a")
SIDE_PALE = ("#9fb6dd", "#e3aaa4")
SIDE_ZONE = ("#26324a", "#4a2a28")
TABLE = "#2e3a26"
PIECE_COLOUR = {True: "#a39585", False: "#9fbf6a"}  # impassable: stone; passable: hedges, woods
MAN_HEIGHT_CM = 3.0
"""How tall a man-sized miniature stands: scenery at least this tall hides what is behind it."""
CELL_ASPECT = 2.0
"""A terminal cell is about twice as tall as wide: the scale that keeps the table's proportions."""
SUBSAMPLES = 3  # per cell side: what covers a cell is measured at 3 × 3 points
FIRST_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SECOND_LABELS = "abcdefghijklmnopqrstuvwxyz"
WIDE = 110  # from this width the legend takes LEGEND_WIDE cells, below it LEGEND_NARROW
LEGEND_NARROW = 30
LEGEND_WIDE = 40
ARROWS = "→↗↑↖←↙↓↘"  # by eighths of a turn from +x, counter-clockwise (y grows up the screen)


def label_of(side: int, index: int) -> str:
    """The one-character label of the *index*-th unit of *side* ("+" past the alphabet)."""
    labels = FIRST_LABELS if side == 0 else SECOND_LABELS
    return labels[index] if index < len(labels) else "+"


def piece_glyph(piece: MapPiece) -> str:
    """The glyph of a piece: whether it blocks movement, and whether it is tall enough to hide."""
    tall = piece.height >= MAN_HEIGHT_CM
    if piece.impassable:
        return "█" if tall else "▄"
    return "▒" if tall else "░"


def facing_arrow(facing: Point) -> str:
    """The arrow nearest a unit's facing, as drawn (the first list's edge at the bottom)."""
    fx, fy = facing
    if fx == 0 and fy == 0:
        return "·"
    eighth = round(math.atan2(fy, fx) / (math.pi / 4)) % 8
    return ARROWS[eighth]


def centre(outline: Sequence[Point]) -> Point:
    return (sum(x for x, _ in outline) / len(outline), sum(y for _, y in outline) / len(outline))


def _inside_polygon(x: float, y: float, outline: Sequence[Point]) -> bool:
    """Even-odd rule: whether (x, y) lies inside the polygon *outline*."""
    inside = False
    n = len(outline)
    for i in range(n):
        x1, y1 = outline[i]
        x2, y2 = outline[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _inside_ellipse(x: float, y: float, outline: Sequence[Point]) -> bool:
    """Whether (x, y) lies in the ellipse inscribed in the rectangle *outline* (4 corners)."""
    a, b, c = outline[0], outline[1], outline[2]
    cx, cy = centre(outline)
    ux, uy = b[0] - a[0], b[1] - a[1]
    vx, vy = c[0] - b[0], c[1] - b[1]
    lu, lv = math.hypot(ux, uy), math.hypot(vx, vy)
    if lu == 0 or lv == 0:
        return False
    dx, dy = x - cx, y - cy
    pu = (dx * ux + dy * uy) / lu / (lu / 2)
    pv = (dx * vx + dy * vy) / lv / (lv / 2)
    return pu * pu + pv * pv <= 1.0


@dataclass(frozen=True)
class Grid:
    """How the table maps onto ``cols`` × ``rows`` cells: ``cm_x`` and ``cm_y`` per cell."""

    cols: int
    rows: int
    cm_x: float
    cm_y: float

    @classmethod
    def fit(cls, width_cm: float, depth_cm: float, cols: int, rows: int) -> Grid:
        """The largest grid of the table's proportions within ``cols`` × ``rows`` cells."""
        cols, rows = max(1, cols), max(1, rows)
        # cm per column: enough for the width in cols, and for the depth in rows of CELL_ASPECT columns' height
        scale = max(width_cm / cols, depth_cm / (rows * CELL_ASPECT))
        use_cols = max(1, min(cols, math.ceil(width_cm / scale - 1e-9)))
        use_rows = max(1, min(rows, math.ceil(depth_cm / (scale * CELL_ASPECT) - 1e-9)))
        return cls(use_cols, use_rows, width_cm / use_cols, depth_cm / use_rows)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """(column, row) of the cell holding table point (x, y); row 0 is the far (top) edge."""
        col = min(self.cols - 1, max(0, int(x / self.cm_x)))
        row = min(self.rows - 1, max(0, self.rows - 1 - int(y / self.cm_y)))
        return col, row

    def span(self, outline: Sequence[Point]) -> tuple[range, range]:
        """The columns and rows an outline's bounding box touches."""
        xs = [x for x, _ in outline]
        ys = [y for _, y in outline]
        c0, r1 = self.cell_of(min(xs), min(ys))
        c1, r0 = self.cell_of(max(xs), max(ys))
        return range(c0, c1 + 1), range(r0, r1 + 1)

    def samples(self, col: int, row: int) -> list[Point]:
        """The table points at which a cell's cover is measured."""
        x0 = col * self.cm_x
        y0 = (self.rows - 1 - row) * self.cm_y
        step_x, step_y = self.cm_x / SUBSAMPLES, self.cm_y / SUBSAMPLES
        return [(x0 + (i + 0.5) * step_x, y0 + (j + 0.5) * step_y) for i in range(SUBSAMPLES) for j in range(SUBSAMPLES)]


def _inside_test(outline: Sequence[Point], rounded: bool) -> Callable[[float, float], bool]:
    """The test of whether a point lies in a shape: a rectangle (a unit's block, most scenery) by
    two projections, an ellipse or any other polygon by the general rules."""
    if rounded:
        return lambda x, y: _inside_ellipse(x, y, outline)
    if len(outline) == 4:
        (ax, ay), (bx, by), _, (dx, dy) = outline
        ux, uy, vx, vy = bx - ax, by - ay, dx - ax, dy - ay
        uu, vv = ux * ux + uy * uy, vx * vx + vy * vy
        square = abs(ux * vx + uy * vy) <= 1e-9 * max(uu, vv, 1.0)
        if square and uu > 0 and vv > 0 and math.isclose(outline[2][0], bx + vx, abs_tol=1e-6) and math.isclose(outline[2][1], by + vy, abs_tol=1e-6):

            def in_rectangle(x: float, y: float) -> bool:
                px, py = x - ax, y - ay
                along = px * ux + py * uy
                across = px * vx + py * vy
                return 0.0 <= along <= uu and 0.0 <= across <= vv

            return in_rectangle
    return lambda x, y: _inside_polygon(x, y, outline)


def _cover(grid: Grid, outline: Sequence[Point], rounded: bool = False) -> dict[tuple[int, int], int]:
    """Each cell of *outline*'s bounding box → how many of its sample points the shape covers."""
    inside = _inside_test(outline, rounded)
    out: dict[tuple[int, int], int] = {}
    cols, rows = grid.span(outline)
    for col in cols:
        for row in rows:
            hits = sum(1 for x, y in grid.samples(col, row) if inside(x, y))
            if hits:
                out[(col, row)] = hits
    return out


def track_units(game: BattleMap) -> tuple[list[tuple[int, str]], list[list[int]]]:
    """The roster of the game's units (side, name), and per frame each unit's roster index.

    A unit is the same from one frame to the next when its side and name are; among units of one
    side and name, their order (a frame lists the units in their list's order) and the distance
    they moved choose which is which (the order-keeping assignment of least total distance).
    """
    roster: list[tuple[int, str]] = []
    where: list[Point] = []
    per_frame: list[list[int]] = []
    for frame in game.frames:
        groups: dict[tuple[int, str], list[int]] = {}
        for k, unit in enumerate(frame.units):
            groups.setdefault((unit.side, unit.name), []).append(k)
        indices = [0] * len(frame.units)
        for key, members in groups.items():
            known = [r for r, entry in enumerate(roster) if entry == key]
            chosen = _match([centre(frame.units[k].outline) for k in members], [where[r] for r in known])
            for k, pick in zip(members, chosen, strict=True):
                if pick is None:
                    roster.append(key)
                    where.append(centre(frame.units[k].outline))
                    indices[k] = len(roster) - 1
                else:
                    indices[k] = known[pick]
        for k, unit in enumerate(frame.units):
            where[indices[k]] = centre(unit.outline)
        per_frame.append(indices)
    return roster, per_frame


def _match(now: list[Point], before: list[Point]) -> list[int | None]:
    """Which of *before* each of *now* is (in order, least total distance); None: a new unit."""
    if not before:
        return [None] * len(now)
    n, m = len(now), len(before)
    if n > m:  # more than were known: the first ones are the known ones, the rest are new
        return [*_match(now[:m], before), *([None] * (n - m))]
    inf = float("inf")
    # best[i][j]: least cost of matching now[:i] into before[:j]
    best = [[inf] * (m + 1) for _ in range(n + 1)]
    for j in range(m + 1):
        best[0][j] = 0.0
    for i in range(1, n + 1):
        for j in range(i, m + 1):
            skip = best[i][j - 1]
            take = best[i - 1][j - 1] + math.dist(now[i - 1], before[j - 1])
            best[i][j] = min(skip, take)
    picks: list[int | None] = [None] * n
    i, j = n, m
    while i > 0:
        if j > i and best[i][j] == best[i][j - 1]:
            j -= 1
        else:
            picks[i - 1] = j - 1
            i, j = i - 1, j - 1
    return picks


def _ground(game: BattleMap, grid: Grid) -> tuple[list[list[str]], list[list[Style]]]:
    """The table without its units (the zones and the scenery): glyphs and styles by row."""
    glyph = [["·"] * grid.cols for _ in range(grid.rows)]
    style = [[Style(color="#6f7f5f", bgcolor=TABLE)] * grid.cols for _ in range(grid.rows)]
    for side, (low, high) in enumerate(game.zones[:2]):
        zone = Style(color="#6f7f5f", bgcolor=SIDE_ZONE[side])
        for row in range(grid.rows):
            mid = (grid.rows - 1 - row + 0.5) * grid.cm_y
            if low <= mid <= high:
                for col in range(grid.cols):
                    glyph[row][col], style[row][col] = " ", zone
    half = SUBSAMPLES * SUBSAMPLES / 2
    for piece in game.pieces:
        look = Style(color=PIECE_COLOUR[piece.impassable])
        cells = _cover(grid, piece.outline, piece.round)
        if not cells:  # thinner than the samples: its middle cell
            cells = {grid.cell_of(*centre(piece.outline)): 1}
        enough = half if max(cells.values()) >= half else 1  # a wall thinner than half a cell still shows
        for (col, row), hits in cells.items():
            if hits >= enough:
                glyph[row][col] = piece_glyph(piece)
                style[row][col] = style[row][col] + look
    return glyph, style


_GROUND: dict[tuple[int, int, int], tuple[BattleMap, list[list[str]], list[list[Style]]]] = {}


def _ground_of(game: BattleMap, grid: Grid) -> tuple[list[list[str]], list[list[Style]]]:
    """:func:`_ground`, kept for the last few (game, size) pairs: the scenery stands still
    while a player steps through the frames."""
    key = (id(game), grid.cols, grid.rows)
    kept = _GROUND.get(key)
    if kept is None or kept[0] is not game:
        if len(_GROUND) >= 8:
            _GROUND.clear()
        kept = _GROUND[key] = (game, *_ground(game, grid))
    return kept[1], kept[2]


def render_table(game: BattleMap, frame: MapFrame, labels: Sequence[str], cols: int, rows: int) -> Text:
    """The table of *frame* in at most ``cols`` × ``rows`` cells (*labels*: each unit's label)."""
    grid = Grid.fit(game.width, game.depth, cols, rows)
    ground_glyph, ground_style = _ground_of(game, grid)
    glyph = [list(row) for row in ground_glyph]
    style = [list(row) for row in ground_style]
    taken: dict[tuple[int, int], tuple[int, int]] = {}  # cell → (sample points covered, unit drawn there)
    looks: list[Style] = []
    middles: list[tuple[int, int]] = []
    for k, unit in enumerate(frame.units):
        side = 1 if unit.side else 0
        routing = unit.state == "rout"
        look = Style(color="#1a1a1a" if routing else "#ffffff", bgcolor=SIDE_PALE[side] if routing else SIDE_COLOUR[side], bold=True)
        if unit.engaged:
            look += Style(color="#ffe066")
        looks.append(look)
        cells = _cover(grid, unit.outline)
        middle = grid.cell_of(*centre(unit.outline))
        middles.append(middle)
        cells[middle] = max(cells.get(middle, 0), 1)  # a unit smaller than a cell still shows
        for cell, hits in cells.items():
            if hits > taken.get(cell, (0, -1))[0]:
                taken[cell] = (hits, k)
    shown = {k for _, k in taken.values()}
    for k, middle in enumerate(middles):  # a small unit against a big one (in a fray) keeps its middle cell
        if k not in shown and middle in taken and taken[middle][1] in shown:
            owner = taken[middle][1]
            if sum(1 for _, j in taken.values() if j == owner) > 1:
                taken[middle] = (0, k)
    for (col, row), (_, k) in taken.items():
        glyph[row][col], style[row][col] = labels[k], looks[k]
    # one span per run of cells of one style (a Text built cell by cell costs ten times more)
    spans: list[Span] = []
    lines: list[str] = []
    offset = 0
    for row in range(grid.rows):
        line = glyph[row]
        row_looks = style[row]
        start = 0
        for col in range(1, grid.cols + 1):
            if col == grid.cols or row_looks[col] is not row_looks[start]:
                spans.append(Span(offset + start, offset + col, row_looks[start]))
                start = col
        lines.append("".join(line))
        offset += grid.cols + 1  # the line and its line feed
    return Text("\n".join(lines), no_wrap=True, overflow="crop", spans=spans)


def state_words(unit: MapUnit) -> str:
    """A unit's fighters left and what it is doing, in few words ("7 fray", "3 rout")."""
    words = [f"{unit.fighters}"]
    if unit.state == "rout":
        words.append("rout")
    elif unit.state and unit.state != "valiant":
        words.append(unit.state[:6] + "." if len(unit.state) > 7 else unit.state)
    if unit.engaged:
        words.append("fray")
    return " ".join(words)


def caption_of(frame: MapFrame, index: int, frames: int, rounds: int) -> str:
    """"Round N of M — the frame's moment (frame i of n)", or the deployment's."""
    where = f"frame {index + 1} of {frames}"
    if frame.round == 0:
        return f"Deployment — before round 1 of {rounds} ({where})"
    return f"Round {frame.round} of {rounds} — {frame.caption} ({where})"


def roster_labels(roster: Sequence[tuple[int, str]]) -> list[str]:
    """Each roster unit's label: its rank among its side's units (:func:`label_of`)."""
    counts = [0, 0]
    labels: list[str] = []
    for side, _ in roster:
        side = 1 if side else 0
        labels.append(label_of(side, counts[side]))
        counts[side] += 1
    return labels


def legend_text(
    game: BattleMap, frame_index: int, roster: Sequence[tuple[int, str]], per_frame: Sequence[Sequence[int]], width: int = 40
) -> Text:
    """The legend of a frame: each side's units with their label, facing and state, then the
    scenery, then what happened since the previous frame; a unit's line fits ``width`` cells
    (its name cut with "…"), the narration wraps."""
    frame = game.frames[frame_index]
    here = {index: unit for index, unit in zip(per_frame[frame_index], frame.units, strict=True)}
    seen_before = {index for indices in per_frame[: frame_index + 1] for index in indices}
    labels = roster_labels(roster)
    text = Text()
    for side in (0, 1):
        name = game.sides[side] if side < len(game.sides) and game.sides[side] else ("the list", "the opponent")[side]
        edge = " (bottom)" if side == 0 else " (top)"
        text.append(cut_words(visible(name), max(4, width - len(edge))), Style(bold=True, color=SIDE_PALE[side]))
        text.append(f"{edge}\n", Style(dim=True))
        for index, (unit_side, unit_name) in enumerate(roster):
            if (1 if unit_side else 0) != side or index not in seen_before:
                continue
            unit = here.get(index)
            text.append(labels[index], Style(bold=True, color="#ffffff", bgcolor=SIDE_COLOUR[side]))
            state = "removed" if unit is None else state_words(unit)
            room = max(4, width - 4 - len(state))
            shown = cut_words(visible(unit_name), room)
            if unit is None:
                text.append(f"  {shown:<{room}} {state}\n", Style(dim=True))
                continue
            text.append(f"{facing_arrow(unit.facing)} {shown:<{room}} ")
            text.append(state + "\n", Style(color="#ffe066" if unit.engaged else None, bold=unit.engaged))
    if game.pieces:
        text.append("Scenery\n", Style(bold=True))
        for line in _piece_kinds(game.pieces):
            text.append(cut_words(line, width) + "\n")
        text.append(cut_words("█▄ impassable, ▒░ crossable", width) + "\n", Style(dim=True))
        text.append(cut_words(f"█▒ {MAN_HEIGHT_CM:g} cm or taller: they hide", width) + "\n", Style(dim=True))
    if frame.events:
        text.append("Since the previous frame\n", Style(bold=True))
        for line in frame.events:
            text.append(f"{line}\n")
    return safe_text(text, lines=True)


def _piece_kinds(pieces: Sequence[MapPiece]) -> list[str]:
    """One legend line per kind of piece (name, glyph, height, whether it can be crossed)."""
    lines: dict[tuple[str, str, bool, float], int] = {}
    for piece in pieces:
        key = (piece_glyph(piece), piece.name, piece.impassable, piece.height)
        lines[key] = lines.get(key, 0) + 1
    out = []
    for (glyph, name, _, height), count in lines.items():
        many = f" ×{count}" if count > 1 else ""
        out.append(f"{glyph} {visible(name)}{many}, {height:g} cm high")
    return out


class MapCanvas(Widget):
    """The table itself, redrawn to the widget's size."""

    DEFAULT_CSS = """
    MapCanvas { width: 1fr; height: 1fr; }
    """

    def __init__(self, view: BattleMapView, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view

    def render(self) -> Text:
        game, index = self.view.game, self.view.frame
        if game is None or not game.frames:
            return Text(self.view.empty, style="dim")
        return render_table(game, game.frames[index], self.view.labels_of(index), self.size.width, self.size.height)


class BattleMapView(Vertical, can_focus=True):
    """A game's table, stepped through frame by frame with the arrow keys, Home and End."""

    BINDINGS = [
        Binding("left", "step(-1)", "Previous", id="battle-map.previous", tooltip="the previous frame (the deployment, then each round's activation and combat)"),
        Binding("right", "step(1)", "Next", id="battle-map.next", tooltip="the next frame"),
        Binding("home", "first", "First", id="battle-map.first", tooltip="the first frame: the deployment"),
        Binding("end", "last", "Last", id="battle-map.last", tooltip="the last frame: the end of the game"),
        Binding("pagedown", "legend(1)", "Legend down", show=False, id="battle-map.legend-down",
                tooltip="scroll the legend down (the units, the scenery, what happened)"),
        Binding("pageup", "legend(-1)", "Legend up", show=False, id="battle-map.legend-up", tooltip="scroll the legend up"),
    ]
    DEFAULT_CSS = """
    BattleMapView { height: 1fr; }
    BattleMapView:focus-within #map-caption { text-style: bold; }
    BattleMapView #map-caption { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    BattleMapView #map-body { height: 1fr; }
    BattleMapView #map-legend-scroll { width: 30; height: 1fr; padding: 0 0 0 1; }
    BattleMapView #map-legend { width: 1fr; }
    """

    frame: reactive[int] = reactive(0)

    def __init__(self, empty: str = "no game to show", **kwargs) -> None:
        super().__init__(**kwargs)
        self.game: BattleMap | None = None
        self.empty = empty
        self._roster: list[tuple[int, str]] = []
        self._per_frame: list[list[int]] = []
        self._labels: list[str] = []
        self._rounds = 0

    def compose(self) -> ComposeResult:
        yield Static("", id="map-caption", markup=False)
        with Horizontal(id="map-body"):
            yield MapCanvas(self, id="map-canvas")
            with VerticalScroll(id="map-legend-scroll", can_focus=False):
                yield Static("", id="map-legend", markup=False)

    def on_mount(self) -> None:
        self._refresh_parts()

    def _legend_width(self) -> int:
        return LEGEND_NARROW if self.size.width < WIDE else LEGEND_WIDE

    def on_resize(self) -> None:
        self.query_one("#map-legend-scroll").styles.width = self._legend_width()
        self._refresh_parts()  # the legend's names cut to its width

    def show(self, game: BattleMap | None) -> None:
        """Show *game* from its first frame (None: the empty message)."""
        self.game = game
        if game is not None and game.frames:
            self._roster, self._per_frame = track_units(game)
            self._labels = roster_labels(self._roster)
            self._rounds = max(f.round for f in game.frames)
        else:
            self._roster, self._per_frame, self._labels, self._rounds = [], [], [], 0
        if self.frame == 0:
            self._refresh_parts()
        else:
            self.frame = 0

    def labels_of(self, index: int) -> list[str]:
        """The label of each unit of frame *index*, in the frame's order."""
        return [self._labels[r] for r in self._per_frame[index]]

    @property
    def caption(self) -> str:
        game = self.game
        if game is None or not game.frames:
            return ""
        return caption_of(game.frames[self.frame], self.frame, len(game.frames), self._rounds)

    def watch_frame(self) -> None:
        self._refresh_parts()

    def _refresh_parts(self) -> None:
        if not self.is_mounted:
            return
        game = self.game
        caption = self.query_one("#map-caption", Static)
        legend = self.query_one("#map-legend", Static)
        if game is None or not game.frames:
            caption.update("")
            legend.update("")
        else:
            title = Text(self.caption, style="bold")
            title.append(f"   {game.title}, {game.width:g} × {game.depth:g} cm", style="dim")
            caption.update(safe_text(title))
            width = self._legend_width() - 3  # its padding and scroll bar
            legend.update(legend_text(game, self.frame, self._roster, self._per_frame, max(20, width)))
        self.query_one(MapCanvas).refresh()

    def _last(self) -> int:
        return len(self.game.frames) - 1 if self.game is not None and self.game.frames else 0

    def action_step(self, by: int) -> None:
        self.frame = max(0, min(self._last(), self.frame + by))

    def action_legend(self, pages: int) -> None:
        scroll = self.query_one("#map-legend-scroll", VerticalScroll)
        if pages > 0:
            scroll.scroll_page_down()
        else:
            scroll.scroll_page_up()

    def action_first(self) -> None:
        self.frame = 0

    def action_last(self) -> None:
        self.frame = self._last()
