"""A unit's footprint on the table: its fighters' bases in ranks and files (decision R2-T4).

A unit stands as a block: ``files`` fighters in its front rank, the others in ranks behind, the
bases edge to edge in close formation and a small gap apart in scattered formation (coherence
asks at most 2.5 cm). Independents (Characters, leader, musician, standard bearer) stand in the
middle of the front rank, the troops round and behind them. Losses come from the rear rank,
so the front keeps its width while the unit has the fighters for it.

The block is described in the unit's own frame: *across* its facing (negative to its left)
and *along* it (0 on the front edge, negative behind). Each fighter's place is a *slot*
``(across, along, group, file, rank)``, in a fixed order (independents first, centre out,
then the troops rank by rank): a slot's index is the fighter's position in the fray's contact
rows, so who touches whom is read from where the fighters stand.

A face of the block (0 front, 1 right, 2 rear, 3 left) is *exposed* through the fighters on
it: the front rank, the rear rank, the ends of every rank. Those are the fighters an assailant
meets on that face, and the fighters of a close unit a marksman can target from that side
(seed: a fighter even partially behind another element of the unit cannot be targeted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Fighting

FRONT, RIGHT, REAR, LEFT = 0, 1, 2, 3
FACE_NAMES = ("front", "right flank", "rear", "left flank")

# Slot: (across, along, group index, file, rank)
Slot = tuple[float, float, int, int, int]


def start_files(count: int, close: bool, min_files: int) -> int:
    """Files of a unit as it deploys (R2-T4): a close unit at least *min_files* wide, two ranks
    when it is larger; a scattered one two ranks (one for three fighters or fewer)."""
    if count <= 0:
        return 1
    if close:
        files = max(min_files, (count + 1) // 2)
        return files if files < count else count
    return count if count <= 3 else (count + 1) // 2


def shape(u: Fighting) -> None:
    """The unit's width, depth and files from its numbers and bases (after a loss, a return, a
    change of formation); its slots are found again when next asked."""
    n = u.count
    files = u.cols if u.cols < u.max_files else u.max_files
    if files > n:
        files = n
    if files < 1:
        files = 1
    u.files = files
    ranks = (n + files - 1) // files if n > 0 else 1
    gap = 0.0 if u.close else u.open_gap
    pitch_w, pitch_d = u.troops.base_w, u.troops.base_d
    first = pitch_d
    for g in u.groups:
        if g.count > 0 and g is not u.troops and g.base_d > first:
            first = g.base_d  # an independent on a deeper base deepens the front rank
    u.width = files * pitch_w + (files - 1) * gap
    u.depth = first + (ranks - 1) * (pitch_d + gap)
    u.first_depth = first
    u.slot_list = None
    u.moved_box()


def _centre_out(files: int) -> list[int]:
    """File indices from the middle of a rank outward (the independents' places)."""
    mid = (files - 1) // 2
    out = [mid]
    for k in range(1, files):
        for f in (mid - k, mid + k) if files % 2 else (mid + k, mid - k):
            if 0 <= f < files and f not in out:
                out.append(f)
    return out


def slots(u: Fighting) -> list[Slot]:
    """Every live fighter's place in the unit's frame, in contact-row order (see the module doc)."""
    found = u.slot_list
    if found is not None:
        return found
    files = u.files
    gap = 0.0 if u.close else u.open_gap
    pitch_w, pitch_d = u.troops.base_w, u.troops.base_d
    step_w = pitch_w + gap
    left = -(files - 1) * step_w / 2.0
    order: list[int] = []  # group index per fighter: independents first, then the troops
    troops = u.troops
    for gi, g in enumerate(u.groups):
        if g is not troops and g.count > 0:
            order += [gi] * g.count
    if troops.count > 0:
        order += [u.groups.index(troops)] * troops.count
    places: list[tuple[int, int]] = []  # (file, rank) per fighter in that order
    front = _centre_out(files)
    independents = len(order) - troops.count
    taken: set[tuple[int, int]] = set()
    for k in range(min(independents, files)):
        places.append((front[k], 0))
        taken.add((front[k], 0))
    rank, file = 0, 0
    while len(places) < len(order):
        spot = (file, rank)
        if spot not in taken:
            places.append(spot)
            taken.add(spot)
        file += 1
        if file >= files:
            file, rank = 0, rank + 1
    out: list[Slot] = []
    for gi, (f, r) in zip(order, places, strict=True):
        depth = u.groups[gi].base_d if r == 0 else pitch_d
        along = -depth / 2.0 if r == 0 else -(u.first_depth + (r - 1) * (pitch_d + gap) + gap + pitch_d / 2.0)
        out.append((left + f * step_w, along, gi, f, r))
    u.slot_list = out
    return out


def face_positions(u: Fighting, face: int) -> list[int]:
    """The positions (slot indices) of the fighters on a face of the block, from its left end
    to its right end as an assailant facing it sees them."""
    ss = slots(u)
    if not ss:
        return []
    if face == FRONT:
        row = [(s[0], i) for i, s in enumerate(ss) if s[4] == 0]
        return [i for _, i in sorted(row)]
    if face == REAR:
        last = max(s[4] for s in ss)
        row = [(-s[0], i) for i, s in enumerate(ss) if s[4] == last]
        return [i for _, i in sorted(row)]
    ends: dict[int, tuple[float, int]] = {}  # rank -> the fighter at that end of it
    for i, s in enumerate(ss):
        here = ends.get(s[4])
        key = s[0] if face == LEFT else -s[0]
        if here is None or key < here[0]:
            ends[s[4]] = (key, i)
    return [ends[r][1] for r in sorted(ends)]  # front rank first


def face_length(u: Fighting, face: int) -> float:
    return u.width if face in (FRONT, REAR) else u.depth


def wrap_positions(u: Fighting, face: int) -> list[int]:
    """The fighters an assailant reaches past the ends of a face, nearest first: the ends of the
    ranks behind a front (or before a rear), alternately left and right; past a flank, the front
    and rear ranks' fighters nearest that flank."""
    ss = slots(u)
    on_face = set(face_positions(u, face))
    if face in (FRONT, REAR):
        lefts, rights = face_positions(u, LEFT), face_positions(u, RIGHT)
        if face == FRONT:  # front ranks first
            lefts = sorted(lefts, key=lambda i: ss[i][4])
            rights = sorted(rights, key=lambda i: ss[i][4])
        else:
            lefts = sorted(lefts, key=lambda i: -ss[i][4])
            rights = sorted(rights, key=lambda i: -ss[i][4])
        out: list[int] = []
        for a, b in zip(lefts, rights, strict=False):
            for i in (a, b):
                if i not in on_face and i not in out:
                    out.append(i)
        for i in lefts + rights:
            if i not in on_face and i not in out:
                out.append(i)
        return out
    side = -1.0 if face == LEFT else 1.0
    near = sorted((i for i in range(len(ss)) if i not in on_face and ss[i][4] in (0, max(s[4] for s in ss))),
                  key=lambda i: -side * ss[i][0])  # fmt: skip
    return near


def face_toward(u: Fighting, px: float, py: float) -> int:
    """The face of the unit's block that looks toward the point (its outward normal the nearest
    to the point's direction, the block's proportions counted)."""
    box = u.box()
    a, b = box.local(px, py)
    hw, hd = box.hw if box.hw > 0 else 1.0, box.hd if box.hd > 0 else 1.0
    if abs(b) / hd >= abs(a) / hw:
        return FRONT if b >= 0.0 else REAR
    return RIGHT if a >= 0.0 else LEFT


def face_point(u: Fighting, face: int, offset: float = 0.0) -> tuple[float, float, float, float]:
    """(x, y) of the middle of a face shifted by *offset* along it (to the right as seen from
    outside), and its outward normal."""
    box = u.box()
    rx, ry = box.uy, -box.ux
    if face == FRONT:
        nx, ny = box.ux, box.uy
        cx, cy = box.cx + nx * box.hd, box.cy + ny * box.hd
        tx, ty = -rx, -ry  # seen from the front, its right is the unit's left
    elif face == REAR:
        nx, ny = -box.ux, -box.uy
        cx, cy = box.cx + nx * box.hd, box.cy + ny * box.hd
        tx, ty = rx, ry
    elif face == RIGHT:
        nx, ny = rx, ry
        cx, cy = box.cx + nx * box.hw, box.cy + ny * box.hw
        tx, ty = box.ux, box.uy
    else:
        nx, ny = -rx, -ry
        cx, cy = box.cx + nx * box.hw, box.cy + ny * box.hw
        tx, ty = -box.ux, -box.uy
    return cx + tx * offset, cy + ty * offset, nx, ny


def world_slot(u: Fighting, s: Slot) -> tuple[float, float]:
    """A slot's place on the table."""
    return u.x + s[0] * u.uy + s[1] * u.ux, u.y - s[0] * u.ux + s[1] * u.uy


def member_point(u: Fighting, gi: int) -> tuple[float, float, float] | None:
    """(x, y, half its base) of the first live fighter of group *gi* of the unit, on the table:
    where a commander, musician, standard bearer or mystic stands (None: none left)."""
    g = u.groups[gi]
    if g.count <= 0:
        return None
    for s in slots(u):
        if s[2] == gi:
            x, y = world_slot(u, s)
            half = (g.base_w if g.base_w < g.base_d else g.base_d) / 2.0
            return x, y, half
    return None
