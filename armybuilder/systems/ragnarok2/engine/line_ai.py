"""The line player: units that keep a line and avoid gang-ups.

Four habits on top of the classic player's (:class:`.policy.Policy`), read on the table:

- **A posture each round.** A side *attacks* when the enemy out-shoots it (the enemy's volleys
  are expected to take more than 5/4 of the A.P. its own take), when it is losing (the enemy
  destroyed a share of its army at least the draw band larger), or when its standing army is
  worth at least the enemy's and it does not out-shoot the enemy; otherwise it *holds*: its
  units keep out of the charge reach of the enemies and let them come.
- **No lone charges into gang-ups.** Before an assault the unit counts the enemy units that
  could reach its target (MOV × 2, edge to edge) and the friends that could; it charges only
  when it would not be outnumbered there, or when the exchange it expects covers what the
  extra enemies would take from it (the most dangerous of them, one per enemy beyond its
  friends). Otherwise it keeps with the line (Progress).
- **A line that keeps its pace.** A unit under Progress stops a few centimetres ahead of its
  side's line (the median of where its friends will stand after their own move: a friend still
  to activate counts at its Run), measured toward the enemy's edge; it never runs to a spot
  just short of an enemy: it stops out of the enemy's charge reach when it can still charge
  from there next round; an attacking unit that cannot stops where it can charge next round.
- **Targets on the exchange.** Charge targets are ranked on the exchange expected (A.P. it
  inflicts minus A.P. it suffers); an attacking unit also charges an even exchange (the charger
  strikes first: a quarter of the reply counts as saved), and equal exchanges go to the target
  where fewer enemies than friends can join.

This is the player the engine had before it played on a table, its questions asked of the
table; :mod:`.field_ai` plays better (it is measured against this one: ``tests/ragnarok2``).
Integer scores and unit indices break every tie.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .ai import answers_enemy_mystics, casts_its_own, fires_after_marching
from .policy import Policy, approach_move, int_score, nearest_standing

if TYPE_CHECKING:
    from .assault import AssaultOption
    from .battle import Battle
    from .state import Fighting

LINE_LEAD = 6.0  # cm a unit under Progress may stand ahead of its side's line
GANG_MARGIN = 0  # enemies beyond the friends able to join that make a charge a gang-up
OUTSHOT_RATIO = (5, 4)  # the enemy's volleys worth more than 5/4 of the side's own: out-shot
FIRST_STRIKE = 0.25  # share of the reply an attacking charger counts as saved by striking first
DRAW_MARGIN_PERCENT = 5  # the victory rule's draw band (battle.py)
_REPLY_KEPT = 1.0 - FIRST_STRIKE
_OUTSHOT_KEYS = (("outshot", 0), ("outshot", 1))
_FIRE_KEYS = (("firepower", 0), ("firepower", 1))
_ATTACKING_KEYS = (("attacking", 0), ("attacking", 1))


def reach(u: Fighting) -> float:
    return u.mov * 2.0


def standing_points(b: Battle, side: int) -> int:
    total = 0
    for u in b.sides[side]:
        if u.alive and u.state != "rout":
            total += u.points
    return total


def list_cost(b: Battle, side: int) -> int:
    total = b.info[side].get("total_cost")
    if total is None:
        total = sum(u.cost for u in b.sides[side])
    return max(int(total), 1)


def losing(b: Battle, side: int) -> bool:
    """The enemy destroyed a share of this side's army at least the draw band larger than the
    share this side destroyed (integer cross-products, as the victory rule reads them)."""
    own, foe = list_cost(b, side), list_cost(b, 1 - side)
    mine, theirs = int(b.scores[side]), int(b.scores[1 - side])
    return (theirs * foe - mine * own) * 100 >= DRAW_MARGIN_PERCENT * own * foe


def winning(b: Battle, side: int) -> bool:
    """This side destroyed a share of the enemy army at least the draw band larger than the
    share the enemy destroyed of its own (it would win if the game ended now)."""
    return losing(b, 1 - side)


def firepower(b: Battle, side: int) -> float:
    """A.P. a volley of the side's marksmen is expected to take at medium range, each group at
    the enemy unit it hurts most (Aim against the target's Size, STR against its RES)."""
    kinds = []
    for e in b.sides[1 - side]:
        if e.alive and e.state != "rout":
            t = e.troops
            kinds.append((t.size, t.base["res"], t.wound_levels, t.cost))
    total = 0.0
    for u in b.sides[side]:
        if not u.alive or u.state == "rout":
            continue
        for g in u.shooting_groups:
            if not g.count:
                continue
            best = 0.0
            for size, res, levels, cost in kinds:
                hit, wounds = g.shot_value.get(("medium", size, res)) or b._shot_value(g, "medium", size, res)
                value = hit * wounds / (levels if levels > 1 else 1) * cost
                if value > best:
                    best = value
            total += g.count * best
    return total


def worth(attacking: bool, mine: float, theirs: float, target: Fighting) -> bool:
    """Worth charging on the exchange expected (A.P. inflicted and suffered)."""
    if target.state == "rout":
        mine += target.points
    if attacking:
        return int_score(mine) >= int_score(theirs * _REPLY_KEPT)
    return int_score(mine) > int_score(theirs)


def forward(u: Fighting, depth: float) -> float:
    """How far the unit's front stands from its own army's edge (both sides reckon alike)."""
    return u.y if u.side == 0 else depth - u.y


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests script players: a subclass in Python)
class LinePolicy(Policy):
    """The line player (see the module doc)."""

    name = "line"

    # -- the side's situation (once a round) ----------------------------------

    def outshot(self, b: Battle, side: int) -> bool:
        key = _OUTSHOT_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = self.firepower(b, 1 - side) * OUTSHOT_RATIO[1] > self.firepower(b, side) * OUTSHOT_RATIO[0]
        return bool(known)

    def firepower(self, b: Battle, side: int) -> int:
        key = _FIRE_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = int_score(firepower(b, side))
        return int(known)

    def attacking(self, b: Battle, side: int) -> bool:
        """The side's posture this round (see the module doc)."""
        key = _ATTACKING_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            standing = (standing_points(b, 0), standing_points(b, 1))
            out = (self.outshot(b, 0), self.outshot(b, 1))
            for s in (0, 1):
                b.round_memo[_ATTACKING_KEYS[s]] = (standing[s] >= standing[1 - s] and not out[1 - s]) or out[s] or losing(b, s)
            known = b.round_memo[key]
        return bool(known)

    def joiners(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[list[Fighting], int]:
        """(the enemy units able to join the fight at the target in their next activation, the
        number of friends able to): each within its MOV × 2 of the target, edge to edge, not
        busy in another fray, neither routed nor destroyed."""
        t = target.index
        enemies = []
        for e in b.sides[1 - unit.side]:
            if e is target or not e.alive or e.state == "rout" or e.engaged:
                continue  # the target itself, or busy in a fray
            if b.gap(e, target) <= reach(e):
                enemies.append(e)
        friends = 0
        for f in b.sides[unit.side]:
            if f is unit or not f.alive or f.state != "valiant" or (f.engaged and t not in f.engaged):
                continue
            if t in f.engaged or b.gap(f, target) <= reach(f):
                friends += 1
        return enemies, friends

    def outnumbered(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[int, int]:
        enemies, friends = self.joiners(b, unit, target)
        return len(enemies), friends

    def gang_up(self, b: Battle, unit: Fighting, target: Fighting) -> bool:
        """A charge into a gang-up (see the module doc)."""
        enemies, friends = self.joiners(b, unit, target)
        extra = len(enemies) - friends
        if extra <= GANG_MARGIN:
            return False
        mine, theirs = b._exchange_values(unit, target)
        balance = int_score(mine - theirs)
        if balance <= 0:
            return True
        threats = sorted((int_score(b._exchange_values(unit, e)[1]) for e in enemies), reverse=True)
        return balance <= sum(threats[:extra])

    # -- orders ---------------------------------------------------------------

    def _scored(self, b: Battle, unit: Fighting, options: list[AssaultOption]) -> list[tuple[int, int, AssaultOption, float, float, float]]:
        """The assault options with their exchange: (-integer score of the gain, index, option,
        gain, A.P. expected to inflict, A.P. expected to suffer), best first."""
        out = []
        for option in options:
            e = option.foe
            mine, theirs = b._exchange_values(unit, e)
            gain = mine - theirs + (e.points if e.state == "rout" else 0.0) + (0.25 * e.points if e.engaged else 0.0)
            out.append((-int_score(gain), e.index, option, gain, mine, theirs))
        out.sort(key=lambda s: (s[0], s[1]))
        return out

    def _choose(self, b: Battle, unit: Fighting, scored: list[tuple]) -> tuple[AssaultOption | None, bool]:
        """(the best exchange that is no gang-up, else the best; whether it is a gang-up); equal
        exchanges go to the target where fewer enemies than friends can join, then the index."""
        if not scored:
            return None, False
        safe: list[tuple] = []
        for s in scored:
            if safe and s[0] != safe[0][2][0]:
                break
            if not self.gang_up(b, unit, s[2].foe):
                enemies, friends = self.joiners(b, unit, s[2].foe)
                safe.append((len(enemies) - friends, s[1], s))
        if safe:
            return min(safe, key=lambda t: (t[0], t[1]))[2][2], False
        tied = []
        for s in scored:
            if s[0] != scored[0][0]:
                break
            enemies, friends = self.joiners(b, unit, s[2].foe)
            tied.append((len(enemies) - friends, s[1], s))
        return min(tied, key=lambda t: (t[0], t[1]))[2][2], True

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting]) -> str:
        if unit.engaged:
            return self.engaged_order(b, unit)
        if not foes:
            return ""
        attacking = self.attacking(b, unit.side)
        options = b.assault_options(unit)
        scored = self._scored(b, unit, options)
        if scored and scored[0][3] > 0.0:
            return self._line_charge(b, unit, scored, attacking)
        _near, gap = b.nearest_foe(unit, foes)
        if unit.shooting_groups and fires_after_marching(unit, gap, unit.mov):
            return "support"
        if casts_its_own(b.info, unit):
            return "support"
        if attacking:
            return self._line_charge(b, unit, scored, attacking) if scored else "progress"
        if answers_enemy_mystics(b.info, unit, foes):
            return "reaction"
        if scored:
            return self._line_charge(b, unit, scored, attacking)
        return "reaction" if b.threatened(unit) else "progress"

    def _line_charge(self, b: Battle, unit: Fighting, scored: list[tuple], attacking: bool) -> str:
        """Assault when the unit would charge a target now (no gang-up, worth it), else close in."""
        chosen, gang = self._choose(b, unit, scored)
        if chosen is None or gang:
            return "progress"
        mine, theirs = b._exchange_values(unit, chosen.foe)
        return "assault" if worth(attacking, mine, theirs, chosen.foe) else "progress"

    def assault_target(self, b: Battle, unit: Fighting, options: list[AssaultOption]) -> AssaultOption | None:
        chosen, _gang = self._choose(b, unit, self._scored(b, unit, options))
        return chosen

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        """Disengage from a fray it expects to lose badly (the enemies in contact expect to take
        more than twice the A.P. it takes from them), else fight on."""
        mine, theirs = b.engaged_exchange_values(unit)
        return "progress" if int_score(theirs) > 2 * int_score(mine) and int_score(theirs) > 0 else "assault"

    # -- movement -------------------------------------------------------------

    def stop_short(self, b: Battle, unit: Fighting, target: Fighting, distance: float) -> float:
        if not (target.count > 0 and target.state in ("valiant", "disorganized")):
            return 1.0  # a routed or empty unit charges nobody: run at it
        out_of_reach = reach(target) + 1.0
        mine = reach(unit)
        if out_of_reach <= mine:
            return min(distance, out_of_reach)
        if not self.attacking(b, unit.side):
            return min(distance, out_of_reach)
        return min(distance, mine)

    def advance_limit(self, b: Battle, unit: Fighting) -> float | None:
        if self.outshot(b, unit.side):
            return None  # under the enemy's fire the whole line runs
        depth = b.field.depth
        line = []
        for f in b.sides[unit.side]:
            if f is unit or not f.alive or f.state == "rout" or f.engaged or f.order not in ("assault", "progress"):
                continue
            ahead = forward(f, depth)
            if not f.activated:
                ahead += reach(f)  # where it can stand after its own move this round
            line.append(ahead)
        if not line:
            return None
        line.sort()
        median = line[(len(line) - 1) // 2]
        return max(0.0, LINE_LEAD - (forward(unit, depth) - median))

    def progress_move(self, b: Battle, unit: Fighting) -> tuple[float, float, bool, float] | None:
        target, gap = nearest_standing(b, unit)
        if target is None:
            return None
        stop = self.stop_short(b, unit, target, gap)
        return approach_move(b, unit, target, gap, stop, self.advance_limit(b, unit), True)

