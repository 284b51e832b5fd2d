"""Fighter-by-fighter sight for a volley (seed: Line of sight, Shooting; R2-D10).

"Only the fighter with a proper line of sight on an enemy unit can shoot at it. Only the
visible fighters can be targeted and, if need be, eliminated." A volley therefore asks, for
each marksman and each fighter it may target:

- **Which marksmen**: in close formation the two front ranks shoot (the second rank sees as
  the first); in scattered formation every fighter.
- **Which targets**: any fighter of a scattered unit; of a close unit only the fighters on the
  faces turned toward the marksmen (one even partly behind another element of the unit cannot
  be targeted). Only the type of fighters the volley aims at (the troops, or one independent).
- **The field of view**: the target stands before the marksmen's front (180°).
- **The sight line** between the centres of the two bases: a piece of scenery or another unit
  across it hides the target unless the marksman or the target is of a larger Size than the
  obstacle; seen over such a smaller obstacle, or past an obstacle that grazes the line without
  cutting it (within half a base of it), the target is only partially visible (Aim +1).

Each marksman shoots at the nearest target it sees (fully visible ones first). Obstacles are
looked for only where the two units' bounds meet, so shooting across an open table costs one
test per pair of fighters in the worst case and none when nothing stands between them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .formation import FRONT, LEFT, REAR, RIGHT, face_positions, slots, world_slot
from .geometry import Box, band_of, box_meets_band, segment_hits_box, unit_vector

if TYPE_CHECKING:
    from .base import BattleBase
    from .state import Fighting

FULL, PARTIAL = 2, 1


class Aim:
    """One marksman's shot: its position in its unit, the target it shoots (the nearest it sees
    best), the distance edge to edge, whether that target is only partly visible, and every
    fighter of the type it sees (the volley's losses are capped by those)."""

    __slots__ = ("marksman", "target", "distance", "partial", "seen")

    def __init__(self, marksman: int, target: int, distance: float, partial: bool, seen: tuple[int, ...]) -> None:
        self.marksman = marksman
        self.target = target
        self.distance = distance
        self.partial = partial
        self.seen = seen


def marksmen(u: Fighting, group: int) -> list[int]:
    """Positions of the unit's fighters of *group* that may shoot (two front ranks if close)."""
    close = u.close
    return [i for i, s in enumerate(slots(u)) if s[2] == group and (not close or s[4] <= 1)]


def targetable(target: Fighting, group: int, sx: float, sy: float) -> list[int]:
    """Positions of the target's fighters of *group* a marksman standing about (sx, sy) may
    target: all of a scattered unit, the faces of a close unit turned toward (sx, sy)."""
    ss = slots(target)
    if not target.close:
        return [i for i, s in enumerate(ss) if s[2] == group]
    box = target.box()
    a, b = box.local(sx, sy)
    faces = []
    if b > box.hd:
        faces.append(FRONT)
    if b < -box.hd:
        faces.append(REAR)
    if a > box.hw:
        faces.append(RIGHT)
    if a < -box.hw:
        faces.append(LEFT)
    seen: list[int] = []
    for f in faces:
        for i in face_positions(target, f):
            if ss[i][2] == group and i not in seen:
                seen.append(i)
    return seen


def aims(b: BattleBase, shooter: Fighting, group: int, target: Fighting, target_group: int, conscious: bool = False) -> list[Aim]:
    """Every marksman of *group* of *shooter* that sees a fighter of *target_group* of *target*,
    with its nearest such target (see the module doc)."""
    shooters = marksmen(shooter, group)
    if not shooters:
        return []
    sbox = shooter.box()
    own = shooter.groups[group]
    s_rank = own.rank
    t_rank = target.groups[target_group].rank
    half_t = target.groups[target_group].base_w / 2.0
    half_s = own.base_w / 2.0
    candidates = targetable(target, target_group, sbox.cx, sbox.cy)
    if not candidates:
        return []
    tss = slots(target)
    tpos = [world_slot(target, tss[i]) for i in candidates]
    obstacles: list[tuple[Box, int]] = b.sight_obstacles(shooter, target)
    # each obstacle grown by half a target's base: a line that cuts it grazes the obstacle
    grazed = [Box(box.cx, box.cy, box.ux, box.uy, box.hw + half_t, box.hd + half_t) for box, _rank in obstacles]
    ss = slots(shooter)
    mpos = [world_slot(shooter, ss[m]) for m in shooters]
    if grazed:
        # Only the obstacles that come near the band of every sight line can cut one of them.
        tb = target.box()
        dx, dy = unit_vector(tb.cx - sbox.cx, tb.cy - sbox.cy)
        band = band_of(mpos + tpos, sbox.cx, sbox.cy, dx, dy)
        kept = [o for o, g in enumerate(grazed) if box_meets_band(g, sbox.cx, sbox.cy, dx, dy, band)]
        if len(kept) < len(grazed):
            obstacles = [obstacles[o] for o in kept]
            grazed = [grazed[o] for o in kept]
    front_line = sbox.hd - 1e-6
    out = []
    # the bounds of every target position: an obstacle whose grown box stands clear of them and
    # of the marksman is crossed by none of its sight lines (segment_box_entry's bounds test)
    tx0 = min(p[0] for p in tpos)
    tx1 = max(p[0] for p in tpos)
    ty0 = min(p[1] for p in tpos)
    ty1 = max(p[1] for p in tpos)
    for m, (mx, my) in zip(shooters, mpos, strict=True):
        x0, x1 = (mx if mx < tx0 else tx0) - 1e-3, (mx if mx > tx1 else tx1) + 1e-3
        y0, y1 = (my if my < ty0 else ty0) - 1e-3, (my if my > ty1 else ty1) + 1e-3
        near = [o for o, g in enumerate(grazed) if g.x0 < x1 and x0 < g.x1 and g.y0 < y1 and y0 < g.y1]
        best: tuple[int, float, int] | None = None  # (visibility, distance, target position)
        seen_all: list[int] = []
        for k, (tx, ty) in zip(candidates, tpos, strict=True):
            # field of view: before the unit's front (its second rank sees as the first)
            if (tx - sbox.cx) * sbox.ux + (ty - sbox.cy) * sbox.uy < front_line and not conscious:
                continue
            seen = FULL
            for o in near:
                box, rank = obstacles[o]
                if segment_hits_box(mx, my, tx, ty, box):
                    if rank < s_rank or rank < t_rank:
                        seen = PARTIAL  # over a smaller obstacle
                    else:
                        seen = 0
                        break
                elif seen == FULL and segment_hits_box(mx, my, tx, ty, grazed[o]):
                    seen = PARTIAL  # past an obstacle that grazes the line
            if not seen:
                continue
            seen_all.append(k)
            d = math.hypot(tx - mx, ty - my) - half_s - half_t
            if d < 0.0:
                d = 0.0
            if best is None or seen > best[0] or (seen == best[0] and d < best[1]):
                best = (seen, d, k)
        if best is not None:
            out.append(Aim(m, best[2], best[1], best[0] == PARTIAL, tuple(seen_all)))
    return out
