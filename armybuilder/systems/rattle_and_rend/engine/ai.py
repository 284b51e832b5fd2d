"""The AI's policy: every action a side could give now, scored (expected points removed,
progress towards the scenario's goal, momentum) against its momentum cost."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .actions import ActionRules
from .board import BOARD, EPS, INF, NAN, clamp, dist, hypot, terrain_at
from .dice import check_probabilities, dice_count
from .state import (
    COST_WEIGHT,
    REMOVE_VALUE,
    Action,
    Option,
    Scored,
    Side,
    Unit,
    UnitPlan,
)

_Row = tuple[Unit, int, list[Scored]]
_Pick = tuple[Scored, float, int, Unit, int]
#: a group's first pass (ActionChoice._unit_head): its plan, [Stand and Fight, Charge],
#: [Rest, Feint, Translocate Ward], [the champion action unless it is a Crashing Wave]
_Head = tuple[UnitPlan, list[Scored], list[Scored], list[Scored]]


def _best(rows: list[_Row]) -> _Pick | None:
    """(option, score, uid, group, cost) of the best option of ``rows``: the highest score,
    then the lower uid, then the first listed (``max`` by (score, -uid) over the options in
    order); None if there are none."""
    best: _Pick | None = None
    best_score, best_uid = -INF, 0
    for u, cost, scored in rows:
        uid = u.uid
        for item in scored:
            score = item[0]
            if best is None or score > best_score or (score == best_score and uid < best_uid):
                best, best_score, best_uid = (item, score, uid, u, cost), score, uid
    return best


class ActionChoice(ActionRules):
    """Option scoring of :class:`game.Game`; the chosen option's ``run`` plays it (:mod:`actions`)."""

    __slots__ = ()

    def cost_of(self, side: Side, u: Unit, free: bool) -> int:
        if free or u.free_next or side.free_action:
            return 0
        n = u.actions
        return self.costs[n] if n < len(self.costs) else self.costs[-1] + (n - len(self.costs) + 1)

    def options(self, side: Side, only: Unit | None = None, free: bool = False) -> list[Option]:
        """Every action the side could give now, scored (see :meth:`_scored`)."""
        self._open_board()
        try:
            rows = self._scored(side, only, free)[0]
        finally:
            self.cache = None
        return [Option(score, cost, u, name, run) for u, cost, scored in rows for score, name, run in scored]

    def choose(self, side: Side) -> Option | None:
        """The option :meth:`options` lists with the best score (the lower uid, then the first
        listed, on a tie: what ``max`` over that list by (score, -uid) returns), found without
        building an :class:`Option` for each of the others."""
        self._open_board()
        try:
            best = _best(self._scored(side, None, False)[0])
        finally:
            self.cache = None
        if best is None:
            return None
        item, score, _, unit, cost = best
        return Option(score, cost, unit, item[1], item[2])

    def _open_board(self) -> None:
        """Nothing moves while options are scored, so line of sight and goals are cached for
        the call - and for the next calls while no group moves, enters or leaves and no marker
        changes hands (the board signature): most actions (Rest, a failed attack, a refused
        reaction) leave the board as it was."""
        signature = (
            tuple([(o.x, o.y, o.state) for o in self.units]),
            tuple([(m.holder.uid if m.holder is not None else None, m.off) for m in self.markers]),
        )
        weight = self.move_weight()  # the round and scenario hold while options are scored
        if signature != self.board_signature or weight != self.weight_now:
            self.board_signature = signature
            self.board_memo = {}  # one move weight per memo: plans keep what depends on it as is
        self.cache = self.board_memo
        self.weight_now = weight

    def _scored(self, side: Side, only: Unit | None, free: bool) -> tuple[list[_Row], float]:
        """Every option of the side as (group, cost, [(score, name, run)]), and the bar, in two passes.  The
        first works out each group's plan and the options that cost little to score (Stand and
        Fight, Charge, Rest, Feint, Translocate Ward, most champion actions, entering); the best
        of them all is the bar.  The second adds the options whose scoring traces paths (Sprint,
        Maneuver, Crashing Wave) only when their upper bound reaches that bar: an option below
        the score of one already listed is never chosen.  Each group's options keep their
        order, so the choice (the best score, then the lower uid, then the first listed) is the
        one a single pass would make.  When one group is asked for alone (a Reversal, which
        never takes Rest), Rest is left out of the bar."""
        lms = sum(1 for u in side.units if u.state == "board" and u.gtype != "ward") == 1
        rows: list[tuple[Unit, int, list[Scored] | None, _Head | None]] = []
        bar = -INF
        with_rest = only is None
        last = side.last_actor
        momentum = side.momentum
        costs = self.costs
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
                entry = [(o.score, o.name, o.run) for o in self._entry_options(side, u, cost)]
                for o in entry:
                    if o[0] > bar:
                        bar = o[0]
                rows.append((u, cost, entry, None))
                continue
            head = self._unit_head(side, u, cost)
            for part in (head[1], head[2], head[3]):
                for o in part:
                    if o[0] > bar and (with_rest or o[1] != "Rest"):
                        bar = o[0]
            rows.append((u, cost, None, head))
        out: list[_Row] = []
        for u, cost, entered, first in rows:
            if entered is not None:
                out.append((u, cost, entered))
            else:
                assert first is not None
                out.append((u, cost, self._unit_tail(side, u, cost, first, bar)))
        return out, bar

    def _entry_options(self, side: Side, u: Unit, cost: int) -> list[Option]:
        if side.has("ambushers"):
            enemies = self.enemies(u)
            if not enemies:
                return []
            t = min(enemies, key=lambda e: (-self.target_value(e), e.uid))
            d = self.mm("S") + u.radius + 3

            def ambush(ctx: Action, t: Unit = t) -> None:
                ang = self.dice.u() * 2 * math.pi
                for _ in range(8):
                    x, y = clamp(t.x + d * math.cos(ang), t.y + d * math.sin(ang), u.radius)
                    if terrain_at(self.pieces, x, y) is None and all(dist(x, y, e.x, e.y) > self.mm("S") for e in self.enemies(u)):
                        break
                    ang += math.pi / 4
                u.x, u.y, u.state = x, y, "board"
                if self.logging:
                    self.log(f"{u.name} comes out of ambush")
                self._charge(ctx, u, t)

            return [Option(1.0 + self.target_value(t) * 0.3 - COST_WEIGHT * cost, cost, u, "Ambush", ambush)]
        if self.round < 2:
            return []

        def enter(ctx: Action) -> None:
            x = 40 + self.dice.u() * (BOARD - 80)
            edge = side.edge_y if side.edge_y is not None else 0.0
            u.x, u.y = clamp(x, edge, u.radius)
            u.state = "board"
            if self.logging:
                self.log(f"{u.name} enters from the board edge")

        return [Option(1.2 - COST_WEIGHT * cost, cost, u, "Enter", enter)]

    def _plan(self, side: Side, u: Unit) -> UnitPlan:
        """What the board alone decides about ``u``'s options, worked out once per board
        (stored in the board memo under a uid key): the AI rescoring a group whose board did
        not change only subtracts the new cost and recomputes what momentum decides."""
        memo = self.cache if self.cache is not None else {}
        key = ("plan", u.uid)
        found: UnitPlan | None = memo.get(key)
        if found is not None:
            return found
        plan = memo[key] = UnitPlan()
        enemies: list[Unit] | None = memo.get(("enemies", u.side))  # enemies(), its board memo read here
        if enemies is None:
            enemies = self.enemies(u)
        plan.ux, plan.uy = (u.carrier.x, u.carrier.y) if u.state == "carried" and u.carrier else (u.x, u.y)
        on_board = u.state == "board"
        can_attack = u.fury is not None
        if can_attack and on_board:
            # Stand and Fight's best target (the first of the highest expected value), with
            # _in_range() and _within_all() inlined (the same arithmetic, the same board memo
            # entry): most groups have no enemy in range
            key = ("in range", u.uid)
            in_range: list[Unit] | None = memo.get(key)
            if in_range is None:
                band = u.rng
                if band is None:
                    in_range = []
                else:
                    ux, uy, ur = u.x, u.y, u.radius
                    if band == "B":
                        in_range = [e for e in enemies if hypot(ux - e.x, uy - e.y) <= ur + e.radius + EPS]
                    else:
                        reach = self.band_mm.get(band, 0.0)
                        in_range = [e for e in enemies if (d := hypot(ux - e.x, uy - e.y)) <= ur + e.radius + EPS or d <= reach]
                    if in_range:
                        in_range = [e for e in in_range if self.los(u, e)]
                memo[key] = in_range
            if in_range:
                best, count, pb, ps, best_value = None, 0, 0.0, 0.0, 0.0
                for e in in_range:  # the first target of the highest expected value
                    count += 1
                    eb, es = self.expected_break(u, e, *self.attack_dice(u, e, False))
                    value = eb * self.target_value(e)
                    if best is None or value > best_value:
                        best, best_value, pb, ps = e, value, eb, es
                assert best is not None  # in_range is not empty
                bonus = 0.5 * (min(3, count) - 1) if u.heavy_trait == "colossal" else None
                plan.stand = (pb * self.target_value(best) + 0.2 * ps, bonus, lambda ctx, t=best: self._stand(ctx, u, t))
        if can_attack and u.mov and enemies:
            far = (u.uid, u.x, u.y, plan.ux, plan.uy, self._foes_version(u.side))
            target = self.charge_memo.get(far)
            if target is None:
                target = self.charge_memo[far] = self._charge_target(side, u, enemies, plan.ux, plan.uy)
            if target:
                t, pb, ps = target
                plan.charge = (0.8 * pb * self.target_value(t) + 0.15 * ps, lambda ctx, t=t: self._charge(ctx, u, t))
        if u.guile is not None and on_board:
            rest = self.rest_odds.get(u.guile)
            if rest is None:
                rest = self.rest_odds[u.guile] = check_probabilities(u.guile, dice_count(0, 0, self.dice_table))
            plan.rest = rest
            plan.rest_run = lambda ctx: self._rest(ctx, u)
            if self.scenario in ("king-of-the-hill", "capture-the-flags"):
                for e in self._in_range(u, enemies):
                    gx, gy = self.goal(e)
                    if dist(e.x, e.y, gx, gy) < 60:
                        plan.feint = (self.p_success(u.guile) * 1.2 * e.points, lambda ctx, e=e: self._feint(ctx, u, e))
                        break
        wards: list[Unit] | None = memo.get(("wards", side.idx))
        if wards is None:
            wards = memo[("wards", side.idx)] = [o for o in side.units if o.state == "board" and o.gtype == "ward"]
        if wards and on_board:
            ward = wards[0]
            front = self._front(side, enemies)
            if front is not None and front is not u and dist(ward.x, ward.y, front.x, front.y) > self.mm(ward.rng) and self.los(u, front):
                plan.translocate = lambda ctx, ward=ward, front=front: self._translocate(ctx, u, ward, front)
        return plan

    def _unit_head(self, side: Side, u: Unit, cost: int) -> _Head:
        """First pass for ``u``: (plan, [Stand and Fight, Charge], [Rest, Feint, Translocate
        Ward], [the champion action unless it is a Crashing Wave]) as (score, name, run); see
        :meth:`_scored`.  What only the board and the cost decide is kept in the plan per cost;
        Rest and Scheming Plot, which depend on momentum, are worked out on every call."""
        plan: UnitPlan | None = self.cache.get(("plan", u.uid)) if self.cache is not None else None
        if plan is None:
            plan = self._plan(side, u)
        fixed = plan.scored.get(cost)
        if fixed is None:
            fixed = plan.scored[cost] = self._fixed_scores(side, u, cost, plan)
        head, middle, fixed_champion = fixed
        # Rest: regain momentum
        rest_run = plan.rest_run
        if plan.rest is not None and rest_run is not None:  # set together (_plan)
            f, s, c = plan.rest
            room = side.total - (side.momentum - cost)
            gain = f * (room if room < 1 else 1) + s * (room if room < 2 else 2) + c * (room if room < 3 else 3)  # min() inlined
            short = 1.0 if side.momentum - cost < 4 else 0.5  # momentum matters more when little is left
            middle = [(short * (gain - cost) - 0.3, "Rest", rest_run), *middle]
        champion = fixed_champion if fixed_champion is not None else self._champion_options(side, u, cost, plan)  # Scheming Plot
        return plan, head, middle, champion

    def _fixed_scores(self, side: Side, u: Unit, cost: int, plan: UnitPlan) -> tuple[list[Scored], list[Scored], list[Scored] | None]:
        """The first-pass options of ``u`` that only the board and the cost decide: [Stand and
        Fight, Charge], [Feint, Translocate Ward] and the champion action (None when it is a
        Scheming Plot, which momentum decides; [] for a Crashing Wave, scored in the second pass)."""
        head: list[Scored] = []
        w = COST_WEIGHT * cost
        # Stand and Fight
        if plan.stand is not None:
            s0, bonus, run = plan.stand
            score = s0 - w
            if bonus is not None:
                score += bonus
            head.append((score, "Stand and Fight", run))
        # Charge: move up to MOV then attack with a penalty
        if plan.charge is not None:
            head.append((plan.charge[0] - w, "Charge", plan.charge[1]))
        middle: list[Scored] = []
        # Feint: push a dangerous enemy away (or off a hill or flag)
        if plan.feint is not None:
            middle.append((plan.feint[0] - w, "Feint", plan.feint[1]))
        # Translocate Ward: bring a Ward with a warding reaction up to the fight
        if plan.translocate is not None:
            middle.append((0.6 - w, "Translocate Ward", plan.translocate))
        champion: list[Scored] | None = []
        if u.champion_action and u.state == "board" and u.champion_action != "crashing-wave":
            champion = self._champion_options(side, u, cost, plan)
            assert plan.champion is not None
            if plan.champion[0] == "scheming-plot":
                champion = None
        return head, middle, champion

    def _unit_tail(self, side: Side, u: Unit, cost: int, head: _Head, bar: float) -> list[Scored]:
        """Second pass for ``u``: its options in their order, Sprint, Crashing Wave and Maneuver
        worked out only when they could reach ``bar`` (see :meth:`_scored`)."""
        plan, first, middle, champion = head
        out = list(first)
        w = COST_WEIGHT * cost
        ux, uy = plan.ux, plan.uy
        # Sprint towards the goal (not worked out when even a full move could not beat the best option)
        band = self.wider[u.mov] if u.mov else None
        if band is not None:
            mw = self.weight_now
            band_mm = self.band_mm.get(band or "B", 0.0)  # mm(), inlined
            full = plan.sprint_full
            if full is None:
                full = plan.sprint_full = mw * band_mm / 80.0
            most = plan.sprint_most
            traced = plan.sprint_traced
            if full - w >= bar - 1e-9 and most is None:
                gx, gy = self.goal(u)
                length = min(band_mm, max(0.0, hypot(ux - gx, uy - gy) - 2 * u.radius))
                r = u.radius
                # The progress is at most the length moved (clamping onto the board never
                # lengthens a move that starts on it): a Sprint that cannot count is not traced;
                # off the clamp box it always is (None).
                most = plan.sprint_most = mw * length / 80.0 if r <= ux <= BOARD - r and r <= uy <= BOARD - r else NAN
            if full - w >= bar - 1e-9 and most is not None and (most != most or not (most < 0.05 - 1e-9 or most - w < bar - 1e-9)):
                if traced is None:
                    gx, gy = self.goal(u)
                    length = min(band_mm, max(0.0, hypot(ux - gx, uy - gy) - 2 * u.radius))
                    save = (u.x, u.y)  # a passenger moves from where its Transport stands now
                    u.x, u.y = ux, uy
                    ex, ey = self.path_end(u, gx, gy, length, self.pivots.get(band or "S", 0))
                    value = self.move_value(u, ex, ey)
                    u.x, u.y = save
                    traced = plan.sprint_traced = (value, lambda ctx, p=(ex, ey): self._sprint(ctx, u, p))
                if traced[0] > 0.05:
                    out.append((traced[0] - w, "Sprint", traced[1]))
        out += middle
        # Champion action
        on_board = u.state == "board"
        if u.champion_action and on_board:
            out += champion if u.champion_action != "crashing-wave" else self._champion_options(side, u, cost, plan, bar)
        # Maneuver: draw a fighting ally towards this group's foes
        bound = plan.most_bound if bar != -INF else None
        if bound is not None and bound - w < bar - 1e-9:
            pass  # no Maneuver could reach the bar (the first test of _maneuver_cannot_win, read here)
        elif u.guile is not None and on_board and not self._maneuver_cannot_win(u, w, plan, bar):
            maneuver = plan.maneuver
            if not plan.maneuver_done:
                plan.maneuver_done = True
                found = self._maneuver_move(u, self.enemies(u))
                if found:
                    ally, end = found
                    value = self.p_success(u.guile) * self.move_value(ally, *end)
                    if value > 0.05:
                        maneuver = (value, lambda ctx, ally=ally, end=end: self._maneuver(ctx, u, ally, end))
                plan.maneuver = maneuver
            if maneuver is not None:
                out.append((maneuver[0] - w, "Maneuver", maneuver[1]))
        return out

    def _maneuver_cannot_win(self, u: Unit, w: float, plan: UnitPlan, bar: float) -> bool:
        """True when no Maneuver of ``u`` could reach ``bar`` (the score of an option already
        found, see :meth:`_scored`), or when no ally would be drawn, so it need not be worked out.

        The ally drawn (:meth:`_maneuver_move`: the farthest fighting ally within M) moves
        towards ``u`` no farther than its MOV and than the gap between them, and its progress
        towards its goal is at most the distance it moves (clamping the end onto the board
        never lengthens a move that starts on it; an ally standing off the clamp box is always
        worked out).  The side's longest MOV is tried first (worked out once per board), then
        the ally itself.
        """
        mw = self.weight_now
        bound = plan.most_bound
        if bound is None:
            p = self.p_success_memo.get((u.guile, 0, 0))  # p_success(), its memo read here
            if p is None:
                p = self.p_success(u.guile)
            bound = plan.most_bound = p * mw * self._longest_ally_move(u) / 80.0
        if bar != -INF and bound - w < bar - 1e-9:
            return True
        fine = plan.most_fine
        if fine is None:
            reach = self._maneuver_reach(u)
            fine = plan.most_fine = -INF if reach == -INF else self.p_success(u.guile) * mw * reach / 80.0
        if fine == -INF:
            return True
        return bar != -INF and fine - w < bar - 1e-9

    def _longest_ally_move(self, u: Unit) -> float:
        """The longest MOV among the fighting allies a Maneuver could draw (inf if one stands
        off the board's clamp box).  The side's two longest are worked out once per board (a
        group is never its own ally, so the second one answers for the longest itself)."""
        memo = self.cache if self.cache is not None else {}
        key = ("longest moves", u.side)
        top: tuple[float, int, float] | None = memo.get(key)
        if top is None:
            first, first_uid, second = 0.0, -1, 0.0
            band_mm = self.band_mm
            for a in self.sides[u.side].units:
                if a.state != "board" or a.gtype == "ward" or not a.mov or a.fury is None:
                    continue
                r = a.radius
                value = band_mm.get(a.mov or "B", 0.0) if r <= a.x <= BOARD - r and r <= a.y <= BOARD - r else INF  # mm(), inlined
                if value > first:
                    first, first_uid, second = value, a.uid, first
                elif value > second:
                    second = value
            top = memo[key] = (first, first_uid, second)
        return top[2] if top[1] == u.uid else top[0]

    def _maneuver_reach(self, u: Unit) -> float:
        """How far the ally a Maneuver of ``u`` would draw can move: -inf if none would be
        drawn, inf if it stands off the board's clamp box."""
        memo = self.cache if self.cache is not None else {}
        key = ("fighting movers", u.side)
        movers: list[Unit] | None = memo.get(key)
        if movers is None:  # the side's groups a Maneuver could draw, listed once per board
            movers = memo[key] = [a for a in self.sides[u.side].units if a.state == "board" and a.gtype != "ward" and a.mov and a.fury is not None]
        # the farthest of them within M of u (the first on a tie): within() and dist() inlined
        ux, uy, ur, far = u.x, u.y, u.radius, self.band_mm.get("M", 0.0)
        ally, gap = None, 0.0
        for a in movers:
            if a is u:
                continue
            d = hypot(ux - a.x, uy - a.y)
            if (d <= ur + a.radius + EPS or d <= far) and (ally is None or d > gap):
                ally, gap = a, d
        if ally is None or not self.enemies(u):
            return -INF
        r = ally.radius
        if not (r <= ally.x <= BOARD - r and r <= ally.y <= BOARD - r):
            return INF
        return min(self.mm(ally.mov), max(0.0, gap - 2 * ally.radius))

    def _in_range(self, u: Unit, enemies: list[Unit]) -> list[Unit]:
        """The enemies within ``u``'s RNG and in its line of sight (board memo)."""
        memo = self.cache if self.cache is not None else {}
        key = ("in range", u.uid)
        found: list[Unit] | None = memo.get(key)
        if found is None:
            found = memo[key] = [e for e in self._within_all(u, enemies, u.rng) if self.los(u, e)]
        return found

    def _within_all(self, u: Unit, others: list[Unit], band: str | None) -> list[Unit]:
        """The units of ``others`` within ``band`` of ``u``: :meth:`Geometry.within` (the same
        arithmetic) over a list, without a call per unit."""
        if band is None:
            return []
        ux, uy, ur = u.x, u.y, u.radius
        if band == "B":
            return [e for e in others if hypot(ux - e.x, uy - e.y) <= ur + e.radius + EPS]
        far = self.band_mm.get(band, 0.0)
        return [e for e in others if (d := hypot(ux - e.x, uy - e.y)) <= ur + e.radius + EPS or d <= far]

    def _charge_target(self, side: Side, u: Unit, enemies: list[Unit], ux: float, uy: float) -> tuple[Unit, float, float] | tuple[()]:
        """Charge: (target, P(break), P(stand)) among the enemies a move can bring in range, or ()."""
        band_mm = self.band_mm  # mm(), inlined
        reach = band_mm.get(u.mov or "B", 0.0) + (band_mm.get(u.rng or "B", 0.0) if u.rng != "B" else 0) + u.radius * 2 + 1
        # the enemy within reach (and not already in range: _within_all() inlined) of the
        # highest target value less a hundredth of its distance, the first on a tie:
        # target_value() and dist() inlined
        t, best = None, 0.0
        duel = self.scenario == "duel"
        holders = [m.holder for m in self.markers]
        band = u.rng
        far = self.band_mm.get(band, 0.0) if band is not None and band != "B" else -1.0
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
            value = e.points * REMOVE_VALUE
            if duel and e.duel_target:
                value *= 2.5
            if holders and any(h is e for h in holders):
                value += 2.0
            value = value - d / 100
            if t is None or value > best:
                t, best = e, value
        if t is None:
            return ()
        pb, ps = self.expected_break(u, t, 0, 0 if side.has("elites") else 1)
        return t, pb, ps

    def _maneuver_move(self, u: Unit, enemies: list[Unit]) -> tuple[Unit, tuple[float, float]] | tuple[()]:
        """Maneuver: (the fighting ally to draw in, where its move ends), or ()."""
        helpers = [a for a in self.allies(u) if a.mov and a.fury is not None and self.within(u, a, "M")]
        ally = max(helpers, key=lambda a: dist(a.x, a.y, u.x, u.y)) if helpers and enemies else None
        if ally is None or not self.los(u, ally):
            return ()
        return ally, self.path_end(ally, u.x, u.y, min(self.mm(ally.mov), max(0.0, dist(ally.x, ally.y, u.x, u.y) - 2 * ally.radius)), 0)

    def _front(self, side: Side, enemies: list[Unit]) -> Unit | None:
        """The side's non-Ward group nearest the enemy (cached while options are scored)."""
        key = ("front", side.idx)
        if self.cache is not None and key in self.cache:
            return self.cache[key]
        mine = [a for a in side.units if a.state == "board" and a.gtype != "ward"]
        # min() of mine by the distance to the nearest enemy (999 with none), the first on a
        # tie, written out: dist() inlined
        front: Unit | None = None
        best = 0.0
        for a in mine:
            near = 999.0
            if enemies:
                ax, ay = a.x, a.y
                near = hypot(ax - enemies[0].x, ay - enemies[0].y)
                for e in enemies:
                    d = hypot(ax - e.x, ay - e.y)
                    if d < near:
                        near = d
            if front is None or near < best:
                front, best = a, near
        if self.cache is not None:
            self.cache[key] = front
        return front

    def _champion_options(self, side: Side, u: Unit, cost: int, plan: UnitPlan, bar: float = -INF) -> list[Scored]:
        """The champion action of ``u``, scored: what the board decides is worked out once per
        board (:meth:`_champion_plan`); momentum (Scheming Plot) and the bar (Crashing Wave)
        are applied here."""
        if u.guile is None:
            return []
        if plan.champion is None:
            plan.champion = self._champion_plan(side, u)
        kind, data = plan.champion
        w = COST_WEIGHT * cost
        if kind == "fixed":
            if data is None:
                return []
            s0, name, run = data
            return [(s0 - w, name, run)]
        if kind == "scheming-plot":
            if data is None:
                return []
            p, run = data
            room = side.total - (side.momentum - cost)
            theirs = self.sides[1 - side.idx].momentum
            return [(p * 0.8 * (min(2, room) + min(2, theirs)) - w, "Scheming Plot", run)]
        # crashing-wave: each mover's progress is at most its MOV (clamping never lengthens a
        # move that starts on the board): a wave that cannot beat the bar is not traced
        mw = self.weight_now
        wave = data.get(mw)
        if wave is None:
            movers = [o for o in self._within_all(u, self.allies(u), u.rng if u.rng != "B" else "S") if o.mov]
            most = self.p_success(u.guile) * sum(self.move_weight() * self.mm(o.mov) / 80.0 for o in movers)
            boxed = bool(movers) and all(o.radius <= o.x <= BOARD - o.radius and o.radius <= o.y <= BOARD - o.radius for o in movers)
            wave = data[mw] = [movers, most, boxed, None]
        movers, most, boxed, traced = wave
        if not movers or (boxed and most - w < bar - 1e-9):
            return []
        if traced is None:
            g = u.guile
            value = self.p_success(g) * sum(max(0.0, self.move_value(o, *self.path_end(o, *self.goal(o), self.mm(o.mov), 0))) for o in movers)
            traced = wave[3] = (value, lambda ctx, movers=movers: self._wave(ctx, u, movers))
        return [(traced[0] - w, "Crashing Wave", traced[1])]

    def _champion_plan(self, side: Side, u: Unit) -> tuple[str, Any]:
        """What the board decides about ``u``'s champion action: ("fixed", (score before
        cost, name, run) or None), ("scheming-plot", (P(success), run) or None) or
        ("crashing-wave", {move weight: [movers, best progress, all on the board, traced]})."""
        a = u.champion_action
        enemies = self.enemies(u)
        reach = u.rng
        g = u.guile
        assert g is not None
        if a == "scheming-plot":
            near = self._within_all(u, enemies, reach)
            mine = sum(o.points for o in self._within_all(u, self.allies(u, True), reach)) + u.points
            if not near or mine > sum(e.points for e in near):
                return "scheming-plot", (self.p_success(g), lambda ctx: self._scheme(ctx, u))
            return "scheming-plot", None
        if a == "crashing-wave":
            return "crashing-wave", {}
        fixed: tuple[float, str, Callable[[Action], None]] | None = None
        if a == "distant-doom" and u.fury is not None:
            band = self.wider[reach]
            targets = [e for e in enemies if self.within(u, e, band) and not self.within(u, e, reach)]
            if targets:
                t = max(targets, key=self.target_value)
                pb, _ = self.expected_break(u, t, 0, 1)
                fixed = (pb * self.target_value(t), "Distant Doom", lambda ctx, t=t: self.resolve_attack(ctx, u, t, penalty=1))
        elif a == "spot-weakness":
            for ally in self._within_all(u, self.allies(u), reach if reach != "B" else "S"):
                if ally.fury is None:
                    continue
                foes = self._in_range(ally, self.enemies(ally))  # board memo: the same test as Stand and Fight's
                if foes:
                    t = max(foes, key=self.target_value)
                    pb, _ = self.expected_break(ally, t, 0, 0)
                    fixed = (self.p_success(g) * pb * self.target_value(t), "Spot Weakness", lambda ctx, ally=ally, t=t: self._spot(ctx, u, ally, t))
                    break
        elif a == "battle-summons":
            lost = [o for o in side.units if o.state == "out" and o.points <= 2]
            if lost:
                t = max(lost, key=lambda o: o.points)
                fixed = (self.p_success(g) * t.points * 1.2, "Battle Summons", lambda ctx, t=t: self._summon(ctx, u, t))
        elif a == "banishment":
            targets = self._within_all(u, enemies, reach if reach != "B" else "S")
            if targets:
                t = max(targets, key=self.target_value)
                p = self.p_success(g, 0, 1)
                risk = self._p_fail_will(u, 0) * u.points * REMOVE_VALUE
                fixed = (p * t.points * 0.8 - risk, "Banishment", lambda ctx, t=t: self._banish(ctx, u, t))
        elif a == "push-to-the-brink":
            targets = [e for e in self._within_all(u, enemies, reach if reach != "B" else "S") if self.los(u, e)]
            if targets:
                t = max(targets, key=lambda e: e.points)
                value = self.p_success(g) * (0.6 + (1.2 if self.scenario in ("king-of-the-hill", "capture-the-flags", "conquest") else 0.0))
                fixed = (value, "Push to the Brink", lambda ctx, t=t: self._push(ctx, u, t))
        return "fixed", fixed
