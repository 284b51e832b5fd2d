"""Distances, reach, line of sight and cover on the abstract Morpheus board (inches, round bases)."""

from __future__ import annotations

import math
from bisect import bisect_left

from .fighters import BASE_RADIUS, BASES, Fighter, Weapon
from .gamestate import GameState


def dist(a: Fighter, b: Fighter) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def gap(a: Fighter, b: Fighter) -> float:
    """Distance between the edges of two bases (0 = base contact)."""
    d = math.hypot(a.x - b.x, a.y - b.y) - BASES
    return d if d > 0.0 else 0.0


def seg_point_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> tuple[float, float]:
    """(distance from P to segment AB, position t in 0..1 of the closest point)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay), 0.0
    t = ((px - ax) * dx + (py - ay) * dy) / length2
    t = 0.0 if t <= 0.0 else 1.0 if t >= 1.0 else t  # clamped to the segment
    return math.hypot(ax + t * dx - px, ay + t * dy - py), t


def off_segment(ax: float, ay: float, bx: float, by: float, px: float, py: float, within: float) -> bool:
    """True when P is surely ``within`` or farther from segment AB: farther than that (and a
    hair) from the box round AB on one axis.  A cheap test before :func:`seg_point_distance`,
    which is still what decides for the points it lets through."""
    reach = within + 1e-6
    if ax <= bx:
        if px < ax - reach or px > bx + reach:
            return True
    elif px < bx - reach or px > ax + reach:
        return True
    if ay <= by:
        return py < ay - reach or py > by + reach
    return py < by - reach or py > ay + reach


class Geometry(GameState):
    """Geometry queries of :class:`battle.Battle`."""

    __slots__ = ()

    def index_positions(self) -> None:
        """Sort the models on the table by x (ties by their order in ``everyone``): the index
        :meth:`place` keeps and a free spot is looked up in (``_xs`` the x's, ``_xf`` the
        models, in the same order)."""
        order = sorted((f.x, k) for k, f in enumerate(self.everyone) if not f.removed)
        self._xs = [x for x, _ in order]
        self._xf = [self.everyone[k] for _, k in order]

    def unindex(self, f: Fighter) -> None:
        """Take f out of the x index (it moves, or leaves the table)."""
        xs, xf = self._xs, self._xf
        i = bisect_left(xs, f.x)
        while xf[i] is not f:  # among equal x's
            i += 1
        del xs[i], xf[i]

    def place(self, f: Fighter, x: float, y: float) -> None:
        """Put f at (x, y): the one way a model moves in play, since it keeps the squared
        distances between f and each enemy (``Fighter.d2``, both ways) that choosing who
        activates and finding who is engaged read instead of working them out again, and
        the models sorted by x that a free spot is looked up in."""
        if x != f.x:
            self.unindex(f)
            i = bisect_left(self._xs, x)
            self._xs.insert(i, x)
            self._xf.insert(i, f)
        f.x, f.y = x, y
        row, slot = f.d2, f.slot
        for e in self.living[1 - f.side]:  # a removed enemy stays infinitely far
            dx = x - e.x
            dy = y - e.y
            row[e.slot] = e.d2[slot] = dx * dx + dy * dy

    def enemies(self, f: Fighter) -> list[Fighter]:
        """The enemies still on the table (a shared list: callers never change it)."""
        return self.living[1 - f.side]

    def friends(self, f: Fighter) -> list[Fighter]:
        return [o for o in self.living[f.side] if o is not f]

    def engaged_with(self, f: Fighter, low: float | None = None) -> list[Fighter]:
        """The enemies engaged with f; ``low``: min(f.d2) when the caller has it already."""
        row = f.d2
        if not row or (min(row) if low is None else low) > f._engage_max:
            return []  # every enemy beyond the longest engagement distance: the usual case
        out = []  # the living enemies in slot order (a removed one is infinitely far anyway)
        limits = self.engage_limits[f.side][f.index]
        for e in self.living[1 - f.side]:
            s = e.slot
            if row[s] <= limits[s] and not e.incapacitated:
                out.append(e)
        return out

    def in_reach(self, f: Fighter, e: Fighter, w: Weapon) -> bool:
        return gap(f, e) <= w._touch

    def los(self, a: Fighter, b: Fighter) -> bool:
        if not self.los_blockers:
            return True
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        lox, hix = (ax, bx) if ax <= bx else (bx, ax)  # off_segment()'s box, inlined
        loy, hiy = (ay, by) if ay <= by else (by, ay)
        size = a.size if a.size >= b.size else b.size
        for t in self.los_blockers:
            if t.size >= size:
                reach = t.r + 1e-6
                px, py = t.x, t.y
                if px < lox - reach or px > hix + reach or py < loy - reach or py > hiy + reach:
                    continue
                d, _ = seg_point_distance(ax, ay, bx, by, t.x, t.y)
                if d < t.r and math.hypot(a.x - t.x, a.y - t.y) > t.r and math.hypot(b.x - t.x, b.y - t.y) > t.r:
                    return False
        return True

    def shot_blocked_by_models(self, a: Fighter, b: Fighter) -> bool:
        """A model at least a's Size stands across the line from a to b (its centre within 0.9
        of a radius of the line, strictly between them).  Only the models whose x lies in the
        line's box (widened by that much and a hair) can: they are read from the x index."""
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        within = BASE_RADIUS * 0.9
        reach = within + 1e-6  # the box test of off_segment(), once for every model
        lox, hix = (ax - reach, bx + reach) if ax <= bx else (bx - reach, ax + reach)
        loy, hiy = (ay - reach, by + reach) if ay <= by else (by - reach, ay + reach)
        xs, xf = self._xs, self._xf
        i, n, size = bisect_left(xs, lox), len(xs), a.size
        while i < n and xs[i] <= hix:
            o = xf[i]
            i += 1
            if o is a or o is b or o.size < size:
                continue
            oy = o.y
            if oy < loy or oy > hiy:
                continue
            d, t = seg_point_distance(ax, ay, bx, by, o.x, oy)
            if 0.0 < t < 1.0 and d < within:
                return True
        return False

    def cover(self, a: Fighter, b: Fighter) -> str | None:
        best = None
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        lox, hix = (ax, bx) if ax <= bx else (bx, ax)
        loy, hiy = (ay, by) if ay <= by else (by, ay)
        for t, kind in self.covers:
            reach = t.r + BASE_RADIUS + 1e-6  # off_segment(), inlined
            px, py = t.x, t.y
            if px < lox - reach or px > hix + reach or py < loy - reach or py > hiy + reach:
                continue
            d, _ = seg_point_distance(ax, ay, bx, by, t.x, t.y)
            if d >= t.r + BASE_RADIUS:
                continue
            a_near = math.hypot(a.x - t.x, a.y - t.y) <= t.r + 1 + BASE_RADIUS
            b_near = math.hypot(b.x - t.x, b.y - t.y) <= t.r + 1 + BASE_RADIUS
            if a_near and not b_near:
                continue  # controlling cover: the attacker's own cover does not count
            if kind == "heavy" or best is None:
                best = kind
        return best
