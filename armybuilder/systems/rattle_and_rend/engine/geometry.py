"""Distances, ranges, line of sight and paths of a game in play (the board model of :mod:`board`).

While the AI scores its options nothing moves, so :meth:`Geometry.los`, paths and ranges are
remembered in ``Game.cache`` for as long as the board signature stays the same."""

from __future__ import annotations

import math
from typing import Final

from .board import EPS, clamp, dist, hypot
from .gamestate import GameState
from .state import Unit

#: what can block a line of sight or a move on one board: blocking pieces as (x, y, r), and
#: groups on the board as (group, x, y, radius)
Blockers = tuple[list[tuple[float, float, float]], list[tuple[Unit, float, float, float]]]
#: the board memo's keys of each side's groups on the board, without and with Wards (built once)
_ALLIES_KEYS: Final = ((("allies", 0, False), ("allies", 0, True)), (("allies", 1, False), ("allies", 1, True)))


class Geometry(GameState):
    """Geometry queries of :class:`game.Game` (cached while the board stands still)."""

    __slots__ = ()

    def mm(self, band: str | None) -> float:
        return self.band_mm.get(band or "B", 0.0)

    def contact(self, a: Unit, b: Unit) -> bool:
        return hypot(a.x - b.x, a.y - b.y) <= a.radius + b.radius + EPS

    def within(self, a: Unit, b: Unit, band: str | None) -> bool:
        """Is b within ``band`` of a (B: bases touching)?"""
        if band is None:
            return False
        d = hypot(a.x - b.x, a.y - b.y)
        return d <= a.radius + b.radius + EPS or (band != "B" and d <= self.band_mm.get(band, 0.0))

    def los(self, a: Unit, b: Unit) -> bool:
        cache = self.cache
        if cache is not None:
            key = ("los", a.uid, b.uid) if a.uid < b.uid else ("los", b.uid, a.uid)
            found: bool | None = cache.get(key)
            if found is None:
                board: Blockers | None = cache.get("blockers")
                if board is None:
                    board = cache["blockers"] = self._blockers()
                found = cache[key] = self._los_through(a, b, board[0], board[1])
            return found
        return self._los(a, b)

    def _blockers(self) -> Blockers:
        """What can block a line of sight on this board: (blocking pieces as (x, y, r), groups
        on the board as (group, x, y, radius)), listed once per board (board memo)."""
        walls = [(p.x, p.y, p.r) for p in self.pieces if p.kind == "blocking"]
        bases = [(o, o.x, o.y, o.radius) for o in self.units if o.state == "board"]
        return walls, bases

    def _los_through(self, a: Unit, b: Unit, walls: list[tuple[float, float, float]], bases: list[tuple[Unit, float, float, float]]) -> bool:
        """:meth:`_los` over the board's blockers listed once (the same arithmetic)."""
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        lox, hix = (ax, bx) if ax <= bx else (bx, ax)
        loy, hiy = (ay, by) if ay <= by else (by, ay)
        lox, loy, hix, hiy = lox - 1e-6, loy - 1e-6, hix + 1e-6, hiy + 1e-6
        for px, py, r in walls:
            if px + r < lox or px - r > hix or py + r < loy or py - r > hiy:
                continue
            if length2 == 0:
                d = hypot(px - ax, py - ay)
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                d = hypot(px - (ax + t * dx), py - (ay + t * dy))
            if d < r:
                return False
        for o, px, py, r in bases:
            if px + r < lox or px - r > hix or py + r < loy or py - r > hiy:
                continue
            if o is a or o is b:
                continue
            if length2 == 0:
                d = hypot(px - ax, py - ay)
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                d = hypot(px - (ax + t * dx), py - (ay + t * dy))
            if d < r - 1.0:
                return False
        return True

    def _los(self, a: Unit, b: Unit) -> bool:
        """Line of sight with no board memo at hand: the same test over the blockers listed now."""
        board = self._blockers()
        return self._los_through(a, b, board[0], board[1])

    def enemies(self, u: Unit) -> list[Unit]:
        """The groups of u's foes on the board; listed once per board memo while it is open (kept
        beside the memo rather than in it: no key to build and hash on every call)."""
        cache = self.cache
        if cache is not None:
            lists = self.side_lists
            if self.side_lists_of is not cache:
                self.side_lists_of = cache
                lists[0] = lists[1] = None
            other = 1 - u.side
            found = lists[other]
            if found is None:
                found = lists[other] = [o for o in self.sides[other].units if o.state == "board"]
            return found
        return [o for o in self.sides[1 - u.side].units if o.state == "board"]

    def allies(self, u: Unit, wards: bool = False) -> list[Unit]:
        cache = self.cache
        if cache is not None:  # the side's groups on the board listed once per board, u left out here
            key = _ALLIES_KEYS[u.side][1 if wards else 0]
            mine: list[Unit] | None = cache.get(key)
            if mine is None:
                mine = cache[key] = [o for o in self.sides[u.side].units if o.state == "board" and (wards or o.gtype != "ward")]
            return [o for o in mine if o is not u]
        return [o for o in self.sides[u.side].units if o.state == "board" and o is not u and (wards or o.gtype != "ward")]

    def _terrain_obstacles(self, u: Unit, voluntary: bool) -> list[tuple[float, float, float]]:
        """Terrain discs a moving centre of ``u`` may not enter (terrain never changes after
        setup: listed once per Heavy trait and kind of move)."""
        key = (u.heavy_trait, voluntary)
        terrain = self.terrain_obstacles.get(key)
        if terrain is None:
            terrain = []
            if u.heavy_trait != "flyer":
                for p in self.pieces:
                    if p.kind == "blocking" or (voluntary and p.kind == "hazardous") or (u.heavy_trait == "transport" and p.kind != "blocking"):
                        terrain.append((p.x, p.y, p.r))
            self.terrain_obstacles[key] = terrain
        return terrain

    def path_end(self, u: Unit, tx: float, ty: float, length: float, pivots: int, voluntary: bool = True) -> tuple[float, float]:
        """Where a straight move (with up to ``pivots`` detours round terrain) ends."""
        cache = self.cache
        if cache is None:
            return self._path_end(u, tx, ty, length, pivots, voluntary)
        key = ("path", u.uid, u.x, u.y, tx, ty, length, pivots, voluntary)
        found: tuple[float, float] | None = cache.get(key)
        if found is None:
            found = cache[key] = self._path_end(u, tx, ty, length, pivots, voluntary)
        return found

    def _path_end(self, u: Unit, tx: float, ty: float, length: float, pivots: int, voluntary: bool) -> tuple[float, float]:
        """The move's end: terrain first, then the other groups' bases (a centre stops in contact,
        so a base counts with the mover's radius added; Raiders pass through their own groups).
        The bases are the board's list (board memo), skipped here rather than copied per group."""
        x, y = u.x, u.y
        terrain = self._terrain_obstacles(u, voluntary)
        cache = self.cache
        if cache is not None:
            board: Blockers | None = cache.get("blockers")
            if board is None:
                board = cache["blockers"] = self._blockers()
            bases = board[1]
        else:
            bases = self._blockers()[1]
        ur = u.radius
        own = u.side if self.sides[u.side].has("raiders") else -1
        for _ in range(pivots + 1):
            d = dist(x, y, tx, ty)
            if d < 1e-6 or length <= 0:
                break
            step = min(length, d)
            ex, ey = x + (tx - x) * step / d, y + (ty - y) * step / d
            # the first obstacle met, at hit_t along the segment (2.0: none; a meeting is in [0, 1])
            hit_t = 2.0
            hit: tuple[float, float, float] | None = None
            # first_entry() of every obstacle, inlined (the AI runs this thousands of times
            # a game): the same arithmetic, with the early exits a segment allows
            dx, dy = ex - x, ey - y
            a = dx * dx + dy * dy
            if a != 0:
                lox, hix = (x, ex) if x <= ex else (ex, x)
                loy, hiy = (y, ey) if y <= ey else (ey, y)
                lox, loy, hix, hiy = lox - 1e-6, loy - 1e-6, hix + 1e-6, hiy + 1e-6
                for ob in terrain:
                    ox, oy, r = ob
                    if ox + r < lox or ox - r > hix or oy + r < loy or oy - r > hiy:
                        continue  # out of the segment's box: it cannot meet the segment
                    fx, fy = x - ox, y - oy
                    b = 2 * (fx * dx + fy * dy)
                    if b >= 0:
                        continue  # moving away from its centre: it never enters at t >= 0
                    c = fx * fx + fy * fy - r * r
                    if c <= 0:
                        continue  # starts inside
                    disc = b * b - 4 * a * c
                    if disc < 0:
                        continue
                    t = (-b - math.sqrt(disc)) / (2 * a)
                    if 0.0 <= t <= 1.0 and t < hit_t:
                        hit_t, hit = t, ob
                for o, ox, oy, radius in bases:
                    r = radius + ur
                    if ox + r < lox or ox - r > hix or oy + r < loy or oy - r > hiy:
                        continue
                    if o is u or o.side == own:
                        continue
                    fx, fy = x - ox, y - oy
                    b = 2 * (fx * dx + fy * dy)
                    if b >= 0:
                        continue
                    c = fx * fx + fy * fy - r * r
                    if c <= 0:
                        continue
                    disc = b * b - 4 * a * c
                    if disc < 0:
                        continue
                    t = (-b - math.sqrt(disc)) / (2 * a)
                    if 0.0 <= t <= 1.0 and t < hit_t:
                        hit_t, hit = t, (ox, oy, r)
            if hit_t > 1.0:
                x, y = ex, ey
                break
            travelled = max(0.0, hit_t * step - 0.5)
            x, y = x + (ex - x) * (travelled / step), y + (ey - y) * (travelled / step)
            length -= travelled
            if hit is None or pivots <= 0:
                break
            # pivot round the piece: aim for a point beside it, on the side nearer the target
            nx, ny = -(ty - y), tx - x
            norm = hypot(nx, ny) or 1.0
            side = 1.0 if (hit[0] - x) * nx + (hit[1] - y) * ny < 0 else -1.0
            wx = hit[0] + side * nx / norm * (hit[2] + 3)
            wy = hit[1] + side * ny / norm * (hit[2] + 3)
            if pivots >= 1:
                dw = dist(x, y, wx, wy)
                if dw <= length:
                    x, y = wx, wy
                    length -= dw
                    pivots -= 1
                    continue
            break
        return clamp(x, y, u.radius)
