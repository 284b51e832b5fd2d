"""What each scenario asks of a game in play: where the AI wants a group to go, what a group
is worth as a target, the markers a group picks up or carries off, victory and the round limit.

Why here, below the rules of setup, combat, reactions and actions: every one of them asks
where a group is headed (a DEFY! move, a Crashing Wave, Vengeance) or whether the game is
over, and a phase may only call what the classes it stands on define (see :mod:`gamestate`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import BOARD, EPS, INF, dist, hypot
from .geometry import Geometry
from .state import REMOVE_VALUE, Unit


class ScenarioRules(Geometry):
    """Goals, target values, markers and victory per scenario."""

    __slots__ = ()

    def goal(self, u: Unit) -> tuple[float, float]:
        """Where the AI wants ``u`` to go, per scenario (cached while options are scored)."""
        if self.cache is not None:
            key = ("goal", u.uid)
            found = self.cache.get(key)
            if found is None:
                if self.scenario in ("kill-them-all", "duel"):  # the nearest (duel) enemy: kept across boards
                    far = (u.uid, u.x, u.y, self._foes_version(u.side))
                    found = self.goal_memo.get(far)
                    if found is None:
                        found = self.goal_memo[far] = self._goal(u)
                    self.cache[key] = found
                else:
                    found = self.cache[key] = self._goal(u)
            return found
        return self._goal(u)

    def _foes_version(self, side: int) -> int:
        """A number for where the enemies of ``side`` stand (and who holds the markers): equal
        numbers, equal enemies.  What depends on nothing else (a group's Charge target, its
        nearest enemy) is kept across boards under it with the group's own position, so a
        group's move does not make its allies work out their charges again."""
        memo = self.cache if self.cache is not None else {}
        key = ("foes", side)
        found: int | None = memo.get(key)
        if found is None:
            foes = tuple([(e.uid, e.x, e.y) for e in self.sides[1 - side].units if e.state == "board"])
            found = memo[key] = self.foes_versions.setdefault((foes, self.board_signature[1]), len(self.foes_versions))
        return found

    def _goal(self, u: Unit) -> tuple[float, float]:
        if self.scenario == "king-of-the-hill" and self.hill is not None:
            return self.hill.x, self.hill.y
        if self.scenario == "capture-the-flags":
            held = next((m for m in self.markers if m.holder is u), None)
            if held is not None:
                edges = [(u.x, 0.0), (u.x, BOARD), (0.0, u.y), (BOARD, u.y)]
                return min(edges, key=lambda e: dist(u.x, u.y, *e))
            free = [m for m in self.markers if not m.off and (m.holder is None or m.holder.side != u.side)]
            if free:
                m = min(free, key=lambda m: dist(u.x, u.y, m.x, m.y))
                return m.x, m.y
        if self.scenario == "conquest":
            # the strip where u's side is furthest behind (then the nearest, then the first):
            # min() over the four strips by (balance, distance), written out
            mine, theirs = self._zone_points(u)
            ux = u.x
            zone, best_gap, best_far = 0, mine[0] - theirs[0], abs(50 - ux)
            for z in (1, 2, 3):
                gap, far = mine[z] - theirs[z], abs(z * 100 + 50 - ux)
                if gap < best_gap or (gap == best_gap and far < best_far):
                    zone, best_gap, best_far = z, gap, far
            return zone * 100 + 50, min(max(u.y, 60.0), BOARD - 60)
        enemies = self.enemies(u)  # listed only where the goal depends on them
        if self.scenario == "duel":
            targets = [e for e in enemies if e.duel_target]
            if targets:
                t = min(targets, key=lambda e: dist(u.x, u.y, e.x, e.y))
                return t.x, t.y
        if enemies:  # the nearest enemy, the first on a tie: min() by dist() inlined
            ux, uy = u.x, u.y
            t, near = enemies[0], INF
            for e in enemies:
                d = hypot(ux - e.x, uy - e.y)
                if d < near:
                    t, near = e, d
            return t.x, t.y
        return u.x, u.y

    def _zone_points(self, u: Unit) -> tuple[list[float], list[float]]:
        """Conquest: the points of ``u``'s allies (``u`` left out) and of its enemies on the
        board in each 100 mm strip.  The strips of both sides are summed once per board (board
        memo) and ``u``'s own points taken back out: whole points, so the sums are exact in
        any order."""
        cache = self.cache
        zones = cache.get("zones") if cache is not None else None
        if zones is None:
            zones = ([0.0] * 4, [0.0] * 4)
            for o in self.units:
                if o.state == "board":
                    zones[o.side][min(3, int(o.x // 100))] += o.points
            if cache is not None:
                cache["zones"] = zones
        mine, theirs = list(zones[u.side]), zones[1 - u.side]
        if u.state == "board":
            mine[min(3, int(u.x // 100))] -= u.points
        return mine, theirs

    def target_value(self, t: Unit) -> float:
        value = t.points * REMOVE_VALUE
        if self.scenario == "duel" and t.duel_target:
            value *= 2.5
        if any(m.holder is t for m in self.markers):
            value += 2.0
        return value

    def move_value(self, u: Unit, ex: float, ey: float) -> float:
        gx, gy = self.goal(u)
        progress = dist(u.x, u.y, gx, gy) - dist(ex, ey, gx, gy)
        return self.move_weight() * progress / 80.0

    def move_weight(self) -> float:
        """Value of 80 mm of progress towards the goal: more in objective scenarios, late."""
        if self.scenario in ("king-of-the-hill", "capture-the-flags", "conquest"):
            return 1.0 if self.round >= 3 else 0.6
        return 0.35

    def _markers_after_move(self, u: Unit) -> None:
        if not self.markers or u.state != "board":
            return
        side = self.sides[u.side]
        for m in self.markers:
            if m.holder is u:
                m.x, m.y = u.x, u.y
                near_edge = min(u.x, u.y, BOARD - u.x, BOARD - u.y) <= u.radius + 1
                if near_edge and m.taken_turn != self.turn_counter and not m.off:
                    m.off, m.holder = True, None
                    side.markers_off += 1
                    if self.logging:
                        self.log(f"{side.name} carries a flag off the board ({side.markers_off})")
                    self.check_victory()
        carried = any(m.holder is u for m in self.markers)
        if not carried and u.gtype != "ward" and side.momentum >= 1:
            for m in self.markers:
                if not m.off and m.holder is None and dist(u.x, u.y, m.x, m.y) <= u.radius + 6:
                    side.momentum -= 1
                    m.holder, m.taken_turn = u, self.turn_counter
                    if self.logging:
                        self.log(f"{u.name} takes a flag")
                    break

    def check_victory(self) -> None:
        if self.finished:
            return
        alive = [any(u.in_play for u in s.units) for s in self.sides]
        if not all(alive):
            self.finished = True
            self.winner = None if not any(alive) else (0 if alive[0] else 1)
            return
        if self.scenario == "capture-the-flags":
            for s in self.sides:
                if s.markers_off >= 2:
                    self.finished, self.winner = True, s.idx
                    return
        if self.scenario == "duel":
            done = [all(u.state == "out" for u in self.sides[1 - s.idx].units if u.duel_target) and any(u.duel_target for u in self.sides[1 - s.idx].units) for s in self.sides]
            if done[0] != done[1]:
                self.finished, self.winner = True, 0 if done[0] else 1
            elif done[0]:
                self.finished, self.winner = True, None

    def end_of_round(self) -> None:
        limit = self.scenario_rounds or self.round_limit
        if self.finished or self.round < limit:
            return
        if self.scenario == "king-of-the-hill" and self.hill is not None:
            score = [sum(u.points for u in s.units if u.state == "board" and dist(u.x, u.y, self.hill.x, self.hill.y) <= self.hill.r + u.radius + EPS) for s in self.sides]
            self._decide(score)
        elif self.scenario == "capture-the-flags":
            held = [sum(1 for m in self.markers if m.holder is not None and m.holder.side == s.idx) + s.markers_off for s in self.sides]
            if held[0] != held[1]:
                self._decide(held)
            else:
                near = [sum(u.points for u in s.units if u.state == "board" and dist(u.x, u.y, 200, 200) <= self.mm("M")) for s in self.sides]
                self._decide(near)
        elif self.scenario == "conquest":
            zones = [0, 0]
            centre = [0.0, 0.0]
            for z in range(4):
                pts = [sum(u.points for u in s.units if u.state == "board" and min(3, int(u.x // 100)) == z) for s in self.sides]
                if pts[0] != pts[1]:
                    zones[0 if pts[0] > pts[1] else 1] += 1
                if z in (1, 2):
                    centre[0] += pts[0]
                    centre[1] += pts[1]
            if zones[0] != zones[1]:
                self._decide(zones)
            elif centre[0] != centre[1]:
                self._decide(centre)
            elif not self.extra_round:
                self.extra_round = True
                self.scenario_rounds = limit + 1
            else:
                self.finished, self.winner = True, None
        else:
            self._decide([s.removed_points for s in self.sides])

    def _decide(self, score: Sequence[float]) -> None:
        self.finished = True
        self.winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
