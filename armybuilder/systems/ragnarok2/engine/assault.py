"""Assaults on the table: charges and engagements, the target's reactions, Courage tests, contact.

Seed (Order: Assault; Movement during an assault; Reactions; Courage tests):

- **Charge**: a member of the unit sees a member of the target; the unit moves in a straight
  line; it succeeds when the shortest distance, base edge to base edge, is at most MOV × 2.
  A successful charge at no less Power gives +3 on the Initiative tests of the round.
- **Engagement**: the target stands in the unit's field of view (180°) but it has no line of
  sight on it, or no straight way (an obstacle between): the move goes round obstacles, at
  most MOV × 2 of path, without the charge bonus.
- **An assault out of reach** fails: the unit runs MOV × 2 toward the target (a charge also
  Disorganizes it; an engagement does not).
- **The target's Reaction**, revealed as the assault is declared: *Counter-charge* (opposed
  Initiative test; the winner charges first, a counter-charger out of reach is Disorganized),
  *Withstand charge* (INI 6: its fighters out of contact come into contact), *Retreat* (INI 6:
  it marches back up to MOV without turning; an assault that no longer reaches fails).
- **Courage tests** only when the assault can reach; a routed target flees in the direction of
  the assault and a frightening assailant takes its place.
- **Contact**: the assailants are placed on the face of the target they came to, facing it
  (a close unit is scattered by its assault until it re-forms); who fights whom is then read
  from where they stand (:mod:`.contact`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from mypy_extensions import trait

from .base import BattleBase
from .combat import earns_charge_bonus, engage
from .formation import FACE_NAMES, FRONT, face_length, face_point, face_toward, shape
from .fray import fear_distribution
from .geometry import box_from_front, boxes_overlap, unit_vector
from .narration import at, fear_roll, initiative_rolls, initiative_text, name, test_words, turning
from .state import Fighting
from .tables import balance_of_power, memo_row_value, opposed_chance, pass_chance

if TYPE_CHECKING:
    from .battle import Battle  # noqa

REACTION_DIFFICULTY = 6  # seed: Reaction (Withstand charge), Reaction (Retreat): INI 6
CONSCIOUSNESS_RANGE = 20.0  # seed: Consciousness (a 20 cm radius)


class AssaultOption(NamedTuple):
    """A foe a unit can assault now: how (``charge`` or ``engagement``) and how far (edge to edge)."""

    foe: Fighting
    kind: str
    distance: float


@trait
class AssaultRules(BattleBase):
    __slots__ = ()

    # -- what a unit can assault ---------------------------------------------------------

    def contact_spot(self, u: Fighting, e: Fighting) -> tuple[int, float, float, float, float]:
        """Where *u* stands once in contact with *e*: (face of *e*, x, y, facing x, facing y) of
        *u*'s front edge on the face of *e* it comes to (the one turned toward it, or the next
        nearest when another unit stands there), as nearly in line with where it stands as the
        face allows."""
        key = (u.side * 1000 + u.index) * 4096 + e.side * 1000 + e.index
        known = self.spot_memo.get(key)
        stamp = self.table_stamp()
        if known is not None and known[0] == stamp:
            return known[1]
        first = face_toward(e, u.x, u.y)
        best = None
        others = None
        for face in (first, (first + 1) % 4, (first + 3) % 4, (first + 2) % 4):
            spot = self._spot_on(u, e, face)
            if others is None:
                # A spot's block stands within its width and depth of the foe's block: only what
                # comes that near can overlap it (boxes_overlap() rejects the rest on its bounds).
                eb, grow = e.box(), u.width + u.depth + 1.0
                x0, y0, x1, y1 = eb.x0 - grow, eb.y0 - grow, eb.x1 + grow, eb.y1 + grow
                others = [
                    ob for ob in [v.box() for v in self.others(u, e)] + [p.box for p in self.field.blocking]
                    if ob.x0 <= x1 and x0 <= ob.x1 and ob.y0 <= y1 and y0 <= ob.y1
                ]
            _f, x, y, fx, fy = spot
            box = box_from_front(x, y, fx, fy, u.width, u.depth)
            if all(not boxes_overlap(box, ob) for ob in others):
                best = spot
                break
            if best is None:
                best = spot
        assert best is not None
        self.spot_memo[key] = (stamp, best)
        return best

    def _spot_on(self, u: Fighting, e: Fighting, face: int) -> tuple[int, float, float, float, float]:
        cx, cy, nx, ny = face_point(e, face)
        tx, ty = -ny, nx  # along the face
        half = face_length(e, face) / 2.0
        offset = (u.x - cx) * tx + (u.y - cy) * ty
        if offset > half:
            offset = half
        elif offset < -half:
            offset = -half
        return face, cx + tx * offset, cy + ty * offset, -nx, -ny

    def straight_way(self, u: Fighting, e: Fighting) -> bool:
        """Nothing stands between *u* and its place against *e* (a charge moves in a straight line)."""
        _face, x, y, fx, fy = self.contact_spot(u, e)
        length = math.hypot(x - u.x, y - u.y)
        if length < 0.5:
            return True
        hx, hy = unit_vector(x - u.x, y - u.y)
        turned = box_from_front(u.x, u.y, hx, hy, u.width, u.depth)
        return self.free_run(turned, hx, hy, length, self.move_obstacles(u, (e,)), edges=False) >= length - 1.0

    def engagement_way(self, u: Fighting, e: Fighting, reach: float) -> bool:
        """A way round the obstacles to *e* of at most *reach* cm (an Engagement)."""
        _face, x, y, _fx, _fy = self.contact_spot(u, e)
        if math.hypot(x - u.x, y - u.y) > reach + u.depth + 1.5 + 1e-3:
            # Out of reach whatever the way: a plan's front ends no farther than its path (at most
            # *reach*) plus the turn of the block on its middle where it stops (at most its depth).
            return False
        plan = self.plan_travel(u, x, y, reach, straight=False, ignore=(e,))
        if plan is None:
            return math.hypot(x - u.x, y - u.y) < 1.0
        px, py = plan[0], plan[1]
        return math.hypot(x - px, y - py) <= 1.5

    def assault_options(self, u: Fighting) -> list[AssaultOption]:
        """The foes *u* can assault now and how (see the module doc), in foe order."""
        if u.engaged or u.state == "rout":
            return []
        reach = u.mov * 2.0
        no_charge = bool(u.tactic and u.tactic.get("no_charge"))
        # The players ask several times before the unit acts: the answer is kept until the table
        # changes (SpaceRules.plans_now(); its own inputs are in the key).
        memo = self.plans_now()
        key = ("assault", u.side, u.index, u.state, u.close, reach, no_charge)
        known = memo.get(key)
        if known is not None:
            return list(known)
        conscious = u.all_have("consciousness")
        out = []
        for e, d in self.foes_within(u, reach):
            if not self.in_view(u, e) and not (conscious and d <= CONSCIOUSNESS_RANGE):
                continue  # behind its front (Consciousness: within 20 cm, any way)
            if self.sees(u, e) and self.straight_way(u, e):
                if not no_charge:
                    out.append(AssaultOption(e, "charge", d))
                # (Unfailing wall's drawback: no charge; an Engagement is for a foe it does not
                # see or cannot reach straight, so a foe it could charge cannot be assailed.)
            elif self.engagement_way(u, e, reach):
                out.append(AssaultOption(e, "engagement", d))
        memo[key] = list(out)
        return out

    # -- the assault -------------------------------------------------------------------------

    def assault(self, u: Fighting) -> None:
        """Assault (Charge or Engagement) on the target the player picks among those in reach,
        or, with none, an Engagement declared on a foe in view that fails: a run toward it."""
        options = self.assault_options(u)
        chosen = self.policies[u.side].assault_target(self.as_battle(), u, options)
        if chosen is None:
            self.assault_out_of_reach(u)
            return
        target, kind = chosen.foe, chosen.kind
        if u.hidden:
            u.hidden = False  # an Assault order spots Scouts
            self.moved(u)
        reach = u.mov * 2.0
        if self.logging:
            self.say(f"{name(self, u)} (Assault, {kind.capitalize()}) declares {name(self, target)}, "
                     f"{chosen.distance:.1f} cm away (reach {reach:g} cm)")  # fmt: skip
        # The target's Reaction, revealed now (seed: Order: Reaction).
        if target.order == "reaction" and not target.activated and not target.engaged and target.fighting:
            outcome = self.react(target, u, kind)
            if outcome == "countered":
                return
            if outcome == "retreated" and self.gap(u, target) > reach:
                self.failed_assault(u, target, kind, "it retreated out of reach")
                return
        self.resolve_assault(u, target, kind)

    def assault_out_of_reach(self, u: Fighting) -> None:
        foes = [e for e in self.sides[1 - u.side] if e.alive and not e.hidden and self.in_view(u, e)]
        if not foes:
            if self.logging:
                self.say(f"{name(self, u)} (Assault) has no enemy in view: it stays at {at(u)}")
            return
        target = min(foes, key=lambda e: (self.gap(u, e), e.index))
        d = self.gap(u, target)
        why = "out of reach" if d > u.mov * 2.0 else "no way round what stands between them"
        if self.logging:
            self.say(f"{name(self, u)} (Assault, Engagement) declares {name(self, target)}, "
                     f"{d:.1f} cm away (reach {u.mov * 2:g} cm): {why}")  # fmt: skip
        self.failed_assault(u, target, "engagement", why)

    def failed_assault(self, u: Fighting, target: Fighting, kind: str, why: str) -> None:
        """An assault that does not reach: the unit runs MOV × 2 toward its target and stops as
        close as it can; a failed charge Disorganizes it (seed: Movement during an assault)."""
        where, facing = at(u), (u.ux, u.uy)
        _face, x, y, _fx, _fy = self.contact_spot(u, target)
        # Unfailing wall's drawback forbids a Run this round: the failed assault's run is a March.
        far = u.mov if u.tactic and u.tactic.get("no_run") else u.mov * 2.0
        done = self.travel(u, x, y, far, straight=kind == "charge", ignore=(), stop=0.5)
        u.moved = done > 0.0
        disorganized = kind == "charge" and target.state != "rout"
        if disorganized:
            self.disorganize(u)
        if self.logging:
            self.say(f"  the {kind} fails ({why}): {name(self, u)} runs {done:.1f} cm from {where} to {at(u)}{turning(u, *facing)}"
                     + (" and is Disorganized" if disorganized else ""))  # fmt: skip

    def react(self, target: Fighting, u: Fighting, kind: str) -> str:
        """The assailed unit's Reaction (seed: Order: Reaction): "countered" when it charged
        first, "retreated" when it moved back, "withstands", or "" (none, or a failed test: its
        order becomes Progress (Stationary))."""
        choice = self.policies[target.side].reaction(self.as_battle(), target, u)
        if choice is None:
            return ""
        target.activated = True
        in_view = self.in_view(target, u)
        if choice == "counter-charge" and in_view and not (target.tactic and target.tactic.get("no_charge")):
            ini_t, ini_u = target.stat("ini"), u.stat("ini")
            p = opposed_chance(ini_t, ini_u, target.side == self.winner_of_roll)
            won = self.dice.chance(p)
            if self.logging:
                # The two rolls the draw decided (narration.initiative_rolls()), ties to the tactical roll's winner.
                ties = target.side == self.winner_of_roll
                dt, du = initiative_rolls(ini_t, ini_u, ties, won, self.dice.buffer[self.dice.index - 1], p)
                rolls = f"{initiative_text(name(self, target), ini_t, dt)} against {initiative_text(name(self, u), ini_u, du)}"
                tie = f" (a tie: side {self.winner_of_roll + 1} won the tactical roll)" if (dt and du and ini_t + dt == ini_u + du) or not (dt or du) else ""
                self.say(f"{name(self, target)} reveals a Reaction (Counter-charge): Initiative test, {rolls}{tie}; "
                         + ("it charges first" if won else f"{name(self, u)} charges first"))  # fmt: skip
            if not won:
                return ""
            if self.gap(target, u) <= target.mov * 2.0:
                self.resolve_assault(target, u, "charge")
                return "countered"
            self.disorganize(target)
            if self.logging:
                self.say(f"  {name(self, target)} cannot reach {name(self, u)} and is Disorganized")
            return ""
        if choice == "withstand":
            value = target.stat("ini")
            ok = self.dice.chance(pass_chance(value, REACTION_DIFFICULTY, 1))
            if self.logging:
                self.say(f"{name(self, target)} reveals a Reaction (Withstand charge): {test_words(self, 'INI', value, REACTION_DIFFICULTY, 1, ok)}")
            if ok:
                target.withstood.add(u.index)
                return "withstands"
            return ""
        if choice == "retreat" and in_view:
            value = target.stat("ini")
            ok = self.dice.chance(pass_chance(value, REACTION_DIFFICULTY, 1))
            if self.logging:
                self.say(f"{name(self, target)} reveals a Reaction (Retreat): {test_words(self, 'INI', value, REACTION_DIFFICULTY, 1, ok)}")
            if ok:
                where = at(target)
                back = self.travel(target, target.x - target.ux * target.mov, target.y - target.uy * target.mov,
                                   target.mov, straight=True, face=False)  # fmt: skip
                target.moved = back > 0.0
                if self.logging:
                    self.say(f"  {name(self, target)} marches back {back:.1f} cm from {where} to {at(target)}, keeping its facing")
                return "retreated"
            return ""
        if self.logging:
            self.say(f"{name(self, target)} reveals a Reaction it cannot use against this assault: it stays put")
        return ""

    def disorganize(self, u: Fighting) -> None:
        u.state = "rout" if u.state == "disorganized" else "disorganized"

    def resolve_assault(self, u: Fighting, target: Fighting, kind: str) -> None:
        """An assault that reaches: Courage tests, assault fire, the move and the contact."""
        reach = u.mov * 2.0
        d = self.gap(u, target)
        if d > reach:
            self.failed_assault(u, target, kind, "out of reach")
            return
        if self.needs_courage_test(u, target) and not self.courage_test(u, target, True):
            self.disorganize(u)
            if self.logging:
                self.say(f"  {name(self, u)} stays at {at(u)} and is Disorganized")
            return
        # Assault fire: shots before moving, difficulty 7, no modifier.
        for g in u.groups:
            if g.count and g.traits.assault_fire and g.profile.ranged is not None and g.profile.aim is not None:
                if d <= g.profile.ranged.long and self.sees(u, target):
                    self.phase = "shooting"
                    self.volley(u, g, target, g.count, 7, "assault fire")
                    self.phase = "activation"
        if not target.alive:
            return
        ax, ay = unit_vector(target.box().cx - u.x, target.box().cy - u.y)  # the assault's direction
        if target.state == "rout" and not target.engaged:
            # A routed unit that is assailed flees at once; the assailants take its place.
            if self.logging:
                self.say(f"  {name(self, target)} is in Rout and flees before {name(self, u)}")
            self.take_place_of(u, target, (ax, ay))
            return
        if self.needs_courage_test(target, u) and not self.courage_test(target, u, False):
            # Seed (Fanaticism): the identical test again, with the unit's DIS; a success routs
            # it without fleeing.
            if target.all_have("fanaticism") and self.courage_test(target, u, False, use_dis=True):
                target.state = "rout"
                if self.logging:
                    self.say(f"  {name(self, target)} is in Rout; Fanaticism keeps it in place")
            else:
                target.state = "rout"
                if not target.activated and not target.engaged:
                    self.take_place_of(u, target, (ax, ay))
                    return
                if self.logging:
                    self.say(f"  {name(self, target)} is in Rout and stays where it stands (activated or engaged already)")
        self.make_contact(u, target, kind, d)

    def take_place_of(self, u: Fighting, target: Fighting, away: tuple[float, float]) -> None:
        """The target flees in the direction of the assault; the assailant moves to the spot it
        left (seed: Redirecting the assault of a frightening unit), and stays there."""
        spot = (target.x, target.y)
        self.flee(target, away)
        where, facing = at(u), (u.ux, u.uy)
        done = self.travel(u, spot[0], spot[1], u.mov * 2.0, straight=False)
        u.moved = True
        if self.logging:
            self.say(f"  {name(self, u)} moves {done:.1f} cm from {where} to {at(u)}{turning(u, *facing)}, where its target stood")

    def make_contact(self, u: Fighting, target: Fighting, kind: str, d: float) -> None:
        """Place the assailants against the face of the target they came to, facing it."""
        face, x, y, fx, fy = self.contact_spot(u, target)
        where = at(u)
        obstacles = self.move_obstacles(u, (target,))
        # Slide along the face to a spot clear of other units and scenery, when one is near.
        tx, ty = -fy, fx
        for shift in (0.0, 2.5, -2.5, 5.0, -5.0, 7.5, -7.5):
            bx, by = x + tx * shift, y + ty * shift
            box = box_from_front(bx, by, fx, fy, u.width, u.depth)
            if all(not boxes_overlap(box, ob) for ob in obstacles):
                x, y = bx, by
                break
        ax, ay = unit_vector(target.box().cx - u.x, target.box().cy - u.y)
        u.place(x, y, fx, fy)
        self.moved(u)
        u.moved = True
        charge = kind == "charge"
        u.charged = charge
        target.was_charged = True
        target.assailed_from = (ax, ay)
        u.charge_bonus = charge and earns_charge_bonus(u, target)  # checked before the assault loosens a close unit
        if u.formation == "close" and u.count >= 5:
            u.loose = True  # seed: a close unit changes to scattered formation during an assault
            shape(u)
        u.slack = u.mov * 2.0 - d
        engage(u, target, FRONT, face)
        u.new_foes.add(target.index)
        target.new_foes.add(u.index)
        u.assailed_by_me.add(target.index)
        if self.logging:
            bonus = " (+3 on its Initiative tests this round)" if u.charge_bonus else (" (no charge bonus: less Power)" if charge else "")
            self.say(f"  {name(self, u)} {'charges' if charge else 'engages'} {name(self, target)}: {d:.1f} cm from {where} "
                     f"to {at(u)}, on its {FACE_NAMES[face]}{bonus}")  # fmt: skip
        self.spot_scouts(u)

    # -- Courage ------------------------------------------------------------------------------

    def needs_courage_test(self, unit: Fighting, other: Fighting) -> bool:
        """Seed: Courage tests of the assailant and of the assailed."""
        if unit.all_have("fear_immune"):
            return False
        other_fear = other.troops.profile.fear
        if other_fear is None and not other.all_have("frightening"):
            return False
        fear = unit.troops.profile.fear
        if fear is None:  # courageous
            return True
        if unit.all_have("born_killer") and fear >= (other_fear or 0):
            return False
        if not other.count:
            return fear < 0
        most = None
        for g in other.groups:
            if g.count:
                f = g.profile.fear or 0
                if most is None or f > most:
                    most = f
        return most is not None and fear < most

    def courage_test(self, unit: Fighting, frightening: Fighting, unit_charging: bool, use_dis: bool = False) -> bool:
        """Contest table: COU − FEAR, FEAR modified by the balance of Power (seed: Repelling);
        *use_dis*: Fanaticism's second try, the unit's DIS in place of its COU."""
        fear = frightening.troops.profile.fear
        if fear is None:
            fear = 0
        balance = balance_of_power(
            frightening.power(not unit_charging, unit_charging), unit.power(unit_charging, not unit_charging)
        )
        modifier = memo_row_value(self.fear_rows, balance) if self.fear_rows else {3: 3, 2: 2, 1: 0, -2: -2, -3: -3}[balance]
        if use_dis:
            cou, label = unit.dis_value + unit.tactic.get("discipline", 0), "DIS"
        else:
            cou, label = unit.cou_value + unit.tactic.get("courage", 0), "COU"
        difficulty = fear + modifier - cou - unit.cou_bonus
        who = "assailant" if unit_charging else "assailed"
        if use_dis:
            who += ", Fanaticism's second try"
        if difficulty <= unit.immune_fear and not use_dis:
            if self.logging:
                self.say(f"  {name(self, unit)} is immune to this Fear (a test as hard passed before): no Courage test")
            return True  # seed (Immunity): any less or equally difficult Courage test is passed
        p = fear_distribution(self.table, cou - (fear + modifier), unit.cou_bonus, unit.best_of)[0][0]
        ok = self.dice.chance(p)
        if self.logging:
            bonus = f" (+{unit.cou_bonus} on the die)" if unit.cou_bonus else ""
            roll = fear_roll(self, cou - (fear + modifier), unit.cou_bonus, unit.best_of, ok, p)
            self.say(f"  {name(self, unit)} ({who}) rolls a Courage test: {label} {cou}{bonus} against FEAR {fear}"
                     f"{f' {modifier:+d}' if modifier else ''} (balance of Power {balance_words(balance)}): "
                     f"{roll}: {'passes' if ok else 'fails'}")  # fmt: skip
        if ok and not use_dis:
            unit.immune_fear = max(unit.immune_fear, difficulty)
        return ok


def balance_words(balance: int) -> str:
    return {3: "3 to 1", 2: "2 to 1", 1: "1 to 1", -2: "1 to 2", -3: "1 to 3"}.get(balance, str(balance))
