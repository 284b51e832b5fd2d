"""Activation phase: alternating activations, Progress and Support moves, maneuvers, disengagement.

Seed (Activation phase): the players activate their units in turn, the tactical roll's winner's
side first; a player with fewer units may pass once per extra enemy unit. An activated unit
reveals its order and performs one of its actions:

- **Progress**: Run (MOV × 2 in a straight line), March (MOV, round obstacles), Stationary, or
  Disengagement for a unit in a fray;
- **Assault**: Charge or Engagement (:mod:`.assault`);
- **Support**: communions, rituals and shooting, after a March when it is free (Dynamic);
- **Reaction**: revealed when an enemy assails the unit (:mod:`.assault`); otherwise the unit
  stays where it is.

A unit moves to a place in its field of view and ends facing the way it moved. A unit that
must turn first maneuvers (seed: Maneuvers): a scattered unit turns up to 90° freely and
further with a Discipline test (7); a close unit reorients with a Discipline test (7) at the
start of its activation and then does nothing else. Sideward and backward moves (MOV, keeping
the facing) are maneuvers with a Discipline test (7) too; a close unit tries one maneuver a
round, a scattered one stops trying after a failure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import trait

from .base import BattleBase
from .formation import shape
from .fray import unit_key
from .geometry import angle_between, unit_vector
from .narration import ORDER_NAMES, at, name, test_words, turning
from .state import Fighting, Group
from .tables import ACTIVATION_RANK, pass_chance

if TYPE_CHECKING:
    from .battle import Battle  # noqa

MANEUVER_DIFFICULTY = 7  # seed: Maneuvers (Discipline 7)
DISENGAGE_DIFFICULTY = 8  # seed: Progress (Disengagement)


@trait
class ActivationPhase(BattleBase):
    __slots__ = ()

    def shooters(self, unit: Fighting) -> list[Group]:
        return [g for g in unit.shooting_groups if g.count] if unit.shooting_groups else []

    def activation(self) -> None:
        first = self.winner_of_roll
        rank = ACTIVATION_RANK
        queues = []
        for s in (0, 1):
            # Sorted on (rank, -points, side order), kept reversed: the next unit is popped from the end.
            keyed = [(rank.get(u.order, 2), -u.points, i, u) for i, u in enumerate(self.sides[s]) if u.alive]
            keyed.sort(reverse=True)
            queues.append([k[3] for k in keyed])
        # Passing: the player with fewer units may pass once per extra enemy unit.
        n0, n1 = len(queues[0]), len(queues[1])
        passes = [n1 - n0 if n1 > n0 else 0, n0 - n1 if n0 > n1 else 0]
        turn = first
        while queues[0] and queues[1]:
            queue = queues[turn]
            # The player points out the unit it activates (its queue's last by default).
            at = self.policies[turn].pick_activation(self.as_battle(), turn, queue)
            nxt = queue[at]
            if passes[turn] and self.policies[turn].wants_to_pass(self.as_battle(), turn, queue, nxt):
                passes[turn] -= 1
                if self.logging:
                    self.say(f"side {turn + 1} passes")
                turn = 1 - turn
                continue
            queue.pop(at)
            if nxt.alive and not nxt.activated:
                self.activate(nxt)
            turn = 1 - turn
        # One queue is empty: the other side activates its remaining units in a row (no passing).
        for queue in queues:
            for nxt in reversed(queue):
                if nxt.alive and not nxt.activated:
                    self.activate(nxt)
        self.snapshot("activation phase")

    def activate(self, u: Fighting) -> None:
        u.activated = True
        if u.state == "rout":
            if not u.engaged:
                if self.logging:
                    self.say(f"{name(self, u)} is in Rout and free of any opponent: it flees")
                self.flee(u)
            return
        if u.tactic and u.tactic.get("change_order"):
            self.change_plans(u)
        order = u.order
        if order == "assault":
            if u.engaged:
                if self.logging:
                    self.say(f"{name(self, u)} ({ORDER_NAMES['assault']} order) fights on in its fray")
            else:
                self.assault(u)
            if u.warrior_mage:
                self.cast_rituals(u, warriors_only=True)
            if u.warrior_monk:
                self.call_communions(u, warriors_only=True)
        elif order == "support":
            self.support(u)
        elif order == "progress":
            if u.engaged:
                self.disengage(u)
            else:
                self.advance(u)
        elif order == "reaction":
            if self.logging:
                self.say(f"{name(self, u)} reveals its Reaction order: no enemy assailed it, it stays at {at(u)}")
        elif self.logging:
            self.say(f"{name(self, u)} has no order: it stays at {at(u)}")

    def change_plans(self, u: Fighting) -> None:
        """Change of plans (R2-D9): the unit is revealed with another order than the one it was
        given, when its player asks for one as it is activated (the table may have changed since
        the orders were given)."""
        new = self.policies[u.side].change_of_plans(self.as_battle(), u)
        if not new or new == u.order:
            return
        if self.logging:
            self.say(f"{name(self, u)} changes its plans (Change of plans): {ORDER_NAMES.get(new, new)} order instead of {ORDER_NAMES.get(u.order, u.order)} order")
        u.order = new

    # -- moves -----------------------------------------------------------------------------

    def turn_toward(self, u: Fighting, hx: float, hy: float, why: str) -> bool:
        """The maneuvers a unit needs to face the heading (hx, hy) before moving (seed:
        Reorientation): free for a scattered unit under 90°, a Discipline test (7) beyond or
        for a close unit. Returns True when it faces it (a close unit then moves no more)."""
        angle = angle_between(u.ux, u.uy, hx, hy)
        if angle <= 90.0 and not u.close:
            return True  # it moves within its field of view; the move turns it
        if angle <= 1.0:
            return True
        if u.maneuvered and (u.close or u.maneuver_failed):
            return False  # a close unit tries one maneuver a round; a scattered one stops after a failure
        if not self.maneuver_test(u, f"reorients {angle:.0f}° to {why}"):
            return False
        if u.close:
            return self.reorient_close(u, hx, hy, angle)
        if not self.turn(u, hx, hy):
            if self.logging:
                self.say(f"  {name(self, u)} has no room to turn")
            return False
        u.moved = True
        return True

    def maneuver_test(self, u: Fighting, doing: str) -> bool:
        """The DIS test of a maneuver (seed: Maneuvers; DIS 7) *u* tries this round, narrated as
        "<unit> <doing>: <test>"; a failure marks the unit (a scattered one stops trying)."""
        u.maneuvered = True
        value = u.dis_value + u.dis_bonus + (u.tactic.get("discipline", 0) if u.tactic else 0)
        ok = self.dice.chance(pass_chance(value, MANEUVER_DIFFICULTY, u.best_of))
        if self.logging:
            self.say(f"{name(self, u)} {doing}: {test_words(self, 'DIS', value, MANEUVER_DIFFICULTY, u.best_of, ok)}")
        if not ok:
            u.maneuver_failed = True
        return ok

    def rearrange(self, u: Fighting) -> None:
        """Rearrangement (seed: Maneuvers; DIS 7): a close unit whose fighters turned one by one
        (its ranks now files) widens its rows back to its usual files, its front edge's middle
        where it stood, when that ground is free; it may then carry out its Progress."""
        if not self.maneuver_test(u, f"tries a rearrangement into {u.max_files} files"):
            return
        files = u.cols
        u.cols = u.max_files
        shape(u)
        if not self.fits(u):
            u.cols = files
            shape(u)
            if self.logging:
                self.say(f"  {name(self, u)} has no room to widen its rows")
            return
        self.moved(u)

    def reorient_close(self, u: Fighting, hx: float, hy: float, angle: float) -> bool:
        """A close unit's reorientation, its test passed (seed: Reorientation): it wheels as a
        block round a front corner when its outer fighter's arc is within MOV x 2; else each
        fighter turns exactly 90° or 180° where it stands (the ranks become files: the same
        ground), which a unit with a fighter on a cavalry base may not do. Returns True when
        it turned (it then moves no more this activation)."""
        box = u.box()
        # From the pivot to the middle of the outer fighter of the rear rank (the one that travels furthest).
        reach = math.hypot(2.0 * box.hw - u.troops.base_w / 2.0, 2.0 * box.hd - u.troops.base_d / 2.0)
        arc = reach * math.radians(angle)
        if arc <= u.mov * 2.0 and self.wheel(u, hx, hy):
            u.moved = True
            if self.logging:
                self.say(f"  {name(self, u)} wheels round a front corner: its outer fighter covers {arc:.1f} cm (MOV x 2 = {u.mov * 2:g})")
            return True
        if any(g.count and g.base_d > g.base_w for g in u.groups):
            if self.logging:
                self.say(f"  {name(self, u)} cannot wheel so far (its outer fighter would cover {arc:.1f} cm, MOV x 2 = {u.mov * 2:g}) "
                         "and, with riders on cavalry bases, cannot turn its fighters one by one")  # fmt: skip
            return False
        # Each fighter turns 90° (toward the heading's side) or 180° where it stands.
        if angle >= 135.0:
            fx, fy, quarter = -u.ux, -u.uy, False
        else:
            cross = u.ux * hy - u.uy * hx
            fx, fy, quarter = (u.uy, -u.ux, True) if cross < 0.0 else (-u.uy, u.ux, True)
        ranks = (u.count + u.files - 1) // u.files if u.files else 1
        before = (u.cols, u.x, u.y)
        if quarter:
            u.cols = ranks  # the old ranks are the new files: the fighters stand where they stood
            shape(u)
            hd = u.depth / 2.0
            u.place(box.cx + u.ux * hd, box.cy + u.uy * hd, u.ux, u.uy)  # the same middle
        if not self.turn(u, fx, fy):
            u.cols = before[0]
            shape(u)
            u.place(before[1], before[2], u.ux, u.uy)
            self.moved(u)
            if self.logging:
                self.say(f"  {name(self, u)} has no room to turn")
            return False
        u.moved = True
        if self.logging:
            self.say(f"  {name(self, u)}: each fighter turns {'90' if quarter else '180'}° where it stands"
                     + (f" ({u.files} files now)" if quarter else ""))  # fmt: skip
        return True

    def advance(self, u: Fighting) -> None:
        """Progress: the player's Run or March (or a maneuver), as :meth:`.policy.Policy.progress_move` asks."""
        move = self.policies[u.side].progress_move(self.as_battle(), u)
        if move is None:
            if self.logging:
                self.say(f"{name(self, u)} (Progress, Stationary) stays at {at(u)}")
            return
        tx, ty, run, stop = move
        self.move_unit(u, tx, ty, run, stop, "Progress")

    def move_unit(self, u: Fighting, tx: float, ty: float, run: bool, stop: float, order: str) -> float:
        """A Run (MOV × 2, straight) or March (MOV, round obstacles) toward (tx, ty), *stop* cm
        short of it, after the reorientation it needs; a close unit that reorients moves no more.
        Returns the distance moved."""
        if u.tactic and u.tactic.get("no_run") and run:
            run = False  # Unfailing wall's drawback: no Run this round (march instead)
        wx, wy = self.waypoint(u, tx, ty)
        if (wx, wy) != (tx, ty):
            tx, ty, stop = wx, wy, 0.0  # round a piece of scenery: for its corner first
        hx, hy = unit_vector(tx - u.x, ty - u.y)
        if angle_between(u.ux, u.uy, hx, hy) > 90.0:
            # Out of its field of view: turn first.
            turned = self.turn_toward(u, hx, hy, "face its way")
            if not turned or u.close:
                return 0.0
        elif u.close and u.files < u.max_files and u.files < u.count and not u.maneuvered and order == "Progress":
            self.rearrange(u)
        mov = u.mov
        if run:
            tx, ty, stop, run = self.choose_run(u, tx, ty, stop)
        action = "Run" if run else "March"
        where, facing = at(u), (u.ux, u.uy)
        done = self.travel(u, tx, ty, mov * 2.0 if run else mov, straight=run, stop=stop)
        if done <= 0.05 and not u.maneuvered:
            done = self.sidestep_clear(u, tx, ty)
            if done > 0.05:
                return done
        if done > 0.05:
            u.moved = True
            if self.logging:
                self.say(f"{name(self, u)} ({order}, {action}) moves {done:.1f} cm from {where} to {at(u)}{turning(u, *facing)}")
            self.spot_scouts(u)
        elif self.logging:
            self.say(f"{name(self, u)} ({order}, {action}) cannot move from {where}: the way is blocked")
        return done

    def choose_run(self, u: Fighting, gx: float, gy: float, stop: float) -> tuple[float, float, float, bool]:
        """How a unit told to Run toward (gx, gy) goes: straight for it when the way is clear;
        else straight on the heading (the goal's, the unit's facing, or up to 60° off the goal's)
        that leaves it the shortest way to the goal round the scenery; or, when that is clearly
        better, a March round what is in its way. Returns (target x, y, stop, run)."""
        mov = u.mov
        want = math.hypot(gx - u.x, gy - u.y) - stop
        straight = self.plan_travel(u, gx, gy, mov * 2.0, straight=True, stop=stop)
        ran = straight[4] if straight is not None else 0.0
        if ran >= min(want, mov * 2.0) - 1.0:
            return gx, gy, stop, True
        pad = u.width / 2.0 + 0.5
        end = (straight[0], straight[1]) if straight is not None else (u.x, u.y)
        best = self.way_left(end[0], end[1], gx, gy, pad)
        choice = (gx, gy, stop, True)
        hx, hy = unit_vector(gx - u.x, gy - u.y)
        far = min(want, mov * 2.0)
        headings = [(u.ux, u.uy)]
        for degrees in (20.0, -20.0, 40.0, -40.0, 60.0, -60.0):
            r = math.radians(degrees)
            headings.append((hx * math.cos(r) - hy * math.sin(r), hx * math.sin(r) + hy * math.cos(r)))
        for ax, ay in headings:
            if angle_between(u.ux, u.uy, ax, ay) > 90.0:
                continue
            leg = self.plan_travel(u, u.x + ax * far, u.y + ay * far, mov * 2.0, straight=True)
            if leg is None:
                continue
            left = self.way_left(leg[0], leg[1], gx, gy, pad)
            if left < best - 1.0:
                best, choice = left, (u.x + ax * far, u.y + ay * far, 0.0, True)
        round_it = self.plan_travel(u, gx, gy, mov, straight=False, stop=stop)
        if round_it is not None and self.way_left(round_it[0], round_it[1], gx, gy, pad) < best - 0.5 * mov:
            return gx, gy, stop, False  # a March round the obstacle gets clearly further
        return choice

    def sidestep(self, u: Fighting, dx: float, dy: float, distance: float, backward: bool) -> float:
        """Sideward or backward movement (seed: Maneuvers): up to MOV keeping the facing, after a
        Discipline test (7); a backward one not under an Assault order."""
        if backward and u.order == "assault":
            return 0.0  # seed: "This maneuver cannot be executed if the unit is carrying out an assault order"
        if u.maneuvered and (u.close or u.maneuver_failed):
            return 0.0
        u.maneuvered = True
        kind = "backward movement" if backward else "sideward movement"
        value = u.dis_value + u.dis_bonus + (u.tactic.get("discipline", 0) if u.tactic else 0)
        ok = self.dice.chance(pass_chance(value, MANEUVER_DIFFICULTY, u.best_of))
        if self.logging:
            self.say(f"{name(self, u)} tries a {kind}: {test_words(self, 'DIS', value, MANEUVER_DIFFICULTY, u.best_of, ok)}")
        if not ok:
            u.maneuver_failed = True
            return 0.0
        where = at(u)
        length = min(distance, u.mov)
        done = self.travel(u, u.x + dx * length, u.y + dy * length, length, straight=True, face=False)
        if done > 0.0:
            u.moved = True
            if self.logging:
                self.say(f"  {name(self, u)} moves {done:.1f} cm from {where} to {at(u)}, keeping its facing")
        return done

    def sidestep_clear(self, u: Fighting, tx: float, ty: float) -> float:
        """A unit whose way is blocked tries a sideward movement (a maneuver) to the side from
        which the goal is nearer, when that side has room."""
        rx, ry = u.uy, -u.ux  # its right
        best = None
        for side in (1.0, -1.0):
            dx, dy = rx * side, ry * side
            plan = self.plan_travel(u, u.x + dx * u.mov, u.y + dy * u.mov, u.mov, straight=True, face=False)
            if plan is None or plan[4] < 1.0:
                continue
            left = math.hypot(tx - plan[0], ty - plan[1])
            if best is None or left < best[0]:
                best = (left, dx, dy)
        if best is None:
            return 0.0
        return self.sidestep(u, best[1], best[2], u.mov, False)

    def support(self, u: Fighting) -> None:
        """Support: a March first when the player asks (Dynamic), then communions, rituals, shots."""
        moved = False
        if not u.engaged:
            move = self.policies[u.side].support_move(self.as_battle(), u)
            if move is not None:
                tx, ty, _run, stop = move
                moved = self.move_unit(u, tx, ty, False, stop, "Support") > 0.0 or u.moved
        if u.faith >= self.info[u.side]["min_fervor"]:
            self.call_communions(u)
        if u.mana > 0:
            self.cast_rituals(u)
        if u.shooting_groups:
            self.shoot(u, moved or u.moved)
        if u.hidden:
            u.hidden = False  # a Support order spots Scouts (seed: Scout)
            self.moved(u)

    def spot_scouts(self, u: Fighting) -> None:
        """Hidden Scouts within the Scout distance of a unit that ends its activation there are
        spotted (seed: Scout)."""
        reach = self.field.scout_distance
        for e in self.sides[1 - u.side]:
            if e.alive and e.hidden and self.gap(u, e) < reach:
                e.hidden = False
                self.moved(e)
                if self.logging:
                    self.say(f"{name(self, e)} is spotted by {name(self, u)}")

    # -- disengagement ---------------------------------------------------------------------

    def disengage(self, u: Fighting) -> None:
        """Progress (Disengagement) (seed): not after being charged or engaged this activation
        phase; an INI test (8), or a STR test (8) less the lowest RES of the enemies in contact,
        with the troops' value. Success: the fighters engaged on two sides (touching two enemy
        units) are eliminated and the rest march MOV away; failure: no attack this combat phase."""
        if u.was_charged or u.charged or u.state == "rout":
            if self.logging:
                self.say(f"{name(self, u)} was assailed this round and cannot disengage: it fights on")
            return  # Progress (Stationary)
        enemies = [self.enemy_unit(u, j) for j in sorted(u.engaged) if self.enemy_unit(u, j).alive]
        if not enemies:
            return
        lowest_res = min(g.base["res"] for e in enemies for g in e.groups if g.count)
        ini, strength = u.stat("ini"), u.stat("str") - lowest_res
        value, which = (ini, "INI") if ini >= strength else (strength, f"STR less RES {lowest_res}")
        ok = self.test(value, DISENGAGE_DIFFICULTY)
        if self.logging:
            self.say(f"{name(self, u)} (Progress, Disengagement) tries to break away: "
                     f"{test_words(self, which, value, DISENGAGE_DIFFICULTY, 1, ok)}")  # fmt: skip
        if not ok:
            u.no_attack = True
            if self.logging:
                self.say(f"  {name(self, u)} stays in the fray and will not attack in this combat phase")
            return
        chain = sorted([u, *enemies], key=lambda x: (x.side, x.index))
        fighters = self.build_contact(chain)
        two_sides: dict[int, int] = {}
        for f in fighters.get(unit_key(u.side, u.index), []):
            if len({ek for ek, _ in f.touches}) >= 2:
                two_sides[f.group] = two_sides.get(f.group, 0) + 1
        self.phase = "disengagement"
        self.eliminate_in_contact(u, None, two_sides)  # (also breaks the contacts)
        self.phase = "activation"
        if not u.alive:
            return
        # March away from the enemies it left, round obstacles; not back into contact.
        cx = sum(e.box().cx for e in enemies) / len(enemies)
        cy = sum(e.box().cy for e in enemies) / len(enemies)
        box = u.box()
        ax, ay = unit_vector(box.cx - cx, box.cy - cy)
        where, facing = at(u), (u.ux, u.uy)
        done = self.travel(u, u.x + ax * u.mov, u.y + ay * u.mov, u.mov, straight=False)
        u.moved = True
        if self.logging:
            self.say(f"  {name(self, u)} disengages and marches {done:.1f} cm from {where} to {at(u)}{turning(u, *facing)}")

    def reach_of(self, u: Fighting) -> float:
        """Its charge distance: MOV × 2 (the slowest member's MOV, the tactic's bonus)."""
        return u.mov * 2.0


def heading_to(u: Fighting, e: Fighting) -> tuple[float, float]:
    """The unit vector from *u*'s front centre to *e*'s centre."""
    box = e.box()
    return unit_vector(box.cx - u.x, box.cy - u.y)


def forward(u: Fighting, depth: float) -> float:
    """How far the unit's front stands from its own army's edge."""
    return u.y if u.side == 0 else depth - u.y


def spot_distance(u: Fighting, x: float, y: float) -> float:
    return math.hypot(x - u.x, y - u.y)
