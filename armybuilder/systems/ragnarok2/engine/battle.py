"""Whole Rag'Narok 2 battles on an abstract battlefield, fast enough for thousands of games.

The battlefield model (also in the README):

- one axis, 120 cm deep; each army deploys its units on a line 20 cm from its own
  table edge, so the armies start 80 cm apart; distances between units are read
  along that axis (no lateral geometry, no terrain, every unit sees every unit);
- a unit moves MOV cm on a march and MOV × 2 on a run or an assault; an assault
  reaches its target when the distance is at most MOV × 2 (a failed charge runs
  towards it and disorganises the unit);
- shooting uses the weapon's short / medium / long bands on that distance;
- fleeing units run MOV × 2 towards their own edge and are lost when they cross it;
- in a fray every fighter of the two units fights (all are in contact); a routed
  loser loses the half of its fighters (rounded up) that is taken to be in contact.

Each round follows the seed: strategic phase (orders, tactical roll on the tactical
table, tactics bought at 2 points and given to units, rallying), activation phase
(alternating units: assaults with Courage tests, runs, shooting volleys), combat
phase (combat dice, Initiative with the +3 charge bonus, exchanges, wound
allocation eliminating as many fighters as possible, extra exchanges, outcome of
the fray and morale by balance of Power), maintenance (Regeneration/X).  A game
ends after six rounds or when an army has no fighting unit left; the side that
eliminated or routed more A.P. wins (a gap under 5 % of the larger army is a draw).

All randomness comes from the injected ``numpy.random.Generator``: uniforms are
drawn in blocks and exact distributions (shared with the odds calculator) are
sampled by inverse CDF in pure Python, which is what makes >1,000 games/s possible.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import R2List, is_commander, profile
from ..catalog import Profile, R2Catalog
from .dice import (
    characteristic_test_total,
    contest_successes,
    fear_test_success,
    test_success_probability,
)
from .odds import contest_columns

TABLE_DEPTH = 120.0
DEPLOYMENT = 20.0
MAX_ROUNDS = 6
DRAW_MARGIN = 0.05
ABILITY_EXTRA_EXCHANGE = ("war-fury", "born-killer")

# --------------------------------------------------------------------------- randomness


class Dice:
    """Uniforms drawn from the injected generator in blocks, consumed in pure Python."""

    __slots__ = ("rng", "buffer", "index")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        if self.index >= len(self.buffer):
            self.buffer = self.rng.random(512).tolist()
            self.index = 0
        value = self.buffer[self.index]
        self.index += 1
        return value

    def chance(self, p: float) -> bool:
        return self.u() < p

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        return min(bisect.bisect_right(cdf, self.u()), len(cdf) - 1)

    def d6(self) -> int:
        return int(self.u() * 6) + 1


_COLUMNS: dict[str, tuple] = {}


@lru_cache(maxsize=8192)
def _contest_cdf(table: str, difference: int, dice: int, shift: int) -> tuple[float, ...]:
    """CDF of contest successes; ``table`` names a contest table registered in _COLUMNS."""
    pmf = contest_successes(_COLUMNS[table], difference, dice, shift).pmf
    return tuple(itertools.accumulate(float(x) for x in pmf))


@lru_cache(maxsize=4096)
def _test_p(value: int, difficulty: int, best_of: int) -> float:
    return test_success_probability(value, difficulty, best_of)


@lru_cache(maxsize=1024)
def _test_total_cdf(value: int, best_of: int) -> tuple[float, ...]:
    pmf = characteristic_test_total(value, best_of).pmf
    return tuple(itertools.accumulate(float(x) for x in pmf))


@lru_cache(maxsize=1024)
def _fear_p(table: str, diff: int, shift: int) -> float:
    return fear_test_success(_COLUMNS[table], diff, shift)


# --------------------------------------------------------------------------- pieces


@dataclass(eq=False)
class Group:
    """Fighters of one profile inside a unit (its troops, or one independent)."""

    profile: Profile
    count: int
    wound_levels: int
    dice_each: int
    character: bool
    cost: int
    power_each: int
    damage: int = 0  # Wound levels already lost by the one wounded fighter
    abilities: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.abilities = frozenset(a.partition("/")[0] for a in self.profile.abilities)

    def has(self, ability: str) -> bool:
        return ability in self.abilities


@dataclass(eq=False)
class Fighting:
    side: int
    name: str
    groups: list[Group]
    formation: str
    cost: int
    pos: float = 0.0
    state: str = "valiant"  # valiant | disorganized | rout | gone
    order: str = ""
    charged: bool = False
    charge_bonus: bool = False
    engaged: set[int] = field(default_factory=set)
    immune_fear: int = -99
    tactic: dict[str, int] = field(default_factory=dict)
    kills: float = 0.0
    lost_this_round: dict[int, int] = field(default_factory=dict)
    start_count: int = 0
    count: int = 0  # fighters left; kept in step with the groups by recount()
    index: int = 0  # position in its army's list of units

    def recount(self) -> None:
        self.count = sum(g.count for g in self.groups)

    @property
    def alive(self) -> bool:
        return self.count > 0 and self.state != "gone"

    @property
    def power(self) -> int:
        return sum(g.count * g.power_each for g in self.groups)

    @property
    def troops(self) -> Group:
        live = [g for g in self.groups if g.count > 0]
        return (live or self.groups)[0]

    @property
    def mov(self) -> int:
        return min((g.profile.mov for g in self.groups if g.count > 0), default=0)

    def best(self, stat: str) -> int:
        values = [getattr(g.profile, stat) for g in self.groups if g.count > 0 and getattr(g.profile, stat) is not None]
        return max(values, default=0)

    @property
    def fear(self) -> int | None:
        return self.troops.profile.fear

    @property
    def courage(self) -> int:
        p = self.troops.profile
        return p.cou if p.cou is not None else (p.fear or 0)

    def has_all(self, ability: str) -> bool:
        return all(g.has(ability) for g in self.groups if g.count > 0)

    def has_any(self, ability: str) -> bool:
        return any(g.has(ability) for g in self.groups if g.count > 0)

    def points_alive(self) -> float:
        return sum(g.count * g.cost for g in self.groups)


def _wound_levels(data: R2Catalog, p: Profile) -> int:
    if p.has_role("incarnate"):
        base = data.tables.incarnate_wound_levels
    else:
        by_size = {s.size: s.wound_levels for s in data.tables.sizes}
        base = by_size.get(p.size, 2 if p.size not in ("small", "medium") else 1)
    if p.has_role("warrior-mage") or p.has_role("warrior-monk"):
        base += 1 if p.has_role("character") else 0  # FAQ: one more Wound level
    return base


def _power(data: R2Catalog, p: Profile) -> int:
    by_size = {s.size: s.power for s in data.tables.sizes}
    return by_size.get(p.size, 1)


def _dice_each(p: Profile) -> int:
    dice = 1
    if p.size not in ("small", "medium") and p.cost >= 50:
        dice += 1
    if p.has_role("character"):
        dice += 1
    return dice


_TEMPLATES: dict[tuple[str, str, int], tuple[list[Fighting], dict]] = {}


def build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    """Fresh pieces for one game; the list is read once per playtest, then copied."""
    key = (cat.hash, army.model_dump_json(), side)
    template = _TEMPLATES.get(key)
    if template is None:
        if len(_TEMPLATES) > 64:
            _TEMPLATES.clear()
        template = _TEMPLATES[key] = _build_side(cat, army, side)
    units, info = template
    fresh = []
    for u in units:
        groups = [Group(g.profile, g.count, g.wound_levels, g.dice_each, g.character, g.cost, g.power_each) for g in u.groups]
        f = Fighting(u.side, u.name, groups, u.formation, u.cost)
        f.start_count = f.count = u.count
        f.index = u.index
        fresh.append(f)
    return fresh, info


def _build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    data: R2Catalog = cat.data  # type: ignore[assignment]
    people = cat.get("peoples", army.people)
    close_people = people is not None and people.formation == "close"
    units: list[Fighting] = []
    names: dict[str, int] = {}
    cic = None
    staffs = 0
    for ui, unit in enumerate(army.units):
        groups: list[Group] = []
        specs = []
        if unit.troops and unit.troops.count > 0:
            specs.append((unit.troops.profile, unit.troops.count))
        specs += [(m.profile, 1) for m in unit.members]
        for pid, count in specs:
            p = profile(cat, pid)
            if p is None:
                continue
            groups.append(Group(p, count, _wound_levels(data, p), _dice_each(p), p.has_role("character"), p.cost, _power(data, p)))
        if not groups:
            continue
        base = unit.name or groups[0].profile.name
        names[base] = names.get(base, 0) + 1
        name = base if names[base] == 1 else f"{base} ({names[base]})"
        size = sum(g.count for g in groups)
        f = Fighting(side, name, groups, "close" if close_people and size >= 5 else "scattered", sum(g.count * g.cost for g in groups))
        f.start_count = f.count = size
        f.index = len(units)
        units.append(f)
        for m in unit.members:
            if m.commander_in_chief and (p := profile(cat, m.profile)) is not None:
                cic = (len(units) - 1, p)
        ps = [q for m in unit.members if (q := profile(cat, m.profile)) is not None]
        if any(is_commander(q) for q in ps) and any(q.has_role("musician") for q in ps) and any(q.has_role("standard-bearer") for q in ps):
            staffs += 1
    deck = [t for tid in dict.fromkeys(army.tactics) if (t := cat.get("tactics", tid)) is not None]
    return units, {"cic": cic, "staffs": staffs, "deck": deck}


# --------------------------------------------------------------------------- the game


class Battle:
    def __init__(self, cat: Catalogue, first: R2List, second: R2List, rng: np.random.Generator, log: bool) -> None:
        self.cat = cat
        self.data: R2Catalog = cat.data  # type: ignore[assignment]
        self.table = cat.hash
        _COLUMNS.setdefault(self.table, tuple(contest_columns(cat)))
        self.dice = Dice(rng)
        self.logging = log
        self.lines: list[str] = []
        a, info_a = build_side(cat, first, 0)
        b, info_b = build_side(cat, second, 1)
        self.sides = [a, b]
        self.info = [info_a, info_b]
        for u in a:
            u.pos = DEPLOYMENT
        for u in b:
            u.pos = TABLE_DEPTH - DEPLOYMENT
        self.winner_of_roll = 0
        self.scores = [0.0, 0.0]  # A.P. each side eliminated or routed
        tables = self.data.tables
        self.outcome_rows = sorted(tables.outcome_of_fray, key=lambda r: -r.ratio)
        self.fear_rows = sorted(tables.fear_balance, key=lambda r: -r.ratio)

    # -- helpers -------------------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def distance(self, a: Fighting, b: Fighting) -> float:
        return abs(b.pos - a.pos)

    def enemies(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[1 - side] if u.alive]

    def nearest_enemy(self, unit: Fighting) -> Fighting | None:
        best = None
        best_d = 1e9
        fallback = None
        pos = unit.pos
        for e in self.sides[1 - unit.side]:
            if e.count > 0 and e.state != "gone":
                d = abs(e.pos - pos)
                if e.state == "rout":
                    fallback = fallback or e
                elif d < best_d:
                    best, best_d = e, d
        return best or fallback

    def toward(self, unit: Fighting, target_pos: float, distance: float, stop_short: float = 1.0) -> None:
        gap = target_pos - unit.pos
        step = min(distance, max(0.0, abs(gap) - stop_short))
        unit.pos += math.copysign(step, gap)

    def test(self, value: int, difficulty: int, best_of: int = 1, bonus: int = 0) -> bool:
        return self.dice.chance(_test_p(value + bonus, difficulty, best_of))

    def balance_ratio(self, mine: int, theirs: int) -> int:
        """3, 2, 1, -2, -3: how the seed's "3 to 1 ... 1 to 3" rows read for *mine*."""
        if mine <= 0 or theirs <= 0:
            return 3 if theirs <= 0 else -3
        if mine >= theirs:
            r = mine // theirs  # rounded in favour of the lower side
            return min(r, 3)
        r = theirs // mine
        return -min(r, 3) if r >= 2 else 1

    def row_value(self, rows, ratio: int, lower: int = 0, default: int = 8) -> int:
        if not rows:
            return default
        index = next((i for i, r in enumerate(rows) if r.ratio <= ratio), len(rows) - 1)
        index = min(index + lower, len(rows) - 1)
        return rows[index].value

    def eliminate_points(self, killer: Fighting | None, victim: Fighting, points: float) -> None:
        self.scores[1 - victim.side] += points
        if killer is not None:
            killer.kills += points

    # -- strategic phase ------------------------------------------------------

    def tactical_roll(self) -> list[int]:
        totals = []
        points = []
        for side in (0, 1):
            cic = self.info[side]["cic"]
            units = self.sides[side]
            total = 0
            if cic is not None and units[cic[0]].alive and units[cic[0]].state != "rout":
                p = cic[1]
                best_of = 2 if p.has_ability("leadership") or p.has_role("commander") else 1
                total = self.dice.from_cdf(_test_total_cdf(p.dis, best_of))
                category = (r.category if (r := self.cat.get("ranks", p.rank)) is not None else 1)
            else:
                valiant = [u for u in units if u.alive and u.state != "rout"]
                if valiant:
                    dis = max(u.best("dis") for u in valiant) - 2
                    total = self.dice.from_cdf(_test_total_cdf(max(dis, 0), 1))
                category = 1
            totals.append(total)
            table = self.data.tables.tactical
            tp = 0
            if table is not None:
                row = next((r for r in table.rows if r.low is not None and r.low <= total and (r.high is None or total <= r.high)), None)
                if total <= 0 or row is None:
                    row = table.rows[0] if total <= 0 else table.rows[-1]
                tp = row.points[min(max(category, 1), len(row.points)) - 1]
                tp += self.info[side]["staffs"] * table.per_complete_war_staff
            points.append(tp)
        if totals[0] != totals[1]:
            self.winner_of_roll = 0 if totals[0] > totals[1] else 1
        else:
            self.winner_of_roll = 0 if self.dice.u() < 0.5 else 1
        self.say(f"tactical roll {totals[0]} vs {totals[1]}: side {self.winner_of_roll + 1} wins; tactical points {points}")
        return points

    def give_orders_and_tactics(self, points: list[int]) -> None:
        cost = self.data.tables.tactical.tactic_cost if self.data.tables.tactical else 2
        for side in (0, 1):
            for u in self.sides[side]:
                u.tactic = {}
                u.charged = u.charge_bonus = False
                u.order = self.choose_order(u) if u.alive and u.state == "valiant" else ""
            affordable = points[side] // cost if cost else 0
            deck = list(self.info[side]["deck"])
            takers = sorted(
                (u for u in self.sides[side] if u.order and u.state == "valiant"),
                key=lambda u: (u.order != "assault", -u.points_alive()),
            )
            for tactic, unit in zip(deck[:affordable], takers, strict=False):
                unit.tactic = dict(tactic.effects)
                self.say(f"side {side + 1} gives {tactic.name} to {unit.name}")

    def choose_order(self, unit: Fighting) -> str:
        if unit.engaged:
            return "support" if any(g.profile.ranged for g in unit.groups) else "assault"
        foe = self.nearest_enemy(unit)
        if foe is None:
            return ""
        d = self.distance(unit, foe)
        shooters = [g for g in unit.groups if g.profile.ranged and g.profile.aim is not None and g.count > 0]
        if shooters and d <= max(g.profile.ranged.long for g in shooters) and d > unit.mov * 2:
            return "support"
        if d <= unit.mov * 2:
            return "assault"
        if shooters and d <= max(g.profile.ranged.long for g in shooters):
            return "support"
        return "progress"

    def rally(self) -> None:
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state in ("rout", "disorganized"):
                    value = max(u.courage, u.best("dis"))
                    if self.test(value, 8, bonus=u.tactic.get("rally", 0)):
                        self.say(f"{u.name} rallies")
                        u.state = "valiant"

    # -- activation phase -----------------------------------------------------

    def activation(self) -> None:
        order = [self.winner_of_roll, 1 - self.winner_of_roll]
        queues = [
            sorted((u for u in self.sides[s] if u.alive), key=lambda u: (u.order != "support", u.order != "assault"))
            for s in order
        ]
        for u in itertools.chain.from_iterable(itertools.zip_longest(*queues)):
            if u is None or not u.alive:
                continue
            if u.state == "rout":
                if not u.engaged:
                    self.flee(u)
                continue
            if u.order == "assault" and not u.engaged:
                self.assault(u)
            elif u.order == "support":
                self.shoot(u)
            elif u.order == "progress" and not u.engaged:
                foe = self.nearest_enemy(u)
                if foe is not None:
                    # run, but stop just outside the foe's charge reach when that is possible
                    keep_off = foe.mov * 2 + 1 if foe.state == "valiant" else 1.0
                    self.toward(u, foe.pos, u.mov * 2, stop_short=min(keep_off, self.distance(u, foe) - 1))

    def flee(self, u: Fighting) -> None:
        edge = 0.0 if u.side == 0 else TABLE_DEPTH
        u.pos += math.copysign(min(u.mov * 2, abs(u.pos - edge) + 1), edge - u.pos)
        if (u.side == 0 and u.pos <= 0) or (u.side == 1 and u.pos >= TABLE_DEPTH):
            self.say(f"{u.name} flees off the table")
            self.eliminate_points(None, u, u.points_alive())
            u.state = "gone"
            self.break_contacts(u)

    def courage_test(self, unit: Fighting, frightening: Fighting) -> bool:
        """Contest table Courage test: COU − FEAR, FEAR modified by the balance of Power."""
        fear = frightening.fear
        if fear is None or unit.has_all("living-dead") or unit.has_all("righteous"):
            return True
        if unit.fear is not None and unit.fear >= fear:
            return True
        if fear <= unit.immune_fear:
            return True
        modifier = self.row_value(self.fear_rows, self.balance_ratio(frightening.power, unit.power), default=0)
        ok = self.dice.chance(_fear_p(self.table, unit.courage - (fear + modifier), unit.tactic.get("courage", 0)))
        if ok:
            unit.immune_fear = max(unit.immune_fear, fear)
        return ok

    def assault(self, u: Fighting) -> None:
        foe = self.nearest_enemy(u)
        if foe is None:
            return
        reach = u.mov * 2
        if self.distance(u, foe) > reach:
            self.toward(u, foe.pos, reach)
            u.state = "disorganized"
            self.say(f"{u.name} charges {foe.name} but falls short")
            return
        if foe.fear is not None and not self.courage_test(u, foe):
            u.state = "disorganized"
            self.say(f"{u.name} fails its Courage test before {foe.name}")
            return
        if u.fear is not None and not self.courage_test(foe, u):
            foe.state = "rout"
            self.say(f"{foe.name} is terrified by {u.name} and routs")
            if not foe.engaged:
                self.flee(foe)
                self.toward(u, foe.pos, reach)
                return
        u.pos = foe.pos + (-1.0 if u.side == 0 else 1.0)
        u.charged = True
        power = u.power + (sum(g.count for g in u.groups if g.has("brutal")))
        u.charge_bonus = power >= foe.power
        u.engaged.add(foe.index)
        foe.engaged.add(u.index)
        self.say(f"{u.name} charges {foe.name}" + (" (+3 Initiative)" if u.charge_bonus else ""))

    def shoot(self, u: Fighting) -> None:
        if u.engaged:
            return
        target = self.nearest_enemy(u)
        if target is None or self.data.tables.shooting is None:
            return
        d = self.distance(u, target)
        bands = {r.band: r.difficulty for r in self.data.tables.shooting.ranges}
        start = target.count
        for g in u.groups:
            weapon = g.profile.ranged
            if weapon is None or g.profile.aim is None or g.count == 0 or not target.alive:
                continue
            band = "short" if d <= weapon.short else "medium" if d <= weapon.medium else "long" if d <= weapon.long else None
            if band is None:
                continue
            difficulty = bands.get(band, 7)
            size = target.troops.profile.size
            difficulty += -1 if size == "large" else -2 if size in ("enormous", "colossal", "gigantic") else 0
            p = _test_p(g.profile.aim, difficulty, 1)
            hits = sum(1 for _ in range(g.count) if self.dice.u() < p)
            if hits:
                wounds = self.dice.from_cdf(_contest_cdf(self.table, weapon.strength - target.troops.profile.res, hits, self.wound_shift(target)))
                self.allocate(u, target, wounds)
                self.say(f"{u.name} shoots {target.name} at {band} range: {hits} hits, {wounds} Wounds")
        if target.alive and start and start - target.count >= (start + 1) // 2:
            value = max(target.courage, target.best("dis") if target.formation == "close" else 0)
            if not (target.has_all("living-dead") or self.test(value, 8)):
                target.state = "rout"
                self.say(f"{target.name} routs under fire")

    # -- combat phase ---------------------------------------------------------

    def wound_shift(self, target: Fighting) -> int:
        return -1 if target.has_all("hard-boiled") else 0

    def allocate(self, killer: Fighting, target: Fighting, wounds: int) -> int:
        """Deal wounds so as to eliminate as many fighters as possible (seed example)."""
        killed = 0
        if target.has_any("survival-instinct"):
            wounds -= sum(1 for _ in range(wounds) if self.dice.d6() == 6)
        while wounds > 0 and target.count > 0:
            live = [g for g in target.groups if g.count > 0]
            # the cheapest fighter to finish off first: fewest Wound levels left
            g = min(live, key=lambda g: (g.character, g.wound_levels - g.damage))
            need = g.wound_levels - g.damage
            if wounds >= need:
                wounds -= need
                g.count -= 1
                target.count -= 1
                g.damage = 0
                killed += 1
                self.eliminate_points(killer, target, g.cost)
                target.lost_this_round[id(g)] = target.lost_this_round.get(id(g), 0) + 1
            else:
                g.damage += wounds
                wounds = 0
        if target.count == 0:
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def break_contacts(self, unit: Fighting) -> None:
        me = unit.index
        for other in list(unit.engaged):
            self.sides[1 - unit.side][other].engaged.discard(me)
        unit.engaged.clear()

    def strike(self, attacker: Fighting, defender: Fighting, extra: bool = False) -> int:
        if not attacker.alive or not defender.alive:
            return 0
        target = defender.troops.profile
        total = 0
        for g in attacker.groups:
            if g.count == 0:
                continue
            if extra and not (any(g.has(a) for a in ABILITY_EXTRA_EXCHANGE) or (attacker.charged and g.has("brutish-charge"))):
                continue
            dice = g.count if extra else g.count * g.dice_each
            if attacker.state == "rout":
                att = 0
            else:
                att = g.profile.att
            a_shift = attacker.tactic.get("attack_shift", 0) - defender.tactic.get("defense_shift", 0)
            strength = g.profile.str_
            if g.has("master-strike"):
                a_shift -= 1
                strength += att + (g.profile.ability_value("master-strike") or 0)
            attacks = self.dice.from_cdf(_contest_cdf(self.table, att - target.def_, dice, a_shift))
            if attacks:
                w_shift = attacker.tactic.get("wound_shift", 0) + self.wound_shift(defender)
                wounds = self.dice.from_cdf(_contest_cdf(self.table, strength - target.res, attacks, w_shift))
                total += wounds
        self.allocate(attacker, defender, total)
        return total

    def fray(self, a: Fighting, b: Fighting) -> None:
        ini_a = a.troops.profile.ini + (3 if a.charge_bonus else 0) + a.tactic.get("initiative", 0)
        ini_b = b.troops.profile.ini + (3 if b.charge_bonus else 0) + b.tactic.get("initiative", 0)
        ra = self.dice.from_cdf(_test_total_cdf(ini_a, 1))
        rb = self.dice.from_cdf(_test_total_cdf(ini_b, 1))
        first, second = (a, b) if (ra > rb or (ra == rb and a.side == self.winner_of_roll)) else (b, a)
        dealt = {id(first): 0, id(second): 0}
        # Fierce and one-level Possessed fighters struck down still strike in this exchange.
        before = {id(g): g.count for g in second.groups}
        dealt[id(first)] += self.strike(first, second)
        restored = []
        for g in second.groups:
            if g.has("fierce") or (g.has("possessed") and g.wound_levels == 1):
                lost = before[id(g)] - g.count
                if lost:
                    g.count += lost
                    restored.append((g, lost))
        second.recount()
        if restored and second.state == "gone":
            second.state = "valiant"
        dealt[id(second)] += self.strike(second, first)
        for g, lost in restored:
            g.count = max(0, g.count - lost)
        second.recount()
        if second.count == 0:
            second.state = "gone"
            self.break_contacts(second)
        dealt[id(first)] += self.strike(first, second, extra=True)
        dealt[id(second)] += self.strike(second, first, extra=True)
        self.say(f"fray {a.name} vs {b.name}: {dealt[id(a)]} Wounds dealt, {dealt[id(b)]} taken")
        if not a.alive or not b.alive:
            return
        if dealt[id(a)] != dealt[id(b)]:
            winner, loser = (a, b) if dealt[id(a)] > dealt[id(b)] else (b, a)
        else:
            winner, loser = (a, b) if a.side == self.winner_of_roll else (b, a)
        self.morale(winner, loser)

    def morale(self, winner: Fighting, loser: Fighting) -> None:
        if loser.has_all("living-dead") or loser.has_all("righteous"):
            return
        lower = 1 if (winner.fear is not None and loser.fear is None) else 0
        difficulty = self.row_value(self.outcome_rows, self.balance_ratio(loser.power, winner.power), lower)
        value = loser.courage
        if self.test(value, difficulty, bonus=loser.tactic.get("courage", 0)):
            return
        if loser.has_all("fanaticism") and self.test(loser.best("dis"), difficulty):
            loser.state = "rout"
            return
        self.say(f"{loser.name} loses the fray and routs")
        in_contact = (loser.count + 1) // 2
        for g in sorted(loser.groups, key=lambda g: g.character):
            take = min(g.count, in_contact)
            g.count -= take
            in_contact -= take
            self.eliminate_points(winner, loser, take * g.cost)
        loser.recount()
        loser.state = "rout" if loser.count else "gone"
        self.break_contacts(loser)
        if loser.alive:
            self.flee(loser)

    def combat(self) -> None:
        pairs = []
        for u in self.sides[0]:
            for j in sorted(u.engaged):
                pairs.append((u, self.sides[1][j]))
        order = sorted(pairs, key=lambda p: -(p[0].points_alive() + p[1].points_alive()))
        for a, b in order:
            if a.alive and b.alive and b.index in a.engaged:
                self.fray(a, b)

    def maintenance(self) -> None:
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive:
                    for g in u.groups:
                        x = g.profile.ability_value("regeneration") if "regeneration" in g.abilities else None
                        lost = u.lost_this_round.get(id(g), 0)
                        if x and lost:
                            back = sum(1 for _ in range(lost) if self.dice.d6() >= x)
                            g.count += back
                    u.recount()
                u.lost_this_round = {}

    # -- the whole game -------------------------------------------------------

    def fighting_units(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[side] if u.alive and u.state != "rout"]

    def play(self) -> GameRecord:
        rounds = 0
        for rounds in range(1, MAX_ROUNDS + 1):
            self.say(f"— round {rounds} —")
            points = self.tactical_roll()
            self.give_orders_and_tactics(points)
            self.rally()
            self.activation()
            self.combat()
            self.maintenance()
            if not self.fighting_units(0) or not self.fighting_units(1):
                break
        # Units still routing at the end count as routed (their A.P. to the enemy).
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state == "rout":
                    self.scores[1 - side] += u.points_alive()
        costs = [sum(u.cost for u in self.sides[s]) for s in (0, 1)]
        margin = DRAW_MARGIN * max(costs + [1])
        gap = self.scores[0] - self.scores[1]
        winner = None if abs(gap) < margin else (0 if gap > 0 else 1)
        if not self.fighting_units(1) and self.fighting_units(0):
            winner = 0
        elif not self.fighting_units(0) and self.fighting_units(1):
            winner = 1
        self.say(f"end after {rounds} rounds: A.P. eliminated or routed {self.scores[0]:g} vs {self.scores[1]:g}; " + ("draw" if winner is None else f"side {winner + 1} wins"))
        records = [
            UnitRecord(u.side, u.name, float(u.cost), u.alive and u.state != "rout", u.kills)
            for side in (0, 1)
            for u in self.sides[side]
        ]
        return GameRecord(winner, rounds, (self.scores[0], self.scores[1]), records, self.lines)


def play_game(cat: Catalogue, first: R2List, second: R2List, rng: np.random.Generator, log: bool = False) -> GameRecord:
    return Battle(cat, first, second, rng, log).play()
