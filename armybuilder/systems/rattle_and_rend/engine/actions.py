"""Actions [Five Actions, Champion Actions]: what makes an order legal, and what each action does.

A player's :class:`~.state.Order` names the action, the group and what the action needs; the rules
check it (:meth:`ActionRules.legal`) and play it (:meth:`ActionRules.perform`). Movement is built
into an action and made first; a move's end is worked out by the board's rules (:meth:`path_end`:
terrain, bases, pivots) from the point the player aims at.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from .board import BOARD, clamp, dist, terrain_at
from .dice import CRITICAL, FAIL
from .reactions import ReactionRules
from .state import Action, Order, Side, Unit

if TYPE_CHECKING:
    from .game import Game

#: the seven standard actions and entering from reserve [Five Actions, Ambushers, Delayed Deployment]
STANDARD = ("Sprint", "Charge", "Stand and Fight", "Feint", "Maneuver", "Rest", "Translocate Ward")
#: champion action id -> the action's name in an order and the log
CHAMPION_ACTIONS = {
    "banishment": "Banishment",
    "battle-summons": "Battle Summons",
    "crashing-wave": "Crashing Wave",
    "distant-doom": "Distant Doom",
    "push-to-the-brink": "Push to the Brink",
    "scheming-plot": "Scheming Plot",
    "spot-weakness": "Spot Weakness",
}
ATTACKS = ("Charge", "Stand and Fight", "Ambush")


class ActionRules(ReactionRules):
    """What the actions do once chosen, and whether an order may be given."""

    __slots__ = ()

    # ------------------------------------------------------------------ who may act, at what cost

    def cost_of(self, side: Side, u: Unit, free: bool) -> int:
        """RR-D2: a group's first action of the round costs 1, its second 2, its third 3 (and on);
        0 when free (a Reversal, an Evade's or a Maneuver's critical success)."""
        if free or u.free_next or side.free_action:
            return 0
        n = u.actions
        return self.costs[n] if n < len(self.costs) else self.costs[-1] + (n - len(self.costs) + 1)

    def last_man_standing(self, side: Side) -> bool:
        return sum(1 for u in side.units if u.state == "board" and u.gtype != "ward") == 1

    def may_act(self, side: Side, u: Unit) -> bool:
        """A group of the side that may be given an action now: in play and not a Ward, not the
        group that took the last action (unless Last Man Standing), out of reserve only by entering."""
        if u.side != side.idx or u.gtype == "ward" or u.state not in ("board", "carried", "reserve"):
            return False
        return u is not side.last_actor or self.last_man_standing(side)

    def legal(self, side: Side, order: Order, free: bool = False) -> str:
        """Why ``order`` may not be given now ("" when it may): the rules' own check of a player's
        order, so a policy can never play what the seed forbids."""
        u, name = order.unit, order.name
        if not self.may_act(side, u) and not free:
            return f"{u.name} may not act now"
        if self.cost_of(side, u, free) > side.momentum:
            return "not enough momentum"
        if u.state == "reserve":
            if name == "Ambush":
                return "" if side.has("ambushers") and order.target is not None and order.point is not None and self.ambush_spot_ok(u, *order.point) else "no legal ambush"
            if name == "Enter":
                return "" if self.round >= 2 else "reserves enter from round 2"
            return f"{u.name} is off the board"
        t = order.target
        if name in ("Charge", "Stand and Fight", "Feint", "Banishment", "Push to the Brink", "Distant Doom") and (t is None or t.state != "board" or t.side == side.idx):
            return "an enemy on the board is needed"
        if name in CHAMPION_ACTIONS.values() and CHAMPION_ACTIONS.get(u.champion_action or "") != name:
            return f"{u.name} has no {name}"
        if name in ("Charge", "Stand and Fight", "Distant Doom") and u.fury is None:
            return f"{u.name} cannot attack"
        if name == "Stand and Fight":
            assert t is not None
            return "" if u.state == "board" and self.within(u, t, u.rng) and self.los(u, t) else "the target is not in range and sight"
        if name == "Distant Doom":
            assert t is not None
            band = self.wider[u.rng]
            return "" if u.state == "board" and self.within(u, t, band) and not self.within(u, t, u.rng) else "the target is not one band beyond RNG"
        if name in ("Banishment", "Push to the Brink"):
            assert t is not None
            return "" if u.state == "board" and self.within(u, t, u.rng) and (name == "Banishment" or self.los(u, t)) else "the target is not within reach"
        if name == "Scheming Plot":
            near = [e for e in self.enemies(u) if self.within(u, e, u.rng)]
            mine = sum(o.points for o in self.sides[u.side].units if o.state == "board" and (o is u or self.within(u, o, u.rng)))
            return "" if not near or mine > sum(e.points for e in near) else "enemies outweigh the Champion's allies within its reach"
        if name == "Sprint" and (not u.mov or order.point is None):
            return "Sprint needs a move"
        if name == "Translocate Ward" and (not order.movers or order.ally is None or order.movers[0].gtype != "ward"):
            return "Translocate Ward needs a Ward and an ally"
        if name in ("Maneuver", "Spot Weakness") and (order.ally is None or order.ally.side != side.idx or order.ally.state != "board"):
            return f"{name} needs an allied group"
        if name == "Battle Summons" and (order.ally is None or order.ally.state != "out" or order.ally.points > 2):
            return "Battle Summons needs a 1 or 2 point group out of play"
        if name not in STANDARD and name not in CHAMPION_ACTIONS.values():
            return f"no action {name}"
        return ""

    def perform(self, ctx: Action, order: Order) -> None:
        """Play a legal order (the action's movement first, then its effect)."""
        u, name, t = order.unit, order.name, order.target
        if name == "Stand and Fight" and t is not None:
            self._stand(ctx, u, t)
        elif name == "Charge" and t is not None:
            self._charge(ctx, u, t)
        elif name == "Sprint" and order.point is not None:
            self._sprint(ctx, u, order.point)
        elif name == "Rest":
            self._rest(ctx, u)
        elif name == "Feint" and t is not None:
            self._feint(ctx, u, t)
        elif name == "Maneuver" and order.ally is not None:
            self._maneuver(ctx, u, order.ally)
        elif name == "Translocate Ward" and order.movers and order.ally is not None:
            self._translocate(ctx, u, order.movers[0], order.ally)
        elif name == "Scheming Plot":
            self._scheme(ctx, u)
        elif name == "Spot Weakness" and order.ally is not None:
            self._spot(ctx, u, order.ally, t)
        elif name == "Battle Summons" and order.ally is not None:
            self._summon(ctx, u, order.ally)
        elif name == "Banishment" and t is not None:
            self._banish(ctx, u, t)
        elif name == "Push to the Brink" and t is not None:
            self._push(ctx, u, t)
        elif name == "Crashing Wave":
            self._wave(ctx, u)
        elif name == "Distant Doom" and t is not None:
            self.resolve_attack(ctx, u, t, "doom", penalty=1)
        elif name == "Ambush" and t is not None and order.point is not None:
            self._ambush(ctx, u, t, order.point)
        elif name == "Enter":
            self._enter(ctx, u, order.point)

    # ------------------------------------------------------------------ movement

    def _start(self, u: Unit, toward: tuple[float, float] | None = None) -> None:
        """A passenger leaves its Transport as the movement of its action, placed in base contact
        with it on the side of where it is going (seed: Transport)."""
        if u.state == "carried" and u.carrier is not None:
            c = u.carrier
            u.state, u.carrier = "board", None
            tx, ty = toward if toward is not None else (c.x + 1.0, c.y)
            d = dist(c.x, c.y, tx, ty) or 1.0
            gap = c.radius + u.radius + 1
            u.x, u.y = self._free_exit(u, c, (tx - c.x) / d, (ty - c.y) / d, gap)
            if self.logging:
                self.log(f"{u.name} gets out of {c.name}")

    def _free_exit(self, u: Unit, c: Unit, dx: float, dy: float, gap: float) -> tuple[float, float]:
        """The point in contact with the Transport ``c`` nearest the bearing (dx, dy) that no other
        base covers and is not blocking or hazardous terrain (the bearing itself if none is)."""
        for turn in (0.0, 0.5, -0.5, 1.0, -1.0, 1.6, -1.6, 2.3, -2.3, math.pi):
            cos, sin = math.cos(turn), math.sin(turn)
            x, y = clamp(c.x + gap * (dx * cos - dy * sin), c.y + gap * (dx * sin + dy * cos), u.radius)
            if terrain_at(self.pieces, x, y) in ("blocking", "hazardous"):
                continue
            if all(dist(x, y, o.x, o.y) >= o.radius + u.radius for o in self.units if o.state == "board" and o is not u and o is not c):
                return x, y
        return clamp(c.x + gap * dx, c.y + gap * dy, u.radius)

    def _do_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> bool:
        """Move with terrain exits and movement reactions; False if the group is gone."""
        side = self.sides[u.side]
        here = terrain_at(self.pieces, u.x, u.y)
        exempt = u.heavy_trait == "flyer" or side.has("raiders") or side.has("harriers")
        if here == "rough" and not exempt and terrain_at(self.pieces, ex, ey) != "rough":
            if side.momentum >= 4:  # seed: Rough Terrain, leave for 1 momentum or on a Guile check
                side.momentum -= 1
                if self.logging:
                    self.log(f"{u.name} leaves rough terrain for 1 momentum ({side.name}: {side.momentum} left)")
            elif self.check(u, "Guile", u.guile) == FAIL:
                if self.logging:
                    self.log(f"{u.name} stays in the rough terrain")
                return True
        if here == "hazardous" and u.heavy_trait != "flyer" and terrain_at(self.pieces, ex, ey) != "hazardous":
            if side.momentum >= 5:  # seed: Hazardous Terrain, leave for 2 momentum or on a Will check
                side.momentum -= 2
                if self.logging:
                    self.log(f"{u.name} leaves hazardous terrain for 2 momentum ({side.name}: {side.momentum} left)")
            elif self.will_check(u, None, ctx, allow_push=False) == FAIL:
                return False
        start = (u.x, u.y)
        ex, ey = self.on_move(ctx, u, ex, ey)
        if u.state != "board":
            return False
        u.x, u.y = ex, ey
        if self.logging and (ex, ey) != start:
            self.log(f"{u.name} moves {dist(start[0], start[1], ex, ey):.0f} mm")
        for c in side.units:
            if c.carrier is u:
                c.x, c.y = ex, ey
        self._markers_after_move(u)
        return True

    def _sprint(self, ctx: Action, u: Unit, p: tuple[float, float]) -> None:
        self._start(u, p)
        band = self.wider[u.mov]
        ex, ey = self.path_end(u, p[0], p[1], self.mm(band), self.pivots.get(band or "S", 0))
        self._do_move(ctx, u, ex, ey)

    # ------------------------------------------------------------------ attacks

    def _targets_in_reach(self, u: Unit, first: Unit) -> list[Unit]:
        """[Colossal] the Heavy may attack up to three enemy groups within its reach, each once:
        ``first`` and up to two more chosen by its player among those in range and sight."""
        if u.heavy_trait != "colossal":
            return [first]
        others = [e for e in self.enemies(u) if e is not first and self.within(u, e, u.rng) and self.los(u, e)]
        extra = self.policies[u.side].extra_targets(cast("Game", self), u, first, others) if others else []
        chosen = [first]
        for e in extra:
            if e in others and e not in chosen and len(chosen) < 3:
                chosen.append(e)
        if len(chosen) > 1:
            self.note(u.side, "colossal")
        return chosen

    def _stand(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        side = self.sides[u.side]
        if not self._fearsome_ok(u):
            return
        targets = self._targets_in_reach(u, t)
        partner = None
        if side.has("coordinated") and not side.coordinated_used:
            partners = [a for a in self.allies(u) if a.fury is not None and self.within(u, a, "M") and self.los(u, a)
                        and any(self.within(a, e, a.rng) and self.los(a, e) for e in self.enemies(a))]  # fmt: skip
            partner = self.policies[u.side].coordinate(cast("Game", self), u, partners) if partners else None
            if partner is not None and partner not in partners:
                partner = None
        bonus = 1 if partner is not None else 0
        for target in targets:
            self.resolve_attack(ctx, u, target, "stand", bonus=bonus)
        if partner is not None and partner.state == "board":
            side.coordinated_used = True
            self.note(side.idx, "coordinated")
            foes = [e for e in self.enemies(partner) if self.within(partner, e, partner.rng) and self.los(partner, e)]
            if foes:
                if self.logging:
                    self.log(f"{partner.name} joins in (Coordinated: both attack with a bonus)")
                self.resolve_attack(ctx, partner, foes[0], "stand", bonus=1, declared=False)

    def _fearsome_ok(self, u: Unit) -> bool:
        """[Fearsome] an enemy within S and in sight of a non-Ward group of a Fearsome warband must
        pass a Guile check to make an attack action."""
        enemy = self.sides[1 - u.side]
        if enemy.has("fearsome") and any(e.gtype != "ward" and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)):
            self.note(enemy.idx, "fearsome")
            if self.check(u, "Guile", u.guile) == FAIL:
                if self.logging:
                    self.log(f"{u.name} dares not attack (Fearsome)")
                return False
        return True

    def _charge(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        self._start(u, (t.x, t.y))
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
        if not (self.within(u, t, u.rng) and self.los(u, t)):
            if self.logging:
                self.log(f"{u.name}'s charge ends short of {t.name}")
            return
        if self._fearsome_ok(u):
            for target in self._targets_in_reach(u, t):  # a Colossal Heavy's charge, like its Stand and Fight
                self.resolve_attack(ctx, u, target, "charge", charged=True)

    # ------------------------------------------------------------------ the other standard actions

    def _rest(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        r = self.check(u, "Guile", u.guile)
        gained = min((1, 2, 3)[r], side.total - side.momentum)
        self.gain(side, (1, 2, 3)[r])
        if self.logging:
            self.log(f"{side.name} regains {gained} momentum ({side.momentum} left)")

    def _feint(self, ctx: Action, u: Unit, e: Unit) -> None:
        penalty = 1 if self.sneaked(u, e) else 0  # Sneak-Thieves: FEINT from beyond S
        if penalty:
            self.note(e.side, "sneak-thieves")
        r = self.check(u, "Guile", u.guile, 0, penalty)
        if r != FAIL and e.state == "board":
            to = self.policies[u.side].feint_to(cast("Game", self), u, e)
            x, y = self.path_end(e, to[0], to[1], self.mm("M"), 0, voluntary=r != CRITICAL)
            if r != CRITICAL:  # never into contact with an opposing group, unless critical
                for o in self.sides[u.side].units:
                    if o.state == "board" and dist(x, y, o.x, o.y) < o.radius + e.radius + 1:
                        x, y = e.x, e.y
                        break
            if self.logging:
                self.log(f"{u.name} feints {e.name} {dist(e.x, e.y, x, y):.0f} mm away")
            e.x, e.y = x, y
            self.drop_flag(e, "moved by the enemy")

    def _maneuver(self, ctx: Action, u: Unit, ally: Unit) -> None:
        self._start(u, (ally.x, ally.y))
        r = self.check(u, "Guile", u.guile)
        if r != FAIL and ally.state == "board" and ally.mov:
            x, y = self.path_end(ally, u.x, u.y, min(self.mm(ally.mov), max(0.0, dist(ally.x, ally.y, u.x, u.y) - 2 * ally.radius)), 0)
            if self.logging:
                self.log(f"{ally.name} is drawn {dist(ally.x, ally.y, x, y):.0f} mm towards {u.name}")
            ally.x, ally.y = x, y
            self._markers_after_move(ally)
            if r == CRITICAL:
                ally.free_next = True  # if it is the next group given an action (see game.Game.turn)
                if self.logging:
                    self.log(f"{ally.name}'s next action costs nothing if it is the next one given")

    def _translocate(self, ctx: Action, u: Unit, ward: Unit, front: Unit) -> None:
        if ward.state != "board":
            return
        ward.x, ward.y = clamp(front.x - front.radius - ward.radius - 2, front.y, ward.radius)
        if self.logging:
            self.log(f"{u.name} moves {ward.name} beside {front.name}")

    # ------------------------------------------------------------------ champion actions

    def _scheme(self, ctx: Action, u: Unit) -> None:
        side, enemy = self.sides[u.side], self.sides[1 - u.side]
        r = self.check(u, "Guile", u.guile)
        if r != FAIL:
            n = 3 if r == CRITICAL else 2
            self.gain(side, n)
            self.lose(enemy, n)
            if self.logging:
                self.log(f"{side.name} +{n} momentum ({side.momentum}), {enemy.name} -{n} ({enemy.momentum})")

    def _spot(self, ctx: Action, u: Unit, ally: Unit, t: Unit | None) -> None:
        r = self.check(u, "Guile", u.guile)
        if r == FAIL or ally.state != "board":
            return
        band = self.wider[ally.rng] if r == CRITICAL else ally.rng  # critical: one band farther
        foes = [e for e in self.enemies(ally) if self.within(ally, e, band) and self.los(ally, e)]
        if t is None or t not in foes:
            t = foes[0] if foes else None
        if t is not None:
            self.resolve_attack(ctx, ally, t, "spot", bonus=1 if r == CRITICAL else 0, declared=False)

    def _summon(self, ctx: Action, u: Unit, t: Unit) -> None:
        side = self.sides[u.side]
        r = self.check(u, "Guile", u.guile)
        if r == FAIL or t.state != "out":
            return
        ax, ay = side.anchor
        for _ in range(24):  # the deployment zone's centre or edge, clear of allies and of S of any enemy
            x, y = clamp(ax + (self.dice.u() - 0.5) * 160, ay + (self.dice.u() - 0.5) * 40, t.radius)
            if (terrain_at(self.pieces, x, y) not in ("blocking", "hazardous")
                    and all(dist(x, y, e.x, e.y) > self.mm("S") for e in self.enemies(t))
                    and all(dist(x, y, a.x, a.y) > a.radius + t.radius + 1 for a in self.allies(t, True))):  # fmt: skip
                t.x, t.y, t.state = x, y, "board"
                t.actions = 0
                side.total += t.points
                if self.logging:
                    self.log(f"{t.name} is summoned back ({side.name}: total momentum {side.total})")
                if r == CRITICAL and t.mov:
                    gx, gy = self.goal(t)
                    t.x, t.y = self.path_end(t, gx, gy, self.mm(t.mov), self.pivots.get(t.mov, 0))
                return
        if self.logging:
            self.log(f"{t.name} finds no place to come back")

    def _banish(self, ctx: Action, u: Unit, t: Unit) -> None:
        r = self.check(u, "Guile", u.guile, 0, 1)
        if r != FAIL and t.state == "board":
            t.state = "banished"
            t.back_round = self.round + 1
            enemy = self.sides[t.side]
            enemy.total = max(0, enemy.total - t.points)
            enemy.momentum = min(enemy.momentum, enemy.total)
            self.drop_flag(t, "banished")
            if self.logging:
                self.log(f"{t.name} is banished until {enemy.name}'s first turn of the next round "
                         f"({enemy.name}: total momentum {enemy.total}, {enemy.momentum} left)")  # fmt: skip
        if r != CRITICAL:  # seed: a Will check follows, whatever the result, unless critical
            self.will_check(u, None, ctx, allow_push=False)

    def _push(self, ctx: Action, u: Unit, t: Unit) -> None:
        r = self.check(u, "Guile", u.guile)
        if r == FAIL or t.state != "board":
            return
        ax, ay = self.sides[t.side].anchor
        d = dist(t.x, t.y, ax, ay)
        start = (t.x, t.y)
        if d > 1:
            step = d
            while step > 10:  # as far back as it stays in sight (terrain and groups ignored)
                x, y = t.x + (ax - t.x) * step / d, t.y + (ay - t.y) * step / d
                old = (t.x, t.y)
                t.x, t.y = x, y
                ok = self._los(u, t)
                t.x, t.y = old
                if ok:
                    t.x, t.y = clamp(x, y, t.radius)
                    break
                step *= 0.6
        self.drop_flag(t, "moved by the enemy")
        if self.logging:
            self.log(f"{t.name} is pushed {dist(start[0], start[1], t.x, t.y):.0f} mm towards its deployment zone")
        if r == CRITICAL:
            self.will_check(t, u, ctx)

    def _wave(self, ctx: Action, u: Unit) -> None:
        r = self.check(u, "Guile", u.guile)
        if r == FAIL:
            return
        movers = [o for o in self.allies(u) if self.within(u, o, u.rng) and o.mov]
        for o in movers:
            if o.state == "board" and o.mov:
                gx, gy = self.goal(o)
                x, y = self.path_end(o, gx, gy, min(self.mm(o.mov), max(0.0, dist(o.x, o.y, gx, gy) - 2 * o.radius)), self.pivots.get(o.mov or "S", 0))
                if self.logging:
                    self.log(f"{o.name} moves {dist(o.x, o.y, x, y):.0f} mm (Crashing Wave)")
                o.x, o.y = x, y
                self._markers_after_move(o)

    # ------------------------------------------------------------------ groups off the board

    def ambush_spot_ok(self, u: Unit, x: float, y: float) -> bool:
        """[Ambushers] an ambushing group comes in anywhere on the board not within S of an enemy,
        neither in blocking or hazardous terrain nor on another group's base."""
        r = u.radius
        if not (r <= x <= BOARD - r and r <= y <= BOARD - r):
            return False
        if terrain_at(self.pieces, x, y) in ("blocking", "hazardous"):
            return False
        s = self.mm("S")
        for e in self.sides[1 - u.side].units:
            if e.state == "board" and dist(x, y, e.x, e.y) <= s:
                return False
        for o in self.units:
            if o.state == "board" and o is not u and dist(x, y, o.x, o.y) < o.radius + r:
                return False
        return True

    def ambush_spot(self, u: Unit, t: Unit) -> tuple[float, float] | None:
        """The legal entry nearest ``t`` on rings just beyond S of it (16 bearings each), else on a
        20 mm grid over the board; None when the board has none."""
        s = self.mm("S")
        for ring in (s + u.radius + 3, s + u.radius + 20, s + u.radius + 45):
            for k in range(16):
                ang = k * math.pi / 8
                x, y = t.x + ring * math.cos(ang), t.y + ring * math.sin(ang)
                if self.ambush_spot_ok(u, x, y):
                    return x, y
        best: tuple[float, float] | None = None
        near = math.inf
        steps = int(BOARD // 20)
        for i in range(steps + 1):
            for j in range(steps + 1):
                x, y = min(BOARD - u.radius, max(u.radius, i * 20.0)), min(BOARD - u.radius, max(u.radius, j * 20.0))
                d = dist(x, y, t.x, t.y)
                if d < near and self.ambush_spot_ok(u, x, y):
                    best, near = (x, y), d
        return best

    def _ambush(self, ctx: Action, u: Unit, t: Unit, point: tuple[float, float]) -> None:
        u.x, u.y = point
        u.state = "board"
        self.note(u.side, "ambushers")
        if self.logging:
            self.log(f"{u.name} comes out of ambush at ({point[0]:.0f}, {point[1]:.0f}), {dist(point[0], point[1], t.x, t.y):.0f} mm from {t.name}")
        if t.state == "board":
            self._charge(ctx, u, t)

    def _enter(self, ctx: Action, u: Unit, point: tuple[float, float] | None) -> None:
        side = self.sides[u.side]
        edge = side.edge_y if side.edge_y is not None else 0.0
        x = point[0] if point is not None else 200.0
        u.x, u.y = clamp(x, edge, u.radius)
        u.state = "board"
        if self.logging:
            self.log(f"{u.name} enters from the board edge")
