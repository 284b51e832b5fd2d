"""The line player: units that support each other.

Four habits on top of the classic player's (:class:`.policy.Policy`):

- **A posture each round.** A side *attacks* when the enemy out-shoots it (the enemy's volleys
  are expected to take more than 5/4 of the A.P. its own take: waiting under fire loses), when it
  is losing (the enemy destroyed a share of its army at least the draw band larger), or when its
  standing army (A.P. of its units neither routed nor destroyed) is worth at least the enemy's
  and it does not out-shoot the enemy; otherwise it *holds*: its units keep out of the charge
  reach of the enemies and let them come (a side that out-shoots the enemy lets it come under
  its fire). Two players who both wait play six rounds without a blow and draw; the stronger
  army is the one that must go and fight, as a player would.
- **No lone charges into gang-ups, in any round.** Before ordering an assault the unit counts the
  enemy units that could reach its target's spot in their next activation (MOV × 2) and the
  friends that could reach it to support; it charges only when it would not be outnumbered there,
  or when the exchange it expects covers what the extra enemies would take from it (the most
  dangerous of them, one per enemy beyond its friends). Otherwise it keeps with the line
  (Progress, stopping out of reach); when it activates, it charges the best target that is no
  gang-up.
- **Supports move with the line.** A unit under Progress stops where it would stand more than a
  few centimetres ahead of its side's line: the median of where its friends will stand after
  their own move this round (a friend still to activate counts at its Run distance), so the line
  keeps the pace of its median unit instead of creeping forward a few centimetres a round. A
  unit never runs to a spot just short of an enemy (where the enemy charges it first): it stops
  out of the enemy's charge reach when it can still charge from there next round; an attacking
  unit that cannot stops where it can charge next round.
- **Targets on the exchange.** Charge targets are ranked on the exchange expected (A.P. it
  inflicts minus A.P. it suffers); an attacking unit also charges an even exchange, since the
  charger strikes first (the exchange counts a quarter of the reply as saved), and equal
  exchanges go to the target where fewer enemies than friends can join.

Two line players share these habits: :class:`LinePolicy` (the default) asks fewer questions
(an order weighs the two best exchanges in reach for a gang-up, and a charge keeps the target
it was ordered for while nothing near it changed); :class:`PreviousLinePolicy` weighs every
target in reach for a gang-up and every foe again when it activates, and is kept as the second
policy to measure the default against (``POLICIES``).

Integer scores and unit indices break every tie.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ai import answers_enemy_mystics, casts_its_own, fires_after_marching, nearest_gap
from .policy import Policy, _score
from .tables import TABLE_DEPTH

if TYPE_CHECKING:
    from .battle import Battle
    from .state import Fighting

LINE_LEAD = 6.0  # cm a unit under Progress may stand ahead of its side's line
_WEIGHED_TARGETS = 2  # the best exchanges an order weighs for a gang-up (LinePolicy)
GANG_MARGIN = 0  # enemies beyond the friends able to join that make a charge a gang-up
OUTSHOT_RATIO = (5, 4)  # the enemy's volleys worth more than 5/4 of the side's own: out-shot
FIRST_STRIKE = 0.25  # share of the reply an attacking charger counts as saved by striking first
DRAW_MARGIN_PERCENT = 5  # the victory rule's draw band (battle.py)
_REPLY_KEPT = 1.0 - FIRST_STRIKE  # the share of the reply an attacking charger counts
# The round memo's keys of each side's answers (built once, not at every question).
_OUTSHOT_KEYS = (("outshot", 0), ("outshot", 1))
_FIRE_KEYS = (("firepower", 0), ("firepower", 1))
_ATTACKING_KEYS = (("attacking", 0), ("attacking", 1))
_NEAR_KEYS = (("near", 0), ("near", 1))  # the side's _OrdersNear while its orders are given


def _reach(u: Fighting) -> float:
    tactic = u.tactic
    return (u._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0


def _standing_points(b: Battle, side: int) -> int:
    total = 0  # (summed in side order, as sum() over the units would)
    for u in b.sides[side]:
        if u.alive and u.state != "rout":
            total += u.points
    return total


def _list_cost(b: Battle, side: int) -> int:
    total = b.info[side].get("total_cost")
    if total is None:
        total = sum(u.cost for u in b.sides[side])
    return max(int(total), 1)


def _losing(b: Battle, side: int) -> bool:
    """The enemy destroyed a share of this side's army at least the draw band larger than the
    share this side destroyed (integer cross-products, as the victory rule reads them)."""
    own, foe = _list_cost(b, side), _list_cost(b, 1 - side)
    mine, theirs = int(b.scores[side]), int(b.scores[1 - side])
    return (theirs * foe - mine * own) * 100 >= DRAW_MARGIN_PERCENT * own * foe


# _firepower()'s best value of one marksman, by (catalogue hash, the targets' kinds), then by
# the marksman's profile id: values that hold for every game against those targets.
_BEST_SHOT: dict[tuple, dict[str, float]] = {}


def _firepower(b: Battle, side: int) -> float:
    """A.P. a volley of the side's marksmen is expected to take at medium range, each group at
    the enemy unit it hurts most (Aim against the target's Size, STR against its RES).

    The best value of a marksman depends only on its profile and on the kinds of targets left,
    which change only when an enemy unit falls or routs: it is kept by value (_BEST_SHOT), so a
    round's posture reads one value per group of marksmen instead of weighing every target."""
    best_of = None  # the best value per marksman against this round's kinds of targets
    total = 0.0
    for u in b.sides[side]:
        if not u.alive or u.state == "rout":
            continue
        for g in u.shooting_groups:
            if not g.count:
                continue
            if best_of is None:
                kinds = []  # each target's (Size, RES, Wound levels, A.P.)
                for e in b.sides[1 - side]:
                    if e.alive and e.state != "rout":
                        t = e.troops
                        kinds.append((t.size, t.base["res"], t.wound_levels, t.cost))
                key = (b.table, tuple(kinds))
                best_of = _BEST_SHOT.get(key)
                if best_of is None:
                    if len(_BEST_SHOT) > 4096:
                        _BEST_SHOT.clear()
                    best_of = _BEST_SHOT[key] = {}
            pid = g.pid
            best = best_of.get(pid)
            if best is None:
                best = 0.0
                memo = g.shot_value
                for size, res, levels, cost in key[1]:
                    hit, wounds = memo.get(("medium", size, res)) or b._shot_value(g, "medium", size, res)
                    value = hit * wounds / (levels if levels > 1 else 1) * cost  # max(levels, 1), inlined
                    if value > best:  # best = max(best, value), inlined
                        best = value
                best_of[pid] = best
            total += g.count * best
    return total


def _worth(attacking: bool, mine: float, theirs: float, target: Fighting) -> bool:
    """LinePolicy.worth_charging() on the exchange expected (A.P. inflicted and suffered)."""
    if target.state == "rout":
        mine += target.points  # a routed target's A.P. count as a gain
    # _score() inlined: every order asks this of every foe in reach
    if attacking:
        return round(mine * 1000) >= round(theirs * _REPLY_KEPT * 1000)
    return round(mine * 1000) > round(theirs * 1000)


def _first_two(s: tuple) -> tuple[int, int]:
    return s[0], s[1]


def _candidates(b: Battle, unit: Fighting) -> tuple[list[tuple], list[tuple]]:
    """The units that may join a fight near *unit*'s targets, read once for all its targets:
    (enemies neither routed nor destroyed, friends other than *unit* valiant and alive), each as
    (unit, position, MOV × 2, units it is engaged with), in side order."""
    enemies = []
    for e in b.sides[1 - unit.side]:
        if e.alive and e.state != "rout":
            tactic = e.tactic  # _reach(e), inlined
            enemies.append((e, e.pos, (e._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0, e.engaged))
    friends = []
    for f in b.sides[unit.side]:
        if f.alive and f.state == "valiant" and f is not unit:
            tactic = f.tactic
            friends.append((f, f.pos, (f._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0, f.engaged))
    return enemies, friends


def _joiners(target: Fighting, enemies_near: list[tuple], friends_near: list[tuple]) -> tuple[list[Fighting], int]:
    """LinePolicy.joiners() on the candidates of _candidates()."""
    spot, t = target.pos, target.index
    enemies = []
    for e, pos, reach, engaged in enemies_near:
        if e is target or (engaged and t not in engaged):
            continue  # the target itself, or busy elsewhere
        if -reach <= pos - spot <= reach:
            enemies.append(e)
    friends = 0
    for _f, pos, reach, engaged in friends_near:
        if engaged and t not in engaged:
            continue
        if -reach <= pos - spot <= reach:
            friends += 1
    return enemies, friends


class _OrdersNear:
    """The units that may join a fight, read once for all of a side's orders of a round.

    While a side's orders are given nothing moves, no unit changes state or fray, and the
    enemies' tactics stay as they are; only the side's own units lose last round's tactic one
    after the other (give_orders() resets each before ordering it). So the enemies that may join
    at each target's spot are found once per target; a friend's MOV × 2 is read once unless its
    tactic of last round changes it (then it is read at each question, reset or not yet).
    *spots* (give_orders()'s list of the foes' positions for this side's orders) is held to
    tell this series of orders from the next: a new list, a new reading.
    """

    __slots__ = ("spots", "enemies", "friends", "changing", "per_target")

    def __init__(self, b: Battle, side: int, spots: list[float]) -> None:
        self.spots = spots
        enemies = []
        for e in b.sides[1 - side]:
            if e.alive and e.state != "rout":
                tactic = e.tactic  # _reach(e), inlined
                enemies.append((e, e.pos, (e._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0, e.engaged))
        self.enemies = enemies
        friends = []  # (unit, position, MOV × 2 or None: read at each question, units engaged with)
        for f in b.sides[side]:
            if f.alive and f.state == "valiant":
                tactic = f.tactic
                moving = tactic.get("movement", 0) if tactic else 0
                friends.append((f, f.pos, None if moving else f._mov * 2.0, f.engaged))
        self.friends = friends
        self.changing = any(f[2] is None for f in friends)  # some friend's reach read at each question
        # target index -> (enemies able to join there, indices of the fixed-reach friends able to join)
        self.per_target: dict[int, tuple[list[Fighting], frozenset[int]]] = {}

    def joiners(self, unit: Fighting, target: Fighting) -> tuple[list[Fighting], int]:
        """_joiners(target, *_candidates(b, unit)) at this moment of the orders (the same lists)."""
        known = self.per_target.get(target.index)
        if known is None:
            known = self.at(target)
        enemies, fixed = known
        friends = len(fixed) - (unit.index in fixed)  # (friends other than the unit)
        if self.changing:
            friends += self.changing_friends(unit, target)
        return enemies, friends

    def at(self, target: Fighting) -> tuple[list[Fighting], frozenset[int]]:
        """(the enemies able to join at the target's spot, the indices of the fixed-reach friends
        able to join there), found once per target."""
        t = target.index
        spot = target.pos
        enemies = []
        for e, pos, reach, engaged in self.enemies:
            if e is target or (engaged and t not in engaged):
                continue
            if -reach <= pos - spot <= reach:
                enemies.append(e)
        fixed = []
        for f, pos, reach, engaged in self.friends:
            if reach is None or (engaged and t not in engaged):
                continue
            if -reach <= pos - spot <= reach:
                fixed.append(f.index)
        known = self.per_target[t] = (enemies, frozenset(fixed))
        return known

    def changing_friends(self, unit: Fighting, target: Fighting) -> int:
        """The friends other than *unit* whose reach changes while the orders are given (last
        round's tactic until reset) able to join at the target's spot, read now."""
        t = target.index
        spot = target.pos
        friends = 0
        for f, pos, reach, engaged in self.friends:
            if reach is not None or f is unit or (engaged and t not in engaged):
                continue
            tactic = f.tactic  # its tactic of last round, or none once reset
            reach = (f._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0
            if -reach <= pos - spot <= reach:
                friends += 1
        return friends

def _gang_up(
    b: Battle, unit: Fighting, target: Fighting, enemies: list[Fighting], friends: int, threats: dict[int, int] | None = None,
    exchange: tuple[float, float] | None = None,
) -> bool:
    """LinePolicy.gang_up() on the joiners found. *threats*: each enemy's integer threat to the
    unit (the score of the A.P. it expects to take in an exchange), by enemy index, kept by the
    caller while nothing changes. *exchange*: b._exchange_values(unit, target) when the caller
    has it already (the same values: nothing changes in between)."""
    extra = len(enemies) - friends
    if extra <= GANG_MARGIN:
        return False
    mine, theirs = b._exchange_values(unit, target) if exchange is None else exchange
    balance = _score(mine - theirs)
    if balance <= 0:
        return True  # the threats are integer scores of A.P. (never below 0): their sum is at least 0
    return balance <= _worst_threats(b, unit, enemies, extra, {} if threats is None else threats)


def _worst_threats(b: Battle, unit: Fighting, enemies: list[Fighting], extra: int, threats: dict[int, int]) -> int:
    """The sum of the *extra* largest threats to *unit* among *enemies*: each enemy's integer
    score of the A.P. it expects to take from the unit in an exchange (the one direction of
    b._exchange_values(unit, e) needed), kept in *threats* by enemy index while nothing changes."""
    h = unit.troops
    found = []
    for e in enemies:
        threat = threats.get(e.index)
        if threat is None:
            theirs = e.damage_memo.get(h.pid)
            if theirs is None:
                theirs = b._mean_damage(e, h)
            hl = h.wound_levels
            threat = threats[e.index] = round(theirs / (hl if hl > 1 else 1) * h.cost * 1000)
        found.append(threat)
    if extra < len(found):
        found.sort(reverse=True)
        del found[extra:]
    return sum(found)


def _charges(b: Battle, unit: Fighting, scored: list[tuple], near: _OrdersNear, attacking: bool) -> Fighting | None:
    """The target the unit, ordered now, would charge, or None: LinePolicy._choose_entry(b, unit,
    scored, near) picks a target that is no gang-up and worth charging (:func:`_worth`). The same
    choice, asked as "which target, if any?" (the orders ask it of every unit with a foe in reach):

    - only a target worth charging can make it charge, so the targets are weighed, best exchange
      first, only up to the last one worth it: past it, with no safe target found yet, the
      choice (ranked after it, or a gang-up) is not charged either;
    - near.joiners() and _gang_up() written out (nothing changes while the orders are given, so
      each joiner's threat to the unit is found once for all its targets: :func:`_worst_threats`).
    """
    scored.sort()  # as _choose_entry() ranks them: (-score, index) decide (indices are distinct)
    last = -1
    i = 0
    for s in scored:  # _worth(attacking, s[4], s[5], s[2]), inlined
        mine = s[4]
        if s[2].state == "rout":
            mine += s[2].points
        if round(mine * 1000) >= round(s[5] * _REPLY_KEPT * 1000) if attacking else round(mine * 1000) > round(s[5] * 1000):
            last = i
        i += 1
    if last < 0:
        return None
    per_target, changing = near.per_target, near.changing
    me = unit.index
    threats: dict[int, int] = {}
    tied: list[tuple[Any, ...]] = []  # the best safe exchanges: (enemies less friends able to join, index, rank)
    for i, s in enumerate(scored):
        if tied:
            if s[0] != scored[tied[0][2]][0]:
                break
        elif i > last:
            return None  # every target worth charging is a gang-up
        target = s[2]
        t = target.index
        known = per_target.get(t)
        if known is None:
            known = near.at(target)
        enemies, fixed = known
        friends = len(fixed) - (me in fixed)  # (friends other than the unit)
        if changing:
            friends += near.changing_friends(unit, target)
        extra = len(enemies) - friends
        if extra > GANG_MARGIN:
            balance = round((s[4] - s[5]) * 1000)  # _score(mine - theirs)
            if balance <= 0:
                continue  # a gang-up (the threats' sum is never below 0)
            if balance <= _worst_threats(b, unit, enemies, extra, threats):
                continue  # a gang-up
        tied.append((extra, t, i))
    if not tied:
        return None  # every target in reach is a gang-up
    chosen = scored[tied[0][2] if len(tied) == 1 else min(tied)[2]]
    return chosen[2] if _worth(attacking, chosen[4], chosen[5], chosen[2]) else None


def _charges_best(b: Battle, unit: Fighting, scored: list[tuple], near: _OrdersNear, attacking: bool) -> Fighting | None:
    """The target an Assault order is given for, or None: the best exchange in reach that is no
    gang-up (equal exchanges: the one where fewer enemies than friends can join, then the lower
    index), when it is worth charging (:func:`_worth`).

    Only the two best exchanges are weighed for a gang-up (with those equal to the first safe
    one): when both are gang-ups the unit keeps with the line rather than look further down for
    a lesser target (:class:`PreviousLinePolicy` weighs every target down to the last worth
    charging); it still picks among every target when it activates."""
    scored.sort()  # (-score, index): the best exchange first
    me = unit.index
    threats: dict[int, int] = {}
    tied: list[tuple[Any, ...]] = []  # the safe best exchanges: (enemies less friends able to join, index, rank)
    for i, s in enumerate(scored):
        if tied:
            if s[0] != scored[tied[0][2]][0]:
                break
        elif i >= _WEIGHED_TARGETS:
            return None  # the best exchanges are gang-ups: keep with the line
        target = s[2]
        known = near.per_target.get(target.index)
        if known is None:
            known = near.at(target)
        enemies, fixed = known
        friends = len(fixed) - (me in fixed)  # (friends other than the unit)
        if near.changing:
            friends += near.changing_friends(unit, target)
        extra = len(enemies) - friends
        if extra > GANG_MARGIN:
            balance = round((s[4] - s[5]) * 1000)  # _score(mine - theirs)
            if balance <= 0 or balance <= _worst_threats(b, unit, enemies, extra, threats):
                continue  # a gang-up
        tied.append((extra, target.index, i))
    if not tied:
        return None
    chosen = scored[tied[0][2] if len(tied) == 1 else min(tied)[2]]
    return chosen[2] if _worth(attacking, chosen[4], chosen[5], chosen[2]) else None


def _forward(f: Fighting) -> float:
    """Position read forward from the unit's own edge, so both sides reckon alike."""
    return f.pos if f.side == 0 else TABLE_DEPTH - f.pos


class PreviousLinePolicy(Policy):
    """The line player that weighs every target in reach for a gang-up when it gives an order,
    and weighs its charge targets again when it activates: kept as the second policy, so the
    default (:class:`LinePolicy`, which asks fewer questions) can be measured against it."""

    name = "previous"

    # -- the side's situation (once a round) ----------------------------------

    def outshot(self, b: Battle, side: int) -> bool:
        """The enemy's volleys are expected to take more than 5/4 of the A.P. the side's own
        take (:func:`_firepower`): waiting under its fire loses, so close in fast."""
        key = _OUTSHOT_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = self.firepower(b, 1 - side) * OUTSHOT_RATIO[1] > self.firepower(b, side) * OUTSHOT_RATIO[0]
        return known

    def firepower(self, b: Battle, side: int) -> int:
        """The integer score of :func:`_firepower`, found once a round (both sides' postures
        read the same volleys)."""
        key = _FIRE_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = _score(_firepower(b, side))
        return known

    def attacking(self, b: Battle, side: int) -> bool:
        """The side's posture this round (see the module doc)."""
        key = _ATTACKING_KEYS[side]
        known = b.round_memo.get(key)
        if known is None:
            # Both sides' postures read the same standing armies and volleys: found together.
            standing = (_standing_points(b, 0), _standing_points(b, 1))
            outshot = (self.outshot(b, 0), self.outshot(b, 1))
            for s in (0, 1):
                b.round_memo[_ATTACKING_KEYS[s]] = (
                    (standing[s] >= standing[1 - s] and not outshot[1 - s]) or outshot[s] or _losing(b, s)
                )
            known = b.round_memo[key]
        return known

    def joiners(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[list[Fighting], int]:
        """(the enemy units able to join the fight at the target's spot in their next activation,
        the number of friends able to join it): each within its MOV × 2 of the spot, not busy in
        another fray, neither routed nor destroyed."""
        return _joiners(target, *_candidates(b, unit))

    def outnumbered(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[int, int]:
        """(enemies able to join the fight at the target's spot, friends able to join it)."""
        enemies, friends = self.joiners(b, unit, target)
        return len(enemies), friends

    def gang_up(self, b: Battle, unit: Fighting, target: Fighting) -> bool:
        """A charge into a gang-up: more enemies than friends can join at the target's spot, for
        an exchange that does not cover what the extra enemies would take (the most dangerous of
        those able to join, one per enemy beyond the friends)."""
        return _gang_up(b, unit, target, *self.joiners(b, unit, target))

    # -- orders ---------------------------------------------------------------

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting], spots: list[float]) -> str:
        scored: list[tuple] = []  # the foes in reach, weighed once for the classic order and the charge

        def best_charge(unit: Fighting, foes: list[Fighting], reach: float) -> float:
            # best_charge_target()'s score: the same gains (nothing moves while orders are given).
            scored.extend(self._scored(b, unit, foes, reach))
            return max([s[3] for s in scored], default=-1e9)

        order = b.choose_order(unit, foes, spots, best_charge)
        if unit.engaged:
            return order
        attacking = b.round_memo.get(_ATTACKING_KEYS[unit.side])  # self.attacking(), its memo read first
        if attacking is None:
            attacking = self.attacking(b, unit.side)
        if order in ("assault", "reaction", "progress") and (order == "assault" or attacking):
            # (no foe in reach when the classic order weighed none). The gang-ups are weighed
            # only when some foe in reach is worth charging: else no choice of target charges.
            if scored:
                key = _NEAR_KEYS[unit.side]
                near = b.round_memo.get(key)
                if near is None or near.spots is not spots:
                    near = b.round_memo[key] = _OrdersNear(b, unit.side, spots)
                target = _charges(b, unit, scored, near, attacking)
                if target is not None:
                    self._plan(b, unit, target, scored)
                    return "assault"
            if order == "assault" or attacking:
                return "progress"  # close in with the line (stopping out of reach) instead
        return order

    def _plan(self, b: Battle, unit: Fighting, target: Fighting, scored: list[tuple]) -> None:
        """Note the target an Assault order was given for, among the *scored* foes in reach
        (this player weighs them again when the unit activates)."""

    def worth_charging(self, b: Battle, unit: Fighting, target: Fighting) -> bool:
        """The classic player charges a gain above zero; an attacking one an even exchange too."""
        mine, theirs = b._exchange_values(unit, target)
        return _worth(self.attacking(b, unit.side), mine, theirs, target)

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        """Disengage from a fray it expects to lose badly (the enemies in contact expect to take
        more than twice the A.P. it takes from them), else fight on."""
        mine = theirs = 0.0
        for j in sorted(unit.engaged):
            e = b.sides[1 - unit.side][j]
            if e.alive:
                m, t = b._exchange_values(unit, e)
                mine, theirs = mine + m, theirs + t
        return "progress" if _score(theirs) > 2 * _score(mine) and _score(theirs) > 0 else "assault"

    def charge_target(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> Fighting | None:
        return self._charge_choice(b, unit, foes, reach)[0]

    def _charge_choice(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> tuple[Fighting | None, bool]:
        """(the charge target, whether charging it is a gang-up): see _choose()."""
        return self._choose(b, unit, self._scored(b, unit, foes, reach))

    def _scored(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> list[tuple]:
        """The live foes in reach, each as (-integer score of its exchange, index, foe, gain, A.P.
        expected to inflict, A.P. expected to suffer): the gain is the exchange expected, plus a
        routed foe's A.P. and a quarter of an engaged one's."""
        scored = []
        pos = unit.pos
        low = -reach  # abs(e.pos - pos) <= reach, without a call per foe (the same test)
        h = unit.troops  # b._exchange_values(unit, e) inlined below: the unit's side read once
        hid, hc, hl = h.pid, h.cost, h.wound_levels
        if hl < 1:
            hl = 1
        memo = unit.damage_memo
        for e in foes:
            # (the cheapest test first: most foes are out of reach)
            if not low <= e.pos - pos <= reach or not e.alive:
                continue
            state = e.state
            if state == "gone":
                continue
            g = e.troops
            mine = memo.get(g.pid)
            if mine is None:
                mine = b._mean_damage(unit, g)
            theirs = e.damage_memo.get(hid)
            if theirs is None:
                theirs = b._mean_damage(e, h)
            gl = g.wound_levels
            mine, theirs = mine / (gl if gl > 1 else 1) * g.cost, theirs / hl * hc
            gain = mine - theirs  # plus a routed foe's A.P., then a quarter of an engaged one's
            if state == "rout":
                gain += e.points
            if e.engaged:
                gain += 0.25 * e.points
            scored.append((-round(gain * 1000), e.index, e, gain, mine, theirs))  # (-_score(gain), inlined)
        return scored

    def _choose(self, b: Battle, unit: Fighting, scored: list[tuple]) -> tuple[Fighting | None, bool]:
        chosen, gang = self._choose_entry(b, unit, scored)
        return (None if chosen is None else chosen[2]), gang

    def _choose_entry(
        self, b: Battle, unit: Fighting, scored: list[tuple], near: _OrdersNear | None = None
    ) -> tuple[tuple | None, bool]:
        """(the charge target among the *scored* foes, whether charging it is a gang-up): the best
        exchange that is no gang-up (the order was given on the spots at the start of the round;
        the enemy may have moved since), else the best exchange; equal exchanges go to the target
        where fewer enemies than friends can join, then to the lower index.

        Targets are weighed for a gang-up best exchange first, and only until the answer is
        known: the first safe exchange and those equal to it."""
        if not scored:
            return None, False
        scored.sort()  # on (-score, index): the indices are distinct, so the foes are never compared
        if near is None:
            enemies_near, friends_near = _candidates(b, unit)

            def joiners(target: Fighting) -> tuple[list[Fighting], int]:
                return _joiners(target, enemies_near, friends_near)
        else:

            def joiners(target: Fighting) -> tuple[list[Fighting], int]:
                return near.joiners(unit, target)

        threats: dict[int, int] = {}  # each joiner's threat to the unit, found once for all targets
        tied: list[tuple[Any, ...]] = []  # the best safe exchanges: (balance of enemies and friends able to join, index, entry)
        for s in scored:
            if tied and s[0] != tied[0][2][0]:
                break
            target = s[2]
            enemies, friends = joiners(target)
            if not _gang_up(b, unit, target, enemies, friends, threats, (s[4], s[5])):
                tied.append((len(enemies) - friends, s[1], s))
        if tied:
            gang = False
        else:  # every exchange in reach is a gang-up: the best of them
            gang = True
            for s in scored:
                if s[0] != scored[0][0]:
                    break
                enemies, friends = joiners(s[2])
                tied.append((len(enemies) - friends, s[1], s))
        if len(tied) == 1:
            return tied[0][2], gang
        # Equal exchanges: the target where fewer enemies than friends can join, then the index.
        return min(tied, key=_first_two)[2], gang

    def _balance(self, b: Battle, unit: Fighting, target: Fighting) -> int:
        enemies, friends = self.outnumbered(b, unit, target)
        return enemies - friends

    # -- movement -------------------------------------------------------------

    def stop_short(self, b: Battle, unit: Fighting, target: Fighting, distance: float) -> float:
        if not (target.count > 0 and target.state in ("valiant", "disorganized")):
            return 1.0  # a routed or empty unit charges nobody: run at it
        tactic = target.tactic  # _reach(target) and _reach(unit), inlined (every Progress asks)
        out_of_reach = (target._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0 + 1.0
        tactic = unit.tactic
        mine = (unit._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0
        if out_of_reach <= mine:
            return distance if distance < out_of_reach else out_of_reach  # min(distance, out_of_reach)
        attacking = b.round_memo.get(_ATTACKING_KEYS[unit.side])  # self.attacking(), its memo read first
        if attacking is None:
            attacking = self.attacking(b, unit.side)
        if not attacking:
            return distance if distance < out_of_reach else out_of_reach
        return distance if distance < mine else mine

    def advance_limit(self, b: Battle, unit: Fighting) -> float | None:
        outshot = b.round_memo.get(_OUTSHOT_KEYS[unit.side])  # self.outshot(), its memo read first
        if outshot is None:
            outshot = self.outshot(b, unit.side)
        if outshot:
            return None  # under the enemy's fire the whole line runs
        line = []
        side = unit.side
        for f in b.sides[side]:
            if f is unit or not f.alive or f.state == "rout" or f.engaged or f.order not in ("assault", "progress"):
                continue
            ahead = f.pos if side == 0 else TABLE_DEPTH - f.pos  # _forward(f), inlined
            if not f.activated:
                tactic = f.tactic  # where it can stand after its own move this round (_reach(f), inlined)
                ahead += (f._mov + (tactic.get("movement", 0) if tactic else 0)) * 2.0
            line.append(ahead)
        if not line:
            return None
        line.sort()
        median = line[(len(line) - 1) // 2]
        return max(0.0, LINE_LEAD - (_forward(unit) - median))


_PLAN_KEYS = (("plan", 0), ("plan", 1))  # the round memo's keys of each side's planned charges


class LinePolicy(PreviousLinePolicy):
    """The line player (the default): :class:`PreviousLinePolicy`'s habits, weighed less often.

    - **An order weighs the best exchanges only.** The Assault order is given when one of the
      two best exchanges in reach is no gang-up and worth charging (:func:`_charges_best`).
    - **A charge keeps the target it was ordered for.** The Assault order is given on the
      target the unit would charge then (no gang-up, worth charging); when it activates it
      charges that target if it can still reach it, the target still fights (neither routed
      nor destroyed) and no foe in reach has been engaged or routed since the order (a new
      fray to join or a routed foe to catch changes the best choice): then it charges without weighing every foe
      in reach and every gang-up again. Otherwise it weighs them as the previous player did.
    """

    name = "line"

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting], spots: list[float]) -> str:
        """PreviousLinePolicy.choose_order()'s rule (the classic order, then the line's), in one
        pass: the classic player's questions are asked only where the line's answer needs them
        (an attacking side's unit that would counter-charge or counter-cast closes in instead, so
        neither is asked of it), and the foes in reach are weighed once for both."""
        if unit.engaged:
            return "assault"
        if not foes:
            return ""
        attacking = b.round_memo.get(_ATTACKING_KEYS[unit.side])  # self.attacking(), its memo read first
        if attacking is None:
            attacking = self.attacking(b, unit.side)
        pos = unit.pos
        tactic = unit.tactic
        mov = unit._mov + tactic.get("movement", 0) if tactic else unit._mov  # unit.mov, inlined
        reach = mov * 2.0  # (a float bound: see update_leadership())
        nearest = nearest_gap(spots, pos)
        scored = None
        if nearest <= reach:
            scored = self._scored(b, unit, foes, reach)
            if scored:
                best = -1e9
                for entry in scored:
                    if entry[3] > best:
                        best = entry[3]
                if best > 0.0:
                    return self._line_charge(b, unit, scored, spots, attacking)  # the classic Assault
        if unit.shooting_groups and fires_after_marching(unit, nearest, mov):
            return "support"  # Support (dynamic): march, then shoot
        info = b.info
        if casts_its_own(info, unit):
            return "support"
        if attacking:  # whatever the classic order among Assault, Reaction and Progress
            return self._line_charge(b, unit, scored, spots, attacking) if scored else "progress"
        if answers_enemy_mystics(info, unit, foes):
            return "reaction"  # counter-magic or censure
        if scored:
            return self._line_charge(b, unit, scored, spots, attacking)  # the classic Assault
        return "reaction" if b.threatened(pos, nearest, foes, spots) else "progress"

    def _line_charge(self, b: Battle, unit: Fighting, scored: list[tuple], spots: list[float], attacking: bool) -> str:
        """Assault when the unit would charge a target now (no gang-up, worth it), else close in
        with the line (Progress, stopping out of reach)."""
        key = _NEAR_KEYS[unit.side]
        near = b.round_memo.get(key)
        if near is None or near.spots is not spots:
            near = b.round_memo[key] = _OrdersNear(b, unit.side, spots)
        target = _charges_best(b, unit, scored, near, attacking)
        if target is None:
            return "progress"
        self._plan(b, unit, target, scored)
        return "assault"

    def _plan(self, b: Battle, unit: Fighting, target: Fighting, scored: list[tuple]) -> None:
        key = _PLAN_KEYS[unit.side]
        plans = b.round_memo.get(key)
        if plans is None:
            plans = b.round_memo[key] = {}
        # (the target, the foes in reach already in a fray or routed when it was chosen)
        plans[unit.index] = (target, [s[2] for s in scored if s[2].engaged or s[2].state == "rout"])

    def charge_target(self, b: Battle, unit: Fighting, foes: list[Fighting], reach: float) -> Fighting | None:
        plans = b.round_memo.get(_PLAN_KEYS[unit.side])
        if plans is not None:
            plan = plans.get(unit.index)
            if plan is not None:
                target, known = plan
                if target.count > 0 and target.state in ("valiant", "disorganized"):
                    pos = unit.pos
                    low = -reach
                    if low <= target.pos - pos <= reach:
                        for e in foes:  # a fray or a rout in reach since the order: weigh again
                            if (e.engaged or e.state == "rout") and e.alive and low <= e.pos - pos <= reach and e not in known:
                                break
                        else:
                            return target
        return self._charge_choice(b, unit, foes, reach)[0]


POLICIES: dict[str, type[Policy]] = {"line": LinePolicy, "previous": PreviousLinePolicy, "classic": Policy}
"""The players by name: the default, the one it was measured against, and the classic one."""
