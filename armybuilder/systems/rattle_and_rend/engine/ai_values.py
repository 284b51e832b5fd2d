"""What the default player (:class:`~.ai.ScoringPolicy`) thinks things are worth: an enemy as a
target, a step towards the goal, each reaction it is offered, and its answers to the trait and
reaction choices. Values are in momentum points: removing one enemy point is worth
:data:`REMOVE_VALUE` (the enemy loses it every round to come), and one point of momentum spent
weighs :data:`COST_WEIGHT`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from .board import INF, dist, hypot, terrain_at
from .dice import check_probabilities, dice_count
from .policy import Policy
from .state import Action, Offer, Side, Unit

if TYPE_CHECKING:
    from .game import Game

REMOVE_VALUE: Final = 3.0  # value of removing one enemy point, in momentum points (it is lost every round)
COST_WEIGHT: Final = 0.45  # how much one momentum point spent weighs against that
#: reactions the player declares only above this value (a momentum point, and the initiative given up)
REACT_AT: Final = 0.9
#: the board memo's keys of each side's enemies' version (built once, not on every call)
_FOES_KEYS: Final = (("foes", 0), ("foes", 1))


@mypyc_attr(allow_interpreted_subclasses=True)
class ValuingPolicy(Policy):
    """Values, goals and the answers to reactions and traits of the default player. ``forbid``
    names options it must not use (the option checks play a list with and without one)."""

    name = "valuing"

    def __init__(self, forbid: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.forbid = forbid
        # kept across boards, keyed by a group's uid and position and the enemies' version
        # (_foes_version): nearest enemies (a group's Charge target is kept on the group)
        self.foes_versions: dict[tuple[object, ...], int] = {}
        self.goal_memo: dict[tuple[object, ...], tuple[float, float]] = {}
        self.rest_odds: dict[int, tuple[float, float, float]] = {}  # Guile -> P(fail, success, critical) of Rest
        self.weight_now = 0.35  # move_weight() while options are scored

    # ------------------------------------------------------------------ the board memo

    def open_board(self, g: Game) -> None:
        """Nothing moves while options are scored, so line of sight and goals are cached for the
        call - and for the next calls while no group moves, enters or leaves, no marker changes
        hands and no stat changes (the board signature): most actions (Rest, a failed attack, a
        refused reaction) leave the board as it was. The signature is compared field by field
        with the one kept, each group's place against the one kept on it."""
        units = g.units
        weight = self.move_weight(g)  # the round and scenario hold while options are scored
        same = weight == self.weight_now and g.stats_version == g.board_stats and g.board_count == len(units)
        for o in units:  # every group's place now kept on it, the change noted
            if o.seen_x != o.x or o.seen_y != o.y or o.seen_state != o.state:
                same = False
                o.seen_x, o.seen_y, o.seen_state = o.x, o.y, o.state
        holders = tuple([(m.holder.uid if m.holder is not None else None, m.off) for m in g.markers]) if g.markers else ()
        if not same or holders != g.board_signature:
            g.board_count = len(units)
            g.board_stats = g.stats_version
            g.board_signature = holders
            g.board_memo = {}  # one move weight per memo: plans keep what depends on it as is
        g.cache = g.board_memo
        self.weight_now = weight

    def _foes_version(self, g: Game, side: int) -> int:
        """A number for where the enemies of ``side`` stand (and who holds the markers): equal
        numbers, equal enemies. What depends on nothing else (a group's Charge target, its
        nearest enemy) is kept across boards under it with the group's own position."""
        memo = g.cache if g.cache is not None else {}
        key = _FOES_KEYS[side]
        found: int | None = memo.get(key)
        if found is None:
            foes = tuple([(e.uid, e.x, e.y) for e in g.sides[1 - side].units if e.state == "board"])
            found = memo[key] = self.foes_versions.setdefault((foes, g.board_signature), len(self.foes_versions))
        return found

    # ------------------------------------------------------------------ goals and values

    def goal(self, g: Game, u: Unit) -> tuple[float, float]:
        """:meth:`Policy.goal`, remembered while options are scored (the nearest-enemy goals of
        Kill Them All and Duel across boards, while the enemies stand where they stood)."""
        memo = g.cache
        if memo is None:
            return Policy.goal(self, g, u)
        if u.memo_of is not memo:  # kept on the group for this memo (Unit.memo_of)
            u.memo_of, u.plan, u.in_range, u.goal = memo, None, None, None
        found = u.goal
        if found is None:
            if g.scenario in ("kill-them-all", "duel"):
                far = (u.uid, u.x, u.y, self._foes_version(g, u.side))
                found = self.goal_memo.get(far)
                if found is None:
                    found = self.goal_memo[far] = Policy.goal(self, g, u)
            else:
                found = Policy.goal(self, g, u)
            u.goal = found
        return found

    def target_value(self, g: Game, t: Unit) -> float:
        """An enemy group as a target: its points × :data:`REMOVE_VALUE`, more for a Duel target
        and for a flag carrier."""
        value = t.points * REMOVE_VALUE
        if g.scenario == "duel" and t.duel_target:
            value *= 2.5
        if g.markers and any(m.holder is t for m in g.markers):
            value += 2.0
        return value

    def move_weight(self, g: Game) -> float:
        """Value of 80 mm of progress towards the goal: more in objective scenarios, late."""
        if g.scenario in ("king-of-the-hill", "capture-the-flags", "conquest"):
            return 1.0 if g.round >= 3 else 0.6
        return 0.35

    def move_value(self, g: Game, u: Unit, ex: float, ey: float) -> float:
        """Progress towards the goal, less half a point for ending in rough terrain one is not
        headed for (leaving it costs a Guile check or a momentum point)."""
        gx, gy = self.goal(g, u)
        progress = dist(u.x, u.y, gx, gy) - dist(ex, ey, gx, gy)
        value = self.weight_now * progress / 80.0
        if g.pieces and terrain_at(g.pieces, ex, ey) == "rough" and terrain_at(g.pieces, gx, gy) != "rough":
            value -= 0.5
        return value

    def p_fail_will(self, g: Game, u: Unit, penalty: int) -> float:
        return check_probabilities(u.will, dice_count(1 if u.attached else 0, penalty, g.dice_table))[0]

    def threat(self, g: Game, actor: Unit) -> float:
        """How much an enemy group's action may cost its foes: its best expected removal."""
        best = 0.6
        for e in g.enemies(actor):
            if g.within(actor, e, g.wider[actor.rng] if actor.mov else actor.rng):
                p_break, _ = g.expected_break(actor, e, 0, 0)
                best = max(best, p_break * e.points * REMOVE_VALUE)
        return best

    # ------------------------------------------------------------------ reactions

    def offer_value(self, g: Game, ctx: Action, o: Offer) -> float:
        """What the reacting side expects of reaction ``o`` (momentum points)."""
        name, r, foe = o.name, o.reactor, o.foe
        if name == "Intimidate":
            return g.p_success(r.fury) * self.threat(g, ctx.actor)
        if name == "Detonate":
            caught = [u for u in g.units if u.state == "board" and u is not r and g.within(r, u, r.rng)]
            gain = sum(u.points * self.p_fail_will(g, u, 1) * (1 if u.side != r.side else -1) for u in caught)
            return gain * REMOVE_VALUE - r.points
        if name == "Suppression" and foe is not None:
            pb, _ = g.expected_break(r, foe, *g.attack_dice(r, foe, False, 0, 0, "suppression"))
            return pb * foe.points * REMOVE_VALUE + 0.3
        if name == "Evade":
            danger = 1.5 if ctx.target is r else 0.4
            return g.p_success(r.guile) * danger * r.points
        if name == "Follow":
            return 1.0 if r.warding in ("detonate", "sacrifice", "defiance") else 0.5
        if name == "Pursuit":  # staying on a fleeing enemy's heels: the next attack is its worth
            return g.p_success(r.guile) * (1.2 + 0.4 * r.points)
        if name == "Countercharge" and foe is not None:
            pb, _ = g.expected_break(r, foe, 0, 0)
            value = pb * foe.points * REMOVE_VALUE + 0.2
            if g.sides[foe.side].has("fearsome") and not g.sides[r.side].has("fearsome"):
                value *= g.p_success(r.guile)
            return value
        if name == "Regroup":
            return 0.6 + 0.6 * g.p_success(r.guile)
        if name == "Confusion" and foe is not None:
            pb, _ = g.expected_break(foe, r, 0, 0)
            return g.p_success(r.guile) * (pb * r.points * REMOVE_VALUE + 0.5)
        if name == "Sacrifice" and foe is not None and o.ally is not None:
            own = self.p_fail_will(g, o.ally, 0) * o.ally.points
            theirs = check_probabilities(r.will, dice_count(1 + (1 if r.attached else 0), 0, g.dice_table))[0] * r.points
            return (own - theirs) * REMOVE_VALUE
        if name == "Defiance" and foe is not None:
            pb, _ = g.expected_break(r, foe, 1, 0)
            return pb * foe.points * REMOVE_VALUE + 0.2
        if name == "Vengeance":
            return 2 * g.p_success(r.fury)
        if name == "Rally" and o.ally is not None:
            w = o.ally
            return g.p_success(r.fury) * 2 * len([a for a in g.sides[r.side].units if a.state == "board" and g.within(w, a, w.rng)])
        if name == "Reversal":
            return 1.0 + g.p_success(r.guile)
        return 0.0

    def react(self, g: Game, side: Side, ctx: Action, offers: list[Offer]) -> Offer | None:
        best: Offer | None = None
        best_value = REACT_AT
        for o in offers:
            if o.name.lower() in self.forbid:
                continue
            value = self.offer_value(g, ctx, o)
            if value >= best_value and (best is None or value > best_value):
                best, best_value = o, value
        return best

    def refuse(self, g: Game, side: Side, ctx: Action, offer: Offer) -> bool:
        """Refuse a reaction worth a point or more to the enemy when the enemy has no momentum left
        to insist (a refusal it can answer only costs both a point), while the side keeps 2 to act."""
        reactor = g.sides[offer.reactor.side]
        return reactor.momentum < 1 and side.momentum >= 2 and self.offer_value(g, ctx, offer) >= 1.0

    def insist(self, g: Game, side: Side, ctx: Action, offer: Offer) -> bool:
        """The point already spent is gone: insist while the reaction is worth another one."""
        return self.offer_value(g, ctx, offer) >= REACT_AT

    # ------------------------------------------------------------------ traits' choices

    def soothsay(self, g: Game, side: Side, u: Unit, what: str, before: int, after: int) -> bool:
        if "soothsayers" in self.forbid:
            return False
        return Policy.soothsay(self, g, side, u, what, before, after)

    def extra_targets(self, g: Game, u: Unit, first: Unit, others: list[Unit]) -> list[Unit]:
        if "colossal" in self.forbid:
            return []
        return sorted(others, key=lambda e: (-g.expected_break(u, e, 0, 0)[0] * self.target_value(g, e), e.uid))[:2]

    def coordinate(self, g: Game, u: Unit, partners: list[Unit]) -> Unit | None:
        return None if "coordinated" in self.forbid else partners[0]

    def tactic(self, g: Game, side: Side) -> str | None:
        """[Tacticians] reach when it brings enemies into the range of groups that cannot touch them
        now, else move when the line groups are far from their goals, else Fury."""
        if "tacticians" in self.forbid:
            return None
        line = [u for u in side.units if u.state == "board" and u.gtype in ("fighters", "shooters", "skirmishers") and u.base_mov]
        if not line:
            return "fury"
        in_range = gained = far = 0
        for u in line:
            foes = g.enemies(u)
            if not foes:
                continue
            near = min(hypot(u.x - e.x, u.y - e.y) for e in foes)
            band = g.mm(u.base_rng) if u.base_rng != "B" else u.radius * 2
            wider = g.mm(g.wider[u.base_rng])
            if near <= band + u.radius * 2:
                in_range += 1
            elif near <= wider:
                gained += 1
            elif near > g.mm(u.base_mov) + band + 40:
                far += 1
        if gained > in_range:
            return "reach"
        if far * 2 > len(line):
            return "move"
        return "fury"

    def reserves(self, g: Game, side: Side, pool: list[Unit], limit: int, minimum: int, why: str) -> list[Unit]:
        if why == "ambush":
            if "ambushers" in self.forbid:
                return []
            # one group only, the dearest Skirmishers or Fighters, which comes in when its charge
            # from a legal spot reaches (ScoringPolicy._ambush): measured with `armybuilder bench
            # --options` (1,500 games), it beats the same warband deployed whole; holding back
            # half the warband, as the trait allows, does not
            return Policy.reserves(self, g, side, pool, limit, minimum, why)[:1]
        return Policy.reserves(self, g, side, pool, limit, minimum, why)

    def resurrect(self, g: Game, side: Side, out: list[Unit], budget: int) -> list[Unit]:
        return [] if "resurrectionists" in self.forbid else Policy.resurrect(self, g, side, out, budget)

    def teleport(self, g: Game, side: Side, budget: int) -> list[tuple[Unit, tuple[float, float]]]:
        return [] if "teleporters" in self.forbid else Policy.teleport(self, g, side, budget)

    def duel_targets(self, g: Game, side: Side, pool: list[Unit]) -> list[Unit]:
        """The enemy groups hardest to keep alive for their owner: the weakest Will, then the fewest points."""
        return sorted(pool, key=lambda u: (-(u.will or 21), u.points, u.uid))

    def nearest(self, g: Game, u: Unit, others: list[Unit]) -> Unit | None:
        best: Unit | None = None
        near = INF
        for e in others:
            d = hypot(u.x - e.x, u.y - e.y)
            if d < near:
                best, near = e, d
        return best
