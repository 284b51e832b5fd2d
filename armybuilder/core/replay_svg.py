"""A game's replay as one SVG picture: the table drawn once per frame, frame after frame.

``playtest --replay FILE.svg`` writes it from the neutral :class:`~.shapes.BattleMap` a system
with a table returns, so it knows nothing of any game's rules: the deployment zones as bands,
the scenery as outlines (impassable pieces filled darker, round ones as ellipses), each unit as
its block of bases in its side's colour with a tick on its front and its name, fighters and
state beside it. Panels run left to right, two a row, top to bottom in the game's order, each
captioned with its round and moment; under each panel the units that fight or rout are listed.
Every string that came from a file is escaped for XML (and its control characters shown).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .sanitize import visible
from .shapes import BattleMap, MapFrame, MapPiece, MapUnit

SCALE = 4.0  # px per cm
COLUMNS = 2
MARGIN = 12.0
CAPTION = 22.0
LEGEND = 46.0
SIDE_FILL = ("#3a6fc4", "#c4453a")
SIDE_LIGHT = ("#dbe6f7", "#f7dcd9")
STATE_MARK = {"disorganized": "disorganized", "rout": "in rout"}


def _text(value: object) -> str:
    return escape(visible(value), {'"': "&quot;"})


def _points(outline: tuple[tuple[float, float], ...], depth: float, ox: float, oy: float) -> str:
    # y grows from the first list's edge: drawn at the bottom, as the first player sees the table
    return " ".join(f"{ox + x * SCALE:.1f},{oy + (depth - y) * SCALE:.1f}" for x, y in outline)


def _piece(piece: MapPiece, depth: float, ox: float, oy: float) -> str:
    fill = "#8d8173" if piece.impassable else "#b9c98f"
    title = f"<title>{_text(piece.name)}, {piece.height:g} cm high{'' if piece.impassable else ', passable'}</title>"
    if piece.round:
        xs = [x for x, _ in piece.outline]
        ys = [y for _, y in piece.outline]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        a, b = piece.outline[0], piece.outline[1]
        c = piece.outline[2]
        rx = math.dist(a, b) / 2.0
        ry = math.dist(b, c) / 2.0
        angle = math.degrees(math.atan2(-(b[1] - a[1]), b[0] - a[0]))
        return (f'<ellipse cx="{ox + cx * SCALE:.1f}" cy="{oy + (depth - cy) * SCALE:.1f}" rx="{rx * SCALE:.1f}" '
                f'ry="{ry * SCALE:.1f}" transform="rotate({angle:.1f} {ox + cx * SCALE:.1f} {oy + (depth - cy) * SCALE:.1f})" '
                f'fill="{fill}" stroke="#5b5248" stroke-width="1">{title}</ellipse>')  # fmt: skip
    return f'<polygon points="{_points(piece.outline, depth, ox, oy)}" fill="{fill}" stroke="#5b5248" stroke-width="1">{title}</polygon>'


def _unit(unit: MapUnit, depth: float, ox: float, oy: float) -> str:
    side = 1 if unit.side else 0
    fill = SIDE_FILL[side] if unit.state != "rout" else SIDE_LIGHT[side]
    dash = ' stroke-dasharray="3,2"' if unit.state == "disorganized" else ""
    stroke = "#000" if unit.engaged else "#222"
    width = 2.0 if unit.engaged else 0.8
    fl, fr = unit.outline[0], unit.outline[1]
    mx, my = (fl[0] + fr[0]) / 2.0, (fl[1] + fr[1]) / 2.0
    tx, ty = mx + unit.facing[0] * 2.5, my + unit.facing[1] * 2.5
    label = f"{unit.name} ({unit.fighters}{', ' + STATE_MARK[unit.state] if unit.state in STATE_MARK else ''})"
    cx = sum(x for x, _ in unit.outline) / 4.0
    cy = sum(y for _, y in unit.outline) / 4.0
    order = f", {unit.order} order" if unit.order else ""
    return (
        f'<g><title>{_text(label)}{_text(order)}{", in a fray" if unit.engaged else ""}</title>'
        f'<polygon points="{_points(unit.outline, depth, ox, oy)}" fill="{fill}" fill-opacity="0.85" stroke="{stroke}" stroke-width="{width}"{dash}/>'
        f'<line x1="{ox + mx * SCALE:.1f}" y1="{oy + (depth - my) * SCALE:.1f}" x2="{ox + tx * SCALE:.1f}" y2="{oy + (depth - ty) * SCALE:.1f}" stroke="#111" stroke-width="1.5"/>'
        f'<text x="{ox + cx * SCALE:.1f}" y="{oy + (depth - cy) * SCALE + 3:.1f}" font-size="8" text-anchor="middle" fill="#111">{_text(_short(unit.name))}·{unit.fighters}</text></g>'
    )  # fmt: skip


def _short(name: str) -> str:
    return name if len(name) <= 14 else name[:13] + "…"


def _panel(game: BattleMap, frame: MapFrame, ox: float, oy: float) -> list[str]:
    w, d = game.width * SCALE, game.depth * SCALE
    out = [
        f'<text x="{ox:.1f}" y="{oy - 6:.1f}" font-size="12" font-weight="bold">{_text(_caption(frame))}</text>',
        f'<rect x="{ox:.1f}" y="{oy:.1f}" width="{w:.1f}" height="{d:.1f}" fill="#eef0e2" stroke="#333"/>',
    ]
    for side, (low, high) in enumerate(game.zones):
        out.append(f'<rect x="{ox:.1f}" y="{oy + (game.depth - high) * SCALE:.1f}" width="{w:.1f}" height="{(high - low) * SCALE:.1f}" '
                   f'fill="{SIDE_LIGHT[side]}" fill-opacity="0.6"/>')  # fmt: skip
    out += [_piece(p, game.depth, ox, oy) for p in game.pieces]
    out += [_unit(u, game.depth, ox, oy) for u in frame.units]
    fighting = [u for u in frame.units if u.engaged or u.state == "rout"]
    notes = "; ".join(f"{'A' if u.side == 0 else 'B'} {u.name}: {'in a fray' if u.engaged else 'in rout'}" for u in fighting[:6])
    if len(fighting) > 6:
        notes += f"; {len(fighting) - 6} more"
    standing = [sum(u.fighters for u in frame.units if u.side == s) for s in (0, 1)]
    out.append(f'<text x="{ox:.1f}" y="{oy + d + 14:.1f}" font-size="10">fighters on the table: A {standing[0]}, B {standing[1]}</text>')
    if notes:
        out.append(f'<text x="{ox:.1f}" y="{oy + d + 28:.1f}" font-size="9">{_text(notes)}</text>')
    return out


def _caption(frame: MapFrame) -> str:
    return "Deployment" if frame.round == 0 else f"Round {frame.round}: {frame.caption}"


def replay_svg(game: BattleMap) -> str:
    """The SVG text of *game*'s replay (see the module doc)."""
    panel_w = game.width * SCALE + 2 * MARGIN
    panel_h = game.depth * SCALE + CAPTION + LEGEND
    frames = game.frames
    rows = max(1, math.ceil(len(frames) / COLUMNS))
    head = 58.0
    total_w = COLUMNS * panel_w
    total_h = head + rows * panel_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{total_w:.0f}" height="{total_h:.0f}" fill="white"/>',
        f'<text x="{MARGIN}" y="22" font-size="16" font-weight="bold">{_text(game.title)}: {game.width:g} × {game.depth:g} cm</text>',
        f'<text x="{MARGIN}" y="42" font-size="12"><tspan fill="{SIDE_FILL[0]}">■ A: {_text(game.sides[0])} (bottom edge)</tspan>'
        f'  <tspan fill="{SIDE_FILL[1]}">■ B: {_text(game.sides[1])} (top edge)</tspan>'
        "  · a tick marks a unit's front; a thick outline: in a fray; dashed: disorganized; pale: in rout</text>",
    ]  # fmt: skip
    for k, frame in enumerate(frames):
        col, row = k % COLUMNS, k // COLUMNS
        out += _panel(game, frame, col * panel_w + MARGIN, head + row * panel_h + CAPTION)
    out.append("</svg>")
    return "\n".join(out) + "\n"
