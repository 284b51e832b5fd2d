"""The players of a Rattle and Rend game: every choice the seed leaves to a player, behind one
interface (the engine protocol, ``armybuilder/core/engine.py``).

The rules (the phase modules) decide what is legal and what happens; a :class:`Policy` answers
when the rules ask: which action to give and to whom (:meth:`Policy.act`), which reaction to
declare, whether to refuse or insist, what to bid for the initiative, where a moving group goes,
where a beaten enemy is pushed, what a trait's choice is (Tacticians, Soothsayers, Duel targets,
reserves, Resurrectionists, Teleporters). The rules then check the answer. A game holds one
policy per side, so two policies can play each other (``game.POLICIES``).

:class:`Policy` gives the ordinary answers every player shares (and the shape a new one
overrides); :class:`GreedyPolicy` is a plain yardstick (the best attack at hand, else a move,
never a champion action); the default player, :class:`~.ai.ScoringPolicy`, is in :mod:`ai`.
A policy that needs chance draws from the game's uniforms (``g.dice``), so a game replays
from its seed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from .board import BOARD, INF, clamp, dist, hypot
from .state import Action, Marker, Offer, Order, Side, Unit

if TYPE_CHECKING:
    from .game import Game


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests script players: a subclass in Python)
class Policy:
    """The interface, with the answers every player shares."""

    name = "policy"

    def __init__(self) -> None:
        pass

    # ------------------------------------------------------------------ a turn

    def act(self, g: Game, side: Side) -> Order | None:
        """The next action the side gives on its turn, or None to pass."""
        return None

    def reversal(self, g: Game, side: Side, ally: Unit) -> Order | None:
        """A Reversal's free standard action for ``ally`` (None: none after all)."""
        return None

    def bid(self, g: Game, side: Side, top: int) -> int:
        """The secret initiative bid, 0 to ``top``: up to a quarter of the momentum, drawn."""
        most = min(top, side.momentum // 4)
        return min(most, int(g.dice.u() * (most + 1)))

    def act_first(self, g: Game, side: Side) -> bool:
        """Having won the initiative: act first (True) or let the enemy begin."""
        return True

    # ------------------------------------------------------------------ reactions

    def react(self, g: Game, side: Side, ctx: Action, offers: list[Offer]) -> Offer | None:
        """Which of the offered reactions to declare, or None."""
        return None

    def refuse(self, g: Game, side: Side, ctx: Action, offer: Offer) -> bool:
        """As the active side: refuse the enemy's declared reaction for 1 momentum."""
        return False

    def insist(self, g: Game, side: Side, ctx: Action, offer: Offer) -> bool:
        """As the reactive side, refused: insist for 1 more momentum."""
        return False

    # ------------------------------------------------------------------ where groups go

    def goal(self, g: Game, u: Unit) -> tuple[float, float]:
        """Where ``u`` is headed (its moves, a Crashing Wave, Vengeance, DEFY!): the scenario's
        objective, else the nearest enemy (the nearest Duel target first)."""
        if g.scenario == "king-of-the-hill" and g.hill is not None:
            return g.hill.x, g.hill.y
        if g.scenario == "capture-the-flags":
            held = next((m for m in g.markers if m.holder is u), None)
            if held is not None:
                edges = [(u.x, 0.0), (u.x, BOARD), (0.0, u.y), (BOARD, u.y)]
                return min(edges, key=lambda e: dist(u.x, u.y, e[0], e[1]))
            free = [m for m in g.markers if not m.off and (m.holder is None or m.holder.side != u.side)]
            if free:
                m = min(free, key=lambda m: dist(u.x, u.y, m.x, m.y))
                return m.x, m.y
        if g.scenario == "conquest":
            # the zone where u's side is furthest behind (then the nearest, then the first); u's
            # own points do not count for its side there
            zones = g.zone_points()
            mine, theirs = list(zones[u.side]), zones[1 - u.side]
            if u.state == "board":
                mine[min(3, int(u.x // 100))] -= u.points
            ux = u.x
            zone, best_gap, best_far = 0, mine[0] - theirs[0], abs(50 - ux)
            for z in (1, 2, 3):
                gap, far = mine[z] - theirs[z], abs(z * 100 + 50 - ux)
                if gap < best_gap or (gap == best_gap and far < best_far):
                    zone, best_gap, best_far = z, gap, far
            return zone * 100 + 50, min(max(u.y, 60.0), BOARD - 60)
        enemies = g.enemies(u)
        if g.scenario == "duel":
            targets = [e for e in enemies if e.duel_target]
            if targets:
                t = min(targets, key=lambda e: dist(u.x, u.y, e.x, e.y))
                return t.x, t.y
        if enemies:  # the nearest enemy, the first on a tie
            ux, uy = u.x, u.y
            t, near = enemies[0], INF
            for e in enemies:
                d = hypot(ux - e.x, uy - e.y)
                if d < near:
                    t, near = e, d
            return t.x, t.y
        return u.x, u.y

    def defy_move(self, g: Game, u: Unit) -> tuple[float, float] | None:
        """After its DEFY!, where ``u`` moves (up to its MOV; None: it stays)."""
        return self.goal(g, u)

    def push(self, g: Game, by: Unit, u: Unit) -> tuple[float, float] | None:
        """After ``u``'s Stand Firm against ``by``: where ``by``'s player pushes it (up to its MOV;
        None: it stays). Straight away from ``by``."""
        d = dist(by.x, by.y, u.x, u.y) or 1.0
        return u.x + (u.x - by.x) / d * 400, u.y + (u.y - by.y) / d * 400

    def feint_to(self, g: Game, actor: Unit, e: Unit) -> tuple[float, float]:
        """A successful Feint: where the enemy is moved (up to M). Straight away from ``actor``."""
        d = dist(actor.x, actor.y, e.x, e.y) or 1.0
        return e.x + (e.x - actor.x) / d * 400, e.y + (e.y - actor.y) / d * 400

    # ------------------------------------------------------------------ choices of traits and setup

    def extra_targets(self, g: Game, u: Unit, first: Unit, others: list[Unit]) -> list[Unit]:
        """[Colossal] up to two more enemies for ``u``'s attack: the dearest."""
        return sorted(others, key=lambda e: (-e.points, e.uid))[:2]

    def coordinate(self, g: Game, u: Unit, partners: list[Unit]) -> Unit | None:
        """[Coordinated] the ally that joins ``u``'s Stand and Fight, or None."""
        return partners[0]

    def soothsay(self, g: Game, side: Side, u: Unit, what: str, before: int, after: int) -> bool:
        """[Soothsayers] declare the side's number for a die of ``u``'s check, turning its outcome
        from ``before`` into ``after`` (0 fail, 1 success, 2 critical)?"""
        return after > before if u.side == side.idx else after < before

    def take_flag(self, g: Game, u: Unit, marker: Marker) -> bool:
        """[Capture the Flags] take control of the marker ``u`` reached, for 1 momentum?"""
        return True

    def tactic(self, g: Game, side: Side) -> str | None:
        """[Tacticians] the bonus for this round: fury, guile, move or reach (None: keep the last)."""
        return side.tactic or "fury"

    def duel_targets(self, g: Game, side: Side, pool: list[Unit]) -> list[Unit]:
        """[Duel] the enemy groups (2 points, no Ward) the side names: the most dangerous first."""
        return sorted(pool, key=lambda u: (u.fury or 21, u.points, u.uid))

    def reserves(self, g: Game, side: Side, pool: list[Unit], limit: int, minimum: int, why: str) -> list[Unit]:
        """Groups kept off the board (Ambushers, Delayed deployment), within ``limit`` points:
        Skirmishers and Fighters first, the dearest first."""
        held: list[Unit] = []
        total = 0
        for u in sorted(pool, key=lambda u: (u.gtype not in ("skirmishers", "fighters"), -u.points, u.uid)):
            if total + u.points <= limit:
                held.append(u)
                total += u.points
        return held

    def resurrect(self, g: Game, side: Side, out: list[Unit], budget: int) -> list[Unit]:
        """[Resurrectionists] the groups out of play that try to return (up to ``budget`` points)."""
        return [u for u in out if u.guile is not None]

    def teleport(self, g: Game, side: Side, budget: int) -> list[tuple[Unit, tuple[float, float]]]:
        """[Teleporters] (group, spot) moves for up to ``budget`` points: fighting groups land just
        beyond S of the most valuable enemy."""
        enemies = [e for e in g.sides[1 - side.idx].units if e.state == "board"]
        if not enemies:
            return []
        t = max(enemies, key=lambda e: (e.points, -e.uid))
        out: list[tuple[Unit, tuple[float, float]]] = []
        s = g.mm("S")
        for k, u in enumerate(x for x in side.units if x.state == "board" and x.gtype != "ward" and x.fury is not None):
            if u.points > budget or any(dist(u.x, u.y, e.x, e.y) <= s for e in enemies):
                continue
            angle = math.pi / 2 + k * math.pi / 5
            out.append((u, clamp(t.x + (s + 6) * math.cos(angle), t.y + (s + 6) * math.sin(angle), u.radius)))
            budget -= u.points
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy(Policy):
    """A yardstick player: the attack most likely to remove the dearest enemy, else a Charge, else
    a Sprint towards the goal; it rests when short of momentum, never uses a champion action and
    declares the first reaction offered while it has 2 momentum or more."""

    name = "greedy"

    def act(self, g: Game, side: Side) -> Order | None:
        best: Order | None = None
        best_value = 0.0
        for u in side.units:
            if not g.may_act(side, u) or u.state != "board" or g.cost_of(side, u, False) > min(2, side.momentum):
                continue
            for e in g.enemies(u):
                if u.fury is None:
                    break
                if g.within(u, e, u.rng) and g.los(u, e):
                    value = g.expected_break(u, e, 0, 0)[0] * e.points
                    if value > best_value:
                        best, best_value = Order("Stand and Fight", u, e), value
                elif u.mov and dist(u.x, u.y, e.x, e.y) <= g.mm(u.mov) + g.mm(u.rng) + u.radius + e.radius:
                    value = 0.8 * g.expected_break(u, e, 0, 1)[0] * e.points
                    if value > best_value:
                        best, best_value = Order("Charge", u, e), value
        if best is not None:
            return best
        for u in side.units:
            if g.may_act(side, u) and u.state == "board" and u.mov and g.cost_of(side, u, False) <= min(1, side.momentum):
                gx, gy = self.goal(g, u)
                if dist(u.x, u.y, gx, gy) > 2 * u.radius + 5:
                    return Order("Sprint", u, point=(gx, gy))
        if side.momentum < side.total // 2:
            for u in side.units:
                if g.may_act(side, u) and u.state == "board" and u.guile is not None and g.cost_of(side, u, False) <= min(1, side.momentum):
                    return Order("Rest", u)
        return None

    def react(self, g: Game, side: Side, ctx: Action, offers: list[Offer]) -> Offer | None:
        return offers[0] if side.momentum >= 2 else None
