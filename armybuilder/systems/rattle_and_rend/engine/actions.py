"""Actions [Five Actions, Champion actions] and the scenarios' markers, victory and round end."""

from __future__ import annotations

from .board import clamp, dist, terrain_at
from .dice import CRITICAL, FAIL
from .reactions import ReactionRules
from .state import Action, Unit


class ActionRules(ReactionRules):
    """What the actions do once chosen, and the scenario rules of :class:`game.Game`."""

    __slots__ = ()

    def _start(self, u: Unit) -> None:
        """A passenger leaves its Transport as the movement of its action."""
        if u.state == "carried" and u.carrier is not None:
            c = u.carrier
            u.state, u.carrier = "board", None
            u.x, u.y = clamp(c.x + c.radius + u.radius + 1, c.y, u.radius)
            if self.logging:
                self.log(f"{u.name} gets out of {c.name}")

    def _maneuver(self, ctx: Action, u: Unit, ally: Unit, end: tuple[float, float]) -> None:
        self._start(u)
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and ally.state == "board":
            ally.x, ally.y = end
            self._markers_after_move(ally)
            if r == CRITICAL:
                ally.free_next = True

    def _do_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> bool:
        """Move with terrain exits and movement reactions; False if the group is gone."""
        side = self.sides[u.side]
        here = terrain_at(self.pieces, u.x, u.y)
        exempt = u.heavy_trait == "flyer" or side.has("raiders") or side.has("harriers")
        if here == "rough" and not exempt and terrain_at(self.pieces, ex, ey) != "rough":
            if side.momentum >= 4:
                side.momentum -= 1
            elif self.roll(u.guile, 0, 0, side, True) == FAIL:
                return True
        if here == "hazardous" and u.heavy_trait != "flyer" and terrain_at(self.pieces, ex, ey) != "hazardous":
            if side.momentum >= 5:
                side.momentum -= 2
            elif self.will_check(u, None, ctx, allow_push=False) == FAIL:
                return False
        ex, ey = self.on_move(ctx, u, ex, ey)
        if u.state != "board":
            return False
        u.x, u.y = ex, ey
        for c in side.units:
            if c.carrier is u:
                c.x, c.y = ex, ey
        self._markers_after_move(u)
        return True

    def _sprint(self, ctx: Action, u: Unit, p: tuple[float, float]) -> None:
        self._start(u)
        self._do_move(ctx, u, *p)

    def _stand(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        side = self.sides[u.side]
        if not self._fearsome_ok(u):
            return
        targets = [t]
        if u.heavy_trait == "colossal":
            others = [e for e in self.enemies(u) if e is not t and self.within(u, e, u.rng) and self.los(u, e)]
            targets += sorted(others, key=lambda e: -self.target_value(e))[:2]
        partner = None
        if side.has("coordinated") and not side.coordinated_used:
            partner = next(
                (a for a in self.allies(u) if a.fury is not None and self.within(u, a, "M") and self.los(u, a)
                 and any(self.within(a, e, a.rng) and self.los(a, e) for e in self.enemies(a))),
                None,
            )
        bonus = 1 if partner is not None else 0
        for target in targets:
            self.resolve_attack(ctx, u, target, bonus=bonus)
        if partner is not None and partner.state == "board":
            side.coordinated_used = True
            foes = [e for e in self.enemies(partner) if self.within(partner, e, partner.rng) and self.los(partner, e)]
            if foes:
                if self.logging:
                    self.log(f"{partner.name} joins in (Coordinated)")
                self.resolve_attack(ctx, partner, foes[0], bonus=1, declared=False)

    def _fearsome_ok(self, u: Unit) -> bool:
        enemy = self.sides[1 - u.side]
        if enemy.has("fearsome") and any(e.gtype != "ward" and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)):
            return self.roll(u.guile, 0, 0, self.sides[u.side], True) != FAIL
        return True

    def _charge(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        self._start(u)
        if u.rng == "B" or u.gtype == "heavy":
            gap = t.radius + u.radius
        else:
            gap = max(0.0, self.mm(u.rng) - 2)
        need = max(0.0, dist(u.x, u.y, t.x, t.y) - gap)
        if need > 0 and u.mov:
            ex, ey = self.path_end(u, t.x, t.y, min(self.mm(u.mov), need), self.pivots.get(u.mov, 0))
            if not self._do_move(ctx, u, ex, ey):
                return
        if ctx.cancelled or u.state != "board" or t.state != "board":
            return
        if self.within(u, t, u.rng) and self.los(u, t) and self._fearsome_ok(u):
            self.resolve_attack(ctx, u, t, charged=True)

    def _rest(self, ctx: Action, u: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        self.gain(self.sides[u.side], (1, 2, 3)[r])

    def _feint(self, ctx: Action, u: Unit, e: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and e.state == "board":
            d = dist(u.x, u.y, e.x, e.y) or 1.0
            e.x, e.y = self.path_end(e, e.x + (e.x - u.x) / d * 400, e.y + (e.y - u.y) / d * 400, self.mm("M"), 0, voluntary=r != CRITICAL)
            for m in self.markers:
                if m.holder is e:
                    m.holder = None
            if self.logging:
                self.log(f"{u.name} feints {e.name} away")

    def _translocate(self, ctx: Action, u: Unit, ward: Unit, front: Unit) -> None:
        if ward.state != "board":
            return
        ward.x, ward.y = clamp(front.x - front.radius - ward.radius - 2, front.y, ward.radius)
        if self.logging:
            self.log(f"{u.name} moves {ward.name}")

    def _scheme(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        r = self.roll(u.guile, 0, 0, side, True)
        if r != FAIL:
            n = 3 if r == CRITICAL else 2
            self.gain(side, n)
            self.lose(self.sides[1 - u.side], n)

    def _spot(self, ctx: Action, u: Unit, ally: Unit, t: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and ally.state == "board" and t.state == "board":
            self.resolve_attack(ctx, ally, t, bonus=1 if r == CRITICAL else 0)

    def _summon(self, ctx: Action, u: Unit, t: Unit) -> None:
        side = self.sides[u.side]
        if self.roll(u.guile, 0, 0, side, True) == FAIL or t.state != "out":
            return
        ax, ay = side.anchor
        for _ in range(12):
            x, y = clamp(ax + (self.dice.u() - 0.5) * 160, ay + (self.dice.u() - 0.5) * 40, t.radius)
            if terrain_at(self.pieces, x, y) is None and all(dist(x, y, e.x, e.y) > self.mm("S") for e in self.enemies(t)):
                t.x, t.y, t.state = x, y, "board"
                t.actions = 0
                side.total += t.points
                if self.logging:
                    self.log(f"{t.name} is summoned back")
                return

    def _banish(self, ctx: Action, u: Unit, t: Unit) -> None:
        side = self.sides[u.side]
        r = self.roll(u.guile, 0, 1, side, True)
        if r != FAIL and t.state == "board":
            t.state = "banished"
            t.back_round = self.round + 1
            enemy = self.sides[t.side]
            enemy.total = max(0, enemy.total - t.points)
            enemy.momentum = min(enemy.momentum, enemy.total)
            if self.logging:
                self.log(f"{t.name} is banished until next round")
        if r != CRITICAL:
            self.will_check(u, None, ctx, allow_push=False)

    def _push(self, ctx: Action, u: Unit, t: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r == FAIL or t.state != "board":
            return
        ax, ay = self.sides[t.side].anchor
        d = dist(t.x, t.y, ax, ay)
        if d > 1:
            step = d
            while step > 10:
                x, y = t.x + (ax - t.x) * step / d, t.y + (ay - t.y) * step / d
                old = (t.x, t.y)
                t.x, t.y = x, y
                ok = self.los(u, t)
                t.x, t.y = old
                if ok:
                    t.x, t.y = clamp(x, y, t.radius)
                    break
                step *= 0.6
        for m in self.markers:
            if m.holder is t:
                m.holder = None
        if self.logging:
            self.log(f"{t.name} is pushed to the brink")
        if r == CRITICAL:
            self.will_check(t, u, ctx)

    def _wave(self, ctx: Action, u: Unit, movers: list[Unit]) -> None:
        if self.roll(u.guile, 0, 0, self.sides[u.side], True) == FAIL:
            return
        for o in movers:
            if o.state == "board":
                gx, gy = self.goal(o)
                o.x, o.y = self.path_end(o, gx, gy, min(self.mm(o.mov), max(0.0, dist(o.x, o.y, gx, gy) - 2 * o.radius)), self.pivots.get(o.mov or "S", 0))
                self._markers_after_move(o)
