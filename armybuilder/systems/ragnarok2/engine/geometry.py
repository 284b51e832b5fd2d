"""Plane geometry of the table: oriented rectangles, distances, sight lines and sweeps.

Everything on a Rag'Narok 2 table is drawn here as an oriented rectangle (:class:`Box`): a
unit's footprint (its fighters' bases in ranks and files), a piece of scenery, a fighter's base.
A box is its centre, its *facing* (a unit vector: the front of a unit, the "depth" axis of a
piece) and its half width (across the facing) and half depth (along it).

Why rectangles only: the seed measures "from base edge to base edge" and a unit in close
formation is a block of square or oblong bases, so every distance the rules ask is a distance
between rectangles; a round piece (a rock, a tree) is drawn round but stands on its square.
Two convex polygons that do not overlap are nearest at a corner of one of them, so the gap
between two boxes is the least of eight corner-to-box distances, each a few multiplications
in the other box's frame: cheap enough to ask thousands of times a game.

The functions take floats, not objects, where they sit on hot paths (the compiled build turns
them into C arithmetic); :class:`Box` is a plain class with slots for the same reason.
"""

from __future__ import annotations

import math
from typing import Final

EPS: Final = 1e-9


class Box:
    """An oriented rectangle: centre (cx, cy), facing (ux, uy) a unit vector, half width hw
    (across the facing, along the right-hand vector (uy, -ux)) and half depth hd (along it).

    A box is a value, never changed once made: its axis-aligned bounds (x0, y0, x1, y1) are
    computed once with it (every broad-phase test reads them) and its corners the first time
    they are asked."""

    __slots__ = ("cx", "cy", "ux", "uy", "hw", "hd", "x0", "y0", "x1", "y1", "corner_list")

    def __init__(self, cx: float, cy: float, ux: float, uy: float, hw: float, hd: float) -> None:
        self.cx = cx
        self.cy = cy
        self.ux = ux
        self.uy = uy
        self.hw = hw
        self.hd = hd
        ex = abs(uy) * hw + abs(ux) * hd
        ey = abs(ux) * hw + abs(uy) * hd
        self.x0 = cx - ex
        self.y0 = cy - ey
        self.x1 = cx + ex
        self.y1 = cy + ey
        self.corner_list: list[tuple[float, float]] | None = None

    def corners(self) -> list[tuple[float, float]]:
        """Front-left, front-right, back-right, back-left (the same list every call: read only)."""
        found = self.corner_list
        if found is not None:
            return found
        cx, cy, ux, uy, hw, hd = self.cx, self.cy, self.ux, self.uy, self.hw, self.hd
        rx, ry = uy, -ux  # the right-hand vector
        fx, fy = ux * hd, uy * hd
        sx, sy = rx * hw, ry * hw
        found = self.corner_list = [
            (cx + fx - sx, cy + fy - sy),
            (cx + fx + sx, cy + fy + sy),
            (cx - fx + sx, cy - fy + sy),
            (cx - fx - sx, cy - fy - sy),
        ]
        return found

    def bounds(self) -> tuple[float, float, float, float]:
        """The axis-aligned bounding box (x0, y0, x1, y1)."""
        return self.x0, self.y0, self.x1, self.y1

    def local(self, px: float, py: float) -> tuple[float, float]:
        """(across, along) coordinates of a point in this box's frame (from its centre)."""
        dx, dy = px - self.cx, py - self.cy
        return dx * self.uy - dy * self.ux, dx * self.ux + dy * self.uy

    def world(self, a: float, b: float) -> tuple[float, float]:
        """The point at (across *a*, along *b*) of this box's frame."""
        return self.cx + a * self.uy + b * self.ux, self.cy - a * self.ux + b * self.uy

    def __repr__(self) -> str:
        return f"Box(c=({self.cx:.2f}, {self.cy:.2f}), u=({self.ux:.3f}, {self.uy:.3f}), w={2 * self.hw:.2f}, d={2 * self.hd:.2f})"


def box_from_front(x: float, y: float, ux: float, uy: float, width: float, depth: float) -> Box:
    """The box of a unit whose front edge is centred on (x, y), facing (ux, uy)."""
    hd = depth / 2.0
    return Box(x - ux * hd, y - uy * hd, ux, uy, width / 2.0, hd)


def point_box_distance(px: float, py: float, b: Box) -> float:
    """Distance from a point to a box (0 inside)."""
    dx, dy = px - b.cx, py - b.cy
    a = dx * b.uy - dy * b.ux
    c = dx * b.ux + dy * b.uy
    if a < 0.0:
        a = -a
    if c < 0.0:
        c = -c
    ex = a - b.hw
    ey = c - b.hd
    if ex <= 0.0:
        return ey if ey > 0.0 else 0.0
    if ey <= 0.0:
        return ex
    return math.sqrt(ex * ex + ey * ey)


def _project(b: Box, nx: float, ny: float) -> tuple[float, float]:
    """The interval a box covers on the axis (nx, ny)."""
    centre = b.cx * nx + b.cy * ny
    reach = abs(b.uy * nx - b.ux * ny) * b.hw + abs(b.ux * nx + b.uy * ny) * b.hd
    return centre - reach, centre + reach


def boxes_overlap(a: Box, b: Box, margin: float = 0.0) -> bool:
    """The boxes overlap by more than *margin* (separating axis test on their four axes); boxes
    that only touch (a unit in contact with another, base to base) do not overlap.

    Boxes whose bounds stand apart (by more than any rounding) do not overlap: the axes are
    tried only for boxes near each other."""
    if margin >= 0.0 and (a.x1 < b.x0 - 1e-6 or b.x1 < a.x0 - 1e-6 or a.y1 < b.y0 - 1e-6 or b.y1 < a.y0 - 1e-6):
        return False
    acx, acy, aux, auy, ahw, ahd = a.cx, a.cy, a.ux, a.uy, a.hw, a.hd
    bcx, bcy, bux, buy, bhw, bhd = b.cx, b.cy, b.ux, b.uy, b.hw, b.hd
    for k in range(4):
        if k == 0:
            nx, ny = aux, auy
        elif k == 1:
            nx, ny = auy, -aux
        elif k == 2:
            nx, ny = bux, buy
        else:
            nx, ny = buy, -bux
        # each box's interval on the axis (nx, ny): its centre's projection ± its reach
        centre = acx * nx + acy * ny
        reach = abs(auy * nx - aux * ny) * ahw + abs(aux * nx + auy * ny) * ahd
        a0, a1 = centre - reach, centre + reach
        centre = bcx * nx + bcy * ny
        reach = abs(buy * nx - bux * ny) * bhw + abs(bux * nx + buy * ny) * bhd
        b0, b1 = centre - reach, centre + reach
        if a1 - b0 <= margin or b1 - a0 <= margin:
            return False
    return True


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes, edge to edge (0 when they touch or overlap): the least
    distance from a corner of either to the other (:func:`point_box_distance`, inlined)."""
    if boxes_overlap(a, b):
        return 0.0
    best = 1e18
    for k in range(2):
        if k == 0:
            corners, o = a.corners(), b
        else:
            corners, o = b.corners(), a
        ocx, ocy, oux, ouy, ohw, ohd = o.cx, o.cy, o.ux, o.uy, o.hw, o.hd
        for px, py in corners:
            dx, dy = px - ocx, py - ocy
            across = dx * ouy - dy * oux
            along = dx * oux + dy * ouy
            if across < 0.0:
                across = -across
            if along < 0.0:
                along = -along
            ex = across - ohw
            ey = along - ohd
            if ex <= 0.0:
                d = ey if ey > 0.0 else 0.0
            elif ey <= 0.0:
                d = ex
            else:
                d = math.sqrt(ex * ex + ey * ey)
            if d < best:
                best = d
    return best


def segment_box_entry(x1: float, y1: float, x2: float, y2: float, b: Box, shrink: float = 0.0) -> float:
    """Where the segment (x1, y1)-(x2, y2) first enters the box shrunk by *shrink* on every side,
    as a fraction of the segment (0..1), or -1.0 when it misses it (Liang-Barsky clipping in the
    box's frame). A segment that only grazes an edge misses.

    A segment whose bounds stand clear of the box's (by more than any rounding) misses without
    the clipping: most sight lines and ways pass far from most pieces."""
    if x1 < x2:
        if x2 < b.x0 - 1e-6 or x1 > b.x1 + 1e-6:
            return -1.0
    elif x1 < b.x0 - 1e-6 or x2 > b.x1 + 1e-6:
        return -1.0
    if y1 < y2:
        if y2 < b.y0 - 1e-6 or y1 > b.y1 + 1e-6:
            return -1.0
    elif y1 < b.y0 - 1e-6 or y2 > b.y1 + 1e-6:
        return -1.0
    hw, hd = b.hw - shrink, b.hd - shrink
    if hw <= 0.0 or hd <= 0.0:
        return -1.0
    cx, cy, ux, uy = b.cx, b.cy, b.ux, b.uy
    # both ends in the box's frame (across, along), as Box.local() gives them
    ex, ey = x1 - cx, y1 - cy
    ax, ay = ex * uy - ey * ux, ex * ux + ey * uy
    ex, ey = x2 - cx, y2 - cy
    bx, by = ex * uy - ey * ux, ex * ux + ey * uy
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for k in range(4):
        if k == 0:
            p, q = -dx, ax + hw
        elif k == 1:
            p, q = dx, hw - ax
        elif k == 2:
            p, q = -dy, ay + hd
        else:
            p, q = dy, hd - ay
        if p == 0.0:
            if q <= 0.0:
                return -1.0
            continue
        r = q / p
        if p < 0.0:
            if r > t1:
                return -1.0
            if r > t0:
                t0 = r
        else:
            if r < t0:
                return -1.0
            if r < t1:
                t1 = r
    if t1 - t0 <= EPS:
        return -1.0
    return t0


def segment_hits_box(x1: float, y1: float, x2: float, y2: float, b: Box, shrink: float = 0.0) -> bool:
    return segment_box_entry(x1, y1, x2, y2, b, shrink) >= 0.0


def sweep_time(a: Box, vx: float, vy: float, b: Box) -> float:
    """The first fraction t of the move (vx, vy) at which box *a*, translated by t·(vx, vy),
    overlaps the static box *b* (separating axes), or 2.0 when it never does within the move.
    Boxes already overlapping give 0.0."""
    acx, acy, aux, auy, ahw, ahd = a.cx, a.cy, a.ux, a.uy, a.hw, a.hd
    bcx, bcy, bux, buy, bhw, bhd = b.cx, b.cy, b.ux, b.uy, b.hw, b.hd
    enter, leave = 0.0, 1.0
    for k in range(4):
        if k == 0:
            nx, ny = aux, auy
        elif k == 1:
            nx, ny = auy, -aux
        elif k == 2:
            nx, ny = bux, buy
        else:
            nx, ny = buy, -bux
        centre = acx * nx + acy * ny
        reach = abs(auy * nx - aux * ny) * ahw + abs(aux * nx + auy * ny) * ahd
        a0, a1 = centre - reach, centre + reach
        centre = bcx * nx + bcy * ny
        reach = abs(buy * nx - bux * ny) * bhw + abs(bux * nx + buy * ny) * bhd
        b0, b1 = centre - reach, centre + reach
        v = vx * nx + vy * ny
        if -EPS < v < EPS:
            if a1 - b0 <= EPS or b1 - a0 <= EPS:
                return 2.0  # separated on this axis for the whole move
            continue
        # a moves by t*v on this axis; the intervals overlap while b0 < a1 + t*v and a0 + t*v < b1
        t_in = (b0 - a1) / v
        t_out = (b1 - a0) / v
        if t_in > t_out:
            t_in, t_out = t_out, t_in
        if t_in > enter:
            enter = t_in
        if t_out < leave:
            leave = t_out
        if enter >= leave - EPS:
            return 2.0
    return enter


BAND_MARGIN: Final = 1e-4  # cm: far more than any rounding of the exact tests, far less than a base


def band_of(points: list[tuple[float, float]], ox: float, oy: float, dx: float, dy: float) -> tuple[float, float, float, float]:
    """The band the *points* span in the frame of origin (ox, oy) and unit axis (dx, dy): (least
    and greatest along the axis, least and greatest across it, toward (-dy, dx)). Every segment
    between two of the points lies in it (the band is convex): :func:`box_meets_band`."""
    t0 = n0 = 1e18
    t1 = n1 = -1e18
    for px, py in points:
        ex, ey = px - ox, py - oy
        t = ex * dx + ey * dy
        n = ey * dx - ex * dy
        if t < t0:
            t0 = t
        if t > t1:
            t1 = t
        if n < n0:
            n0 = n
        if n > n1:
            n1 = n
    return t0, t1, n0, n1


def box_meets_band(b: Box, ox: float, oy: float, dx: float, dy: float, band: tuple[float, float, float, float]) -> bool:
    """The box comes within :data:`BAND_MARGIN` of the band (:func:`band_of`) on both of its axes.
    A box that does not stands clear of every segment between the band's points by more than any
    rounding, so :func:`segment_box_entry` misses it for each of them: the test lets a sight line
    skip the pieces and units far to its side (a diagonal line's bounds take in half the table)."""
    t0, t1, n0, n1 = band
    ex, ey = b.cx - ox, b.cy - oy
    centre = ex * dx + ey * dy
    reach = abs(b.uy * dx - b.ux * dy) * b.hw + abs(b.ux * dx + b.uy * dy) * b.hd
    if centre + reach < t0 - BAND_MARGIN or centre - reach > t1 + BAND_MARGIN:
        return False
    centre = ey * dx - ex * dy
    reach = abs(b.uy * -dy - b.ux * dx) * b.hw + abs(b.ux * -dy + b.uy * dx) * b.hd
    return not (centre + reach < n0 - BAND_MARGIN or centre - reach > n1 + BAND_MARGIN)


def bounds_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_bounds(x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float]:
    return (x1 if x1 < x2 else x2), (y1 if y1 < y2 else y2), (x2 if x1 < x2 else x1), (y2 if y1 < y2 else y1)


def unit_vector(dx: float, dy: float) -> tuple[float, float]:
    """(dx, dy) scaled to length 1 ((0, 1) for a null vector)."""
    n = math.sqrt(dx * dx + dy * dy)
    if n < EPS:
        return 0.0, 1.0
    return dx / n, dy / n


def angle_between(ax: float, ay: float, bx: float, by: float) -> float:
    """The unsigned angle in degrees between two unit vectors."""
    c = ax * bx + ay * by
    if c > 1.0:
        c = 1.0
    elif c < -1.0:
        c = -1.0
    return math.degrees(math.acos(c))


def in_front(px: float, py: float, b: Box) -> bool:
    """The point stands in the 180° field of view of the box's front: on the front side of the
    line of its front edge (seed: a fighter's field of view is 180° from the front of its base)."""
    return (px - b.cx) * b.ux + (py - b.cy) * b.uy >= b.hd - EPS


def box_in_front(target: Box, b: Box) -> bool:
    """Some part of *target* stands in the field of view of *b*'s front (180°)."""
    for px, py in target.corners():
        if in_front(px, py, b):
            return True
    return False
