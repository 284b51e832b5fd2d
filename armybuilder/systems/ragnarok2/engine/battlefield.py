"""The table of one battle: its size, the deployment zones and the scenery pieces on it.

A layout arrives as a *spec*, a plain JSON-able mapping (see
:func:`armybuilder.systems.ragnarok2.layouts.layout_spec`): the table's size and zones, the
pieces set at fixed places and the pieces to scatter, every piece's footprint, height and
passability already resolved from the catalogue's scenery kinds. Plain data, so the same spec
travels to worker processes and into ``--json``.

:func:`battlefield_for` places it: fixed pieces where the spec says, scattered pieces afresh
from the game's generator (decision R2-T6: at random in the no man's land, a gap apart from
every other piece and off the deployment zones), each as a :class:`Piece` whose Size for
line of sight comes from its height (R2-D10). A layout without scattered pieces gives the same
:class:`Battlefield` for every game, so it is built once and shared.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from .geometry import Box, boxes_overlap

# Sizes in the order line of sight compares them (R2-D10); 0: no obstacle at all.
SIZE_RANK: dict[str, int] = {"small": 1, "medium": 2, "large": 3, "enormous": 4, "colossal": 5, "gigantic": 6}
SIZE_WORDS = ("none", "Small", "Normal", "Large", "Extra large", "Very large", "Very large (Gigantic)")

# Tries to place one scattered piece before it is left out (a crowded user layout).
_TRIES = 200


def scenery_rank(height: float) -> int:
    """The Size of a piece of scenery from its height (R2-D10, after the FAQ's section IV):
    under 1 cm it is ignored (0); 1-3 Small, 3-6 Normal, 6-8 Large, 8-10 Extra large,
    10-14 Very large (Colossal), over 14 Gigantic."""
    if height < 1.0:
        return 0
    if height < 3.0:
        return 1
    if height < 6.0:
        return 2
    if height < 8.0:
        return 3
    if height < 10.0:
        return 4
    if height < 14.0:
        return 5
    return 6


class Piece:
    """A piece of scenery on the table."""

    __slots__ = ("name", "kind", "box", "height", "rank", "impassable", "round", "bounds")

    def __init__(self, name: str, kind: str, box: Box, height: float, impassable: bool, round_: bool) -> None:
        self.name = name
        self.kind = kind
        self.box = box
        self.height = height
        self.rank = scenery_rank(height)
        self.impassable = impassable
        self.round = round_
        self.bounds = box.bounds()

    def describe(self) -> str:
        """``ruin at (64, 58), 12 × 6 cm, 5 cm high (Normal Size), impassable``."""
        b = self.box
        angle = round(math.degrees(math.atan2(b.ux, b.uy))) % 180
        turned = f", turned {angle}°" if angle else ""
        passing = "impassable" if self.impassable else "crossed by units"
        return (
            f"{self.name} at ({b.cx:.0f}, {b.cy:.0f}), {2 * b.hw:g} × {2 * b.hd:g} cm{turned}, "
            f"{self.height:g} cm high ({SIZE_WORDS[self.rank]} Size), {passing}"
        )


class Battlefield:
    """The table of one game: size, deployment zones and scenery."""

    __slots__ = ("name", "title", "width", "depth", "deployment", "scout_distance", "pieces", "blocking", "sight", "scattered", "spec")

    def __init__(self, spec: dict[str, Any], pieces: list[Piece], scattered: bool) -> None:
        self.spec = spec
        self.name: str = str(spec.get("name", "custom"))
        self.title: str = str(spec.get("title", self.name))
        self.width: float = float(spec["width"])
        self.depth: float = float(spec["depth"])
        self.deployment: float = float(spec["deployment"])
        self.scout_distance: float = float(spec.get("scout", 10.0))
        self.pieces = pieces
        self.blocking = [p for p in pieces if p.impassable]  # what movement goes round
        self.sight = [p for p in pieces if p.rank > 0]  # what can block a line of sight
        self.scattered = scattered  # placed afresh for this game

    def zone(self, side: int) -> tuple[float, float]:
        """The band of depth (y) a side deploys in."""
        return (0.0, self.deployment) if side == 0 else (self.depth - self.deployment, self.depth)

    def describe(self) -> list[str]:
        """The layout for the log: its name, size, and every piece with its place."""
        how = "placed afresh for this game from its seed" if self.scattered else "as the layout sets them"
        head = f"table: {self.title} ({self.name}), {self.width:g} × {self.depth:g} cm, deployment zones {self.deployment:g} cm deep"
        if not self.pieces:
            return [head + ", no scenery"]
        return [head + f"; {len(self.pieces)} pieces of scenery, {how}:"] + [f"  {p.describe()}" for p in self.pieces]


def placed_piece(entry: dict[str, Any], x: float, y: float, angle: float) -> Piece:
    rad = math.radians(angle)
    # The piece's depth axis turned by *angle* from the first army's edge toward the right.
    ux, uy = math.sin(rad), math.cos(rad)
    box = Box(x, y, ux, uy, float(entry["width"]) / 2.0, float(entry["depth"]) / 2.0)
    return Piece(str(entry.get("name") or entry.get("kind") or "piece"), str(entry.get("kind", "")), box,
                 float(entry["height"]), bool(entry.get("impassable", True)), entry.get("shape") == "round")  # fmt: skip


_FIXED: dict[str, Battlefield] = {}  # fixed layouts by their spec's JSON: one Battlefield for every game


def battlefield_for(spec: dict[str, Any], rng: np.random.Generator | None) -> Battlefield:
    """The table of a game on *spec*: fixed pieces where they stand, scattered ones placed from
    *rng* (the game's generator, read before any die: the same seed, the same table)."""
    if not spec.get("scatter") or rng is None:
        key = json.dumps(spec, sort_keys=True)
        field = _FIXED.get(key)
        if field is None:
            if len(_FIXED) > 32:
                _FIXED.clear()
            field = _FIXED[key] = Battlefield(spec, [placed_piece(p, float(p["x"]), float(p["y"]), float(p.get("angle", 0.0))) for p in spec.get("pieces", ())], False)
        return field
    pieces = [placed_piece(p, float(p["x"]), float(p["y"]), float(p.get("angle", 0.0))) for p in spec.get("pieces", ())]
    width, depth, zone = float(spec["width"]), float(spec["depth"]), float(spec["deployment"])
    gap = float(spec.get("gap", 13.0))
    margin = float(spec.get("margin", 8.0))
    low, high = zone + margin, depth - zone - margin
    for entry in spec["scatter"]:
        # Uniforms in a block per piece: where, how turned, then the retries' (a fixed count, so
        # a rejected try never shifts the table of a later game: each game has its own generator).
        draws = rng.random(3 * _TRIES).tolist()
        for t in range(_TRIES):
            u, v, w = draws[3 * t], draws[3 * t + 1], draws[3 * t + 2]
            half = max(float(entry["width"]), float(entry["depth"])) / 2.0
            x = half + u * (width - 2.0 * half)
            y = low + half + v * max(high - low - 2.0 * half, 0.0)
            angle = 0.0 if entry.get("shape") == "round" else float(int(w * 4) * 45 % 180)
            candidate = placed_piece(entry, x, y, angle)
            x0, y0, x1, y1 = candidate.bounds
            if x0 < 0.0 or x1 > width or y0 < low or y1 > high:
                continue  # turned, it would reach off the table or into a zone's margin
            grown = Box(x, y, candidate.box.ux, candidate.box.uy, candidate.box.hw + gap, candidate.box.hd + gap)
            if all(not boxes_overlap(grown, p.box) for p in pieces):
                pieces.append(candidate)
                break
    return Battlefield(spec, pieces, True)
