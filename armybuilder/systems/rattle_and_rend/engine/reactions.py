"""Reactions [Six Reactions, How Reactions Work]: standard and warding reactions, with the AI's
decision to take each one (expected value against its momentum cost)."""

from __future__ import annotations

from collections.abc import Callable

from .board import EPS, clamp, dist
from .combat import CombatRules
from .dice import CRITICAL, FAIL, check_probabilities, dice_count
from .state import REMOVE_VALUE, Action, Side, Unit


class ReactionRules(CombatRules):
    """The reactions of :class:`game.Game`."""

    __slots__ = ()

    def _react(self, ctx: Action, value: float, reactor: Unit, name: str, effect: Callable[[], None]) -> bool:
        """How Reactions Work: declare for 1, the active player may refuse for 1, insist for 1."""
        if ctx.reacted:
            return False
        rs = self.sides[reactor.side]
        active = ctx.side
        if rs is active or rs.momentum < 1 or value < 0.9:
            return False
        rs.momentum -= 1
        ctx.reacted = True
        if active.momentum >= 2 and value >= 1.4 and self.dice.u() < 0.5:
            active.momentum -= 1
            if rs.momentum >= 1 and value >= 1.8:
                rs.momentum -= 1
                if self.logging:
                    self.log(f"{rs.name} insists on {name}")
            else:
                if self.logging:
                    self.log(f"{active.name} refuses {rs.name}'s {name}")
                return False
        if self.logging:
            self.log(f"{rs.name} reacts with {name} ({reactor.name})")
        ctx.reactor = reactor
        ctx.swap = True
        effect()
        return True

    def _warding_groups(self, side: Side, reaction: str) -> list[tuple[Unit, Unit]]:
        """(Ward, ally) pairs: non-Ward allies within the range of a Ward with ``reaction``."""
        out = []
        for w in side.units:
            if w.state == "board" and w.gtype == "ward" and w.warding == reaction:
                for a in side.units:
                    if a.state == "board" and a.gtype != "ward" and self.within(w, a, w.rng):
                        out.append((w, a))
        return out

    def on_declare(self, ctx: Action) -> None:
        """Intimidate (a Heavy sees an enemy act in its range) and Detonate."""
        actor = ctx.actor
        if ctx.reacted or actor.state != "board":
            return
        enemy = self.sides[1 - ctx.side.idx]
        threat: float | None = None  # worked out only when a group could Intimidate (no draws in it)
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        for h in enemy.units:
            if h.state == "board" and "intimidate" in h.reactions and self.within(h, actor, h.rng) and self.los(h, actor):
                if threat is None:
                    threat = self.threat(ctx)
                value = self.p_success(self.fury_of(h)) * threat

                def intimidate(h: Unit = h) -> None:
                    r = self.roll(self.fury_of(h), 0, 0, enemy, True)
                    if r != FAIL:
                        ctx.cancelled = True
                        if self.logging:
                            self.log(f"{actor.name}'s action is stopped")
                        if r == CRITICAL:
                            self.lose(ctx.side, 1)

                options.append((value, h, "Intimidate", intimidate))
        for w in enemy.units:
            if w.state == "board" and w.gtype == "ward" and w.warding == "detonate" and self.within(w, actor, w.rng):
                caught = [u for u in self.units if u.state == "board" and u is not w and self.within(w, u, w.rng)]
                gain = sum(u.points * self._p_fail_will(u, 1) * (1 if u.side != w.side else -1) for u in caught)
                value = gain * REMOVE_VALUE - w.points

                def detonate(w: Unit = w, caught: list[Unit] = caught) -> None:
                    self.remove(w, None, None)
                    for u in caught:
                        if u.state == "board":
                            self.will_check(u, None, None, penalty=1)

                options.append((value, w, "Detonate", detonate))
        self._best(ctx, options)

    def _p_fail_will(self, u: Unit, penalty: int) -> float:
        return check_probabilities(u.will, dice_count(1 if u.attached else 0, penalty, self.dice_table))[0]

    def _best(self, ctx: Action, options: list[tuple[float, Unit, str, Callable[[], None]]]) -> bool:
        if not options:
            return False
        value, unit, name, fn = max(options, key=lambda o: o[0])
        return self._react(ctx, value, unit, name, fn)

    def threat(self, ctx: Action) -> float:
        """How much the reactive player fears the declared action (for Intimidate)."""
        actor = ctx.actor
        best = 0.6
        for e in self.enemies(actor):
            if self.within(actor, e, self.wider[actor.rng] if actor.mov else actor.rng):
                p_break, _ = self.expected_break(actor, e, 0, 0)
                best = max(best, p_break * e.points * REMOVE_VALUE)
        return best

    def on_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> tuple[float, float]:
        """Reactions to a move about to happen; returns where the mover really ends."""
        if ctx.reacted or u.side != ctx.side.idx:
            return ex, ey
        enemy = self.sides[1 - u.side]
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        stop = {"flag": False}
        for s in enemy.units:
            if s.state != "board":
                continue
            if "suppression" in s.reactions and s.fury is not None and (self.within(s, u, s.rng) or dist(s.x, s.y, ex, ey) <= self.mm(s.rng)) and self.los(s, u):
                pb, _ = self.expected_break(s, u, *self.attack_dice(s, u, False, reaction="suppression"))
                value = pb * u.points * REMOVE_VALUE + 0.3

                def suppress(s: Unit = s) -> None:
                    r = self.roll(self.fury_of(s), *self.attack_dice(s, u, False, reaction="suppression"), enemy, True, important=True)
                    if self.logging:
                        self.log(f"{s.name} suppresses {u.name}: Fury {('fail', 'success', 'critical')[r]}")
                    if r != FAIL:
                        stop["flag"] = True
                        self.will_check(u, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=enemy.has("poisoners"))

                options.append((value, s, "Suppression", suppress))
            if "evade" in s.reactions and dist(s.x, s.y, ex, ey) <= self.mm(s.mov) + EPS and s.guile is not None:
                danger = 1.5 if ctx.target is s else 0.4
                value = self.p_success(s.guile) * danger * s.points

                def evade(s: Unit = s) -> None:
                    r = self.roll(s.guile, 0, 0, enemy, True)
                    if r != FAIL:
                        d = dist(ex, ey, s.x, s.y) or 1.0
                        s.x, s.y = self.path_end(s, s.x + (s.x - ex) / d * 400, s.y + (s.y - ey) / d * 400, self.mm(s.mov), self.pivots.get(s.mov or "S", 0))
                        if r == CRITICAL:
                            enemy.free_action = True

                options.append((value, s, "Evade", evade))
        for w in enemy.units:
            if w.state == "board" and "follow" in w.reactions and self.within(w, u, w.rng) and dist(w.x, w.y, ex, ey) > self.mm(w.rng) and self.los(w, u):
                value = 1.0 if w.warding in ("detonate", "sacrifice", "defiance") else 0.5

                def follow(w: Unit = w) -> None:
                    d = dist(w.x, w.y, ex, ey) or 1.0
                    keep = self.mm(w.rng) - 5
                    w.x, w.y = clamp(ex + (w.x - ex) / d * keep, ey + (w.y - ey) / d * keep, w.radius)

                options.append((value, w, "Follow", follow))
        for _w, ally in self._warding_groups(enemy, "pursuit"):
            if self.within(ally, u, ally.rng) and dist(ally.x, ally.y, ex, ey) > self.mm(ally.rng) and ally.mov:
                value = 1.3 * self.p_success(ally.guile)

                def pursue(ally: Unit = ally) -> None:
                    if self.roll(ally.guile, 0, 0, enemy, True) != FAIL:
                        band = self.wider[ally.mov]
                        ally.x, ally.y = self.path_end(ally, ex, ey, max(0.0, self.mm(band)), self.pivots.get(band or "S", 0))

                options.append((value, ally, "Pursuit", pursue))
        self._best(ctx, options)
        if stop["flag"] or u.state != "board":
            return u.x, u.y
        return ex, ey

    def _offer_attack_reactions(self, ctx: Action, a: Unit, t: Unit) -> Unit | None:
        """Countercharge, Suppression, Regroup, Confusion when an attack is declared."""
        target_side = self.sides[t.side]
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        redirect: dict[str, Unit | None] = {"to": None}
        if "countercharge" in t.reactions and t.fury is not None:
            pb, _ = self.expected_break(t, a, 0, 0)
            value = pb * a.points * REMOVE_VALUE + 0.2
            if target_side.has("fearsome") is False and self.sides[a.side].has("fearsome"):
                value *= self.p_success(t.guile)

            def countercharge() -> None:
                if self.sides[a.side].has("fearsome") and dist(a.x, a.y, t.x, t.y) <= self.mm("S"):
                    if self.roll(t.guile, 0, 0, target_side, True) == FAIL:
                        return
                if not self.contact(t, a) and t.mov:
                    t.x, t.y = self.path_end(t, a.x, a.y, min(self.mm(t.mov), max(0.0, dist(t.x, t.y, a.x, a.y) - a.radius - t.radius)), 0)
                ctx.countercharge = t

            options.append((value, t, "Countercharge", countercharge))
        for s in target_side.units:
            if s.state == "board" and "suppression" in s.reactions and s.fury is not None and self.within(s, a, s.rng) and self.los(s, a) and (s is t or self.los(s, t)):
                pb, _ = self.expected_break(s, a, *self.attack_dice(s, a, False, reaction="suppression"))
                value = pb * a.points * REMOVE_VALUE + 0.2

                def suppress(s: Unit = s) -> None:
                    r = self.roll(self.fury_of(s), *self.attack_dice(s, a, False, reaction="suppression"), target_side, True, important=True)
                    if self.logging:
                        self.log(f"{s.name} shoots {a.name}: Fury {('fail', 'success', 'critical')[r]}")
                    if r != FAIL:
                        self.will_check(a, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=target_side.has("poisoners"))

                options.append((value, s, "Suppression", suppress))
        if "regroup" in t.reactions and t.guile is not None:
            helpers = [o for o in self.allies(t) if self.within(t, o, "M") and self.los(t, o) and o.mov and o.fury is not None]
            if helpers:
                value = 0.6 + 0.6 * self.p_success(t.guile)

                def regroup(helpers: list[Unit] = helpers) -> None:
                    r = self.roll(t.guile, 0, 0, target_side, True)
                    for o in helpers[: (2 if r == CRITICAL else 1) if r != FAIL else 0]:
                        o.x, o.y = self.path_end(o, a.x, a.y, self.mm(o.mov), self.pivots.get(o.mov or "S", 0))

                options.append((value, t, "Regroup", regroup))
        for _w, ally in self._warding_groups(target_side, "confusion"):
            if ally is not t:
                continue
            decoys = [o for o in self.allies(a) if self.within(a, o, a.rng) and o is not a]
            if decoys and t.guile is not None:
                pb, _ = self.expected_break(a, t, 0, 0)
                value = self.p_success(t.guile) * (pb * t.points * REMOVE_VALUE + 0.5)

                def confuse(decoys: list[Unit] = decoys) -> None:
                    r = self.roll(t.guile, 0, 0, target_side, True)
                    if r != FAIL:
                        decoy = redirect["to"] = max(decoys, key=lambda d: d.points)
                        if self.logging:
                            self.log(f"{a.name}'s attack is turned on {decoy.name}")
                        if r == CRITICAL:
                            self.lose(self.sides[a.side], 2)

                options.append((value, t, "Confusion", confuse))
        self._best(ctx, options)
        return redirect["to"]

    def _offer_sacrifice(self, ctx: Action, u: Unit, attacker: Unit) -> Unit | None:
        side = self.sides[u.side]
        chosen: dict[str, Unit | None] = {"u": None}
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        for _w, ally in self._warding_groups(side, "sacrifice"):
            if ally is u or not self.within(attacker, ally, attacker.rng if attacker.rng != "B" else "S"):
                continue
            own = self._p_fail_will(u, 0) * u.points
            theirs = check_probabilities(ally.will, dice_count(1 + (1 if ally.attached else 0), 0, self.dice_table))[0] * ally.points
            value = (own - theirs) * REMOVE_VALUE

            def sacrifice(ally: Unit = ally) -> None:
                chosen["u"] = ally

            options.append((value, ally, "Sacrifice", sacrifice))
        self._best(ctx, options)
        return chosen["u"]

    def _offer_defiance(self, ctx: Action, u: Unit, attacker: Unit) -> None:
        side = self.sides[u.side]
        if u.gtype == "ward" or u.fury is None or not any(self.within(u, e, u.rng) for e in self.enemies(u)):
            return
        if not any(ally is u for _, ally in self._warding_groups(side, "defiance")):
            return
        target = attacker if attacker.state == "board" and self.within(u, attacker, u.rng) else next(e for e in self.enemies(u) if self.within(u, e, u.rng))
        pb, _ = self.expected_break(u, target, 1, 0)
        self._react(ctx, pb * target.points * REMOVE_VALUE + 0.2, u, "Defiance", lambda: self.resolve_attack(ctx, u, target, bonus=1, swarm=False, declared=False))

    def _offer_vengeance(self, ctx: Action, lost: Unit) -> None:
        side = self.sides[lost.side]
        pairs = self._warding_groups(side, "vengeance")
        if not pairs:
            return
        ward, ally = max(pairs, key=lambda p: self.p_success(self.fury_of(p[1])))
        value = 2 * self.p_success(self.fury_of(ally))

        def vengeance() -> None:
            movers = [ally]
            r = self.roll(self.fury_of(ally), 0, 0, side, True)
            if r == CRITICAL:
                second = [o for o in self.allies(ally) if o is not ally and self.los(ally, o) and o.fury is not None]
                if second:
                    movers.append(second[0])
            for i, m in enumerate(movers):
                rr = r if i == 0 else self.roll(self.fury_of(m), 0, 0, side, True)
                if rr != FAIL and m.mov:
                    gx, gy = self.goal(m)
                    m.x, m.y = self.path_end(m, gx, gy, self.mm(m.mov), self.pivots.get(m.mov, 0))
                    self.gain(side, 2)

        self._react(ctx, value, ally, "Vengeance", vengeance)

    def _offer_rally(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        wards = [w for w, ally in self._warding_groups(side, "rally") if ally is u]
        if not wards or u.fury is None:
            return
        w = wards[0]
        allies = [o for o in side.units if o.state == "board" and self.within(w, o, w.rng)]
        enemies = [o for o in self.enemies(w) if self.within(w, o, w.rng)]
        value = self.p_success(self.fury_of(u)) * 2 * len(allies)

        def rally() -> None:
            r = self.roll(self.fury_of(u), 0, 0, side, True)
            if r != FAIL:
                self.gain(side, 2 * len(allies) + (len(enemies) if r == CRITICAL else 0))

        self._react(ctx, value, u, "Rally", rally)
