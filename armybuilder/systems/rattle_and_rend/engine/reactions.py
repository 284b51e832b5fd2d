"""Reactions [Six Reactions, How Reactions Work]: the standard and warding reactions a side is
offered when their triggers happen, and the procedure of declaring, refusing and insisting.

The rules list the reactions that may be declared (:class:`~.state.Offer`: the reaction, the group
that would react, what it is about, and its effect); the reactive side's player picks one or none,
the active side's player may refuse it, and the reactive one may insist (:meth:`ReactionRules._react`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from .board import EPS, clamp, dist
from .combat import CombatRules
from .dice import CRITICAL, FAIL
from .state import Action, Offer, Side, Unit

if TYPE_CHECKING:
    from .game import Game


class ReactionRules(CombatRules):
    """The reactions of :class:`game.Game`.

    An offer's effect is one of the ``_run_*`` methods bound to its arguments (``partial``), not
    a nested function: compiled by mypyc, a nested function and the frame it closes over refer
    to each other, and such a cycle keeps the whole game alive until the cyclic garbage collector
    runs (about a tenth of a compiled game's time)."""

    __slots__ = ()

    def _react(self, ctx: Action, side: Side, offers: list[Offer]) -> bool:
        """How Reactions Work: the reactive player may declare one of ``offers`` for 1 momentum; the
        active player may refuse it for 1, and the reactive player insist for 1 more. An action is
        the target of one reaction at most, declared or refused. True when the reaction took place."""
        if ctx.reacted or not offers or side is ctx.side or side.momentum < 1:
            return False
        g = cast("Game", self)
        chosen = self.policies[side.idx].react(g, side, ctx, offers)
        if chosen is None:
            return False
        assert chosen in offers, "a player declares one of the reactions offered"
        active = ctx.side
        side.momentum -= 1
        ctx.reacted = True
        self.note(side.idx, chosen.name.lower())  # declared is used: a refusal costs the foe a point too
        if self.logging:
            self.log(f"{side.name} declares {chosen.name} ({chosen.reactor.name}) for 1 momentum ({side.momentum} left)")
        if active.momentum >= 1 and self.policies[active.idx].refuse(g, active, ctx, chosen):
            active.momentum -= 1
            if self.logging:
                self.log(f"{active.name} refuses it for 1 momentum ({active.momentum} left)")
            if side.momentum >= 1 and self.policies[side.idx].insist(g, side, ctx, chosen):
                side.momentum -= 1
                if self.logging:
                    self.log(f"{side.name} insists for 1 more momentum ({side.momentum} left)")
            else:
                return False
        ctx.reactor = chosen.reactor
        ctx.swap = True
        chosen.run()
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

    # ------------------------------------------------------------------ when an action is declared

    def on_declare(self, ctx: Action) -> None:
        """Intimidate (a Heavy sees an enemy in its RNG take an action) and Detonate (an enemy
        within a Ward's RNG takes an action)."""
        actor = ctx.actor
        if ctx.reacted or actor.state != "board":
            return
        enemy = self.sides[1 - ctx.side.idx]
        offers: list[Offer] = []
        for h in enemy.units:
            if h.state == "board" and "intimidate" in h.reactions and self.within(h, actor, h.rng) and self.los(h, actor):
                offers.append(Offer("Intimidate", h, actor, None, partial(self._run_intimidate, ctx, h, actor)))
        for w in enemy.units:
            if w.state == "board" and w.gtype == "ward" and w.warding == "detonate" and self.within(w, actor, w.rng):
                offers.append(Offer("Detonate", w, actor, None, partial(self._run_detonate, w)))
        self._react(ctx, enemy, offers)

    # ------------------------------------------------------------------ when a group moves

    def on_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> tuple[float, float]:
        """Reactions to a move about to happen (Suppression, Evade, Follow, Pursuit); returns where
        the mover really ends."""
        if ctx.reacted or u.side != ctx.side.idx:
            return ex, ey
        enemy = self.sides[1 - u.side]
        offers: list[Offer] = []
        stop = [False]
        for s in enemy.units:
            if s.state != "board":
                continue
            if "suppression" in s.reactions and s.fury is not None and (self.within(s, u, s.rng) or dist(s.x, s.y, ex, ey) <= self.mm(s.rng)) and self.los(s, u):
                offers.append(Offer("Suppression", s, u, None, partial(self._run_suppress_move, ctx, s, u, enemy, stop)))
            if "evade" in s.reactions and s.mov and dist(s.x, s.y, ex, ey) <= self.mm(s.mov) + EPS and s.guile is not None:
                offers.append(Offer("Evade", s, u, None, partial(self._run_evade, s, ex, ey, enemy)))
        for w in enemy.units:
            if w.state == "board" and "follow" in w.reactions and self.within(w, u, w.rng) and dist(w.x, w.y, ex, ey) > self.mm(w.rng) and self.los(w, u):
                offers.append(Offer("Follow", w, u, None, partial(self._run_follow, w, u, ex, ey)))
        for _w, ally in self._warding_groups(enemy, "pursuit"):
            if self.within(ally, u, ally.rng) and dist(ally.x, ally.y, ex, ey) > self.mm(ally.rng) and ally.mov:
                offers.append(Offer("Pursuit", ally, u, None, partial(self._run_pursue, ally, u, ex, ey)))
        self._react(ctx, enemy, offers)
        if stop[0] or u.state != "board":
            return u.x, u.y
        return ex, ey

    # ------------------------------------------------------------------ when an attack is declared

    def _offer_attack_reactions(self, ctx: Action, a: Unit, t: Unit) -> Unit | None:
        """Countercharge, Suppression, Regroup, Confusion when an attack is declared; returns the
        attack's new target after a Confusion, or None."""
        target_side = self.sides[t.side]
        offers: list[Offer] = []
        redirect: list[Unit | None] = [None]
        if "countercharge" in t.reactions and t.fury is not None:
            offers.append(Offer("Countercharge", t, a, None, partial(self._run_countercharge, ctx, a, t)))
        for s in target_side.units:
            if s.state == "board" and "suppression" in s.reactions and s.fury is not None and self.within(s, a, s.rng) and self.los(s, a) and (s is t or self.los(s, t)):
                offers.append(Offer("Suppression", s, a, None, partial(self._run_suppress_attack, ctx, s, a, target_side)))
        if "regroup" in t.reactions and t.guile is not None:
            helpers = [o for o in self.allies(t) if self.within(t, o, "M") and self.los(t, o) and o.mov and o.fury is not None]
            if helpers:
                offers.append(Offer("Regroup", t, a, None, partial(self._run_regroup, t, a, helpers)))
        for _w, ally in self._warding_groups(target_side, "confusion"):
            if ally is not t:
                continue
            decoys = [o for o in self.allies(a) if self.within(a, o, a.rng) and o is not a]
            if decoys and t.guile is not None:
                offers.append(Offer("Confusion", t, a, None, partial(self._run_confuse, t, a, decoys, redirect)))
        self._react(ctx, target_side, offers)
        return redirect[0]

    # ------------------------------------------------------------------ warding reactions on Will and removal

    def _offer_sacrifice(self, ctx: Action, u: Unit, attacker: Unit) -> Unit | None:
        side = self.sides[u.side]
        chosen: list[Unit | None] = [None]
        offers: list[Offer] = []
        for _w, ally in self._warding_groups(side, "sacrifice"):
            if ally is u or not self.within(attacker, ally, attacker.rng if attacker.rng != "B" else "S"):
                continue
            offers.append(Offer("Sacrifice", ally, attacker, u, partial(self._run_sacrifice, ally, u, chosen)))
        self._react(ctx, side, offers)
        return chosen[0]

    def _offer_defiance(self, ctx: Action, u: Unit, attacker: Unit) -> None:
        side = self.sides[u.side]
        if u.gtype == "ward" or u.fury is None or not any(self.within(u, e, u.rng) for e in self.enemies(u)):
            return
        if not any(ally is u for _, ally in self._warding_groups(side, "defiance")):
            return
        target = attacker if attacker.state == "board" and self.within(u, attacker, u.rng) else next(e for e in self.enemies(u) if self.within(u, e, u.rng))
        self._react(ctx, side, [Offer("Defiance", u, target, None, partial(self._run_defy, ctx, u, target))])

    def _offer_vengeance(self, ctx: Action, lost: Unit) -> None:
        side = self.sides[lost.side]
        offers: list[Offer] = []
        for ward, ally in self._warding_groups(side, "vengeance"):
            if ally.fury is None or not self.los(ward, lost):
                continue
            offers.append(Offer("Vengeance", ally, None, lost, partial(self._run_vengeance, ally, side)))
        self._react(ctx, side, offers)

    def _offer_rally(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        wards = [w for w, ally in self._warding_groups(side, "rally") if ally is u]
        if not wards or u.fury is None:
            return
        w = wards[0]
        self._react(ctx, side, [Offer("Rally", u, None, w, partial(self._run_rally, u, w, side))])

    # ------------------------------------------------------------------ the offers' effects

    def _run_intimidate(self, ctx: Action, h: Unit, actor: Unit) -> None:
        r = self.check(h, "Fury", h.fury)
        if r != FAIL:
            ctx.cancelled = True
            if self.logging:
                self.log(f"{actor.name}'s action is stopped (Intimidate)")
            if r == CRITICAL:
                self.lose(ctx.side, 1)
                if self.logging:
                    self.log(f"{ctx.side.name} loses 1 momentum ({ctx.side.momentum} left)")

    def _run_detonate(self, w: Unit) -> None:
        caught = [u for u in self.units if u.state == "board" and u is not w and self.within(w, u, w.rng)]
        self.remove(w, None, None)
        for u in caught:
            if u.state == "board":
                self.will_check(u, None, None, penalty=1)

    def _run_suppress_move(self, ctx: Action, s: Unit, u: Unit, enemy: Side, stop: list[bool]) -> None:
        if self.logging:
            self.log(f"{s.name} shoots at {u.name} as it moves (Suppression)")
        b, p = self.attack_dice(s, u, False, 0, 0, "suppression")
        r = self.check(s, "Fury", s.fury, b, p, important=True)
        if r != FAIL:
            stop[0] = True
            if self.logging:
                self.log(f"{u.name}'s move is stopped")
            self.will_check(u, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=enemy.has("poisoners"))

    def _run_evade(self, s: Unit, ex: float, ey: float, enemy: Side) -> None:
        r = self.check(s, "Guile", s.guile)
        if r != FAIL:
            d = dist(ex, ey, s.x, s.y) or 1.0
            x, y = self.path_end(s, s.x + (s.x - ex) / d * 400, s.y + (s.y - ey) / d * 400, self.mm(s.mov), self.pivots.get(s.mov or "S", 0))
            if self.logging:
                self.log(f"{s.name} evades {dist(s.x, s.y, x, y):.0f} mm")
            s.x, s.y = x, y
            if r == CRITICAL:
                enemy.free_action = True
                if self.logging:
                    self.log(f"{enemy.name}: its next action costs no momentum (Evade)")

    def _run_follow(self, w: Unit, u: Unit, ex: float, ey: float) -> None:
        d = dist(w.x, w.y, ex, ey) or 1.0
        keep = self.mm(w.rng) - 5
        w.x, w.y = clamp(ex + (w.x - ex) / d * keep, ey + (w.y - ey) / d * keep, w.radius)
        if self.logging:
            self.log(f"{w.name} follows {u.name}")

    def _run_pursue(self, ally: Unit, u: Unit, ex: float, ey: float) -> None:
        if self.check(ally, "Guile", ally.guile) != FAIL:
            band = self.wider[ally.mov]
            x, y = self.path_end(ally, ex, ey, max(0.0, self.mm(band)), self.pivots.get(band or "S", 0))
            if self.logging:
                self.log(f"{ally.name} pursues {u.name} {dist(ally.x, ally.y, x, y):.0f} mm")
            ally.x, ally.y = x, y

    def _run_countercharge(self, ctx: Action, a: Unit, t: Unit) -> None:
        if self.sides[a.side].has("fearsome") and dist(a.x, a.y, t.x, t.y) <= self.mm("S") and self.los(a, t):
            if self.check(t, "Guile", t.guile) == FAIL:  # seed: Fearsome
                if self.logging:
                    self.log(f"{t.name} dares not countercharge (Fearsome)")
                return
        if not self.contact(t, a) and t.mov:
            x, y = self.path_end(t, a.x, a.y, min(self.mm(t.mov), max(0.0, dist(t.x, t.y, a.x, a.y) - a.radius - t.radius)), 0)
            if self.logging:
                self.log(f"{t.name} meets {a.name}, moving {dist(t.x, t.y, x, y):.0f} mm")
            t.x, t.y = x, y
        ctx.countercharge = t

    def _run_suppress_attack(self, ctx: Action, s: Unit, a: Unit, target_side: Side) -> None:
        if self.logging:
            self.log(f"{s.name} shoots at {a.name} (Suppression)")
        b, p = self.attack_dice(s, a, False, 0, 0, "suppression")
        r = self.check(s, "Fury", s.fury, b, p, important=True)
        if r != FAIL:
            self.will_check(a, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=target_side.has("poisoners"))

    def _run_regroup(self, t: Unit, a: Unit, helpers: list[Unit]) -> None:
        r = self.check(t, "Guile", t.guile)
        for o in helpers[: (2 if r == CRITICAL else 1) if r != FAIL else 0]:
            x, y = self.path_end(o, a.x, a.y, self.mm(o.mov), self.pivots.get(o.mov or "S", 0))
            if self.logging:
                self.log(f"{o.name} regroups {dist(o.x, o.y, x, y):.0f} mm towards {a.name}")
            o.x, o.y = x, y

    def _run_confuse(self, t: Unit, a: Unit, decoys: list[Unit], redirect: list[Unit | None]) -> None:
        r = self.check(t, "Guile", t.guile)
        if r != FAIL:
            decoy = redirect[0] = max(decoys, key=lambda d: (d.points, -d.uid))
            if self.logging:
                self.log(f"{a.name}'s attack is turned on {decoy.name} (Confusion)")
            if r == CRITICAL:
                self.lose(self.sides[a.side], 2)
                if self.logging:
                    self.log(f"{self.sides[a.side].name} loses 2 momentum ({self.sides[a.side].momentum} left)")

    def _run_sacrifice(self, ally: Unit, u: Unit, chosen: list[Unit | None]) -> None:
        chosen[0] = ally
        if self.logging:
            self.log(f"{ally.name} takes {u.name}'s Will check (Sacrifice)")

    def _run_defy(self, ctx: Action, u: Unit, target: Unit) -> None:
        self.resolve_attack(ctx, u, target, "defiance", bonus=1, declared=False)

    def _run_vengeance(self, ally: Unit, side: Side) -> None:
        movers = [ally]
        r = self.check(ally, "Fury", ally.fury)
        if r == CRITICAL:
            second = [o for o in self.allies(ally) if o is not ally and self.los(ally, o) and o.fury is not None]
            if second:
                movers.append(second[0])
        for i, m in enumerate(movers):
            rr = r if i == 0 else self.check(m, "Fury", m.fury)
            if rr != FAIL and m.mov:
                gx, gy = self.goal(m)
                x, y = self.path_end(m, gx, gy, self.mm(m.mov), self.pivots.get(m.mov, 0))
                m.x, m.y = x, y
                self.gain(side, 2)
                if self.logging:
                    self.log(f"{m.name} surges forward (Vengeance); {side.name} +2 momentum ({side.momentum} left)")

    def _run_rally(self, u: Unit, w: Unit, side: Side) -> None:
        allies = [o for o in side.units if o.state == "board" and self.within(w, o, w.rng)]
        enemies = [o for o in self.enemies(w) if self.within(w, o, w.rng)]
        r = self.check(u, "Fury", u.fury)
        if r != FAIL:
            gained = 2 * len(allies) + (len(enemies) if r == CRITICAL else 0)
            self.gain(side, gained)
            if self.logging:
                self.log(f"{side.name} rallies: +{gained} momentum ({side.momentum} left)")
