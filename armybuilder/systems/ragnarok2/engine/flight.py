"""Flight: a routed unit runs for the table's edge (seed: Fleeing; Rout).

A fleeing unit loses its fighters in contact with an enemy, then moves MOV × 2: in the direction
of the assault that made it flee, away from the enemy that beat it in a fray (the engine's
reading: the fray's rout follows the assault that started the fray, and a unit in the middle
of the table does not run for an edge that lies behind that enemy), or else straight for the
nearest edge of the table. It goes
round friendly units and scenery (never through them): a first leg off its line, then on
along the line, the way that carries it furthest; a unit in close formation scatters as it
flees. It is eliminated when a member leaves the
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
        # The fighters turn where they stand (the block on its middle) and run: straight on
        # when nothing friendly or scenery stands in the way, else round it: a first leg off the
        # line (30 to 90 degrees, as long as it needs) and the rest along the line again, the
        # way that carries it furthest along its line (seed: "it bypasses friendly units and
        # elements of scenery").
        centre = u.box()
        hd = centre.hd
        box = Box(centre.cx, centre.cy, dx, dy, centre.hw, hd)
        straight = self.free_run(box, dx, dy, length, friends, edges=False)
        legs = [(dx, dy, straight)]
        if straight < length - 0.01:
            best = straight
            for degrees in _FLIGHT_TURNS[1:]:
                r = math.radians(degrees)
                ax, ay = dx * math.cos(r) - dy * math.sin(r), dx * math.sin(r) + dy * math.cos(r)
                along = ax * dx + ay * dy  # how much of a leg off the line still goes along it
                for share in (0.25, 0.5, 0.75, 1.0):
                    first = self.free_run(box, ax, ay, length * share, friends, edges=False)
                    if first <= 0.5:
                        continue
                    moved = Box(box.cx + ax * first, box.cy + ay * first, dx, dy, box.hw, hd)
                    second = self.free_run(moved, dx, dy, length - first, friends, edges=False) if first < length else 0.0
                    gain = along * first + second
                    if gain > best + 0.5:
                        best, legs = gain, [(ax, ay, first), (dx, dy, second)]
        # Into an enemy on the way: eliminated there.
        x, y = box.cx, box.cy
        run = 0.0
        for lx, ly, leg in legs:
            if leg <= 0.0:
                continue
            here = Box(x, y, dx, dy, box.hw, hd)
            for fb in foes:
                if sweep_time(here, lx * leg, ly * leg, fb) <= 1.0:
                    self._lost(u, f"flees {why} from {where} into an enemy unit and is eliminated")
                    return
            x, y = x + lx * leg, y + ly * leg
            run += leg
        hx, hy = dx, dy
        u.place(x + hx * hd, y + hy * hd, hx, hy)
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
