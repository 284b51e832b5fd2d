"""Checks, momentum, removal, Will checks and attacks [Core Dice Mechanic, Attacks, Will Checks].

A check is the seed's chance step itself: ``n`` d20 faces (:data:`dice.D20`, each face 1/20),
drawn from the game's one source of uniforms and read against the stat; the faces are kept, so
the narrated log shows every roll with its dice and target and Soothsayers can replace one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .board import EPS, clamp, dist, hypot, near_blocking
from .dice import (
    BREAK_NAMES,
    CRITICAL,
    FAIL,
    SUCCESS,
    break_odds,
    check_probabilities,
    dice_count,
    outcome_of,
)
from .setup import SetupRules
from .state import Action, Side, Unit

if TYPE_CHECKING:
    from .game import Game

#: the attacks the Sneak-Thieves' penalty applies to (seed: ENGAGE, AIM, GIVE FIRE = Charge,
#: Stand and Fight, Suppression by RR-D3; FEINT is a Guile check, see actions.ActionRules._feint)
SNEAKED = ("charge", "stand", "suppression")
#: the attacks Swarmers join (seed: Charge and Stand and Fight, and the Countercharge reaction)
SWARMED = ("charge", "stand", "countercharge")


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

    # ------------------------------------------------------------------ checks

    def check(self, u: Unit, what: str, stat: int | None, bonus: int = 0, penalty: int = 0, important: bool = False) -> int:
        """A check of ``u``'s ``stat`` [Core Dice Mechanic]: 2d20, 1d20 with penalties, 3d20 with
        bonuses (both cancel); a die hits on the stat or more; one hit succeeds, two are a
        critical success. ``important`` (attacks and Will checks): Soothsayers may be asked to
        replace a die. A group without the stat fails."""
        n = dice_count(bonus, penalty, self.dice_table)
        faces = [self.dice.die(20) for _ in range(n)]  # the chance step D20 (dice.py), one uniform a face
        if stat is None:
            if self.logging:
                self.log(f"  {u.name}: no {what}, the check fails")
            return FAIL
        result = outcome_of(faces, stat)
        if important:
            result = self._soothsayers(u, what, stat, faces, result)
        if self.logging:
            mods = " (bonus)" if n > self.dice_table[0] else " (penalty)" if n < self.dice_table[0] else ""
            self.log(f"  {u.name}: {what} {stat}+ on {n}d20{mods}: {', '.join(str(f) for f in faces)} → {('fail', 'success', 'critical')[result]}")
        return result

    def _soothsayers(self, u: Unit, what: str, stat: int, faces: list[int], result: int) -> int:
        """[Soothsayers] a side's number of the round may be declared the result of one die of any
        check, its own or the enemy's, once a turn (read: the number serves the whole round, at
        most once in each turn of either player; see docs). Asked of each side's player."""
        for s in (self.sides[u.side], self.sides[1 - u.side]):
            number = s.soothsayer
            if number is None or s.soothsaid_turn == self.turn_counter:
                continue
            own = s.idx == u.side
            # the die the number would replace: a missing one of one's own check, a hit of the enemy's
            slot = next((i for i, f in enumerate(faces) if (f < stat) == own), -1)
            if slot < 0:
                continue
            after = outcome_of([number if i == slot else f for i, f in enumerate(faces)], stat)
            if after == result or not self.policies[s.idx].soothsay(cast("Game", self), s, u, what, result, after):
                continue
            s.soothsaid_turn = self.turn_counter
            self.note(s.idx, "soothsayers")
            if self.logging:
                self.log(f"  {s.name}: Soothsayers declare a {number} for the {faces[slot]} of {u.name}'s {what} check")
            faces[slot] = number
            result = after
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

    # ------------------------------------------------------------------ removal and Will

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
            self.log(f"{u.name} is removed from play ({side.name}: total momentum {side.total})")
        self.drop_flag(u, "removed")
        for c in side.units:  # passengers of a broken Transport get out and check Will
            if c.carrier is u and c.state == "carried":
                c.state, c.carrier = "board", None
                c.x, c.y = u.x, u.y
                if self.logging:
                    self.log(f"{c.name} is put down where its Transport stood")
                self.will_check(c, None, ctx)
        if side.has("zealots"):
            self.gain(side, 1)
            self.note(side.idx, "zealots")
        if other.has("zealots"):
            self.gain(other, 2)
            self.note(other.idx, "zealots")
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
        sacrificed = 0
        if attacker is not None and ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
            substitute = self._offer_sacrifice(ctx, u, attacker)
            if substitute is not None:
                u = substitute
                sacrificed = 1  # Sacrifice: the ally checks instead, with a bonus
        bonus = sacrificed + (1 if u.attached else 0) + (1 if side.death_bonus else 0)
        if side.death_bonus:
            side.death_bonus = False
            self.note(side.idx, "death-defiers")
        if enemy.has("fearsome") and any(
            e.gtype != "ward" and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)
        ):
            penalty += 1
            self.note(enemy.idx, "fearsome")
        self.drop_flag(u, "forced to a Will check")
        result = self.check(u, "Will", u.will, bonus, penalty, important=True)
        if result == CRITICAL and poisoned:
            if self.logging:
                self.log(f"  {u.name}: Poisoners: a second Will check at a penalty, and that one stands")
            self.note(enemy.idx, "poisoners")
            result = self.check(u, "Will", u.will, bonus, penalty + 1, important=True)
        if self.logging:
            self.log(f"  {u.name}: {BREAK_NAMES[result]}")
        if result == FAIL:
            if side.has("death-defiers"):
                side.death_bonus = True  # the next Will check of the warband has a bonus
            self.remove(u, attacker, ctx)
            return FAIL
        if result == CRITICAL:
            if side.has("blessed"):
                self.gain(side, 4)
                self.note(side.idx, "blessed")
                if self.logging:
                    self.log(f"  {side.name}: Blessed, +4 momentum ({side.momentum} left)")
            if u.gtype != "ward" and u.mov:
                to = self.policies[u.side].defy_move(cast("Game", self), u)
                if to is not None:
                    x, y = self.path_end(u, to[0], to[1], self.mm(u.mov), self.pivots.get(u.mov, 0))
                    if self.logging and (x, y) != (u.x, u.y):
                        self.log(f"  {u.name} moves {dist(u.x, u.y, x, y):.0f} mm (DEFY!)")
                    u.x, u.y = x, y
            if ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
                self._offer_rally(ctx, u)
        else:
            if u.gtype == "ward":
                self._ward_home(u)
            elif attacker is not None and allow_push and u.heavy_trait != "colossal" and u.mov and attacker.state == "board":
                to = self.policies[attacker.side].push(cast("Game", self), attacker, u)  # the enemy's choice
                if to is not None:
                    x, y = self.path_end(u, to[0], to[1], self.mm(u.mov), 0, voluntary=True)
                    if self.logging:
                        self.log(f"  {attacker.name} pushes {u.name} back {dist(u.x, u.y, x, y):.0f} mm (Stand Firm)")
                    u.x, u.y = x, y
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
        if self.logging:
            self.log(f"  {ward.name} is placed beside {far.name}")

    # ------------------------------------------------------------------ attacks

    def attack_dice(self, a: Unit, t: Unit, charged: bool, extra_bonus: int = 0, extra_penalty: int = 0, how: str = "stand") -> tuple[int, int]:
        """Bonuses and penalties of ``a``'s Fury check on ``t`` [Attacks]; ``how``: the action or
        reaction the attack is made by (see :data:`SNEAKED`)."""
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
        if how in SNEAKED and self.sneaked(a, t):
            penalty += 1
        return bonus, penalty

    def sneaked(self, a: Unit, t: Unit) -> bool:
        """[Sneak-Thieves] ``t``'s warband gives ``a`` a penalty: ``t`` is not a Heavy and ``a``
        targets it from farther than S."""
        return self.sides[t.side].has("sneak-thieves") and t.gtype != "heavy" and dist(a.x, a.y, t.x, t.y) > self.mm("S")

    def expected_break(self, a: Unit, t: Unit, bonus: int, penalty: int) -> tuple[float, float]:
        """(P(target breaks), P(target stands)) of one attack, from the exact distributions."""
        return break_odds(a.fury, t.will, 1 if t.attached else 0, bonus, penalty, self.dice_table)

    def resolve_attack(self, ctx: Action, a: Unit, t: Unit, how: str, bonus: int = 0, penalty: int = 0, charged: bool = False,
                       declared: bool = True) -> None:  # fmt: skip
        """One attack of ``a`` on ``t`` made by ``how`` (an action or a reaction): Swarmers join
        first, then the reactions to its declaration, the Fury check (and a Countercharge's, rolled
        before either Will check), then the Will checks."""
        if a.state != "board" or t.state != "board":
            return
        side = self.sides[a.side]
        if self.logging:
            self.log(f"{a.name} attacks {t.name}" + (" after a charge" if charged else "") + f" ({how})")
        if declared and not ctx.reacted and a.side == ctx.side.idx:
            if how in SWARMED and side.has("swarmers"):
                self._swarm(ctx, a, t)  # seed: resolved before any reaction
                if t.state != "board" or a.state != "board":
                    return
            redirected = self._offer_attack_reactions(ctx, a, t)
            if a.state != "board":
                return
            if redirected is not None:
                t = redirected
            if ctx.cancelled or t.state != "board":
                return
        counter = ctx.countercharge if ctx.countercharge is t else None
        ctx.countercharge = None
        b, p = self.attack_dice(a, t, charged, bonus + ctx.bonus, penalty, how)  # ctx.bonus: a Reversal's critical
        result = self.check(a, "Fury", a.fury, b, p, important=True)
        counter_result = FAIL
        if counter is not None:
            if self.within(counter, a, counter.rng):
                cb, cp = self.attack_dice(counter, a, False, 0, 0, "countercharge")
                if self.logging:
                    self.log(f"{counter.name} strikes back at {a.name} (countercharge)")
                counter_result = self.check(counter, "Fury", counter.fury, cb, cp, important=True)
            else:
                if self.logging:
                    self.log(f"{counter.name}'s countercharge does not reach {a.name}")
                counter = None
        if result != FAIL:
            self.will_check(t, a, ctx, penalty=1 if result == CRITICAL else 0, poisoned=side.has("poisoners"))
        if counter is not None and counter_result != FAIL and a.state == "board":
            self.will_check(a, counter, ctx, penalty=1 if counter_result == CRITICAL else 0, poisoned=self.sides[counter.side].has("poisoners"))
        if counter is not None and counter.state == "board" and a.state == "board" and self.sides[counter.side].has("swarmers"):
            self._swarm(ctx, counter, a)

    def _swarm(self, ctx: Action, a: Unit, t: Unit) -> None:
        """[Swarmers] the attacker's other groups in base contact with ``t`` attack it too, each at
        a penalty, before the reactions to the attack they join (none is offered for these)."""
        for o in self.allies(a):
            if o.fury is not None and o.state == "board" and t.state == "board" and self.contact(o, t):
                self.note(o.side, "swarmers")
                if self.logging:
                    self.log(f"{o.name} swarms {t.name}")
                b, p = self.attack_dice(o, t, False, 0, 1, "swarm")
                result = self.check(o, "Fury", o.fury, b, p, important=True)
                if result != FAIL:
                    self.will_check(t, o, ctx, penalty=1 if result == CRITICAL else 0, poisoned=self.sides[o.side].has("poisoners"))
