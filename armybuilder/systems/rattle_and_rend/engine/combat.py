"""Checks, momentum, removal, Will checks and attacks [Core Dice Mechanic, Attacks, Will Checks]."""

from __future__ import annotations

from .board import EPS, clamp, dist, hypot, near_blocking
from .dice import CRITICAL, FAIL, SUCCESS, break_odds, check_probabilities, dice_count, outcome_of
from .setup import SetupRules
from .state import Action, Side, Unit


class CombatRules(SetupRules):
    """The rules of checks and attacks of :class:`game.Game`."""

    __slots__ = ()

    # The reactions these rules offer are defined by the next class of the chain
    # (reactions.ReactionRules, which resolves attacks and Will checks through this one):
    # declared here, with what they return, so that checks and attacks can offer them.

    def _offer_sacrifice(self, ctx: Action, u: Unit, attacker: Unit) -> Unit | None:
        raise NotImplementedError

    def _offer_defiance(self, ctx: Action, u: Unit, attacker: Unit) -> None:
        raise NotImplementedError

    def _offer_rally(self, ctx: Action, u: Unit) -> None:
        raise NotImplementedError

    def _offer_vengeance(self, ctx: Action, lost: Unit) -> None:
        raise NotImplementedError

    def _offer_attack_reactions(self, ctx: Action, a: Unit, t: Unit) -> Unit | None:
        raise NotImplementedError

    def roll(self, stat: int | None, bonus: int, penalty: int, side: Side, want_success: bool, important: bool = False) -> int:
        """A check by ``side``'s group; Soothsayers of either side may replace one die."""
        n = dice_count(bonus, penalty, self.dice_table)
        rolls = [self.dice.d20() for _ in range(n)]
        if stat is None:
            return FAIL
        result = outcome_of(rolls, stat)
        if important:
            other = self.sides[1 - side.idx]
            if want_success and result == FAIL and side.soothsayer is not None and side.soothsayer >= stat:
                rolls[0] = side.soothsayer
                side.soothsayer = None
                result = outcome_of(rolls, stat)
                if self.logging:
                    self.log(f"{side.name}: Soothsayers turn a die into a {rolls[0]}")
            elif want_success and result == SUCCESS and other.soothsayer is not None and other.soothsayer < stat:
                hit = next(i for i, r in enumerate(rolls) if r >= stat)
                rolls[hit] = other.soothsayer
                other.soothsayer = None
                result = outcome_of(rolls, stat)
                if self.logging:
                    self.log(f"{other.name}: Soothsayers turn a die into a {rolls[hit]}")
        return result

    def p_success(self, stat: int | None, bonus: int = 0, penalty: int = 0) -> float:
        key = (stat, bonus, penalty)
        found = self.p_success_memo.get(key)
        if found is None:
            f, s, c = check_probabilities(stat, dice_count(bonus, penalty, self.dice_table))
            found = self.p_success_memo[key] = s + c
        return found

    def gain(self, side: Side, amount: int) -> None:
        side.momentum = min(side.total, side.momentum + amount)

    def lose(self, side: Side, amount: int) -> None:
        side.momentum = max(0, side.momentum - amount)

    def remove(self, u: Unit, by: Unit | None, ctx: Action | None) -> None:
        if u.state == "out":
            return
        u.state = "out"
        side, other = self.sides[u.side], self.sides[1 - u.side]
        side.total = max(0, side.total - u.points)
        side.momentum = min(side.momentum, side.total)
        if by is not None and by.side != u.side:
            by.eliminated += u.points
            other.removed_points += u.points
        if self.logging:
            self.log(f"{u.name} ({side.name}) is removed from play")
        for m in self.markers:
            if m.holder is u:
                m.holder = None
        for c in side.units:  # passengers of a broken Transport get out and check Will
            if c.carrier is u and c.state == "carried":
                c.state, c.carrier = "board", None
                c.x, c.y = u.x, u.y
                self.will_check(c, None, ctx)
        if side.has("zealots"):
            self.gain(side, 1)
        if other.has("zealots"):
            self.gain(other, 2)
        if side.has("death-defiers"):
            side.death_bonus = True
        if side.total <= self.morale_threshold and not side.morale_done:
            side.morale_due = True
        if ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
            self._offer_vengeance(ctx, u)
        self.check_victory()

    def will_check(self, u: Unit, attacker: Unit | None, ctx: Action | None, penalty: int = 0, poisoned: bool = False, allow_push: bool = True) -> int:
        """Will check of ``u`` (forced by ``attacker``, or by terrain/effects when None)."""
        if u.state != "board":
            return SUCCESS
        side = self.sides[u.side]
        enemy = self.sides[1 - u.side]
        if attacker is not None and ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
            substitute = self._offer_sacrifice(ctx, u, attacker)
            if substitute is not None:
                u = substitute
                penalty_bonus = 1
            else:
                penalty_bonus = 0
        else:
            penalty_bonus = 0
        bonus = penalty_bonus + (1 if u.attached else 0) + (1 if side.death_bonus else 0)
        side.death_bonus = False
        if enemy.has("fearsome") and any(
            e.gtype != "ward" and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)
        ):
            penalty += 1
        result = self.roll(u.will, bonus, penalty, side, True, important=True)
        if result == CRITICAL and poisoned:
            result = self.roll(u.will, bonus, penalty + 1, side, True, important=True)
            if self.logging:
                self.log(f"{u.name}: Poisoners force a second Will check")
        if result == FAIL:
            if self.logging:
                self.log(f"{u.name}: Will check BREAK")
            self.remove(u, attacker, ctx)
            return FAIL
        for m in self.markers:
            if m.holder is u:
                m.holder = None
        if result == CRITICAL:
            if self.logging:
                self.log(f"{u.name}: Will check DEFY!")
            if side.has("blessed"):
                self.gain(side, 4)
            if u.gtype != "ward" and u.mov:
                gx, gy = self.goal(u)
                u.x, u.y = self.path_end(u, gx, gy, self.mm(u.mov), self.pivots.get(u.mov, 0))
            if ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
                self._offer_rally(ctx, u)
        else:
            if self.logging:
                self.log(f"{u.name}: Will check Stand Firm")
            if u.gtype == "ward":
                self._ward_home(u)
            elif attacker is not None and allow_push and u.heavy_trait != "colossal" and u.mov:
                d = dist(attacker.x, attacker.y, u.x, u.y) or 1.0
                tx = u.x + (u.x - attacker.x) / d * 400
                ty = u.y + (u.y - attacker.y) / d * 400
                u.x, u.y = self.path_end(u, tx, ty, self.mm(u.mov), 0, voluntary=True)
        if attacker is not None and ctx is not None and not ctx.reacted and u.state == "board" and u.side != ctx.side.idx:
            self._offer_defiance(ctx, u, attacker)
        return result

    def _ward_home(self, ward: Unit) -> None:
        """A Ward's simple Will success: beside the ally farthest from the enemy (seed: Ward)."""
        allies = self.allies(ward)
        enemies = self.enemies(ward)
        if not allies or not enemies:
            return
        far = max(allies, key=lambda a: min(dist(a.x, a.y, e.x, e.y) for e in enemies))
        ward.x, ward.y = clamp(far.x + far.radius + ward.radius + 1, far.y, ward.radius)

    def attack_dice(self, a: Unit, t: Unit, charged: bool, extra_bonus: int = 0, extra_penalty: int = 0, reaction: str = "") -> tuple[int, int]:
        side = self.sides[a.side]
        bonus, penalty = extra_bonus, extra_penalty
        melee = self.contact(a, t) or a.gtype == "heavy"
        if melee:  # contact() inlined: a friend touching a or t, the foes and mates touching a
            ax, ay, ar, tx, ty, tr = a.x, a.y, a.radius, t.x, t.y, t.radius
            mine = self.allies(a)
            if any(hypot(o.x - ax, o.y - ay) <= o.radius + ar + EPS or hypot(o.x - tx, o.y - ty) <= o.radius + tr + EPS for o in mine):
                bonus += 1
            foes = sum(1 for o in self.enemies(a) if hypot(o.x - ax, o.y - ay) <= o.radius + ar + EPS)
            mates = sum(1 for o in mine if hypot(o.x - ax, o.y - ay) <= o.radius + ar + EPS)
            if foes > mates + 1:
                penalty += 1
        else:
            if dist(a.x, a.y, t.x, t.y) <= self.mm("S"):
                bonus += 1
            if near_blocking(self.pieces, t.x, t.y, t.radius):
                penalty += 1
        if charged and not side.has("elites"):
            penalty += 1
        target_side = self.sides[t.side]
        if (
            target_side.has("sneak-thieves")
            and t.gtype != "heavy"
            and dist(a.x, a.y, t.x, t.y) > self.mm("S")
            and (reaction == "suppression" or not reaction)
        ):
            penalty += 1
        return bonus, penalty

    def fury_of(self, u: Unit) -> int | None:
        side = self.sides[u.side]
        if u.fury is not None and side.has("tacticians") and u.gtype in ("fighters", "shooters", "skirmishers"):
            return max(1, u.fury - 2)
        return u.fury

    def expected_break(self, a: Unit, t: Unit, bonus: int, penalty: int) -> tuple[float, float]:
        """(P(target breaks), P(target stands)) of one attack, from the exact distributions."""
        return break_odds(self.fury_of(a), t.will, 1 if t.attached else 0, bonus, penalty, self.dice_table)

    def resolve_attack(self, ctx: Action, a: Unit, t: Unit, bonus: int = 0, penalty: int = 0, charged: bool = False, swarm: bool = True, declared: bool = True) -> None:
        """One attack of ``a`` on ``t``: reactions on declaration, Fury, then Will."""
        if a.state != "board" or t.state != "board":
            return
        if declared and not ctx.reacted and a.side == ctx.side.idx:
            redirected = self._offer_attack_reactions(ctx, a, t)
            if a.state != "board":
                return
            if redirected is not None:
                t = redirected
            if ctx.cancelled or t.state != "board":
                return
        counter = ctx.countercharge if ctx.countercharge is t else None
        ctx.countercharge = None
        b, p = self.attack_dice(a, t, charged, bonus, penalty)
        side = self.sides[a.side]
        result = self.roll(self.fury_of(a), b, p, side, True, important=True)
        if self.logging:
            self.log(f"{a.name} attacks {t.name}: Fury {('fail', 'success', 'critical')[result]}")
        counter_result = FAIL
        if counter is not None and self.within(counter, a, counter.rng):
            cb, cp = self.attack_dice(counter, a, False)
            counter_result = self.roll(self.fury_of(counter), cb, cp, self.sides[counter.side], True, important=True)
            if self.logging:
                self.log(f"{counter.name} countercharges: Fury {('fail', 'success', 'critical')[counter_result]}")
        extra: list[Unit] = []
        if swarm and side.has("swarmers"):
            extra = [o for o in self.allies(a) if self.contact(o, t) and o.fury is not None]
        poisoned = side.has("poisoners")
        if result != FAIL:
            self.will_check(t, a, ctx, penalty=1 if result == CRITICAL else 0, poisoned=poisoned)
        if counter is not None and counter_result != FAIL and a.state == "board":
            self.will_check(a, counter, ctx, penalty=1 if counter_result == CRITICAL else 0, poisoned=self.sides[counter.side].has("poisoners"))
        for o in extra:
            if t.state == "board" and o.state == "board":
                self.resolve_attack(ctx, o, t, penalty=1, swarm=False, declared=False)
