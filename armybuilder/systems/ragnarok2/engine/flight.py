"""Flight: a routed unit runs for the table's edge (seed: Fleeing; Rout).

A fleeing unit loses its fighters in contact with an enemy, then moves MOV × 2: in the direction
of the assault that made it flee, away from the enemy that beat it in a fray (the engine's
reading: the fray's rout follows the assault that started the fray, and a unit in the middle
of the table does not run for an edge that lies behind that enemy), or else straight for the
nearest edge of the table. It goes
round friendly units and scenery (never through them), turning off its line as little as it
can; a unit in close formation scatters as it flees. It is eliminated when a member leaves the
table by any edge, or when its flight brings it into contact with an enemy unit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import trait

from .base import BattleBase
from .formation import shape
from .fray import unit_key
from .geometry import Box, sweep_time, unit_vector
from .narration import at, name, turning
from .state import Fighting

if TYPE_CHECKING:
    from .battle import Battle  # noqa

_FLIGHT_TURNS = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)  # degrees off the flight's line tried round friends and scenery


@trait
class FlightRules(BattleBase):
    __slots__ = ()

    def flee(self, u: Fighting, away: tuple[float, float] | None = None, why: str = "in the direction of the assault") -> None:
        """Flee MOV × 2 (see the module doc): along *away* (said *why*), else for the nearest edge."""
        before = self.phase
        self.phase = "rout"
        try:
            self._flee(u, away, why)
        finally:
            self.phase = before

    def _flee(self, u: Fighting, away: tuple[float, float] | None, why: str) -> None:
        if u.engaged:
            self.kill_in_contact(u, None)
        if not u.alive:
            return
        u.loose = False
        shape(u)  # a routed unit is scattered (Fighting.close reads its state)
        if away is None:
            _d, dx, dy = self.nearest_edge(u)
            why = "for the nearest edge"
        else:
            dx, dy = unit_vector(away[0], away[1])
        length = u.mov * 2.0
        where, facing = at(u), (u.ux, u.uy)
        friends = [p.box for p in self.field.blocking] + [v.box() for v in self.sides[u.side] if v is not u and v.alive and v.state != "gone"]
        foes = [v.box() for v in self.sides[1 - u.side] if v.alive and v.state != "gone"]
        # The fighters turn where they stand (the block on its middle) and run.
        centre = u.box()
        hd = centre.hd
        best = None
        for degrees in _FLIGHT_TURNS:
            r = math.radians(degrees)
            hx, hy = dx * math.cos(r) - dy * math.sin(r), dx * math.sin(r) + dy * math.cos(r)
            box = Box(centre.cx, centre.cy, hx, hy, centre.hw, hd)
            run = self.free_run(box, hx, hy, length, friends, edges=False)
            if best is None or run > best[2] + 0.5:
                best = (hx, hy, run)
            if run >= length - 0.01:
                break
        assert best is not None
        hx, hy, run = best
        box = Box(centre.cx, centre.cy, hx, hy, centre.hw, hd)
        # Into an enemy on the way: eliminated there.
        for fb in foes:
            t = sweep_time(box, hx * run, hy * run, fb)
            if t <= 1.0:
                self._lost(u, f"flees {why} from {where} into an enemy unit and is eliminated")
                return
        u.place(centre.cx + hx * (hd + run), centre.cy + hy * (hd + run), hx, hy)
        self.moved(u)
        x0, y0, x1, y1 = u.box().bounds()
        if x0 < 0.0 or y0 < 0.0 or x1 > self.field.width or y1 > self.field.depth:
            self._lost(u, f"flees {why} from {where} off the table")
            return
        if self.logging:
            self.say(f"{name(self, u)} flees {why}: {run:.1f} cm from {where} to {at(u)}{turning(u, *facing)}")

    def _lost(self, u: Fighting, how: str) -> None:
        if self.logging:
            self.say(f"{name(self, u)} {how}")
        self.eliminate_points(None, u, u.points_alive())
        for g in u.groups:
            g.count = 0
        u.recount()
        u.state = "gone"
        self.break_contacts(u)

    def kill_in_contact(self, u: Fighting, killer: Fighting | None) -> None:
        """A routed unit that flees loses its fighters in contact, whatever their Wound levels
        (seed: Fleeing): the fighters touching an enemy in its fray's contact."""
        chain = [u] + [self.enemy_unit(u, j) for j in sorted(u.engaged) if self.enemy_unit(u, j).alive]
        chain.sort(key=lambda x: (x.side, x.index))
        fighters = self.build_contact(chain)
        per_group: dict[int, int] = {}
        for f in fighters.get(unit_key(u.side, u.index), []):
            if f.touches:
                per_group[f.group] = per_group.get(f.group, 0) + 1
        self.eliminate_in_contact(u, killer, per_group)
