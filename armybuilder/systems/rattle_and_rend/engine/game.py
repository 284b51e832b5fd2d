"""Whole Rattle and Rend games between two warbands, each side played by a policy.

What is simulated (seed sections in brackets; :mod:`board` gives the board model):

- **Setup** [Game Setup]: player A is drawn; A rolls the scenario (d20, RR-D4, or the one a
  playtest fixes), B the terrain density (d20: 3 pieces over about 20 % of the board, or 6
  pieces over about 40 % with blocking terrain among them), A the deployment (d20: corner,
  side, delayed, close, mixed). A places 5–7 points, B everything, then A the rest, at random
  spots of their zones (never in hazardous or blocking terrain). Scenario setups: the hill at
  the centre, three flags, two Duel points per side (named by the enemy's player), four Conquest
  zones. Transported groups start in their Heavy; Ambushers keep up to half their points off
  the board and bring each in with an action, anywhere not within S of an enemy.
- **Rounds** [Gameplay]: total momentum = points of groups in play (RR-D2); warband morale when it
  first drops to 6 or less; secret initiative bids of 0–5 (the winner pays and chooses who
  starts; a tie costs both and is bid again; at a tie at 0, or with nothing left to bid, a coin
  decides: bidding again would change nothing).
- **Turns**: the active player gives actions (cost 1, 2, 3… for a group's first, second, third
  action of the round; never the same group twice in a row unless Last Man Standing) until it
  passes or a reaction takes the initiative away. "On your first turn of each round" effects
  (banished groups return, Soothsayers, Resurrectionists, Teleporters, Tacticians) come first.
- **Actions** [Five Actions]: Sprint, Charge, Stand and Fight, Feint, Maneuver, Rest, Translocate
  Ward, the seven champion actions, entering from reserve (:mod:`actions`).
- **Reactions** [Six Reactions]: one reaction per action, declared for 1 momentum, refused by the
  active player for 1, forced for 1 more; afterwards the reactive player becomes active, unless
  the active side answers with Reversal (:mod:`reactions`).
- **Attacks and Will checks** [Attacks, Will Checks]: melee and ranged modifiers, BREAK removes
  the group, Stand Firm lets the attacker push it back up to its MOV, DEFY! lets its owner move
  it; attached Champions give their group a bonus; a Colossal Heavy attacks up to three groups
  with Stand and Fight and with Charge; Swarmers' groups join an attack before any reaction
  (:mod:`combat`).
- **Terrain**: rough (leave on a Guile check or for 1 momentum), hazardous (leave on a Will check
  or for 2; a failed check removes the group), blocking (no entry, no line of sight).
- **Warband traits**: all of them, with these simplifications: Coordinated joins one ally to a
  Stand and Fight (not to reactions), Raiders do not split their moves, Riders never get back
  into a Transport, a Tacticians' bonus is chosen on the first turn of each round and not changed
  for momentum later, Teleporters place their groups just beyond S of an enemy. A Ward carried in
  a Transport stays inside (it never acts). Drives are previews with no rules yet.
- **Victory** per scenario; a warband with no group left loses. Scenarios without a round count
  end after the catalogue's ``round_limit`` rounds (6), won by the side that removed more points
  (equal: a draw). The scores behind the result close the narrated log.

Readings of the seed the engine makes (the catalogue's decisions.yaml, RR-C1 to RR-C8): Soothsayers' number
serves the whole round, once in each turn of either player; a champion's reach is its RNG (a
B-to-B Champion on its own touches what it banishes, pushes or spots); an attached Champion's
actions use its group's RNG.

The players are apart from the rules (the engine protocol, ``armybuilder/core/engine.py``): each
side has a :class:`~.policy.Policy` (``POLICIES``: ``scoring``, the default, in :mod:`ai`;
``greedy``, a yardstick, in :mod:`policy`), asked for every choice the seed leaves to a player;
the rules check what it answers. All randomness comes from the injected generator through one
:class:`~armybuilder.core.rng.Uniforms`.

Code layout and speed: the state is one class with typed attributes (:class:`gamestate.GameState`),
and the rules stand on it as a chain of subclasses, one per phase, each calling only what the
classes below it define: :mod:`geometry`, :mod:`scenario` (markers, victory), :mod:`setup`,
:mod:`combat` (which declares the reactions it offers; :mod:`reactions` defines them),
:mod:`reactions`, :mod:`actions`, and :class:`Game` (rounds and turns) on top. Why a chain and
not mixins: mypy checks every phase against the state's real types, and mypyc compiles the whole
engine (policies included) into native classes; the pure-Python path runs the same sources, and
both play identical games (``tests/rattle_and_rend/test_rr_native_parity.py``). Geometry (line
of sight, paths, ranges) is remembered in a memo keyed by the board signature while a player
scores its options. A side is built once per list and catalogue and copied for each game
(:meth:`setup.SetupRules._side_of`). Fixed-seed games are pinned by
``tests/rattle_and_rend/rr_digests.json``.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.engine import collector_paused
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import RRList
from .actions import CHAMPION_ACTIONS, STANDARD, ActionRules
from .ai import ScoringPolicy
from .board import clamp, dist, terrain_at
from .dice import CRITICAL, FAIL
from .policy import GreedyPolicy, Policy
from .state import MAX_ACTIONS_PER_ROUND, TACTICS, Action, IllegalOrder, Offer, Order, Side, Unit

#: the players (engine protocol): name -> a policy for one side of one game, the default first
POLICIES = {"scoring": ScoringPolicy, "greedy": GreedyPolicy}


class Game(ActionRules):
    """One game in play: the state (:mod:`gamestate`), the rounds and turns; the rules come from
    the classes it stands on, one per phase, and the choices from each side's policy."""

    __slots__ = ()

    def __init__(self, cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool,
                 scenario: str | None = None, policies: tuple[Policy, Policy] | None = None) -> None:  # fmt: skip
        super().__init__(cat, rng, log)
        self.fixed_scenario = scenario
        self.sides = [self._side_of(0, first), self._side_of(1, second)]
        self.units = [u for s in self.sides for u in s.units]
        self.policies = list(policies) if policies is not None else [ScoringPolicy(), ScoringPolicy()]
        self._name_sides()

    def _name_sides(self) -> None:
        """Both warbands and every group named so that a line says whose it is: a side keeps its
        list's name (with [1] / [2] when both lists have one name), and a group whose name the other
        list also has carries its side in brackets (the list's name, or 1 / 2 in a mirror)."""
        a, b = self.sides
        tags = [a.name, b.name]
        if a.name == b.name:
            tags = ["1", "2"]
            a.name, b.name = f"{a.name} [1]", f"{b.name} [2]"
        shared = {u.name for u in a.units} & {u.name for u in b.units}
        if shared:
            for s in self.sides:
                for u in s.units:
                    if u.name in shared:
                        u.name = f"{u.name} [{tags[s.idx]}]"

    # ------------------------------------------------------------------ rounds and turns

    def initiative(self) -> int:
        """[Initiative Phase] momentum reset to the points in play, warband morale, the bids."""
        for s in self.sides:
            for u in s.units:
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
                    self.log(f"{s.name}: warband morale (total momentum {s.total}): every group checks Will")
                for u in list(s.units):
                    if u.state == "board":
                        self.will_check(u, None, None, allow_push=False)
                s.total = sum(u.points for u in s.units if u.state in ("board", "carried", "reserve"))
                s.momentum = s.total
        g = self
        while True:
            tops = [min(self.bid_max, s.momentum) for s in self.sides]
            if tops == [0, 0]:
                win = 0 if self.dice.u() < 0.5 else 1
                if self.logging:
                    self.log(f"initiative: neither side has momentum to bid; a coin gives it to {self.sides[win].name}")
                break
            bids = [max(0, min(top, self.policies[s.idx].bid(g, s, top))) for s, top in zip(self.sides, tops, strict=True)]
            if bids[0] != bids[1]:
                win = 0 if bids[0] > bids[1] else 1
                self.sides[win].momentum -= bids[win]
                if self.logging:
                    self.log(f"initiative bids {self.sides[0].name} {bids[0]}, {self.sides[1].name} {bids[1]}: "
                             f"{self.sides[win].name} wins and pays {bids[win]} ({self.sides[win].momentum} left)")  # fmt: skip
                break
            if bids[0] == 0:  # both bid nothing: bidding again would change nothing (engine assumption: a coin)
                win = 0 if self.dice.u() < 0.5 else 1
                if self.logging:
                    self.log(f"initiative bids tie at 0: a coin gives it to {self.sides[win].name}")
                break
            for s, bid in zip(self.sides, bids, strict=True):
                s.momentum -= bid
            if self.logging:
                self.log(f"initiative bids tie at {bids[0]}: both spend it ({self.sides[0].momentum} / {self.sides[1].momentum} left) and bid again")
        winner = self.sides[win]
        first = win if self.policies[win].act_first(g, winner) else 1 - win
        if self.logging and first != win:
            self.log(f"{winner.name} lets {self.sides[first].name} begin")
        return first

    def first_turn(self, side: Side) -> None:
        """Effects 'on your first turn of each round' (returning banished groups, Soothsayers,
        Resurrectionists, Teleporters, Tacticians)."""
        side.first_turn_done = True
        g = self
        for u in side.units:  # [Banishment] back during its side's first turn, where it was or as near as free
            if u.state == "banished" and u.back_round <= self.round:
                u.state = "board"
                u.x, u.y = self._free_spot(u, u.x, u.y)
                side.total += u.points
                if self.logging:
                    self.log(f"{u.name} returns from banishment ({side.name}: total momentum {side.total})")
        if side.has("soothsayers"):
            side.soothsayer = self.dice.die(20)
            if self.logging:
                self.log(f"{side.name}: Soothsayers foresee a {side.soothsayer}")
        if side.has("resurrectionists"):
            budget = sum(u.points for u in side.units) // 3
            out = [u for u in side.units if u.state == "out"]
            for u in self.policies[side.idx].resurrect(g, side, out, budget) if out else []:
                if u.state != "out" or u.points > budget:
                    continue
                budget -= u.points
                self.note(side.idx, "resurrectionists")
                if self.check(u, "Guile", u.guile) != FAIL:  # a Ward has no Guile: it stays out
                    ax, ay = side.anchor
                    u.x, u.y = self._free_spot(u, *clamp(ax + (self.dice.u() - 0.5) * 120, ay, u.radius))
                    u.state = "board"
                    side.total += u.points
                    if self.logging:
                        self.log(f"{u.name} rises again (Resurrectionists; {side.name}: total momentum {side.total})")
        if side.has("teleporters"):
            self._teleport(side)
        if side.has("tacticians"):
            chosen = self.policies[side.idx].tactic(g, side)
            if chosen in TACTICS and chosen != side.tactic:
                side.tactic = chosen
                if self.logging:
                    self.log(f"{side.name}: Tacticians choose {chosen}")
            if side.tactic is not None:
                self.note(side.idx, "tacticians")
                self.note(side.idx, f"tacticians-{side.tactic}")
            self._apply_tactic(side)

    def _apply_tactic(self, side: Side) -> None:
        """[Tacticians] the bonus in force for Fighters, Shooters and Skirmishers: -2 Fury, -2 Guile,
        one band more of MOV, or of REACH."""
        for u in side.units:
            if u.gtype not in ("fighters", "shooters", "skirmishers"):
                continue
            u.fury, u.guile, u.mov, u.rng = u.base_fury, u.base_guile, u.base_mov, u.base_rng
            if side.tactic == "fury" and u.fury is not None:
                u.fury = max(1, u.fury - 2)
            elif side.tactic == "guile" and u.guile is not None:
                u.guile = max(1, u.guile - 2)
            elif side.tactic == "move":
                u.mov = self.wider[u.mov] if u.mov != "L" else u.mov
            elif side.tactic == "reach":
                u.rng = self.wider[u.rng] if u.rng != "L" else u.rng
        self.stats_version += 1

    def _teleport(self, side: Side) -> None:
        """[Teleporters] up to a third of the warband's points not within S of an enemy move anywhere
        not within S of an enemy (the player names the groups and their spots)."""
        budget = sum(u.points for u in side.units) // 3
        enemies = [e for e in self.sides[1 - side.idx].units if e.state == "board"]
        for u, spot in self.policies[side.idx].teleport(self, side, budget):
            if u.state != "board" or u.points > budget or any(dist(u.x, u.y, e.x, e.y) <= self.mm("S") for e in enemies):
                continue
            if any(dist(spot[0], spot[1], e.x, e.y) <= self.mm("S") for e in enemies) or terrain_at(self.pieces, *spot) is not None:
                continue
            u.x, u.y = clamp(spot[0], spot[1], u.radius)
            budget -= u.points
            self.note(side.idx, "teleporters")
            if self.logging:
                self.log(f"{u.name} teleports to ({u.x:.0f}, {u.y:.0f})")

    def _free_spot(self, u: Unit, x: float, y: float) -> tuple[float, float]:
        """(x, y), or the nearest point round it clear of every base on the board."""
        for ring in range(0, 200, 10):
            for k in range(max(1, ring // 5)):
                angle = k * 2 * math.pi / max(1, ring // 5)
                px, py = clamp(x + ring * math.cos(angle), y + ring * math.sin(angle), u.radius)
                if all(dist(px, py, o.x, o.y) >= o.radius + u.radius for o in self.units if o.state == "board" and o is not u):
                    return px, py
        return x, y

    def turn(self, side: Side) -> str:
        """Give actions until the player passes ('pass') or loses the initiative ('swap')."""
        if not side.first_turn_done:
            self.first_turn(side)
        self.turn_counter += 1
        policy = self.policies[side.idx]
        g = self
        for _ in range(60):
            if self.finished:
                return "end"
            order = policy.act(g, side)
            if order is None:
                if self.logging:
                    self.log(f"{side.name} passes ({side.momentum} momentum left)")
                return "pass"
            why = self.legal(side, order)
            if why:
                raise IllegalOrder(f"{policy.name}: {order.name} by {order.unit.name}: {why}")
            u = order.unit
            cost = self.cost_of(side, u, False)
            side.momentum -= cost
            if cost == 0:
                side.free_action = False
            for o in side.units:  # a Maneuver's free action is for the next group given one only
                o.free_next = False
            u.actions += 1
            side.last_actor = u
            self.actions_this_round += 1
            self.note(side.idx, u.champion_action if order.name in CHAMPION_ACTIONS.values() and u.champion_action else order.name.lower())
            ctx = Action(side, u, order.name, attack=order.name in ("Charge", "Stand and Fight", "Ambush"))
            if self.logging:
                self.log(f"{side.name}: {u.name} — {order.name} (cost {cost}, momentum left {side.momentum})")
            if u.state == "board":
                self.on_declare(ctx)
            if not ctx.cancelled and u.state in ("board", "carried", "reserve"):
                self.perform(ctx, order)
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
        """[Reversal] after the enemy's reaction, the side that acted may take the initiative back:
        its group nearest the reacting group within a Reversal Ward's range checks Guile and, on a
        success, takes a standard action (with a bonus on a critical), free."""
        side = ctx.side
        reactor = ctx.reactor
        if reactor is None or side.momentum < 1:
            return
        pairs = self._warding_groups(side, "reversal")
        if not pairs:
            return
        ally = min((a for _, a in pairs), key=lambda a: (dist(a.x, a.y, reactor.x, reactor.y), a.uid))
        if ally.guile is None:
            return
        g = self
        # the effect as a bound method, not a nested function: see ReactionRules
        offer = Offer("Reversal", ally, reactor, None, partial(self._reverse, side, ally))
        if self.policies[side.idx].react(g, side, ctx, [offer]) is not offer:
            return
        side.momentum -= 1
        self.note(side.idx, "reversal")
        if self.logging:
            self.log(f"{side.name} answers with Reversal ({ally.name}) for 1 momentum ({side.momentum} left)")
        self._reverse(side, ally)
        ctx.swap = False

    def _reverse(self, side: Side, ally: Unit) -> None:
        """[Reversal] its Guile check, then the player's free standard action (with a bonus on a
        critical)."""
        r = self.check(ally, "Guile", ally.guile)
        if r == FAIL:
            return
        order = self.policies[side.idx].reversal(self, side, ally)
        if order is None or order.unit is not ally or order.name not in STANDARD or self.legal(side, order, free=True):
            return
        inner = Action(side, ally, order.name, reacted=True, attack=order.name in ("Charge", "Stand and Fight"), bonus=1 if r == CRITICAL else 0)
        if self.logging:
            self.log(f"{side.name}: {ally.name} — {order.name} (Reversal, free)")
        self.perform(inner, order)

    def play(self) -> GameRecord:
        """The whole game, from setup to the record (the garbage collector paused meanwhile:
        :func:`~armybuilder.core.engine.collector_paused`)."""
        with collector_paused():
            return self._play()

    def _play(self) -> GameRecord:
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
        for u in self.units:  # a group's memo entries refer to groups (its plan's orders): no cycle outlives the game
            u.memo_of, u.plan, u.in_range, u.goal, u.charge_by, u.charge_target = None, None, None, None, None, None
        units = [
            UnitRecord(u.side, u.name, float(u.points), u.state != "out", float(u.eliminated))
            for u in self.units
        ]
        if self.logging:
            removed = f"enemy points removed {self.sides[0].name} {self.sides[0].removed_points:g}, {self.sides[1].name} {self.sides[1].removed_points:g}"
            self.log(f"winner: {'draw' if self.winner is None else self.sides[self.winner].name} after {self.round} rounds "
                     f"({self.scenario}; {removed})")  # fmt: skip
        return GameRecord(
            self.winner,
            self.round,
            (float(self.sides[0].removed_points), float(self.sides[1].removed_points)),
            units,
            self.lines,
            self.scenario,
            self.used,
        )


def play_game(cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool = False, *,
              scenario: str | None = None, policies: tuple[str, str] | None = None) -> GameRecord:  # fmt: skip
    """One whole game; ``first`` is side 0 of the record; ``scenario`` fixes the scenario (else
    drawn), ``policies`` names the players of both sides (``POLICIES``; else ``scoring``)."""
    players = None if policies is None else (POLICIES[policies[0]](), POLICIES[policies[1]]())
    return Game(cat, first, second, rng, log, scenario, players).play()


__all__ = ["POLICIES", "Action", "Game", "IllegalOrder", "Order", "play_game"]
