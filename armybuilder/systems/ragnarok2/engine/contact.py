"""Who stands in contact in a fray, read from where the units stand on the table.

The fray's contact stays a model (:mod:`.fray`: fighters touching along a common line, each
side of a pair bringing at most twice the other's fighters plus one), but the fighters it
brings are those the table puts there (seed: Movement during an assault; Push on):

- **An assault** places the assailants on the face of the target they reached (front, flank
  or rear: where they came from), the closest first, as many as the face's length holds for
  their bases, the others round its ends; the assailant's rear ranks follow only as far as the
  reach it had left lets them come round (``slack``). A fighter on a creature base assails two
  opponents on infantry or cavalry bases on their front or rear, one elsewhere
  (:func:`assailed_per_base`). The assailed unit meets them with the
  fighters on that face, and with the ends of its ranks behind when the assailants are more
  than the face holds. A unit withstanding the charge (Reaction) brings all its fighters.
- **A fray that goes on** (a later round, or after push on): a scattered unit's free fighters
  have come into contact (push on: "the fighters leave the formation to engage enemies"), so
  all its fighters fight, shared among its enemies; a close unit keeps its ranks, and fights
  with the fighters on each face it is engaged on.
- **Several enemies on one face** share its fighters between them, in enemy order.

Positions are slot indices (:func:`.formation.slots`): independents stand in the middle of
the front rank, so they fight a frontal assault and not a flank one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .formation import FRONT, REAR, face_length, face_positions, slots, world_slot, wrap_positions
from .fray import front_split

if TYPE_CHECKING:
    from .state import Fighting


def assailed_per_base(assails: int, target: Fighting, face: int) -> int:
    """How many opponents one assailant's base, able to assail *assails* at once, assails on
    *target*'s *face* (seed: Movement during an assault: creature bases assail two "against
    opponents on infantry or cavalry (front and rear only)" bases; one on a flank, or on a
    target on a creature base itself)."""
    if assails <= 1 or target.troops.assails > 1 or face not in (FRONT, REAR):
        return 1
    return assails


def _assailant_positions(u: Fighting, target: Fighting) -> list[int]:
    """The assailant's fighters that reach the target this round: its front rank, and the ranks
    behind as far as the reach it had left lets them come round (a rank's depth each)."""
    ss = slots(u)
    step = u.troops.base_d + (0.0 if u.close else u.open_gap)
    ranks_in = 1 + int(u.slack / step) if step > 0 else 1
    front = [i for i in face_positions(u, FRONT)]
    rest = [i for i, s in enumerate(ss) if 0 < s[4] < ranks_in]
    rest.sort(key=lambda i: (ss[i][4], abs(ss[i][0])))
    out = front + rest
    # The target's face holds so many of its bases; beyond that they go round its ends, on
    # each flank as many as its depth holds (one at least: the end fighter's side). The others
    # "simply follow their companions into combat" (seed: Movement during an assault).
    face = target.faces.get(u.index, FRONT)
    base = u.troops.base_w if u.troops.base_w > 0 else 2.5
    room = int(face_length(target, face) / base)
    side = int(face_length(target, 1 if face in (0, 2) else 0) / base)
    room += 2 * (side if side > 1 else 1)
    return out[:room]


def _assailed_positions(u: Fighting, face: int, opposite: int, frontage: float = 0.0, centre: tuple[float, float] | None = None) -> list[int]:
    """The fighters of an assailed unit the assailants reach: on the face it was reached on, the
    ones before the assailants' frontage (*frontage* cm wide, centred on *centre*: a base touches
    the fighter before it and the next one it overlaps), and, while the assailants (*opposite*
    bases' worth of opponents) are more, the ends of its other ranks, nearest first."""
    on_face = face_positions(u, face)
    if centre is not None and frontage > 0.0 and on_face:
        ss = slots(u)
        width = u.troops.base_w if u.troops.base_w > 0 else 2.5
        reach_n = int(frontage / width + 0.999) + 1
        if opposite > reach_n:
            reach_n = opposite
        if reach_n < len(on_face):
            cx, cy = centre
            on_face = sorted(on_face, key=lambda i: (_dist2(world_slot(u, ss[i]), cx, cy), i))[:reach_n]
    if opposite > len(on_face):
        on_face = on_face + wrap_positions(u, face)[: opposite - len(on_face)]
    return on_face


def _dist2(p: tuple[float, float], x: float, y: float) -> float:
    return (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y)


def contact_positions(u: Fighting, foes: list[Fighting]) -> dict[int, tuple[int, ...]]:
    """For each live enemy *u* is engaged with (*foes*, in index order), the positions of *u*'s
    fighters that face it (see the module doc)."""
    out: dict[int, tuple[int, ...]] = {}
    going_on: list[Fighting] = []  # enemies of a fray that goes on, for a scattered unit
    by_face: dict[int, list[tuple[Fighting, list[int]]]] = {}
    for e in foes:
        j = e.index
        if j in u.assailed_by_me:
            out[j] = tuple(_assailant_positions(u, e))
            continue
        if not u.close and j not in u.new_foes:
            going_on.append(e)
            continue
        face = u.faces.get(j, FRONT)
        if j in u.withstood:
            ss = slots(u)
            first = _assailed_positions(u, face, len(ss))
            seen = set(first)
            positions = first + [i for i in range(len(ss)) if i not in seen]
        elif u.index in e.assailed_by_me:
            # A fresh assault: the fighters before the assailants' frontage, each of their bases
            # taking as many opponents as it can assail (creature bases two).
            coming = _assailant_positions(e, u)
            ess = slots(e)
            frontage = e.width if len(coming) >= e.files else len(coming) * (e.troops.base_w + (0.0 if e.close else e.open_gap))
            opposite = sum(assailed_per_base(e.groups[ess[i][2]].assails, u, face) for i in coming)
            positions = _assailed_positions(u, face, opposite, frontage, (e.x, e.y))
        else:
            positions = _assailed_positions(u, face, _expected(e, u))
        by_face.setdefault(face, []).append((e, positions))
    for _face, entries in by_face.items():
        if len(entries) == 1:
            e, positions = entries[0]
            out[e.index] = tuple(positions)
            continue
        # several enemies on one face: its fighters shared between them, in enemy order
        positions = entries[0][1]
        for (e, _p), share in zip(entries, front_split(len(positions), len(entries)), strict=True):
            out[e.index] = tuple(positions[k] for k in share)
    if going_on:
        taken = {p for ps in out.values() for p in ps}
        free = [i for i in range(len(slots(u))) if i not in taken]
        if len(going_on) == 1:
            out[going_on[0].index] = tuple(free)
        else:
            for e, share in zip(going_on, front_split(len(free), len(going_on)), strict=True):
                out[e.index] = tuple(free[k] for k in share)
    return out


def _expected(e: Fighting, u: Fighting) -> int:
    """How many fighters enemy *e* brings against *u* (the assailed unit's wrap reads it): those
    able to reach when it assailed *u*, else its front rank."""
    if u.index in e.assailed_by_me:
        return len(_assailant_positions(e, u))
    return e.front()
