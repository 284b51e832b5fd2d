"""The default player: every action its side could give now, scored (expected points removed,
progress towards the scenario's goal, momentum, a champion action's own effect) against its
momentum cost; it passes when nothing is worth more than a twentieth of a point.

Speed: a group's plan (:class:`UnitPlan`: its targets and their odds, its paths, the orders that
play them, scores before the momentum cost) is kept on the group (``Unit.plan``) for the game's
board memo, which stands while the board signature holds (every group's position and state, the
markers' holders, the stats' version); its Charge target is kept on it across boards while its
place, the enemies' and the stats hold (``Unit.charge_target``); about half the choices follow an action that moved nothing (Rest, a failed attack, a refused
reaction) and only subtract the new cost and work out Rest and Scheming Plot again. Options are
scored in two passes: the plans and the options that cost little first, then the ones that trace
paths (Sprint, Maneuver, Crashing Wave) only when an upper bound of their score reaches the best of
all (:meth:`ScoringPolicy._scored`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from .actions import CHAMPION_ACTIONS
from .ai_values import COST_WEIGHT, REMOVE_VALUE, ValuingPolicy
from .board import BOARD, EPS, INF, NAN, dist, hypot
from .dice import check_probabilities, dice_count
from .geometry import Blockers
from .state import Order, Side, Unit

if TYPE_CHECKING:
    from .game import Game

#: one option as scored: (score, the order that plays it)
Scored = tuple[float, Order]
_Row = tuple[Unit, int, list[Scored]]
#: a group's first pass (_unit_head): its plan, [Stand and Fight, Charge], [Rest, Feint,
#: Translocate Ward], [the champion action unless it is a Crashing Wave]
_Head = tuple["UnitPlan", list[Scored], list[Scored], list[Scored]]
#: board memo keys per side, built once (a key tuple made on every call is an allocation each)
_WARDS_KEYS: Final = (("wards", 0), ("wards", 1))
_LONGEST_KEYS: Final = (("longest moves", 0), ("longest moves", 1))
_MOVERS_KEYS: Final = (("fighting movers", 0), ("fighting movers", 1))
_FRONT_KEYS: Final = (("front", 0), ("front", 1))


class UnitPlan:
    """What the board alone decides about one group's options (targets, their odds, paths and the
    orders that play them), kept in the board memo for as long as the board signature holds.
    Scores here are before the momentum cost."""

    __slots__ = (
        "ux", "uy", "stand", "charge", "rest", "rest_order", "feint", "translocate", "sprint_full", "sprint_most",
        "sprint_traced", "maneuver_done", "maneuver", "most_bound", "most_fine", "champion", "scored", "goal",
    )

    def __init__(self) -> None:
        self.ux = self.uy = 0.0
        self.stand: tuple[float, float | None, Order] | None = None
        self.charge: tuple[float, Order] | None = None
        self.rest: tuple[float, float, float] | None = None  # P(fail, success, critical) of Rest
        self.rest_order: Order | None = None
        self.feint: tuple[float, Order] | None = None
        self.translocate: Order | None = None
        # Sprint: the best progress of a full move, of this move (nan off the clamp box), and
        # (value, order) once traced; None: not worked out yet
        self.sprint_full: float | None = None
        self.sprint_most: float | None = None
        self.sprint_traced: tuple[float, Order] | None = None
        self.maneuver_done = False
        self.maneuver: tuple[float, Order] | None = None
        self.most_bound: float | None = None
        self.most_fine: float | None = None
        self.champion: tuple[str, Any] | None = None
        # cost -> the first-pass options that only it decides
        self.scored: dict[int, tuple[list[Scored], list[Scored], list[Scored] | None]] = {}
        self.goal: tuple[float, float] | None = None  # the player's goal for the group (Sprint)


def _best(rows: list[_Row]) -> tuple[Scored, float, int] | None:
    """(option, score, uid) of the best option of ``rows``: the highest score, then the lower uid,
    then the first listed; None if there are none."""
    best: tuple[Scored, float, int] | None = None
    best_score, best_uid = -INF, 0
    for u, _cost, scored in rows:
        uid = u.uid
        for item in scored:
            score = item[0]
            if best is None or score > best_score or (score == best_score and uid < best_uid):
                best, best_score, best_uid = (item, score, uid), score, uid
    return best


@mypyc_attr(allow_interpreted_subclasses=True)
class ScoringPolicy(ValuingPolicy):
    """The default player (``scoring``)."""

    name = "scoring"

    # ------------------------------------------------------------------ the interface

    def act(self, g: Game, side: Side) -> Order | None:
        """The best option of :meth:`options`, found without listing the others; None (pass)
        when its score is 0.05 or less."""
        self.open_board(g)
        try:
            best = _best(self._scored(g, side, None, False)[0])
        finally:
            g.cache = None
        if best is None or best[1] <= 0.05:
            return None
        order = best[0][1]
        order.score = best[1]
        return order

    def options(self, g: Game, side: Side, only: Unit | None = None, free: bool = False) -> list[Scored]:
        """Every option the side could give now, scored (for tests and the Reversal)."""
        self.open_board(g)
        try:
            rows = self._scored(g, side, only, free)[0]
        finally:
            g.cache = None
        return [item for _u, _cost, scored in rows for item in scored]

    def reversal(self, g: Game, side: Side, ally: Unit) -> Order | None:
        options = [item for item in self.options(g, side, only=ally, free=True) if item[1].name not in ("Rest",) and item[1].name not in CHAMPION_ACTIONS.values()]
        if not options:
            return None
        return max(options, key=lambda item: item[0])[1]

    def allowed(self, name: str, u: Unit) -> bool:
        """Not an option the player was told not to use."""
        if not self.forbid:
            return True
        key = u.champion_action if name in CHAMPION_ACTIONS.values() and u.champion_action else name.lower()
        return key not in self.forbid

    # ------------------------------------------------------------------ scoring every option

    def _scored(self, g: Game, side: Side, only: Unit | None, free: bool) -> tuple[list[_Row], float]:
        """Every option of the side as (group, cost, [(score, order)]), and the bar, in two passes.
        The first works out each group's plan and the options that cost little to score; the best
        of them all is the bar. The second adds the options whose scoring traces paths (Sprint,
        Maneuver, Crashing Wave) only when their upper bound reaches that bar. Each group's options
        keep their order, so the choice (the best score, then the lower uid, then the first listed)
        is the one a single pass would make. When one group is asked for alone (a Reversal, which
        never takes Rest), Rest is left out of the bar."""
        lms = sum(1 for u in side.units if u.state == "board" and u.gtype != "ward") == 1
        rows: list[tuple[Unit, int, list[Scored] | None, _Head | None]] = []
        bar = -INF
        with_rest = only is None
        last = side.last_actor
        momentum = side.momentum
        costs = g.costs
        n_costs = len(costs)
        all_free = free or side.free_action
        for u in side.units:
            if only is not None and u is not only:
                continue
            state = u.state
            if u.gtype == "ward" or state not in ("board", "carried", "reserve"):
                continue
            if u is last and not lms and only is None:
                continue
            if all_free or u.free_next:  # cost_of(), inlined
                cost = 0
            else:
                n = u.actions
                cost = costs[n] if n < n_costs else costs[-1] + (n - n_costs + 1)
            if cost > momentum:
                continue
            if state == "reserve":
                if side.has("ambushers"):  # traced in the second pass, when it could reach the bar
                    rows.append((u, cost, None, None))
                    continue
                entry = self._entry_options(g, side, u, cost)
                for o in entry:
                    if o[0] > bar:
                        bar = o[0]
                rows.append((u, cost, entry, None))
                continue
            head = self._unit_head(g, side, u, cost)
            for part in (head[1], head[2], head[3]):
                for o in part:
                    if o[0] > bar and (with_rest or o[1].name != "Rest"):
                        bar = o[0]
            rows.append((u, cost, None, head))
        out: list[_Row] = []
        for u, cost, entered, first in rows:
            if entered is not None:
                out.append((u, cost, entered))
            elif first is None:
                out.append((u, cost, self._ambush_options(g, u, cost, bar)))
            else:
                tail = self._unit_tail(g, side, u, cost, first, bar)
                out.append((u, cost, tail if not self.forbid else [item for item in tail if self.allowed(item[1].name, u)]))
        return out, bar

    def _ambush_options(self, g: Game, u: Unit, cost: int, bar: float) -> list[Scored]:
        """[Ambushers] the ambush of ``u`` in reserve, scored, unless even the best dice a charge
        could roll on any enemy would leave it below ``bar``."""
        if not self.allowed("Ambush", u):
            return []
        w = COST_WEIGHT * cost
        if bar != -INF:
            dice = self._charge_dice(g, u)
            if all(self._charge_top(g, u, t, dice) - w < bar - 1e-9 for t in g.enemies(u)):
                return []
        found = self._ambush(g, u)
        if found is None:
            return []
        value, t, spot = found
        return [(value - w, Order("Ambush", u, t, point=spot))]

    def _entry_options(self, g: Game, side: Side, u: Unit, cost: int) -> list[Scored]:
        """[Delayed deployment] entering from the board edge, from the second round."""
        if g.round < 2:
            return []
        x = 40 + (u.uid % 8) * (BOARD - 80) / 7  # spread along the edge, by the group's place in the list
        return [(1.2 - COST_WEIGHT * cost, Order("Enter", u, point=(x, 0.0)))]

    def _ambush(self, g: Game, u: Unit) -> tuple[float, Unit, tuple[float, float]] | None:
        """[Ambushers] the best ambush of ``u`` (board memo): (score before the cost, target, the
        spot it comes in at), or None when no charge from a legal spot would reach its target.
        Each enemy is tried from the spots just beyond S of it (16 bearings on two rings, the
        nearest ring first), the group's charge traced from there as the rules play it, up to
        the first spot it reaches its target from; it is scored as a Charge with the dice it
        would roll on arrival, and the first of the best enemies is chosen. Enemies are tried in
        order of the best dice a charge on them could roll: once that cannot beat the best found,
        the others are not traced."""
        memo = g.cache if g.cache is not None else {}
        key = ("ambush", u.uid)
        if key in memo:
            kept: tuple[float, Unit, tuple[float, float]] | None = memo[key]
            return kept
        best: tuple[float, Unit, tuple[float, float]] | None = None
        s = g.mm("S")
        ur = u.radius
        mov = g.mm(u.mov) if u.mov else 0.0
        pivots = g.pivots.get(u.mov or "B", 0)
        board: Blockers | None = memo.get("blockers")
        if board is None:
            board = memo["blockers"] = g._blockers()  # u is in reserve: not among the bases
        walls, bases = board
        save = (u.x, u.y)  # u stays in reserve: the board memo's lists never hold it
        try:
            dice = self._charge_dice(g, u)
            order = sorted(enumerate(g.enemies(u)), key=lambda item: -self._charge_top(g, u, item[1], dice))
            best_index = 0
            for index, t in order:
                tv = self.target_value(g, t)
                top = self._charge_top(g, u, t, dice)  # the score of the best dice it could roll
                if best is not None and (top < best[0] or (top == best[0] and index > best_index)):
                    break  # the enemies left (in order of that score) cannot do better
                reach = t.radius + ur if u.rng == "B" or u.gtype == "heavy" else max(0.0, g.mm(u.rng) - 2)
                value = -INF
                spot: tuple[float, float] | None = None
                for ring in (s + ur + 3, s + ur + 20):
                    for k in range(16):
                        angle = k * math.pi / 8
                        x, y = t.x + ring * math.cos(angle), t.y + ring * math.sin(angle)
                        if not g.ambush_spot_ok(u, x, y):
                            continue
                        u.x, u.y = x, y
                        need = max(0.0, dist(x, y, t.x, t.y) - reach)
                        if need > 0 and mov:
                            u.x, u.y = g._path_end(u, t.x, t.y, min(mov, need), pivots, True)
                        if g.within(u, t, u.rng) and g._los_through(u, t, walls, bases):
                            pb, ps = g.expected_break(u, t, *g.attack_dice(u, t, True, 0, 0, "charge"))
                            value, spot = 0.8 * pb * tv + 0.15 * ps, (x, y)
                            break
                    if spot is not None:
                        break
                if spot is not None and (best is None or value > best[0] or (value == best[0] and index < best_index)):
                    best, best_index = (value, t, spot), index
        finally:
            u.x, u.y = save
        memo[key] = best
        return best

    def _charge_dice(self, g: Game, a: Unit) -> tuple[tuple[int, int], ...]:
        """The (bonus, penalty) pairs that stand for every count of dice a charge of ``a`` may
        roll: a charge gives a penalty unless Elites, so the bonus dice only then (bonuses and
        penalties cancel; only the number of dice counts)."""
        return ((1, 0), (0, 0), (0, 1)) if g.sides[a.side].has("elites") else ((0, 0), (0, 1))

    def _charge_top(self, g: Game, a: Unit, t: Unit, dice: tuple[tuple[int, int], ...]) -> float:
        """The best score a charge of ``a`` on ``t`` could have with any of these (bonus,
        penalty) pairs (its score as :meth:`_ambush` counts it)."""
        tv = self.target_value(g, t)
        top = -INF
        for bonus, penalty in dice:
            pb, ps = g.expected_break(a, t, bonus, penalty)
            score = 0.8 * pb * tv + 0.15 * ps
            if score > top:
                top = score
        return top

    def _plan(self, g: Game, side: Side, u: Unit) -> UnitPlan:
        """What the board alone decides about ``u``'s options, worked out once per board."""
        memo = g.cache
        if memo is None:
            memo = {}
        elif u.memo_of is not memo:  # kept on the group for this memo (Unit.memo_of)
            u.memo_of, u.plan, u.in_range, u.goal = memo, None, None, None
        elif u.plan is not None:
            found: UnitPlan = u.plan
            return found
        plan = UnitPlan()
        if u.memo_of is memo:
            u.plan = plan
        enemies = g.enemies(u)
        plan.ux, plan.uy = (u.carrier.x, u.carrier.y) if u.state == "carried" and u.carrier else (u.x, u.y)
        on_board = u.state == "board"
        can_attack = u.fury is not None
        if can_attack and on_board:
            in_range = self._in_range(g, u, enemies)
            if in_range:
                best, count, pb, ps, best_value = None, 0, 0.0, 0.0, 0.0
                for e in in_range:  # the first target of the highest expected value
                    count += 1
                    eb, es = g.expected_break(u, e, *g.attack_dice(u, e, False))
                    value = eb * self.target_value(g, e)
                    if best is None or value > best_value:
                        best, best_value, pb, ps = e, value, eb, es
                assert best is not None
                bonus = 0.5 * (min(3, count) - 1) if u.heavy_trait == "colossal" else None
                plan.stand = (pb * self.target_value(g, best) + 0.2 * ps, bonus, Order("Stand and Fight", u, best))
        if can_attack and u.mov and enemies:
            foes, stats, ux, uy = self._foes_version(g, u.side), g.stats_version, plan.ux, plan.uy
            target: tuple[Unit, float, float] | tuple[()]
            if (
                u.charge_by is self and u.charge_foes == foes and u.charge_stats == stats
                and u.charge_x == u.x and u.charge_y == u.y and u.charge_ux == ux and u.charge_uy == uy
            ):  # fmt: skip
                target = u.charge_target
            else:
                target = self._charge_target(g, side, u, enemies, ux, uy)
                u.charge_by, u.charge_foes, u.charge_stats, u.charge_target = self, foes, stats, target
                u.charge_x, u.charge_y, u.charge_ux, u.charge_uy = u.x, u.y, ux, uy
            if target:
                t, pb, ps = target
                plan.charge = (0.8 * pb * self.target_value(g, t) + 0.15 * ps, Order("Charge", u, t))
        if u.guile is not None and on_board:
            rest = self.rest_odds.get(u.guile)
            if rest is None:
                rest = self.rest_odds[u.guile] = check_probabilities(u.guile, dice_count(0, 0, g.dice_table))
            plan.rest = rest
            plan.rest_order = Order("Rest", u)
            if g.scenario in ("king-of-the-hill", "capture-the-flags"):
                for e in self._in_range(g, u, enemies):
                    gx, gy = self.goal(g, e)  # where this player thinks the enemy is headed
                    if dist(e.x, e.y, gx, gy) < 60:
                        p = g.p_success(u.guile, 0, 1 if g.sneaked(u, e) else 0)
                        plan.feint = (p * 1.2 * e.points, Order("Feint", u, e))
                        break
        wards: list[Unit] | None = memo.get(_WARDS_KEYS[side.idx])
        if wards is None:
            wards = memo[_WARDS_KEYS[side.idx]] = [o for o in side.units if o.state == "board" and o.gtype == "ward"]
        if wards and on_board:
            ward = wards[0]
            front = self._front(g, side, enemies)
            if front is not None and front is not u and dist(ward.x, ward.y, front.x, front.y) > g.mm(ward.rng) and g.los(u, front):
                plan.translocate = Order("Translocate Ward", u, ally=front, movers=[ward])
        return plan

    def _unit_head(self, g: Game, side: Side, u: Unit, cost: int) -> _Head:
        """First pass for ``u``: (plan, [Stand and Fight, Charge], [Rest, Feint, Translocate
        Ward], [the champion action unless it is a Crashing Wave])."""
        plan: UnitPlan | None = u.plan if u.memo_of is g.cache and g.cache is not None else None
        if plan is None:
            plan = self._plan(g, side, u)
        fixed = plan.scored.get(cost)
        if fixed is None:
            fixed = plan.scored[cost] = self._fixed_scores(g, side, u, cost, plan)
        head, middle, fixed_champion = fixed
        if plan.rest is not None and plan.rest_order is not None:  # Rest: regain momentum (set together)
            f, s, c = plan.rest
            room = side.total - (side.momentum - cost)
            gain = f * (room if room < 1 else 1) + s * (room if room < 2 else 2) + c * (room if room < 3 else 3)
            short = 1.0 if side.momentum - cost < 4 else 0.5  # momentum matters more when little is left
            middle = [(short * (gain - cost) - 0.3, plan.rest_order), *middle]
        champion = fixed_champion if fixed_champion is not None else self._champion_options(g, side, u, cost, plan)
        return plan, head, middle, champion

    def _fixed_scores(self, g: Game, side: Side, u: Unit, cost: int, plan: UnitPlan) -> tuple[list[Scored], list[Scored], list[Scored] | None]:
        """The first-pass options of ``u`` that only the board and the cost decide."""
        head: list[Scored] = []
        w = COST_WEIGHT * cost
        if plan.stand is not None:
            s0, bonus, order = plan.stand
            score = s0 - w
            if bonus is not None:
                score += bonus
            head.append((score, order))
        if plan.charge is not None:
            head.append((plan.charge[0] - w, plan.charge[1]))
        middle: list[Scored] = []
        if plan.feint is not None:
            middle.append((plan.feint[0] - w, plan.feint[1]))
        if plan.translocate is not None:
            middle.append((0.6 - w, plan.translocate))
        champion: list[Scored] | None = []
        if u.champion_action and u.state == "board" and u.champion_action != "crashing-wave":
            champion = self._champion_options(g, side, u, cost, plan)
            if (plan.champion is not None and plan.champion[0] == "scheming-plot") or u.champion_action == "banishment":
                champion = None  # momentum decides them: worked out on every call
        return head, middle, champion

    def _unit_tail(self, g: Game, side: Side, u: Unit, cost: int, head: _Head, bar: float) -> list[Scored]:
        """Second pass for ``u``: its options in their order, Sprint, Crashing Wave and Maneuver
        worked out only when they could reach ``bar``."""
        plan, first, middle, champion = head
        out = list(first)
        w = COST_WEIGHT * cost
        ux, uy = plan.ux, plan.uy
        band = g.wider[u.mov] if u.mov else None
        if band is not None:
            mw = self.weight_now
            band_mm = g.band_mm.get(band or "B", 0.0)
            full = plan.sprint_full
            if full is None:
                full = plan.sprint_full = mw * band_mm / 80.0
            most = plan.sprint_most
            traced = plan.sprint_traced
            if full - w >= bar - 1e-9 and most is None:
                goal = plan.goal
                if goal is None:
                    goal = plan.goal = self.goal(g, u)
                gx, gy = goal
                length = min(band_mm, max(0.0, hypot(ux - gx, uy - gy) - 2 * u.radius))
                r = u.radius
                # the progress is at most the length moved (clamping never lengthens a move that
                # starts on the board): a Sprint that cannot count is not traced
                most = plan.sprint_most = mw * length / 80.0 if r <= ux <= BOARD - r and r <= uy <= BOARD - r else NAN
            if full - w >= bar - 1e-9 and most is not None and (most != most or not (most < 0.05 - 1e-9 or most - w < bar - 1e-9)):
                if traced is None:
                    goal = plan.goal
                    if goal is None:
                        goal = plan.goal = self.goal(g, u)
                    gx, gy = goal
                    length = min(band_mm, max(0.0, hypot(ux - gx, uy - gy) - 2 * u.radius))
                    save = (u.x, u.y)  # a passenger moves from where its Transport stands now
                    u.x, u.y = ux, uy
                    ex, ey = g.path_end(u, gx, gy, length, g.pivots.get(band or "S", 0))
                    value = self.move_value(g, u, ex, ey)
                    u.x, u.y = save
                    traced = plan.sprint_traced = (value, Order("Sprint", u, point=(ex, ey)))
                if traced[0] > 0.05:
                    out.append((traced[0] - w, traced[1]))
        out += middle
        on_board = u.state == "board"
        if u.champion_action and on_board:
            out += champion if u.champion_action != "crashing-wave" else self._champion_options(g, side, u, cost, plan, bar)
        bound = plan.most_bound if bar != -INF else None
        if bound is not None and bound - w < bar - 1e-9:
            pass  # no Maneuver could reach the bar
        elif u.guile is not None and on_board and not self._maneuver_cannot_win(g, u, w, plan, bar):
            maneuver = plan.maneuver
            if not plan.maneuver_done:
                plan.maneuver_done = True
                found = self._maneuver_move(g, u, g.enemies(u))
                if found:
                    ally, end = found
                    value = g.p_success(u.guile) * self.move_value(g, ally, *end)
                    if value > 0.05:
                        maneuver = (value, Order("Maneuver", u, ally=ally))
                plan.maneuver = maneuver
            if maneuver is not None:
                out.append((maneuver[0] - w, maneuver[1]))
        return out

    def _maneuver_cannot_win(self, g: Game, u: Unit, w: float, plan: UnitPlan, bar: float) -> bool:
        """True when no Maneuver of ``u`` could reach ``bar``, or no ally would be drawn: the ally
        moves no farther than its MOV and than the gap between them, and its progress is at most
        the distance it moves."""
        mw = self.weight_now
        bound = plan.most_bound
        if bound is None:
            bound = plan.most_bound = g.p_success(u.guile) * mw * self._longest_ally_move(g, u) / 80.0
        if bar != -INF and bound - w < bar - 1e-9:
            return True
        fine = plan.most_fine
        if fine is None:
            reach = self._maneuver_reach(g, u)
            fine = plan.most_fine = -INF if reach == -INF else g.p_success(u.guile) * mw * reach / 80.0
        if fine == -INF:
            return True
        return bar != -INF and fine - w < bar - 1e-9

    def _longest_ally_move(self, g: Game, u: Unit) -> float:
        """The longest MOV among the fighting allies a Maneuver could draw (inf off the clamp box)."""
        memo = g.cache if g.cache is not None else {}
        key = _LONGEST_KEYS[u.side]
        top: tuple[float, int, float] | None = memo.get(key)
        if top is None:
            first, first_uid, second = 0.0, -1, 0.0
            for a in g.sides[u.side].units:
                if a.state != "board" or a.gtype == "ward" or not a.mov or a.fury is None:
                    continue
                r = a.radius
                value = g.band_mm.get(a.mov or "B", 0.0) if r <= a.x <= BOARD - r and r <= a.y <= BOARD - r else INF
                if value > first:
                    first, first_uid, second = value, a.uid, first
                elif value > second:
                    second = value
            top = memo[key] = (first, first_uid, second)
        return top[2] if top[1] == u.uid else top[0]

    def _maneuver_reach(self, g: Game, u: Unit) -> float:
        """How far the ally a Maneuver of ``u`` would draw can move: -inf if none would be drawn,
        inf if it stands off the board's clamp box."""
        memo = g.cache if g.cache is not None else {}
        key = _MOVERS_KEYS[u.side]
        movers: list[Unit] | None = memo.get(key)
        if movers is None:
            movers = memo[key] = [a for a in g.sides[u.side].units if a.state == "board" and a.gtype != "ward" and a.mov and a.fury is not None]
        ux, uy, ur, far = u.x, u.y, u.radius, g.band_mm.get("M", 0.0)
        ally, gap = None, 0.0
        for a in movers:
            if a is u:
                continue
            d = hypot(ux - a.x, uy - a.y)
            if (d <= ur + a.radius + EPS or d <= far) and (ally is None or d > gap):
                ally, gap = a, d
        if ally is None or not g.enemies(u):
            return -INF
        r = ally.radius
        if not (r <= ally.x <= BOARD - r and r <= ally.y <= BOARD - r):
            return INF
        return min(g.mm(ally.mov), max(0.0, gap - 2 * ally.radius))

    def _in_range(self, g: Game, u: Unit, enemies: list[Unit]) -> list[Unit]:
        """The enemies within ``u``'s RNG and in its line of sight (board memo)."""
        memo = g.cache
        if memo is None:
            return [e for e in self._within_all(g, u, enemies, u.rng) if g.los(u, e)]
        if u.memo_of is not memo:  # kept on the group for this memo (Unit.memo_of)
            u.memo_of, u.plan, u.in_range, u.goal = memo, None, None, None
        found = u.in_range
        if found is None:
            found = u.in_range = [e for e in self._within_all(g, u, enemies, u.rng) if g.los(u, e)]
        return found

    def _within_all(self, g: Game, u: Unit, others: list[Unit], band: str | None) -> list[Unit]:
        """The units of ``others`` within ``band`` of ``u`` (Geometry.within over a list)."""
        if band is None:
            return []
        ux, uy, ur = u.x, u.y, u.radius
        if band == "B":
            return [e for e in others if hypot(ux - e.x, uy - e.y) <= ur + e.radius + EPS]
        far = g.band_mm.get(band, 0.0)
        return [e for e in others if (d := hypot(ux - e.x, uy - e.y)) <= ur + e.radius + EPS or d <= far]

    def _charge_target(self, g: Game, side: Side, u: Unit, enemies: list[Unit], ux: float, uy: float) -> tuple[Unit, float, float] | tuple[()]:
        """Charge: (target, P(break), P(stand)) among the enemies a move can bring in range, or ()."""
        band_mm = g.band_mm
        reach = band_mm.get(u.mov or "B", 0.0) + (band_mm.get(u.rng or "B", 0.0) if u.rng != "B" else 0) + u.radius * 2 + 1
        t, best = None, 0.0
        band = u.rng
        far = band_mm.get(band, 0.0) if band is not None and band != "B" else -1.0
        x, y, ur = u.x, u.y, u.radius
        here = x == ux and y == uy
        for e in enemies:
            d = hypot(ux - e.x, uy - e.y)
            if d > reach:
                continue
            if band is not None:
                near = d if here else hypot(x - e.x, y - e.y)
                if near <= ur + e.radius + EPS or near <= far:
                    continue
            value = self.target_value(g, e) - d / 100
            if t is None or value > best:
                t, best = e, value
        if t is None:
            return ()
        pb, ps = g.expected_break(u, t, 0, (0 if side.has("elites") else 1) + (1 if g.sneaked(u, t) else 0))
        return t, pb, ps

    def _maneuver_move(self, g: Game, u: Unit, enemies: list[Unit]) -> tuple[Unit, tuple[float, float]] | tuple[()]:
        """Maneuver: (the fighting ally to draw in, where its move ends), or ()."""
        helpers = [a for a in g.allies(u) if a.mov and a.fury is not None and g.within(u, a, "M")]
        ally = max(helpers, key=lambda a: dist(a.x, a.y, u.x, u.y)) if helpers and enemies else None
        if ally is None or not g.los(u, ally):
            return ()
        return ally, g.path_end(ally, u.x, u.y, min(g.mm(ally.mov), max(0.0, dist(ally.x, ally.y, u.x, u.y) - 2 * ally.radius)), 0)

    def _front(self, g: Game, side: Side, enemies: list[Unit]) -> Unit | None:
        """The side's non-Ward group nearest the enemy (board memo)."""
        key = _FRONT_KEYS[side.idx]
        if g.cache is not None and key in g.cache:
            return g.cache[key]
        front: Unit | None = None
        best = 0.0
        for a in side.units:
            if a.state != "board" or a.gtype == "ward":
                continue
            near = 999.0
            if enemies:
                near = min(hypot(a.x - e.x, a.y - e.y) for e in enemies)
            if front is None or near < best:
                front, best = a, near
        if g.cache is not None:
            g.cache[key] = front
        return front

    # ------------------------------------------------------------------ champion actions

    def _champion_options(self, g: Game, side: Side, u: Unit, cost: int, plan: UnitPlan, bar: float = -INF) -> list[Scored]:
        """The champion action of ``u``, scored: what the board decides once per board, momentum
        (Scheming Plot, Banishment) and the bar (Crashing Wave) here."""
        if u.guile is None or not self.allowed(CHAMPION_ACTIONS.get(u.champion_action or "", ""), u):
            return []
        if plan.champion is None:
            plan.champion = self._champion_plan(g, side, u)
        kind, data = plan.champion
        w = COST_WEIGHT * cost
        if kind == "fixed":
            if data is None:
                return []
            s0, order = data
            return [(s0 - w, order)]
        if kind == "scheming-plot":
            if data is None:
                return []
            p, order = data
            room = side.total - (side.momentum - cost)
            theirs = g.sides[1 - side.idx].momentum
            return [(p * 0.8 * (min(2, room) + min(2, theirs)) - w, order)]
        if kind == "banishment":
            if data is None:
                return []
            p, t, risk, threat, order = data
            enemy = g.sides[t.side]
            # the enemy's momentum now above its total less the target (lost at once), and its points
            # missing from the next round's total until it comes back
            denied = min(t.points, max(0, enemy.momentum - (enemy.total - t.points))) + 0.5 * t.points
            scored = self._banish_scenario(g, t)
            return [(p * (threat + COST_WEIGHT * 2 * denied + scored) - risk - w, order)]
        # crashing-wave: each mover's progress is at most its MOV: a wave that cannot beat the bar is not traced
        mw = self.weight_now
        wave = data.get(mw)
        if wave is None:
            movers = [o for o in self._within_all(g, u, g.allies(u), u.rng) if o.mov]
            most = g.p_success(u.guile) * sum(mw * g.mm(o.mov) / 80.0 for o in movers)
            boxed = bool(movers) and all(o.radius <= o.x <= BOARD - o.radius and o.radius <= o.y <= BOARD - o.radius for o in movers)
            wave = data[mw] = [movers, most, boxed, None]
        movers, most, boxed, traced = wave
        if not movers or (boxed and most - w < bar - 1e-9):
            return []
        if traced is None:
            value = g.p_success(u.guile) * sum(max(0.0, self.move_value(g, o, *g.path_end(o, *self.goal(g, o), g.mm(o.mov), 0))) for o in movers)
            traced = wave[3] = (value, Order("Crashing Wave", u, movers=movers))
        return [(traced[0] - w, traced[1])]

    def _banish_scenario(self, g: Game, t: Unit) -> float:
        """What banishing ``t`` is worth in the scenario: its points off the hill, a zone or the
        flags when the last round is being played."""
        limit = g.scenario_rounds or g.round_limit
        if g.round < limit or g.scenario not in ("king-of-the-hill", "conquest", "capture-the-flags"):
            return 0.0
        if g.scenario == "king-of-the-hill" and g.hill is not None:
            hill = g.hill
            return t.points * REMOVE_VALUE if dist(t.x, t.y, hill.x, hill.y) <= hill.r + t.radius + EPS else 0.0
        if g.scenario == "capture-the-flags":
            return 2.0 * REMOVE_VALUE if any(m.holder is t for m in g.markers) else 0.0
        return t.points * 1.5

    def _champion_plan(self, g: Game, side: Side, u: Unit) -> tuple[str, Any]:
        """What the board decides about ``u``'s champion action: ("fixed", (score before cost,
        order) or None), ("scheming-plot", (P(success), order) or None), ("banishment", (P, target,
        risk, threat, order) or None) or ("crashing-wave", {move weight: [movers, best progress,
        all on the board, traced]}). A champion's reach is its RNG (its group's when attached)."""
        a = u.champion_action
        enemies = g.enemies(u)
        reach = u.rng
        guile = u.guile
        assert guile is not None
        if a == "scheming-plot":
            near = self._within_all(g, u, enemies, reach)
            mine = sum(o.points for o in self._within_all(g, u, g.allies(u, True), reach)) + u.points
            if not near or mine > sum(e.points for e in near):
                return "scheming-plot", (g.p_success(guile), Order("Scheming Plot", u))
            return "scheming-plot", None
        if a == "crashing-wave":
            return "crashing-wave", {}
        if a == "banishment":
            targets = self._within_all(g, u, enemies, reach)
            if not targets:
                return "banishment", None
            threats = [(self.threat(g, t), t) for t in targets]
            threat, t = max(threats, key=lambda item: (item[0] + item[1].points, -item[1].uid))
            risk = self.p_fail_will(g, u, 0) * u.points * REMOVE_VALUE  # the Will check that follows (no critical on 1d20)
            return "banishment", (g.p_success(guile, 0, 1), t, risk, threat, Order("Banishment", u, t))
        fixed: tuple[float, Order] | None = None
        if a == "distant-doom" and u.fury is not None:
            band = g.wider[reach]
            targets = [e for e in enemies if g.within(u, e, band) and not g.within(u, e, reach)]
            if targets:  # a ranged attack with a penalty (its S bonus and terrain's penalty as for any)
                odds = [(g.expected_break(u, e, *g.attack_dice(u, e, False, 0, 1, "doom"))[0] * self.target_value(g, e), -e.uid, e) for e in targets]
                value, _, t = max(odds, key=lambda o: (o[0], o[1]))
                fixed = (value, Order("Distant Doom", u, t))
        elif a == "spot-weakness":
            for ally in self._within_all(g, u, g.allies(u), reach):
                if ally.fury is None:
                    continue
                foes = self._in_range(g, ally, g.enemies(ally))
                if foes:
                    t = max(foes, key=lambda e: (g.expected_break(ally, e, 0, 0)[0] * self.target_value(g, e), -e.uid))
                    pb, _ = g.expected_break(ally, t, 0, 0)
                    fixed = (g.p_success(guile) * pb * self.target_value(g, t), Order("Spot Weakness", u, t, ally=ally))
                    break
        elif a == "battle-summons":
            lost = [o for o in side.units if o.state == "out" and o.points <= 2]
            if lost:
                t = max(lost, key=lambda o: (o.points, -o.uid))
                fixed = (g.p_success(guile) * t.points * 1.2, Order("Battle Summons", u, ally=t))
        elif a == "push-to-the-brink":
            targets = [e for e in self._within_all(g, u, enemies, reach) if g.los(u, e)]
            if targets:
                t = max(targets, key=lambda e: (e.points, -e.uid))
                value = g.p_success(guile) * (0.6 + (1.2 if g.scenario in ("king-of-the-hill", "capture-the-flags", "conquest") else 0.0))
                fixed = (value, Order("Push to the Brink", u, t))
        return "fixed", fixed

