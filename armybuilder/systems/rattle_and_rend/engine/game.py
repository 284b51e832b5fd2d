"""Whole Rattle and Rend games between two warbands, with an AI for both sides.

What is simulated (seed sections in brackets; the README repeats the board model):

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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.rng import Uniforms
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import RRList, effective_stats, group_title, group_type, normalize, transport_capacity
from ..catalog import RRCatalog, band_plus
from .board import (
    BOARD,
    EPS,
    Piece,
    clamp,
    dist,
    near_blocking,
    terrain_at,
)
from .dice import CRITICAL, FAIL, SUCCESS, check_probabilities, dice_count, outcome_of

MAX_ACTIONS_PER_ROUND = 240
REMOVE_VALUE = 3.0  # value of removing one enemy point, in momentum points (it is lost every round)
COST_WEIGHT = 0.45  # how much one momentum point spent weighs against that


class Dice(Uniforms):
    """d20s and uniforms drawn from the injected generator in blocks of 256."""

    __slots__ = ()

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng, 256)

    def d20(self) -> int:
        return int(self.u() * 20) + 1


@dataclass(eq=False)
class Unit:
    """A group in play: a group of the list, with its attached Champion if any."""

    uid: int
    side: int
    name: str
    gtype: str
    points: int
    mov: str | None
    rng: str | None
    fury: int | None
    guile: int | None
    will: int | None
    reactions: tuple[str, ...]
    champion_action: str | None = None
    heavy_trait: str | None = None
    warding: str | None = None
    attached: bool = False  # a Champion rides with this group: Will checks have a bonus
    capacity: int = 0
    radius: float = 20.0
    x: float = 0.0
    y: float = 0.0
    state: str = "board"  # board / carried / reserve / banished / out
    carrier: Unit | None = None
    actions: int = 0
    free_next: bool = False
    eliminated: float = 0.0
    duel_target: bool = False
    back_round: int = 0  # banished until this round

    @property
    def is_ward(self) -> bool:
        return self.gtype == "ward"

    @property
    def on_board(self) -> bool:
        return self.state == "board"

    @property
    def in_play(self) -> bool:
        return self.state != "out"


@dataclass(eq=False)
class Side:
    idx: int
    name: str
    traits: frozenset[str]
    units: list[Unit]
    total: int = 0
    momentum: int = 0
    last_actor: Unit | None = None
    morale_due: bool = False
    morale_done: bool = False
    first_turn_done: bool = False
    soothsayer: int | None = None
    death_bonus: bool = False
    free_action: bool = False  # Evade critical: the next action of an ally costs 0
    coordinated_used: bool = False
    anchor: tuple[float, float] = (200.0, 0.0)
    edge_y: float | None = 0.0
    markers_off: int = 0
    removed_points: float = 0.0  # enemy points this side removed

    def has(self, trait: str) -> bool:
        return trait in self.traits


@dataclass
class Action:
    """One action being resolved: the reaction bookkeeping of How Reactions Work."""

    side: Side
    actor: Unit
    name: str
    reacted: bool = False
    reactor: Unit | None = None
    swap: bool = False
    cancelled: bool = False
    attack: bool = False
    countercharge: Unit | None = None  # Fighters meeting this attack (simultaneous melee)
    target: Unit | None = None  # the enemy the action means to attack, once declared


@dataclass
class Marker:
    x: float
    y: float
    holder: Unit | None = None
    taken_turn: int = -1
    off: bool = False


@dataclass
class Option:
    score: float
    cost: int
    unit: Unit
    name: str
    run: Callable[[Action], None]


class Game:
    def __init__(self, cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool) -> None:
        self.cat = cat
        self.data: RRCatalog = cat.data  # type: ignore[assignment]
        self.dice = Dice(rng)
        self.logging = log
        self.lines: list[str] = []
        t = self.data.tables
        self.band_mm = {r.band: float(r.distance_mm) for r in t.ranges} or {"B": 0.0, "S": 80.0, "M": 160.0, "L": 240.0}
        self.pivots = {r.band: r.pivots for r in t.ranges} or {"B": 0, "S": 0, "M": 1, "L": 2}
        cd = t.check_dice
        self.dice_table = (cd.standard, cd.penalty, cd.bonus) if cd else (2, 1, 3)
        self.costs = list(t.action_costs) or [1, 2, 3]
        self.morale_threshold = t.morale_threshold
        self.round_limit = t.round_limit
        self.bid_max = t.initiative_bid[1]
        self.sides = [self._side(0, normalize(first, cat)[0]), self._side(1, normalize(second, cat)[0])]
        self.units = [u for s in self.sides for u in s.units]
        self.pieces: list[Piece] = []
        self.round = 0
        self.turn_counter = 0
        self.winner: int | None = None
        self.finished = False
        self.scenario = "kill-them-all"
        self.scenario_rounds: int | None = None
        self.hill: Piece | None = None
        self.markers: list[Marker] = []
        self.extra_round = False
        self.placed: set[int] = set()
        self.cache: dict | None = None
        self.board_signature: tuple = ()
        self.board_memo: dict = {}
        self.memo_hits = self.memo_misses = 0
        self.bar = -math.inf
        self.terrain_obstacles: dict[tuple[str | None, bool], list[tuple[float, float, float, str]]] = {}
        self.actions_this_round = 0
        self.player_a = 0
        self.deployment = "side"

    # ------------------------------------------------------------------ setup

    def log(self, text: str) -> None:
        if self.logging:
            self.lines.append(f"R{self.round} {text}")

    def _side(self, idx: int, army: RRList) -> Side:
        cat = self.cat
        traits = frozenset(t for t in army.traits if cat.get("warband_traits", t) is not None)
        units: list[Unit] = []
        champions: dict[int, int] = {}
        for gi, g in enumerate(army.groups):
            gt = group_type(cat, g)
            t = g.attached_to
            if (
                gt is not None
                and gt.can_attach
                and t is not None
                and t != gi
                and 0 <= t < len(army.groups)
                and (tt := group_type(cat, army.groups[t])) is not None
                and tt.id in gt.attach_targets
                and t not in champions
            ):
                champions[t] = gi
        by_index: dict[int, Unit] = {}
        for gi, g in enumerate(army.groups):
            gt = group_type(cat, g)
            if gt is None or gi in champions.values():
                continue
            s = effective_stats(army, cat, g)
            assert s is not None
            reactions = [gt.reaction]
            name = f"{gi + 1}. {group_title(cat, g, gi)}"
            points = gt.cost
            action = g.champion_action if gt.id == "champion" else None
            attached = False
            if gi in champions:
                champ = army.groups[champions[gi]]
                cgt = group_type(cat, champ)
                if cgt is not None:
                    reactions.append(cgt.reaction)
                    points += cgt.cost
                    action = champ.champion_action
                    attached = True
                    name += f" + Champion ({self._name('actions', champ.champion_action)})"
            if gt.id == "champion":
                name += f" ({self._name('actions', action)})"
            if gt.id == "heavy":
                name += f" ({self._name('heavy_traits', g.heavy_trait)})"
            if gt.id == "ward":
                name += f" ({self._name('reactions', g.warding_reaction)})"
            unit = Unit(
                uid=idx * 100 + gi,
                side=idx,
                name=name,
                gtype=gt.id,
                points=points,
                mov=s.mov,
                rng=s.rng,
                fury=s.fury,
                guile=s.guile,
                will=s.will,
                reactions=tuple(dict.fromkeys(reactions)),
                champion_action=action if action and self.cat.get("actions", action) is not None else None,
                heavy_trait=g.heavy_trait if gt.id == "heavy" else None,
                warding=g.warding_reaction if gt.id == "ward" else None,
                attached=attached,
                capacity=transport_capacity(army, cat, gi),
                radius=20.0 if "40" in gt.base else 12.5,
            )
            by_index[gi] = unit
            units.append(unit)
        for gi, g in enumerate(army.groups):  # groups starting inside a Transport
            unit = by_index.get(gi)
            carrier = by_index.get(g.transported_by) if g.transported_by is not None else None
            if unit is None or carrier is None or carrier.capacity <= 0 or unit.gtype == "heavy":
                continue
            load = sum(u.points for u in units if u.carrier is carrier)
            if load + unit.points <= carrier.capacity:
                unit.carrier = carrier
                unit.state = "carried"
        return Side(idx, army.name, traits, units)

    def _name(self, collection: str, entry_id: str | None) -> str:
        entry = self.cat.get(collection, entry_id) if entry_id else None
        return entry.name if entry is not None else (entry_id or "-")

    def _roll_table(self, rows: list, default: str) -> str:
        roll = self.dice.d20()
        for row in rows:
            if row.low <= roll <= row.high:
                return row.id
        return default

    def setup(self) -> None:
        a = 0 if self.dice.u() < 0.5 else 1
        b = 1 - a
        self.player_a = a
        self.scenario = self._roll_table(self.data.scenarios, "kill-them-all")
        scenario = self.cat.get("scenarios", self.scenario)
        self.scenario_rounds = scenario.rounds if scenario is not None else None
        density = self._roll_table(self.data.terrain_densities, "sparse")
        deployment = self._roll_table(self.data.deployments, "side")
        self.deployment = deployment
        self._place_terrain(density)
        if self.scenario == "king-of-the-hill":
            self.pieces = [p for p in self.pieces if dist(p.x, p.y, 200, 200) > p.r + 55]
            self.hill = Piece("rough", 200.0, 200.0, 50.0)
            self.pieces.append(self.hill)
        if self.scenario == "capture-the-flags":
            self.markers = [Marker(200.0, 200.0)]
            angle = self.dice.u() * 2 * math.pi
            for turn in (0.0, math.pi):
                self.markers.append(Marker(200 + 60 * math.cos(angle + turn), 200 + 60 * math.sin(angle + turn)))
            self.pieces = [p for p in self.pieces if all(dist(p.x, p.y, m.x, m.y) > p.r + 5 for m in self.markers)]
        if self.scenario == "duel":
            for side in self.sides:
                self._pick_duel_targets(self.sides[1 - side.idx])
        self.log(
            f"player A: {self.sides[a].name}; scenario {self.scenario}, terrain {density} "
            f"({len(self.pieces)} pieces), deployment {deployment}"
        )
        for side in self.sides:
            self._set_anchor(side, side.idx == a)
        for side in self.sides:
            if side.has("ambushers"):
                self._hold_back(side, sum(u.points for u in side.units) // 2, "ambush")
            elif deployment == "delayed":
                self._hold_back(side, 7, "delayed", minimum=5)
        first_wave = self._split(self.sides[a], 5, 7)
        self._deploy(self.sides[a], first_wave)
        self._deploy(self.sides[b], [u for u in self.sides[b].units if u.state == "board"])
        self._deploy(self.sides[a], [u for u in self.sides[a].units if u.state == "board" and u not in first_wave])
        self.terrain_obstacles.clear()  # terrain is final from here on

    def _place_terrain(self, density: str) -> None:
        count = 6 if density == "dense" else 3
        kinds = ["rough", "blocking", "hazardous"]
        chosen = [kinds[i % 3] for i in range(count)] if density == "dense" else []
        if not chosen:
            first = self.dice.pick(kinds)
            second = self.dice.pick([k for k in kinds if k != first])
            chosen = [first, second, self.dice.pick(kinds)]
        for kind in chosen:
            for _ in range(20):
                r = 25 + self.dice.u() * 20
                x = 60 + self.dice.u() * (BOARD - 120)
                y = 90 + self.dice.u() * (BOARD - 180)
                if all(dist(x, y, p.x, p.y) > p.r + r + 10 for p in self.pieces):
                    self.pieces.append(Piece(kind, x, y, r))
                    break

    def _pick_duel_targets(self, enemy: Side) -> None:
        """Scenario Duel: choose 2 points of the enemy (no Wards), the most dangerous first."""
        pool = sorted((u for u in enemy.units if not u.is_ward), key=lambda u: (u.fury or 21, u.points))
        chosen: list[Unit] = []
        for u in pool:
            if sum(c.points for c in chosen) + u.points <= 2:
                chosen.append(u)
        if not chosen and pool:
            chosen = [min(pool, key=lambda u: u.points)]
        for u in chosen:
            u.duel_target = True

    def _set_anchor(self, side: Side, is_a: bool) -> None:
        dep = self.deployment
        if dep == "corner":
            side.anchor = (40.0, 40.0) if is_a else (BOARD - 40, BOARD - 40)
        elif dep in ("close",):
            side.anchor = (200.0, 120.0) if is_a else (200.0, 280.0)
        elif dep == "mixed":
            side.anchor = (150.0, 200.0) if is_a else (250.0, 200.0)
        else:
            side.anchor = (200.0, 30.0) if is_a else (200.0, BOARD - 30)
        side.edge_y = 0.0 if is_a else BOARD

    def _hold_back(self, side: Side, limit: int, why: str, minimum: int = 0) -> list[Unit]:
        held: list[Unit] = []
        total = 0
        order = sorted((u for u in side.units if u.state == "board" and not u.is_ward), key=lambda u: (u.gtype not in ("skirmishers", "fighters"), -u.points))
        for u in order:
            if total + u.points <= limit and not any(c.carrier is u for c in side.units):
                held.append(u)
                total += u.points
        if total < minimum:
            return []
        for u in held:
            u.state = "reserve"
        if held:
            self.log(f"{side.name} keeps {total} points off the board ({why})")
        return held

    def _split(self, side: Side, low: int, high: int) -> list[Unit]:
        wave: list[Unit] = []
        total = 0
        for u in side.units:
            if u.state == "board" and total + u.points <= high:
                wave.append(u)
                total += u.points
            if total >= low:
                break
        return wave

    def _zone_point(self, side: Side, u: Unit) -> tuple[float, float]:
        dep = self.deployment
        is_a = side.idx == self.player_a
        r = u.radius
        if dep == "corner":
            ang = self.dice.u() * math.pi / 2
            d = r + self.dice.u() * (160 - r)
            x, y = d * math.cos(ang), d * math.sin(ang)
            return (x, y) if is_a else (BOARD - x, BOARD - y)
        if dep == "close":
            for _ in range(10):
                x = 40 + self.dice.u() * 320
                y = 200 - 20 - self.dice.u() * 140 if is_a else 200 + 20 + self.dice.u() * 140
                if dist(x, y, 200, 200) <= 160:
                    return x, y
            return (200.0, 120.0) if is_a else (200.0, 280.0)
        if dep == "mixed":
            strips = (0, 2) if is_a else (1, 3)
            load = [sum(o.points for o in side.units if o.uid in self.placed and int(o.x // 100) == s) for s in strips]
            strip = strips[0] if load[0] <= load[1] else strips[1]
            return strip * 100 + r + self.dice.u() * (100 - 2 * r), r + self.dice.u() * (BOARD - 2 * r)
        y = r + self.dice.u() * (80 - r)
        return r + self.dice.u() * (BOARD - 2 * r), (y if is_a else BOARD - y)

    def _deploy(self, side: Side, units: list[Unit]) -> None:
        enemy = self.sides[1 - side.idx]
        keep_away = self.deployment in ("close", "mixed")
        for u in units:
            best = None
            for attempt in range(40):
                x, y = clamp(*self._zone_point(side, u), u.radius)
                if terrain_at(self.pieces, x, y) in ("blocking", "hazardous"):
                    continue
                if any(o.uid in self.placed and dist(x, y, o.x, o.y) < o.radius + u.radius + 2 for o in self.units):
                    continue
                if keep_away and attempt < 30 and any(o.uid in self.placed and dist(x, y, o.x, o.y) <= self.band_mm["S"] for o in enemy.units):
                    continue
                if keep_away and attempt < 30 and any(dist(x, y, m.x, m.y) <= self.band_mm["S"] for m in self.markers):
                    continue
                best = (x, y)
                break
            if best is None:
                best = clamp(*self._zone_point(side, u), u.radius)
            u.x, u.y = best
            self.placed.add(u.uid)
        for u in side.units:  # passengers sit on their carrier's spot
            if u.carrier is not None:
                u.x, u.y = u.carrier.x, u.carrier.y

    # ------------------------------------------------------------------ geometry

    def mm(self, band: str | None) -> float:
        return self.band_mm.get(band or "B", 0.0)

    def contact(self, a: Unit, b: Unit) -> bool:
        return math.hypot(a.x - b.x, a.y - b.y) <= a.radius + b.radius + EPS

    def within(self, a: Unit, b: Unit, band: str | None) -> bool:
        """Is b within ``band`` of a (B: bases touching)?"""
        if band is None:
            return False
        d = math.hypot(a.x - b.x, a.y - b.y)
        return d <= a.radius + b.radius + EPS or (band != "B" and d <= self.band_mm.get(band, 0.0))

    def _within(self, a: Unit, b: Unit, band: str | None) -> bool:
        """:meth:`within`, remembered while the board stands still (the AI asks it thousands of times)."""
        cache = self.cache
        if cache is None:
            return self.within(a, b, band)
        key = (a.uid, b.uid, band)
        found = cache.get(key)
        if found is None:
            found = cache[key] = self.within(a, b, band)
        return found

    def los(self, a: Unit, b: Unit) -> bool:
        cache = self.cache
        if cache is not None:
            key = ("los", a.uid, b.uid) if a.uid < b.uid else ("los", b.uid, a.uid)
            found = cache.get(key)
            if found is None:
                found = cache[key] = self._los(a, b)
            return found
        return self._los(a, b)

    def _los(self, a: Unit, b: Unit) -> bool:
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        hypot = math.hypot
        for p in self.pieces:
            if p.kind == "blocking":  # segment_distance(), inlined
                px, py = p.x, p.y
                if length2 == 0:
                    d = hypot(px - ax, py - ay)
                else:
                    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                    d = hypot(px - (ax + t * dx), py - (ay + t * dy))
                if d < p.r:
                    return False
        for o in self.units:
            if o is a or o is b or o.state != "board":
                continue
            px, py = o.x, o.y
            if length2 == 0:
                d = hypot(px - ax, py - ay)
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                d = hypot(px - (ax + t * dx), py - (ay + t * dy))
            if d < o.radius - 1.0:
                return False
        return True

    def enemies(self, u: Unit) -> list[Unit]:
        if self.cache is not None:
            key = ("enemies", u.side)
            found = self.cache.get(key)
            if found is None:
                found = self.cache[key] = [o for o in self.sides[1 - u.side].units if o.state == "board"]
            return found
        return [o for o in self.sides[1 - u.side].units if o.state == "board"]

    def allies(self, u: Unit, wards: bool = False) -> list[Unit]:
        return [o for o in self.sides[u.side].units if o.on_board and o is not u and (wards or not o.is_ward)]

    def _obstacles(self, u: Unit, voluntary: bool) -> list[tuple[float, float, float, str]]:
        """Discs a moving centre may not enter: terrain (never changes after setup) and bases."""
        if self.cache is not None:
            ckey = ("obstacles", u.uid, voluntary)
            found = self.cache.get(ckey)
            if found is None:
                found = self.cache[ckey] = self._obstacles_now(u, voluntary)
            return found
        return self._obstacles_now(u, voluntary)

    def _obstacles_now(self, u: Unit, voluntary: bool) -> list[tuple[float, float, float, str]]:
        key = (u.heavy_trait, voluntary)
        terrain = self.terrain_obstacles.get(key)
        if terrain is None:
            terrain = []
            if u.heavy_trait != "flyer":
                for p in self.pieces:
                    if p.kind == "blocking" or (voluntary and p.kind == "hazardous") or (u.heavy_trait == "transport" and p.kind != "blocking"):
                        terrain.append((p.x, p.y, p.r, "terrain"))
            self.terrain_obstacles[key] = terrain
        out = list(terrain)
        r = u.radius
        through_friends = self.sides[u.side].has("raiders")  # Raiders pass through their own groups
        for o in self.units:
            if o.state == "board" and o is not u and not (through_friends and o.side == u.side):
                out.append((o.x, o.y, o.radius + r, "group"))
        return out

    def path_end(self, u: Unit, tx: float, ty: float, length: float, pivots: int, voluntary: bool = True) -> tuple[float, float]:
        """Where a straight move (with up to ``pivots`` detours round terrain) ends."""
        cache = self.cache
        if cache is None:
            return self._path_end(u, tx, ty, length, pivots, voluntary)
        key = ("path", u.uid, u.x, u.y, tx, ty, length, pivots, voluntary)
        found = cache.get(key)
        if found is None:
            found = cache[key] = self._path_end(u, tx, ty, length, pivots, voluntary)
        return found

    def _path_end(self, u: Unit, tx: float, ty: float, length: float, pivots: int, voluntary: bool) -> tuple[float, float]:
        x, y = u.x, u.y
        obstacles = self._obstacles(u, voluntary)
        for _ in range(pivots + 1):
            d = dist(x, y, tx, ty)
            if d < 1e-6 or length <= 0:
                break
            step = min(length, d)
            ex, ey = x + (tx - x) * step / d, y + (ty - y) * step / d
            hit_t, hit = None, None
            # first_entry() of every obstacle, inlined (the AI runs this thousands of times
            # a game): the same arithmetic, with the early exits a segment allows
            dx, dy = ex - x, ey - y
            a = dx * dx + dy * dy
            if a != 0:
                for ob in obstacles:
                    fx, fy = x - ob[0], y - ob[1]
                    b = 2 * (fx * dx + fy * dy)
                    if b >= 0:
                        continue  # moving away from its centre: it never enters at t >= 0
                    r = ob[2]
                    c = fx * fx + fy * fy - r * r
                    if c <= 0:
                        continue  # starts inside
                    disc = b * b - 4 * a * c
                    if disc < 0:
                        continue
                    t = (-b - math.sqrt(disc)) / (2 * a)
                    if 0.0 <= t <= 1.0 and (hit_t is None or t < hit_t):
                        hit_t, hit = t, ob
            if hit_t is None:
                x, y = ex, ey
                break
            travelled = max(0.0, hit_t * step - 0.5)
            x, y = x + (ex - x) * (travelled / step), y + (ey - y) * (travelled / step)
            length -= travelled
            if hit is None or pivots <= 0:
                break
            # pivot round the piece: aim for a point beside it, on the side nearer the target
            nx, ny = -(ty - y), tx - x
            norm = math.hypot(nx, ny) or 1.0
            side = 1.0 if (hit[0] - x) * nx + (hit[1] - y) * ny < 0 else -1.0
            wx = hit[0] + side * nx / norm * (hit[2] + 3)
            wy = hit[1] + side * ny / norm * (hit[2] + 3)
            if pivots >= 1:
                dw = dist(x, y, wx, wy)
                if dw <= length:
                    x, y = wx, wy
                    length -= dw
                    pivots -= 1
                    continue
            break
        return clamp(x, y, u.radius)

    # ------------------------------------------------------------------ checks

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
                self.log(f"{side.name}: Soothsayers turn a die into a {rolls[0]}")
            elif want_success and result == SUCCESS and other.soothsayer is not None and other.soothsayer < stat:
                hit = next(i for i, r in enumerate(rolls) if r >= stat)
                rolls[hit] = other.soothsayer
                other.soothsayer = None
                result = outcome_of(rolls, stat)
                self.log(f"{other.name}: Soothsayers turn a die into a {rolls[hit]}")
        return result

    def p_success(self, stat: int | None, bonus: int = 0, penalty: int = 0) -> float:
        f, s, c = check_probabilities(stat, dice_count(bonus, penalty, self.dice_table))
        return s + c

    # ------------------------------------------------------------------ momentum and removal

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

    # ------------------------------------------------------------------ Will checks

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
            not e.is_ward and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)
        ):
            penalty += 1
        result = self.roll(u.will, bonus, penalty, side, True, important=True)
        if result == CRITICAL and poisoned:
            result = self.roll(u.will, bonus, penalty + 1, side, True, important=True)
            self.log(f"{u.name}: Poisoners force a second Will check")
        if result == FAIL:
            self.log(f"{u.name}: Will check BREAK")
            self.remove(u, attacker, ctx)
            return FAIL
        for m in self.markers:
            if m.holder is u:
                m.holder = None
        if result == CRITICAL:
            self.log(f"{u.name}: Will check DEFY!")
            if side.has("blessed"):
                self.gain(side, 4)
            if not u.is_ward and u.mov:
                gx, gy = self.goal(u)
                u.x, u.y = self.path_end(u, gx, gy, self.mm(u.mov), self.pivots.get(u.mov, 0))
            if ctx is not None and not ctx.reacted and u.side != ctx.side.idx:
                self._offer_rally(ctx, u)
        else:
            self.log(f"{u.name}: Will check Stand Firm")
            if u.is_ward:
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

    # ------------------------------------------------------------------ attacks

    def attack_dice(self, a: Unit, t: Unit, charged: bool, extra_bonus: int = 0, extra_penalty: int = 0, reaction: str = "") -> tuple[int, int]:
        side = self.sides[a.side]
        bonus, penalty = extra_bonus, extra_penalty
        melee = self.contact(a, t) or a.gtype == "heavy"
        if melee:
            friends = [o for o in self.allies(a) if self.contact(o, a) or self.contact(o, t)]
            if friends:
                bonus += 1
            foes = [o for o in self.enemies(a) if self.contact(o, a)]
            mates = [o for o in self.allies(a) if self.contact(o, a)]
            if len(foes) > len(mates) + 1:
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
        return _break_odds(self.fury_of(a), t.will, 1 if t.attached else 0, bonus, penalty, self.dice_table)

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
        self.log(f"{a.name} attacks {t.name}: Fury {('fail', 'success', 'critical')[result]}")
        counter_result = FAIL
        if counter is not None and self.within(counter, a, counter.rng):
            cb, cp = self.attack_dice(counter, a, False)
            counter_result = self.roll(self.fury_of(counter), cb, cp, self.sides[counter.side], True, important=True)
            self.log(f"{counter.name} countercharges: Fury {('fail', 'success', 'critical')[counter_result]}")
        extra: list[Unit] = []
        if swarm and side.has("swarmers"):
            extra = [o for o in self.allies(a) if self.contact(o, t) and o.fury is not None]
        poisoned = side.has("poisoners")
        if result != FAIL:
            self.will_check(t, a, ctx, penalty=1 if result == CRITICAL else 0, poisoned=poisoned)
        if counter_result != FAIL and a.state == "board":
            self.will_check(a, counter, ctx, penalty=1 if counter_result == CRITICAL else 0, poisoned=self.sides[counter.side].has("poisoners"))
        for o in extra:
            if t.state == "board" and o.state == "board":
                self.resolve_attack(ctx, o, t, penalty=1, swarm=False, declared=False)

    # ------------------------------------------------------------------ reactions

    def _react(self, ctx: Action, value: float, reactor: Unit, name: str, effect: Callable[[], None]) -> bool:
        """How Reactions Work: declare for 1, the active player may refuse for 1, insist for 1."""
        if ctx.reacted:
            return False
        rs = self.sides[reactor.side]
        active = ctx.side
        if rs is active or rs.momentum < 1 or value < 0.9:
            return False
        rs.momentum -= 1
        ctx.reacted = True
        if active.momentum >= 2 and value >= 1.4 and self.dice.u() < 0.5:
            active.momentum -= 1
            if rs.momentum >= 1 and value >= 1.8:
                rs.momentum -= 1
                self.log(f"{rs.name} insists on {name}")
            else:
                self.log(f"{active.name} refuses {rs.name}'s {name}")
                return False
        self.log(f"{rs.name} reacts with {name} ({reactor.name})")
        ctx.reactor = reactor
        ctx.swap = True
        effect()
        return True

    def _warding_groups(self, side: Side, reaction: str) -> list[tuple[Unit, Unit]]:
        """(Ward, ally) pairs: non-Ward allies within the range of a Ward with ``reaction``."""
        out = []
        for w in side.units:
            if w.on_board and w.is_ward and w.warding == reaction:
                for a in side.units:
                    if a.on_board and not a.is_ward and self.within(w, a, w.rng):
                        out.append((w, a))
        return out

    def on_declare(self, ctx: Action) -> None:
        """Intimidate (a Heavy sees an enemy act in its range) and Detonate."""
        actor = ctx.actor
        if ctx.reacted or not actor.on_board:
            return
        enemy = self.sides[1 - ctx.side.idx]
        threat = self.threat(ctx)
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        for h in enemy.units:
            if h.on_board and "intimidate" in h.reactions and self.within(h, actor, h.rng) and self.los(h, actor):
                value = self.p_success(self.fury_of(h)) * threat

                def intimidate(h: Unit = h) -> None:
                    r = self.roll(self.fury_of(h), 0, 0, enemy, True)
                    if r != FAIL:
                        ctx.cancelled = True
                        self.log(f"{actor.name}'s action is stopped")
                        if r == CRITICAL:
                            self.lose(ctx.side, 1)

                options.append((value, h, "Intimidate", intimidate))
        for w in enemy.units:
            if w.on_board and w.is_ward and w.warding == "detonate" and self.within(w, actor, w.rng):
                caught = [u for u in self.units if u.on_board and u is not w and self.within(w, u, w.rng)]
                gain = sum(u.points * self._p_fail_will(u, 1) * (1 if u.side != w.side else -1) for u in caught)
                value = gain * REMOVE_VALUE - w.points

                def detonate(w: Unit = w, caught: list[Unit] = caught) -> None:
                    self.remove(w, None, None)
                    for u in caught:
                        if u.on_board:
                            self.will_check(u, None, None, penalty=1)

                options.append((value, w, "Detonate", detonate))
        self._best(ctx, options)

    def _p_fail_will(self, u: Unit, penalty: int) -> float:
        return check_probabilities(u.will, dice_count(1 if u.attached else 0, penalty, self.dice_table))[0]

    def _best(self, ctx: Action, options: list[tuple[float, Unit, str, Callable[[], None]]]) -> bool:
        if not options:
            return False
        value, unit, name, fn = max(options, key=lambda o: o[0])
        return self._react(ctx, value, unit, name, fn)

    def threat(self, ctx: Action) -> float:
        """How much the reactive player fears the declared action (for Intimidate)."""
        actor = ctx.actor
        best = 0.6
        for e in self.enemies(actor):
            if self.within(actor, e, band_plus(actor.rng, 1) if actor.mov else actor.rng):
                p_break, _ = self.expected_break(actor, e, 0, 0)
                best = max(best, p_break * e.points * REMOVE_VALUE)
        return best

    def on_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> tuple[float, float]:
        """Reactions to a move about to happen; returns where the mover really ends."""
        if ctx.reacted or u.side != ctx.side.idx:
            return ex, ey
        enemy = self.sides[1 - u.side]
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        stop = {"flag": False}
        for s in enemy.units:
            if not s.on_board:
                continue
            if "suppression" in s.reactions and s.fury is not None and (self.within(s, u, s.rng) or dist(s.x, s.y, ex, ey) <= self.mm(s.rng)) and self.los(s, u):
                pb, _ = self.expected_break(s, u, *self.attack_dice(s, u, False, reaction="suppression"))
                value = pb * u.points * REMOVE_VALUE + 0.3

                def suppress(s: Unit = s) -> None:
                    r = self.roll(self.fury_of(s), *self.attack_dice(s, u, False, reaction="suppression"), enemy, True, important=True)
                    self.log(f"{s.name} suppresses {u.name}: Fury {('fail', 'success', 'critical')[r]}")
                    if r != FAIL:
                        stop["flag"] = True
                        self.will_check(u, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=enemy.has("poisoners"))

                options.append((value, s, "Suppression", suppress))
            if "evade" in s.reactions and dist(s.x, s.y, ex, ey) <= self.mm(s.mov) + EPS and s.guile is not None:
                danger = 1.5 if ctx.target is s else 0.4
                value = self.p_success(s.guile) * danger * s.points

                def evade(s: Unit = s) -> None:
                    r = self.roll(s.guile, 0, 0, enemy, True)
                    if r != FAIL:
                        d = dist(ex, ey, s.x, s.y) or 1.0
                        s.x, s.y = self.path_end(s, s.x + (s.x - ex) / d * 400, s.y + (s.y - ey) / d * 400, self.mm(s.mov), self.pivots.get(s.mov or "S", 0))
                        if r == CRITICAL:
                            enemy.free_action = True

                options.append((value, s, "Evade", evade))
        for w in enemy.units:
            if w.on_board and "follow" in w.reactions and self.within(w, u, w.rng) and dist(w.x, w.y, ex, ey) > self.mm(w.rng) and self.los(w, u):
                value = 1.0 if w.warding in ("detonate", "sacrifice", "defiance") else 0.5

                def follow(w: Unit = w) -> None:
                    d = dist(w.x, w.y, ex, ey) or 1.0
                    keep = self.mm(w.rng) - 5
                    w.x, w.y = clamp(ex + (w.x - ex) / d * keep, ey + (w.y - ey) / d * keep, w.radius)

                options.append((value, w, "Follow", follow))
        for _w, ally in self._warding_groups(enemy, "pursuit"):
            if self.within(ally, u, ally.rng) and dist(ally.x, ally.y, ex, ey) > self.mm(ally.rng) and ally.mov:
                value = 1.3 * self.p_success(ally.guile)

                def pursue(ally: Unit = ally) -> None:
                    if self.roll(ally.guile, 0, 0, enemy, True) != FAIL:
                        band = band_plus(ally.mov, 1)
                        ally.x, ally.y = self.path_end(ally, ex, ey, max(0.0, self.mm(band)), self.pivots.get(band or "S", 0))

                options.append((value, ally, "Pursuit", pursue))
        self._best(ctx, options)
        if stop["flag"] or u.state != "board":
            return u.x, u.y
        return ex, ey

    def _offer_attack_reactions(self, ctx: Action, a: Unit, t: Unit) -> Unit | None:
        """Countercharge, Suppression, Regroup, Confusion when an attack is declared."""
        target_side = self.sides[t.side]
        options: list[tuple[float, Unit, str, Callable[[], None]]] = []
        redirect: dict[str, Unit | None] = {"to": None}
        if "countercharge" in t.reactions and t.fury is not None:
            pb, _ = self.expected_break(t, a, 0, 0)
            value = pb * a.points * REMOVE_VALUE + 0.2
            if target_side.has("fearsome") is False and self.sides[a.side].has("fearsome"):
                value *= self.p_success(t.guile)

            def countercharge() -> None:
                if self.sides[a.side].has("fearsome") and dist(a.x, a.y, t.x, t.y) <= self.mm("S"):
                    if self.roll(t.guile, 0, 0, target_side, True) == FAIL:
                        return
                if not self.contact(t, a) and t.mov:
                    t.x, t.y = self.path_end(t, a.x, a.y, min(self.mm(t.mov), max(0.0, dist(t.x, t.y, a.x, a.y) - a.radius - t.radius)), 0)
                ctx.countercharge = t

            options.append((value, t, "Countercharge", countercharge))
        for s in target_side.units:
            if s.on_board and "suppression" in s.reactions and s.fury is not None and self.within(s, a, s.rng) and self.los(s, a) and (s is t or self.los(s, t)):
                pb, _ = self.expected_break(s, a, *self.attack_dice(s, a, False, reaction="suppression"))
                value = pb * a.points * REMOVE_VALUE + 0.2

                def suppress(s: Unit = s) -> None:
                    r = self.roll(self.fury_of(s), *self.attack_dice(s, a, False, reaction="suppression"), target_side, True, important=True)
                    self.log(f"{s.name} shoots {a.name}: Fury {('fail', 'success', 'critical')[r]}")
                    if r != FAIL:
                        self.will_check(a, s, ctx, penalty=1 if r == CRITICAL else 0, poisoned=target_side.has("poisoners"))

                options.append((value, s, "Suppression", suppress))
        if "regroup" in t.reactions and t.guile is not None:
            helpers = [o for o in self.allies(t) if self.within(t, o, "M") and self.los(t, o) and o.mov and o.fury is not None]
            if helpers:
                value = 0.6 + 0.6 * self.p_success(t.guile)

                def regroup(helpers: list[Unit] = helpers) -> None:
                    r = self.roll(t.guile, 0, 0, target_side, True)
                    for o in helpers[: (2 if r == CRITICAL else 1) if r != FAIL else 0]:
                        o.x, o.y = self.path_end(o, a.x, a.y, self.mm(o.mov), self.pivots.get(o.mov or "S", 0))

                options.append((value, t, "Regroup", regroup))
        for _w, ally in self._warding_groups(target_side, "confusion"):
            if ally is not t:
                continue
            decoys = [o for o in self.allies(a) if self.within(a, o, a.rng) and o is not a]
            if decoys and t.guile is not None:
                pb, _ = self.expected_break(a, t, 0, 0)
                value = self.p_success(t.guile) * (pb * t.points * REMOVE_VALUE + 0.5)

                def confuse(decoys: list[Unit] = decoys) -> None:
                    r = self.roll(t.guile, 0, 0, target_side, True)
                    if r != FAIL:
                        redirect["to"] = max(decoys, key=lambda d: d.points)
                        self.log(f"{a.name}'s attack is turned on {redirect['to'].name}")
                        if r == CRITICAL:
                            self.lose(self.sides[a.side], 2)

                options.append((value, t, "Confusion", confuse))
        self._best(ctx, options)
        return redirect["to"]

    def _offer_sacrifice(self, ctx: Action, u: Unit, attacker: Unit) -> Unit | None:
        side = self.sides[u.side]
        chosen: dict[str, Unit | None] = {"u": None}
        options = []
        for _w, ally in self._warding_groups(side, "sacrifice"):
            if ally is u or not self.within(attacker, ally, attacker.rng if attacker.rng != "B" else "S"):
                continue
            own = self._p_fail_will(u, 0) * u.points
            theirs = check_probabilities(ally.will, dice_count(1 + (1 if ally.attached else 0), 0, self.dice_table))[0] * ally.points
            value = (own - theirs) * REMOVE_VALUE

            def sacrifice(ally: Unit = ally) -> None:
                chosen["u"] = ally

            options.append((value, ally, "Sacrifice", sacrifice))
        self._best(ctx, options)
        return chosen["u"]

    def _offer_defiance(self, ctx: Action, u: Unit, attacker: Unit) -> None:
        side = self.sides[u.side]
        if u.is_ward or u.fury is None or not any(self.within(u, e, u.rng) for e in self.enemies(u)):
            return
        if not any(ally is u for _, ally in self._warding_groups(side, "defiance")):
            return
        target = attacker if attacker.on_board and self.within(u, attacker, u.rng) else next(e for e in self.enemies(u) if self.within(u, e, u.rng))
        pb, _ = self.expected_break(u, target, 1, 0)
        self._react(ctx, pb * target.points * REMOVE_VALUE + 0.2, u, "Defiance", lambda: self.resolve_attack(ctx, u, target, bonus=1, swarm=False, declared=False))

    def _offer_vengeance(self, ctx: Action, lost: Unit) -> None:
        side = self.sides[lost.side]
        pairs = self._warding_groups(side, "vengeance")
        if not pairs:
            return
        ward, ally = max(pairs, key=lambda p: self.p_success(self.fury_of(p[1])))
        value = 2 * self.p_success(self.fury_of(ally))

        def vengeance() -> None:
            movers = [ally]
            r = self.roll(self.fury_of(ally), 0, 0, side, True)
            if r == CRITICAL:
                second = [o for o in self.allies(ally) if o is not ally and self.los(ally, o) and o.fury is not None]
                if second:
                    movers.append(second[0])
            for i, m in enumerate(movers):
                rr = r if i == 0 else self.roll(self.fury_of(m), 0, 0, side, True)
                if rr != FAIL and m.mov:
                    gx, gy = self.goal(m)
                    m.x, m.y = self.path_end(m, gx, gy, self.mm(m.mov), self.pivots.get(m.mov, 0))
                    self.gain(side, 2)

        self._react(ctx, value, ally, "Vengeance", vengeance)

    def _offer_rally(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        wards = [w for w, ally in self._warding_groups(side, "rally") if ally is u]
        if not wards or u.fury is None:
            return
        w = wards[0]
        allies = [o for o in side.units if o.on_board and self.within(w, o, w.rng)]
        enemies = [o for o in self.enemies(w) if self.within(w, o, w.rng)]
        value = self.p_success(self.fury_of(u)) * 2 * len(allies)

        def rally() -> None:
            r = self.roll(self.fury_of(u), 0, 0, side, True)
            if r != FAIL:
                self.gain(side, 2 * len(allies) + (len(enemies) if r == CRITICAL else 0))

        self._react(ctx, value, u, "Rally", rally)

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
        self.log(f"{side.name} answers with Reversal ({ally.name})")
        r = self.roll(ally.guile, 0, 0, side, True)
        if r != FAIL:
            options = [o for o in self.options(side, only=ally, free=True) if o.name not in ("Rest",)]
            if options:
                best = max(options, key=lambda o: o.score)
                inner = Action(side, ally, best.name, reacted=True, attack=best.name in ("Charge", "Stand and Fight"))
                best.run(inner)
        ctx.swap = False

    # ------------------------------------------------------------------ goals and scoring

    def goal(self, u: Unit) -> tuple[float, float]:
        """Where the AI wants ``u`` to go, per scenario (cached while options are scored)."""
        if self.cache is not None:
            key = ("goal", u.uid)
            found = self.cache.get(key)
            if found is None:
                found = self.cache[key] = self._goal(u)
            return found
        return self._goal(u)

    def _goal(self, u: Unit) -> tuple[float, float]:
        enemies = self.enemies(u)
        if self.scenario == "king-of-the-hill" and self.hill is not None:
            return self.hill.x, self.hill.y
        if self.scenario == "capture-the-flags":
            held = next((m for m in self.markers if m.holder is u), None)
            if held is not None:
                edges = [(u.x, 0.0), (u.x, BOARD), (0.0, u.y), (BOARD, u.y)]
                return min(edges, key=lambda e: dist(u.x, u.y, *e))
            free = [m for m in self.markers if not m.off and (m.holder is None or m.holder.side != u.side)]
            if free:
                m = min(free, key=lambda m: dist(u.x, u.y, m.x, m.y))
                return m.x, m.y
        if self.scenario == "conquest":
            mine = [0.0] * 4
            theirs = [0.0] * 4
            for o in self.units:
                if o.on_board and o is not u:
                    (mine if o.side == u.side else theirs)[min(3, int(o.x // 100))] += o.points
            zone = min(range(4), key=lambda z: (mine[z] - theirs[z], abs(z * 100 + 50 - u.x)))
            return zone * 100 + 50, min(max(u.y, 60.0), BOARD - 60)
        if self.scenario == "duel":
            targets = [e for e in enemies if e.duel_target]
            if targets:
                t = min(targets, key=lambda e: dist(u.x, u.y, e.x, e.y))
                return t.x, t.y
        if enemies:
            t = min(enemies, key=lambda e: dist(u.x, u.y, e.x, e.y))
            return t.x, t.y
        return u.x, u.y

    def target_value(self, t: Unit) -> float:
        value = t.points * REMOVE_VALUE
        if self.scenario == "duel" and t.duel_target:
            value *= 2.5
        if any(m.holder is t for m in self.markers):
            value += 2.0
        return value

    def move_value(self, u: Unit, ex: float, ey: float) -> float:
        gx, gy = self.goal(u)
        progress = dist(u.x, u.y, gx, gy) - dist(ex, ey, gx, gy)
        return self.move_weight() * progress / 80.0

    def move_weight(self) -> float:
        """Value of 80 mm of progress towards the goal: more in objective scenarios, late."""
        if self.scenario in ("king-of-the-hill", "capture-the-flags", "conquest"):
            return 1.0 if self.round >= 3 else 0.6
        return 0.35

    def cost_of(self, side: Side, u: Unit, free: bool) -> int:
        if free or u.free_next or side.free_action:
            return 0
        n = u.actions
        return self.costs[n] if n < len(self.costs) else self.costs[-1] + (n - len(self.costs) + 1)

    # ------------------------------------------------------------------ actions

    def options(self, side: Side, only: Unit | None = None, free: bool = False) -> list[Option]:
        """Every action the side could give now, scored; nothing moves while they are scored,
        so line of sight and goals are cached for the call - and for the next calls while
        no group moves, enters or leaves and no marker changes hands (the board signature):
        most actions (Rest, a failed attack, a refused reaction) leave the board as it was."""
        signature = (
            tuple([(o.x, o.y, o.state) for o in self.units]),
            tuple([(m.holder.uid if m.holder is not None else None, m.off) for m in self.markers]),
        )
        if signature != self.board_signature:
            self.board_signature = signature
            self.board_memo = {}
            self.memo_misses += 1
        else:
            self.memo_hits += 1
        self.cache = self.board_memo
        try:
            return self._options(side, only, free)
        finally:
            self.cache = None

    def _options(self, side: Side, only: Unit | None, free: bool) -> list[Option]:
        out: list[Option] = []
        self.bar = -math.inf  # best score so far: lets costly options be skipped when they cannot win
        lms = sum(1 for u in side.units if u.on_board and not u.is_ward) == 1
        for u in side.units:
            if only is not None and u is not only:
                continue
            if u.is_ward or u.state not in ("board", "carried", "reserve"):
                continue
            if u is side.last_actor and not lms and only is None:
                continue
            cost = self.cost_of(side, u, free)
            if cost > side.momentum:
                continue
            if u.state == "reserve":
                out += self._entry_options(side, u, cost)
                continue
            found = self._unit_options(side, u, cost)
            if found:
                self.bar = max(self.bar, max(o.score for o in found))
            out += found
        return out

    def _entry_options(self, side: Side, u: Unit, cost: int) -> list[Option]:
        if side.has("ambushers"):
            enemies = self.enemies(u)
            if not enemies:
                return []
            t = min(enemies, key=lambda e: (-self.target_value(e), e.uid))
            d = self.mm("S") + u.radius + 3

            def ambush(ctx: Action, t: Unit = t) -> None:
                ang = self.dice.u() * 2 * math.pi
                for _ in range(8):
                    x, y = clamp(t.x + d * math.cos(ang), t.y + d * math.sin(ang), u.radius)
                    if terrain_at(self.pieces, x, y) is None and all(dist(x, y, e.x, e.y) > self.mm("S") for e in self.enemies(u)):
                        break
                    ang += math.pi / 4
                u.x, u.y, u.state = x, y, "board"
                self.log(f"{u.name} comes out of ambush")
                self._charge(ctx, u, t)

            return [Option(1.0 + self.target_value(t) * 0.3 - COST_WEIGHT * cost, cost, u, "Ambush", ambush)]
        if self.round < 2:
            return []

        def enter(ctx: Action) -> None:
            x = 40 + self.dice.u() * (BOARD - 80)
            edge = side.edge_y if side.edge_y is not None else 0.0
            u.x, u.y = clamp(x, edge, u.radius)
            u.state = "board"
            self.log(f"{u.name} enters from the board edge")

        return [Option(1.2 - COST_WEIGHT * cost, cost, u, "Enter", enter)]

    def _start(self, u: Unit) -> None:
        """A passenger leaves its Transport as the movement of its action."""
        if u.state == "carried" and u.carrier is not None:
            c = u.carrier
            u.state, u.carrier = "board", None
            u.x, u.y = clamp(c.x + c.radius + u.radius + 1, c.y, u.radius)
            self.log(f"{u.name} gets out of {c.name}")

    def _unit_options(self, side: Side, u: Unit, cost: int) -> list[Option]:
        out: list[Option] = []
        enemies = self.enemies(u)
        w = COST_WEIGHT * cost
        ux, uy = (u.carrier.x, u.carrier.y) if u.state == "carried" and u.carrier else (u.x, u.y)
        can_attack = u.fury is not None
        # Stand and Fight
        if can_attack and u.state == "board":
            targets = [e for e in enemies if self._within(u, e, u.rng) and self.los(u, e)]
            if targets:
                best, best_value, pb, ps = None, 0.0, 0.0, 0.0
                for e in targets:  # the first target of the highest expected value
                    eb, es = self.expected_break(u, e, *self.attack_dice(u, e, False))
                    value = eb * self.target_value(e)
                    if best is None or value > best_value:
                        best, best_value, pb, ps = e, value, eb, es
                assert best is not None
                score = pb * self.target_value(best) + 0.2 * ps - w
                if u.heavy_trait == "colossal":
                    score += 0.5 * (min(3, len(targets)) - 1)
                out.append(Option(score, cost, u, "Stand and Fight", lambda ctx, t=best: self._stand(ctx, u, t)))
        # Charge: move up to MOV then attack with a penalty
        if can_attack and u.mov and enemies:
            reach = self.mm(u.mov) + (self.mm(u.rng) if u.rng != "B" else 0) + u.radius * 2 + 1
            near = [e for e in enemies if dist(ux, uy, e.x, e.y) <= reach and not self._within(u, e, u.rng)]
            if near:
                t = max(near, key=lambda e: self.target_value(e) - dist(ux, uy, e.x, e.y) / 100)
                pb, ps = self.expected_break(u, t, 0, 0 if side.has("elites") else 1)
                score = 0.8 * pb * self.target_value(t) + 0.15 * ps - w
                out.append(Option(score, cost, u, "Charge", lambda ctx, t=t: self._charge(ctx, u, t)))
        # Sprint towards the goal (not worked out when even a full move could not beat the best option)
        bar = max([self.bar, *(o.score for o in out)])
        band = band_plus(u.mov, 1) if u.mov else None
        if band is not None and self.move_weight() * self.mm(band) / 80.0 - w >= bar - 1e-9:
            gx, gy = self.goal(u)
            save = (u.x, u.y)  # a passenger moves from where its Transport stands now
            u.x, u.y = ux, uy
            length = min(self.mm(band), max(0.0, dist(ux, uy, gx, gy) - 2 * u.radius))
            ex, ey = self.path_end(u, gx, gy, length, self.pivots.get(band or "S", 0))
            value = self.move_value(u, ex, ey)
            u.x, u.y = save
            if value > 0.05:
                out.append(Option(value - w, cost, u, "Sprint", lambda ctx, p=(ex, ey): self._sprint(ctx, u, p)))
        # Rest: regain momentum
        if u.guile is not None and u.state == "board":
            f, s, c = check_probabilities(u.guile, dice_count(0, 0, self.dice_table))
            room = side.total - (side.momentum - cost)
            gain = f * min(1, room) + s * min(2, room) + c * min(3, room)
            short = 1.0 if side.momentum - cost < 4 else 0.5  # momentum matters more when little is left
            out.append(Option(short * (gain - cost) - 0.3, cost, u, "Rest", lambda ctx: self._rest(ctx, u)))
        # Feint: push a dangerous enemy away (or off a hill or flag)
        if u.guile is not None and u.state == "board" and self.scenario in ("king-of-the-hill", "capture-the-flags"):
            targets = [e for e in enemies if self.within(u, e, u.rng) and self.los(u, e)]
            for e in targets:
                gx, gy = self.goal(e)
                if dist(e.x, e.y, gx, gy) < 60:
                    out.append(Option(self.p_success(u.guile) * 1.2 * e.points - w, cost, u, "Feint", lambda ctx, e=e: self._feint(ctx, u, e)))
                    break
        # Translocate Ward: bring a Ward with a warding reaction up to the fight
        wards = [o for o in side.units if o.on_board and o.is_ward]
        if wards and u.state == "board":
            ward = wards[0]
            front = self._front(side, enemies)
            if front is not None and front is not u and dist(ward.x, ward.y, front.x, front.y) > self.mm(ward.rng) and self.los(u, front):
                out.append(Option(0.6 - w, cost, u, "Translocate Ward", lambda ctx, ward=ward, front=front: self._translocate(ctx, u, ward, front)))
        # Champion action
        if u.champion_action and u.state == "board":
            out += self._champion_options(side, u, cost)
        # Maneuver: draw a fighting ally towards this group's foes
        if u.guile is not None and u.state == "board":
            helpers = [a for a in self.allies(u) if a.mov and a.fury is not None and self._within(u, a, "M")]
            ally = max(helpers, key=lambda a: dist(a.x, a.y, u.x, u.y)) if helpers and enemies else None
            if ally is not None and self.los(u, ally):
                end = self.path_end(ally, u.x, u.y, min(self.mm(ally.mov), max(0.0, dist(ally.x, ally.y, u.x, u.y) - 2 * ally.radius)), 0)
                value = self.p_success(u.guile) * self.move_value(ally, *end)
                if value > 0.05:
                    out.append(Option(value - w, cost, u, "Maneuver", lambda ctx, ally=ally, end=end: self._maneuver(ctx, u, ally, end)))
        return out

    def _front(self, side: Side, enemies: list[Unit]) -> Unit | None:
        """The side's non-Ward group nearest the enemy (cached while options are scored)."""
        key = ("front", side.idx)
        if self.cache is not None and key in self.cache:
            return self.cache[key]
        mine = [a for a in side.units if a.on_board and not a.is_ward]
        front = min(mine, key=lambda a: min((dist(a.x, a.y, e.x, e.y) for e in enemies), default=999.0), default=None)
        if self.cache is not None:
            self.cache[key] = front
        return front

    def _maneuver(self, ctx: Action, u: Unit, ally: Unit, end: tuple[float, float]) -> None:
        self._start(u)
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and ally.state == "board":
            ally.x, ally.y = end
            self._markers_after_move(ally)
            if r == CRITICAL:
                ally.free_next = True

    # -- standard actions

    def _do_move(self, ctx: Action, u: Unit, ex: float, ey: float) -> bool:
        """Move with terrain exits and movement reactions; False if the group is gone."""
        side = self.sides[u.side]
        here = terrain_at(self.pieces, u.x, u.y)
        exempt = u.heavy_trait == "flyer" or side.has("raiders") or side.has("harriers")
        if here == "rough" and not exempt and terrain_at(self.pieces, ex, ey) != "rough":
            if side.momentum >= 4:
                side.momentum -= 1
            elif self.roll(u.guile, 0, 0, side, True) == FAIL:
                return True
        if here == "hazardous" and u.heavy_trait != "flyer" and terrain_at(self.pieces, ex, ey) != "hazardous":
            if side.momentum >= 5:
                side.momentum -= 2
            elif self.will_check(u, None, ctx, allow_push=False) == FAIL:
                return False
        ex, ey = self.on_move(ctx, u, ex, ey)
        if u.state != "board":
            return False
        u.x, u.y = ex, ey
        for c in side.units:
            if c.carrier is u:
                c.x, c.y = ex, ey
        self._markers_after_move(u)
        return True

    def _sprint(self, ctx: Action, u: Unit, p: tuple[float, float]) -> None:
        self._start(u)
        self._do_move(ctx, u, *p)

    def _stand(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        side = self.sides[u.side]
        if not self._fearsome_ok(u):
            return
        targets = [t]
        if u.heavy_trait == "colossal":
            others = [e for e in self.enemies(u) if e is not t and self.within(u, e, u.rng) and self.los(u, e)]
            targets += sorted(others, key=lambda e: -self.target_value(e))[:2]
        partner = None
        if side.has("coordinated") and not side.coordinated_used:
            partner = next(
                (a for a in self.allies(u) if a.fury is not None and self.within(u, a, "M") and self.los(u, a)
                 and any(self.within(a, e, a.rng) and self.los(a, e) for e in self.enemies(a))),
                None,
            )
        bonus = 1 if partner is not None else 0
        for target in targets:
            self.resolve_attack(ctx, u, target, bonus=bonus)
        if partner is not None and partner.state == "board":
            side.coordinated_used = True
            foes = [e for e in self.enemies(partner) if self.within(partner, e, partner.rng) and self.los(partner, e)]
            if foes:
                self.log(f"{partner.name} joins in (Coordinated)")
                self.resolve_attack(ctx, partner, foes[0], bonus=1, declared=False)

    def _fearsome_ok(self, u: Unit) -> bool:
        enemy = self.sides[1 - u.side]
        if enemy.has("fearsome") and any(not e.is_ward and dist(e.x, e.y, u.x, u.y) <= self.mm("S") and self.los(e, u) for e in self.enemies(u)):
            return self.roll(u.guile, 0, 0, self.sides[u.side], True) != FAIL
        return True

    def _charge(self, ctx: Action, u: Unit, t: Unit) -> None:
        ctx.attack = True
        ctx.target = t
        self._start(u)
        if u.rng == "B" or u.gtype == "heavy":
            gap = t.radius + u.radius
        else:
            gap = max(0.0, self.mm(u.rng) - 2)
        need = max(0.0, dist(u.x, u.y, t.x, t.y) - gap)
        if need > 0 and u.mov:
            ex, ey = self.path_end(u, t.x, t.y, min(self.mm(u.mov), need), self.pivots.get(u.mov, 0))
            if not self._do_move(ctx, u, ex, ey):
                return
        if ctx.cancelled or u.state != "board" or t.state != "board":
            return
        if self.within(u, t, u.rng) and self.los(u, t) and self._fearsome_ok(u):
            self.resolve_attack(ctx, u, t, charged=True)

    def _rest(self, ctx: Action, u: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        self.gain(self.sides[u.side], (1, 2, 3)[r])

    def _feint(self, ctx: Action, u: Unit, e: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and e.state == "board":
            d = dist(u.x, u.y, e.x, e.y) or 1.0
            e.x, e.y = self.path_end(e, e.x + (e.x - u.x) / d * 400, e.y + (e.y - u.y) / d * 400, self.mm("M"), 0, voluntary=r != CRITICAL)
            for m in self.markers:
                if m.holder is e:
                    m.holder = None
            self.log(f"{u.name} feints {e.name} away")

    def _translocate(self, ctx: Action, u: Unit, ward: Unit, front: Unit) -> None:
        if ward.state != "board":
            return
        ward.x, ward.y = clamp(front.x - front.radius - ward.radius - 2, front.y, ward.radius)
        self.log(f"{u.name} moves {ward.name}")

    # -- champion actions

    def _champion_options(self, side: Side, u: Unit, cost: int) -> list[Option]:
        a = u.champion_action
        enemies = self.enemies(u)
        w = COST_WEIGHT * cost
        reach = u.rng
        out: list[Option] = []
        g = u.guile
        if g is None:
            return out
        if a == "scheming-plot":
            near = [e for e in enemies if self.within(u, e, reach)]
            mine = sum(o.points for o in self.allies(u, True) if self.within(u, o, reach)) + u.points
            if not near or mine > sum(e.points for e in near):
                p = self.p_success(g)
                room = side.total - (side.momentum - cost)
                theirs = self.sides[1 - side.idx].momentum
                out.append(Option(p * 0.8 * (min(2, room) + min(2, theirs)) - w, cost, u, "Scheming Plot", lambda ctx: self._scheme(ctx, u)))
        elif a == "distant-doom" and u.fury is not None:
            band = band_plus(reach, 1)
            targets = [e for e in enemies if self.within(u, e, band) and not self.within(u, e, reach)]
            if targets:
                t = max(targets, key=self.target_value)
                pb, _ = self.expected_break(u, t, 0, 1)
                out.append(Option(pb * self.target_value(t) - w, cost, u, "Distant Doom", lambda ctx, t=t: self.resolve_attack(ctx, u, t, penalty=1)))
        elif a == "spot-weakness":
            for ally in self.allies(u):
                if ally.fury is None or not self.within(u, ally, reach if reach != "B" else "S"):
                    continue
                foes = [e for e in self.enemies(ally) if self.within(ally, e, ally.rng) and self.los(ally, e)]
                if foes:
                    t = max(foes, key=self.target_value)
                    pb, _ = self.expected_break(ally, t, 0, 0)
                    out.append(Option(self.p_success(g) * pb * self.target_value(t) - w, cost, u, "Spot Weakness", lambda ctx, ally=ally, t=t: self._spot(ctx, u, ally, t)))
                    break
        elif a == "battle-summons":
            lost = [o for o in side.units if o.state == "out" and o.points <= 2]
            if lost:
                t = max(lost, key=lambda o: o.points)
                out.append(Option(self.p_success(g) * t.points * 1.2 - w, cost, u, "Battle Summons", lambda ctx, t=t: self._summon(ctx, u, t)))
        elif a == "banishment":
            targets = [e for e in enemies if self.within(u, e, reach if reach != "B" else "S")]
            if targets:
                t = max(targets, key=self.target_value)
                p = self.p_success(g, 0, 1)
                risk = self._p_fail_will(u, 0) * u.points * REMOVE_VALUE
                out.append(Option(p * t.points * 0.8 - risk - w, cost, u, "Banishment", lambda ctx, t=t: self._banish(ctx, u, t)))
        elif a == "push-to-the-brink":
            targets = [e for e in enemies if self.within(u, e, reach if reach != "B" else "S") and self.los(u, e)]
            if targets:
                t = max(targets, key=lambda e: e.points)
                value = self.p_success(g) * (0.6 + (1.2 if self.scenario in ("king-of-the-hill", "capture-the-flags", "conquest") else 0.0))
                out.append(Option(value - w, cost, u, "Push to the Brink", lambda ctx, t=t: self._push(ctx, u, t)))
        elif a == "crashing-wave":
            movers = [o for o in self.allies(u) if o.mov and self.within(u, o, reach if reach != "B" else "S")]
            if movers:
                value = self.p_success(g) * sum(max(0.0, self.move_value(o, *self.path_end(o, *self.goal(o), self.mm(o.mov), 0))) for o in movers)
                out.append(Option(value - w, cost, u, "Crashing Wave", lambda ctx, movers=movers: self._wave(ctx, u, movers)))
        return out

    def _scheme(self, ctx: Action, u: Unit) -> None:
        side = self.sides[u.side]
        r = self.roll(u.guile, 0, 0, side, True)
        if r != FAIL:
            n = 3 if r == CRITICAL else 2
            self.gain(side, n)
            self.lose(self.sides[1 - u.side], n)

    def _spot(self, ctx: Action, u: Unit, ally: Unit, t: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r != FAIL and ally.state == "board" and t.state == "board":
            self.resolve_attack(ctx, ally, t, bonus=1 if r == CRITICAL else 0)

    def _summon(self, ctx: Action, u: Unit, t: Unit) -> None:
        side = self.sides[u.side]
        if self.roll(u.guile, 0, 0, side, True) == FAIL or t.state != "out":
            return
        ax, ay = side.anchor
        for _ in range(12):
            x, y = clamp(ax + (self.dice.u() - 0.5) * 160, ay + (self.dice.u() - 0.5) * 40, t.radius)
            if terrain_at(self.pieces, x, y) is None and all(dist(x, y, e.x, e.y) > self.mm("S") for e in self.enemies(t)):
                t.x, t.y, t.state = x, y, "board"
                t.actions = 0
                side.total += t.points
                self.log(f"{t.name} is summoned back")
                return

    def _banish(self, ctx: Action, u: Unit, t: Unit) -> None:
        side = self.sides[u.side]
        r = self.roll(u.guile, 0, 1, side, True)
        if r != FAIL and t.state == "board":
            t.state = "banished"
            t.back_round = self.round + 1
            enemy = self.sides[t.side]
            enemy.total = max(0, enemy.total - t.points)
            enemy.momentum = min(enemy.momentum, enemy.total)
            self.log(f"{t.name} is banished until next round")
        if r != CRITICAL:
            self.will_check(u, None, ctx, allow_push=False)

    def _push(self, ctx: Action, u: Unit, t: Unit) -> None:
        r = self.roll(u.guile, 0, 0, self.sides[u.side], True)
        if r == FAIL or t.state != "board":
            return
        ax, ay = self.sides[t.side].anchor
        d = dist(t.x, t.y, ax, ay)
        if d > 1:
            step = d
            while step > 10:
                x, y = t.x + (ax - t.x) * step / d, t.y + (ay - t.y) * step / d
                old = (t.x, t.y)
                t.x, t.y = x, y
                ok = self.los(u, t)
                t.x, t.y = old
                if ok:
                    t.x, t.y = clamp(x, y, t.radius)
                    break
                step *= 0.6
        for m in self.markers:
            if m.holder is t:
                m.holder = None
        self.log(f"{t.name} is pushed to the brink")
        if r == CRITICAL:
            self.will_check(t, u, ctx)

    def _wave(self, ctx: Action, u: Unit, movers: list[Unit]) -> None:
        if self.roll(u.guile, 0, 0, self.sides[u.side], True) == FAIL:
            return
        for o in movers:
            if o.state == "board":
                gx, gy = self.goal(o)
                o.x, o.y = self.path_end(o, gx, gy, min(self.mm(o.mov), max(0.0, dist(o.x, o.y, gx, gy) - 2 * o.radius)), self.pivots.get(o.mov or "S", 0))
                self._markers_after_move(o)

    # ------------------------------------------------------------------ scenarios

    def _markers_after_move(self, u: Unit) -> None:
        if not self.markers or u.state != "board":
            return
        side = self.sides[u.side]
        for m in self.markers:
            if m.holder is u:
                m.x, m.y = u.x, u.y
                near_edge = min(u.x, u.y, BOARD - u.x, BOARD - u.y) <= u.radius + 1
                if near_edge and m.taken_turn != self.turn_counter and not m.off:
                    m.off, m.holder = True, None
                    side.markers_off += 1
                    self.log(f"{side.name} carries a flag off the board ({side.markers_off})")
                    self.check_victory()
        carried = any(m.holder is u for m in self.markers)
        if not carried and not u.is_ward and side.momentum >= 1:
            for m in self.markers:
                if not m.off and m.holder is None and dist(u.x, u.y, m.x, m.y) <= u.radius + 6:
                    side.momentum -= 1
                    m.holder, m.taken_turn = u, self.turn_counter
                    self.log(f"{u.name} takes a flag")
                    break

    def check_victory(self) -> None:
        if self.finished:
            return
        alive = [any(u.in_play for u in s.units) for s in self.sides]
        if not all(alive):
            self.finished = True
            self.winner = None if not any(alive) else (0 if alive[0] else 1)
            return
        if self.scenario == "capture-the-flags":
            for s in self.sides:
                if s.markers_off >= 2:
                    self.finished, self.winner = True, s.idx
                    return
        if self.scenario == "duel":
            done = [all(u.state == "out" for u in self.sides[1 - s.idx].units if u.duel_target) and any(u.duel_target for u in self.sides[1 - s.idx].units) for s in self.sides]
            if done[0] != done[1]:
                self.finished, self.winner = True, 0 if done[0] else 1
            elif done[0]:
                self.finished, self.winner = True, None

    def end_of_round(self) -> None:
        limit = self.scenario_rounds or self.round_limit
        if self.finished or self.round < limit:
            return
        if self.scenario == "king-of-the-hill" and self.hill is not None:
            score = [sum(u.points for u in s.units if u.on_board and dist(u.x, u.y, self.hill.x, self.hill.y) <= self.hill.r + u.radius + EPS) for s in self.sides]
            self._decide(score)
        elif self.scenario == "capture-the-flags":
            held = [sum(1 for m in self.markers if m.holder is not None and m.holder.side == s.idx) + s.markers_off for s in self.sides]
            if held[0] != held[1]:
                self._decide(held)
            else:
                near = [sum(u.points for u in s.units if u.on_board and dist(u.x, u.y, 200, 200) <= self.mm("M")) for s in self.sides]
                self._decide(near)
        elif self.scenario == "conquest":
            zones = [0, 0]
            centre = [0.0, 0.0]
            for z in range(4):
                pts = [sum(u.points for u in s.units if u.on_board and min(3, int(u.x // 100)) == z) for s in self.sides]
                if pts[0] != pts[1]:
                    zones[0 if pts[0] > pts[1] else 1] += 1
                if z in (1, 2):
                    centre[0] += pts[0]
                    centre[1] += pts[1]
            if zones[0] != zones[1]:
                self._decide(zones)
            elif centre[0] != centre[1]:
                self._decide(centre)
            elif not self.extra_round:
                self.extra_round = True
                self.scenario_rounds = limit + 1
            else:
                self.finished, self.winner = True, None
        else:
            self._decide([s.removed_points for s in self.sides])

    def _decide(self, score: list[float]) -> None:
        self.finished = True
        self.winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)

    # ------------------------------------------------------------------ rounds and turns

    def initiative(self) -> int:
        for s in self.sides:
            for u in s.units:
                if u.state == "banished" and u.back_round <= self.round:
                    u.state = "board"
                    s.total += u.points
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
                self.log(f"{s.name}: warband morale")
                for u in list(s.units):
                    if u.on_board:
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
                        self.log(f"{u.name} rises again (Resurrectionists)")
        if side.has("teleporters"):
            enemies = [e for e in self.sides[1 - side.idx].units if e.on_board]
            budget = sum(u.points for u in side.units) // 3
            for u in side.units:
                if u.on_board and not u.is_ward and u.fury is not None and u.points <= budget and enemies:
                    if any(dist(u.x, u.y, e.x, e.y) <= self.mm("S") for e in enemies):
                        continue
                    t = max(enemies, key=self.target_value)
                    spot = clamp(t.x, t.y + (self.mm("S") + 5) * (1 if t.y < 200 else -1), u.radius)
                    if all(dist(*spot, e.x, e.y) > self.mm("S") for e in enemies) and terrain_at(self.pieces, *spot) is None:
                        u.x, u.y = spot
                        budget -= u.points
                        self.log(f"{u.name} teleports")

    def turn(self, side: Side) -> str:
        """Give actions until the player passes ('pass') or loses the initiative ('swap')."""
        if not side.first_turn_done:
            self.first_turn(side)
        self.turn_counter += 1
        for _ in range(60):
            if self.finished:
                return "end"
            options = self.options(side)
            if not options:
                return "pass"
            best = max(options, key=lambda o: (o.score, -o.unit.uid))
            if best.score <= 0.05:
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
        self.log(f"winner: {'draw' if self.winner is None else self.sides[self.winner].name} after {self.round} rounds")
        return GameRecord(
            self.winner,
            self.round,
            (float(self.sides[0].removed_points), float(self.sides[1].removed_points)),
            units,
            self.lines,
        )


@lru_cache(maxsize=4096)
def _break_odds(fury: int | None, will: int | None, will_bonus: int, bonus: int, penalty: int, table: tuple[int, int, int]) -> tuple[float, float]:
    _, s, c = check_probabilities(fury, dice_count(bonus, penalty, table))
    w1 = check_probabilities(will, dice_count(will_bonus, 0, table))
    w2 = check_probabilities(will, dice_count(will_bonus, 1, table))
    return s * w1[0] + c * w2[0], s * (1 - w1[0]) + c * (1 - w2[0])


def play_game(cat: Catalogue, first: RRList, second: RRList, rng: np.random.Generator, log: bool = False) -> GameRecord:
    """One whole game; ``first`` is side 0 of the record."""
    return Game(cat, first, second, rng, log).play()


__all__ = ["play_game", "Game"]
