"""The battle on its table: distances, fields of view, sight between units, moves round obstacles.

Every spatial question a phase asks goes through here, so each is answered one way:

- **Distances** (:meth:`SpaceRules.gap`) are edge to edge between the units' blocks (seed:
  "from base edge to base edge"), kept per pair of units until either moves.
- **Field of view**: 180° from the front of the fighters (R2-D10): a unit sees, charges and
  moves toward what stands on the front side of its front edge.
- **Sight between units** (:meth:`SpaceRules.sees`: "one of its members can see at least one
  member of the enemy unit"): sight lines from the front of the source to the corners and
  middle of the target, each blocked by a piece of scenery or another unit standing across it
  unless the source or the target is of a larger Size (R2-D10; hidden Scouts block nothing).
  Only the obstacles whose bounding boxes meet the two units' are tried, so an open table costs
  one test. The fighter-by-fighter sight of a volley is :mod:`.sight`.
- **Moves** (:meth:`SpaceRules.travel`): a unit moves in a straight line and stops before an
  obstacle (impassable scenery, another unit, the table's edge), or, when its move may go round
  obstacles (March, Engagement, flight, push on), takes the heading that brings it nearest its
  goal and then heads straight for it. A scattered unit files through gaps narrower than its
  block and only needs room at the end (seed: The obstacles). A unit ends a move facing the
  way it moved (seed: Orientation at the end of a move).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from .base import BattleBase
from .formation import shape
from .geometry import (
    Box,
    band_of,
    box_from_front,
    box_gap,
    box_in_front,
    box_meets_band,
    boxes_overlap,
    segment_box_entry,
    segment_hits_box,
    sweep_time,
    unit_vector,
)
from .state import Fighting

if TYPE_CHECKING:
    from .battle import Battle  # noqa: F401

MARGIN = 0.5  # cm a move stops short of what it would touch (room to turn off a head-on obstacle)
DEPLOY_SPACING = 4.0  # cm between units side by side at deployment (R2-T2)
_DETOURS = (25.0, -25.0, 50.0, -50.0, 75.0, -75.0, 88.0, -88.0)  # headings (degrees off the goal's) tried round an obstacle


def _turned(dx: float, dy: float, degrees: float) -> tuple[float, float]:
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return dx * c - dy * s, dx * s + dy * c


def _shifted(b: Box, dx: float, dy: float) -> Box:
    return Box(b.cx + dx, b.cy + dy, b.ux, b.uy, b.hw, b.hd)


def _clear_of(x1: float, y1: float, x2: float, y2: float, b: Box, pad: float) -> bool:
    """The segment's bounds stand clear of the bounds of *b* grown by *pad* on every side (by
    more than the bounds test of :func:`.geometry.segment_box_entry` asks): the segment misses
    the grown box, which need not be made. (A grown box's bounds grow by at most pad × √2.)"""
    grow = pad * 1.5 + 1e-3
    if x1 < x2:
        if x2 < b.x0 - grow or x1 > b.x1 + grow:
            return True
    elif x1 < b.x0 - grow or x2 > b.x1 + grow:
        return True
    if y1 < y2:
        return y2 < b.y0 - grow or y1 > b.y1 + grow
    return y1 < b.y0 - grow or y2 > b.y1 + grow


@trait
class SpaceRules(BattleBase):
    __slots__ = ()

    # -- distances and views ---------------------------------------------------------

    def gap(self, a: Fighting, b: Fighting) -> float:
        """Edge-to-edge distance between two units (0 in contact), kept until either moves (one
        entry a pair: :func:`.geometry.box_gap` gives the same float either way round)."""
        ka = a.side * 1000 + a.index
        kb = b.side * 1000 + b.index
        if ka > kb:
            a, b, ka, kb = b, a, kb, ka
        key = ka * 4096 + kb
        known = self.gaps.get(key)
        if known is not None and known[0] == a.geo and known[1] == b.geo:
            return known[2]
        d = box_gap(a.box(), b.box())
        self.gaps[key] = (a.geo, b.geo, d)
        return d

    def in_view(self, u: Fighting, e: Fighting) -> bool:
        """Part of *e* stands in the 180° field of view of *u*'s front (R2-D10)."""
        return box_in_front(e.box(), u.box())

    def others(self, *skip: Fighting) -> list[Fighting]:
        """The units on the table (alive, not off it) but *skip*."""
        out = []
        for side in self.sides:
            for v in side:
                if v.alive and v.state != "gone" and v not in skip:
                    out.append(v)
        return out

    # -- sight between units -------------------------------------------------------------

    def sight_obstacles(self, a: Fighting, b: Fighting) -> list[tuple[Box, int]]:
        """What may stand across the sight lines between two units: pieces of scenery and the
        other units (hidden Scouts block nothing), with their Size ranks, whose bounding boxes
        meet the two units' joint bounds."""
        ab, bb = a.box(), b.box()
        x0 = ab.x0 if ab.x0 < bb.x0 else bb.x0
        y0 = ab.y0 if ab.y0 < bb.y0 else bb.y0
        x1 = ab.x1 if ab.x1 > bb.x1 else bb.x1
        y1 = ab.y1 if ab.y1 > bb.y1 else bb.y1
        out: list[tuple[Box, int]] = []
        for p in self.field.sight:
            box = p.box
            if box.x0 < x1 and x0 < box.x1 and box.y0 < y1 and y0 < box.y1:
                out.append((box, p.rank))
        for side in self.sides:
            for v in side:
                if not v.alive or v.state == "gone" or v is a or v is b or v.hidden:
                    continue
                box = v.box()
                if box.x0 < x1 and x0 < box.x1 and box.y0 < y1 and y0 < box.y1:
                    out.append((box, v.size_rank))
        return out

    def sees(self, u: Fighting, e: Fighting) -> bool:
        """One member of *u* sees one member of *e* (seed: Line of sight, Charges; R2-D10): the
        target in the source's field of view and a sight line free of anything as large as the
        larger of the two. Units in contact always see each other."""
        if e.index in u.engaged and u.side != e.side:
            return True
        key = (u.side * 1000 + u.index) * 4096 + e.side * 1000 + e.index
        known = self.sight_memo.get(key)
        stamp = self.table_stamp()
        if known is not None and known[0] == stamp:
            return known[1]
        seen = self._sees(u, e)
        self.sight_memo[key] = (stamp, seen)
        return seen

    def _sees(self, u: Fighting, e: Fighting) -> bool:
        """The sight lines of :meth:`sees`, tried again only when one of the two units or what
        stands between them changed: a unit's block is a new object once it moves or changes
        shape (or numbers, hence Size), so the same blocks in the same order see the same."""
        if not self.in_view(u, e):
            return False
        obstacles = self.sight_obstacles(u, e)
        ub, eb = u.box(), e.box()
        key = (u.side * 1000 + u.index) * 4096 + e.side * 1000 + e.index
        kept = self.sight_lines.get(key)
        if kept is not None and kept[0] is ub and kept[1] is eb and len(kept[2]) == len(obstacles):
            same = True
            for (a, ra), (o, ro) in zip(kept[2], obstacles, strict=True):
                if a is not o or ra != ro:
                    same = False
                    break
            if same:
                return kept[3]
        seen = self._sight_lines(u, e, obstacles)
        self.sight_lines[key] = (ub, eb, obstacles, seen)
        return seen

    def _sight_lines(self, u: Fighting, e: Fighting, obstacles: list[tuple[Box, int]]) -> bool:
        tall = u.size_rank if u.size_rank > e.size_rank else e.size_rank
        blockers = [box for box, rank in obstacles if rank >= tall]
        if not blockers:
            return True
        src = u.box()
        inset = u.troops.base_w / 2.0
        sources = [src.world(a, src.hd - 0.01) for a in (-src.hw + inset, 0.0, src.hw - inset)]
        tb = e.box()
        ti = e.troops.base_w / 2.0
        targets = [tb.world(0.0, 0.0)] + [
            tb.world(sa * (tb.hw - ti), sb * (tb.hd - ti)) for sa in (-1.0, 1.0) for sb in (-1.0, 1.0)
        ]
        # Only what comes near the band of the sight lines can cut one of them.
        ox, oy = sources[1]
        dx, dy = unit_vector(targets[0][0] - ox, targets[0][1] - oy)
        band = band_of(sources + targets, ox, oy, dx, dy)
        blockers = [box for box in blockers if box_meets_band(box, ox, oy, dx, dy, band)]
        if not blockers:
            return True
        # A line is free when no blocker cuts it (the order they are tried in changes nothing): the
        # one that cut the last line is tried first, as it most often cuts the next one too.
        for sx, sy in sources:
            for tx, ty in targets:
                cut = -1
                for k in range(len(blockers)):
                    if segment_box_entry(sx, sy, tx, ty, blockers[k]) >= 0.0:
                        cut = k
                        break
                if cut < 0:
                    return True
                if cut > 0:
                    blockers[0], blockers[cut] = blockers[cut], blockers[0]
        return False

    # -- moves ---------------------------------------------------------------------------

    def plans_now(self) -> dict[Any, Any]:
        """The memo of plans (moves, assault options) made for the table as it stands now: every
        unit's place and shape (its ``geo``), whether it stands, its state, whether it is hidden,
        and the table's stamp (:meth:`table_stamp`). Anything else a plan reads is in its own key; the memo is
        emptied when any of that changes, so a plan found again is the plan found before."""
        kept = self.plans_layout  # table_stamp(), then each unit's geo, alive, state, hidden
        same = len(kept) == 1 + 4 * (len(self.sides[0]) + len(self.sides[1])) and kept[0] == self.table_stamp()
        if same:
            i = 1
            for side in self.sides:
                for v in side:
                    if kept[i] != v.geo or kept[i + 1] != v.alive or kept[i + 2] != v.state or kept[i + 3] != v.hidden:
                        same = False
                        break
                    i += 4
                if not same:
                    break
        if not same:
            layout: list[Any] = [self.table_stamp()]
            for side in self.sides:
                for v in side:
                    layout += [v.geo, v.alive, v.state, v.hidden]
            self.plans_layout = layout
            self.plans = {}
        return self.plans

    def moved(self, u: Fighting) -> None:
        """A unit moved or was spotted: sight between units must be looked at again."""
        self.world += 1

    def table_stamp(self) -> int:
        """Changes to the table counted: moves and Scouts spotted (``world``), and every block
        moved or reshaped by casualties, a rout or re-forming (counted by the units). A memo of
        sight, contact spots or plans holds while the stamp is the same."""
        return self.world + self.table_changes[0]

    def try_spot(self, u: Fighting, x: float, y: float, fx: float, fy: float) -> tuple[Any, ...]:
        """Stand *u* on a trial spot (a player weighing where to go) until :meth:`end_trial`.

        The table gets a stamp and *u* a ``geo`` no real table ever has (negative, one a trial),
        so nothing found from the trial spot is taken for the table as it stands, before or
        after; :meth:`end_trial` stands the unit back with its own block, ``geo``, the table's
        stamp and plans, so every memo kept for the table as it stood holds again."""
        saved = (u.x, u.y, u.ux, u.uy, u.box_cache, u.geo, self.world, self.table_changes[0], self.plans, self.plans_layout)
        self.trials += 1
        u.place(x, y, fx, fy)
        u.geo = -self.trials
        self.world = -(self.trials << 32) - self.table_changes[0]  # table_stamp(): -(trials << 32)
        return saved

    def end_trial(self, u: Fighting, saved: tuple[Any, ...]) -> None:
        """Stand *u* back where it stood before :meth:`try_spot` (see there)."""
        u.x, u.y, u.ux, u.uy, u.box_cache, u.geo, self.world, self.table_changes[0], self.plans, self.plans_layout = saved

    def move_obstacles(self, u: Fighting, ignore: tuple[Fighting, ...] = (), enemies: bool = True) -> list[Box]:
        """What a move of *u* must go round: impassable scenery and the other units (the enemies
        too unless *enemies* is false: a fleeing unit meets them)."""
        out = [p.box for p in self.field.blocking]
        for v in self.others(u, *ignore):
            if enemies or v.side == u.side:
                out.append(v.box())
        return out

    def free_run(self, box: Box, dx: float, dy: float, dist: float, obstacles: list[Box], edges: bool = True) -> float:
        """How far *box* can move along the unit vector (dx, dy), up to *dist*, before it would
        overlap an obstacle or leave the table (when *edges*)."""
        return self.free_run_hit(box, dx, dy, dist, obstacles, edges)[0]

    def free_run_hit(
        self, box: Box, dx: float, dy: float, dist: float, obstacles: list[Box], edges: bool = True
    ) -> tuple[float, Box | None]:
        """:meth:`free_run`, and the obstacle that stops it (None: none, or the table's edge).

        The block keeps :data:`MARGIN` from whatever it would touch (within *dist* plus the
        margin); with nothing in the way it covers the whole *dist* (seed: a unit moves its
        MOV, a fleeing one MOV × 2)."""
        if dist <= 0.0:
            return 0.0, None
        full = dist + MARGIN
        vx, vy = dx * full, dy * full
        t = 1.0
        hit_box = None
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        sx0, sy0, sx1, sy1 = min(x0, x0 + vx), min(y0, y0 + vy), max(x1, x1 + vx), max(y1, y1 + vy)
        for ob in obstacles:
            if not (sx0 < ob.x1 and ob.x0 < sx1 and sy0 < ob.y1 and ob.y0 < sy1):
                continue
            hit = sweep_time(box, vx, vy, ob)
            if hit < t:
                t = hit
                hit_box = ob
        touch = t * full  # how far it goes before it touches something (full: nothing)
        if edges:
            width, depth = self.field.width, self.field.depth
            for cx, cy in box.corners():
                if dx > 1e-12:
                    touch = min(touch, (width - cx) / dx)
                elif dx < -1e-12:
                    touch = min(touch, -cx / dx)
                if dy > 1e-12:
                    touch = min(touch, (depth - cy) / dy)
                elif dy < -1e-12:
                    touch = min(touch, -cy / dy)
        run = touch - MARGIN
        if run > dist:
            run = dist
        return (run if run > 0.0 else 0.0), hit_box

    def _path_box(self, u: Fighting, squeeze: bool) -> Box:
        box = u.box()
        if squeeze and not u.close:
            # A scattered unit files round obstacles: its path is one base wide.
            narrow = u.troops.base_w / 2.0
            if narrow < box.hw:
                return Box(box.cx, box.cy, box.ux, box.uy, narrow, box.hd)
        return box

    def _room(self, box: Box, obstacles: list[Box]) -> bool:
        """The block fits there: on the table and clear of every obstacle."""
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        if x0 < -1e-6 or y0 < -1e-6 or x1 > self.field.width + 1e-6 or y1 > self.field.depth + 1e-6:
            return False
        for ob in obstacles:
            if x0 < ob.x1 and ob.x0 < x1 and y0 < ob.y1 and ob.y0 < y1 and boxes_overlap(box, ob):
                return False
        return True

    def travel(
        self, u: Fighting, tx: float, ty: float, allowance: float, straight: bool, face: bool = True,
        ignore: tuple[Fighting, ...] = (), stop: float = 0.0,
    ) -> float:  # fmt: skip
        """Move *u*'s front centre toward (tx, ty), at most *allowance* cm of path, stopping *stop*
        cm short of it; in a straight line (Run, Charge), or round what is in the way when not
        *straight*. It ends facing the way it last moved when *face*. Returns the path length."""
        self.reshape_to = 0
        plan = self.plan_travel(u, tx, ty, allowance, straight, face, ignore, stop)
        if plan is None:
            return 0.0
        x, y, fx, fy, total = plan
        if self.reshape_to and self.reshape_to != u.files:
            u.cols = self.reshape_to  # a scattered unit narrowed (or widened again) to stand there
            shape(u)
        u.place(x, y, fx, fy)
        self.moved(u)
        return total

    def plan_travel(
        self, u: Fighting, tx: float, ty: float, allowance: float, straight: bool, face: bool = True,
        ignore: tuple[Fighting, ...] = (), stop: float = 0.0,
    ) -> tuple[float, float, float, float, float] | None:  # fmt: skip
        """Where :meth:`travel` would take the unit: (x, y, facing x, facing y, path length), or
        None when it cannot move (and :attr:`reshape_to`, the files it stands in there, when a
        scattered unit narrows). The AI weighs a move before the unit makes it: the plan is kept
        until the table changes (:meth:`plans_now`)."""
        memo = self.plans_now()
        key = ("travel", u.side, u.index, u.close, tx, ty, allowance, straight, face, stop,
               tuple([(v.side, v.index) for v in ignore]))  # fmt: skip
        known = memo.get(key)
        if known is not None:
            if known[1]:
                self.reshape_to = known[1]
            return known[0]
        before = self.reshape_to
        self.reshape_to = 0
        plan = self._plan_travel(u, tx, ty, allowance, straight, face, ignore, stop)
        files = self.reshape_to
        if not files:
            self.reshape_to = before
        memo[key] = (plan, files)
        return plan

    def _plan_travel(
        self, u: Fighting, tx: float, ty: float, allowance: float, straight: bool, face: bool,
        ignore: tuple[Fighting, ...], stop: float,
    ) -> tuple[float, float, float, float, float] | None:  # fmt: skip
        dx, dy = tx - u.x, ty - u.y
        dist = math.sqrt(dx * dx + dy * dy) - stop
        if dist <= 0.01 or allowance <= 0.01:
            return None
        hx, hy = unit_vector(dx, dy)
        want = dist if dist < allowance else allowance
        squeeze = not straight
        obstacles = self._near(u, self.move_obstacles(u, ignore), allowance, squeeze)
        box = self._path_box(u, squeeze)
        # The block slides along its way and turns to face it where it stops (if it has room).
        run, blocker = self.free_run_hit(box, hx, hy, want, obstacles)
        legs = [(hx, hy, run)]
        if run < want - 0.5 and not straight:
            pad = box.hw + 0.5
            best = self.way_left(u.x + hx * run, u.y + hy * run, tx, ty, pad) - stop
            headings: list[tuple[float, float, float]] = []  # (heading x, y, longest first leg)
            for degrees in _DETOURS:
                ax, ay = _turned(hx, hy, degrees)
                headings.append((ax, ay, want))
            if blocker is not None:
                # Round the obstacle's corners: waypoints for the block's middle beyond each of
                # them, as far out as the block is wide.
                pad = (box.hw if box.hw > box.hd else box.hd) + 1.0
                ox, oy = u.x - box.cx, u.y - box.cy  # from the block's middle to its front
                for sa in (-1.0, 1.0):
                    for sb in (-1.0, 1.0):
                        wx, wy = blocker.world(sa * (blocker.hw + pad), sb * (blocker.hd + pad))
                        wx, wy = wx + ox, wy + oy
                        leg = math.hypot(wx - u.x, wy - u.y)
                        if leg > 0.5 and leg < want:
                            ax, ay = unit_vector(wx - u.x, wy - u.y)
                            headings.append((ax, ay, leg))
            for ax, ay, longest in headings:
                first = self.free_run(box, ax, ay, longest, obstacles)
                if first <= 0.5:
                    continue
                # then straight for the goal with what is left
                mx, my = u.x + ax * first, u.y + ay * first
                bx, by = unit_vector(tx - mx, ty - my)
                rest_goal = math.hypot(tx - mx, ty - my) - stop
                left = min(allowance - first, rest_goal)
                # The way left from the end of the second leg is no shorter than the straight
                # line, so a heading whose end cannot come closer than the best one by the 0.5 cm
                # asked is passed over without its second leg (1e-6: more than any rounding).
                if rest_goal - (left if left > 0.0 else 0.0) >= best - 0.5 + 1e-6:
                    continue
                second = 0.0
                if left > 0.0:
                    second = self.free_run(_shifted(box, ax * first, ay * first), bx, by, left, obstacles)
                remaining = self.way_left(mx + bx * second, my + by * second, tx, ty, pad) - stop
                if remaining < best - 0.5:
                    best = remaining
                    legs = [(ax, ay, first), (bx, by, second)]
        x, y = u.x, u.y
        total = 0.0
        last = (u.ux, u.uy)
        for lx, ly, length in legs:
            if length > 0.0:
                x, y = x + lx * length, y + ly * length
                total += length
                last = (lx, ly)
        if total <= 0.0:
            return None
        fx, fy = last if face else (u.ux, u.uy)
        if face and (fx, fy) != (u.ux, u.uy):
            # It ends facing its way, its fighters turning where they stand (the block turns
            # on its middle), when the turned block has room; else it keeps its facing.
            hd = u.depth / 2.0
            cx, cy = x - u.ux * hd, y - u.uy * hd
            turned = Box(cx, cy, fx, fy, u.width / 2.0, hd)
            if self._room(turned, obstacles):
                x, y = cx + fx * hd, cy + fy * hd
            else:
                fx, fy = u.ux, u.uy
        # A scattered unit that filed through needs room for its whole block where it stops:
        # its fighters only need to stand in formation at the end (seed: The obstacles), so the
        # block may stand a little to either side of where its file stopped, or narrower.
        if squeeze and not u.close:
            lx, ly = last
            while total > 0.0:
                for files in self.shapes_of(u):
                    width, depth = self.block_size(u, files)
                    for shift in (0.0, 1.5, -1.5, 3.0, -3.0, 5.0, -5.0, 7.5, -7.5):
                        step_aside = shift if shift >= 0.0 else -shift
                        if total + step_aside > allowance + 1e-6:
                            continue  # a step aside is part of the move: never past its allowance
                        sx, sy = x + ly * shift, y - lx * shift
                        if self._room(box_from_front(sx, sy, fx, fy, width, depth), obstacles):
                            self.reshape_to = files
                            return sx, sy, fx, fy, total + step_aside
                step = 1.0 if total > 1.0 else total
                x, y, total = x - lx * step, y - ly * step, total - step
            return None
        return x, y, fx, fy, total

    def _near(self, u: Fighting, obstacles: list[Box], allowance: float, squeeze: bool) -> list[Box]:
        """The obstacles a plan of at most *allowance* cm may meet: every block a plan tries (the
        block swept along its legs, turned where it stops, a scattered block reshaped and stepped
        aside) stands within *allowance* plus its own size of where the unit stands, so what
        stands farther is passed over before any test (the tests would miss it)."""
        reach = allowance + MARGIN + 10.0 + 2.0 * (u.width + u.depth)
        if squeeze and not u.close:
            shapes = self.shapes_of(u)
            reach += self.block_size(u, shapes[0])[0] + self.block_size(u, shapes[-1])[1]
        box = u.box()
        x0, y0, x1, y1 = box.x0 - reach, box.y0 - reach, box.x1 + reach, box.y1 + reach
        return [ob for ob in obstacles if ob.x0 <= x1 and x0 <= ob.x1 and ob.y0 <= y1 and y0 <= ob.y1]

    def shapes_of(self, u: Fighting) -> list[int]:
        """The files a scattered unit may stand in at the end of a move: as it deployed, else
        narrower, down to a third of its numbers."""
        widest = u.max_files if u.max_files < u.count else u.count
        narrowest = max(1, (u.count + 3) // 4)
        return list(range(widest, narrowest - 1, -1)) if widest >= narrowest else [widest]

    def block_size(self, u: Fighting, files: int) -> tuple[float, float]:
        """(width, depth) of the unit's block in *files* files."""
        gap = 0.0 if u.close else u.open_gap
        ranks = (u.count + files - 1) // files if u.count > 0 else 1
        return files * u.troops.base_w + (files - 1) * gap, u.first_depth + (ranks - 1) * (u.troops.base_d + gap)

    def waypoint(self, u: Fighting, gx: float, gy: float) -> tuple[float, float]:
        """Where *u* heads for on its way to (gx, gy): the goal itself, or, when a piece of
        impassable scenery stands across the way, the corner of that piece (as far out as the
        unit is wide) by which the way is shortest."""
        pad = u.width / 2.0 + 1.0
        box = u.box()
        mx, my = box.cx, box.cy  # the block's middle, and from it to its front
        ox, oy = u.x - mx, u.y - my
        first, best_t = None, 2.0
        ex, ey = gx - ox, gy - oy
        for piece in self.field.blocking:
            b = piece.box
            if _clear_of(mx, my, ex, ey, b, pad):
                continue
            grown = Box(b.cx, b.cy, b.ux, b.uy, b.hw + pad, b.hd + pad)
            t = segment_box_entry(mx, my, ex, ey, grown)
            if 0.0 <= t < best_t:
                first, best_t = grown, t
        if first is None:
            return gx, gy
        best, best_way = (gx, gy), 1e18
        inside = first.local(mx, my)
        start_inside = abs(inside[0]) < first.hw and abs(inside[1]) < first.hd
        for sa in (-1.0, 1.0):
            for sb in (-1.0, 1.0):
                cx, cy = first.world(sa * (first.hw + 0.5), sb * (first.hd + 0.5))
                # A corner on the way: from it the goal is in sight past the piece, and the unit
                # reaches it without crossing the piece.
                if segment_box_entry(cx, cy, gx - ox, gy - oy, first, 0.05) >= 0.0:
                    continue
                if not start_inside and segment_box_entry(mx, my, cx, cy, first, 0.05) >= 0.0:
                    continue
                way = math.hypot(cx - mx, cy - my) + math.hypot(gx - ox - cx, gy - oy - cy)
                if way < best_way:
                    best, best_way = (cx + ox, cy + oy), way
        return best

    def way_left(self, px: float, py: float, gx: float, gy: float, pad: float) -> float:
        """The length of the way from (px, py) to (gx, gy) round the first piece of scenery across
        it (by the nearer of its corners, *pad* cm out): the moves' look ahead."""
        straight = math.hypot(gx - px, gy - py)
        for piece in self.field.blocking:
            b = piece.box
            if _clear_of(px, py, gx, gy, b, pad):
                continue
            grown = Box(b.cx, b.cy, b.ux, b.uy, b.hw + pad, b.hd + pad)
            if segment_hits_box(px, py, gx, gy, grown):
                best = 1e18
                for sa in (-1.0, 1.0):
                    for sb in (-1.0, 1.0):
                        cx, cy = grown.world(sa * (grown.hw + 0.5), sb * (grown.hd + 0.5))
                        if segment_box_entry(cx, cy, gx, gy, grown, 0.05) >= 0.0:
                            continue  # the goal is not in sight from that corner
                        way = math.hypot(cx - px, cy - py) + math.hypot(gx - cx, gy - cy)
                        if way < best:
                            best = way
                return best if best < 1e17 else straight + 2.0 * (grown.hw + grown.hd)
        return straight

    def turn(self, u: Fighting, fx: float, fy: float) -> bool:
        """Reorient on the spot: the fighters turn where they stand, the block on its middle;
        False when the turned block has no room (scenery, another unit)."""
        box = u.box()
        turned = Box(box.cx, box.cy, fx, fy, box.hw, box.hd)
        if not self._room(turned, self.move_obstacles(u)):
            return False
        u.place(box.cx + fx * box.hd, box.cy + fy * box.hd, fx, fy)
        self.moved(u)
        return True

    def fits(self, u: Fighting) -> bool:
        """The unit's block stands on the table clear of scenery and the other units."""
        return self._room(u.box(), self.move_obstacles(u))

    def wheel(self, u: Fighting, hx: float, hy: float) -> bool:
        """A close unit wheels as one block round the front corner on the side it turns to
        until it faces (hx, hy) (seed: Reorientation, diagram 1); False when the wheeled block
        has no room (scenery, another unit, the table's edge)."""
        box = u.box()
        cross = u.ux * hy - u.uy * hx
        right = cross < 0.0  # turning clockwise: toward the unit's right
        rx, ry = u.uy, -u.ux  # the unit's right
        side = 1.0 if right else -1.0
        px, py = u.x + rx * box.hw * side, u.y + ry * box.hw * side  # the pivot: a front corner
        theta = math.atan2(cross, u.ux * hx + u.uy * hy)
        c, s_ = math.cos(theta), math.sin(theta)
        fx, fy = u.x - px, u.y - py
        nx, ny = px + fx * c - fy * s_, py + fx * s_ + fy * c
        turned = box_from_front(nx, ny, hx, hy, u.width, u.depth)
        if not self._room(turned, self.move_obstacles(u)):
            return False
        u.place(nx, ny, hx, hy)
        self.moved(u)
        return True

    def nearest_edge(self, u: Fighting) -> tuple[float, float, float]:
        """(distance, direction x, direction y) from the unit's block to the nearest table edge."""
        x0, y0, x1, y1 = u.box().bounds()
        options = ((x0, -1.0, 0.0), (self.field.width - x1, 1.0, 0.0), (y0, 0.0, -1.0), (self.field.depth - y1, 0.0, 1.0))
        return min(options, key=lambda o: o[0])

    # -- deployment --------------------------------------------------------------------------

    def deploy(self) -> str:
        """Each army in its zone (decision R2-T2): the player's order of units, left to right as
        he sees the table, a first line along the front of the zone and a second behind it when
        the first is full; units of Scouts 20 cm ahead of the zone. The players roll a die each
        (ties rolled again): the lower roll deploys its whole army first, the other deploys
        second with the first army in view (decision R2-T8). Returns the roll, in words."""
        rolls = (0, 0)
        while rolls[0] == rolls[1]:
            rolls = (self.dice.d6(), self.dice.d6())
        first = 0 if rolls[0] < rolls[1] else 1
        self.deployed = []
        for side in (first, 1 - first):
            self.place_army(side, self.policies[side].deployment(self.as_battle(), side))
            self.deployed.append(side)
            self.world += 1
        return (
            f"deployment roll: side 1 rolls {rolls[0]}, side 2 rolls {rolls[1]}; side {first + 1} deploys first, "
            f"side {2 - first} second"
        )

    def deployment_rows(self, units: list[Fighting]) -> tuple[list[Fighting], list[Fighting]]:
        """The first line the units of *units* (in the player's order) fill along the front of
        the zone, and those left over for the second."""
        room = self.field.width - 10.0
        first: list[Fighting] = []
        second: list[Fighting] = []
        width = 0.0
        for u in units:
            if width + u.width + (DEPLOY_SPACING if first else 0.0) <= room:
                width += u.width + (DEPLOY_SPACING if first else 0.0)
                first.append(u)
            else:
                second.append(u)
        return first, second

    def row_along(self, row: list[Fighting]) -> tuple[float, float, list[float]]:
        """A row of units centred on the table: (its left end and the spacing, counted from its
        own left, and each unit's centre along the row, before any unit slides for a lane)."""
        room = self.field.width - 10.0
        total = sum(u.width for u in row) + DEPLOY_SPACING * max(len(row) - 1, 0)
        if total > room:  # a second line too wide: squeezed (its units overlap nothing but each other's gaps)
            spacing = max(0.0, (room - sum(u.width for u in row)) / max(len(row) - 1, 1))
        else:
            spacing = DEPLOY_SPACING
        total = sum(u.width for u in row) + spacing * max(len(row) - 1, 0)
        left = (self.field.width - total) / 2.0  # a line centred on the table
        centres = []
        at = left
        for u in row:
            centres.append(at + u.width / 2.0)
            at += u.width + spacing
        return left, spacing, centres

    def place_army(self, side: int, lines: tuple[list[Fighting], list[Fighting]]) -> None:
        """Stand a side's units as its player ordered them (see :meth:`deploy`)."""
        field = self.field
        forward = 1.0 if side == 0 else -1.0
        front_y = field.deployment if side == 0 else field.depth - field.deployment
        first, second = self.deployment_rows(lines[0])
        second = second + lines[1]
        depth_first = max((u.depth for u in first), default=0.0)
        for row, y in ((first, front_y), (second, front_y - forward * (depth_first + DEPLOY_SPACING))):
            left, spacing_row, _centres = self.row_along(row)
            total = sum(u.width for u in row) + spacing_row * max(len(row) - 1, 0)
            spare = max(0.0, field.width - 5.0 - (left + total))  # how far it may slide right
            for u in row:
                # A lane forward clear of impassable scenery, when sliding right (within the
                # spare room) opens one: a player does not deploy a unit against a ruin.
                slide = 0.0
                while self._lane_blocked(self._deploy_x(side, left + slide + u.width / 2.0), y, forward, u):
                    slide += 2.5
                    if slide > spare:
                        slide = 0.0
                        break
                left += slide
                spare -= slide
                x = self._deploy_x(side, left + u.width / 2.0)
                ahead = 20.0 if u.hidden else 0.0  # Scouts deploy ahead of their zone (R2-T2)
                u.place(x, y + forward * ahead, 0.0, forward)
                left += u.width + spacing_row

    def _deploy_x(self, side: int, along: float) -> float:
        """x on the table of a place *along* cm from its own left along a side's line (the far
        side sees the table turned)."""
        return along if side == 0 else self.field.width - along

    def _lane_blocked(self, x: float, y: float, forward: float, u: Fighting) -> bool:
        """A piece of impassable scenery stands within 30 cm before a block of *u*'s width at (x, y)."""
        lane = box_from_front(x, y + forward * 30.0, 0.0, forward, u.width + 1.0, 30.0)
        return any(boxes_overlap(lane, p.box) for p in self.field.blocking)

    def as_battle(self) -> Battle:
        from typing import cast

        return cast("Battle", self)
