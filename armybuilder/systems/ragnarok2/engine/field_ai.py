"""The field player (the default): a line that advances and charges together, on the table.

It keeps the line player's posture and exchange arithmetic (:mod:`.line_ai`) and plays the
table as a player does:

- **Deployment answers the enemy.** Deploying second (decision R2-T8), it orders its line
  against the one on the table (:mod:`.field_deploy`).
- **Each unit has an opponent**: the enemy unit across from it (the nearest, the lateral offset
  weighed twice, so a line meets a line instead of every unit converging on the nearest foe),
  or the marksmen shooting at it when it has none, can reach them within two Runs and would win
  the fray, or an enemy held in a fray with a friend that it can reach within two Runs and gains
  by assailing (a player feeds the frays his line has started; an engaged enemy charges nobody,
  so the unit closes in); it advances toward that opponent, keeping the pace of its side's line.
- **Charges together.** A unit charges when the exchange is worth it (:func:`fray_value`: the
  first exchange, the charge's first strike, the outcome and the rout, and the Courage tests
  Fear asks first), counting as friends the units of its side already ordered to assault the
  same target this round and those that can join it (their reach, edge to edge, from where
  they stand); it does not charge alone into a fight more enemies than friends can join unless
  the exchange covers the extra enemies' blows. A side that attacks, or is under fire, charges
  even exchanges; fast units (cavalry, MOV 15 or more) charge what they reach rather than wait
  under fire.
- **No free first charge to the enemy.** A unit that advances stops out of the charge reach of
  the enemies that would win the exchange by charging it, unless it can itself charge them
  next round from where it stops and its side attacks; it never stops just short of an enemy.
  In the last three rounds a side behind by the draw band presses: its units close in and
  charge what is not clearly lost (waiting loses it the game); a side level keeps to
  worthwhile charges (one expected to lose would turn its draw into a loss).
- **Lanes and cover.** A unit of marksmen marches to a spot from which its marksmen see a
  target in range (sideways along the line when friends stand in its lane), out of the charge
  reach of the enemy; one that can shoot already marches only to a better spot (a nearer band,
  more marksmen seeing, out of a charge's reach); a volley is weighed by the marksmen that see
  its target and the fighters they see. A unit under enemy fire that is not ordered to charge
  prefers, among the spots it can reach, one the enemy marksmen do not see.
- **Supports support**: magicians and faithful keep behind the line, within reach of their
  targets; a unit threatened by a charge it cannot answer waits with a Reaction order and
  withstands, counter-charges or retreats as the exchange says.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .ai import answers_enemy_mystics, casts_its_own, longest_range
from .field_deploy import answer
from .fray_worth import fray_value, seen_share
from .geometry import unit_vector
from .line_ai import LinePolicy, losing, reach
from .policy import Policy, int_score

if TYPE_CHECKING:
    from .assault import AssaultOption
    from .battle import Battle
    from .state import Fighting, Group

FAST = 15.0  # MOV from which a unit rides (cavalry, swift creatures): it charges what it reaches
MARKSMEN_FIRST = 1.5  # a volley at enemy marksmen counts this much more (their volleys to come)
LATERAL_WEIGHT = 2.0  # how much a foe's offset across the table counts against it as an opponent
_PLANS = (("plans", 0), ("plans", 1))
_PRESSED = (("pressed", 0), ("pressed", 1))
PRESSED_ROUNDS = 2  # rounds left after this one from which a side behind presses for a result
GOOD_LANE = 0.75  # share of its marksmen seeing the best target from which a unit looks for no better spot
FIRING_TURN = 40.0  # degrees off the way to its opponent a marksmen unit tries for a better spot
MOVED_AIM = 0.75  # a volley's worth after a March (Aim difficulty +1), against one from where it stood
FRAY_JOINED = 0.25  # share of an engaged foe's A.P. joining its fray is worth beyond the exchange (the fray's outcome tipped)
PRESSED_RISK = 0.25  # share of its A.P. a pressed unit risks on a charge's expected exchange  # the round memo: each side's assault targets, by unit index


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests script players: a subclass in Python)
class FieldPolicy(LinePolicy):
    """The field player (see the module doc)."""

    name = "field"

    # -- deployment ----------------------------------------------------------------------

    def deployment(self, b: Battle, side: int) -> tuple[list[Fighting], list[Fighting]]:
        """The classic order, answered to the enemy's line when it deployed first
        (:mod:`.field_deploy`)."""
        line, back = super().deployment(b, side)
        if 1 - side in b.deployed:
            line = answer(b, side, line)
        return line, back

    # -- who faces whom ---------------------------------------------------------------

    def opponent(self, b: Battle, unit: Fighting) -> tuple[Fighting | None, float]:
        """The enemy unit this unit advances on, and its distance (edge to edge): the marksmen
        shooting at it when it has none of its own and would win a fray with them within two
        Runs, else the enemy across from it."""
        shooter, gap = self.shot_by(b, unit)
        if shooter is not None:
            return shooter, gap
        fray, gap = self.friends_fray(b, unit)
        if fray is not None:
            return fray, gap
        # The enemy across reads the table alone (places, shapes, states): kept while it stands.
        memo = b.plans_now()
        memo_key = ("across", unit.side, unit.index)
        known = memo.get(memo_key)
        if known is not None:
            return known[0], known[1]
        best, best_key, best_gap = None, 1e18, 1e18
        for e in b.sides[1 - unit.side]:
            if not e.alive or e.state == "gone" or e.hidden:
                continue
            gap = b.gap(unit, e)
            lateral = abs(e.box().cx - unit.box().cx) - (e.width + unit.width) / 2.0
            key = gap + LATERAL_WEIGHT * max(0.0, lateral) + (40.0 if e.state == "rout" else 0.0)
            if key < best_key:
                best, best_key, best_gap = e, key, gap
        memo[memo_key] = (best, best_gap)
        return best, best_gap

    def shot_by(self, b: Battle, unit: Fighting) -> tuple[Fighting | None, float]:
        """The nearest enemy marksmen unit that can shoot at *unit* (in range, seeing it), when
        *unit* has no marksmen, could reach it within two Runs and expects to gain from a fray
        with it (a player does not stand under fire he can silence)."""
        if unit.shooting_groups:
            return None, 0.0
        best, best_gap = None, 1e18
        for e in b.sides[1 - unit.side]:
            if not e.shooting_groups or not e.alive or e.state != "valiant" or e.engaged or e.hidden:
                continue
            gap = b.gap(e, unit)
            if gap >= best_gap or gap > 2.0 * reach(unit) + 1.0 or gap > longest_range(e) or not b.sees(e, unit):
                continue
            if fray_value(b, unit, e, True) > 0.0:
                best, best_gap = e, gap
        return best, best_gap

    def friends_fray(self, b: Battle, unit: Fighting) -> tuple[Fighting | None, float]:
        """The nearest enemy fighting a fray with a friend that the unit can reach within two
        Runs and would gain by assailing (a player feeds the frays his line has started: the
        enemy there cannot charge, and every fighter added tips the outcome and the rout)."""
        if unit.shooting_groups:
            return None, 0.0  # marksmen keep shooting
        best, best_gap = None, 1e18
        for e in b.sides[1 - unit.side]:
            if not e.engaged or not e.alive or e.state == "gone" or e.hidden:
                continue
            gap = b.gap(unit, e)
            if gap >= best_gap or gap > 2.0 * reach(unit) + 1.0:
                continue
            if fray_value(b, unit, e, False) + FRAY_JOINED * e.points > 0.0:
                best, best_gap = e, gap
        return best, best_gap

    def pressed(self, b: Battle, side: int) -> bool:
        """Time is against the side: the last rounds (two or fewer left after this one) and it is
        behind by the victory rule's draw band, so waiting loses it the game (a side level keeps
        its draw: charges expected to lose would throw it away)."""
        if b.max_rounds - b.round > PRESSED_ROUNDS:
            return False
        key = _PRESSED[side]
        known = b.round_memo.get(key)
        if known is None:
            known = b.round_memo[key] = losing(b, side)
        return bool(known)

    def planned(self, b: Battle, side: int) -> dict[int, int]:
        plans = b.round_memo.get(_PLANS[side])
        if plans is None:
            plans = b.round_memo[_PLANS[side]] = {}
        return plans

    # -- charges ------------------------------------------------------------------------

    def under_fire(self, b: Battle, unit: Fighting) -> bool:
        """Some enemy marksman can shoot at the unit (in range and seeing it)."""
        for e in b.sides[1 - unit.side]:
            if e.alive and e.state != "rout" and e.shooting_groups and not e.engaged:
                if b.gap(e, unit) <= longest_range(e) and b.sees(e, unit):
                    return True
        return False

    def joiners(self, b: Battle, unit: Fighting, target: Fighting) -> tuple[list[Fighting], int]:
        enemies, friends = super().joiners(b, unit, target)
        plans = self.planned(b, unit.side)
        for f_index, t_index in plans.items():
            if t_index == target.index and f_index != unit.index:
                friends += 1  # ordered to assault the same target this round: it comes too
        return enemies, friends

    def charge_value(self, b: Battle, unit: Fighting, option: AssaultOption) -> float:
        """What charging *option*'s foe is worth in A.P.: :func:`fray_value` of the fray it
        starts, a routed foe's A.P. and a quarter of an engaged one's (another fray to join), less
        half of what the enemies able to charge into that fray next would gain on the unit (the
        gang-up, counted), plus half of what the friends able to join would gain on the foe."""
        e = option.foe
        gain = fray_value(b, unit, e, option.kind == "charge")
        if e.state == "rout":
            gain += e.points
        if e.engaged:
            gain += FRAY_JOINED * e.points
        enemies, _friends = LinePolicy.joiners(self, b, unit, e)
        for other in enemies:
            threat = fray_value(b, other, unit, True)
            if threat > 0.0:
                gain -= 0.5 * threat
        plans = self.planned(b, unit.side)
        for f in b.sides[unit.side]:
            if f is unit or not f.alive or f.state != "valiant" or f.engaged or f.activated:
                continue
            if plans.get(f.index) == e.index:  # ordered to assault it too this round
                help_ = fray_value(b, f, e, True)
                if help_ > 0.0:
                    gain += 0.5 * help_
        return gain

    def wants_charge(self, b: Battle, unit: Fighting, option: AssaultOption, attacking: bool, fire: bool) -> bool:
        """Worth charging now (see the module doc)."""
        value = self.charge_value(b, unit, option)
        bold = attacking or fire
        if self.pressed(b, unit.side):
            return value > -PRESSED_RISK * max(unit.points, 1)
        if value <= 0.0 and not (bold and value > -0.1 * max(unit.points, 1)):
            return False
        return True  # (the gang-up is in the value)

    def pick(self, b: Battle, unit: Fighting, options: list[AssaultOption]) -> AssaultOption | None:
        """The option this unit would charge now, or None."""
        if not options:
            return None
        attacking = self.attacking(b, unit.side)
        fire = self.under_fire(b, unit)
        ranked = sorted(options, key=lambda o: (-int_score(self.charge_value(b, unit, o)), o.kind != "charge", o.foe.index))
        for option in ranked:
            if self.wants_charge(b, unit, option, attacking, fire):
                return option
        return None

    # -- orders -------------------------------------------------------------------------

    def choose_order(self, b: Battle, unit: Fighting, foes: list[Fighting]) -> str:
        if unit.engaged:
            return self.engaged_order(b, unit)
        if not foes:
            return ""
        chosen = self.pick(b, unit, b.assault_options(unit))
        if chosen is not None:
            self.planned(b, unit.side)[unit.index] = chosen.foe.index
            return "assault"
        if unit.shooting_groups and self.shot_in_reach(b, unit):
            return "support"
        if casts_its_own(b.info, unit) and (unit.troops.magician_pow or unit.troops.faith):
            return "support"  # a unit of magicians or faithful supports; a fighting unit with a mystic fights
        if answers_enemy_mystics(b.info, unit, foes) and not self.attacking(b, unit.side):
            return "reaction"
        if self.threatened_badly(b, unit) and not self.pressed(b, unit.side):
            return "reaction"
        return "progress"

    def change_of_plans(self, b: Battle, unit: Fighting) -> str | None:
        """Change of plans: the order this player would give the unit from the table as it stands
        when the unit is activated, when it differs from the one given (an assault target come
        into reach or gone out of it, marksmen with a target). Never a Reaction: one revealed as
        the unit is activated waits for no assault (it stays where it stands)."""
        foes = [e for e in b.sides[1 - unit.side] if e.alive]
        order = self.choose_order(b, unit, foes)
        return order if order and order != unit.order and order != "reaction" else None

    def shot_in_reach(self, b: Battle, unit: Fighting) -> bool:
        """Some foe within the marksmen's longest range after a March (seen or not: it can move
        to see it)."""
        longest = longest_range(unit)
        if longest <= 0.0:
            return False
        for e in b.sides[1 - unit.side]:
            if e.alive and e.state != "gone" and not e.hidden and b.gap(unit, e) <= longest + unit.mov:
                return True
        return False

    def threatened_badly(self, b: Battle, unit: Fighting) -> bool:
        """An enemy that would gain by charging it can reach it, and it gains nothing by
        charging that enemy: it waits with a Reaction (withstand, counter-charge, retreat)."""
        for e in b.sides[1 - unit.side]:
            if e.count > 0 and e.state == "valiant" and not e.engaged:
                if b.gap(e, unit) <= reach(e) and b.in_view(e, unit) and fray_value(b, e, unit, True) > 0.0:
                    if fray_value(b, unit, e, True) <= 0.0 or b.gap(unit, e) > reach(unit):
                        return True
        return False

    def assault_target(self, b: Battle, unit: Fighting, options: list[AssaultOption]) -> AssaultOption | None:
        plans = self.planned(b, unit.side)
        wanted = plans.get(unit.index)
        if wanted is not None:
            for option in options:
                if option.foe.index == wanted and option.foe.state != "gone":
                    return option
        chosen = self.pick(b, unit, options)
        if chosen is None and options:
            # Ordered to assault: the best of what it reaches rather than nothing.
            ranked = sorted(options, key=lambda o: (-int_score(self.charge_value(b, unit, o)), o.foe.index))
            chosen = ranked[0] if self.charge_value(b, unit, ranked[0]) > -0.5 * max(ranked[0].foe.points, 1) else None
        return chosen

    def reaction(self, b: Battle, unit: Fighting, assailant: Fighting) -> str | None:
        mine, theirs = b._exchange_values(unit, assailant)
        if b.gap(unit, assailant) <= reach(unit) and b.in_view(unit, assailant) and mine >= 0.8 * theirs:
            return "counter-charge"
        if theirs > 1.5 * mine and b.in_view(unit, assailant) and unit.mov * 1.0 + b.gap(unit, assailant) > reach(assailant):
            return "retreat"  # a step back takes it out of the assailant's reach
        return "withstand"

    def shooting_target(self, b: Battle, unit: Fighting, shooters: list[Group]) -> Fighting | None:
        """The best volley (:meth:`best_volley`), or None when nothing is worth a shot."""
        return self.best_volley(b, unit, shooters)[0]

    def best_volley(self, b: Battle, unit: Fighting, shooters: list[Group], looks: int = 2) -> tuple[Fighting | None, float, float, float]:
        """The target of the volley worth most, its worth, the share of the marksmen that shoot
        and its distance: the A.P. the volley is expected to take with the marksmen that see the
        target and no more losses than the fighters they see (fighter by fighter, as the volley
        is shot: :func:`seen_share`), and marksmen first: each A.P. of enemy marksmen destroyed
        also takes a share of the enemy's volleys to come, so it counts half as much again. The
        *looks* targets worth most with every marksman seeing are looked at fighter by fighter
        (that costs: the others rarely beat them; none from a trial spot, where every marksman is
        taken to see); kept while nothing moves."""
        key = ("volley", unit.side, unit.index, looks)
        first = shooters[0] if shooters else None
        known = b.round_memo.get(key)
        stamp = b.table_stamp()
        if known is not None and known[0] == stamp and known[1] == unit.geo and known[2] is first and known[3] == len(shooters):
            return known[4]
        ranked = []
        for e, d in b.shooting_candidates(unit, shooters):
            value = b.volley_value(unit, shooters, e, d)
            if e.shooting_groups and any(g.count for g in e.shooting_groups):
                value *= MARKSMEN_FIRST
            if value > 0.0:
                ranked.append((-int_score(value), e.index, value, e, d))
        ranked.sort(key=lambda r: (r[0], r[1]))
        best: tuple[Fighting | None, float, float, float] = (None, 0.0, 0.0, 0.0)
        if looks <= 0 and ranked:
            _key, _index, value, e, d = ranked[0]
            best = (e, value, 1.0, d)  # every marksman taken to see it (a trial spot: no aims)
        for _key, _index, value, e, d in ranked[:looks]:
            if value <= best[1]:
                break
            share = seen_share(b, unit, shooters, e)
            if value * share > best[1]:
                best = (e, value * share, share, d)
        b.round_memo[key] = (stamp, unit.geo, first, len(shooters), best)
        return best

    # -- activations --------------------------------------------------------------------

    def pick_activation(self, b: Battle, side: int, queue: list[Fighting]) -> int:
        """Charges and volleys first (before the enemy moves out of reach or charges first), then
        the units whose opponent has already acted this round (it cannot charge them before next
        round, so they may close in), the others last (an enemy that acts in the meantime may
        open the way, or come into their reach)."""
        best, best_key = len(queue) - 1, None
        for i, u in enumerate(queue):
            if not u.alive or u.activated:
                key = (-1, 0, i)
            elif u.order == "assault" and (u.engaged or b.assault_options(u)):
                key = (5, u.points, i)
            elif u.order == "support":
                key = (4, u.points, i)
            elif u.order == "progress" or u.order == "":
                target, _gap = self.opponent(b, u)
                ready = target is None or target.activated or target.engaged or target.state == "rout"
                key = (3 if ready else 1, u.points, i)
            elif u.order == "assault":
                key = (2, u.points, i)
            else:
                key = (0, u.points, i)  # reactions wait for an assault
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    def wants_to_pass(self, b: Battle, side: int, queue: list[Fighting], nxt: Fighting) -> bool:
        """Pass rather than move a unit whose opponent has not acted yet, while passes last."""
        if nxt.order == "assault" and (nxt.engaged or b.assault_options(nxt)):
            return False
        if nxt.order in ("progress", "", "assault"):
            target, _gap = self.opponent(b, nxt)
            return target is not None and not target.activated and not target.engaged
        return False

    # -- movement -------------------------------------------------------------------------

    def safe_stop(self, b: Battle, unit: Fighting, target: Fighting, gap: float) -> float:
        """How far from *target* the unit stops (see the module doc): anywhere when the target
        gains nothing by charging it; out of its reach but within ours when ours is longer; within
        our reach when the target has acted this round and the fray next round is worth more to
        us than to it (whoever activates first charges), or when time is against us; else out of
        its reach."""
        if not (target.count > 0 and target.state in ("valiant", "disorganized")) or target.engaged:
            return 1.0  # it charges nobody (routed, or held in a fray): close in
        theirs_reach = reach(target)
        mine_reach = reach(unit)
        theirs = fray_value(b, target, unit, True)
        if theirs <= 0.0:
            return 1.0  # it would not gain by charging: close in
        if mine_reach > theirs_reach + 1.0:
            return theirs_reach + 1.0  # out of its reach, within ours next round
        attacking = self.attacking(b, unit.side)
        if self.pressed(b, unit.side) or (attacking and (self.outshot(b, unit.side) or losing(b, unit.side))):
            return max(1.0, mine_reach - 2.0)  # time is against it: into reach, whoever charges
        if not unit.shooting_groups and self.under_fire(b, unit) and fray_value(b, unit, target, True) > -0.1 * unit.points:
            return max(1.0, mine_reach - 2.0)  # waiting under fire loses: close in and charge next
        if target.activated and attacking and fray_value(b, unit, target, True) >= theirs:
            return max(1.0, mine_reach - 2.0)  # it cannot charge before next round: come within reach
        return theirs_reach + 1.0

    def line_limit(self, b: Battle, unit: Fighting) -> float | None:
        if self.outshot(b, unit.side) or unit.mov >= FAST or self.pressed(b, unit.side):
            return None
        if self.shot_by(b, unit)[0] is not None:
            return None  # it goes for the marksmen shooting at it, whatever its line does
        return self.advance_limit(b, unit)

    def progress_move(self, b: Battle, unit: Fighting) -> tuple[float, float, bool, float] | None:
        target, gap = self.opponent(b, unit)
        if target is None:
            return None
        stop = self.safe_stop(b, unit, target, gap)
        longest = longest_range(unit)
        if longest > 0.0 and not self.attacking(b, unit.side):
            # Marksmen run to a firing position: their range, out of the enemy's charge reach.
            keep = max((reach(e) + 1.0 for e in b.sides[1 - unit.side] if e.alive and e.state == "valiant"), default=1.0)
            stop = max(stop, min(longest - 5.0, max(keep, longest * 0.6)))
        if gap <= stop + 0.5:
            return None  # where it should be
        _face, x, y, _fx, _fy = b.contact_spot(unit, target)
        dist = math.hypot(x - unit.x, y - unit.y)
        if dist < 1e-6:
            return None
        want = max(0.0, gap - stop) if gap < dist else max(0.0, dist - stop)
        limit = self.line_limit(b, unit)
        if limit is not None:
            ahead = (y - unit.y) / dist * (1.0 if unit.side == 0 else -1.0)
            if ahead > 1e-6 and want * ahead > limit:
                want = max(limit / ahead, 0.0)
        if want < 2.0:
            return None  # a step of a centimetre or two is no move worth a Run
        cover = self.covered_spot(b, unit, x, y, dist, want)
        if cover is not None:
            return cover
        want = self.safe_length(b, unit, target, x, y, dist, want)
        if want < 2.0:
            return None
        return x, y, True, dist - want

    def safe_length(self, b: Battle, unit: Fighting, target: Fighting, x: float, y: float, dist: float, want: float) -> float:
        """How far along its way toward (x, y) the unit may go without ending in the charge reach
        of an enemy (other than its opponent, whose distance safe_stop() chose) that would gain
        by charging it, halving the move until it is safe (0: not even a step)."""
        hx, hy = (x - unit.x) / dist, (y - unit.y) / dist
        threats = []
        for e in b.sides[1 - unit.side]:
            if e is target or e.count <= 0 or e.state != "valiant" or e.engaged or e.hidden:
                continue
            if b.gap(e, unit) > reach(e) + want + 1.0:
                continue  # out of its reach wherever this move ends
            if fray_value(b, e, unit, True) > 0.0:
                threats.append(e)
        if not threats:
            return want
        from .geometry import box_from_front, box_gap

        length = want
        while length >= 2.0:
            end = box_from_front(unit.x + hx * length, unit.y + hy * length, hx, hy, unit.width, unit.depth)
            if all(box_gap(e.box(), end) > reach(e) for e in threats):
                return length
            length *= 0.5
        start_safe = all(b.gap(e, unit) > reach(e) for e in threats)
        return 0.0 if start_safe else want  # already in reach: moving on costs nothing more

    def covered_spot(self, b: Battle, unit: Fighting, x: float, y: float, dist: float, want: float) -> tuple[float, float, bool, float] | None:
        """Under enemy fire and not charging: a spot toward the goal, shifted sideways, where no
        enemy marksman in range sees the unit, when one is found (else None: the straight move)."""
        if not unit.shooting_groups and not b.field.sight:
            return None
        shooters = [e for e in b.sides[1 - unit.side] if e.alive and e.state != "rout" and e.shooting_groups and not e.engaged]
        if not shooters or not self.under_fire(b, unit):
            return None
        hx, hy = (x - unit.x) / dist, (y - unit.y) / dist
        px, py = hy, -hx
        for side_step in (8.0, -8.0, 16.0, -16.0):
            tx, ty = unit.x + hx * want + px * side_step, unit.y + hy * want + py * side_step
            if self._hidden_from(b, unit, tx, ty, shooters):
                return tx, ty, False, 0.0
        return None

    def _hidden_from(self, b: Battle, unit: Fighting, tx: float, ty: float, shooters: list[Fighting]) -> bool:
        from .geometry import box_from_front, segment_hits_box

        box = box_from_front(tx, ty, unit.ux, unit.uy, unit.width, unit.depth)
        for e in shooters:
            eb = e.box()
            if math.hypot(box.cx - eb.cx, box.cy - eb.cy) > longest_range(e) + 10.0:
                continue
            for p in b.field.sight:
                if p.rank >= unit.size_rank and segment_hits_box(eb.cx, eb.cy, box.cx, box.cy, p.box):
                    break
            else:
                return False
        return True

    def support_move(self, b: Battle, unit: Fighting) -> tuple[float, float, bool, float] | None:
        """Marksmen march to a lane: toward the opponent until in range and seeing a target,
        sideways when a friend blocks the lane, never into an enemy's charge reach."""
        if not unit.shooting_groups:
            return None  # mystics keep their place behind the line
        shooters = b.shooters(unit)
        if b.shooting_candidates(unit, shooters):
            # Something to shoot from here: a March is worth it only to a better spot.
            spot = self.firing_spot(b, unit, shooters)
            return None if spot is None else (spot[0], spot[1], False, 0.0)
        target, gap = self.opponent(b, unit)
        if target is None:
            return None
        keep = max((reach(e) + 1.0 for e in b.sides[1 - unit.side] if e.alive and e.state in ("valiant", "disorganized")), default=1.0)
        longest = longest_range(unit)
        _face, x, y, _fx, _fy = b.contact_spot(unit, target)
        dist = math.hypot(x - unit.x, y - unit.y)
        if dist < 1e-6:
            return None
        want = min(unit.mov, max(0.0, gap - max(keep, min(longest - 2.0, gap))))
        if want < 0.5 and not b.sees(unit, target):
            # in range but blocked: step sideways along the line (toward the table's middle)
            side_x = 1.0 if unit.x < b.field.width / 2.0 else -1.0
            return unit.x + side_x * unit.mov, unit.y, False, 0.0
        if want < 0.5:
            return None
        return x, y, False, dist - want

    def firing_spot(self, b: Battle, unit: Fighting, shooters: list[Group]) -> tuple[float, float] | None:
        """Where marksmen that can shoot from where they stand shoot better: a March toward
        their opponent, straight or 40° to either side, when from its end the best volley (its
        Aim worsened by the move) less the worst charge an enemy could make there is worth more
        than from here (a nearer band, a lane past a friend or a piece of scenery, out of the
        reach of what would charge them); None: they stay."""
        target, _gap = self.opponent(b, unit)
        if target is None:
            return None
        aim, _value, share, distance = self.best_volley(b, unit, shooters)
        medium = min((g.profile.ranged.medium for g in shooters if g.profile.ranged is not None), default=0.0)
        if aim is not None and share >= GOOD_LANE and distance <= medium:
            return None  # most marksmen see it at medium range or nearer: a move would cost Aim
        best, best_key = None, int_score(self.spot_worth(b, unit, shooters, False))
        tb = target.box()
        hx, hy = unit_vector(tb.cx - unit.x, tb.cy - unit.y)
        for degrees in (0.0, FIRING_TURN, -FIRING_TURN):
            r = math.radians(degrees)
            ax, ay = hx * math.cos(r) - hy * math.sin(r), hx * math.sin(r) + hy * math.cos(r)
            plan = b.plan_travel(unit, unit.x + ax * unit.mov, unit.y + ay * unit.mov, unit.mov, straight=False)
            if plan is None or plan[4] < 1.0:
                continue
            saved = b.try_spot(unit, plan[0], plan[1], plan[2], plan[3])  # (the table's memos hold)
            try:
                key = int_score(self.spot_worth(b, unit, shooters, True))
            finally:
                b.end_trial(unit, saved)
            if key > best_key:
                best, best_key = (plan[0], plan[1]), key
        return best

    def spot_worth(self, b: Battle, unit: Fighting, shooters: list[Group], moved: bool) -> float:
        """The best volley from where the unit stands (A.P., enemy marksmen first; a quarter
        less after a move: Aim +1) less the most an enemy able to charge it there would gain
        (half for one that already acted this round: it charges next round, if at all)."""
        fire = self.best_volley(b, unit, shooters, 2 if not moved else 0)[1]
        if moved:
            fire *= MOVED_AIM
        threat = 0.0
        for e in b.sides[1 - unit.side]:
            if e.count <= 0 or e.state not in ("valiant", "disorganized") or e.engaged or e.hidden:
                continue
            if b.gap(e, unit) <= reach(e) and b.in_view(e, unit):
                gain = fray_value(b, e, unit, True) * (0.5 if e.activated else 1.0)
                if gain > threat:
                    threat = gain
        return fire - threat

    def engaged_order(self, b: Battle, unit: Fighting) -> str:
        mine, theirs = b.engaged_exchange_values(unit)
        return "progress" if int_score(theirs) > 3 * int_score(mine) and int_score(theirs) > 0 else "assault"


POLICIES: dict[str, type[Policy]] = {"field": FieldPolicy, "line": LinePolicy, "classic": Policy}
"""The players by name: the default, the line player it is measured against, the classic one."""
