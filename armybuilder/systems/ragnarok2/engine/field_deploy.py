"""The field player's deployment: a line that answers the enemy's.

Deployment is a player's choice within the table's rules (decision R2-T2: the units side by
side from the centre out, a second line when the first is full; R2-T8: the player who loses the
deployment roll deploys first, the other with that army in view). The field player:

- **deploying first** stands its fighting units with the strongest in the middle and the fast
  ones on the wings (the classic order: :meth:`.policy.Policy.deployment`);
- **deploying second** orders its first line against the enemy's: each unit is worth the
  exchange it expects against the enemy units across from it (:func:`matchup`: the fray, and
  the volleys either side's marksmen fire while the lines close; the nearer across counting
  more), fast units keep a wing (a lane round the enemy's flank), and the order
  is improved by swapping two units while a swap gains (integer scores, then the classic order:
  the same army against the same deployment always stands the same way).

Who charges whom in a matchup follows the reach: the unit that charges further picks the
moment (it charges when the fray is worth it, else it keeps out of reach); between equal
reaches either may strike first, so both frays count half.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .line_ai import reach
from .policy import int_score

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Fighting

ACROSS = 15.0  # cm of lateral offset at which an enemy counts half as much as the one straight across
WING = 0.15  # share of a fast unit's A.P. a wing is worth to it (room to ride round the enemy's flank)
FAST = 15.0  # MOV from which a unit rides (the field player's fast units)
VOLLEYS = 2.0  # volleys a marksmen unit fires at the enemy across while the lines close in
MAX_PASSES = 12  # swaps tried at most this many times over (each pass takes the best swap)


def matchup(b: Battle, u: Fighting, e: Fighting) -> float:
    """The A.P. *u* expects to gain against *e* when they meet (see the module doc), and the
    volleys each side's marksmen fire at the other while they close in (:data:`VOLLEYS` at
    medium range)."""
    from .fray_worth import fray_value

    mine, theirs = reach(u), reach(e)
    if mine > theirs + 1.0:
        value = max(fray_value(b, u, e, True), 0.0)
    elif theirs > mine + 1.0:
        value = -max(fray_value(b, e, u, True), 0.0)
    else:
        value = 0.5 * (fray_value(b, u, e, True) - fray_value(b, e, u, True))
    return value + VOLLEYS * (volley_worth(b, u, e) - volley_worth(b, e, u))


def volley_worth(b: Battle, shooter: Fighting, target: Fighting) -> float:
    """The A.P. a volley of *shooter*'s marksmen is expected to take from *target* at medium
    range (Aim against its Size, STR against its RES)."""
    t = target.troops
    value = 0.0
    for g in shooter.shooting_groups:
        if not g.count or g.profile.ranged is None:
            continue
        hit, wounds = g.shot_value.get(("medium", t.size, t.base["res"])) or b._shot_value(g, "medium", t.size, t.base["res"])
        value += g.count * hit * wounds
    return value / max(t.wound_levels, 1) * t.cost


def answer(b: Battle, side: int, line: list[Fighting]) -> list[Fighting]:
    """*line* (the classic order) reordered against the enemy army already deployed."""
    foes = [e for e in b.sides[1 - side] if e.alive and not e.hidden]
    first, rest = b.deployment_rows(line)
    if len(first) < 2 or not foes:
        return line
    across = [(e.box().cx, e.width / 2.0, e) for e in foes]
    values: dict[tuple[int, int], float] = {}
    for u in first:
        for e in foes:
            values[(u.index, e.index)] = matchup(b, u, e)
    wing_worth = {u.index: WING * u.points if u.mov >= FAST else 0.0 for u in first}
    worth_at: dict[tuple[int, float], float] = {}  # a unit's worth at a place along the line (swaps try it again)

    def score(order: list[Fighting]) -> int:
        _left, _spacing, centres = b.row_along(order)
        total = 0.0
        last = len(order) - 1
        for k, (u, along) in enumerate(zip(order, centres, strict=True)):
            here = worth_at.get((u.index, along))
            if here is None:
                x = b._deploy_x(side, along)
                half = u.width / 2.0
                weighted = weights = 0.0
                for ex, ehalf, e in across:
                    lateral = abs(ex - x) - half - ehalf
                    w = 1.0 / (1.0 + (lateral / ACROSS) ** 2) if lateral > 0.0 else 1.0
                    weighted += w * values[(u.index, e.index)]
                    weights += w
                here = worth_at[(u.index, along)] = weighted / weights
            total += here
            if k == 0 or k == last:
                total += wing_worth[u.index]
        return int_score(total)

    order = list(first)
    best = score(order)
    for _ in range(MAX_PASSES):
        found = None
        for i in range(len(order) - 1):
            for j in range(i + 1, len(order)):
                trial = list(order)
                trial[i], trial[j] = trial[j], trial[i]
                value = score(trial)
                if value > best:
                    best, found = value, trial
        if found is None:
            break
        order = found
    return order + rest
