"""Movement [Movement, Difficult and Hazardous terrain, Free Strikes, Disengage]."""

from __future__ import annotations

import math
from bisect import bisect_left

from .combat import CombatRules
from .fighters import BASES, Fighter
from .geometry import seg_point_distance

_OVERLAP2 = (BASES - 1e-6) ** 2  # squared centre distance below which two bases overlap
_SPAN = BASES  # a base farther than this in x alone cannot overlap

# the turns round the target an approach spot is tried at, in order: 0, then +-k/12 of a half
# turn for k = 1 .. 12, each worked out as ``sign * k * pi / 12`` (the same floats as before)
_TURNS = tuple(sign * k * math.pi / 12 for k in range(13) for sign in ((1,) if k == 0 else (1, -1)))


class MovementRules(CombatRules):
    """The movement rules of :class:`battle.Battle`."""

    __slots__ = ()

    def free_of_overlap(self, f: Fighter, x: float, y: float) -> bool:
        """No base but f's overlaps a base at (x, y).  Only the models whose x is within two
        radii of x can overlap (a squared distance is never below its dx * dx, rounding
        included): they are found by bisection in the x index that :meth:`place` keeps."""
        limit = _OVERLAP2
        xs = self._xs
        i = bisect_left(xs, x - _SPAN)
        n, hi = len(xs), x + _SPAN
        xf = self._xf
        while i < n:
            ox = xs[i]
            if ox > hi:
                break
            dx = ox - x
            dy = xf[i].y - y
            if dx * dx + dy * dy < limit and xf[i] is not f:
                return False
            i += 1
        return True

    def crosses_hazard(self, f: Fighter, tx: float, ty: float) -> bool:
        """Would a straight move of ``f`` to (tx, ty) enter Hazardous terrain (its centre passing
        into a piece it does not start in)? Never for a model that flies, teleports or leaps."""
        if not self.hazards or f._sure_mover:
            return False
        sx, sy = f.x, f.y
        lox, hix = (sx, tx) if sx <= tx else (tx, sx)
        loy, hiy = (sy, ty) if sy <= ty else (ty, sy)
        for t in self.hazards:
            reach = t.r + 1e-6
            if t.x < lox - reach or t.x > hix + reach or t.y < loy - reach or t.y > hiy + reach:
                continue
            if math.hypot(sx - t.x, sy - t.y) < t.r:
                continue  # it starts inside: leaving is the only way out
            if seg_point_distance(sx, sy, tx, ty, t.x, t.y)[0] < t.r:
                return not (f.temp and (f.has("flight") or f.has("teleport") or f.has("leap")))
        return False

    def move_towards(self, f: Fighter, tx: float, ty: float, budget: float, stop_at: float, target: Fighter | None = None,
                     free_strikes: bool = True, penalty: float | None = None, near: float | None = None,
                     hazards: bool = False) -> float:  # fmt: skip
        """Straight move towards (tx, ty), stopping ``stop_at`` inches short (centre to centre),
        turning aside round the bases in the way and, unless ``hazards`` (the player means to go
        through: a Charge's shortest way), round Hazardous terrain; with no way round, the model
        stops short of it.

        ``penalty`` is :meth:`terrain_penalty` of this very move when the caller has already
        worked it out, and ``near`` min(f.d2) before the move likewise.  Returns the distance
        travelled (0 when blocked: the caller then spends no AP).
        """
        dx, dy = tx - f.x, ty - f.y
        d = math.hypot(dx, dy)
        if d <= stop_at + 1e-6 or budget <= 0:
            return 0.0
        budget -= self.terrain_penalty(f, tx, ty) if penalty is None else penalty
        sx, sy = f.x, f.y
        longest = d - stop_at  # max(0.0, min(budget, d - stop_at)), without two calls
        if not longest < budget:
            longest = budget
        if not longest > 0.0:
            longest = 0.0
        travel, nx, ny = 0.0, sx, sy
        heading = math.atan2(dy, dx)
        avoid = not hazards and bool(self.hazards) and not f._sure_mover
        found = False
        for turn in (0.0, 0.6, -0.6, 1.2, -1.2):  # straight on, else around whoever is in the way
            angle = heading + turn
            ux, uy = math.cos(angle), math.sin(angle)
            travel = longest
            nx, ny = sx + ux * travel, sy + uy * travel
            while travel > 0.0 and not self.free_of_overlap(f, nx, ny):
                travel -= 0.2
                if not travel > 0.0:  # max(0.0, travel - 0.2)
                    travel = 0.0
                nx, ny = sx + ux * travel, sy + uy * travel
            if avoid and travel > 0.0 and self.crosses_hazard(f, nx, ny):
                continue  # a way through Hazardous terrain: another heading
            if travel >= 0.05 and (turn == 0.0 or math.hypot(tx - nx, ty - ny) < d - 0.05):
                found = True
                break
        if avoid and not found:  # no heading clear of it: straight on, stopping short of the hazard
            ux, uy = dx / d, dy / d
            travel = longest
            while travel > 0.0 and (self.crosses_hazard(f, sx + ux * travel, sy + uy * travel) or not self.free_of_overlap(f, sx + ux * travel, sy + uy * travel)):
                travel -= 0.2
                if not travel > 0.0:
                    travel = 0.0
            nx, ny = sx + ux * travel, sy + uy * travel
        board = self.board  # min(board, max(0.0, v)) of each coordinate, without the calls
        if not nx > 0.0:
            nx = 0.0
        elif not nx < board:
            nx = board
        if not ny > 0.0:
            ny = 0.0
        elif not ny < board:
            ny = board
        if travel < 0.05:
            return 0.0
        # the nearest enemy before the move: no enemy farther than the move's length plus the
        # longest reach round it (and a hair) can have been passed by (see below)
        if near is None:
            row = f.d2
            near = min(row) if row else math.inf
        self.place(f, nx, ny)
        if self.logging:
            self.say(f"  {f.name} moves {travel:.1f}\"")
        flying: bool | None = None  # looked up when hazardous terrain is crossed
        lox, hix = (sx, nx) if sx <= nx else (nx, sx)  # off_segment()'s box, inlined
        loy, hiy = (sy, ny) if sy <= ny else (ny, sy)
        for t in self.hazards:
            reach = t.r + 1e-6
            px, py = t.x, t.y
            if px < lox - reach or px > hix + reach or py < loy - reach or py > hiy + reach:
                continue
            sd, _ = seg_point_distance(sx, sy, nx, ny, t.x, t.y)
            if sd < t.r:
                if flying is None:
                    flying = f.has("flight") or f.has("teleport") or f.has("leap")
                if not flying:
                    self.st_hit(f, t.hazard, None, t.name)
                    if t.fire is not None and not f.removed and not self.immune(f, "fire"):
                        f.fire = max(t.fire, f.fire or 0)
        temp = f.temp
        # a point of the move is at most ``travel`` from its start (clamping to the board only
        # shortens it), so an enemy whose start distance exceeds travel + its strike distance
        # was never within reach: when the nearest is that far, no enemy need be looked at
        span = travel + self.strike_span[f.side]
        if near > span * span:
            return travel
        if free_strikes and not ("elusive" in f.abilities or "elusive" in temp or "teleport" in f.abilities or "teleport" in temp) and not f.removed:
            self.free_strikes(f, sx, sy, target)
        return travel

    def terrain_penalty(self, f: Fighter, tx: float, ty: float) -> float:
        """Difficult terrain on the way costs 2" of the move (seed: Difficult), unless f flies,
        teleports, leaps or is sure-footed (looked at only when the way crosses such terrain)."""
        ax, ay = f.x, f.y
        dx, dy = tx - ax, ty - ay
        length2 = dx * dx + dy * dy
        hypot = math.hypot
        lox, hix = (ax, tx) if ax <= tx else (tx, ax)
        loy, hiy = (ay, ty) if ay <= ty else (ty, ay)
        for px, py, tr, left, right, low, high in self.difficult_boxes:  # seg_point_distance(), inlined
            if right < lox or left > hix or high < loy or low > hiy:
                continue  # farther than its radius from the box round the way: not crossed
            if length2 == 0:
                d = hypot(px - ax, py - ay)
            else:
                u = ((px - ax) * dx + (py - ay) * dy) / length2
                u = 0.0 if u <= 0.0 else 1.0 if u >= 1.0 else u
                d = hypot(ax + u * dx - px, ay + u * dy - py)
            if d < tr:
                if f._sure_mover or (f.temp and (f.has("flight") or f.has("teleport") or f.has("leap") or f.has("sure-footed"))):
                    return 0.0
                return 2.0
        return 0.0

    def free_strikes(self, f: Fighter, sx: float, sy: float, target: Fighter | None) -> None:
        hypot = math.hypot
        fx, fy = f.x, f.y  # the box of the move, widened by a hair (again if a strike moved f)
        lox, hix = (sx - 1e-6, fx + 1e-6) if sx <= fx else (fx - 1e-6, sx + 1e-6)
        loy, hiy = (sy - 1e-6, fy + 1e-6) if sy <= fy else (fy - 1e-6, sy + 1e-6)
        for e in self.enemies(f):
            if e is target or e.removed or e.incapacitated:
                continue
            reach = e._reach + BASES
            ex = e.x
            if ex + reach < lox or ex - reach > hix:
                continue  # farther than its reach from the move's box: the move never came near
            ey = e.y
            if ey + reach < loy or ey - reach > hiy:
                continue
            if hypot(sx - ex, sy - ey) <= reach or hypot(f.x - ex, f.y - ey) <= reach:
                continue  # it started or ended within reach: the move did not pass it by
            dx, dy = f.x - sx, f.y - sy  # seg_point_distance(), inlined
            length2 = dx * dx + dy * dy
            if length2 == 0:
                passed = hypot(ex - sx, ey - sy)
            else:
                u = max(0.0, min(1.0, ((ex - sx) * dx + (ey - sy) * dy) / length2))
                passed = hypot(sx + u * dx - ex, sy + u * dy - ey)
            if passed <= reach:
                w = self.choose_melee(e, f, charge=True)
                if w is not None:
                    if self.logging:
                        self.say(f"  free strike by {e.name}")
                    self.resolve(e, f, w, label="free-strikes")
                    if f.removed:
                        return
                    if f.x != fx or f.y != fy:  # pushed or pulled by the strike
                        fx, fy = f.x, f.y
                        lox, hix = (sx - 1e-6, fx + 1e-6) if sx <= fx else (fx - 1e-6, sx + 1e-6)
                        loy, hiy = (sy - 1e-6, fy + 1e-6) if sy <= fy else (fy - 1e-6, sy + 1e-6)

    def approach_spot(self, f: Fighter, t: Fighter, reach: int) -> tuple[float, float] | None:
        """The free spot nearest to ``f`` from which ``t`` is within ``reach`` (None if surrounded)."""
        want = BASES + reach * 0.9 + 0.001
        tx, ty = t.x, t.y
        base = math.atan2(f.y - ty, f.x - tx)
        board = self.board
        for turn in _TURNS:  # math.cos, not a local alias: the compiled build calls C's cos directly
            angle = base + turn
            x, y = tx + want * math.cos(angle), ty + want * math.sin(angle)
            if 0.0 <= x <= board and 0.0 <= y <= board and self.free_of_overlap(f, x, y):
                return x, y
        return None

    def disengage(self, f: Fighter, engaged: list[Fighter], toward: Fighter | None = None) -> None:
        f.ap_left -= 1
        foe = max(engaged, key=lambda e: e.stat("dr"))
        ok, _ = self.test(f, f.stat("dr"), foe.stat("dr"), "dr", f"Disengage: DR vs DR ({foe.name})")
        if ok and any(e.has("grapple") for e in engaged):
            ok, _ = self.test(f, f.stat("dr"), foe.stat("dr"), "dr", "Disengage again (Grapple): DR vs DR")
        if not ok:
            if self.logging:
                self.say(f"  {f.name} fails to disengage")
            return
        if self.logging:
            self.say(f"  {f.name} disengages")
        if toward is not None:  # to close in on a foe it cannot reach from here
            self.move_towards(f, toward.x, toward.y, f.speed(), BASES, toward, free_strikes=False)
            return
        cx = sum(e.x for e in engaged) / len(engaged)
        cy = sum(e.y for e in engaged) / len(engaged)
        away_x, away_y = 2 * f.x - cx, 2 * f.y - cy
        self.move_towards(f, away_x, away_y, f.speed(), 0.0, free_strikes=False)
