"""Table layouts: the bundled ones of the catalogue and a player's own YAML file.

``playtest --table NAME|FILE`` (and ``meta --table``) names a layout of the catalogue
(``open``, ``standard``, ``dense``: decision R2-T6) or a YAML file a player wrote. Either
becomes a *spec* (:func:`layout_spec`): plain JSON-able data with every piece's footprint,
height and passability resolved from the catalogue's scenery kinds, which the battle engine
places (:mod:`.engine.battlefield`) and ``--json`` reports.

A player's file is untrusted input: it is read as every hand-written file is
(:func:`armybuilder.core.yamlio.load_document`: no tags, no alias bombs, a size limit),
validated against :class:`UserLayout`, and every mistake is reported with its line and
column. Its format::

    name: River crossing          # optional; the file's name otherwise
    text: Two fords and a mill.   # optional
    width: 180                    # optional: the table (cm), the catalogue's otherwise
    depth: 120
    pieces:                       # set where they stand (x across, y from the first army's edge)
      - {kind: building, x: 90, y: 60, angle: 30}
      - {kind: hedge, x: 40, y: 50}
      - {name: Mill pond, x: 140, y: 62, width: 20, depth: 12, height: 0.5, impassable: true}
    scatter:                      # placed afresh for each game from its seed
      - {kind: rock, count: 2}

The table data (size, zones, bases, scenery kinds) comes from the list's catalogue; a list
pinned to a version older than the table data (1.2.0) plays on the latest version's tables.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from pydantic import Field

from armybuilder.core.catalog import Catalogue
from armybuilder.core.catalog_models import Strict
from armybuilder.core.errors import InputError, Problem

from .catalog import BattlefieldTable, Layout, LayoutPiece, R2Catalog, ScatterPiece

#: limits of a player's table (cm): a skirmish mat to a large club table
TABLE_LIMITS = (60.0, 400.0)
MAX_PIECES = 60


class UserLayout(Strict):
    """A layout file a player writes (see the module doc)."""

    name: str = Field(default="", max_length=80)
    text: str = Field(default="", max_length=400)
    width: float | None = None
    depth: float | None = None
    pieces: list[LayoutPiece] = Field(default_factory=list, max_length=MAX_PIECES)
    scatter: list[ScatterPiece] = Field(default_factory=list, max_length=MAX_PIECES)


def _latest_table() -> tuple[BattlefieldTable, list[Layout]]:
    from armybuilder.core.registry import get_system

    data: R2Catalog = get_system("ragnarok2").catalogue().data
    return data.tables.battlefield or BattlefieldTable(), list(data.layouts)


def battlefield_table(cat: Catalogue[R2Catalog]) -> BattlefieldTable:
    """The catalogue's table data, or the latest catalogue's for a version without any."""
    table = cat.data.tables.battlefield
    return table if table is not None else _latest_table()[0]


def catalogue_layouts(cat: Catalogue[R2Catalog]) -> list[Layout]:
    """The catalogue's layouts, or the latest catalogue's for a version without any."""
    return list(cat.data.layouts) if cat.data.tables.battlefield is not None else _latest_table()[1]


def layout_names(cat: Catalogue[R2Catalog]) -> list[tuple[str, str]]:
    """(id, name) of the bundled layouts."""
    return [(lay.id, lay.name) for lay in catalogue_layouts(cat)]


def _resolve_piece(table: BattlefieldTable, entry: LayoutPiece | ScatterPiece) -> dict[str, Any]:
    kinds = {k.id: k for k in table.scenery}
    kind = kinds.get(entry.kind) if entry.kind else None
    out: dict[str, Any] = {"kind": entry.kind}
    if kind is not None:
        out.update(name=kind.name, width=kind.width, depth=kind.depth, height=kind.height, shape=kind.shape, impassable=kind.impassable)
    if isinstance(entry, LayoutPiece):
        for key in ("width", "depth", "height", "shape", "impassable"):
            value = getattr(entry, key)
            if value is not None:
                out[key] = value
        if entry.name:
            out["name"] = entry.name
        out.update(x=entry.x, y=entry.y, angle=entry.angle)
    out.setdefault("shape", "rect")
    out.setdefault("impassable", True)
    out.setdefault("name", entry.kind or "piece")
    return out


def _spec(table: BattlefieldTable, name: str, title: str, text: str, source: str, pieces: list[LayoutPiece],
          scatter: list[ScatterPiece], width: float | None = None, depth: float | None = None) -> dict[str, Any]:  # fmt: skip
    spread = []
    for s in scatter:
        spread += [_resolve_piece(table, s)] * s.count
    return {
        "name": name, "title": title, "text": text, "source": source,
        "width": width if width is not None else table.width,
        "depth": depth if depth is not None else table.depth,
        "deployment": table.deployment_depth, "scout": table.scout_distance,
        "gap": table.scenery_gap, "margin": table.no_mans_land,
        "pieces": [_resolve_piece(table, p) for p in pieces],
        "scatter": spread,
    }  # fmt: skip


def layout_spec(cat: Catalogue[R2Catalog], table: str | None = None) -> dict[str, Any]:
    """The spec of the layout *table*: a bundled layout's id, a YAML file's path, or None for the
    catalogue's default (the standard table, placed afresh for each game). Raises
    :class:`InputError` for an unknown name or a bad file (with its line and column)."""
    data = battlefield_table(cat)
    layouts = {lay.id: lay for lay in catalogue_layouts(cat)}
    wanted = table if table is not None else data.layout
    chosen = layouts.get(wanted)
    if chosen is not None:
        return _spec(data, chosen.id, chosen.name, chosen.text, "bundled", chosen.pieces, chosen.scatter)
    path = Path(wanted)
    if table is not None and (path.suffix.lower() in (".yaml", ".yml") or path.exists()):
        return read_layout_file(cat, path)
    known = ", ".join(sorted(layouts))
    raise InputError.at(f"'{wanted}' is neither a bundled table layout ({known}) nor a layout file (.yaml)")


def read_layout_file(cat: Catalogue[R2Catalog], path: Path) -> dict[str, Any]:
    """A player's layout file as a spec, every mistake reported with its position."""
    from armybuilder.core.yamlio import load_document, locate, validate_model

    if not path.is_file():
        raise InputError.at("no such layout file", path)
    doc = load_document(path)
    if not isinstance(doc, dict):
        raise InputError.at("a layout file is a mapping (name, pieces, scatter...): see docs/playtest.md", path, 1, 1)
    user = validate_model(UserLayout, doc, str(path))
    table = battlefield_table(cat)
    kinds = {k.id for k in table.scenery}
    width = user.width if user.width is not None else table.width
    depth = user.depth if user.depth is not None else table.depth
    problems: list[Problem] = []

    def problem(message: str, *loc: str | int) -> None:
        line, column = locate(doc, list(loc))
        problems.append(Problem(message, str(path), line, column))

    for key, value in (("width", user.width), ("depth", user.depth)):
        if value is not None and not (TABLE_LIMITS[0] <= value <= TABLE_LIMITS[1]):
            problem(f"the table's {key} must be {TABLE_LIMITS[0]:g} to {TABLE_LIMITS[1]:g} cm, not {value:g}", key)
    if depth < 2 * table.deployment_depth + 20:
        problem(f"the table must be at least {2 * table.deployment_depth + 20:g} cm deep: two deployment zones of {table.deployment_depth:g} cm and room between them", "depth")
    for i, piece in enumerate(user.pieces):
        if piece.kind and piece.kind not in kinds:
            problem(f"unknown kind of scenery '{piece.kind}' (known: {', '.join(sorted(kinds))})", "pieces", i, "kind")
            continue
        if not piece.kind and None in (piece.width, piece.depth, piece.height):
            problem("a piece without a kind needs its width, depth and height", "pieces", i)
            continue
        resolved = _resolve_piece(table, piece)
        reach = math.hypot(resolved["width"], resolved["depth"]) / 2.0
        if not (0.0 <= piece.x <= width and 0.0 <= piece.y <= depth):
            problem(f"the piece's centre ({piece.x:g}, {piece.y:g}) is off the {width:g} × {depth:g} cm table", "pieces", i)
        elif piece.y - reach < table.deployment_depth or piece.y + reach > depth - table.deployment_depth:
            if _in_zone(resolved, table.deployment_depth, depth):
                problem(f"the piece reaches into a deployment zone (the {table.deployment_depth:g} cm along each army's edge)", "pieces", i)
    for i, entry in enumerate(user.scatter):
        if entry.kind not in kinds:
            problem(f"unknown kind of scenery '{entry.kind}' (known: {', '.join(sorted(kinds))})", "scatter", i, "kind")
    if problems:
        raise InputError(problems)
    return _spec(table, path.stem, user.name or path.stem, user.text, f"file {path}", user.pieces, user.scatter, width, depth)


def _in_zone(piece: dict[str, Any], zone: float, depth: float) -> bool:
    from .engine.battlefield import placed_piece

    y0, y1 = placed_piece(piece, float(piece["x"]), float(piece["y"]), float(piece.get("angle", 0.0))).bounds[1::2]
    return y0 < zone or y1 > depth - zone
