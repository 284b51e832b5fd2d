"""The battle state: units, fighter types (troops, Characters, independents), building a side."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from armybuilder.core.catalog import Catalogue

from ..army import R2List, is_commander, option_cost, profile
from ..catalog import BattlefieldTable, Profile, R2Catalog
from .abilities import Traits, traits_of
from .battlefield import SIZE_RANK
from .formation import shape, start_files
from .geometry import Box, box_from_front
from .mystic_effects import COMMUNION_EFFECTS
from .tables import (
    NO_TACTIC,
    TACTIC_KEYS,
    combat_dice,
    power_of,
    wound_levels,
)

# --------------------------------------------------------------------------- pieces


def _plain_attacks(t: Traits) -> bool:
    """No trait that changes a group's attacks in strike() (lets the hot loop skip five tests)."""
    return not (t.possessed or t.concentration or t.mutagenic is not None or t.sequence or t.master_strike is not None)


@dataclass(eq=False, slots=True)
class Group:
    """Fighters of one profile inside a unit (its troops, or one independent)."""

    profile: Profile
    count: int
    wound_levels: int
    dice_each: int
    character: bool
    cost: int
    power_each: int
    traits: Traits
    abilities: frozenset[str] = frozenset()
    damage: int = 0  # Wound levels already lost by the one wounded fighter
    lost: int = 0  # fighters eliminated this round (Regeneration, Reinforcement)
    fierce_left: int = 0  # eliminated Fierce fighters still fighting until maintenance
    reinforcements: int = 0  # eliminated fighters waiting at the edge (Reinforcement)
    kills: float = 0.0  # A.P. of enemies this fighter type eliminated in combat (per-unit figures)
    magician_pow: int = 0  # POW per fighter (familiars included) if a magician
    faith: int = 0  # Faith value (sum of Aspects) if a faithful
    leader: bool = False
    commander: bool = False
    base: dict[str, int] = field(default_factory=dict)
    own_cou: int = 0  # COU (FEAR for the fearsome) and DIS (0 for Living dead) as troops: set by __post_init__
    own_dis: int = 0
    plain: bool = True  # no trait that changes its attacks' ATT/STR/dice (Possessed, Sequence...): set by __post_init__
    per_die: dict[str, float] = field(default_factory=dict)  # mean Wounds per fighter by target profile id
    shot_value: dict[tuple, tuple[float, float]] = field(default_factory=dict)  # (hit chance, mean Wounds) by (band, size, RES)
    size: str = ""  # the profile's Size, set by __post_init__ (the shooting's hot reads)
    pid: str = ""  # the profile's id, set by __post_init__ (the AI's memos are keyed by it; a plain field reads faster than the model's)
    base_w: float = 2.5  # its base (R2-T3): width across its facing, depth along it (cm)
    base_d: float = 2.5
    assails: int = 1  # opponents its base can assail at once (creature bases: 2)
    rank: int = 2  # its Size in line-of-sight order (SIZE_RANK)

    def __post_init__(self) -> None:
        p = self.profile
        self.pid = p.id
        self.size = p.size
        self.rank = SIZE_RANK.get(p.size, 2)
        self.commander = is_commander(p)
        self.base = {"att": p.att, "def": p.def_, "str": p.str_, "res": p.res, "ini": p.ini}
        self.plain = _plain_attacks(self.traits)
        self.own_cou = p.cou if p.cou is not None else (p.fear or 0)
        self.own_dis = 0 if self.traits.dis_zero else p.dis

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def copy(self) -> Group:
        """A fresh group for a new game (static fields shared, game state reset; no __init__ cost)."""
        g = Group.__new__(Group)
        g.profile, g.count, g.wound_levels, g.dice_each = self.profile, self.count, self.wound_levels, self.dice_each
        g.character, g.cost, g.power_each, g.traits = self.character, self.cost, self.power_each, self.traits
        g.abilities, g.magician_pow, g.faith, g.leader = self.abilities, self.magician_pow, self.faith, self.leader
        g.commander, g.base = self.commander, self.base  # base is never mutated during a game
        g.plain, g.per_die, g.shot_value = self.plain, self.per_die, self.shot_value
        g.own_cou, g.own_dis, g.pid, g.size = self.own_cou, self.own_dis, self.pid, self.size  # the AI's memos, shared by the template's copies
        g.base_w, g.base_d, g.assails, g.rank = self.base_w, self.base_d, self.assails, self.rank
        g.damage = g.lost = g.fierce_left = g.reinforcements = 0
        g.kills = 0.0
        return g


@dataclass(eq=False, slots=True)
class Fighting:
    """A unit on the abstract battlefield, with its state during the game."""

    side: int
    name: str
    groups: list[Group]
    formation: str  # formation of the people; a unit under 5 is scattered anyway
    cost: int
    rank_category: int = 1
    scheme: str | None = None
    # On the table: the middle of its front edge (x across the table, y from the first army's
    # edge) and its facing, a unit vector; its block (see formation.py).
    x: float = 0.0
    y: float = 0.0
    ux: float = 0.0
    uy: float = 1.0
    files: int = 1
    max_files: int = 1  # files as deployed: a unit never grows wider than that
    cols: int = 1 << 20  # files it stands in now, at most max_files (a scattered unit narrows to pass)
    width: float = 2.5
    depth: float = 2.5
    first_depth: float = 2.5
    open_gap: float = 1.0  # cm between bases when scattered
    slot_list: list | None = None  # formation.slots(), until the block changes
    box_cache: Box | None = None  # box(), until it moves or changes shape
    geo: int = 0  # bumped at every move or change of shape (the AI's memos of distances read it)
    table_changes: list[int] = field(default_factory=lambda: [0])  # the battle's count of blocks moved or reshaped, shared by its units
    aura_memo: dict[str, tuple[int, tuple[float, float, float]]] = field(default_factory=dict)  # strategic.aura_centre() by role, at geo
    faces: dict[int, int] = field(default_factory=dict)  # enemy index -> the face of this unit it is engaged on
    slack: float = 0.0  # after a successful assault this round: the reach it had left (its rear ranks wrap round that far)
    moved: bool = False  # moved or maneuvered this round (Aim +1)
    maneuvered: bool = False  # tried a maneuver this round
    maneuver_failed: bool = False  # a maneuver test failed this round (a scattered unit tries no more)
    hidden: bool = False  # a unit of Scouts not spotted yet (seed: Scout)
    assailed_from: tuple[float, float] | None = None  # the direction of the assault on it this round (flight follows it)
    new_foes: set[int] = field(default_factory=set)  # enemies it met by an assault since its last fray (contact.py)
    assailed_by_me: set[int] = field(default_factory=set)  # of those, the ones it assailed
    withstood: set[int] = field(default_factory=set)  # assailants it withstood (Reaction: all its fighters come)
    state: str = "valiant"  # valiant | disorganized | rout | gone
    order: str = ""
    order_by_points: bool = False
    activated: bool = False
    charged: bool = False  # charged this round (successfully)
    was_charged: bool = False
    charge_bonus: bool = False
    no_attack: bool = False  # a failed disengagement: no attack in this round's combat phase
    loose: bool = False  # a close unit scattered by its assault move until it re-forms (seed: Orientation at the end of a move)
    engaged: set[int] = field(default_factory=set)
    immune_fear: int = -99
    tactic: dict[str, int] = field(default_factory=dict)
    tactic_name: str = ""
    kills: float = 0.0
    start_count: int = 0
    count: int = 0  # fighters left (Fierce fighters still fighting are not counted)
    index: int = 0
    # leadership, recomputed each strategic phase
    cou_value: int = 0
    dis_value: int = 0
    cou_bonus: int = 0
    dis_bonus: int = 0
    best_of: int = 1
    has_leader: bool = False
    commander_x: int | None = None  # Leadership/X of a commander in the unit
    musician_x: int | None = None
    standard_x: int | None = None
    # mystics
    mana: int = 0
    faith: int = 0
    round_effects: dict[str, int] = field(default_factory=dict)  # rituals/communions this round
    wounds_dealt_round: int = 0
    # The first live group (the first group once none is left), kept by recount(); never None: a
    # unit has at least one group (_build_side() skips empty ones).
    troops: Group = field(init=False)
    alive: bool = True  # some fighter left (a gone unit has none), kept by recount()
    ordered: list[Group] = field(default_factory=list)  # independents first: they lead the contact
    shooting_groups: list[Group] = field(default_factory=list)  # marksmen (AIM >= 0 and a weapon)
    mystic: bool = False  # has magicians, faithful, Devotion or Martyr: takes part in the mystic phase
    base_wound_shift: int = 0  # Hard boiled when all live fighters have it (kept by recount())
    survival_face: int = 0  # Survival instinct when all live fighters have it
    counter_face: int = 0  # Counter-attack when all live fighters have it
    thaumaturge: bool = False
    points: int = 0  # A.P. of the fighters left, kept by recount()
    all_cache: dict[str, bool] = field(default_factory=dict)  # all_have() answers until recount()
    warrior_mage: bool = False  # some member casts under an Assault order
    warrior_monk: bool = False
    implacable: int = 0  # Implacable/X of its fighters
    _mov: Any = 0  # MOV of the slowest live member, kept by recount()
    extra_traits: bool = False  # some member has extra exchanges or Brutish charge
    dice_row: tuple[int, ...] = ()  # each group's combat dice, by group index (fixed: the contact's layout reads it)
    layout: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None  # template only: indices of troops, ordered and shooting groups (fresh())
    # The AI's mean Wounds of one exchange against a target troops profile (expected_damage(), by
    # profile id): they depend on this unit's counts only, so recount() gives it a new one. A fresh()
    # copy shares its template's until then (full strength: the same values in every game).
    damage_memo: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ordered = sorted(self.groups, key=lambda g: not g.character)
        self.warrior_mage = any(g.traits.warrior_mage for g in self.groups)
        self.implacable = max((g.traits.implacable for g in self.groups), default=0)
        self.warrior_monk = any(g.traits.warrior_monk for g in self.groups)
        self.extra_traits = any(g.traits.extra_exchanges or g.traits.brutish_charge for g in self.groups)
        self.dice_row = tuple(g.dice_each for g in self.groups)
        for g in self.groups:
            g.plain = _plain_attacks(g.traits)  # again: traits may have been replaced since (tests)
            g.own_dis = 0 if g.traits.dis_zero else g.profile.dis
        self.mystic = any(g.magician_pow or g.faith or g.traits.devotion or g.traits.martyr for g in self.groups)
        self.shooting_groups = [
            g for g in self.groups if g.profile.ranged is not None and g.profile.aim is not None and g.profile.aim >= 0
        ]
        self.recount()

    def fresh(self) -> Fighting:
        """A copy for a new game of this (never played) template unit, without __init__ cost.

        Static and derived fields are shared or copied as they are (recount() of fresh
        groups would give the same values); everything a game mutates is new, but for the
        AI's memos of values that hold in every game (damage_memo until a recount, the
        groups' per_die and shot_value).
        """
        f = Fighting.__new__(Fighting)
        groups = [g.copy() for g in self.groups]
        layout = self.layout
        if layout is None:
            where = self.groups.index  # (groups compare by identity: eq=False)
            layout = self.layout = (
                where(self.troops),
                tuple(where(g) for g in self.ordered),
                tuple(where(g) for g in self.shooting_groups),
            )
        troops_at, ordered_at, shooting_at = layout
        f.side, f.name, f.groups, f.formation, f.cost = self.side, self.name, groups, self.formation, self.cost
        f.rank_category, f.scheme, f.state, f.order = self.rank_category, self.scheme, "valiant", ""
        f.x, f.y, f.ux, f.uy = self.x, self.y, self.ux, self.uy
        f.files, f.max_files, f.cols, f.width, f.depth, f.first_depth = self.files, self.max_files, self.cols, self.width, self.depth, self.first_depth
        f.open_gap, f.slot_list, f.box_cache, f.geo, f.aura_memo = self.open_gap, self.slot_list, None, 0, {}
        f.table_changes = [0]  # the battle gives its units one count (Battle.__init__)
        f.faces, f.slack, f.moved, f.hidden, f.assailed_from = {}, 0.0, False, self.hidden, None
        f.maneuvered = f.maneuver_failed = False
        f.new_foes, f.assailed_by_me, f.withstood = set(), set(), set()
        f.order_by_points = f.activated = f.charged = f.was_charged = f.charge_bonus = f.loose = f.no_attack = False
        f.engaged, f.immune_fear, f.tactic, f.tactic_name, f.kills = set(), -99, NO_TACTIC, "", 0.0  # (tactics: read only)
        f.start_count = f.count = self.count
        f.index = self.index
        f.cou_value = f.dis_value = f.cou_bonus = f.dis_bonus = 0
        f.best_of, f.has_leader = 1, self.has_leader
        f.commander_x, f.musician_x, f.standard_x = self.commander_x, self.musician_x, self.standard_x
        f.mana, f.faith, f.round_effects, f.wounds_dealt_round = self.mana, self.faith, {}, 0  # (none before play)
        f.troops = groups[troops_at]
        f.alive = self.alive
        f.ordered = [groups[i] for i in ordered_at]
        f.shooting_groups = [groups[i] for i in shooting_at] if shooting_at else []
        f.mystic, f.base_wound_shift, f.survival_face = self.mystic, self.base_wound_shift, self.survival_face
        f.counter_face, f.thaumaturge, f.points = self.counter_face, self.thaumaturge, self.points
        # all_have() answers depend only on which groups are alive (and their traits): shared with the
        # template and its other copies until this copy's live groups change (recount() gives it a new dict).
        f.all_cache = self.all_cache
        f.warrior_mage, f.warrior_monk, f.implacable, f._mov = self.warrior_mage, self.warrior_monk, self.implacable, self._mov
        f.extra_traits, f.layout, f.damage_memo = self.extra_traits, None, self.damage_memo
        f.dice_row = self.dice_row
        return f

    def recount(self) -> None:
        """Numbers, troops, MOV, A.P. and unit-wide traits after a change of the groups' counts.

        Call it after every change of a group's ``count``: hot paths read these fields.
        """
        count = 0
        points = 0
        troops: Any = None
        mov: Any = 0
        shift = 0  # (read only once the first live group has set it)
        same_shift = True
        face = 6
        survival = counter = True
        thaumaturge = False
        for g in self.groups:
            n = g.count
            if n <= 0:
                continue
            t = g.traits
            count += n
            points += n * g.cost
            m = g.profile.mov
            if troops is None:
                troops, mov, shift = g, m, t.wound_shift_against
            else:
                if m < mov:
                    mov = m
                if t.wound_shift_against != shift:
                    same_shift = False
            if t.survival_face:
                face = min(face, t.survival_face)
            else:
                survival = False
            if not t.counter_attack_face:
                counter = False
            if t.thaumaturge:
                thaumaturge = True
        self.count = count
        self.points = points
        self.all_cache = {}
        self.damage_memo = {}  # (a new one: the old one may be the template's, shared)
        self.alive = count > 0
        self.troops = troops if troops is not None else self.groups[0]
        self._mov = mov
        # Unit-wide traits need every live fighter to have them (Hard boiled, Survival instinct...).
        self.base_wound_shift = shift if troops is not None and same_shift else 0
        self.survival_face = face if troops is not None and survival else 0
        self.counter_face = troops.traits.counter_attack_face if troops is not None and counter else 0
        self.thaumaturge = thaumaturge
        shape(self)

    # -- on the table ---------------------------------------------------------------

    def box(self) -> Box:
        """The unit's block on the table (cached until it moves or changes shape)."""
        b = self.box_cache
        if b is None:
            b = self.box_cache = box_from_front(self.x, self.y, self.ux, self.uy, self.width, self.depth)
        return b

    def moved_box(self) -> None:
        """Forget the block's place: the unit moved or changed shape."""
        self.box_cache = None
        self.geo += 1
        self.table_changes[0] += 1

    def place(self, x: float, y: float, ux: float, uy: float) -> None:
        """Stand the unit with its front edge centred on (x, y), facing (ux, uy)."""
        self.x, self.y, self.ux, self.uy = x, y, ux, uy
        self.moved_box()

    @property
    def size_rank(self) -> int:
        """The largest Size among its live fighters (it hides what is not larger, R2-D10)."""
        best = 0
        for g in self.groups:
            if g.count > 0 and g.rank > best:
                best = g.rank
        return best

    @property
    def fighting(self) -> bool:
        return self.count > 0 and self.state in ("valiant", "disorganized")


    @property
    def close(self) -> bool:
        """In close formation now: a close people's unit of five or more, neither routed (a fleeing
        unit scatters) nor loosened by its own assault move (seed: Formations, Fleeing, Orientation
        at the end of a move)."""
        return self.formation == "close" and self.count >= 5 and self.state != "rout" and not self.loose

    @property
    def current_formation(self) -> str:
        return (
            "close"
            if self.close
            else "scattered"
        )

    @property
    def mov(self) -> float:
        tactic = self.tactic
        return self._mov + tactic.get("movement", 0) if tactic else self._mov

    def stat(self, name: str) -> int:
        """Characteristic of the troops (the first live group) with tactic/effect modifiers."""
        value = self.troops.base[name]
        if self.tactic:
            value += self.tactic.get(TACTIC_KEYS[name], 0)
        if self.round_effects:
            value += self.round_effects.get(name, 0)
        return value

    @property
    def fear(self) -> int | None:
        return self.troops.profile.fear

    @property
    def frightening(self) -> bool:
        return self.fear is not None

    def power(self, charging: bool = False, charged: bool = False) -> int:
        """Sum of the fighters' Power; doubled for a close unit in a charge (either side)."""
        total = 0
        if charging or charged:
            for g in self.groups:
                n = g.count
                if n:
                    t = g.traits
                    total += n * (
                        g.power_each + (t.charge_power if charging else 0) + (t.charged_power if charged else 0)
                    )
            if self.formation == "close" and self.count >= 5 and self.state != "rout":
                total *= 2  # a close unit charging or charged (its assault loosens it only afterwards)
        else:
            for g in self.groups:
                n = g.count
                if n:
                    total += n * g.power_each
        tactic = self.tactic
        return total + tactic.get("power", 0) if tactic else total

    def all_have(self, attr: str) -> bool:
        """Every live fighter has this trait (memoised until the next recount())."""
        cached = self.all_cache.get(attr)
        if cached is None:
            cached = True  # all(getattr(g.traits, attr) for the live groups), without a generator
            for g in self.groups:
                if g.count > 0 and not getattr(g.traits, attr):
                    cached = False
                    break
            self.all_cache[attr] = cached
        return cached

    def points_alive(self) -> float:
        return self.points

    def front(self) -> int:
        """The fighters of its front rank."""
        return self.files if self.files < self.count else self.count


# --------------------------------------------------------------------------- building the armies

SIDE_TEMPLATES: dict[tuple[str, str, int], tuple[list[Fighting], dict]] = {}
# side -> (list object, catalogue, template) of the last game; lists are immutable values
# (edits build new objects), so identity is a safe key.
LAST_SIDE_TEMPLATE: dict[int, tuple[R2List, Catalogue, tuple[list[Fighting], dict]]] = {}


def build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    """Fresh pieces for one game; the list is read once per playtest, then copied."""
    # Same list object as the previous game (a playtest): skip even the JSON dump.
    last = LAST_SIDE_TEMPLATE.get(side)
    if last is not None and last[0] is army and last[1] is cat:
        template: Any = last[2]
    else:
        key = (cat.hash, army.model_dump_json(), side)
        template = SIDE_TEMPLATES.get(key)
        if template is None:
            if len(SIDE_TEMPLATES) > 64:
                SIDE_TEMPLATES.clear()
            template = SIDE_TEMPLATES[key] = _build_side(cat, army, side)
        LAST_SIDE_TEMPLATE[side] = (army, cat, template)
    units, info = template
    return [u.fresh() for u in units], info


def base_of(table: BattlefieldTable, p: Profile) -> tuple[float, float, int]:
    """(width, depth, opponents it assails at once) of a fighter's base (decision R2-T3)."""
    mounted = p.id in table.mounted_profiles or any(w in p.name.lower() for w in table.mounted_words)
    fallback = None
    for b in table.bases:
        if p.size in b.sizes:
            if b.mounted == mounted:
                return b.width, b.depth, b.assails
            if fallback is None:
                fallback = b
    if fallback is not None:
        return fallback.width, fallback.depth, fallback.assails
    return 2.5, 2.5, 1


def _build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    from ..layouts import battlefield_table

    data: R2Catalog = cat.data
    table = battlefield_table(cat)
    people = cat.get("peoples", army.people)
    formation = people.formation if people is not None else "scattered"
    units: list[Fighting] = []
    names: dict[str, int] = {}
    cic = None
    staffs = 0
    unhandled: set[str] = set()
    for unit in army.units:
        groups: list[Group] = []
        specs = []
        if unit.troops and unit.troops.count > 0:
            specs.append(
                (unit.troops.profile, unit.troops.count, unit.troops.options, 0, unit.troops.leader)
            )
        specs += [(m.profile, 1, m.options, m.familiars, m.leader) for m in unit.members]
        for pid, count, options, familiars, leader in specs:
            p = profile(cat, pid)
            if p is None:
                continue
            grants = [a for o in p.options if o.id in options for a in o.grants]
            traits = traits_of(tuple(p.abilities) + tuple(grants), tuple(p.roles))
            unhandled |= traits.unhandled
            cost = p.cost + option_cost(p, options) + familiars * data.tables.familiar_cost
            g = Group(
                p, count, wound_levels(data, p), combat_dice(p, cost), p.has_role("character"), cost,
                power_of(data, p), traits, frozenset(a.partition("/")[0] for a in (*p.abilities, *grants)),
                leader=leader or p.has_role("leader"),
            )  # fmt: skip
            if p.has_role("magician") and p.power:
                g.magician_pow = p.power + familiars  # each familiar: +1 Power (mystics seed)
            if p.has_role("faithful") and p.aspects is not None:
                g.faith = p.aspects.total
            groups.append(g)
        if not groups:
            continue
        base = unit.name or groups[0].profile.name
        names[base] = names.get(base, 0) + 1
        name = base if names[base] == 1 else f"{base} ({names[base]})"
        size = sum(g.count for g in groups)
        troops = groups[0].profile
        rank = cat.get("ranks", troops.rank)
        for g in groups:
            g.base_w, g.base_d, g.assails = base_of(table, g.profile)
        close = formation == "close" and size >= 5
        f = Fighting(side, name, groups, formation, sum(g.count * g.cost for g in groups))
        f.open_gap = table.scattered_gap
        f.max_files = start_files(size, close, table.close_min_files)
        f.hidden = all(g.traits.scout for g in groups)  # a unit of Scouts deploys hidden
        f.rank_category = rank.category if rank is not None else 1
        f.scheme = (
            "support"
            if troops.has_role("war-machine")
            else (rank.scheme if rank is not None else None)
        )
        f.start_count = f.count = size
        f.index = len(units)
        f.has_leader = any(g.leader for g in groups) or any(is_commander(g.profile) for g in groups)
        for g in groups:
            x = g.profile.ability_value("leadership")
            if g.profile.has_role("musician"):
                f.musician_x = x or 0
            elif g.profile.has_role("standard-bearer"):
                f.standard_x = x or 0
            elif is_commander(g.profile):
                f.commander_x = max(f.commander_x or 0, x or 0)
        f.mana = sum(g.magician_pow * g.count for g in groups)
        f.faith = sum(g.faith * g.count for g in groups)
        f.recount()  # its block, with its files known
        units.append(f)
        for m in unit.members:
            if m.commander_in_chief and (p := profile(cat, m.profile)) is not None:
                cic = (len(units) - 1, p)
        if f.commander_x is not None and f.musician_x is not None and f.standard_x is not None:
            staffs += 1
    deck = [t for tid in dict.fromkeys(army.tactics) if (t := cat.get("tactics", tid)) is not None]
    rituals = [
        r for rid in dict.fromkeys(army.rituals) if (r := cat.get("rituals", rid)) is not None
    ]
    communions = [
        c for cid in dict.fromkeys(army.communions) if (c := cat.get("communions", cid)) is not None
    ]
    info = {
        "cic": cic, "staffs": staffs, "deck": deck, "rituals": rituals, "communions": communions,
        "unhandled": sorted(unhandled),
        "mutagenic": any(g.traits.mutagenic is not None for u in units for g in u.groups),
        # The cheapest communion a unit could call (effects the engine knows only).
        "min_fervor": min((c.fervor for c in communions if c.id in COMMUNION_EFFECTS), default=1 << 30),
        # Units with auras, and units in the mystic phase (fixed for a game): Battle's lists of them.
        "aura_at": tuple(
            i for i, u in enumerate(units)
            if u.commander_x is not None or u.standard_x is not None or u.musician_x is not None
        ),
        "mystic_at": tuple(i for i, u in enumerate(units) if u.mystic),
    }  # fmt: skip
    return units, info


