"""The abstract Rattle and Rend board: a 400 mm square, round bases, round terrain.

Geometry the seed needs and nothing more (seed: Ranges and Measurements, Movement,
Line of Sight, Terrain Types):

- distances are centre to centre; range bands are B (bases touching), S 80 mm,
  M 160 mm, L 240 mm (from the catalogue's ``ranges`` table);
- a move of band S is a straight line, M may pivot once, L twice; a group's centre
  may not pass over another group's base (it stops in contact) nor into blocking
  terrain; voluntary moves also keep out of hazardous terrain (and Transports out
  of rough terrain, which would break them);
- line of sight is a segment from centre to centre that crosses no blocking
  terrain and no other group's base;
- terrain pieces are discs (centre, radius); a group is in a piece when its centre is.

Everything here is deterministic: randomness stays in :mod:`game`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

BOARD = 400.0
EPS = 0.5
#: infinity and not-a-number as module constants: compiled code reads a C double, not ``math``'s attribute
INF: Final = math.inf
NAN: Final = math.nan


@dataclass
class Piece:
    kind: str  # rough / blocking / hazardous
    x: float
    y: float
    r: float

    def contains(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 < self.r * self.r


def dist(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(ax - bx, ay - by)


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from point P to segment AB."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def first_entry(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, r: float) -> float | None:
    """Fraction t in [0, 1] of AB where it first enters the disc (C, r); None if never.

    A segment starting inside the disc does not "enter" it (a group may leave
    the place it stands in).
    """
    dx, dy = bx - ax, by - ay
    fx, fy = ax - cx, ay - cy
    a = dx * dx + dy * dy
    if a == 0:
        return None
    c = fx * fx + fy * fy - r * r
    if c <= 0:
        return None  # starts inside
    b = 2 * (fx * dx + fy * dy)
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    t = (-b - math.sqrt(disc)) / (2 * a)
    return t if 0.0 <= t <= 1.0 else None


def clamp(x: float, y: float, r: float) -> tuple[float, float]:
    return min(BOARD - r, max(r, x)), min(BOARD - r, max(r, y))


def terrain_at(pieces: list[Piece], x: float, y: float) -> str | None:
    """The worst terrain under a point: hazardous, then rough (blocking is never entered)."""
    kinds = {p.kind for p in pieces if p.contains(x, y)}
    for kind in ("hazardous", "blocking", "rough"):
        if kind in kinds:
            return kind
    return None


def near_blocking(pieces: list[Piece], x: float, y: float, radius: float) -> bool:
    """Is a base at (x, y) touching blocking terrain?"""
    return any(p.kind == "blocking" and dist(x, y, p.x, p.y) <= p.r + radius + EPS for p in pieces)
