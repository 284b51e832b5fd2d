"""Whole Rattle and Rend games between two warbands, with an AI for both sides.

What is simulated (seed sections in brackets; docs/playtest.md repeats the board model):

- **Setup** [Game Setup]: player A is drawn; A rolls the scenario (d20, RR-D4), B the
  terrain density (d20: 3 pieces over about 20 % of the board, or 6 pieces over
  about 40 % with at least one blocking piece), A the deployment (d20: corner, side,
  delayed, close, mixed).  A places 5–7 points, B everything, then A the rest.
  Scenario setups: the hill at the centre, three flags, two duel points per side,
  four conquest zones.  Transported groups start in their Heavy; Ambushers keep
  up to half their points off the board and bring them in with an action.
- **Rounds** [Gameplay]: total momentum = points of groups in play (RR-D2); warband
  morale when it first drops to 6 or less; secret initiative bids of 0–5 (the
  winner pays, a tie costs both and is bid again); the winner acts first.
- **Turns**: the active player gives actions (cost 1, 2, 3… for a group's first,
  second, third action of the round; never the same group twice in a row unless
  Last Man Standing) until it passes or a reaction takes the initiative away.
- **Actions** [Five Actions]: Sprint, Charge, Stand and Fight, Feint, Maneuver,
  Rest, Translocate Ward, the seven champion actions, entering from reserve.
- **Reactions** [Six Reactions]: one reaction per action, declared for 1 momentum,
  refused by the active player for 1, forced for 1 more; afterwards the reactive
  player becomes active.  Standard reactions (Regroup, Intimidate, Countercharge,
  Suppression, Evade, Follow) fire on their triggers (action declared, movement,
  attack declared); warding reactions (Defiance, Vengeance, Reversal, Confusion,
  Sacrifice, Pursuit, Detonate, Rally) for allies within the Ward's range.
- **Attacks and Will checks** [Attacks, Will Checks]: melee and ranged modifiers,
  BREAK removes the group, Stand Firm lets the attacker push it back up to its
  MOV, DEFY! lets its owner move it; attached Champions give their group a bonus.
- **Terrain**: rough (leave on a Guile check or for 1 momentum), hazardous (leave
  on a Will check or for 2; a failed check removes the group), blocking (no entry,
  no line of sight).
- **Warband traits** with an effect in play: all of them, with these simplifications:
  Coordinated joins one ally to a Stand and Fight (not to reactions), Raiders do not
  split their moves, Riders never get back into a Transport, Tacticians always pick
  Fury, Teleporters and Ambushers place their groups just beyond S of the enemy the
  AI wants most.  A Ward carried in a Transport stays inside (it never acts).  Drives
  are previews with no rules yet (none simulated).
- **Victory** per scenario; a warband with no group left loses.  Scenarios without
  a round count end after the catalogue's ``round_limit`` rounds (6), won by the
  side that removed more points (equal: a draw).

The AI scores every action it could give (expected points removed, positional
progress towards the scenario's goal, momentum gained) against its momentum cost,
and passes when nothing is worth it.  Reactions are taken when their expected
value beats their cost.  All randomness comes from the injected generator.

Code layout and speed: the state is one class with typed attributes
(:class:`gamestate.GameState`), and the rules stand on it as a chain of subclasses, one per
phase, each calling only what the classes below it define: :mod:`geometry`, :mod:`scenario`
(goals, markers, victory), :mod:`setup`, :mod:`combat` (which declares the reactions it
offers; :mod:`reactions` defines them), :mod:`reactions`, :mod:`actions`, the AI's option
scoring in :mod:`ai`, and :class:`Game` (rounds and turns) on top.  Why a chain and not
mixins: mypy checks every phase against the state's real types, and mypyc compiles the whole
engine into native classes (fields read as C fields, floats kept as C doubles, methods called
through a table); the pure-Python path runs the same sources, and both play identical games
(``tests/rattle_and_rend/test_rr_native_parity.py``).  setup.py lists the modules
compiled.  The records
(groups, sides, actions) are in :mod:`state`.  Dice are uniforms drawn 256 at a time.  The
AI's geometry (line of sight, paths, ranges) and each group's plan (:class:`state.UnitPlan`:
its targets and their odds, its paths, the closures that play them, scores before the
momentum cost) are remembered in a memo keyed by the board signature (every group's position
and state, the markers' holders; uids as keys, never object identity).  About half the
choices follow an action that moved nothing (Rest, a failed attack, a refused reaction):
they only subtract the new cost and work out Rest and Scheming Plot again.  A move changes
what every plan depends on (line of sight through bases, targets, goals, paths), so the
next choice works the plans out afresh.  Options are scored in two passes: the plans and the
options that cost little first, then the ones that trace paths (Sprint, Maneuver, Crashing
Wave) only when an upper bound of their score reaches the best of all (see
:meth:`ai.ActionChoice._scored`); a turn's choice (:meth:`ai.ActionChoice.choose`) builds
an :class:`state.Option` only for the option given.  A side is built once per list and catalogue and copied
for each game (:meth:`setup.SetupRules._side_of`).  Speed work keeps fixed-seed games
identical (same draws, decisions and logs: ``tests/rattle_and_rend/rr_digests.json``).
"""

from __future__ import annotations

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import RRList
from .ai import ActionChoice
from .board import (
    clamp,
    dist,
    terrain_at,
)
from .dice import FAIL
from .state import (
    MAX_ACTIONS_PER_ROUND,
    Action,
    Side,
)


class Game(ActionChoice):
    """One game in play: the state (:mod:`gamestate`), the rounds and turns; the rules and the
    AI come from the classes it stands on, one per phase."""

    __slots__ = ()

    def __init__(self, cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool) -> None:
        super().__init__(cat, rng, log)
        self.sides = [self._side_of(0, first), self._side_of(1, second)]
        self.units = [u for s in self.sides for u in s.units]

    # ------------------------------------------------------------------ rounds and turns

    def initiative(self) -> int:
        for s in self.sides:
            for u in s.units:
                if u.state == "banished" and u.back_round <= self.round:
                    u.state = "board"
                    s.total += u.points
                    if self.logging:
                        self.log(f"{u.name} returns from banishment")
                u.actions = 0
                u.free_next = False
            s.total = sum(u.points for u in s.units if u.state in ("board", "carried", "reserve"))
            s.momentum = s.total
            s.last_actor = None
            s.first_turn_done = False
            s.free_action = False
            s.coordinated_used = False
            s.soothsayer = None
        for s in self.sides:  # warband morale
            if s.morale_due and not s.morale_done:
                s.morale_done = True
                if self.logging:
                    self.log(f"{s.name}: warband morale")
                for u in list(s.units):
                    if u.state == "board":
                        self.will_check(u, None, None, allow_push=False)
                s.total = sum(u.points for u in s.units if u.state in ("board", "carried", "reserve"))
                s.momentum = s.total
        for _ in range(10):
            bids = []
            for s in self.sides:
                top = min(self.bid_max, s.momentum // 4)
                bids.append(min(top, int(self.dice.u() * (top + 1))))
            if bids[0] != bids[1]:
                win = 0 if bids[0] > bids[1] else 1
                self.sides[win].momentum -= bids[win]
                if self.logging:
                    self.log(f"initiative bids {bids[0]} / {bids[1]}")
                return win
            for s, b in zip(self.sides, bids, strict=True):
                s.momentum -= b
        return 0 if self.dice.u() < 0.5 else 1

    def first_turn(self, side: Side) -> None:
        """Effects 'on your first turn of each round' (Soothsayers, Resurrectionists, Teleporters)."""
        side.first_turn_done = True
        if side.has("soothsayers"):
            side.soothsayer = self.dice.d20()
        if side.has("resurrectionists"):
            budget = sum(u.points for u in side.units) // 3
            for u in side.units:
                if u.state == "out" and u.points <= budget:
                    budget -= u.points
                    if self.roll(u.guile, 0, 0, side, True) != FAIL:  # a Ward has no Guile: it stays out
                        ax, ay = side.anchor
                        u.x, u.y = clamp(ax + (self.dice.u() - 0.5) * 120, ay, u.radius)
                        u.state = "board"
                        side.total += u.points
                        if self.logging:
                            self.log(f"{u.name} rises again (Resurrectionists)")
        if side.has("teleporters"):
            enemies = [e for e in self.sides[1 - side.idx].units if e.state == "board"]
            budget = sum(u.points for u in side.units) // 3
            for u in side.units:
                if u.state == "board" and u.gtype != "ward" and u.fury is not None and u.points <= budget and enemies:
                    if any(dist(u.x, u.y, e.x, e.y) <= self.mm("S") for e in enemies):
                        continue
                    t = max(enemies, key=self.target_value)
                    spot = clamp(t.x, t.y + (self.mm("S") + 5) * (1 if t.y < 200 else -1), u.radius)
                    if all(dist(*spot, e.x, e.y) > self.mm("S") for e in enemies) and terrain_at(self.pieces, *spot) is None:
                        u.x, u.y = spot
                        budget -= u.points
                        if self.logging:
                            self.log(f"{u.name} teleports")

    def turn(self, side: Side) -> str:
        """Give actions until the player passes ('pass') or loses the initiative ('swap')."""
        if not side.first_turn_done:
            self.first_turn(side)
        self.turn_counter += 1
        for _ in range(60):
            if self.finished:
                return "end"
            best = self.choose(side)
            if best is None or best.score <= 0.05:
                return "pass"
            u = best.unit
            if best.cost > side.momentum:
                return "pass"
            side.momentum -= best.cost
            if best.cost == 0:
                u.free_next = False
                side.free_action = False
            u.actions += 1
            side.last_actor = u
            self.actions_this_round += 1
            ctx = Action(side, u, best.name, attack=best.name in ("Charge", "Stand and Fight", "Ambush"))
            if self.logging:
                self.log(f"{side.name}: {u.name} — {best.name} (cost {best.cost}, momentum left {side.momentum})")
            if u.state == "board":
                self.on_declare(ctx)
            if not ctx.cancelled and u.state in ("board", "carried", "reserve"):
                best.run(ctx)
            if ctx.swap:
                self.offer_reversal(ctx)
            if self.finished:
                return "end"
            if ctx.swap:
                return "swap"
            if self.actions_this_round >= MAX_ACTIONS_PER_ROUND:
                return "pass"
        return "pass"

    def offer_reversal(self, ctx: Action) -> None:
        """After the enemy's reaction, the side that acted may take the initiative back."""
        side = ctx.side
        reactor = ctx.reactor
        if reactor is None or side.momentum < 1:
            return
        pairs = self._warding_groups(side, "reversal")
        if not pairs:
            return
        ally = min((a for _, a in pairs), key=lambda a: dist(a.x, a.y, reactor.x, reactor.y))
        if ally.guile is None:
            return
        side.momentum -= 1
        if self.logging:
            self.log(f"{side.name} answers with Reversal ({ally.name})")
        r = self.roll(ally.guile, 0, 0, side, True)
        if r != FAIL:
            options = [o for o in self.options(side, only=ally, free=True) if o.name not in ("Rest",)]
            if options:
                best = max(options, key=lambda o: o.score)
                inner = Action(side, ally, best.name, reacted=True, attack=best.name in ("Charge", "Stand and Fight"))
                best.run(inner)
        ctx.swap = False

    def play(self) -> GameRecord:
        self.setup()
        for s in self.sides:
            s.total = sum(u.points for u in s.units)
        self.check_victory()
        while not self.finished:
            self.round += 1
            active = self.initiative()
            self.actions_this_round = 0
            passes = 0
            while not self.finished and passes < 2 and self.actions_this_round < MAX_ACTIONS_PER_ROUND:
                result = self.turn(self.sides[active])
                if result == "end":
                    break
                passes = passes + 1 if result == "pass" else 0
                active = 1 - active
            self.end_of_round()
            if self.round >= 12 and not self.finished:  # a conquest tie may add a round, never forever
                self._decide([s.removed_points for s in self.sides])
        units = [
            UnitRecord(u.side, u.name, float(u.points), u.state != "out", float(u.eliminated))
            for u in self.units
        ]
        if self.logging:
            self.log(f"winner: {'draw' if self.winner is None else self.sides[self.winner].name} after {self.round} rounds")
        return GameRecord(
            self.winner,
            self.round,
            (float(self.sides[0].removed_points), float(self.sides[1].removed_points)),
            units,
            self.lines,
        )


def play_game(cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool = False) -> GameRecord:
    """One whole game; ``first`` is side 0 of the record."""
    return Game(cat, first, second, rng, log).play()


__all__ = ["Action", "Game", "play_game"]
