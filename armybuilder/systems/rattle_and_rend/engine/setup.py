"""Rattle and Rend game setup [Game Setup]: warbands in play, scenario, terrain and deployment."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import TYPE_CHECKING, Any, cast

from armybuilder.core.engine import list_key

from ..army import (
    OneOf,
    RRList,
    effective_stats,
    group_title,
    group_type,
    normalize,
    transport_capacity,
)
from .board import BOARD, Piece, clamp, dist, terrain_at
from .scenario import ScenarioRules
from .state import Marker, Side, Unit

if TYPE_CHECKING:
    from .game import Game

#: sides built from a list, kept per (catalogue, side index, the list's content): a playtest
#: plays one pairing many times, and building a side (names, effective stats, attachments)
#: costs more than copying it.  The catalogue is kept to check identity (ids are reused).
_TEMPLATES: dict[tuple[int, int, str], tuple[object, tuple[Side, list[tuple[Any, ...]], list[int | None]]]] = {}
_TEMPLATES_KEPT = 64
_UNIT_FIELDS = tuple(f.name for f in fields(Unit))


def _side_template(side: Side) -> tuple[Side, list[tuple[Any, ...]], list[int | None]]:
    """A side never played, with each group's fields in ``Unit``'s order and the index of its
    carrier (or None), ready for :func:`_copy_side`."""
    rows = [tuple([getattr(u, name) for name in _UNIT_FIELDS]) for u in side.units]
    carriers = [side.units.index(u.carrier) if u.carrier is not None else None for u in side.units]
    return side, rows, carriers


def _copy_side(template: tuple[Side, list[tuple[Any, ...]], list[int | None]]) -> Side:
    """A fresh side from a template: every group built again (through ``__init__``, not by
    copying ``__dict__``, so it keeps CPython's compact instance layout and the fast attribute
    access the whole game relies on), carriers re-pointed."""
    side, rows, carriers = template
    units = [Unit(*row) for row in rows]
    for u, c in zip(units, carriers, strict=True):
        if c is not None:
            u.carrier = units[c]
    return Side(side.idx, side.name, side.traits, units)


def _one(value: OneOf) -> str | None:
    """The id a one-of field holds once the list is normalized (:func:`normalize` keeps the
    first of several, so a list is never left)."""
    return value if isinstance(value, str) else None


def _index(value: int | str | None) -> int | None:
    """The group index a link holds once the list is normalized (names become indexes, a name
    that names no group becomes None)."""
    return value if isinstance(value, int) else None


class SetupRules(ScenarioRules):
    """The setup of :class:`game.Game` [Game Setup]: player A, the d20 tables, terrain, reserves and
    deployment. Terrain and deployment spots are drawn at random within the seed's limits (the
    engine places for both players); what each player keeps off the board and which enemies a
    Duel names are the players' choices, asked of their policies."""

    __slots__ = ()

    def _side_of(self, idx: int, army: RRList) -> Side:
        """Side ``idx`` built from ``army`` (aliases resolved): built once per list content and
        catalogue, then copied for each game (the same groups, in the same order)."""
        key = (id(self.cat), idx, list_key(army))
        found = _TEMPLATES.get(key)
        if found is None or found[0] is not self.cat:
            if len(_TEMPLATES) >= _TEMPLATES_KEPT:
                _TEMPLATES.clear()
            found = _TEMPLATES[key] = (self.cat, _side_template(self._side(idx, normalize(army, self.cat)[0])))
        return _copy_side(found[1])

    def _side(self, idx: int, army: RRList) -> Side:
        cat = self.cat
        traits = frozenset(t for t in army.traits if cat.get("warband_traits", t) is not None)
        units: list[Unit] = []
        champions: dict[int, int] = {}
        for gi, g in enumerate(army.groups):
            gt = group_type(cat, g)
            t = _index(g.attached_to)
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
            action = _one(g.champion_action) if gt.id == "champion" else None
            attached = False
            if gi in champions:
                champ = army.groups[champions[gi]]
                cgt = group_type(cat, champ)
                if cgt is not None:
                    reactions.append(cgt.reaction)
                    points += cgt.cost
                    action = _one(champ.champion_action)
                    attached = True
                    name += f" + Champion ({self._name('actions', action)})"
            if gt.id == "champion":
                name += f" ({self._name('actions', action)})"
            if gt.id == "heavy":
                name += f" ({self._name('heavy_traits', _one(g.heavy_trait))})"
            if gt.id == "ward":
                name += f" ({self._name('reactions', _one(g.warding_reaction))})"
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
                heavy_trait=_one(g.heavy_trait) if gt.id == "heavy" else None,
                warding=_one(g.warding_reaction) if gt.id == "ward" else None,
                attached=attached,
                capacity=transport_capacity(army, cat, gi),
                radius=20.0 if "40" in gt.base else 12.5,
                base_mov=s.mov,
                base_rng=s.rng,
                base_fury=s.fury,
                base_guile=s.guile,
            )
            by_index[gi] = unit
            units.append(unit)
        for gi, g in enumerate(army.groups):  # groups starting inside a Transport
            passenger = by_index.get(gi)
            by = _index(g.transported_by)
            carrier = by_index.get(by) if by is not None else None
            if passenger is None or carrier is None or carrier.capacity <= 0 or passenger.gtype == "heavy":
                continue
            load = sum(u.points for u in units if u.carrier is carrier)
            if load + passenger.points <= carrier.capacity:
                passenger.carrier = carrier
                passenger.state = "carried"
        return Side(idx, army.name, traits, units)

    def _name(self, collection: str, entry_id: str | None) -> str:
        entry = self.cat.get(collection, entry_id) if entry_id else None
        return entry.name if entry is not None else (entry_id or "-")

    def _roll_table(self, rows: list, default: str) -> str:
        roll = self.dice.die(20)
        for row in rows:
            if row.low <= roll <= row.high:
                return row.id
        return default

    def setup(self) -> None:
        a = 0 if self.dice.u() < 0.5 else 1
        b = 1 - a
        self.player_a = a
        rolled = self._roll_table(self.data.scenarios, "kill-them-all")  # rolled even when fixed: the same draws follow
        self.scenario = self.fixed_scenario if self.fixed_scenario is not None else rolled
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
        if self.logging:
            self.log(
                f"player A: {self.sides[a].name}; scenario {self.scenario}, terrain {density} "
                f"({len(self.pieces)} pieces), deployment {deployment}"
            )
        if self.scenario == "duel":
            for side in self.sides:  # each player names 2 points of the enemy warband, no Ward
                enemy = self.sides[1 - side.idx]
                pool = [u for u in enemy.units if not u.is_ward]
                chosen = self.policies[side.idx].duel_targets(cast("Game", self), side, pool)
                total = 0
                for u in chosen:
                    if u in pool and total + u.points <= 2 and not u.duel_target:
                        u.duel_target = True
                        total += u.points
                if not any(u.duel_target for u in enemy.units) and pool:  # nothing fits in 2 points: the cheapest
                    min(pool, key=lambda u: (u.points, u.uid)).duel_target = True
                if self.logging:
                    self.log(f"duel: {side.name} names {', '.join(u.name for u in enemy.units if u.duel_target)} as its targets")
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
        """Groups kept off the board (Ambushers: up to half the warband's points; Delayed
        deployment: 5-7 points): the player's choice, checked against the limits here. A group
        carrying a passenger deploys, and a Ward never waits (it cannot act to come in)."""
        pool = [u for u in side.units if u.state == "board" and not u.is_ward and not any(c.carrier is u for c in side.units)]
        chosen = self.policies[side.idx].reserves(cast("Game", self), side, pool, limit, minimum, why)
        held: list[Unit] = []
        total = 0
        for u in chosen:
            if u in pool and u not in held and total + u.points <= limit:
                held.append(u)
                total += u.points
        if total < minimum:
            return []
        for u in held:
            u.state = "reserve"
        if held and self.logging:
            self.log(f"{side.name} keeps {total} points off the board ({why}): {', '.join(u.name for u in held)}")
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
            for _ in range(0 if best is not None else 200):  # no free spot: contact or rough terrain may do,
                x, y = clamp(*self._zone_point(side, u), u.radius)  # never hazardous or blocking (seed: Deployment)
                if terrain_at(self.pieces, x, y) not in ("blocking", "hazardous"):
                    best = (x, y)
                    break
            if best is None:
                best = clamp(side.anchor[0], side.anchor[1], u.radius)
            u.x, u.y = best
            self.placed.add(u.uid)
        for u in side.units:  # passengers sit on their carrier's spot
            if u.carrier is not None:
                u.x, u.y = u.carrier.x, u.carrier.y
