"""What each scenario asks of a game in play [Scenarios]: the markers a group takes or carries
off, victory and the scores at the round limit; and where a moving group is headed, which is the
owner's choice (asked of its policy).

Why here, below the rules of setup, combat, reactions and actions: every one of them asks
where a group is headed (a DEFY! move, a Crashing Wave, Vengeance) or whether the game is
over, and a phase may only call what the classes it stands on define (see :mod:`gamestate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from .board import BOARD, EPS, dist
from .geometry import Geometry
from .state import Marker, Unit

if TYPE_CHECKING:
    from .game import Game


class ScenarioRules(Geometry):
    """Markers, victory and the final scores per scenario; a group's goal asked of its player."""

    __slots__ = ()

    def goal(self, u: Unit) -> tuple[float, float]:
        """Where ``u``'s player wants it to go (its policy's answer)."""
        return self.policies[u.side].goal(cast("Game", self), u)

    def zone_points(self) -> tuple[list[float], list[float]]:
        """Conquest [Scenarios: Conquest]: each side's points on the board in each of the four
        100 mm zones (a group is in the zone its centre is in); board memo while options are scored."""
        cache = self.cache
        zones = cache.get("zones") if cache is not None else None
        if zones is None:
            zones = ([0.0] * 4, [0.0] * 4)
            for o in self.units:
                if o.state == "board":
                    zones[o.side][min(3, int(o.x // 100))] += o.points
            if cache is not None:
                cache["zones"] = zones
        return zones

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
                        self.log(f"{u.name} carries a flag off the board ({side.name}: {side.markers_off} of 2)")
                    self.check_victory()
        carried = any(m.holder is u for m in self.markers)
        if not carried and u.gtype != "ward" and side.momentum >= 1:
            for m in self.markers:
                if not m.off and m.holder is None and dist(u.x, u.y, m.x, m.y) <= u.radius + 6:
                    if not self.policies[u.side].take_flag(cast("Game", self), u, m):
                        break
                    side.momentum -= 1
                    m.holder, m.taken_turn = u, self.turn_counter
                    self.note(u.side, "take-flag")
                    if self.logging:
                        self.log(f"{u.name} takes a flag for 1 momentum ({side.name}: {side.momentum} left)")
                    break

    def drop_flag(self, u: Unit, why: str) -> None:
        """[Capture the Flags] a group forced to a Will check or moved by the enemy loses its flag."""
        for m in self.markers:
            if m.holder is u:
                m.holder = None
                if self.logging:
                    self.log(f"{u.name} drops its flag ({why})")

    def markers_held(self) -> list[Marker]:
        return [m for m in self.markers if m.holder is not None]

    def check_victory(self) -> None:
        if self.finished:
            return
        alive = [any(u.in_play for u in s.units) for s in self.sides]
        if not all(alive):
            self.finished = True
            self.winner = None if not any(alive) else (0 if alive[0] else 1)
            if self.logging:
                gone = [s.name for s, a in zip(self.sides, alive, strict=True) if not a]
                self.log(f"{' and '.join(gone)}: no group left in play")
            return
        if self.scenario == "capture-the-flags":
            for s in self.sides:
                if s.markers_off >= 2:
                    self.finished, self.winner = True, s.idx
                    if self.logging:
                        self.log(f"{s.name} has carried two flags off the board")
                    return
        if self.scenario == "duel":
            done = [all(u.state == "out" for u in self.sides[1 - s.idx].units if u.duel_target) and any(u.duel_target for u in self.sides[1 - s.idx].units) for s in self.sides]
            if done[0] or done[1]:
                if self.logging:
                    self.log("duel: " + "; ".join(f"{s.name} has removed every target" for s, d in zip(self.sides, done, strict=True) if d))
            if done[0] != done[1]:
                self.finished, self.winner = True, 0 if done[0] else 1
            elif done[0]:
                self.finished, self.winner = True, None

    def end_of_round(self) -> None:
        limit = self.scenario_rounds or self.round_limit
        if self.finished or self.round < limit:
            return
        names = [s.name for s in self.sides]
        if self.scenario == "king-of-the-hill" and self.hill is not None:
            hill = self.hill
            score = [sum(u.points for u in s.units if u.state == "board" and dist(u.x, u.y, hill.x, hill.y) <= hill.r + u.radius + EPS) for s in self.sides]
            if self.logging:
                self.log(f"King of the Hill after {self.round} rounds: points in or touching the hill {names[0]} {score[0]}, {names[1]} {score[1]}")
            self._decide(score)
        elif self.scenario == "capture-the-flags":
            held = [sum(1 for m in self.markers if m.holder is not None and m.holder.side == s.idx) + s.markers_off for s in self.sides]
            if self.logging:
                self.log(f"Capture the Flags after {self.round} rounds: flags controlled or carried off {names[0]} {held[0]}, {names[1]} {held[1]}")
            if held[0] != held[1]:
                self._decide(held)
            else:
                near = [sum(u.points for u in s.units if u.state == "board" and dist(u.x, u.y, 200, 200) <= self.mm("M")) for s in self.sides]
                if self.logging:
                    self.log(f"  equal: points within M of the centre {names[0]} {near[0]}, {names[1]} {near[1]}")
                self._decide(near)
        elif self.scenario == "conquest":
            zones = [0, 0]
            centre = [0.0, 0.0]
            counts: list[str] = []
            for z in range(4):
                pts = [sum(u.points for u in s.units if u.state == "board" and min(3, int(u.x // 100)) == z) for s in self.sides]
                counts.append(f"{pts[0]}–{pts[1]}")
                if pts[0] != pts[1]:
                    zones[0 if pts[0] > pts[1] else 1] += 1
                if z in (1, 2):
                    centre[0] += pts[0]
                    centre[1] += pts[1]
            if self.logging:
                self.log(f"Conquest after {self.round} rounds: points per zone {', '.join(counts)}; zones won {names[0]} {zones[0]}, "
                         f"{names[1]} {zones[1]}; centre zones {centre[0]:g}–{centre[1]:g}")  # fmt: skip
            if zones[0] != zones[1]:
                self._decide(zones)
            elif centre[0] != centre[1]:
                self._decide(centre)
            elif not self.extra_round:
                self.extra_round = True
                self.scenario_rounds = limit + 1
                if self.logging:
                    self.log("Conquest: still equal, a fifth round is played")
            else:
                self.finished, self.winner = True, None
        else:
            removed = [s.removed_points for s in self.sides]
            if self.logging:
                self.log(f"{self.round} rounds played: enemy points removed {names[0]} {removed[0]:g}, {names[1]} {removed[1]:g}")
            self._decide(removed)

    def _decide(self, score: Sequence[float]) -> None:
        self.finished = True
        self.winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
