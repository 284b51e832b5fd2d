"""Whole Ragnarok (Morpheus Engine) games between two war clans, on an abstract board.

The board is a square of ``tables.engine.board`` inches with a few terrain pieces
(circles with the seed's keywords: a forest of Difficult Light Cover, rocks of
Heavy Cover that Block LOS, a magma pool that is Hazardous (2) and sets Fire (3),
shallow water).  Models are round bases; positions are in inches.

What is simulated (seed morpheus-ragnarok-page3, ME-D1, reference data):
action points; movement with Difficult and Hazardous terrain; Charge (+3 SP,
+1 ST, +1 DR, at least half SP, Brace, Heavy Charge, Bullrush); Clash (DR versus
DR, -1 DF, strike back at -1 MA, half the AP per Round); Overwhelm (Sizes,
Shield +2, Stalwart +2, Teamwork); Free Strikes; cover (Light, Heavy,
controlling cover); distance penalty; firing at engaged models (a miss hits the
friend, DR (D4)); Prone and Stand; Focus; Disengage (Grapple); blast, spray and
line attacks (blast misses scatter 1d6 + 1d8 in a d8 direction, at most half the
distance); the status effects of the catalogued weapons and powers (Savage,
Lethal, Cumbersome, Rapid Attack, Knockdown, Shock, Blind, Fire, Ice, Restrain,
Push, Pull, Aid, Drain, Deceptive, Psi, Delusional, Terrifying, Berserker,
Concealment, Healer and Incapacitated, Tactician, Taunt, Weapon Master); God
powers bought with Godspark.

Victory (an engine assumption, ``tables.engine.notes``): a side wiped out loses at once;
otherwise the side that removed the larger *share* of the enemy's Glory wins (equal
shares: a draw), and the record's scores are those shares in percent.  Counting Glory
removed in absolute terms rewarded a smaller clan, which exposes less Glory: a Wolves
clan cut by a fifth did as well as the full clan; by shares the full clan wins about
two games in three against such a copy.

Not simulated: climbing, falling, jumping and Levels, Hills, Walls, Deep Water and the
weaponized terrain (no such pieces are placed), objectives, Invasion, Phasing and other
abilities no catalogued warrior or power has.  Movement is a straight line (turning aside
when the way is blocked) that only checks where it ends.

Assumptions the seed page does not settle are catalogue data
(``tables.engine`` with its ``notes``, provisional).  All
randomness comes from the injected ``numpy.random.Generator``.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import WarClan, warrior_cost, warrior_type
from ..catalog import GodPower, MECatalog, ability_args, ability_id
from .dice import OpposedRules, damage_distribution, rules_from, success_probability

BASE_RADIUS = 0.6  # a 30 mm round base, in inches
CONTACT = 0.05  # bases this close count as touching
# The simulator's own assumptions (the seed page does not settle them) are catalogue
# data: ``tables.engine.notes``, flagged provisional and printed on the reference sheets.
STATS = ("ap", "sp", "ma", "ra", "df", "rs", "dr", "mn", "st")


# --------------------------------------------------------------------------- pieces


@dataclass
class Weapon:
    name: str
    st: int | None
    reach: int  # ML 0, MR 2, or the range in inches
    melee: bool
    abilities: tuple[str, ...] = ()
    no_shield: bool = False
    power: str | None = None  # id of the God power that gives this attack

    def __post_init__(self) -> None:
        # A weapon's abilities never change: their ids and values are worked out once,
        # since the AI asks about them for every attack it weighs.
        self._ids = frozenset(ability_id(a) for a in self.abilities)
        values: dict[str, int] = {}
        for ref in self.abilities:
            key = ability_id(ref)
            if key not in values:
                nums = [int(a) for a in ability_args(ref) if a.lstrip("-").isdigit()]
                values[key] = nums[-1] if nums else 0
        self._values = values

    def has(self, ability: str) -> bool:
        return ability in self._ids

    def value(self, ability: str) -> int | None:
        return self._values.get(ability)


FISTS = Weapon("fists", 0, 0, True)


@dataclass
class Terrain:
    name: str
    x: float
    y: float
    r: float
    keywords: frozenset[str]
    hazard: int = 0
    fire: int | None = None
    size: int = 0


@dataclass(eq=False)  # identity: a fighter is equal only to itself
class Fighter:
    side: int
    index: int
    name: str
    cost: int
    ap: int
    sp: int
    ma: int
    ra: int
    df: int
    rs: int
    dr: int
    mn: int
    hp_max: int
    size: int
    abilities: dict[str, list[str]]
    weapons: list[Weapon]
    shield: bool
    x: float = 0.0
    y: float = 0.0
    hp: int = 0
    prone: bool = False
    incapacitated: bool = False
    removed: bool = False
    activated: bool = False
    ap_left: int = 0
    clashes: int = 0
    focus: dict[str, int] = field(default_factory=dict)
    aid: dict[str, int] = field(default_factory=dict)
    drain: dict[str, int] = field(default_factory=dict)
    temp: dict[str, list[str]] = field(default_factory=dict)  # abilities granted by God powers this Round
    next_attack: list[str] = field(default_factory=list)
    next_melee: list[str] = field(default_factory=list)
    fire: int | None = None
    ice: int | None = None
    restrain: int | None = None
    shocked: bool = False
    terrified: bool = False
    blind: bool = False
    delusional: bool = False
    spotted: bool = False
    taunted_by: Fighter | None = None
    taunt_forced: bool = False
    foresight_used: bool = False
    berserk: bool = False
    berserk_hit_this_round: bool = False
    berserk_penalty: bool = False
    ice_sp: bool = False
    used_weapons: set[str] = field(default_factory=set)
    weapon_master_used: bool = False
    war_god_used: bool = False
    sp_bonus: int = 0
    range_override: int | None = None
    kills: float = 0.0

    def has(self, ability: str) -> bool:
        return ability in self.abilities or ability in self.temp

    def value(self, ability: str) -> int | None:
        args = self.abilities.get(ability, self.temp.get(ability))
        if args is None:
            return None
        nums = [int(a) for a in args if a.lstrip("-").isdigit()]
        return nums[-1] if nums else 0

    @property
    def alive(self) -> bool:
        return not self.removed

    @property
    def active(self) -> bool:
        return not self.removed and not self.incapacitated

    def stat(self, name: str) -> int:
        value = getattr(self, name) if name != "st" else 0
        if self.aid:
            value += self.aid.get(name, 0)
        if self.drain:
            value -= self.drain.get(name, 0)
        if self.focus:
            value += self.focus.get(name, 0)
        if name in ("ma", "ra", "df") and self.terrified:
            value -= 1
        if name == "df" and self.incapacitated:
            value -= 1
        if name == "ma" and self.prone:
            value -= 1
        if name == "st" and self.shocked:
            value -= 1
        return value

    def speed(self) -> int:
        sp = self.stat("sp") + self.sp_bonus
        if self.prone:
            sp -= 3
        if self.shocked:
            sp -= 1
        if self.ice_sp:
            sp -= 1
        if self.restrain is not None:
            sp -= 2
        return max(0, sp)

    def __post_init__(self) -> None:
        self._melee = [w for w in self.weapons if w.melee] or [FISTS]
        self._reach = max(w.reach for w in self._melee)
        self._ranged = [w for w in self.weapons if not w.melee and w.power is None]

    def fresh(self) -> Fighter:
        """A copy of this (template) fighter with its own game state."""
        f = copy.copy(self)
        f.focus, f.aid, f.drain, f.temp = {}, {}, {}, {}
        f.next_attack, f.next_melee, f.used_weapons = [], [], set()
        return f

    def melee_weapons(self) -> list[Weapon]:
        return self._melee

    def ranged_weapons(self) -> list[Weapon]:
        return self._ranged

    def reach(self) -> int:
        return self._reach


def bump(ref: str, extra: int) -> str:
    """'shock/0' + 1 → 'shock/1' (a God power boost of "+1 additional ...")."""
    args = ability_args(ref)
    if not extra or not args or not args[-1].lstrip("-").isdigit():
        return ref
    return "/".join([ability_id(ref), *args[:-1], str(int(args[-1]) + extra)])


def _refs(refs: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for ref in refs:
        out[ability_id(ref)] = ability_args(ref)
    return out


def build_fighters(cat: Catalogue, army: WarClan, side: int) -> list[Fighter]:
    out = []
    for i, w in enumerate(army.warriors):
        t = warrior_type(cat, w.type)
        if t is None:
            continue  # an unknown type cannot take the field
        weapons, rs, shield = [], t.rs, False
        for item in w.equipment:
            if (weapon := cat.get("weapons", item)) is not None:
                weapons.append(Weapon(weapon.name, weapon.st, weapon.reach, weapon.kind == "melee", tuple(weapon.abilities), weapon.no_shield))
            elif (armour := cat.get("armour", item)) is not None:
                rs += armour.rs
            elif cat.get("shields", item) is not None:
                shield = True
        name = f"{i + 1}. {t.name}" + (f" {w.label}" if w.label else "") + (" (Jarl)" if w.jarl else "")
        f = Fighter(side, i, name, warrior_cost(cat, w), t.ap, t.sp, t.ma, t.ra, t.df, rs, t.dr, t.mn, t.hp, t.size, _refs(t.abilities), weapons, shield)
        f.hp = f.hp_max
        out.append(f)
    return out


# A playtest plays the same two clans thousands of times: their fighters are built once
# (catalogue look-ups, names, weapons) and each game plays fresh copies.
_TEMPLATES: dict[tuple[int, str, int], tuple[Catalogue, list[Fighter]]] = {}


def fighters_for(cat: Catalogue, army: WarClan, side: int) -> list[Fighter]:
    key = (id(cat), army.model_dump_json(), side)
    found = _TEMPLATES.get(key)
    if found is None or found[0] is not cat:
        if len(_TEMPLATES) >= 64:
            _TEMPLATES.clear()
        found = _TEMPLATES[key] = (cat, build_fighters(cat, army, side))
    return [f.fresh() for f in found[1]]


# --------------------------------------------------------------------------- geometry


def dist(a: Fighter, b: Fighter) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def gap(a: Fighter, b: Fighter) -> float:
    """Distance between the edges of two bases (0 = base contact)."""
    return max(0.0, dist(a, b) - 2 * BASE_RADIUS)


def seg_point_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> tuple[float, float]:
    """(distance from P to segment AB, position t in 0..1 of the closest point)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - ax, py - ay), 0.0
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(ax + t * dx - px, ay + t * dy - py), t


_DAMAGE_MEMOS: dict[OpposedRules, dict[tuple[int, int, str], float]] = {}


@lru_cache(maxsize=4096)
def expected_damage(rules: OpposedRules, hit_tn: int, dmg_tn: int, step_kind: str) -> float:
    p_hit = success_probability(rules, hit_tn)
    return p_hit * damage_distribution(rules, dmg_tn, step_kind == "savage", step_kind == "lethal").mean()


# --------------------------------------------------------------------------- the game


class Battle:
    def __init__(self, cat: Catalogue, first: WarClan, second: WarClan, rng: np.random.Generator, log: bool = False) -> None:
        self.cat = cat
        self.data: MECatalog = cat.data  # type: ignore[assignment]
        self.rng = rng
        self.rules = rules_from(cat)
        # expected Damage by (attack - defence, strength - resistance, kind), shared by every
        # battle under the same rules: the AI weighs thousands of attacks per game
        self.damage_memo = _DAMAGE_MEMOS.setdefault(self.rules, {})
        engine = self.data.tables.engine
        self.max_rounds = engine.rounds if engine else 6
        self.board = float(engine.board if engine else 48)
        self.depth = float(engine.deployment_depth if engine else 6)
        self.godspark = [engine.godspark_start if engine else 0] * 2
        self.godspark_income = engine.godspark_per_round if engine else 3
        self.sides = [fighters_for(cat, first, 0), fighters_for(cat, second, 1)]
        self.powers: list[list[GodPower]] = [
            [p for pick in army.god_powers if (p := cat.get("god_powers", pick.power)) is not None] for army in (first, second)
        ]
        self.powers_used: list[set[str]] = [set(), set()]
        self.scores = [0.0, 0.0]
        self.round = 0
        self.logging = log
        self.lines: list[str] = []
        self.terrain: list[Terrain] = []
        # Who is still on the table, per side: rebuilt (never changed in place) when a model
        # is removed, so a list handed out earlier stays a valid snapshot.
        self.living: list[list[Fighter]] = [list(self.sides[0]), list(self.sides[1])]
        # Per fighter, each enemy with the squared centre distance within which the two are
        # engaged (bases touching plus the longer melee reach): reaches never change.
        self.engage_limits: list[dict[int, list[tuple[Fighter, float]]]] = [
            {
                f.index: [(e, (2 * BASE_RADIUS + CONTACT + max(f._reach, e._reach)) ** 2) for e in self.sides[1 - side]]
                for f in self.sides[side]
            }
            for side in (0, 1)
        ]
        self._dice: list[int] = []
        self._next = 0

    # -- log and dice -----------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def natural(self) -> int:
        """One roll of the dice (2d6), drawn from a buffer the injected generator refills."""
        if self._next + self.rules.dice > len(self._dice):
            self._dice = self.rng.integers(1, self.rules.sides + 1, size=1024).tolist()
            self._next = 0
        total = sum(self._dice[self._next : self._next + self.rules.dice])
        self._next += self.rules.dice
        return total

    def roll(self, x: int, y: int) -> tuple[bool, int, int]:
        natural = self.natural()
        tn = self.rules.tn(x, y)
        return natural >= tn, max(0, natural - tn), natural

    def test(self, f: Fighter, x: int, y: int, stat: str = "") -> tuple[bool, int]:
        """A roll of ``f`` (X versus Y); Steel Your Mind re-rolls failed DR and MN tests."""
        ok, stages, _ = self.roll(x, y)
        if not ok and stat in ("dr", "mn") and f.has("steel-your-mind"):
            ok, stages, _ = self.roll(x, y)
        return ok, stages

    # -- setup --------------------------------------------------------------

    def setup(self) -> None:
        kinds = [
            ("forest", frozenset({"difficult", "light-cover"}), 0, None, 0),
            ("rocks", frozenset({"heavy-cover", "blocks-los"}), 0, None, 3),
            ("magma pool", frozenset({"difficult", "hazardous"}), 2, 3, 0),
            ("shallow water", frozenset({"difficult", "light-cover"}), 0, None, 0),
        ]
        for _ in range(int(self.rng.integers(3, 6))):
            name, keywords, hazard, fire, size = kinds[int(self.rng.integers(0, len(kinds)))]
            x = float(self.rng.uniform(6, self.board - 6))
            y = float(self.rng.uniform(self.board * 0.3, self.board * 0.7))
            r = float(self.rng.uniform(1.5, 3.5))
            self.terrain.append(Terrain(name, x, y, r, keywords, hazard, fire, size))
        for side in (0, 1):
            fighters = self.sides[side]
            n = max(1, len(fighters))
            for k, f in enumerate(fighters):
                f.x = self.board * (k + 1) / (n + 1)
                depth = self.depth * (0.35 if k % 2 else 0.75)
                f.y = depth if side == 0 else self.board - depth
                if f.has("stealth"):  # at least 12" from enemies, on a flank
                    f.y = self.board * (0.35 if side == 0 else 0.65)
                    f.x = 3.0 if k % 2 else self.board - 3.0
            if self.logging:
                self.say(f"clan {side + 1}: " + ", ".join(f.name for f in fighters))
        for side in (0, 1):  # Combat Sense: no Stealth deployment within 18" of it
            sensers = [e for e in self.sides[1 - side] if e.has("combat-sense")]
            for f in self.sides[side]:
                if f.has("stealth"):
                    while any(dist(f, e) < 18 for e in sensers) and 0 < f.y < self.board:
                        f.y += -1.0 if side == 0 else 1.0
                    f.y = min(self.board, max(0.0, f.y))
        for t in self.terrain:
            if self.logging:
                self.say(f"terrain: {t.name} at ({t.x:.0f}, {t.y:.0f}), radius {t.r:.1f}\"")

    # -- queries --------------------------------------------------------------

    def enemies(self, f: Fighter) -> list[Fighter]:
        """The enemies still on the table (a shared list: callers never change it)."""
        return self.living[1 - f.side]

    def friends(self, f: Fighter) -> list[Fighter]:
        return [o for o in self.living[f.side] if o is not f]

    def engaged_with(self, f: Fighter) -> list[Fighter]:
        out = []
        fx, fy = f.x, f.y
        for e, limit in self.engage_limits[f.side][f.index]:
            if e.removed or e.incapacitated:
                continue
            dx, dy = fx - e.x, fy - e.y
            if dx * dx + dy * dy <= limit:
                out.append(e)
        return out

    def in_reach(self, f: Fighter, e: Fighter, w: Weapon) -> bool:
        return gap(f, e) <= w.reach + CONTACT

    def los(self, a: Fighter, b: Fighter) -> bool:
        for t in self.terrain:
            if "blocks-los" in t.keywords and t.size >= max(a.size, b.size):
                d, _ = seg_point_distance(a.x, a.y, b.x, b.y, t.x, t.y)
                if d < t.r and math.hypot(a.x - t.x, a.y - t.y) > t.r and math.hypot(b.x - t.x, b.y - t.y) > t.r:
                    return False
        return True

    def shot_blocked_by_models(self, a: Fighter, b: Fighter) -> bool:
        for o in self.sides[0] + self.sides[1]:
            if o is a or o is b or o.removed or o.size < a.size:
                continue
            d, t = seg_point_distance(a.x, a.y, b.x, b.y, o.x, o.y)
            if 0.0 < t < 1.0 and d < BASE_RADIUS * 0.9:
                return True
        return False

    def cover(self, a: Fighter, b: Fighter) -> str | None:
        best = None
        for t in self.terrain:
            kind = "heavy" if "heavy-cover" in t.keywords else "light" if "light-cover" in t.keywords else None
            if kind is None:
                continue
            d, _ = seg_point_distance(a.x, a.y, b.x, b.y, t.x, t.y)
            if d >= t.r + BASE_RADIUS:
                continue
            a_near = math.hypot(a.x - t.x, a.y - t.y) <= t.r + 1 + BASE_RADIUS
            b_near = math.hypot(b.x - t.x, b.y - t.y) <= t.r + 1 + BASE_RADIUS
            if a_near and not b_near:
                continue  # controlling cover: the attacker's own cover does not count
            if kind == "heavy" or best is None:
                best = kind
        return best

    # -- damage and removal -----------------------------------------------------

    def wound(self, target: Fighter, damage: int, by: Fighter | None, why: str) -> None:
        if damage <= 0 or target.removed:
            return
        if target.incapacitated:
            self.remove(target, by, f"{why} (while incapacitated)")
            return
        target.hp -= damage
        if self.logging:
            self.say(f"  {target.name} loses {damage} HP ({why}), {max(target.hp, 0)} left")
        if target.hp <= 0:
            healers = [o for o in self.friends(target) if o.active and o.has("healer")]
            if healers:
                target.hp = 0
                target.incapacitated = True
                target.prone = True
                if self.logging:
                    self.say(f"  {target.name} is incapacitated")
            else:
                self.remove(target, by, why)

    def remove(self, target: Fighter, by: Fighter | None, why: str) -> None:
        target.removed = True
        target.hp = 0
        self.living[target.side] = [f for f in self.living[target.side] if f is not target]
        self.scores[1 - target.side] += target.cost
        if by is not None and by.side != target.side:
            by.kills += target.cost
        if self.logging:
            self.say(f"  {target.name} is removed ({why})")

    def st_hit(self, target: Fighter, st: int, by: Fighter | None, why: str) -> None:
        """An automatic ST (x) hit (hazardous terrain, collisions, fire)."""
        ok, stages, _ = self.roll(st, target.stat("rs"))
        if ok:
            self.wound(target, 1 + stages // self.rules.step_normal, by, why)

    # -- statuses -------------------------------------------------------------

    def status_rs(self, target: Fighter, psi: bool) -> int:
        base = target.stat("dr") if psi else target.stat("rs")
        return base + (2 if target.has("high-pain-threshold") else 0)

    def immune(self, target: Fighter, status: str) -> bool:
        return status in target.temp.get("immunity", []) + target.abilities.get("immunity", [])

    def apply_statuses(self, attacker: Fighter, target: Fighter, refs: list[str], psi: bool) -> None:
        """Attack abilities that act on a hit, before damage (seed: Knockdown, Shock...)."""
        for ref in refs:
            aid, args = ability_id(ref), ability_args(ref)
            x = next((int(a) for a in reversed(args) if a.lstrip("-").isdigit()), 0)
            if aid in ("fire", "ice", "shock", "blind", "restrain") and self.immune(target, aid):
                continue
            if aid == "knockdown":
                size = target.size - (1 if target.prone else 0) + (2 if target.has("steady") else 0)
                if self.roll(x, size)[0]:
                    target.prone = True
                    if self.logging:
                        self.say(f"  {target.name} is knocked down")
            elif aid == "shock":
                if self.roll(x, self.status_rs(target, psi))[0]:
                    if not target.shocked:
                        target.ap_left = max(0, target.ap_left - 1)
                    target.shocked = True
                    if self.logging:
                        self.say(f"  {target.name} is shocked")
            elif aid == "stun":
                ok, stages, _ = self.roll(x, self.status_rs(target, psi))
                if ok:
                    target.ap_left = max(0, target.ap_left - 1 - stages // 2)
            elif aid == "blind":
                if self.roll(x, target.stat("mn"))[0]:
                    target.blind = True
                    if self.logging:
                        self.say(f"  {target.name} is blinded")
            elif aid == "fire":
                target.fire = max(x, target.fire or 0)
                if self.logging:
                    self.say(f"  {target.name} catches fire")
            elif aid == "ice":
                target.ice = max(x, target.ice or 0)
                if self.logging:
                    self.say(f"  {target.name} is covered in ice")
            elif aid == "restrain":
                target.restrain = max(x, target.restrain or 0)
                if self.logging:
                    self.say(f"  {target.name} is restrained")
            elif aid in ("push", "pull"):
                size = target.size + (2 if target.has("steady") else 0)
                ok, stages, _ = self.roll(x, size)
                if ok:
                    self.shove(attacker, target, 2.0 * max(1, stages), away=aid == "push")
            elif aid == "drain" and args:
                stat = args[0]
                if not self.roll(target.stat("rs"), x)[0]:
                    target.drain[stat] = target.drain.get(stat, 0) + max(1, x)
                    if self.logging:
                        self.say(f"  {target.name} is drained of {stat.upper()}")
            elif aid == "delusional":
                if not target.has("steel-your-mind"):
                    target.delusional = True
                    if self.logging:
                        self.say(f"  {target.name} becomes delusional")

    def shove(self, attacker: Fighter, target: Fighter, inches: float, away: bool) -> None:
        dx, dy = target.x - attacker.x, target.y - attacker.y
        d = math.hypot(dx, dy) or 1.0
        ux, uy = (dx / d, dy / d) if away else (-dx / d, -dy / d)
        if not away:
            inches = min(inches, max(0.0, gap(attacker, target)))
        moved = 0.0
        step = 0.25
        while moved + step <= inches + 1e-9:
            nx, ny = target.x + ux * step, target.y + uy * step
            blocker = next(
                (o for o in self.sides[0] + self.sides[1] if not o.removed and o is not target and math.hypot(o.x - nx, o.y - ny) < 2 * BASE_RADIUS),
                None,
            )
            if blocker is not None or not (0 <= nx <= self.board and 0 <= ny <= self.board):
                left = int(round(inches - moved))
                if left > 0:
                    if self.logging:
                        self.say(f"  {target.name} is slammed into {'the edge' if blocker is None else blocker.name}")
                    self.st_hit(target, left, attacker, "collision")
                    if blocker is not None:
                        self.st_hit(blocker, left, attacker, "collision")
                return
            target.x, target.y = nx, ny
            moved += step
        if self.logging:
            self.say(f"  {target.name} is {'pushed' if away else 'pulled'} {moved:.0f}\"")

    # -- attacks ----------------------------------------------------------------

    def attack_refs(self, f: Fighter, w: Weapon) -> list[str]:
        """Attack abilities of this attack: the weapon's, plus those granted by God powers."""
        refs = list(w.abilities)
        for granted in ("shock", "fire", "ice", "restrain", "push", "deceptive", "knockdown"):
            if granted in f.temp and (granted not in ("restrain", "push") or w.melee):
                refs.append("/".join([granted, *f.temp[granted]]))
        refs += f.next_attack
        if w.melee:
            refs += f.next_melee
        return refs

    def hit_value(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False) -> tuple[int, int, str]:
        """(attack value, defence value, damage kind) before the roll."""
        psi = w.has("psi")
        if w.melee:
            att = f.stat("ma")
            if t.prone:
                att += 1
            over = self.overwhelm(f, t)
            att += over
            if f.berserk:
                att += 1
            if f.has("coward") and not over:
                att -= 1
            if t.has("concealment") and not t.spotted:
                att -= 2
            if f.taunted_by is not None and f.taunted_by is not t:
                att -= 2
        else:
            att = f.stat("ra")
            d = dist(f, t)
            if d > (w.reach / 2) and d > 6 and not w.has("spray"):
                att -= 1
            if t.prone:
                att -= 1
            if self.engaged_with(t):
                att -= 1
            c = self.cover(f, t)
            if c:
                att -= 1
            if t.has("concealment") and not t.spotted:
                att -= 2
            if f.taunted_by is not None and f.taunted_by is not t:
                att -= 2
        defence = t.stat("mn") if psi else t.stat("df")
        refs = self.attack_refs(f, w)
        if any(ability_id(r) == "deceptive" for r in refs) or f.has("deceptive"):
            defence -= 1
        kind = "lethal" if w.has("lethal") else "savage" if w.has("savage") else "normal"
        return att, defence, kind

    def strength(self, f: Fighter, t: Fighter, w: Weapon, charge: bool) -> int:
        st = (w.st or 0) + f.stat("st")
        if w.melee:
            st += self.overwhelm(f, t)
            if f.berserk:
                st += 1
            if charge and not t.has("brace"):
                st += 1 + (1 if f.has("heavy-charge") else 0)
        elif self.cover(f, t) == "heavy":
            st -= 1
        return st

    def overwhelm(self, f: Fighter, t: Fighter) -> int:
        tx, ty, t_reach = t.x, t.y, t._reach
        others = [
            o for o in self.living[f.side]
            if o is not f and not o.incapacitated
            and max(0.0, math.hypot(o.x - tx, o.y - ty) - 2 * BASE_RADIUS) <= max(o._reach, t_reach) + CONTACT
        ]  # fmt: skip
        if not others:
            return 0
        size = f.size - (1 if f.prone else 0) + sum(o.size - (1 if o.prone else 0) for o in others)
        target = t.size - (1 if t.prone else 0) + (2 if t.shield else 0) + (2 if t.has("stalwart") else 0)
        if size <= target:
            return 0
        return 1 + (1 if f.has("teamwork") else 0)

    def choose_melee(self, f: Fighter, t: Fighter, charge: bool = False) -> Weapon | None:
        """The melee weapon with the best expected Damage on t (any reach when about to charge)."""
        usable = [
            w for w in f.melee_weapons()
            if (charge or self.in_reach(f, t, w)) and not (w.has("cumbersome") and w.name in f.used_weapons)
        ]  # fmt: skip
        if len(usable) <= 1:
            return usable[0] if usable else None
        best, best_value = None, -1.0
        for w in usable:
            value = self.attack_value(f, t, w, charge)
            if value > best_value:
                best, best_value = w, value
        return best

    def attack_value(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False) -> float:
        att, defence, kind = self.hit_value(f, t, w, charge)
        st = self.strength(f, t, w, charge)
        resist = t.stat("dr") if w.has("psi") else t.stat("rs")
        key = (att - defence, st - resist, kind)
        value = self.damage_memo.get(key)
        if value is None:
            rules = self.rules
            value = self.damage_memo[key] = expected_damage(rules, rules.tn(att, defence), rules.tn(st, resist), kind)
        return value

    def melee_attack(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False, clash_allowed: bool = True,
                     att_mod: int = 0, label: str = "attacks") -> None:  # fmt: skip
        """One melee Attack, with the target's chance to Clash first."""
        if not f.active or t.removed:
            return
        if w.has("cumbersome"):
            f.used_weapons.add(w.name)
        df_mod = 0
        strike_back = False
        if clash_allowed and t.active and t.clashes < math.ceil(t.ap / 2):
            answer = self.choose_melee(t, f)
            if answer is None and t.has("hip-shot"):
                answer = next((r for r in t.ranged_weapons() if dist(t, f) <= r.reach), None)
            if answer is not None:
                t.clashes += 1
                ok, _ = self.test(t, t.stat("dr"), f.stat("dr") + (1 if charge and not t.has("brace") else 0) + (1 if charge and f.has("heavy-charge") else 0), "dr")
                if not ok and t.has("reactive"):
                    ok, _ = self.test(t, t.stat("dr"), f.stat("dr"), "dr")
                if self.logging:
                    self.say(f"  {t.name} clashes: {'wins' if ok else 'fails'}")
                df_mod = -1
                if ok:
                    self.resolve(t, f, answer, charge=False)
                else:
                    strike_back = answer.melee
                if not f.active:
                    return
        self.resolve(f, t, w, charge=charge, df_mod=df_mod, att_mod=att_mod, label=label)
        if strike_back and t.active and not f.removed:
            w2 = self.choose_melee(t, f)
            if w2 is not None:
                self.resolve(t, f, w2, att_mod=-1, label="strikes back")

    def resolve(self, f: Fighter, t: Fighter, w: Weapon, charge: bool = False, df_mod: int = 0, att_mod: int = 0,
                label: str = "attacks", auto_hit: bool = False) -> bool:  # fmt: skip
        """Hit roll, statuses, damage roll.  Returns whether the attack hit."""
        if f.removed or t.removed:
            return False
        att, defence, kind = self.hit_value(f, t, w, charge)
        att += att_mod
        defence += df_mod
        refs = self.attack_refs(f, w)
        f.next_attack = []
        if w.melee:
            f.next_melee = []
        f.spotted = True  # attacking reveals a concealed model
        if auto_hit or t.side == f.side:
            ok = True
        else:
            ok, _, natural = self.roll(att, defence)
            if not ok and w.melee and f.has("weapon-master") and not f.weapon_master_used:
                f.weapon_master_used = True
                ok, _, natural = self.roll(att, defence)
            if not ok and w.melee and f.has("war-gods-prowess") and not f.war_god_used:
                f.war_god_used = True
                ok, _, natural = self.roll(att, defence)
            if ok and t.has("wise-queens-foresight") and not t.foresight_used:
                t.foresight_used = True
                ok, _, natural = self.roll(att, defence)
        if self.logging:
            self.say(f"  {f.name} {label} {t.name} with {w.name}: {'hit' if ok else 'miss'} ({att} vs {defence})")
        if not ok:
            return False
        if f.has("berserker") and w.melee:
            f.berserk = True
            f.berserk_hit_this_round = True
        psi = w.has("psi")
        self.apply_statuses(f, t, refs, psi)
        if t.side == f.side:
            for ref in refs:  # Aid on a friend (or oneself)
                aid, args = ability_id(ref), ability_args(ref)
                if aid == "aid" and args:
                    t.aid[args[0]] = t.aid.get(args[0], 0) + int(args[-1])
            # Healer heals the living, Patch the non-living: every warrior is living, so 1 HP once
            if any(ability_id(r) == "healer" for r in refs) and t.hp < t.hp_max:
                t.hp += 1
                t.incapacitated = False
                if self.logging:
                    self.say(f"  {t.name} is healed to {t.hp} HP")
            return True
        if w.st is None:
            return True
        st = self.strength(f, t, w, charge)
        resist = t.stat("dr") if psi else t.stat("rs")
        ok, stages, _ = self.roll(st, resist)
        if ok:
            self.wound(t, 1 + stages // self.rules.step(kind == "savage", kind == "lethal"), f, w.name)
        return True

    # -- area attacks ------------------------------------------------------------

    def area_targets(self, f: Fighter, t: Fighter, w: Weapon, ox: float | None = None, oy: float | None = None) -> list[Fighter]:
        everyone = [o for o in self.sides[0] + self.sides[1] if not o.removed and o is not f]
        if w.has("blast"):
            radius = (w.value("blast") or 0) + BASE_RADIUS
            cx, cy = (t.x, t.y) if ox is None else (ox, oy)
            return [o for o in everyone if math.hypot(o.x - cx, o.y - cy) <= radius]
        length = float(w.reach if f.range_override is None else max(w.reach, f.range_override))
        dx, dy = t.x - f.x, t.y - f.y
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        width = float(w.value("spray") or 0)
        out = []
        for o in everyone:
            along = (o.x - f.x) * ux + (o.y - f.y) * uy
            lateral = abs(-(o.x - f.x) * uy + (o.y - f.y) * ux)
            if along <= 0 or along > length + BASE_RADIUS:
                continue
            allowed = (width * along / d if w.has("spray") else 0.0) + BASE_RADIUS
            if lateral <= allowed:
                out.append(o)
        return out

    def area_attack(self, f: Fighter, t: Fighter, w: Weapon) -> None:
        """Blast, Spray or Line: roll to hit the target, then every model in the area is hit."""
        hit = self.resolve(f, t, w, label="fires at")
        if w.has("blast"):
            ox, oy = t.x, t.y
            if not hit:
                ox, oy = self.scatter(f, t.x, t.y)
            victims = self.area_targets(f, t, w, ox, oy)
        elif hit:
            victims = [o for o in self.area_targets(f, t, w) if o is not t]
        else:
            victims = []
        for o in victims:
            if o is t and hit:
                continue
            self.resolve(f, o, w, auto_hit=True, label="also hits")

    def scatter(self, f: Fighter, x: float, y: float) -> tuple[float, float]:
        """1d6 + 1d8 inches in the direction of the d8, at most half the distance shot."""
        d6 = int(self.rng.integers(1, 7))
        d8 = int(self.rng.integers(1, 9))
        distance = min(float(d6 + d8), math.hypot(x - f.x, y - f.y) / 2)
        angle = (d8 - 1) * math.pi / 4
        nx = min(self.board, max(0.0, x + distance * math.cos(angle)))
        ny = min(self.board, max(0.0, y + distance * math.sin(angle)))
        if self.logging:
            self.say(f"  the blast scatters {distance:.0f}\"")
        return nx, ny

    def ranged_attack(self, f: Fighter, t: Fighter, w: Weapon) -> None:
        if w.has("blast") or w.has("spray") or w.has("line") or f.has("line"):
            if f.has("line") and not w.has("line"):
                w = Weapon(w.name, w.st, max(w.reach, f.range_override or 0), False, w.abilities + ("line",), w.no_shield, w.power)
            self.area_attack(f, t, w)
            return
        if t.side != f.side and t.has("deflection") and w.power is None:
            ok, _ = self.test(t, t.stat("dr"), f.stat("ra"), "dr")
            if ok:
                if self.logging:
                    self.say(f"  {t.name} deflects the shot")
                return
        engaged_friends = [o for o in self.engaged_with(t) if o.side == f.side]
        hit = self.resolve(f, t, w, label="shoots")
        if not hit and engaged_friends and t.side != f.side:
            friend = min(engaged_friends, key=lambda o: dist(o, t))
            if len([e for e in self.engaged_with(friend)]) > 1 and self.test(friend, friend.stat("dr"), 4, "dr")[0]:
                return
            if self.logging:
                self.say(f"  the miss hits {friend.name}")
            self.resolve(f, friend, w, auto_hit=True, label="hits")

    # -- movement ---------------------------------------------------------------

    def free_of_overlap(self, f: Fighter, x: float, y: float) -> bool:
        limit = (2 * BASE_RADIUS - 1e-6) ** 2
        for side in self.living:
            for o in side:
                if o is not f and (o.x - x) ** 2 + (o.y - y) ** 2 < limit:
                    return False
        return True

    def move_towards(self, f: Fighter, tx: float, ty: float, budget: float, stop_at: float, target: Fighter | None = None,
                     free_strikes: bool = True) -> float:  # fmt: skip
        """Straight move towards (tx, ty), stopping ``stop_at`` inches short (centre to centre).

        Returns the distance travelled (0 when blocked: the caller then spends no AP).
        """
        dx, dy = tx - f.x, ty - f.y
        d = math.hypot(dx, dy)
        if d <= stop_at + 1e-6 or budget <= 0:
            return 0.0
        flying = f.has("flight") or f.has("teleport") or f.has("leap")
        budget -= self.terrain_penalty(f, tx, ty)
        sx, sy = f.x, f.y
        travel, nx, ny = 0.0, f.x, f.y
        for turn in (0.0, 0.6, -0.6, 1.2, -1.2):  # straight on, else around whoever is in the way
            angle = math.atan2(dy, dx) + turn
            ux, uy = math.cos(angle), math.sin(angle)
            travel = max(0.0, min(budget, d - stop_at))
            nx, ny = f.x + ux * travel, f.y + uy * travel
            while travel > 0 and not self.free_of_overlap(f, nx, ny):
                travel = max(0.0, travel - 0.2)
                nx, ny = f.x + ux * travel, f.y + uy * travel
            if travel >= 0.05 and (turn == 0.0 or math.hypot(tx - nx, ty - ny) < d - 0.05):
                break
        nx = min(self.board, max(0.0, nx))
        ny = min(self.board, max(0.0, ny))
        if travel < 0.05:
            return 0.0
        f.x, f.y = nx, ny
        if self.logging:
            self.say(f"  {f.name} moves {travel:.1f}\"")
        if not flying:
            for t in self.terrain:
                if "hazardous" in t.keywords:
                    sd, _ = seg_point_distance(sx, sy, nx, ny, t.x, t.y)
                    if sd < t.r:
                        self.st_hit(f, t.hazard, None, t.name)
                        if t.fire is not None and not f.removed and not self.immune(f, "fire"):
                            f.fire = max(t.fire, f.fire or 0)
        if free_strikes and not f.has("elusive") and not f.has("teleport") and not f.removed:
            self.free_strikes(f, sx, sy, target)
        return travel

    def terrain_penalty(self, f: Fighter, tx: float, ty: float) -> float:
        """Difficult terrain on the way costs 2" of the move (seed: Difficult)."""
        if f.has("flight") or f.has("teleport") or f.has("leap") or f.has("sure-footed"):
            return 0.0
        for t in self.terrain:
            if "difficult" in t.keywords and seg_point_distance(f.x, f.y, tx, ty, t.x, t.y)[0] < t.r:
                return 2.0
        return 0.0

    def free_strikes(self, f: Fighter, sx: float, sy: float, target: Fighter | None) -> None:
        for e in self.enemies(f):
            if f.removed:
                return
            if e is target or e.removed or e.incapacitated:
                continue
            reach = e._reach + 2 * BASE_RADIUS
            if math.hypot(sx - e.x, sy - e.y) <= reach or math.hypot(f.x - e.x, f.y - e.y) <= reach:
                continue  # it started or ended within reach: the move did not pass it by
            passed, _ = seg_point_distance(sx, sy, f.x, f.y, e.x, e.y)
            if passed <= reach:
                w = self.choose_melee(e, f, charge=True)
                if w is not None:
                    if self.logging:
                        self.say(f"  free strike by {e.name}")
                    self.resolve(e, f, w, label="free-strikes")

    # -- God powers -------------------------------------------------------------

    def power_cost(self, f: Fighter, p: GodPower) -> int:
        return max(0, p.godspark - (1 if f.has("godspark-attuned") else 0))

    def power_kind(self, p: GodPower) -> str:
        if p.attack is not None:
            ids = [ability_id(a) for a in p.attack.abilities]
            if "healer" in ids or "patch" in ids:
                return "heal"
            if "self" in ids:
                return "buff"
            return "attack"
        grants = {ability_id(g) for g in p.grants}
        if grants & {"flight", "teleport", "leap", "sure-footed", "acrobatics"} or p.id == "stride-of-1000-leagues":
            return "move"
        if grants & {"immunity", "deflection", "stubborn"} or p.id in ("steel-your-mind", "wise-queens-foresight", "senses-beyond"):
            return "guard"
        if grants & {"line"}:
            return "shoot"
        return "fight"

    def use_power(self, f: Fighter, p: GodPower, target: Fighter | None = None) -> None:
        cost = self.power_cost(f, p)
        self.godspark[f.side] -= cost
        self.powers_used[f.side].add(p.id)
        f.ap_left -= 1
        extra = 0
        for b in p.boosts:  # buy a boost of "+1 additional ..." when Godspark is left
            if b.effect.lower().startswith("+1") and self.godspark[f.side] >= b.cost:
                self.godspark[f.side] -= b.cost
                extra += 1
                break
        if self.logging:
            self.say(f"  {f.name} calls on {p.name} ({cost + extra} Godspark, {self.godspark[f.side]} left)")
        for ref in p.grants:
            aid, args = ability_id(ref), ability_args(bump(ref, extra))
            if aid in ("fire",):
                f.next_attack.append("/".join([aid, *args]))
            elif aid == "ice":
                f.next_melee.append("/".join([aid, *args]))
            elif aid == "immunity":
                f.temp.setdefault("immunity", []).extend(args)
            else:
                f.temp[aid] = args
        if p.id == "stride-of-1000-leagues":
            f.sp_bonus += 5
        if p.id == "fly-true":
            f.range_override = 30
        if p.id in ("steel-your-mind", "wise-queens-foresight", "war-gods-prowess"):
            f.temp[p.id] = []
        if p.id == "senses-beyond":
            for e in self.enemies(f):
                e.spotted = True
        if p.attack is not None:
            abilities = [a for a in p.attack.abilities if ability_id(a) not in ("point-blank", "self")]
            if extra:
                abilities = [bump(a, extra) for a in abilities]
            w = Weapon(p.name, p.attack.st, p.attack.range, False, tuple(abilities), power=p.id)
            who = target or f
            if who.side == f.side:
                self.resolve(f, who, w, auto_hit=True, label="channels into")
            elif w.has("spray") or w.has("line") or w.has("blast"):
                self.area_attack(f, who, w)
            else:
                self.resolve(f, who, w, label="strikes with")

    def maybe_power(self, f: Fighter) -> bool:
        """The AI's choice of a God power at this moment; True when one was used."""
        if f.ap_left < 1 or not self.powers[f.side]:
            return False
        used, spark = self.powers_used[f.side], self.godspark[f.side]
        if all(p.id in used or spark < self.power_cost(f, p) for p in self.powers[f.side]):
            return False
        enemies = self.enemies(f)
        if not enemies:
            return False
        nearest = min(enemies, key=lambda e: dist(f, e))
        engaged = bool(self.engaged_with(f))
        can_charge = gap(f, nearest) <= f.speed() + 3 + f.reach() and f.ap_left >= 3
        for p in self.powers[f.side]:
            if p.id in self.powers_used[f.side] or self.godspark[f.side] < self.power_cost(f, p):
                continue
            kind = self.power_kind(p)
            if kind == "heal":
                wounded = [o for o in [f, *self.friends(f)] if o.hp < o.hp_max and dist(f, o) <= p.attack.range]
                if wounded:
                    self.use_power(f, p, min(wounded, key=lambda o: o.hp))
                    return True
            elif kind == "attack":
                if not engaged and dist(f, nearest) <= p.attack.range and self.los(f, nearest):
                    self.use_power(f, p, nearest)
                    return True
            elif kind in ("buff", "fight"):
                if (engaged and f.ap_left >= 2) or can_charge:
                    self.use_power(f, p)
                    return True
            elif kind == "guard":
                if engaged or gap(f, nearest) <= 8:
                    self.use_power(f, p)
                    return True
            elif kind == "move":
                if not engaged and f.speed() + 3 + f.reach() < gap(f, nearest) <= f.speed() + 8 + f.reach() and f.ap_left >= 3:
                    self.use_power(f, p)
                    return True
            elif kind == "shoot" and f.ranged_weapons() and not engaged and dist(f, nearest) <= 30:
                self.use_power(f, p)
                return True
        return False

    # -- an activation ------------------------------------------------------------

    def start_activation(self, f: Fighter) -> None:
        f.activated = True
        f.weapon_master_used = False
        f.ap_left = 0 if f.incapacitated else f.ap - (1 if f.berserk_penalty else 0) - (1 if f.shocked else 0)
        f.berserk_penalty = False
        if f.ice is not None and not f.removed:
            ok, stages = self.roll(f.ice, f.stat("rs"))[:2]
            if ok:
                f.ap_left = max(0, f.ap_left - max(1, stages))
                if self.logging:
                    self.say(f"  {f.name} is frozen: -{max(1, stages)} AP")
            else:
                f.ice = None
                f.ice_sp = True
        if f.delusional and not self.test(f, f.stat("mn"), 2, "mn")[0]:
            if self.logging:
                self.say(f"  {f.name} is delusional and attacks the nearest model")
            others = [o for o in self.sides[0] + self.sides[1] if not o.removed and o is not f]
            if others:
                t = min(others, key=lambda o: dist(f, o))
                self.close_and_fight(f, t, allow_charge=False)
            f.ap_left = 0
        for e in self.enemies(f):  # Terrifying: test when within its melee range
            x = e.value("terrifying")
            if x is not None and not f.terrified and not f.has("steel-your-mind") and gap(f, e) <= e.reach():
                if not self.test(f, f.stat("mn"), x, "mn")[0]:
                    f.terrified = True
                    if self.logging:
                        self.say(f"  {f.name} is terrified by {e.name}")

    def end_activation(self, f: Fighter) -> None:
        if f.fire is not None and not f.removed:
            if not self.roll(self.status_rs(f, False), f.fire)[0]:
                self.wound(f, 1, None, "fire")
        f.ap_left = 0

    def best_target(self, f: Fighter, candidates: list[Fighter]) -> Fighter:
        if f.taunt_forced and f.taunted_by in candidates:
            return f.taunted_by
        if f.has("berserker"):
            return min(candidates, key=lambda e: dist(f, e))
        return max(candidates, key=lambda e: (max(self.attack_value(f, e, w) for w in f.melee_weapons()) / max(1, e.hp), e.cost, -e.index))

    def approach_spot(self, f: Fighter, t: Fighter, reach: int) -> tuple[float, float] | None:
        """The free spot nearest to ``f`` from which ``t`` is within ``reach`` (None if surrounded)."""
        want = 2 * BASE_RADIUS + reach * 0.9 + 0.001
        base = math.atan2(f.y - t.y, f.x - t.x)
        for k in range(13):
            for sign in ((1,) if k == 0 else (1, -1)):
                angle = base + sign * k * math.pi / 12
                x, y = t.x + want * math.cos(angle), t.y + want * math.sin(angle)
                if 0 <= x <= self.board and 0 <= y <= self.board and self.free_of_overlap(f, x, y):
                    return x, y
        return None

    def close_and_fight(self, f: Fighter, t: Fighter, allow_charge: bool = True) -> bool:
        """Move into melee with t (Charge when the rules allow it), then attack; False if blocked."""
        w = self.choose_melee(f, t, charge=True) or FISTS
        if self.in_reach(f, t, w):
            if f.ap_left < 1:
                return False
            self.spend_attack(f, t)
            return True
        spot = self.approach_spot(f, t, w.reach)
        if spot is None:
            return False
        need = math.hypot(spot[0] - f.x, spot[1] - f.y) + self.terrain_penalty(f, spot[0], spot[1])
        cost = 1 if f.has("bullrush") else 2
        can_charge = (
            allow_charge and not f.prone and f.ap_left >= cost and need <= f.speed() + 3
            and need >= math.ceil(f.sp / 2) and (self.los(f, t) or f.has("aware"))
            and not self.engaged_with(f)
        )  # fmt: skip
        if can_charge:
            if self.logging:
                self.say(f"  {f.name} charges {t.name}")
            if self.move_towards(f, spot[0], spot[1], f.speed() + 3, 0.0, target=t) <= 0:
                return False
            f.ap_left -= cost
            if f.active and not t.removed and self.in_reach(f, t, w):
                self.charge_terror(f, t)
                self.melee_attack(f, t, w, charge=True)
            return True
        if self.move_towards(f, spot[0], spot[1], f.speed(), 0.0, target=t) <= 0:
            return False
        f.ap_left -= 1
        return True

    def charge_terror(self, f: Fighter, t: Fighter) -> None:
        for a, b in ((f, t), (t, f)):
            x = b.value("terrifying")
            if x is not None and not a.terrified and not a.has("steel-your-mind"):
                if not self.test(a, a.stat("mn"), x, "mn")[0]:
                    a.terrified = True
                    if self.logging:
                        self.say(f"  {a.name} is terrified by {b.name}")

    def spend_attack(self, f: Fighter, t: Fighter) -> None:
        w = self.choose_melee(f, t)
        if w is None:
            f.ap_left -= 1
            return
        if f.has("melee-arc") and f.ap_left >= 1:
            targets = [e for e in self.enemies(f) if gap(f, e) <= 2]
            if len(targets) >= 2:
                f.ap_left -= 1
                for e in targets:
                    self.melee_attack(f, e, w, clash_allowed=False, label="sweeps")
                return
        if f.has("rapid-attack") and f.ap_left >= 2 and not w.has("cumbersome"):
            f.ap_left -= 2
            for _ in range(3):
                if not t.removed and f.active:
                    self.melee_attack(f, t, w, label="rapidly attacks")
            return
        f.ap_left -= 1
        self.melee_attack(f, t, w)

    def heal_someone(self, f: Fighter) -> bool:
        if not f.has("healer"):
            return False
        patients = [o for o in self.friends(f) + [f] if o.hp < o.hp_max or o.incapacitated]
        if not patients:
            return False
        p = min(patients, key=lambda o: (not o.incapacitated, dist(f, o)))
        if p is f or gap(f, p) <= 0.05:
            f.ap_left -= 1
            p.hp += 1
            if p.incapacitated:
                p.incapacitated = False
            if self.logging:
                self.say(f"  {f.name} heals {p.name} to {p.hp} HP")
            return True
        if self.engaged_with(f) or gap(f, p) > f.speed() * f.ap_left:
            return False
        f.ap_left -= 1
        self.move_towards(f, p.x, p.y, f.speed(), 2 * BASE_RADIUS)
        return True

    def best_ranged(self, f: Fighter, t: Fighter) -> Weapon | None:
        options = []
        engaged = bool(self.engaged_with(f))
        for w in f.ranged_weapons():
            reach = max(w.reach, f.range_override or 0)
            if dist(f, t) - 2 * BASE_RADIUS > reach or (engaged and not w.has("point-blank")):
                continue
            if f.blind and dist(f, t) > 6:
                continue
            options.append((self.attack_value(f, t, w), w))
        return max(options, key=lambda o: o[0])[1] if options else None

    def activate(self, f: Fighter) -> None:
        if self.logging:
            self.say(f"{f.name} activates ({f.ap} AP)")
        self.start_activation(f)
        guard = 0
        while f.ap_left > 0 and f.active and self.enemies(f) and guard < 20:
            guard += 1
            if f.prone:
                if not f.has("acrobatics"):
                    f.ap_left -= 1
                f.prone = False
                if self.logging:
                    self.say(f"  {f.name} stands up")
                continue
            if f.restrain is not None:
                f.ap_left -= 1
                if self.test(f, f.stat("dr"), f.restrain, "dr")[0]:
                    f.restrain = None
                continue
            if f.fire is not None and f.ap_left >= 2 and not self.engaged_with(f):
                f.ap_left -= 1
                if self.roll(self.status_rs(f, False) + 2, f.fire)[0]:
                    f.fire = None
                    if self.logging:
                        self.say(f"  {f.name} puts out the fire")
                continue
            if self.maybe_power(f):
                continue
            if self.heal_someone(f):
                continue
            engaged = self.engaged_with(f)
            if engaged:
                ranged_only = bool(f.ranged_weapons()) and max(w.st or 0 for w in f.melee_weapons()) < 1
                if ranged_only and not f.has("berserker"):
                    self.disengage(f, engaged)
                    continue
                if not f.focus and f.ap_left >= 3:
                    f.ap_left -= 1
                    f.focus = {"ma": 1, "st": 1}
                    if self.logging:
                        self.say(f"  {f.name} focuses")
                    continue
                reachable = [e for e in engaged if self.choose_melee(f, e) is not None]
                if not reachable:
                    if f.ap_left >= 2:
                        self.disengage(f, engaged, toward=min(engaged, key=lambda e: (gap(f, e), e.index)))
                        continue
                    if f.focus:
                        break
                    f.ap_left -= 1
                    f.focus = {"ma": 1, "df": 1}
                    continue
                self.spend_attack(f, self.best_target(f, reachable))
                continue
            enemies = self.enemies(f)
            shots = [
                (e, w)
                for e in (enemies if f.ranged_weapons() else ())
                if (w := self.best_ranged(f, e)) and self.los(f, e) and not self.shot_blocked_by_models(f, e)
                and (not self.engaged_with(e) or self.attack_value(f, e, w) >= 0.3)
            ]  # fmt: skip
            if shots and (f.has("concealment") or not f.has("berserker")):
                e, w = max(shots, key=lambda s: (self.attack_value(f, s[0], s[1]), -dist(f, s[0])))
                melee_better = gap(f, e) <= f.speed() + 3 and max(self.attack_value(f, e, m, True) for m in f.melee_weapons()) > 1.5 * self.attack_value(f, e, w)
                if not melee_better:
                    f.ap_left -= 1
                    self.ranged_attack(f, e, w)
                    continue
            target = self.best_target(f, enemies) if f.has("berserker") else min(enemies, key=lambda e: (gap(f, e), e.index))
            if f.taunt_forced and f.taunted_by is not None and not f.taunted_by.removed:
                target = f.taunted_by  # a Taunt with 3+ stages: it must come at the taunter
            if self.taunt(f, enemies):
                continue
            if target.has("concealment") and not target.spotted and f.ap_left >= 2:
                f.ap_left -= 1
                target.spotted = self.test(f, f.stat("mn"), target.stat("dr"), "mn")[0]
                if self.logging:
                    self.say(f"  {f.name} {'spots' if target.spotted else 'fails to spot'} {target.name}")
                continue
            if f.ranged_weapons() and not f.has("berserker") and gap(f, target) > max(w.reach for w in f.ranged_weapons()):
                if self.move_towards(f, target.x, target.y, f.speed(), max(w.reach for w in f.ranged_weapons()) * 0.9) > 0:
                    f.ap_left -= 1
                    continue
            if not self.close_and_fight(f, target):
                others = [e for e in enemies if e is not target]
                if not others or not self.close_and_fight(f, min(others, key=lambda e: (gap(f, e), e.index))):
                    break
        self.end_activation(f)

    def taunt(self, f: Fighter, enemies: list[Fighter]) -> bool:
        x = f.value("taunt")
        if x is None or f.ap_left < 1:
            return False
        fresh = [e for e in enemies if not e.activated and e.taunted_by is None and self.los(f, e) and dist(f, e) <= 18]
        if not fresh:
            return False
        e = max(fresh, key=lambda o: (o.cost, -o.index))
        f.ap_left -= 1
        ok, stages = self.test(e, x, e.stat("mn"))
        if ok:
            e.taunted_by = f
            e.taunt_forced = stages >= 3
            if self.logging:
                self.say(f"  {f.name} taunts {e.name}" + (" into coming at it" if e.taunt_forced else ""))
        return True

    def disengage(self, f: Fighter, engaged: list[Fighter], toward: Fighter | None = None) -> None:
        f.ap_left -= 1
        foe = max(engaged, key=lambda e: e.stat("dr"))
        ok, _ = self.test(f, f.stat("dr"), foe.stat("dr"), "dr")
        if ok and any(e.has("grapple") for e in engaged):
            ok, _ = self.test(f, f.stat("dr"), foe.stat("dr"), "dr")
        if not ok:
            if self.logging:
                self.say(f"  {f.name} fails to disengage")
            return
        if self.logging:
            self.say(f"  {f.name} disengages")
        if toward is not None:  # to close in on a foe it cannot reach from here
            self.move_towards(f, toward.x, toward.y, f.speed(), 2 * BASE_RADIUS, toward, free_strikes=False)
            return
        cx = sum(e.x for e in engaged) / len(engaged)
        cy = sum(e.y for e in engaged) / len(engaged)
        away_x, away_y = 2 * f.x - cx, 2 * f.y - cy
        self.move_towards(f, away_x, away_y, f.speed(), 0.0, free_strikes=False)

    # -- rounds ---------------------------------------------------------------------

    def pick_next(self, side: int) -> Fighter | None:
        ready = [f for f in self.living[side] if not f.activated]
        if not ready:
            return None
        enemies = self.living[1 - side]
        if not enemies:
            return ready[0]
        best, best_key = None, None
        for f in ready:  # the ready model nearest to an enemy (then the lowest index)
            fx, fy = f.x, f.y
            near = min([(fx - e.x) ** 2 + (fy - e.y) ** 2 for e in enemies])
            if best_key is None or (near, f.index) < best_key:
                best, best_key = f, (near, f.index)
        return best

    def end_phase(self) -> None:
        for side in (0, 1):
            for f in self.sides[side]:
                if f.incapacitated and not f.removed:
                    near = any(o.has("healer") and o.active and gap(o, f) <= max(0, o.value("healer") or 0) + 0.05 for o in self.friends(f))
                    if not near:
                        self.remove(f, None, "not tended by a Healer")
                for stat in list(f.aid):
                    f.aid[stat] -= 1
                    if f.aid[stat] <= 0:
                        del f.aid[stat]
                for stat in list(f.drain):
                    f.drain[stat] -= 1
                    if f.drain[stat] <= 0:
                        del f.drain[stat]
                if f.berserk and not f.berserk_hit_this_round:
                    f.berserk = False
                    f.berserk_penalty = True
                f.berserk_hit_this_round = False
                f.focus = {}
                f.shocked = f.terrified = f.blind = f.ice_sp = False
                f.temp = {}
                f.sp_bonus = 0
                f.range_override = None
                f.clashes = 0
                f.used_weapons = set()
                f.war_god_used = False
                f.taunted_by = None
                f.taunt_forced = f.foresight_used = f.spotted = False
                f.activated = False
        self.powers_used = [set(), set()]

    def play_round(self) -> None:
        for side in (0, 1):
            self.godspark[side] += self.godspark_income
        a, b = int(self.rng.integers(2, 13)), int(self.rng.integers(2, 13))
        side = 0 if a >= b else 1
        if self.logging:
            self.say(f"— round {self.round} — clan {side + 1} activates first (Godspark {self.godspark[0]} / {self.godspark[1]})")
        while True:
            f = self.pick_next(side)
            if f is None:
                f = self.pick_next(1 - side)
                if f is None:
                    break
                side = 1 - side
            self.activate(f)
            if not all(any(not x.removed for x in self.sides[s]) for s in (0, 1)):
                return
            x = f.value("tactician")
            if x is not None:
                helper = [o for o in self.friends(f) if not o.activated and o.active and dist(f, o) <= x]
                if helper:
                    follower = min(helper, key=lambda o: (min((gap(o, e) for e in self.enemies(o)), default=99), o.index))
                    if self.logging:
                        self.say(f"  {f.name} directs {follower.name} (Tactician)")
                    self.activate(follower)
                    if not all(any(not x.removed for x in self.sides[s]) for s in (0, 1)):
                        return
            side = 1 - side
        self.end_phase()

    def shares(self) -> tuple[float, float]:
        """Per side, the percentage of the *enemy's* Glory it removed: the game's score.

        Scoring by share rather than by absolute Glory is what lets a stronger clan win
        clearly: with absolute Glory a clan cut by a fifth exposed a fifth less Glory to
        the enemy and did as well as the full clan.
        """
        totals = [sum(f.cost for f in self.sides[s]) for s in (0, 1)]
        return (
            100.0 * self.scores[0] / totals[1] if totals[1] else 0.0,
            100.0 * self.scores[1] / totals[0] if totals[0] else 0.0,
        )

    def play(self) -> GameRecord:
        self.setup()
        rounds = 0
        for rounds in range(1, self.max_rounds + 1):
            self.round = rounds
            self.play_round()
            if not all(any(not f.removed for f in self.sides[s]) for s in (0, 1)):
                break
        wiped = [not any(not f.removed for f in self.sides[s]) for s in (0, 1)]
        shares = self.shares()
        if wiped[0] and not wiped[1]:
            winner: int | None = 1
        elif wiped[1] and not wiped[0]:
            winner = 0
        elif shares[0] > shares[1]:
            winner = 0
        elif shares[1] > shares[0]:
            winner = 1
        else:
            winner = None
        if self.logging:
            self.say(f"result: {shares[0]:.0f} % to {shares[1]:.0f} % of the enemy's Glory removed "
                 f"({self.scores[0]:.0f} to {self.scores[1]:.0f} Glory); "
                 + ("draw" if winner is None else f"clan {winner + 1} wins"))  # fmt: skip
        records = [UnitRecord(f.side, f.name, float(f.cost), (not f.removed), f.kills) for s in (0, 1) for f in self.sides[s]]
        return GameRecord(winner, rounds, shares, records, self.lines)


def play_game(cat: Catalogue, first: WarClan, second: WarClan, rng: np.random.Generator, log: bool = False) -> GameRecord:
    """One simulated game; all randomness from *rng*."""
    return Battle(cat, first, second, rng, log).play()
