"""The pieces of a Morpheus Engine battle: weapons, terrain and fighters, built from a war clan.

Plain records (a fighter's statuses, position and its stat arithmetic); the rules live in
the phase modules joined in :class:`battle.Battle`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from armybuilder.core.catalog import Catalogue
from armybuilder.core.engine import list_key

from ..army import WarClan, warrior_cost, warrior_type
from ..catalog import GodPower


def ability_id(ref: str) -> str:
    """'tactician/12' → 'tactician' (the catalogue's ``ability_id``, compiled with the engine:
    the engine reads ability references on every attack it weighs)."""
    return ref.partition("/")[0]


def ability_args(ref: str) -> list[str]:
    """'aid/dr/1' → ['dr', '1']; 'savage' → [] (the catalogue's ``ability_args``, compiled with
    the engine)."""
    rest = ref.partition("/")[2]
    return rest.split("/") if rest else []


BASE_RADIUS = 0.6  # a 30 mm round base, in inches
CONTACT = 0.05  # bases this close count as touching
BASES = 2 * BASE_RADIUS  # the centre distance of two bases in contact (a float: no int-float arithmetic)
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
        # what the attack rules ask of every attack weighed, answered once
        self._psi = "psi" in self._ids
        self._cumbersome = "cumbersome" in self._ids
        self._deceptive = "deceptive" in self._ids
        self._spray = "spray" in self._ids
        self._kind = "lethal" if "lethal" in self._ids else "savage" if "savage" in self._ids else "normal"
        self._touch = self.reach + CONTACT  # the farthest gap it reaches across (a float)

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


@dataclass(eq=False, slots=True)  # identity: a fighter is equal only to itself
class Fighter:
    """A model in play.  Slots, not a ``__dict__``: a fighter has more attributes than
    CPython 3.11 keeps in a shared-key layout, and with a dictionary of its own every method
    call on it (``f.stat()``, ``f.has()``) took the interpreter's slow, unspecialised path."""

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
    in_hand: Weapon | None = None  # the melee weapon it last fought with (ME-D3: a no-shield one drops the shield)
    slot: int = 0  # place in its side's list (index skips warriors of unknown types)
    # squared centre distance to each enemy, by slot (inf once removed): kept by Battle.place()
    d2: list[float] = field(default_factory=list)
    # worked out once from the profile (__post_init__) or the pairing (pairing_for)
    _melee: list[Weapon] = field(init=False, repr=False)
    _reach: int = field(init=False, repr=False)
    _ranged: list[Weapon] = field(init=False, repr=False)
    _max_range: int = field(init=False, repr=False)
    _sure_mover: bool = field(init=False, repr=False)
    _values: dict[str, int] = field(init=False, repr=False)
    _stats: dict[str, int] = field(init=False, repr=False)
    _engage_max: float = field(default=math.inf, init=False, repr=False)  # no early answer by default
    _engage_hair: float = field(default=math.inf, init=False, repr=False)  # _engage_max widened by a hair

    def has(self, ability: str) -> bool:
        return ability in self.abilities or ability in self.temp

    def value(self, ability: str) -> int | None:
        found = self._values.get(ability)  # the profile's abilities, worked out once
        if found is not None or not self.temp:
            return found
        args = self.temp.get(ability)
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
        value = self._stats[name]
        if not (self.aid or self.drain or self.focus or self.terrified or self.incapacitated or self.prone or self.shocked):
            return value  # no modifier at all: the usual case
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
        # stat("sp") inlined: of its modifiers only Aid, Drain and Focus can touch SP
        sp = self._stats["sp"] + self.sp_bonus
        if self.aid:
            sp += self.aid.get("sp", 0)
        if self.drain:
            sp -= self.drain.get("sp", 0)
        if self.focus:
            sp += self.focus.get("sp", 0)
        if self.prone:
            sp -= 3
        if self.shocked:
            sp -= 1
        if self.ice_sp:
            sp -= 1
        if self.restrain is not None:
            sp -= 2
        return sp if sp > 0 else 0

    def __post_init__(self) -> None:
        # the profile's stats (never changed in play) and ST 0, for stat() to read without getattr
        self._stats = {name: getattr(self, name) for name in STATS if name != "st"} | {"st": 0}
        self._melee = [w for w in self.weapons if w.melee] or [FISTS]
        self._reach = max(w.reach for w in self._melee)
        self._ranged = [w for w in self.weapons if not w.melee and w.power is None]
        self._max_range = max((w.reach for w in self._ranged), default=0)
        # never slowed by Difficult terrain, whatever the Round grants (temp is looked at too)
        self._sure_mover = any(a in self.abilities for a in ("flight", "teleport", "leap", "sure-footed"))
        # the last number of each ability of the profile (abilities never change in play)
        values: dict[str, int] = {}
        for key, args in self.abilities.items():
            nums = [int(a) for a in args if a.lstrip("-").isdigit()]
            values[key] = nums[-1] if nums else 0
        self._values = values

    def fresh(self) -> Fighter:
        """A copy of this (template) fighter with its own game state."""
        # a bare instance (no __init__, no __post_init__): Fighter.__new__, which both builds
        # allow (object.__new__ refuses a compiled class)
        f = Fighter.__new__(Fighter)
        # every slot assigned by name (a specialised store each, about 1 µs a fighter; a loop
        # over setattr() took 8 µs, some 6 % of a game), the game state in new containers
        f.side = self.side
        f.index = self.index
        f.name = self.name
        f.cost = self.cost
        f.ap = self.ap
        f.sp = self.sp
        f.ma = self.ma
        f.ra = self.ra
        f.df = self.df
        f.rs = self.rs
        f.dr = self.dr
        f.mn = self.mn
        f.hp_max = self.hp_max
        f.size = self.size
        f.abilities = self.abilities
        f.weapons = self.weapons
        f.shield = self.shield
        f.x = self.x
        f.y = self.y
        f.hp = self.hp
        f.prone = self.prone
        f.incapacitated = self.incapacitated
        f.removed = self.removed
        f.activated = self.activated
        f.ap_left = self.ap_left
        f.clashes = self.clashes
        f.focus = {}
        f.aid = {}
        f.drain = {}
        f.temp = {}
        f.next_attack = []
        f.next_melee = []
        f.fire = self.fire
        f.ice = self.ice
        f.restrain = self.restrain
        f.shocked = self.shocked
        f.terrified = self.terrified
        f.blind = self.blind
        f.delusional = self.delusional
        f.spotted = self.spotted
        f.taunted_by = self.taunted_by
        f.taunt_forced = self.taunt_forced
        f.foresight_used = self.foresight_used
        f.berserk = self.berserk
        f.berserk_hit_this_round = self.berserk_hit_this_round
        f.berserk_penalty = self.berserk_penalty
        f.ice_sp = self.ice_sp
        f.used_weapons = set()
        f.weapon_master_used = self.weapon_master_used
        f.war_god_used = self.war_god_used
        f.sp_bonus = self.sp_bonus
        f.range_override = self.range_override
        f.kills = self.kills
        f.in_hand = self.in_hand
        f.slot = self.slot
        f.d2 = list(self.d2)
        f._melee = self._melee
        f._reach = self._reach
        f._ranged = self._ranged
        f._max_range = self._max_range
        f._sure_mover = self._sure_mover
        f._values = self._values
        f._stats = self._stats
        f._engage_max = self._engage_max
        f._engage_hair = self._engage_hair
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
@dataclass
class Pairing:
    """What every game between two clans shares and no game changes, built once per pairing:
    the fighters' templates, the God powers each side bought, the Godspark below which a side
    can afford none of them, and per fighter the squared centre distance to each enemy (in
    the enemies' order) within which the two are engaged."""

    cat: Catalogue
    templates: tuple[list[Fighter], list[Fighter]]
    powers: list[list[GodPower]]
    cheapest: list[int]
    limits: list[dict[int, tuple[float, ...]]]
    # per side: the longest centre distance at which one of its enemies can free-strike (its
    # melee reach and both bases, and a hair), and which of its models can be Terrifying (the
    # slots of those whose profile is; None when a God power of the side can grant it to any)
    strike_span: list[float]
    terror: list[tuple[int, ...] | None]
    healers: list[bool]  # per side: whether any of its models can ever be a Healer
    # ``limits`` widened by a hair (x (1 + 1e-9) + 1e-12): beyond it a pair is surely not engaged
    loose: list[dict[int, tuple[float, ...]]] = field(default_factory=list)
    # per side, each power as (power, id, Godspark cost): the AI reads the id and the cost at
    # every step it could call one, and a catalogue record's attributes are slow to read
    power_rows: list[tuple[tuple[GodPower, str, int], ...]] = field(default_factory=list)


_PAIRINGS: dict[tuple[int, str, str], Pairing] = {}


def pairing_for(cat: Catalogue, first: WarClan, second: WarClan) -> Pairing:
    """The :class:`Pairing` of two clans, from a cache keyed by their content (an edited clan
    is a new pairing)."""
    key = (id(cat), list_key(first), list_key(second))
    found = _PAIRINGS.get(key)
    if found is not None and found.cat is cat:
        return found
    if len(_PAIRINGS) >= 64:
        _PAIRINGS.clear()
    templates = (build_fighters(cat, first, 0), build_fighters(cat, second, 1))
    for side in (0, 1):
        for slot, f in enumerate(templates[side]):
            f.slot, f.d2 = slot, [math.inf] * len(templates[1 - side])
    powers = [[p for pick in army.god_powers if (p := cat.get("god_powers", pick.power)) is not None] for army in (first, second)]
    limits = [
        {f.index: tuple((2 * BASE_RADIUS + CONTACT + max(f._reach, e._reach)) ** 2 for e in templates[1 - side]) for f in templates[side]}
        for side in (0, 1)
    ]
    for side in (0, 1):  # the farthest a foe can be and still be engaged with f (squared)
        for f in templates[side]:
            f._engage_max = max(limits[side][f.index], default=-1.0)
            f._engage_hair = f._engage_max * (1 + 1e-9) + 1e-12
    cheapest = [min((max(0, p.godspark - 1) for p in side), default=0) for side in powers]
    strike_span = [max((e._reach for e in templates[1 - side]), default=0) + 2 * BASE_RADIUS + 1e-6 for side in (0, 1)]
    terror: list[tuple[int, ...] | None] = [
        None if any(ability_id(g) == "terrifying" for p in powers[side] for g in p.grants)
        else tuple(slot for slot, f in enumerate(templates[side]) if "terrifying" in f.abilities)
        for side in (0, 1)
    ]  # fmt: skip
    healers = [
        any("healer" in f.abilities for f in templates[side])
        or any(ability_id(g) == "healer" for p in powers[side] for g in p.grants)
        for side in (0, 1)
    ]  # fmt: skip
    loose = [{i: tuple(limit * (1 + 1e-9) + 1e-12 for limit in row) for i, row in side.items()} for side in limits]
    power_rows = [tuple((p, p.id, p.godspark) for p in side) for side in powers]
    found = _PAIRINGS[key] = Pairing(cat, templates, powers, cheapest, limits, strike_span, terror, healers, loose, power_rows)
    return found
