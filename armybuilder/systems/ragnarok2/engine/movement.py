"""Activation phase: alternating activations, movement, assaults, Courage tests, flight."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from .base import BattleBase
from .combat import earns_charge_bonus
from .fray import fear_distribution, unit_key
from .narration import name
from .state import Fighting, Group
from .tables import _ACTIVATION_RANK, TABLE_DEPTH, _opposed_p, _row_value, balance_of_power

if TYPE_CHECKING:
    from .battle import Battle  # noqa



@trait
class ActivationPhase(BattleBase):
    __slots__ = ()

    # -- activation phase -----------------------------------------------------

    def shooters(self, unit: Fighting) -> list[Group]:
        return [g for g in unit.shooting_groups if g.count] if unit.shooting_groups else []

    def activation(self) -> None:
        first = self.winner_of_roll
        rank = _ACTIVATION_RANK
        queues = []
        for s in (0, 1):
            # Sorted on (rank, -points, side order): the same order as a stable sort on (rank, -points).
            # Kept reversed (the keys are distinct): the next unit is popped from the end.
            keyed = [(rank.get(u.order, 2), -u.points, i, u) for i, u in enumerate(self.sides[s]) if u.alive]
            keyed.sort(reverse=True)
            queues.append([k[3] for k in keyed])
        # Passing: the player with fewer units may pass once per extra enemy unit.
        n0, n1 = len(queues[0]), len(queues[1])
        passes = [n1 - n0 if n1 > n0 else 0, n0 - n1 if n0 > n1 else 0]
        turn = first
        while queues[0] and queues[1]:
            queue = queues[turn]
            nxt = queue[-1]
            if passes[turn] and nxt.order == "assault" and not self.target_in_reach(nxt):
                passes[turn] -= 1
                turn = 1 - turn
                continue
            queue.pop()
            if nxt.alive:
                self.activate(nxt)
            turn = 1 - turn
        # One queue is empty: the other side activates its remaining units in a row (no passing).
        for queue in queues:
            for nxt in reversed(queue):
                if nxt.alive:
                    self.activate(nxt)

    def nearest_enemy(self, u: Fighting) -> Fighting | None:
        # min() on the distance, written out: the first of equals, as min() picks.
        best, best_d = None, 0.0
        pos = u.pos
        for e in self.sides[1 - u.side]:
            if e.alive:
                d = abs(e.pos - pos)
                if best is None or d < best_d:
                    best, best_d = e, d
        return best

    def something_in_range(self, u: Fighting) -> bool:
        """A shooting target within its longest range (or a mystic target within 50 cm)."""
        reach: Any = 0
        for g in u.shooting_groups:
            if g.count and g.profile.ranged.long > reach:  # type: ignore[union-attr]
                reach = g.profile.ranged.long  # type: ignore[union-attr]
        if (u.mana > 0 or u.faith > 0) and reach < 50:
            reach = 50
        reach = float(reach)  # (a float bound: see update_leadership())
        pos = u.pos
        low = -reach  # |e.pos - pos| <= reach, without a call per foe (the same test)
        for e in self.sides[1 - u.side]:
            if e.alive and low <= e.pos - pos <= reach:
                return True
        return False

    def target_in_reach(self, u: Fighting) -> bool:
        tactic = u.tactic  # u.mov, inlined
        reach = (u._mov + tactic.get("movement", 0) if tactic else u._mov) * 2.0  # (a float bound)
        pos = u.pos
        low = -reach  # |e.pos - pos| <= reach (distance(), inlined), without a call per foe
        for e in self.sides[1 - u.side]:
            if e.alive and low <= e.pos - pos <= reach:
                return True
        return False

    def activate(self, u: Fighting) -> None:
        u.activated = True
        if u.state == "rout":
            if not u.engaged:
                self.flee(u)
            return
        if u.order == "assault":
            if not u.engaged:
                self.assault(u)
            if u.warrior_mage:
                self.cast_rituals(u, warriors_only=True)
            if u.warrior_monk:
                self.call_communions(u, warriors_only=True)
        elif u.order == "support":
            # Support (dynamic): march first when nothing is in range yet, then act.
            moved = False
            if not u.engaged and not self.something_in_range(u):
                foe = self.nearest_enemy(u)
                if foe is not None:
                    before = u.pos
                    # foe.fighting, inlined
                    fighting = foe.count > 0 and (foe.state == "valiant" or foe.state == "disorganized")
                    self.toward(u, foe.pos, u.mov, stop_short=max(foe.mov * 2 + 1, 1.0) if fighting else 1.0)
                    moved = u.pos != before
            # The callees' own first tests, done here: most supporting units neither pray, cast nor shoot.
            if u.faith >= self.info[u.side]["min_fervor"]:
                self.call_communions(u)
            if u.mana > 0:
                self.cast_rituals(u)
            if u.shooting_groups:
                self.shoot(u, moved)
        elif u.order == "progress":
            if u.engaged:
                self.disengage(u)
            else:
                self.advance(u)
        # reaction: revealed when an enemy acts (counter-charge, counter-magic, censure)

    def advance(self, u: Fighting) -> None:
        """Progress (Run) towards the best target, stopping outside an unfavourable enemy's reach."""
        if u.engaged:
            return
        # The nearest enemy, routed ones last (the first of equals, as min() on (routed, distance) picks).
        target = routed = None
        d = d_routed = 0.0
        pos = u.pos
        for e in self.sides[1 - u.side]:
            if e.alive:
                dist = e.pos - pos
                if dist < 0.0:
                    dist = -dist
                if e.state == "rout":
                    if routed is None or dist < d_routed:
                        routed, d_routed = e, dist
                elif target is None or dist < d:
                    target, d = e, dist
        if target is None:
            if routed is None:
                return
            target, d = routed, d_routed
        policy = self.policies[u.side]
        stop = policy.stop_short(cast("Battle", self), u, target, d)  # how near the player lets it run
        # toward(), inlined: min() and max() written out with their choice among equals
        gap = target.pos - pos
        step = (gap if gap >= 0.0 else -gap) - stop
        if not step > 0.0:
            return  # it stays where it is (pos + copysign(0.0, gap) == pos): no limit to ask
        tactic = u.tactic
        distance = (u._mov + tactic.get("movement", 0) if tactic else u._mov) * 2.0
        if not step < distance:
            step = distance
        limit = policy.advance_limit(cast("Battle", self), u)
        if limit is not None:
            step = max(0.0, min(step, limit))  # the player keeps it with the line
        u.pos = pos + math.copysign(step, gap)

    def disengage(self, u: Fighting) -> None:
        """Progress (Disengagement) (seed): not after being charged or engaged this activation
        phase; an INI test (8), or a STR test (8) less the lowest RES of the enemies in contact,
        with the troops' value. Success: the fighters engaged on two sides (touching two enemy
        units) are eliminated and the rest march MOV away; failure: no attack this combat phase."""
        if u.was_charged or u.charged or u.state == "rout":
            return  # Progress (Stationary)
        enemies = [self.enemy_unit(u, j) for j in sorted(u.engaged) if self.enemy_unit(u, j).alive]
        if not enemies:
            return
        lowest_res = min(g.base["res"] for e in enemies for g in e.groups if g.count)
        value = max(u.stat("ini"), u.stat("str") - lowest_res)
        if not self.test(value, 8):
            u.no_attack = True
            if self.logging:
                self.say(f"{name(self, u)} fails to disengage")
            return
        chain = sorted([u, *enemies], key=lambda x: (x.side, x.index))
        fighters = self.build_contact(chain)
        two_sides: dict[int, int] = {}
        for f in fighters.get(unit_key(u.side, u.index), []):
            if len({ek for ek, _ in f.touches}) >= 2:
                two_sides[f.group] = two_sides.get(f.group, 0) + 1
        self.eliminate_in_contact(u, None, two_sides)  # (also breaks the contacts)
        if u.alive:
            edge = 0.0 if u.side == 0 else TABLE_DEPTH
            u.pos += math.copysign(min(float(u.mov), abs(edge - u.pos) - 1.0), edge - u.pos)
            if self.logging:
                self.say(f"{name(self, u)} disengages")

    def flee(self, u: Fighting, away_from: Fighting | None = None) -> None:
        """Flight: MOV × 2 towards its own edge; crossing it eliminates the unit."""
        edge = 0.0 if u.side == 0 else TABLE_DEPTH
        if u.engaged:
            self.kill_in_contact(u, None)
        u.pos += math.copysign(u.mov * 2, edge - u.pos)
        if (u.side == 0 and u.pos <= 0) or (u.side == 1 and u.pos >= TABLE_DEPTH):
            if self.logging:
                self.say(f"{name(self, u)} flees off the table")
            self.eliminate_points(None, u, u.points_alive())
            for g in u.groups:
                g.count = 0
            u.recount()
            u.state = "gone"
            self.break_contacts(u)

    def kill_in_contact(self, u: Fighting, killer: Fighting | None) -> None:
        """A routed unit that flees loses its fighters in contact, whatever their Wound levels
        (seed: Fleeing): the fighters touching an enemy in the contact model of its fray."""
        chain = [u] + [self.enemy_unit(u, j) for j in sorted(u.engaged) if self.enemy_unit(u, j).alive]
        chain.sort(key=lambda x: (x.side, x.index))
        fighters = self.build_contact(chain)
        per_group: dict[int, int] = {}
        for f in fighters.get(unit_key(u.side, u.index), []):
            if f.touches:
                per_group[f.group] = per_group.get(f.group, 0) + 1
        self.eliminate_in_contact(u, killer, per_group)

    def needs_courage_test(self, unit: Fighting, other: Fighting) -> bool:
        """Seed: Courage tests of the assailant and of the assailed."""
        if unit.all_have("fear_immune"):
            return False
        other_fear = other.troops.profile.fear  # (the fear property, inlined)
        if other_fear is None and not other.all_have("frightening"):
            return False
        fear = unit.troops.profile.fear
        if fear is None:  # courageous
            return True
        if unit.all_have("born_killer") and fear >= (other_fear or 0):
            return False
        if not other.count:
            return fear < 0
        most = None  # max((g.profile.fear or 0) for live groups), written out
        for g in other.groups:
            if g.count:
                f = g.profile.fear or 0
                if most is None or f > most:
                    most = f
        return most is not None and fear < most

    def courage_test(self, unit: Fighting, frightening: Fighting, unit_charging: bool) -> bool:
        """Contest table: COU − FEAR, FEAR modified by the balance of Power (seed: Repelling)."""
        fear = frightening.troops.profile.fear  # (the fear property, read once)
        if fear is None:
            fear = 0
        balance = balance_of_power(
            frightening.power(not unit_charging, unit_charging), unit.power(unit_charging, not unit_charging)
        )
        modifier = (
            _row_value(self.fear_rows, balance)
            if self.fear_rows
            else {3: 3, 2: 2, 1: 0, -2: -2, -3: -3}[balance]
        )
        cou = unit.cou_value + unit.tactic.get("courage", 0)
        # How hard the test is: FEAR modified by the balance of Power against the COU used, the
        # bonuses of standard bearer or war staff on the die's final result (seed: on the final result).
        difficulty = fear + modifier - cou - unit.cou_bonus
        if difficulty <= unit.immune_fear:
            return True  # seed (Immunity): any less or equally difficult Courage test is passed
        p = fear_distribution(self.table, cou - (fear + modifier), unit.cou_bonus, unit.best_of)[0][0]
        ok = self.dice.chance(p)
        if ok:
            unit.immune_fear = max(unit.immune_fear, difficulty)
        return ok

    def assault(self, u: Fighting) -> None:
        foes = [e for e in self.sides[1 - u.side] if e.alive]
        if not foes:
            return
        reach = u.mov * 2.0  # (a float bound: see update_leadership(); toward() moves the same)
        target = self.policies[u.side].charge_target(cast("Battle", self), u, foes, reach)
        if target is None:
            target = min(foes, key=lambda e: self.distance(u, e))
            self.toward(u, target.pos, reach)
            if target.state != "rout":
                self.disorganize(u)
            if self.logging:
                self.say(
                f"{name(self, u)} charges {name(self, target)}, out of reach: it moves MOV × 2 towards it"
                + ("" if target.state == "rout" else " and is Disorganized")
            )
            return
        # Reaction (counter-charge) of the target.
        if (
            target.order == "reaction"
            and not target.activated
            and not target.engaged
            and target.fighting
        ):
            target.activated = True
            won = self.dice.chance(
                _opposed_p(target.stat("ini"), u.stat("ini"), target.side == self.winner_of_roll)
            )
            if won:
                # Seed (Reaction (Counter-charge)): the winner charges first; a counter-charger
                # out of its charging distance is Disorganized and the assailant charges.
                if abs(u.pos - target.pos) <= target.mov * 2.0:
                    if self.logging:
                        self.say(f"{name(self, target)} wins the Initiative test and counter-charges {name(self, u)}")
                    self.resolve_charge(target, u)
                    return
                self.disorganize(target)
                if self.logging:
                    self.say(
                    f"{name(self, target)} wins the Initiative test but cannot reach {name(self, u)} to counter-charge and is Disorganized"
                )
        self.resolve_charge(u, target)

    def disorganize(self, u: Fighting) -> None:
        u.state = "rout" if u.state == "disorganized" else "disorganized"

    def resolve_charge(self, u: Fighting, target: Fighting) -> None:
        if self.needs_courage_test(u, target) and not self.courage_test(u, target, True):
            self.disorganize(u)
            if self.logging:
                self.say(f"{name(self, u)} fails its Courage test against {name(self, target)}, stays put and is Disorganized")
            return
        # Assault fire: shots before moving, difficulty 7, no modifier.
        for g in u.groups:
            if (
                g.count
                and g.traits.assault_fire
                and g.profile.ranged is not None
                and g.profile.aim is not None
            ):
                if self.distance(u, target) <= g.profile.ranged.long:
                    self.volley(u, g, target, g.count, 7, "assault fire")
        if not target.alive:
            return
        if target.state == "rout":
            # A routed unit that is assailed flees at once; the assailants take its place.
            old = target.pos
            if self.logging:
                self.say(f"{name(self, u)} charges {name(self, target)}, in Rout, which flees")
            if not target.engaged:
                self.flee(target)
                u.pos = old
                return
        if self.needs_courage_test(target, u) and not self.courage_test(target, u, False):
            if target.all_have("fanaticism") and self.test(
                target.dis_value + target.dis_bonus, 8, target.best_of
            ):
                target.state = "rout"
                if self.logging:
                    self.say(
                    f"{name(self, target)} fails its Courage test against {name(self, u)} and is in Rout; Fanaticism keeps it in place"
                )
            else:
                target.state = "rout"
                if self.logging:
                    self.say(f"{name(self, target)} fails its Courage test against {name(self, u)} and is in Rout")
                if not target.activated and not target.engaged:
                    old = target.pos
                    self.flee(target)
                    u.pos = old  # the frightening unit takes the spot it left
                    return
        u.pos = target.pos + (-1.0 if u.side == 0 else 1.0)
        u.charged = True
        target.was_charged = True
        u.charge_bonus = earns_charge_bonus(u, target)  # checked before the assault loosens a close unit
        if u.formation == "close":
            u.loose = True  # seed: a close unit changes to scattered formation during an assault
        u.engaged.add(target.index)
        target.engaged.add(u.index)
        if self.logging:
            self.say(
            f"{name(self, u)} charges {name(self, target)}" + (" (+3 on its Initiative tests this round)" if u.charge_bonus else "")
        )

