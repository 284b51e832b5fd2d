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
from types import FunctionType
from typing import Final

BOARD: Final = 400.0
EPS: Final = 0.5
#: infinity and not-a-number as module constants: compiled code reads a C double, not ``math``'s attribute
INF: Final = math.inf
NAN: Final = math.nan
_SPLIT: Final = 134217729.0  # 2**27 + 1: Veltkamp's split of a double into two halves
_TINY: Final = 2.2250738585072014e-308  # the smallest normal double


@dataclass
class Piece:
    kind: str  # rough / blocking / hazardous
    x: float
    y: float
    r: float

    def contains(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 < self.r * self.r


def hypot(x: float, y: float) -> float:
    """``math.hypot(x, y)`` to the last bit, written out for the compiled engine.

    Why: compiled code calls the standard library's hypot as a Python function (the name
    looked up, both floats boxed, the result unboxed), several thousand times a game.  This
    is CPython's own algorithm (``vector_norm`` in Modules/mathmodule.c) for two
    coordinates: scaled by the power of two that brings the larger into [0.5, 1), exact
    squares (Dekker's product, where CPython uses fma: the same exact error), compensated
    sums, a square root and one differential correction.  Zero, subnormal, infinite and NaN
    inputs are answered by ``math.hypot`` itself.  A test compares the two
    over millions of pairs; the pure-Python engine uses ``math.hypot`` (see below).
    """
    ax = x if x >= 0.0 else -x
    ay = y if y >= 0.0 else -y
    big = 0.0
    if ax > big:
        big = ax
    if ay > big:
        big = ay
    if big < _TINY or big == INF or x != x or y != y:  # zeros, subnormals, inf, NaN: rare
        return math.hypot(x, y)
    # the power of two that brings ``big`` into [0.5, 1): the loops find the one answer from any
    # power of two, so a start near it (board distances run to a few hundred mm) saves steps
    scale = 1.0 if big < 16.0 else 0.001953125 if big >= 256.0 else 0.03125
    while big * scale >= 1.0:
        scale *= 0.5
    while big * scale < 0.5:
        scale *= 2.0
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    a = ax * scale
    c = _SPLIT * a
    hi = c - (c - a)
    lo = a - hi
    p = a * a
    frac1 += lo * lo - (((p - hi * hi) - lo * hi) - hi * lo)
    s = csum + p
    frac2 += (csum - s) + p
    csum = s
    a = ay * scale
    c = _SPLIT * a
    hi = c - (c - a)
    lo = a - hi
    p = a * a
    frac1 += lo * lo - (((p - hi * hi) - lo * hi) - hi * lo)
    s = csum + p
    frac2 += (csum - s) + p
    csum = s
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    a = -h
    c = _SPLIT * a
    hi = c - (c - a)
    lo = a - hi
    c = _SPLIT * h
    hh = c - (c - h)
    hl = h - hh
    p = a * h
    frac1 += lo * hl - (((p - hi * hh) - lo * hh) - hi * hl)
    s = csum + p
    frac2 += (csum - s) + p
    csum = s
    t = csum - 1.0 + (frac1 + frac2)
    h += t / (2.0 * h)
    return h / scale


#: the function above under a name of its own: the tests compare it with ``math.hypot``
hypot_replica = hypot
if isinstance(hypot_replica, FunctionType):
    # Interpreted (the pure-Python engine): the standard library's C function gives the same
    # bits faster, and every module imports ``hypot`` from here after this line has run.
    globals()["hypot"] = math.hypot


def dist(ax: float, ay: float, bx: float, by: float) -> float:
    return hypot(ax - bx, ay - by)


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from point P to segment AB."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return hypot(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return hypot(px - (ax + t * dx), py - (ay + t * dy))


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
    """The worst terrain under a point: hazardous, then blocking, then rough."""
    found: str | None = None
    for p in pieces:
        dx, dy = x - p.x, y - p.y
        if dx * dx + dy * dy < p.r * p.r:  # Piece.contains(), inlined
            kind = p.kind
            if kind == "hazardous":
                return kind
            if kind == "blocking" or found is None:
                found = kind
    return found


def near_blocking(pieces: list[Piece], x: float, y: float, radius: float) -> bool:
    """Is a base at (x, y) touching blocking terrain?"""
    return any(p.kind == "blocking" and dist(x, y, p.x, p.y) <= p.r + radius + EPS for p in pieces)
