"""Whole Rag'Narok 2 battles on an abstract battlefield, fast enough for thousands of games.

The battlefield model
---------------------
- **One axis.** The table is 120 cm deep; each army deploys its units on a line
  20 cm from its own edge, so the armies start 80 cm apart (Scouts deploy 20 cm
  further forward).  Distances between units are read along that axis only: no
  lateral geometry, no terrain, no altitude, every unit sees every unit (so line
  of sight, Consciousness, hidden Scouts and partial cover play no part).
- **Movement** (seed: Movement table): March = MOV, Run, Charge and Engagement =
  MOV × 2, where a unit's MOV is that of its slowest member.  An assault reaches
  its target when the distance is at most MOV × 2; a failed charge runs MOV × 2
  towards the target and Disorganizes the unit.
- **Fronts and contact.** A scattered unit can bring all its fighters into
  contact; a close unit fights with its front, ``max(5, ⌈n/2⌉)`` fighters wide
  (two ranks), and never more than twice the enemy's front plus one.  Wounds go
  to the fighters in contact first; the surplus spreads over the rest of a
  scattered unit but is lost against a close one (seed: Exchange).  A unit
  engaged by several enemies shares its fighters in contact between them.
- **Shooting** uses the weapon's short / medium / long bands on the distance
  between the two units (one volley per band that holds shooters, nearest
  first); a close unit shoots with its two front ranks only; a volley never
  eliminates more fighters than the target has.  Aim difficulties and modifiers
  come from the catalogue's shooting table (+1 after a Support (dynamic)
  march).  Shooting into a fray sends half the hits (rounded down) to the
  friendly units in it.
- **Leadership auras** are distances along the axis: a unit is in a commander's
  (war staff's) aura when its distance to the commander's unit is at most X.
- **Flight**: a routed unit flees MOV × 2 towards its own edge and is eliminated
  when it crosses it.

Each round follows the seed: strategic phase (orders, tactical roll on the
tactical table, tactics bought at the catalogue's cost and given to units,
orders for tactical points, rallying), activation phase (alternating
activations, the winner of the tactical roll first, passes for the player with
fewer units; assaults with Courage tests and counter-charges, runs, volleys,
rituals and communions with counter-magic and censure), combat phase (combat
dice per fighter, Initiative with the +3 charge bonus, exchanges, wound
allocation eliminating as many fighters as possible, extra exchanges, outcome of
the fray and morale by balance of Power, Implacable combats), mystic phase (mana
and Temporary Faith recovery) and maintenance (Fierce removals, Regeneration/X,
Reinforcement).  A game ends after six rounds, or earlier when an army has no
unit left that is neither routed nor gone; the side that eliminated or routed
more A.P. wins (a gap under 5 % of the larger army is a draw).

The AI: every unit with an order source gets one order a round — Assault when a
target within MOV × 2 promises more A.P. (its mean Wounds, from the exact dice)
than it costs, Support when marksmen have a target within range (+ a march) or
magicians/faithful have something to cast, Reaction to counter-charge a faster
enemy or to counter spells and communions, else Progress (run towards the
nearest enemy, stopping outside the reach of one it would lose against).
Tactical points buy tactics for the units that gain most from them (pros, and
cons for rank I units), then orders for units without a leader.  Charges pick
the best target in reach; volleys the target worth most A.P. per shot.

Abilities act through the named hooks of :mod:`.abilities`; tactics through
their ``effects`` data; rituals and communions through the effect hooks named
by their ids in :data:`RITUAL_EFFECTS` and :data:`COMMUNION_EFFECTS`.

All randomness comes from the injected ``numpy.random.Generator``: uniforms are
drawn in blocks and exact distributions (shared with the odds calculator) are
sampled by inverse CDF in pure Python, so a game costs a few milliseconds
(``armybuilder bench`` measures it).
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import GameRecord, UnitRecord

from ..army import R2List, is_commander, option_cost, profile
from ..catalog import Profile, R2Catalog
from .abilities import Traits, traits_of
from .dice import (
    ContestColumn,
    characteristic_test_total,
    column_index,
    die_successes,
    fear_test_success,
    opposed_test_win_probability,
    test_success_probability,
)
from .dice import _contest as _contest_dist
from .mystics import (
    DEFAULT_FAITH_RECOVERY,
    MANA_SUCCESS,
    ROUT_FAITH_LOSS,
    ROUT_MANA_PENALTY,
    best_mastery,
    counter_succeeds,
    parse_range,
    roll_mystic_test,
)
from .odds import contest_columns

TABLE_DEPTH = 120.0
DEPLOYMENT = 20.0
SCOUT_ADVANCE = 20.0
MAX_ROUNDS = 6
DRAW_MARGIN = 0.05
CLOSE_MIN_FRONT = 5
TEMPLATE_FIGHTERS = {"close": 4, "scattered": 2}  # fighters under an artillery template
DEFAULT_RANGES = {"short": 4, "medium": 7, "long": 10}  # seed values if the catalogue has none
VERY_LARGE = ("enormous", "colossal", "gigantic")

# --------------------------------------------------------------------------- randomness


_bisect_right = bisect.bisect_right  # (a global, not a module attribute, on the hot paths)

# Uniforms per draw from the generator: a game uses about 170, and numpy's cost grows with the
# block (the stream of doubles is the same whatever the block size, so results do not depend on it).
_BLOCK = 256


class Dice:
    """Uniforms drawn from the injected generator in blocks, consumed in pure Python."""

    __slots__ = ("rng", "buffer", "index")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        i = self.index
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return buffer[i]

    def chance(self, p: float) -> bool:
        i = self.index  # u(), inlined
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return buffer[i] < p

    def from_cdf(self, cdf: tuple[float, ...]) -> int:
        """Inverse-CDF draw (the buffer is read inline: this is the hottest call of a game)."""
        i = self.index
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        k = _bisect_right(cdf, buffer[i])
        last = len(cdf) - 1
        return k if k < last else last

    def d6(self) -> int:
        i = self.index  # u(), inlined
        buffer = self.buffer
        if i >= len(buffer):
            buffer = self.buffer = self.rng.random(_BLOCK).tolist()
            i = 0
        self.index = i + 1
        return int(buffer[i] * 6) + 1

    def regenerations(self, n: int, x: int) -> int:
        """Regeneration/X of *n* fighters: each rolls a d6 and comes back on *x* or more, then
        rolls a second d6 (one more Wound level; its result is not used). The same draws, in
        order, as the d6() calls it replaces, read from the block without a call per die."""
        back = 0
        buffer, i = self.buffer, self.index
        for _ in range(n):
            if i >= len(buffer):
                buffer = self.buffer = self.rng.random(_BLOCK).tolist()
                i = 0
            face = int(buffer[i] * 6) + 1
            i += 1
            if face >= x:
                back += 1
                if i >= len(buffer):  # the second test
                    buffer = self.buffer = self.rng.random(_BLOCK).tolist()
                    i = 0
                i += 1
        self.index = i
        return back

    def binomial(self, n: int, p: float) -> int:
        """Successes of *n* draws below *p* (the same uniforms, in order, as n calls of u())."""
        hits = 0
        buffer, i = self.buffer, self.index
        while n > 0:
            if i >= len(buffer):
                buffer = self.buffer = self.rng.random(_BLOCK).tolist()
                i = 0
            j = i + n if i + n < len(buffer) else len(buffer)
            for x in buffer[i:j]:  # (a slice of the block: cheaper than indexing one by one)
                if x < p:
                    hits += 1
            n -= j - i
            i = j
        self.index = i
        return hits


_TABLES: dict[str, tuple[ContestColumn, ...]] = {}
_TACTICAL_ROWS: dict[int, tuple[object, dict]] = {}  # id(tactical table) -> (table, {(total, category, staffs): points})
_ACTIVATION_RANK = {"support": 0, "reaction": 3, "assault": 1}  # supports first, reactions last
_ROWS: dict[int, tuple[object, tuple, tuple]] = {}  # id(tables) -> (tables, outcome rows, fear rows)
_EMPTY: dict[str, int] = {}  # shared "no tactic" (never mutated)
_TACTIC_KEYS = {
    "att": "attack",
    "def": "defense",
    "str": "strength",
    "res": "resistance",
    "ini": "initiative",
}


_first = operator.itemgetter(0)


def _cdf(pmf: np.ndarray) -> tuple[float, ...]:
    return tuple(itertools.accumulate(float(x) for x in pmf))


@lru_cache(maxsize=16384)
def _column(table: str, difference: int, shift: int, reroll: str = "") -> ContestColumn:
    cols = _TABLES[table]
    col = cols[column_index(cols, difference, shift)]
    return col.with_reroll(reroll) if reroll else col


@lru_cache(maxsize=16384)
def _contest_cdf(
    table: str, difference: int, dice: int, shift: int, reroll: str = ""
) -> tuple[float, ...]:
    """CDF of contest successes; ``table`` names a contest table registered in _TABLES."""
    return _cdf(_contest_dist(_column(table, difference, shift, reroll), dice).pmf)


@lru_cache(maxsize=4096)
def _mean_per_die(table: str, att_diff: int, str_diff: int, a_shift: int, w_shift: int) -> float:
    """Expected Wounds of one attack die (for the AI's choices), halving ignored."""
    a = die_successes(_column(table, att_diff, a_shift)).mean()
    w = die_successes(_column(table, str_diff, w_shift)).mean()
    return a * w * (0.5 if _column(table, att_diff, a_shift).halved else 1.0)


_CIC: dict[tuple[int, int], tuple[int, bool]] = {}


def _cic_facts(cat: Catalogue, p: Profile) -> tuple[int, bool]:
    """(rank category, has Leadership/X) of a Commander-in-Chief, cached."""
    key = (id(cat), id(p))
    facts = _CIC.get(key)
    if facts is None:
        if len(_CIC) > 1024:
            _CIC.clear()
        rank = cat.get("ranks", p.rank)
        facts = _CIC[key] = (rank.category if rank is not None else 1, p.has_ability("leadership"))
    return facts


@lru_cache(maxsize=4096)
def _effect_weight(effects: tuple[tuple[str, int], ...], fighting: bool, moving: bool, shaken: bool) -> float:
    """The AI's value of tactic effects for a unit (fighting this round or not)."""
    score = 0.0
    for key, v in effects:
        if key in ("attack_shift", "wound_shift", "attack", "strength", "extra_exchange"):
            score += v * (3.0 if fighting else 0.2)
        elif key in ("defense_shift", "toughness_shift", "defense", "resistance"):
            score += v * (2.0 if fighting else 0.5)
        elif key == "initiative":
            score += v * (0.8 if fighting else 0.0)
        elif key in ("courage", "discipline", "power"):
            score += v * (1.0 if fighting else 0.3)
        elif key == "movement":
            score += v * (0.3 if moving else 0.0)
        elif key == "rally":
            score += v * (3.0 if shaken else 0.0)
    return score


@lru_cache(maxsize=4096)
def _die_mean(table: str, difference: int, shift: int = 0) -> float:
    return die_successes(_column(table, difference, shift)).mean()


@lru_cache(maxsize=4096)
def _test_p(value: int, difficulty: int, best_of: int, ones_fail: bool = True) -> float:
    return test_success_probability(value, difficulty, best_of, ones_fail)


@lru_cache(maxsize=1024)
def _test_total_cdf(value: int, best_of: int) -> tuple[float, ...]:
    return _cdf(characteristic_test_total(value, best_of).pmf)


@lru_cache(maxsize=4096)
def _opposed_p(a: int, b: int, a_wins_ties: bool) -> float:
    return opposed_test_win_probability(a, b, a_wins_ties)


@lru_cache(maxsize=1024)
def _fear_p(table: str, diff: int, shift: int) -> float:
    return fear_test_success(_TABLES[table], diff, shift)


_MYSTIC_FIT: dict[tuple[int, int], tuple[object, object, bool]] = {}


def _knows_ritual(p: Profile, ritual) -> bool:
    """Element and path of the magician fit the ritual (memoised: profiles and rituals are immutable)."""
    key = (id(p), id(ritual))
    known = _MYSTIC_FIT.get(key)
    if known is None or known[0] is not p or known[1] is not ritual:
        fits = ritual.element.lower() in (e.lower() for e in p.elements) and (
            p.path is None or p.path.lower() == ritual.path.lower()
        )
        if len(_MYSTIC_FIT) > 4096:
            _MYSTIC_FIT.clear()
        known = _MYSTIC_FIT[key] = (p, ritual, fits)
    return known[2]


def _may_call(p: Profile, communion) -> bool:
    """Cult and aspects of the faithful fit the communion (memoised like _knows_ritual)."""
    key = (id(p), id(communion))
    known = _MYSTIC_FIT.get(key)
    if known is None or known[0] is not p or known[1] is not communion:
        fits = (
            communion.cult.lower() == "universal" or (p.cult or "").lower() == communion.cult.lower()
        ) and any(getattr(p.aspects, a.lower(), 0) >= 1 for a in communion.aspects)
        if len(_MYSTIC_FIT) > 4096:
            _MYSTIC_FIT.clear()
        known = _MYSTIC_FIT[key] = (p, communion, fits)
    return known[2]


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

    def __post_init__(self) -> None:
        p = self.profile
        self.commander = is_commander(p)
        self.base = {"att": p.att, "def": p.def_, "str": p.str_, "res": p.res, "ini": p.ini}
        self.plain = _plain_attacks(self.traits)
        self.own_cou = p.cou if p.cou is not None else (p.fear or 0)
        self.own_dis = 0 if self.traits.dis_zero else p.dis

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def copy(self) -> Group:
        """A fresh group for a new game (static fields shared, game state reset; no __init__ cost)."""
        g = object.__new__(Group)
        g.profile, g.count, g.wound_levels, g.dice_each = self.profile, self.count, self.wound_levels, self.dice_each
        g.character, g.cost, g.power_each, g.traits = self.character, self.cost, self.power_each, self.traits
        g.abilities, g.magician_pow, g.faith, g.leader = self.abilities, self.magician_pow, self.faith, self.leader
        g.commander, g.base = self.commander, self.base  # base is never mutated during a game
        g.plain, g.per_die, g.shot_value = self.plain, self.per_die, self.shot_value
        g.own_cou, g.own_dis = self.own_cou, self.own_dis  # the AI's memos, shared by the template's copies
        g.damage = g.lost = g.fierce_left = g.reinforcements = 0
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
    pos: float = 0.0
    state: str = "valiant"  # valiant | disorganized | rout | gone
    order: str = ""
    order_by_points: bool = False
    activated: bool = False
    charged: bool = False  # charged this round (successfully)
    was_charged: bool = False
    charge_bonus: bool = False
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
    troops: Group | None = None  # type: ignore[assignment]  # first live group, kept by recount()
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
    _mov: int = 0  # MOV of the slowest live member, kept by recount()
    extra_traits: bool = False  # some member has extra exchanges or Brutish charge
    layout: tuple | None = None  # template only: indices of troops, ordered and shooting groups (fresh())
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
        f = object.__new__(Fighting)
        groups = [g.copy() for g in self.groups]
        layout = self.layout
        if layout is None:
            where = {id(g): i for i, g in enumerate(self.groups)}
            layout = self.layout = (
                where[id(self.troops)] if self.troops is not None else None,
                tuple(where[id(g)] for g in self.ordered),
                tuple(where[id(g)] for g in self.shooting_groups),
            )
        troops_at, ordered_at, shooting_at = layout
        f.side, f.name, f.groups, f.formation, f.cost = self.side, self.name, groups, self.formation, self.cost
        f.rank_category, f.scheme, f.pos, f.state, f.order = self.rank_category, self.scheme, self.pos, "valiant", ""
        f.order_by_points = f.activated = f.charged = f.was_charged = f.charge_bonus = False
        f.engaged, f.immune_fear, f.tactic, f.tactic_name, f.kills = set(), -99, _EMPTY, "", 0.0  # (tactics: read only)
        f.start_count = f.count = self.count
        f.index = self.index
        f.cou_value = f.dis_value = f.cou_bonus = f.dis_bonus = 0
        f.best_of, f.has_leader = 1, self.has_leader
        f.commander_x, f.musician_x, f.standard_x = self.commander_x, self.musician_x, self.standard_x
        f.mana, f.faith, f.round_effects, f.wounds_dealt_round = self.mana, self.faith, {}, 0  # (none before play)
        f.troops = groups[troops_at] if troops_at is not None else None
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
        return f

    def recount(self) -> None:
        """Numbers, troops, MOV, A.P. and unit-wide traits after a change of the groups' counts.

        Call it after every change of a group's ``count``: hot paths read these fields.
        """
        count = 0
        points = 0
        troops = None
        mov = 0
        shift = None
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
        self.troops = troops if troops is not None else (self.groups[0] if self.groups else None)
        self._mov = mov
        # Unit-wide traits need every live fighter to have them (Hard boiled, Survival instinct...).
        self.base_wound_shift = shift if troops is not None and same_shift else 0
        self.survival_face = face if troops is not None and survival else 0
        self.counter_face = troops.traits.counter_attack_face if troops is not None and counter else 0
        self.thaumaturge = thaumaturge

    @property
    def fighting(self) -> bool:
        return self.count > 0 and self.state in ("valiant", "disorganized")


    @property
    def current_formation(self) -> str:
        return (
            "close"
            if self.formation == "close" and self.count >= 5 and self.state != "rout"
            else "scattered"
        )

    @property
    def mov(self) -> int:
        tactic = self.tactic
        return self._mov + tactic.get("movement", 0) if tactic else self._mov

    def stat(self, name: str) -> int:
        """Characteristic of the troops (the first live group) with tactic/effect modifiers."""
        value = self.troops.base[name]
        if self.tactic:
            value += self.tactic.get(_TACTIC_KEYS[name], 0)
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
                total *= 2  # (current_formation == "close", inlined)
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
        n = self.count
        if self.formation == "close" and n >= 5 and self.state != "rout":  # current_formation == "close"
            half = (n + 1) // 2  # ceil(n / 2); never more than n here
            return half if half > CLOSE_MIN_FRONT else CLOSE_MIN_FRONT
        return n


# --------------------------------------------------------------------------- rules helpers (pure)


def wound_levels(data: R2Catalog, p: Profile) -> int:
    """Wound levels by Size, 4 for an Incarnate Character (seed: Health status)."""
    if p.has_role("incarnate"):
        return data.tables.incarnate_wound_levels
    by_size = {s.size: s.wound_levels for s in data.tables.sizes}
    if p.size in by_size:
        return by_size[p.size]
    return 1 if p.size in ("small", "medium") else 2


def power_of(data: R2Catalog, p: Profile) -> int:
    """Power by Size (seed: Power table)."""
    by_size = {s.size: s.power for s in data.tables.sizes}
    if p.size in by_size:
        return by_size[p.size]
    return {"small": 1, "medium": 1, "large": 2, "enormous": 3, "colossal": 4, "gigantic": 5}[
        p.size
    ]


def combat_dice(p: Profile, cost: int | None = None) -> int:
    """1, +1 for Large or bigger worth >= 50 A.P., +1 for a Character (seed: Combat dice)."""
    dice = 1
    if p.size not in ("small", "medium") and (cost if cost is not None else p.cost) >= 50:
        dice += 1
    if p.has_role("character"):
        dice += 1
    return dice


def balance_of_power(mine: int, theirs: int) -> int:
    """The seed's balance rows seen from *mine*: 3, 2, 1, -2, -3.

    Higher Power divided by the lower, rounded in favour of the lower one (down),
    at most 3 to 1.  16 conscripts (16) vs 5 brontops riders (10): 1 to 1;
    20 conscripts: 2 to 1 (seed example).
    """
    if theirs <= 0:
        return 3
    if mine <= 0:
        return -3
    if mine >= theirs:
        r = mine // theirs
        return r if r < 3 else 3
    r = theirs // mine
    return 1 if r == 1 else (-r if r < 3 else -3)


def row_value(rows, ratio: int, lower: int = 0, default: int = 8) -> int:
    """Value of the balance row for *ratio*, read *lower* rows lower (clamped)."""
    if not rows:
        return default
    ordered = rows if isinstance(rows, tuple) else tuple(sorted(rows, key=lambda r: -r.ratio))
    last = len(ordered) - 1
    index = last
    for i, r in enumerate(ordered):
        if r.ratio <= ratio:
            index = i
            break
    return ordered[index + lower if index + lower < last else last].value


_ROW_VALUES: dict[tuple[int, int, int], tuple[tuple, int]] = {}  # (id(rows), ratio, lower) -> (rows, value)


def _row_value(rows: tuple, ratio: int, lower: int = 0) -> int:
    """row_value() of a non-empty sorted rows tuple, memoised (the rows are catalogue data, never
    mutated; the tuple's identity is checked like the other memos keyed by id)."""
    key = (id(rows), ratio, lower)
    known = _ROW_VALUES.get(key)
    if known is not None and known[0] is rows:
        return known[1]
    value = row_value(rows, ratio, lower)
    if len(_ROW_VALUES) > 1024:
        _ROW_VALUES.clear()
    _ROW_VALUES[key] = (rows, value)
    return value


def aim_difficulty(
    data: R2Catalog, band: str, target_size: str, moved: bool = False, partial: bool = False
) -> int:
    """Aim difficulty: range band + the seed's modifiers (moved +1, partial +1, Large -1, Very Large -2).

    Read from the catalogue's shooting table (modifier ids ``moved``,
    ``partly-visible``, ``large-target``, ``very-large-target``; the seed's values
    when the table lacks one).
    """
    key = (id(data), band, target_size, moved, partial)
    known = _AIM.get(key)
    if known is not None and known[0] is data:
        return known[1]
    bands, mods = _shooting_table(data)
    difficulty = bands.get(band, DEFAULT_RANGES[band])
    if moved:
        difficulty += mods["moved"]
    if partial:
        difficulty += mods["partial"]
    if target_size == "large":
        difficulty += mods["large"]
    elif target_size in VERY_LARGE:
        difficulty += mods["very-large"]
    if len(_AIM) > 4096:
        _AIM.clear()
    _AIM[key] = (data, difficulty)
    return difficulty


_SHOOTING: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
_AIM: dict[tuple, tuple[R2Catalog, int]] = {}  # aim_difficulty() answers, keyed with id(data)
_MODIFIER_IDS = {
    "moved": ("moved",),
    "partial": ("partly-visible", "partially-visible"),
    "large": ("large-target", "large"),
    "very-large": ("very-large-target", "very-large"),
}
_MODIFIER_DEFAULTS = {"moved": 1, "partial": 1, "large": -1, "very-large": -2}


def _shooting_table(data: R2Catalog) -> tuple[dict[str, int], dict[str, int]]:
    key = id(data)
    cached = _SHOOTING.get(key)
    if cached is None or len(_SHOOTING) > 32:
        table = data.tables.shooting
        bands = {r.band: r.difficulty for r in table.ranges} if table is not None else dict(DEFAULT_RANGES)
        found = {m.id: m.modifier for m in table.modifiers} if table is not None else {}
        mods = {
            name: next((found[i] for i in ids if i in found), _MODIFIER_DEFAULTS[name])
            for name, ids in _MODIFIER_IDS.items()
        }
        if len(_SHOOTING) > 32:
            _SHOOTING.clear()
        cached = _SHOOTING[key] = (bands, mods)
    return cached


_BAND_LABELS = {"short": "short range", "medium": "medium range", "long": "long range"}


def _band(weapon, d: float) -> str | None:
    """Range band of a weapon at distance *d* (None: out of range)."""
    if d <= weapon.short:
        return "short"
    if d <= weapon.medium:
        return "medium"
    if d <= weapon.long:
        return "long"
    return None


def _wound_one_group(g: Group, wounds: int, in_contact: int, scattered: bool) -> tuple[int, int]:
    """allocate_wounds() for one kind of fighter, in closed form (the hot path): the wounded one
    first, then whole fighters within reach, the rest on one survivor. Returns (eliminated, Wounds
    lost). (min()/max() written out: builtin calls cost more than the tests here.)"""
    wl = g.wound_levels
    cap = g.count
    if not scattered and in_contact < cap:
        cap = in_contact if in_contact > 0 else 0
    killed = 0
    if g.damage and cap > 0 and wounds >= wl - g.damage:
        wounds -= wl - g.damage
        g.damage = 0
        killed = 1
    if cap > killed:
        more = wounds // wl
        if cap - killed < more:
            more = cap - killed
        killed += more
        wounds -= more * wl
    g.count -= killed
    if wounds and g.count > 0 and cap > killed:
        g.damage += wounds  # < wl - damage here: a wounded survivor
        wounds = 0
    return killed, wounds


def allocate_wounds(
    groups: list[Group], wounds: int, in_contact: int, scattered: bool
) -> tuple[int, list[tuple[Group, int]], int]:
    """Deal *wounds* to eliminate as many fighters as possible (seed: Dealing the wounds).

    Fighters in contact (the first *in_contact* of the unit, independents first)
    take the Wounds; the surplus spreads to the others only if the unit is
    scattered, else it is lost.  The fighter with the fewest Wound levels left is
    always finished first, which maximises the eliminations.  Returns
    (eliminated, [(group, eliminated)], Wounds lost).  Mutates the groups.
    """
    live = []
    for h in groups:
        if h.count > 0:
            live.append(h)
    if len(live) == 1:
        g = live[0]
        killed, lost = _wound_one_group(g, wounds, in_contact, scattered)
        return killed, ([(g, killed)] if killed else []), lost
    killed = 0
    # Eliminations per group: (first_g, first_n) while one group only is hit (the usual case),
    # then a dict by id(group).
    first_g: Group | None = None
    first_n = 0
    per_group: dict[int, int] | None = None
    reach = in_contact
    while wounds > 0 and (reach > 0 or scattered):
        # The fighter closest to death (fewest Wound levels left); troops before Characters.
        # (Tuple order on (levels left, character), written out: this loop is hot.)
        g = None
        need, g_char = 1 << 30, True
        for h in live:
            if h.count > 0:
                left = h.wound_levels - h.damage
                if left < need or (left == need and h.character < g_char):
                    g, need, g_char = h, left, h.character
        if g is None:
            break
        if wounds < need:
            g.damage += wounds
            wounds = 0
            break
        wounds -= need
        g.count -= 1
        wl = g.wound_levels
        # Then as many fresh fighters of that group as stay the cheapest to finish.  When the one
        # finished was unwounded (need == wl), g's fresh fighters are the argmin above, so they are
        # the cheapest: the scan below is only needed after finishing a wounded fighter.
        cheapest = True
        if g.damage:
            g.damage = 0
            # (Ties go to the group listed first, as the one-at-a-time greedy would do.)
            gi = live.index(g)
            for i, h in enumerate(live):
                if h is g or h.count == 0:
                    continue
                left = h.wound_levels - h.damage
                if left > wl or (left == wl and (h.character > g_char or (h.character == g_char and i > gi))):
                    continue  # (left, character) > (wl, g's), or equal and listed after g
                cheapest = False
                break
        n = 1
        reach -= 1
        if cheapest:
            more = wounds // wl
            if g.count < more:
                more = g.count
            if not scattered and reach < more:
                more = reach
            if more > 0:
                g.count -= more
                wounds -= more * wl
                n += more
                reach -= more
        killed += n
        if first_g is None:
            first_g, first_n = g, n
        elif per_group is None and g is first_g:
            first_n += n
        else:
            if per_group is None:
                per_group = {id(first_g): first_n}
            per_group[id(g)] = per_group.get(id(g), 0) + n
    if per_group is None:
        return killed, ([(first_g, first_n)] if first_g is not None else []), wounds
    return killed, [(g, per_group[id(g)]) for g in groups if id(g) in per_group], wounds


# --------------------------------------------------------------------------- building the armies

_TEMPLATES: dict[tuple[str, str, int], tuple[list[Fighting], dict]] = {}
# side -> (list object, catalogue, template) of the last game; lists are immutable values
# (edits build new objects), so identity is a safe key.
_LAST: dict[int, tuple[R2List, Catalogue, tuple[list[Fighting], dict]]] = {}


def build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    """Fresh pieces for one game; the list is read once per playtest, then copied."""
    # Same list object as the previous game (a playtest): skip even the JSON dump.
    last = _LAST.get(side)
    if last is not None and last[0] is army and last[1] is cat:
        template = last[2]
    else:
        key = (cat.hash, army.model_dump_json(), side)
        template = _TEMPLATES.get(key)
        if template is None:
            if len(_TEMPLATES) > 64:
                _TEMPLATES.clear()
            template = _TEMPLATES[key] = _build_side(cat, army, side)
        _LAST[side] = (army, cat, template)
    units, info = template
    return [u.fresh() for u in units], info


def _build_side(cat: Catalogue, army: R2List, side: int) -> tuple[list[Fighting], dict]:
    data: R2Catalog = cat.data  # type: ignore[assignment]
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
        f = Fighting(side, name, groups, formation, sum(g.count * g.cost for g in groups))
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
        # Deployment line (Scouts 20 cm further forward), kept by the template: fresh() copies it.
        scout = SCOUT_ADVANCE if any(g.traits.scout for g in groups) and all(g.traits.scout for g in groups) else 0.0
        f.pos = DEPLOYMENT + scout if side == 0 else TABLE_DEPTH - DEPLOYMENT - scout
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


# --------------------------------------------------------------------------- the game


class Battle:
    """One game between two lists; ``play()`` returns its :class:`GameRecord`."""

    # Slots: every phase reads self.x in its hot loops, and slot reads stay fast however many
    # fields the engine keeps (a plain instance dict gets slower past 29 keys on CPython 3.11).
    __slots__ = (
        "cat", "data", "table", "dice", "logging", "max_rounds", "lines", "sides", "info",
        "winner_of_roll", "scores", "cic_index", "cic_profile", "temporary_cic", "dis_penalty",
        "aura_units", "mystic_units", "outcome_rows", "fear_rows", "round", "field_effects",
        "_expected", "_gains", "_tactic_cost", "_tactical_memo", "_mystic_sums", "_charge_bound",
        "_cic_seen", "_upkeep",
    )  # fmt: skip

    def __init__(
        self, cat: Catalogue, first: R2List, second: R2List, rng: np.random.Generator, log: bool = False,
        rounds: int = MAX_ROUNDS,
    ) -> None:  # fmt: skip
        self.cat = cat
        self.data: R2Catalog = cat.data  # type: ignore[assignment]
        self.table = cat.hash
        if self.table not in _TABLES:
            _TABLES[self.table] = tuple(contest_columns(cat))
        self.dice = Dice(rng)
        self.logging = log
        self.max_rounds = rounds
        self.lines: list[str] = []
        a, info_a = build_side(cat, first, 0)
        b, info_b = build_side(cat, second, 1)
        self.sides = [a, b]
        self.info = [info_a, info_b]  # (the units are on their deployment lines: see _build_side())
        self.winner_of_roll = 0
        self.scores = [0.0, 0.0]  # A.P. each side eliminated or routed
        self.cic_index: list[int | None] = [
            info_a["cic"][0] if info_a["cic"] else None,
            info_b["cic"][0] if info_b["cic"] else None,
        ]
        self.cic_profile: list[Profile | None] = [
            info_a["cic"][1] if info_a["cic"] else None,
            info_b["cic"][1] if info_b["cic"] else None,
        ]
        self.temporary_cic = [False, False]
        self.dis_penalty = [0, 0]
        # Units with a commander, musician or standard bearer, in side order: these fields are
        # fixed for the game, so update_leadership() scans only them for auras.
        # (Indices found once per list: _build_side().)
        self.aura_units = [[a[i] for i in info_a["aura_at"]], [b[i] for i in info_b["aura_at"]]]
        # Units with magicians, faithful, Devotion or Martyr (fixed for the game): the mystic phase's only concern.
        self.mystic_units = [[a[i] for i in info_a["mystic_at"]], [b[i] for i in info_b["mystic_at"]]]
        tables = self.data.tables
        rows = _ROWS.get(id(tables))
        if rows is None or rows[0] is not tables:
            if len(_ROWS) > 32:
                _ROWS.clear()
            # Tuples: row_value() takes a tuple as already sorted (strongest balance first).
            rows = _ROWS[id(tables)] = (
                tables,
                tuple(sorted(tables.outcome_of_fray, key=lambda r: -r.ratio)),
                tuple(sorted(tables.fear_balance, key=lambda r: -r.ratio)),
            )
        self.outcome_rows, self.fear_rows = rows[1], rows[2]
        self.round = 0
        self.field_effects: dict[str, int] = {}
        self._expected: dict[tuple, float] = {}  # expected_damage() answers of the round, by (attacker, defender)
        self._gains: dict[Fighting, dict[Fighting, float]] = {}  # exchange_gain() answers of the round, unit -> foe
        self._tactic_cost = tables.tactical.tactic_cost if tables.tactical else 2
        self._tactical_memo: dict | None = None  # tactical_roll()'s points by (total, category, staffs)
        # mystic_phase(): per mystic unit, (its damage_memo when computed, its members' sums: see there)
        self._mystic_sums: dict[Fighting, tuple] = {}
        self._charge_bound: tuple = (None, -1)  # choose_order(): (foes' spots, their longest charge)
        self._cic_seen: list[tuple | None] = [None, None]  # (profile, _cic_facts()) of each side's C.-in-C.
        # Units maintenance() must visit: dealt Wounds since the last one, or with Reinforcements
        # waiting or a wounded Regenerating fighter (filled by deal(), renewed by maintenance()).
        self._upkeep: set[Fighting] = set()
        if log:
            for side, info in enumerate(self.info):
                if info["unhandled"]:
                    # Abilities outside the seeds (Confrontation cards): kept, not simulated.
                    self.say(f"side {side + 1}: abilities without a simulated effect: {', '.join(info['unhandled'])}")

    # -- helpers -------------------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def distance(self, a: Fighting, b: Fighting) -> float:
        return abs(b.pos - a.pos)

    def enemies(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[1 - side] if u.alive]

    def enemy_unit(self, unit: Fighting, index: int) -> Fighting:
        return self.sides[1 - unit.side][index]

    def toward(
        self, unit: Fighting, target_pos: float, distance: float, stop_short: float = 1.0
    ) -> None:
        gap = target_pos - unit.pos
        step = min(distance, max(0.0, abs(gap) - stop_short))
        unit.pos += math.copysign(step, gap)

    def test(self, value: int, difficulty: int, best_of: int = 1, ones_fail: bool = True) -> bool:
        return self.dice.chance(_test_p(value, difficulty, best_of, ones_fail))

    def eliminate_points(self, killer: Fighting | None, victim: Fighting, points: float) -> None:
        self.scores[1 - victim.side] += points
        if killer is not None:
            killer.kills += points

    def expected_damage(self, attacker: Fighting, defender: Fighting) -> float:
        """Mean Wounds of one exchange (the AI's yardstick for charges and targets), memoised per round.

        Characteristics as printed (tactics and effects of the round are left out).
        """
        key = (attacker, defender)
        cached = self._expected.get(key)
        if cached is None:
            # Across rounds (and games, at full strength): the same value while the attacker's
            # counts (recount() gives it a new memo) and the defender's troops profile are the same.
            cached = attacker.damage_memo.get(defender.troops.profile.id)
            if cached is None:
                cached = self._mean_damage(attacker, defender.troops)
            self._expected[key] = cached
        return cached

    def _mean_damage(self, attacker: Fighting, troops: Group) -> float:
        """expected_damage() computed (and kept in the attacker's damage_memo)."""
        target = troops.profile
        tid = target.id
        total = 0.0
        for g in attacker.groups:
            if g.count:
                # Per template group (shared by the games of a playtest; one catalogue per template).
                per_die = g.per_die
                m = per_die.get(tid)
                if m is None:
                    m = per_die[tid] = g.dice_each * _mean_per_die(
                        self.table, g.profile.att - target.def_, g.profile.str_ - target.res, 0, 0
                    )
                total += g.count * m
        attacker.damage_memo[tid] = total
        return total

    def value_of_wounds(self, unit: Fighting, wounds: float) -> float:
        g = unit.troops
        return wounds / max(g.wound_levels, 1) * g.cost

    def exchange_gain(self, unit: Fighting, foe: Fighting) -> float:
        """A.P. value of what *unit* expects to inflict minus what it expects to suffer (memoised per round)."""
        row = self._gains.get(unit)
        if row is None:
            row = self._gains[unit] = {}
        cached = row.get(foe)
        return cached if cached is not None else self._new_gain(unit, foe, row)

    def _new_gain(self, unit: Fighting, foe: Fighting, row: dict[Fighting, float]) -> float:
        """exchange_gain() computed and kept in the unit's *row* of the round (known to lack it)."""
        mine, theirs = self._exchange_values(unit, foe)
        gain = row[foe] = mine - theirs
        return gain

    def _exchange_values(self, unit: Fighting, foe: Fighting) -> tuple[float, float]:
        """A.P. worth of the Wounds *unit* expects to inflict on *foe* in an exchange, and to suffer.

        value_of_wounds() and expected_damage() inlined (the AI asks this for every unit and
        foe in reach): the round's memo, then the attacker's damage_memo, then _mean_damage().
        """
        g, h = foe.troops, unit.troops
        expected = self._expected
        mine = expected.get(key := (unit, foe))
        if mine is None:
            mine = unit.damage_memo.get(g.profile.id)
            if mine is None:
                mine = self._mean_damage(unit, g)
            expected[key] = mine
        theirs = expected.get(key := (foe, unit))
        if theirs is None:
            theirs = foe.damage_memo.get(h.profile.id)
            if theirs is None:
                theirs = self._mean_damage(foe, h)
            expected[key] = theirs
        gl, hl = g.wound_levels, h.wound_levels  # max(levels, 1) without the calls
        return mine / (gl if gl > 1 else 1) * g.cost, theirs / (hl if hl > 1 else 1) * h.cost

    # -- leadership ------------------------------------------------------------

    def update_leadership(self) -> None:
        """COU/DIS values, bonuses and the privilege of every unit (seed: Leadership)."""
        for side in (0, 1):
            units = self.sides[side]
            cic = self.cic_index[side]
            cic_unit = units[cic] if cic is not None else None
            privilege = (
                cic_unit is not None
                and cic_unit.alive
                and cic_unit.state == "valiant"
                and not self.temporary_cic[side]
            )
            cic_pos = cic_unit.pos if cic_unit is not None else 0.0
            # (Bounds as floats, here and below: float-to-float comparisons are the interpreter's
            # fast path, and an int's float is exact, so every comparison answers the same.)
            cic_x = float(cic_unit.commander_x or 0) if cic_unit is not None else 0.0
            # (unit, position, aura, COU, DIS, complete war staff) of each valiant commander
            cmds = []
            bearers = []  # (unit, position, standard aura or None, musician aura or None)
            for c in self.aura_units[side]:
                if not c.alive or c.state != "valiant":
                    continue
                if c.commander_x is not None:
                    cmd = None
                    for g in c.groups:
                        if g.count and g.commander:
                            cmd = g.profile
                            break
                    if cmd is not None:
                        cmds.append(
                            (
                                c, c.pos, float(c.commander_x or 0),
                                cmd.cou if cmd.cou is not None else (cmd.fear or 0), cmd.dis,
                                c.musician_x is not None and c.standard_x is not None,
                            )
                        )  # fmt: skip
                if c.standard_x is not None or c.musician_x is not None:
                    bearers.append((c, c.pos, c.standard_x, c.musician_x))
            penalty = self.dis_penalty[side]
            if not cmds and not bearers:
                # No aura at all on this side: own values only (the loop below, without auras).
                for u in units:
                    if not u.alive:
                        continue
                    troops = u.troops
                    u.cou_value, u.dis_value = troops.own_cou, troops.own_dis - penalty
                    u.cou_bonus = u.dis_bonus = 0
                    u.best_of = 2 if privilege and (u is cic_unit or -cic_x <= cic_pos - u.pos <= cic_x) else 1
                    u.has_leader = u.has_leader and u.count > 0
                continue
            for u in units:
                if not u.alive:
                    continue
                troops = u.troops
                cou = troops.own_cou
                dis = troops.own_dis
                cou_b = dis_b = 0
                pos = u.pos
                if u.state == "rout":  # a routed unit hears only its own commander
                    for c, _c_pos, _c_x, ccou, cdis, complete in cmds:
                        if c is u:
                            if ccou > cou:
                                cou = ccou
                            if cdis > dis:
                                dis = cdis
                            if complete:
                                cou_b = dis_b = 2
                else:
                    for c, c_pos, c_x, ccou, cdis, complete in cmds:
                        if c is u or -c_x <= pos - c_pos <= c_x:  # |pos - c_pos| <= c_x, without a call
                            if ccou > cou:
                                cou = ccou
                            if cdis > dis:
                                dis = cdis
                            if complete:
                                cou_b = dis_b = 2
                if not (cou_b and dis_b):  # both bonuses already won: a bearer adds nothing
                    for c, c_pos, standard_x, musician_x in bearers:  # musicians and standard bearers
                        d = pos - c_pos
                        if d < 0.0:
                            d = -d
                        if standard_x is not None and cou_b < 1 and (c is u or d <= standard_x):
                            cou_b = 1
                        if musician_x is not None and dis_b < 1 and (c is u or d <= musician_x):
                            dis_b = 1
                u.cou_value = cou
                u.dis_value = dis - penalty
                u.cou_bonus = cou_b
                u.dis_bonus = dis_b
                if privilege:
                    u.best_of = 2 if u is cic_unit or -cic_x <= cic_pos - pos <= cic_x else 1
                else:
                    u.best_of = 1
                if u.has_leader and not u.count:
                    u.has_leader = False

    # -- strategic phase ------------------------------------------------------

    def tactical_roll(self) -> list[int]:
        """Tactical roll with the Commander-in-Chief's DIS; a routed (or missing) one fails."""
        totals = [0, 0]
        points = [0, 0]
        table = self.data.tables.tactical
        memo = self._tactical_memo  # {(total, category, staffs): points} of this tactical table
        if memo is None and table is not None and table.rows:
            rows = _TACTICAL_ROWS.get(id(table))
            if rows is None or rows[0] is not table:
                if len(_TACTICAL_ROWS) > 32:
                    _TACTICAL_ROWS.clear()
                rows = _TACTICAL_ROWS[id(table)] = (table, {})
            memo = self._tactical_memo = rows[1]  # the catalogue's: kept for the game
        for side in (0, 1):
            units = self.sides[side]
            cic = self.cic_index[side]
            p = self.cic_profile[side]
            total = 0
            # A routed Commander-in-Chief still reads his rank's column.
            if p is None:
                category, leadership = 1, False
            else:
                facts = self._cic_seen[side]  # (profile, facts) of the last call: _cic_facts() once a game
                if facts is None or facts[0] is not p:
                    facts = self._cic_seen[side] = (p, _cic_facts(self.cat, p))
                category, leadership = facts[1]
            present = False  # the profile still has a fighter in the unit
            if cic is not None and p is not None:
                unit = units[cic]
                if unit.alive and unit.state != "rout":
                    pid = p.id
                    for g in unit.groups:
                        if g.count and g.profile.id == pid:
                            present = True
                            break
            if present:
                best_of = 2 if leadership and not self.temporary_cic[side] else 1
                bonus = units[cic].dis_bonus - self.dis_penalty[side]
                total = self.dice.from_cdf(_test_total_cdf(max(p.dis + bonus, 0), best_of))
            else:
                self.appoint_temporary_cic(side)
            totals[side] = total
            tp = 0
            if memo is not None:
                staffs = self.info[side]["staffs"]
                tp = memo.get((total, category, staffs))
                if tp is None:
                    if total <= 0:
                        row = table.rows[0]
                    else:
                        row = next(
                            (
                                r
                                for r in table.rows
                                if r.low is not None
                                and r.low <= total
                                and (r.high is None or total <= r.high)
                            ),
                            table.rows[-1],
                        )
                    tp = row.points[min(max(category, 1), len(row.points)) - 1]
                    tp += staffs * table.per_complete_war_staff
                    memo[(total, category, staffs)] = tp
            points[side] = tp
        if totals[0] != totals[1]:
            self.winner_of_roll = 0 if totals[0] > totals[1] else 1
        else:
            self.winner_of_roll = 0 if self.dice.u() < 0.5 else 1
        self.logging and self.say(
            f"tactical roll {totals[0]} vs {totals[1]}: side {self.winner_of_roll + 1} wins; tactical points {points[0]} and {points[1]}"
        )
        return points

    def appoint_temporary_cic(self, side: int) -> None:
        """Eliminated Commander-in-Chief: the best valiant fighter of the people takes over next round."""
        units = self.sides[side]
        cic = self.cic_index[side]
        if cic is not None and units[cic].alive and units[cic].state == "rout":
            return  # still alive but routed: the roll fails, no replacement
        best = None
        for u in units:
            if u.alive and u.state == "valiant":
                for g in u.groups:
                    if g.count and (
                        best is None
                        or (is_commander(g.profile), g.profile.dis)
                        > (is_commander(best[1]), best[1].dis)
                    ):
                        best = (u.index, g.profile)
        if best is None:
            return
        self.cic_index[side], self.cic_profile[side] = best
        self.temporary_cic[side] = True
        self.dis_penalty[side] = 1 if is_commander(best[1]) else 2
        self.logging and self.say(f"side {side + 1} appoints {best[1].name} temporary Commander-in-Chief")

    def give_orders(self, points: list[int]) -> list[int]:
        """Orders (free with a leader or in a commander's aura, else one tactical point each)."""
        for side in (0, 1):
            units = self.sides[side]
            foes = [e for e in self.sides[1 - side] if e.alive]
            spots = sorted([e.pos for e in foes])  # (nothing moves while orders are given)
            commanders = None  # the valiant commanders, found for the first unit without a leader
            unordered = []  # units that could take an order for a tactical point, in side order
            for u in units:
                u.tactic, u.tactic_name = _EMPTY, ""
                u.charged = u.was_charged = u.charge_bonus = u.activated = False
                u.order, u.order_by_points = "", False
                if u.round_effects:
                    u.round_effects = {}
                u.wounds_dealt_round = 0
                if not u.alive:
                    continue
                if u.state != "valiant":
                    if u.state == "disorganized":
                        unordered.append(u)
                    continue
                if u.has_leader:
                    # (an engaged unit: choose_order()'s first answer, without the call)
                    u.order = "assault" if u.engaged else self.choose_order(u, foes, spots)
                else:
                    if commanders is None:
                        commanders = [
                            c for c in self.aura_units[side]
                            if c.alive and c.state == "valiant" and c.commander_x is not None
                        ]  # fmt: skip
                    pos = u.pos
                    for c in commanders:
                        if abs(pos - c.pos) <= c.commander_x:  # type: ignore[operator]
                            u.order = self.choose_order(u, foes, spots)
                            break
                if not u.order:
                    unordered.append(u)
            for u in unordered:
                if points[side] < 1:
                    break
                order = self.choose_order(u, foes, spots)
                if order:
                    u.order, u.order_by_points = order, True
                    points[side] -= 1
                    self.logging and self.say(f"side {side + 1} spends a tactical point to order {u.name} ({order})")
        return points

    def tactic_fits(self, tactic, unit: Fighting) -> bool:
        """The tactic's machine-readable condition (R2-D9) against the unit."""
        if tactic.min_rank_category is not None and unit.rank_category < tactic.min_rank_category:
            return False
        if tactic.formation is not None and unit.current_formation != tactic.formation:
            return False
        if tactic.scheme is not None and unit.scheme != tactic.scheme:
            return False
        if tactic.min_effective is not None and unit.count < tactic.min_effective:
            return False
        return True

    def tactic_score(self, effects: dict[str, int], unit: Fighting) -> float:
        """How much a unit is expected to gain from these effects this round (AI)."""
        fighting = unit.order == "assault" or bool(unit.engaged)
        moving = unit.order in ("assault", "progress")
        weight = _effect_weight(tuple(effects.items()), fighting, moving, unit.state != "valiant")
        return weight * (1.0 + unit.points_alive() / 500.0)

    def _deck(self, side: int) -> list[tuple]:
        """The side's tactics, merged once: (tactic, to_enemy, rally, pros, rank-I effects, AI weights)."""
        # Kept in the list's template info, shared by every game of a playtest.
        cached = self.info[side].get("merged_deck")
        if cached is None:
            cached = []
            for tactic in self.info[side]["deck"]:
                pros = {k: v for k, v in tactic.effects.items() if k != "to_enemy"}
                rank1 = dict(pros)
                for k, v in tactic.cons_effects.items():
                    if k != "to_enemy":
                        rank1[k] = rank1.get(k, 0) + v
                # AI weights by situation, indexed fighting * 4 + moving * 2 + shaken (see buy_and_give_tactics)
                weights = {
                    id(effects): [
                        _effect_weight(tuple(effects.items()), f, m, sh)
                        for f in (False, True) for m in (False, True) for sh in (False, True)
                    ]
                    for effects in (pros, rank1)
                }
                to_enemy = tactic.effects.get("to_enemy", 0) > 0
                # Signed weights (a tactic given to the enemy gains its opposite): -(w * s) == (-w) * s exactly.
                signed = {k: [-w for w in ws] if to_enemy else ws for k, ws in weights.items()}
                cached.append(
                    (
                        tactic, to_enemy, "rally" in tactic.effects, pros, rank1,
                        weights[id(pros)], weights[id(rank1)],
                        tactic.min_rank_category, tactic.formation, tactic.scheme, tactic.min_effective,
                        signed[id(pros)], signed[id(rank1)],
                        tactic.min_rank_category is None and tactic.formation is None
                        and tactic.scheme is None and tactic.min_effective is None,  # no condition to test
                        tactic.id, tactic.name,  # (read once here, not once per offer)
                    )
                )  # fmt: skip
            # At most one of each tactic is given a round: caps the tactics bought (see buy_and_give_tactics).
            self.info[side]["deck_ids"] = len({entry[0].id for entry in cached})
            self.info[side]["merged_deck"] = cached
        return cached

    def buy_and_give_tactics(self, points: list[int]) -> None:
        """The winner of the tactical roll buys and gives first (seed: Attribution of the tactics)."""
        cost = self._tactic_cost
        pools: dict[int, tuple[list, list]] = {}
        for side in (self.winner_of_roll, 1 - self.winner_of_roll):
            deck = self._deck(side)
            budget = points[side] // cost if cost else len(deck)
            if budget <= 0 or not deck:
                continue
            # Each gift uses up a tactic id: no more than the deck's distinct ids are ever given, so
            # the offers' loop below may stop after that many (the same gifts as running on).
            distinct = self.info[side]["deck_ids"]
            if budget > distinct:
                budget = distinct
            # Each unit's eligibility and AI situation, once a round (not once per tactic or
            # buyer): giving a tactic changes none of it, and units that already hold one
            # are skipped when the offers are taken.
            if not pools:
                for pool_side in (0, 1):
                    ordered, shaken = [], []
                    for u in self.sides[pool_side]:
                        if not u.alive or u.tactic_name:
                            continue
                        order = u.order
                        not_valiant = u.state != "valiant"
                        if not not_valiant and (not order or u.order_by_points):
                            continue  # in neither pool
                        # (fighting, moving, shaken) as an index into the deck's weight lists
                        key = (4 if order == "assault" or u.engaged else 0) + (
                            2 if order == "assault" or order == "progress" else 0
                        ) + (1 if not_valiant else 0)
                        entry = (u, key, 1.0 + u.points / 500.0, u.rank_category == 1)
                        if not_valiant:
                            shaken.append(entry)
                        else:
                            ordered.append(entry)
                    pools[pool_side] = (ordered, shaken)
            offers = []
            for (
                _tactic, to_enemy, rally, pros, rank1, _w_pros, _w_rank1, min_rank, formation, scheme, min_eff,
                s_pros, s_rank1, free, tid, tname,
            ) in deck:  # fmt: skip
                ordered, shaken = pools[1 - side if to_enemy else side]
                for u, key, scale, first_rank in shaken if rally else ordered:
                    # Offers worth nothing are never taken: left out before sorting, and before the
                    # tactic's condition is tested (scale >= 1: the gain has the weight's sign).
                    weight = s_rank1[key] if first_rank else s_pros[key]
                    if weight <= 0.0:  # (float literals against floats here: the fast comparison)
                        continue
                    # tactic_fits(), inlined (the hot loop of the strategic phase)
                    if not free and (
                        (min_rank is not None and u.rank_category < min_rank)
                        or (
                            formation is not None  # u.current_formation, inlined
                            and ("close" if u.formation == "close" and u.count >= 5 and u.state != "rout" else "scattered")
                            != formation
                        )
                        or (scheme is not None and u.scheme != scheme)
                        or (min_eff is not None and u.count < min_eff)
                    ):
                        continue
                    offers.append((weight * scale, tid, tname, u, rank1 if first_rank else pros))
            offers.sort(key=_first, reverse=True)  # stable: equal gains keep their order
            used_tactics: set[str] = set()
            for gain, tid, tname, u, effects in offers:
                if gain <= 0.0 or tid in used_tactics or u.tactic_name:
                    continue
                u.tactic, u.tactic_name = effects, tname
                used_tactics.add(tid)
                self.logging and self.say(f"side {side + 1} gives {tname} to {u.name}")
                budget -= 1
                if budget <= 0:
                    break

    def choose_order(
        self, unit: Fighting, foes: list[Fighting] | None = None, spots: list[float] | None = None
    ) -> str:
        """Assault a target it can reach and beat, shoot what is in range, cast, or close in.

        *foes*: the live enemies; *spots*: their positions, sorted (both found once for a
        series of calls by give_orders()).
        """
        if unit.engaged:
            return "assault"
        if foes is None:
            foes = [e for e in self.sides[1 - unit.side] if e.alive]
        if not foes:
            return ""
        if spots is None:
            spots = sorted([e.pos for e in foes])
        pos = unit.pos
        tactic = unit.tactic
        mov = unit._mov + tactic.get("movement", 0) if tactic else unit._mov  # unit.mov, inlined
        # Every target in reach is valued (best_charge_target()) even once one is good enough:
        # the values are memoised for the round, and later choices must see those of this moment.
        reach = mov * 2.0  # (a float bound: see update_leadership())
        # The nearest foe's distance answers "some foe within X" at once: one of the two
        # positions around the unit's (the same |e.pos - pos| values: subtraction is monotonic).
        i = bisect.bisect_left(spots, pos)
        nearest = spots[i] - pos if i < len(spots) else 1e18
        if i and pos - spots[i - 1] < nearest:
            nearest = pos - spots[i - 1]
        best_score = -1e9
        if nearest <= reach:
            best_score = self.best_charge_target(unit, foes, reach)[1]
            if best_score > 0.0:
                return "assault"
        reachable = best_score > -1e9  # best_charge_target() found a target (a bad one)
        if unit.shooting_groups:
            longest = None
            for g in unit.shooting_groups:
                if g.count and (longest is None or g.profile.ranged.long > longest):  # type: ignore[union-attr]
                    longest = g.profile.ranged.long  # type: ignore[union-attr]
            if longest is not None and nearest <= longest + mov:
                return "support"  # Support (dynamic): march, then shoot
        info = self.info
        if (unit.mana > 0 and info[unit.side]["rituals"]) or (unit.faith > 0 and info[unit.side]["communions"]):
            return "support"
        if unit.mana > 0 and info[1 - unit.side]["rituals"] and any(e.mana > 0 for e in foes):
            return "reaction"  # counter-magic
        if unit.faith > 0 and info[1 - unit.side]["communions"] and any(e.faith > 0 for e in foes):
            return "reaction"  # censure
        if reachable:
            return "assault"  # reachable but not favourable: will close in at its activation
        # Threatened by an enemy that can reach it while it cannot reach anyone: counter-charge.
        if self._charge_bound[0] is not spots:
            # The foes' longest charge, found once for these spots (give_orders(): one list per side).
            longest = -1
            for e in foes:
                if e.count > 0 and e.state in ("valiant", "disorganized"):
                    tactic = e.tactic
                    reach = (e._mov + tactic.get("movement", 0) if tactic else e._mov) * 2.0
                    if reach > longest:
                        longest = reach
            self._charge_bound = (spots, longest)
        if nearest > self._charge_bound[1]:
            return "progress"  # no foe's charge reaches this far
        for e in foes:
            tactic = e.tactic  # e.mov and e.fighting, inlined: every idle unit asks this of every foe
            reach = (e._mov + tactic.get("movement", 0) if tactic else e._mov) * 2.0
            if -reach <= e.pos - pos <= reach and e.count > 0 and e.state in ("valiant", "disorganized"):
                return "reaction"
        return "progress"

    def best_charge_target(
        self, unit: Fighting, foes: list[Fighting], reach: float
    ) -> tuple[Fighting | None, float]:
        best, best_score = None, -1e9
        pos = unit.pos
        row = self._gains.get(unit)
        if row is None:
            row = self._gains[unit] = {}
        low = -reach  # |e.pos - pos| <= reach, without a call per foe (the same test)
        for e in foes:
            if not low <= e.pos - pos <= reach or e.state == "gone":
                continue
            gain = row.get(e)
            if gain is None:
                gain = self._new_gain(unit, e, row)
            if e.state == "rout":
                gain += e.points
            if e.engaged:
                gain += 0.25 * e.points  # ganging up on a fray
            if gain > best_score:
                best, best_score = e, gain
        return best, best_score

    def rally(self) -> None:
        """Rallying: COU or DIS test (difficulty 8) for each Disorganized or routed unit."""
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state in ("rout", "disorganized"):
                    bonus = u.tactic.get("rally", 0)
                    cou = u.cou_value + u.cou_bonus + bonus
                    dis = u.dis_value + u.dis_bonus + bonus
                    if self.test(max(cou, dis), 8, u.best_of):
                        self.logging and self.say(f"{u.name} rallies")
                        u.state = "valiant"

    # -- activation phase -----------------------------------------------------

    def shooters(self, unit: Fighting) -> list[Group]:
        return [g for g in unit.shooting_groups if g.count] if unit.shooting_groups else []

    def activation(self) -> None:
        first = self.winner_of_roll
        rank = _ACTIVATION_RANK
        queues = []
        for s in (0, 1):
            # Sorted on (rank, -points, side order): the same order as a stable sort on (rank, -points).
            # Kept reversed (the keys are distinct): the next unit is popped from the end.
            keyed = [(rank.get(u.order, 2), -u.points, i, u) for i, u in enumerate(self.sides[s]) if u.alive]
            keyed.sort(reverse=True)
            queues.append([k[3] for k in keyed])
        # Passing: the player with fewer units may pass once per extra enemy unit.
        n0, n1 = len(queues[0]), len(queues[1])
        passes = [n1 - n0 if n1 > n0 else 0, n0 - n1 if n0 > n1 else 0]
        turn = first
        activate = self.activate
        while queues[0] and queues[1]:
            queue = queues[turn]
            nxt = queue[-1]
            if passes[turn] and nxt.order == "assault" and not self.target_in_reach(nxt):
                passes[turn] -= 1
                turn = 1 - turn
                continue
            queue.pop()
            if nxt.alive:
                activate(nxt)
            turn = 1 - turn
        # One queue is empty: the other side activates its remaining units in a row (no passing).
        for queue in queues:
            for nxt in reversed(queue):
                if nxt.alive:
                    activate(nxt)

    def nearest_enemy(self, u: Fighting) -> Fighting | None:
        # min() on the distance, written out: the first of equals, as min() picks.
        best, best_d = None, 0.0
        pos = u.pos
        for e in self.sides[1 - u.side]:
            if e.alive:
                d = abs(e.pos - pos)
                if best is None or d < best_d:
                    best, best_d = e, d
        return best

    def something_in_range(self, u: Fighting) -> bool:
        """A shooting target within its longest range (or a mystic target within 50 cm)."""
        reach = 0
        for g in u.shooting_groups:
            if g.count and g.profile.ranged.long > reach:  # type: ignore[union-attr]
                reach = g.profile.ranged.long  # type: ignore[union-attr]
        if (u.mana > 0 or u.faith > 0) and reach < 50:
            reach = 50
        reach = float(reach)  # (a float bound: see update_leadership())
        pos = u.pos
        low = -reach  # |e.pos - pos| <= reach, without a call per foe (the same test)
        for e in self.sides[1 - u.side]:
            if e.alive and low <= e.pos - pos <= reach:
                return True
        return False

    def target_in_reach(self, u: Fighting) -> bool:
        tactic = u.tactic  # u.mov, inlined
        reach = (u._mov + tactic.get("movement", 0) if tactic else u._mov) * 2.0  # (a float bound)
        pos = u.pos
        low = -reach  # |e.pos - pos| <= reach (distance(), inlined), without a call per foe
        for e in self.sides[1 - u.side]:
            if e.alive and low <= e.pos - pos <= reach:
                return True
        return False

    def activate(self, u: Fighting) -> None:
        u.activated = True
        if u.state == "rout":
            if not u.engaged:
                self.flee(u)
            return
        if u.order == "assault":
            if not u.engaged:
                self.assault(u)
            if u.warrior_mage:
                self.cast_rituals(u, warriors_only=True)
            if u.warrior_monk:
                self.call_communions(u, warriors_only=True)
        elif u.order == "support":
            # Support (dynamic): march first when nothing is in range yet, then act.
            moved = False
            if not u.engaged and not self.something_in_range(u):
                foe = self.nearest_enemy(u)
                if foe is not None:
                    before = u.pos
                    # foe.fighting, inlined
                    fighting = foe.count > 0 and (foe.state == "valiant" or foe.state == "disorganized")
                    self.toward(u, foe.pos, u.mov, stop_short=max(foe.mov * 2 + 1, 1.0) if fighting else 1.0)
                    moved = u.pos != before
            # The callees' own first tests, done here: most supporting units neither pray, cast nor shoot.
            if u.faith >= self.info[u.side]["min_fervor"]:
                self.call_communions(u)
            if u.mana > 0:
                self.cast_rituals(u)
            if u.shooting_groups:
                self.shoot(u, moved)
        elif u.order == "progress":
            self.advance(u)
        # reaction: revealed when an enemy acts (counter-charge, counter-magic, censure)

    def advance(self, u: Fighting) -> None:
        """Progress (Run) towards the best target, stopping outside an unfavourable enemy's reach."""
        if u.engaged:
            return
        # The nearest enemy, routed ones last (the first of equals, as min() on (routed, distance) picks).
        target = routed = None
        d = d_routed = 0.0
        pos = u.pos
        for e in self.sides[1 - u.side]:
            if e.alive:
                dist = e.pos - pos
                if dist < 0.0:
                    dist = -dist
                if e.state == "rout":
                    if routed is None or dist < d_routed:
                        routed, d_routed = e, dist
                elif target is None or dist < d:
                    target, d = e, dist
        if target is None:
            if routed is None:
                return
            target, d = routed, d_routed
        mine, theirs = self._exchange_values(u, target)
        stop = 1.0
        if theirs > mine * 1.25 and target.count > 0 and target.state in ("valiant", "disorganized"):
            tactic = target.tactic  # target.mov, inlined
            stop = min(d, (target._mov + tactic.get("movement", 0) if tactic else target._mov) * 2 + 1)  # out of its reach
        tactic = u.tactic
        distance = (u._mov + tactic.get("movement", 0) if tactic else u._mov) * 2.0
        # toward(), inlined: min() and max() written out with their choice among equals
        gap = target.pos - pos
        step = (gap if gap >= 0.0 else -gap) - stop
        if not step > 0.0:
            step = 0.0
        if not step < distance:
            step = distance
        u.pos = pos + math.copysign(step, gap)

    def flee(self, u: Fighting, away_from: Fighting | None = None) -> None:
        """Flight: MOV × 2 towards its own edge; crossing it eliminates the unit."""
        edge = 0.0 if u.side == 0 else TABLE_DEPTH
        if u.engaged:
            self.kill_in_contact(u, None)
        u.pos += math.copysign(u.mov * 2, edge - u.pos)
        if (u.side == 0 and u.pos <= 0) or (u.side == 1 and u.pos >= TABLE_DEPTH):
            self.logging and self.say(f"{u.name} flees off the table")
            self.eliminate_points(None, u, u.points_alive())
            for g in u.groups:
                g.count = 0
            u.recount()
            u.state = "gone"
            self.break_contacts(u)

    def kill_in_contact(self, u: Fighting, killer: Fighting | None) -> None:
        """A routed unit loses its fighters in contact, whatever their Wound levels."""
        in_contact = min(u.count, sum(self.contact(u, self.enemy_unit(u, j)) for j in u.engaged))
        for g in u.ordered:
            take = min(g.count, in_contact)
            g.count -= take
            in_contact -= take
            if take:
                self.eliminate_points(killer, u, take * g.cost)
        u.recount()
        if u.count == 0:
            u.state = "gone"
        self.break_contacts(u)

    def needs_courage_test(self, unit: Fighting, other: Fighting) -> bool:
        """Seed: Courage tests of the assailant and of the assailed."""
        if unit.all_have("fear_immune"):
            return False
        other_fear = other.troops.profile.fear  # (the fear property, inlined)
        if other_fear is None and not other.all_have("frightening"):
            return False
        fear = unit.troops.profile.fear
        if fear is None:  # courageous
            return True
        if unit.all_have("born_killer") and fear >= (other_fear or 0):
            return False
        if not other.count:
            return fear < 0
        most = None  # max((g.profile.fear or 0) for live groups), written out
        for g in other.groups:
            if g.count:
                f = g.profile.fear or 0
                if most is None or f > most:
                    most = f
        return most is not None and fear < most

    def courage_test(self, unit: Fighting, frightening: Fighting, unit_charging: bool) -> bool:
        """Contest table: COU − FEAR, FEAR modified by the balance of Power (seed: Repelling)."""
        fear = frightening.troops.profile.fear  # (the fear property, read once)
        if fear is None:
            fear = 0
        if fear <= unit.immune_fear:
            return True
        balance = balance_of_power(
            frightening.power(not unit_charging, unit_charging), unit.power(unit_charging, not unit_charging)
        )
        modifier = (
            _row_value(self.fear_rows, balance)
            if self.fear_rows
            else {3: 3, 2: 2, 1: 0, -2: -2, -3: -3}[balance]
        )
        cou = unit.cou_value + unit.cou_bonus + unit.tactic.get("courage", 0)
        p = _fear_p(self.table, cou - (fear + modifier), 0)
        if unit.best_of > 1:
            p = 1 - (1 - p) ** unit.best_of
        ok = self.dice.chance(p)
        if ok:
            unit.immune_fear = max(unit.immune_fear, fear)
        return ok

    def assault(self, u: Fighting) -> None:
        foes = [e for e in self.sides[1 - u.side] if e.alive]
        if not foes:
            return
        reach = u.mov * 2.0  # (a float bound: see update_leadership(); toward() moves the same)
        target, _ = self.best_charge_target(u, foes, reach)
        if target is None:
            target = min(foes, key=lambda e: self.distance(u, e))
            self.toward(u, target.pos, reach)
            if target.state != "rout":
                self.disorganize(u)
            self.logging and self.say(f"{u.name} charges {target.name} but falls short")
            return
        # Reaction (counter-charge) of the target.
        if (
            target.order == "reaction"
            and not target.activated
            and not target.engaged
            and target.fighting
        ):
            target.activated = True
            won = self.dice.chance(
                _opposed_p(target.stat("ini"), u.stat("ini"), target.side == self.winner_of_roll)
            )
            if won:
                self.logging and self.say(f"{target.name} counter-charges {u.name}")
                self.resolve_charge(target, u)
                return
        self.resolve_charge(u, target)

    def disorganize(self, u: Fighting) -> None:
        u.state = "rout" if u.state == "disorganized" else "disorganized"

    def resolve_charge(self, u: Fighting, target: Fighting) -> None:
        if self.needs_courage_test(u, target) and not self.courage_test(u, target, True):
            self.disorganize(u)
            self.logging and self.say(f"{u.name} fails its Courage test before {target.name} and stays put")
            return
        # Assault fire: shots before moving, difficulty 7, no modifier.
        for g in u.groups:
            if (
                g.count
                and g.traits.assault_fire
                and g.profile.ranged is not None
                and g.profile.aim is not None
            ):
                if self.distance(u, target) <= g.profile.ranged.long:
                    self.volley(u, g, target, g.count, 7, "assault fire")
        if not target.alive:
            return
        if target.state == "rout":
            # A routed unit that is assailed flees at once; the assailants take its place.
            old = target.pos
            self.logging and self.say(f"{u.name} charges the routed {target.name}, which flees")
            if not target.engaged:
                self.flee(target)
                u.pos = old
                return
        if self.needs_courage_test(target, u) and not self.courage_test(target, u, False):
            if target.all_have("fanaticism") and self.test(
                target.dis_value + target.dis_bonus, 8, target.best_of
            ):
                target.state = "rout"
                self.logging and self.say(
                    f"{target.name} is terrified by {u.name} but its fanaticism holds it in place (routed)"
                )
            else:
                target.state = "rout"
                self.logging and self.say(f"{target.name} is terrified by {u.name} and routs")
                if not target.activated and not target.engaged:
                    old = target.pos
                    self.flee(target)
                    u.pos = old  # the frightening unit takes the spot it left
                    return
        u.pos = target.pos + (-1.0 if u.side == 0 else 1.0)
        u.charged = True
        target.was_charged = True
        u.charge_bonus = u.power(True) >= target.power(False, True)
        u.engaged.add(target.index)
        target.engaged.add(u.index)
        self.logging and self.say(f"{u.name} charges {target.name}" + (" (+3 Initiative)" if u.charge_bonus else ""))

    # -- shooting -------------------------------------------------------------

    def shoot(self, u: Fighting, moved: bool = False) -> None:
        """Support (shooting): one volley per range band, nearest band first."""
        if u.engaged or u.state == "rout":
            return
        shooters = self.shooters(u)
        if not shooters:
            return
        target = self.best_shooting_target(u, shooters)
        if target is None:
            return
        start = target.count
        d = abs(target.pos - u.pos)
        # A close unit shoots with its two front ranks: 2 x front() >= its numbers, so all of
        # its fighters (as for a scattered unit); the count, as min(u.count, 2 * u.front()) was.
        shooting_fighters = u.count
        if len(shooters) == 1:
            # One group of marksmen (the usual case): its band only, no band loop.
            g = shooters[0]
            band = _band(g.profile.ranged, d)
            if band is not None:
                if band != "short" and self.field_effects.get("downpour"):
                    self.logging and self.say(f"{u.name}: the downpour stops the {band}-range shots")
                else:
                    n = g.count if g.count < shooting_fighters else shooting_fighters
                    difficulty = aim_difficulty(self.data, band, target.troops.profile.size, moved=moved)
                    self.volley(u, g, target, n, difficulty, _BAND_LABELS[band])
            self.shooting_morale(target, start)
            return
        g_bands = [(g, _band(g.profile.ranged, d)) for g in shooters]  # the distance does not change
        for band in ("short", "medium", "long"):
            for g, g_band in g_bands:
                if g_band != band or not target.alive:
                    continue
                if band != "short" and self.field_effects.get("downpour"):
                    self.logging and self.say(f"{u.name}: the downpour stops the {band}-range shots")
                    continue
                n = min(g.count, shooting_fighters)
                shooting_fighters -= n
                difficulty = aim_difficulty(
                    self.data, band, target.troops.profile.size, moved=moved
                )
                self.volley(u, g, target, n, difficulty, _BAND_LABELS[band])
        self.shooting_morale(target, start)

    def best_shooting_target(self, u: Fighting, shooters: list[Group]) -> Fighting | None:
        best, best_value = None, 0.0
        pos = u.pos
        reach = 0
        for g in shooters:
            if g.profile.ranged.long > reach:
                reach = g.profile.ranged.long
        reach = float(reach)  # (a float bound: see update_leadership())
        single = shooters[0] if len(shooters) == 1 else None  # one group of marksmen: the usual case
        if single is not None:
            # (read once: attributes of the pydantic profile and weapon cost more than locals)
            w = single.profile.ranged
            short, medium = float(w.short), float(w.medium)  # (float bounds: exact, and the fast comparison)
            memo, count = single.shot_value, single.count
        for e in self.sides[1 - u.side]:
            if not e.alive:
                continue
            d = abs(e.pos - pos)
            if d > reach:
                continue  # no shooter in range: worth 0, never better than best_value (>= 0)
            troops = e.troops
            size = troops.profile.size
            res = troops.base["res"]  # e.stat("res"), inlined
            if e.tactic:
                res += e.tactic.get("resistance", 0)
            if e.round_effects:
                res += e.round_effects.get("res", 0)
            if single is not None:
                # The loop below for one group (in range: d <= reach); 0.0 + x == x, the same float.
                band = "short" if d <= short else ("medium" if d <= medium else "long")
                shot = memo.get((band, size, res))
                if shot is None:
                    shot = self._shot_value(single, band, size, res)
                value = count * shot[0] * shot[1]
            else:
                value = 0.0
                for g in shooters:
                    w = g.profile.ranged
                    # _band(w, d), inlined
                    if d <= w.short:
                        band = "short"
                    elif d <= w.medium:
                        band = "medium"
                    elif d <= w.long:
                        band = "long"
                    else:
                        continue
                    shot = g.shot_value.get((band, size, res))
                    if shot is None:
                        shot = self._shot_value(g, band, size, res)
                    value += g.count * shot[0] * shot[1]
            wl = troops.wound_levels  # value_of_wounds(), inlined
            value = value / (wl if wl > 1 else 1) * troops.cost
            if e.engaged:
                # Shooting into the fray: half the hits go to the friends in contact.
                friend = self.enemy_unit(e, next(iter(e.engaged)))
                value = 0.5 * value - 0.5 * self.value_of_wounds(
                    friend, value / max(e.troops.cost, 1) * e.troops.wound_levels
                )
            if value > best_value:
                best, best_value = e, value
        return best

    def _shot_value(self, g: Group, band: str, size: str, res: int) -> tuple[float, float]:
        """(hit chance, mean Wounds) of one shot of *g*, memoised per template group (one catalogue per template)."""
        shot = g.shot_value[(band, size, res)] = (
            _test_p(g.profile.aim or 0, aim_difficulty(self.data, band, size), 1),
            _die_mean(self.table, g.profile.ranged.strength - res),
        )
        return shot

    def volley(
        self, u: Fighting, g: Group, target: Fighting, shooters: int, difficulty: int, label: str
    ) -> int:
        """One volley: Aim tests, one Wound roll per hit, losses at most the fighters targeted."""
        profile = g.profile
        weapon, aim = profile.ranged, profile.aim
        assert weapon is not None and aim is not None
        hits = self.dice.binomial(shooters, _test_p(aim, difficulty, 1))
        if not hits:
            self.logging and self.say(
                f"{u.name} ({g.profile.name}) shoots {target.name} ({label}, difficulty {difficulty}): no hit"
            )
            return 0
        if target.engaged:
            # Shooting into the fray: hits shared as equally as possible, the odd one on the enemy.
            friends = [self.enemy_unit(target, j) for j in sorted(target.engaged)]
            to_friends = hits // 2
            hits -= to_friends
            for i, friend in enumerate(friends):
                share = to_friends // len(friends) + (1 if i < to_friends % len(friends) else 0)
                if share and friend.alive:
                    w = self.dice.from_cdf(
                        _contest_cdf(
                            self.table,
                            weapon.strength - friend.stat("res"),
                            share,
                            self.wound_shift_against(friend),
                        )
                    )
                    self.deal(None, friend, w, friend.count, True)
                    self.logging and self.say(f"  {share} shots hit {friend.name} in the fray: {w} Wounds")
        hits = self.survival_thinning(target, hits)
        # wound_shift_against(target) and target.stat("res"), inlined
        tactic, effects = target.tactic, target.round_effects
        res = target.troops.base["res"]
        if tactic:
            shift = target.base_wound_shift - tactic.get("toughness_shift", 0)
            res += tactic.get("resistance", 0)
        else:
            shift = target.base_wound_shift
        if effects:
            res += effects.get("res", 0)
        wounds = self.dice.from_cdf(_contest_cdf(self.table, weapon.strength - res, hits, shift))
        killed = self.deal(u, target, wounds, target.count, True)
        if self.logging:
            who = u.name if g.profile.name == u.name else f"{u.name} ({g.profile.name})"
            self.say(
                f"{who} shoots {target.name} ({label}, difficulty {difficulty}): {hits} hits, {wounds} Wounds, {killed} eliminated"
            )
        return killed

    def shooting_morale(self, target: Fighting, start: int) -> None:
        """Losses >= half the unit's numbers: COU (8), or DIS (8) for a close unit; failure routs."""
        if (
            not target.alive
            or not start
            or start - target.count < (start + 1) // 2
            or target.state == "rout"
        ):
            return
        if target.all_have("auto_morale"):
            return
        value = target.cou_value + target.cou_bonus + target.tactic.get("courage", 0)
        if target.formation == "close" and target.count >= 5:  # current_formation == "close" (not routed here)
            value = max(
                value, target.dis_value + target.dis_bonus + target.tactic.get("discipline", 0)
            )
        if not self.test(value, 8, target.best_of, not target.all_have("morale_no_auto_fail")):
            target.state = "rout"
            self.logging and self.say(f"{target.name} routs under fire")

    # -- mystics --------------------------------------------------------------

    def cast_rituals(self, u: Fighting, warriors_only: bool = False) -> None:
        """Rituals with a magister of the unit, mastery gems, counter-magic (mystics seed)."""
        if u.state == "rout" or u.mana <= 0:
            return
        arcane = None  # some live fighter has Arcane mastery (found when a ritual costs too much)
        for ritual in self.info[u.side]["rituals"]:
            effect = RITUAL_EFFECTS.get(ritual.id)
            if effect is None:
                continue
            if ritual.mana > u.mana:
                # Unaffordable without Arcane mastery: no need to look for the magister.
                if arcane is None:
                    arcane = any(g.count and g.traits.arcane_mastery for g in u.groups)
                if not arcane:
                    continue
            magisters = [
                g for g in u.groups
                if g.count and g.magician_pow and (not warriors_only or g.traits.warrior_mage)
                and _knows_ritual(g.profile, ritual)
            ]  # fmt: skip
            if not magisters:
                continue
            g = max(magisters, key=lambda g: g.magician_pow)
            missing = ritual.mana - u.mana
            if missing > 0 and not (g.traits.arcane_mastery and g.magician_pow - missing >= 1):
                continue
            target = effect.choose(self, u, parse_range(ritual.range))
            if target is None:
                continue
            if missing > 0:
                # Arcane mastery: the magister lowers its POW (not below 1) to pay the missing mana.
                g.magician_pow -= missing
                self._mystic_sums.pop(u, None)  # (the mystic phase's sums of the unit include its POW)
                u.mana += missing
                self.logging and self.say(f"{g.profile.name} lowers its POW by {missing} (arcane mastery)")
            u.mana -= ritual.mana
            success, extra = self._mystic_attempt(
                u, "mana", g.magician_pow, ritual.difficulty, ritual.mana,
                not u.engaged or g.traits.warrior_mage,
                ritual.element.lower() not in g.traits.spirit_of, g.traits.focus,
            )  # fmt: skip
            if success is None:
                self.logging and self.say(f"{u.name}: {ritual.name} is countered")
                continue
            if success:
                self.logging and self.say(f"{g.profile.name} casts {ritual.name} ({extra} mastery dice)")
                effect.apply(self, u, target)
            else:
                self.logging and self.say(f"{g.profile.name} fails to cast {ritual.name} ({extra} mastery dice)")

    def call_communions(self, u: Fighting, warriors_only: bool = False) -> None:
        """Communions with an eminence of the unit, extra T.F. dice, censure (mystics seed)."""
        if u.state == "rout" or u.faith < self.info[u.side]["min_fervor"]:
            return
        for communion in self.info[u.side]["communions"]:
            effect = COMMUNION_EFFECTS.get(communion.id)
            if effect is None or u.faith < communion.fervor:
                continue
            eminences = [
                g for g in u.groups
                if g.count and g.faith and (not warriors_only or g.traits.warrior_monk)
                and _may_call(g.profile, communion)
            ]  # fmt: skip
            if not eminences:
                continue
            g = max(eminences, key=lambda g: g.faith)
            target = effect.choose(self, u, parse_range(communion.range))
            if target is None:
                continue
            u.faith -= communion.fervor
            success, extra = self._mystic_attempt(
                u, "faith", g.faith, communion.difficulty if communion.difficulty is not None else 8,
                communion.fervor, not u.engaged or g.traits.warrior_monk,
                not g.traits.exalted, g.traits.illuminated,
            )  # fmt: skip
            if success is None:
                self.logging and self.say(f"{u.name}: {communion.name} is censured")
                continue
            if success:
                self.logging and self.say(f"{g.profile.name} calls {communion.name} ({extra} extra dice)")
                effect.apply(self, u, target)
            else:
                self.logging and self.say(f"{g.profile.name} fails to call {communion.name}")

    def _mystic_attempt(
        self, u: Fighting, reserve: str, value: int, difficulty: int, spent: int, can_add: bool,
        ones_fail: bool, reroll_fives: bool,
    ) -> tuple[bool | None, int]:  # fmt: skip
        """The shared part of a ritual and a communion, once its base cost is paid from *reserve*
        ("mana" or "faith"): extra dice bought from what is left (mastery gems, bonds of T.F.),
        the enemy's counter-magic or censure, then the test. Returns (None if countered, else the
        test's success; the extra dice)."""
        extra = best_mastery(
            value, difficulty, getattr(u, reserve) if can_add else 0, ones_fail=ones_fail, reroll_fives=reroll_fives
        )
        setattr(u, reserve, getattr(u, reserve) - extra)
        if self.countered(u, spent + extra, reserve, "counter-magic" if reserve == "mana" else "censure"):
            return None, extra
        return roll_mystic_test(self.dice.d6, value, difficulty, 1 + extra, ones_fail, reroll_fives), extra

    def countered(self, caster: Fighting, spent: int, reserve: str, label: str) -> bool:
        """An enemy unit under a Reaction order matches the spending and cancels the effect."""
        for e in self.sides[1 - caster.side]:
            if (
                e.alive
                and e.state != "rout"
                and e.order == "reaction"
                and not e.engaged
                and getattr(e, reserve) >= spent
            ):
                setattr(e, reserve, getattr(e, reserve) - spent)
                self.logging and self.say(f"{e.name} answers with {label} ({spent} spent)")
                return counter_succeeds(spent, spent)
        return False

    def mystic_phase(self) -> None:
        """Mana recovery and Temporary Faith recovery (mystics seed)."""
        faith_table = self.data.tables.faith_recovery or None
        bonuses = faith_table or DEFAULT_FAITH_RECOVERY
        rank_bonus: dict[str | None, int] = {}  # faith_recovery_counts()'s bonus per rank, looked up once
        d6 = self.dice.d6
        memo = self._mystic_sums
        for side in (0, 1):
            for u in self.mystic_units[side]:
                if not u.alive:
                    continue
                routed = u.state == "rout"
                # The members' sums, kept while the unit's counts stay the same: every change of a count
                # gives the unit a new damage_memo dict (recount(), deal()), the only other input, a
                # magician's POW, changes in cast_rituals() only, which drops the entry.
                sums = memo.get(u)
                if sums is None or sums[0] is not u.damage_memo:
                    powers: list[int] = []
                    faithful = devoted = False
                    extra = loyal = piety = ranked_bonus = 0
                    for g in u.groups:
                        n = g.count
                        if not n:
                            continue
                        if g.magician_pow:
                            powers += [g.magician_pow] * n
                        if g.faith:
                            faithful = True
                            r = g.profile.faith_rank
                            b = rank_bonus.get(r)
                            if b is None:
                                b = rank_bonus[r] = bonuses.get((r or "").lower(), 0)
                            ranked_bonus += b * n
                        t = g.traits
                        if t.recuperation:
                            extra += t.recuperation * n
                        if t.loyal:
                            loyal += t.loyal * n
                        if t.piety > piety:
                            piety = t.piety
                        if t.devotion or t.martyr:
                            devoted = True
                    ranked = sorted(powers, reverse=True)
                    cap = 2 * sum(ranked)  # (integers: the same sum in any order)
                    sums = memo[u] = (u.damage_memo, ranked, cap, faithful, devoted, extra, loyal, piety, ranked_bonus)
                else:
                    _, ranked, cap, faithful, devoted, extra, loyal, piety, ranked_bonus = sums
                if ranked:
                    # mana_recovery(), inlined: the same dice in the same order, integer sums.
                    need = MANA_SUCCESS + (ROUT_MANA_PENALTY if routed else 0)
                    successes = 0
                    for _ in range(len(ranked) + extra):
                        if d6() >= need:
                            successes += 1
                    gained = 0
                    if successes:
                        # Dice beyond one per magician go to the most powerful one again.
                        if successes <= len(ranked):
                            gained = sum(ranked[:successes])
                        else:
                            gained = cap // 2 + (successes - len(ranked)) * ranked[0]
                    mana = u.mana + gained
                    u.mana = mana if mana < cap else cap
                if faithful:
                    # faith_recovery_counts(), inlined: one T.F. per member, rank bonuses, Loyal, Piety.
                    total = u.count + ranked_bonus + loyal + min(u.faith, piety)
                    if routed:
                        total -= ROUT_FAITH_LOSS
                    u.faith = total if total > 0 else 0
                # Devotion/X and Martyr/X: gems and T.F. given at the price of a Wound roll (STR X vs RES = DIS).
                if routed or not devoted:  # (devoted: some live fighter has either, seen above)
                    continue
                for g in u.groups:
                    if not g.count:
                        continue
                    t = g.traits
                    if not (t.devotion or t.martyr):
                        continue
                    for x, reserve in ((t.devotion, "mana"), (t.martyr, "faith")):
                        if x and (u.mana if reserve == "mana" else u.faith) < 2 * x:
                            setattr(u, reserve, getattr(u, reserve) + x)
                            wounds = self.dice.from_cdf(_contest_cdf(self.table, x - g.profile.dis, 1, 0))
                            if wounds:
                                self.deal(None, u, wounds, in_contact=u.count, scattered=True, victims=[g])

    # -- combat phase ---------------------------------------------------------

    def wound_shift_against(self, target: Fighting) -> int:
        return target.base_wound_shift - target.tactic.get("toughness_shift", 0) if target.tactic else target.base_wound_shift

    def survival_thinning(self, target: Fighting, rolls: int) -> int:
        """Survival instinct: each Wound roll is cancelled on a 6 (when the whole unit has it)."""
        face = target.survival_face
        if face and rolls:
            cancel = (7 - face) / 6  # natural result >= face cancels the roll
            return rolls - self.dice.binomial(rolls, cancel)
        return rolls

    def deal(
        self, killer: Fighting | None, target: Fighting, wounds: int, in_contact: int, scattered: bool,
        victims: list[Group] | None = None,
    ) -> int:  # fmt: skip
        """Allocate Wounds, record the losses, Fierce/Possessed survivors and Thaumaturge faith."""
        if wounds <= 0 or not target.alive:
            return 0
        groups = victims or target.groups
        if len(groups) == 1 and groups[0].count > 0:
            return self._deal_one(killer, target, groups[0], wounds, in_contact, scattered)
        killed, per_group, _lost = allocate_wounds(groups, wounds, in_contact, scattered)
        self._upkeep.add(target)  # lost, damage or fierce_left may have changed: maintenance() looks
        scores, other = self.scores, 1 - target.side
        emptied = False
        lost_points = 0
        for g, n in per_group:
            g.lost += n
            t = g.traits
            if t.fierce or (t.possessed and g.wound_levels == 1):
                g.fierce_left += n
            # eliminate_points(), inlined
            points = n * g.cost
            lost_points += points
            scores[other] += points
            if killer is not None:
                killer.kills += points
            if not g.count:
                emptied = True
        if killer is not None:
            killer.wounds_dealt_round += wounds
        if target.thaumaturge:
            target.faith += wounds
        if not killed:
            return 0  # nobody fell: numbers, troops and unit-wide traits are unchanged (no recount)
        if not emptied:
            # recount(), incrementally: no group was emptied, so the live groups (hence troops, MOV,
            # unit-wide traits and the all_have() answers) are unchanged; only the numbers drop.
            target.count -= killed
            target.points -= lost_points
            target.damage_memo = {}  # the AI's expected damage follows the numbers (a new dict, as recount() gives)
            return killed
        target.recount()
        if target.count == 0 and not any(g.fierce_left for g in target.groups):
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def _deal_one(
        self, killer: Fighting | None, target: Fighting, g: Group, wounds: int, in_contact: int, scattered: bool
    ) -> int:  # fmt: skip
        """deal() to a single live group (the commonest case): the one-group closed form, then the
        bookkeeping of its one (group, eliminated) pair inlined (no lists, no tuples)."""
        killed = _wound_one_group(g, wounds, in_contact, scattered)[0]
        self._upkeep.add(target)  # lost, damage or fierce_left may have changed: maintenance() looks
        if killer is not None:
            killer.wounds_dealt_round += wounds
        if target.thaumaturge:
            target.faith += wounds
        if not killed:
            return 0  # nobody fell: numbers, troops and unit-wide traits are unchanged (no recount)
        g.lost += killed
        t = g.traits
        if t.fierce or (t.possessed and g.wound_levels == 1):
            g.fierce_left += killed
        points = killed * g.cost  # eliminate_points(), inlined
        self.scores[1 - target.side] += points
        if killer is not None:
            killer.kills += points
        if g.count:
            # recount(), incrementally (see deal())
            target.count -= killed
            target.points -= points
            target.damage_memo = {}
            return killed
        target.recount()
        if target.count == 0 and not any(h.fierce_left for h in target.groups):
            target.state = "gone"
            self.break_contacts(target)
        return killed

    def break_contacts(self, unit: Fighting) -> None:
        me = unit.index
        for other in list(unit.engaged):
            self.sides[1 - unit.side][other].engaged.discard(me)
        unit.engaged.clear()

    def contact(self, unit: Fighting, enemy: Fighting) -> int:
        """Fighters of *unit* in contact with *enemy* (see the battlefield model)."""
        if unit.count == 0:
            return 0
        n = min(unit.front(), 2 * max(enemy.front(), 1) + 1)
        share = max(len(unit.engaged), 1)
        return max(1, math.ceil(n / share))

    def attack_roll(self, column: ContestColumn, dice: int) -> tuple[int, int]:
        """Physical attack roll (used when the target can counter-attack): (successes, first natural 1s)."""
        succ = ones = 0
        d6 = self.dice.d6
        success, reroll_from, reroll_ones = column.success, column.reroll_from, column.reroll == "ones"
        for _ in range(dice):
            face = d6()  # d6_reroll(column), inlined
            if reroll_ones and face == 1:
                face = d6()
            if face == 1:
                ones += 1
            while face != 1:
                if face >= success:
                    succ += 1
                if face >= reroll_from:
                    face = d6()
                    continue
                break
        return ((succ + 1) // 2 if column.halved else succ), ones

    def d6_reroll(self, column: ContestColumn) -> int:
        face = self.dice.d6()
        if column.reroll == "ones" and face == 1:
            face = self.dice.d6()
        return face

    def strike(self, attacker: Fighting, defender: Fighting, st: dict, extra: bool = False) -> int:
        """One side's attacks with the fray's state in a dict (contact, wounds, lowered, mutagenic,
        extra_round): the interface of old, for direct calls; fray() calls _strike()."""
        contact, lowered = st["contact"], st["lowered"]
        total = self._strike(
            attacker, defender, contact[attacker], contact[defender], bool(lowered.get(attacker)),
            bool(lowered.get(defender)), st["mutagenic"] or None, extra, st["extra_round"],
        )  # fmt: skip
        st["wounds"][attacker] += total
        return total

    def _strike(
        self, attacker: Fighting, defender: Fighting, left: int, d_contact: int, a_lowered: bool,
        d_lowered: bool, mutagenic: dict[Group, int] | None, extra: bool = False, extra_round: int = 0,
    ) -> int:  # fmt: skip
        """One side's attacks of an exchange; returns the Wounds inflicted (before allocation).

        fray() passes the state of the fray as arguments (no per-fray dicts): *left* and *d_contact*
        are the attacker's and the defender's fighters in contact, *a_lowered*/*d_lowered* whether
        they lowered DEF to 0, *mutagenic* the Mutagenic bonuses by group (None: none), *extra* and
        *extra_round* the extra exchange being fought (War fury...).
        """
        if not defender.alive or not attacker.count and not any(g.fierce_left for g in attacker.groups):
            return 0
        a_tactic = attacker.tactic
        a_effects = attacker.round_effects
        d_tactic = defender.tactic
        # defender.stat("def") and stat("res"), inlined
        d_effects = defender.round_effects
        d_base = defender.troops.base
        d_res = d_base["res"]
        d_def = 0 if d_lowered else d_base["def"]
        base_w_shift = defender.base_wound_shift  # (wound_shift_against(defender), inlined below)
        # Each tactic's modifiers read only when the unit has one (integer sums: order is free).
        if d_tactic:
            if not d_lowered:
                d_def += d_tactic.get("defense", 0)
            d_res += d_tactic.get("resistance", 0)
            base_a_shift = -d_tactic.get("defense_shift", 0)
            base_w_shift -= d_tactic.get("toughness_shift", 0)
        else:
            base_a_shift = 0
        if d_effects:
            if not d_lowered:
                d_def += d_effects.get("def", 0)
            d_res += d_effects.get("res", 0)
        if a_tactic:
            base_a_shift += a_tactic.get("attack_shift", 0)
            base_w_shift += a_tactic.get("wound_shift", 0)
            att_bonus, str_bonus = a_tactic.get("attack", 0), a_tactic.get("strength", 0)
        else:
            att_bonus = str_bonus = 0
        if a_effects:
            att_bonus += a_effects.get("att", 0)
            str_bonus += a_effects.get("str", 0)
            grace = "failures" if a_effects.get("grace") else ""
        else:
            grace = ""
        counter_face = defender.counter_face
        survival_face = defender.survival_face
        routed = attacker.state == "rout"
        table = self.table
        dice_box = self.dice
        bisect_right = _bisect_right
        contest_cdf = _contest_cdf
        total = 0
        counter_dice = 0
        # The dice block is read through locals for the whole loop (from_cdf(), inlined: the commonest
        # draws of a game): written back before and reread after any call that draws, and at the end.
        buffer = dice_box.buffer
        i = dice_box.index
        for g in attacker.ordered:
            n = g.count
            fighters = n if n < left else left  # min(), written out
            left -= fighters
            t = g.traits
            if extra:
                if fighters <= 0:
                    continue
                fierce = 0
                bonus = (a_effects.get("war-fury", 0) if a_effects else 0) + (
                    a_tactic.get("extra_exchange", 0) if a_tactic else 0
                )
                n_extra = (
                    t.extra_exchanges + bonus + (1 if t.brutish_charge and attacker.charged else 0)
                )
                if routed and not t.brutish_charge:
                    n_extra = 0  # War fury ceases in rout
                if n_extra < extra_round:
                    continue
                dice = fighters
            else:
                fierce = g.fierce_left
                if fighters <= 0 and not fierce:
                    continue
                dice = fighters * g.dice_each
            profile = g.profile
            att = 0 if routed else profile.att + att_bonus
            strength = profile.str_ + str_bonus
            if a_lowered:
                att += t.lower_def_att
                strength += t.lower_def_str
            if g.plain:
                a_shift = base_a_shift
            else:
                att, strength, dice, a_shift = self._special_attacks(
                    g, mutagenic, extra, routed, fighters, dice, att, strength, base_a_shift, d_def
                )
            reroll = t.attack_reroll or grace
            if counter_face:
                dice_box.index = i
                attacks, ones = self.attack_roll(_column(table, att - d_def, a_shift, reroll), dice)
                buffer, i = dice_box.buffer, dice_box.index
                counter_dice += ones
            else:
                cdf = contest_cdf(table, att - d_def, dice, a_shift, reroll)
                if i >= len(buffer):
                    buffer = dice_box.buffer = dice_box.rng.random(_BLOCK).tolist()
                    i = 0
                attacks = bisect_right(cdf, buffer[i])
                i += 1
                if attacks >= len(cdf) - 1:
                    attacks = len(cdf) - 1
            if fierce:
                # Eliminated Fierce (or one-level Possessed) fighters strike with ATT 0.
                dice_box.index = i
                attacks += dice_box.from_cdf(contest_cdf(table, 0 - d_def, fierce * g.dice_each, a_shift, reroll))
                buffer, i = dice_box.buffer, dice_box.index
            if survival_face:
                dice_box.index = i
                attacks = self.survival_thinning(defender, attacks)
                buffer, i = dice_box.buffer, dice_box.index
            if attacks:
                cdf = contest_cdf(table, strength - d_res, attacks, base_w_shift, grace)
                if i >= len(buffer):
                    buffer = dice_box.buffer = dice_box.rng.random(_BLOCK).tolist()
                    i = 0
                k = bisect_right(cdf, buffer[i])
                i += 1
                total += k if k < len(cdf) - 1 else len(cdf) - 1
        dice_box.index = i
        if total:
            # (defender.current_formation == "scattered", inlined)
            killed = self.deal(
                attacker, defender, total, d_contact,
                not (defender.formation == "close" and defender.count >= 5 and defender.state != "rout"),
            )  # fmt: skip
            if a_effects and a_effects.get("anger"):
                self.deal(defender, attacker, total, attacker.count, True)  # Divine anger
        else:
            killed = 0  # (deal() of no Wounds does nothing)
        if counter_dice and defender.alive and attacker.alive:
            self.counter_attack(defender, attacker, counter_dice)
        if killed:
            self.logging and self.say(
                f"  {attacker.name} inflicts {total} Wounds on {defender.name}: {killed} eliminated"
            )
        return total

    @staticmethod
    def _special_attacks(
        g: Group, mutagenic: dict[Group, int] | None, extra: bool, routed: bool, fighters: int, dice: int, att: int, strength: int,
        a_shift: int, d_def: int,
    ) -> tuple[int, int, int, int]:  # fmt: skip
        """(ATT, STR, dice, attack shift) of a group with a trait that changes its attacks (not plain)."""
        t = g.traits
        profile = g.profile
        if t.possessed and g.wound_levels > 1 and g.count == 1:
            att += g.damage
            strength += g.damage
        if t.concentration and not extra:
            att += t.concentration
        if t.mutagenic is not None and mutagenic and g in mutagenic:
            att += mutagenic[g]
        if t.sequence and not extra and not routed:
            seq = max(0, min(t.sequence, att - 1 - d_def))
            dice += seq * fighters
            att -= seq
        if t.master_strike is not None and not routed:
            a_shift -= 1
            strength += min(att, profile.att) + t.master_strike
        return att, strength, dice, a_shift

    def counter_attack(self, defender: Fighting, attacker: Fighting, dice: int) -> None:
        g = defender.troops
        att, strength = g.profile.att, g.profile.str_
        attacks = self.dice.from_cdf(_contest_cdf(self.table, att - attacker.stat("def"), dice, 0))
        if attacks:
            wounds = self.dice.from_cdf(
                _contest_cdf(
                    self.table,
                    strength - attacker.stat("res"),
                    attacks,
                    self.wound_shift_against(attacker),
                )
            )
            self.deal(
                defender,
                attacker,
                wounds,
                attacker.count,
                attacker.current_formation == "scattered",
            )
            self.logging and self.say(f"  {defender.name} counter-attacks with {dice} dice: {wounds} Wounds")

    def fray(self, a: Fighting, b: Fighting, implacable: bool = False) -> tuple[int, int]:
        """One combat between two units: Initiative, exchange, extra exchanges."""
        # contact(a, b) and contact(b, a), each front computed once (front(), inlined)
        na, nb = a.count, b.count
        if a.formation == "close" and na >= 5 and a.state != "rout":
            fa = (na + 1) // 2 if na > 2 * CLOSE_MIN_FRONT else CLOSE_MIN_FRONT
        else:
            fa = na
        if b.formation == "close" and nb >= 5 and b.state != "rout":
            fb = (nb + 1) // 2 if nb > 2 * CLOSE_MIN_FRONT else CLOSE_MIN_FRONT
        else:
            fb = nb
        # (min()/max() written out: builtin calls cost more than the tests)
        if na:
            n = 2 * (fb if fb > 1 else 1) + 1
            if fa < n:
                n = fa
            share = len(a.engaged) or 1
            ca = -(-n // share)  # ceil(n / share), exact on integers
            if ca < 1:
                ca = 1
        else:
            ca = 0
        if nb:
            n = 2 * (fa if fa > 1 else 1) + 1
            if fb < n:
                n = fb
            share = len(b.engaged) or 1
            cb = -(-n // share)
            if cb < 1:
                cb = 1
        else:
            cb = 0
        # The fray's state goes to strike() as arguments (no per-fray dicts): DEF lowered, Mutagenic.
        # Lower DEF to 0 for the Bravery/Righteous/Fanaticism bonus when DEF is worth little.
        t = a.troops.traits
        la = bool((t.lower_def_att or t.lower_def_str) and a.stat("def") <= 1 and a.state != "rout")
        t = b.troops.traits
        lb = bool((t.lower_def_att or t.lower_def_str) and b.stat("def") <= 1 and b.state != "rout")
        mutagenic: dict[Group, int] | None = None
        for u in (a, b):
            if not u.round_effects or not u.round_effects.get("mutagenic"):
                continue  # (nothing else follows in this loop)
            if mutagenic is None:
                mutagenic = {}
            for g in u.groups:
                if g.count and g.traits.mutagenic is not None:
                    roll = self.dice.d6()
                    bonus = 0 if roll == 1 else roll + g.traits.mutagenic
                    mutagenic[g] = max(0, min(bonus, 2 + max(g.traits.mutagenic, 0)))
        ini_a = 0 if a.state == "rout" else a.stat("ini")
        ini_b = 0 if b.state == "rout" else b.stat("ini")
        if not implacable:
            if a.charge_bonus:
                ini_a += 3
            if b.charge_bonus:
                ini_b += 3
        # self.dice.chance(), inlined
        dice = self.dice
        i = dice.index
        buffer = dice.buffer
        if i >= len(buffer):
            buffer = dice.buffer = dice.rng.random(_BLOCK).tolist()
            i = 0
        dice.index = i + 1
        a_first = buffer[i] < _opposed_p(ini_a, ini_b, a.side == self.winner_of_roll)
        if a_first:
            first, second, c1, c2, l1, l2 = a, b, ca, cb, la, lb
        else:
            first, second, c1, c2, l1, l2 = b, a, cb, ca, lb, la
        strike = self._strike
        w1 = strike(first, second, c1, c2, l1, l2, mutagenic)
        w2 = strike(second, first, c2, c1, l2, l1, mutagenic)
        # Extra exchanges: War fury, Born killer, Brutish charge... one die per fighter.
        effects, tactic = a.round_effects, a.tactic
        bonus = (effects.get("war-fury", 0) if effects else 0) + (tactic.get("extra_exchange", 0) if tactic else 0)
        ea = self._extra_exchanges(a, bonus) if bonus or a.extra_traits else 0
        effects, tactic = b.round_effects, b.tactic
        bonus = (effects.get("war-fury", 0) if effects else 0) + (tactic.get("extra_exchange", 0) if tactic else 0)
        eb = self._extra_exchanges(b, bonus) if bonus or b.extra_traits else 0
        if ea or eb:
            e_first, e_second = (ea, eb) if a_first else (eb, ea)
            for r in range(1, (ea if ea > eb else eb) + 1):
                if not (first.alive and second.alive):
                    break
                if e_first >= r:
                    w1 += strike(first, second, c1, c2, l1, l2, mutagenic, True, r)
                if e_second >= r and second.alive and first.alive:
                    w2 += strike(second, first, c2, c1, l2, l1, mutagenic, True, r)
        return (w1, w2) if a_first else (w2, w1)

    @staticmethod
    def _extra_exchanges(u: Fighting, bonus: int) -> int:
        """Extra exchanges of a unit in a fray (the most of its live groups; *bonus*: War fury, tactic)."""
        most = 0
        for g in u.groups:
            if g.count:
                n = g.traits.extra_exchanges + (1 if g.traits.brutish_charge and u.charged else 0) + bonus
                if n > most:
                    most = n
        return most

    def outcome(self, a: Fighting, b: Fighting, wa: int, wb: int) -> None:
        """Outcome of the fray: more Wounds wins (ties: winner of the tactical roll); morale roll."""
        self.logging and self.say(f"fray {a.name} vs {b.name}: {wa} Wounds dealt, {wb} taken")
        if not a.alive or not b.alive:
            return
        if wa != wb:
            winner, loser = (a, b) if wa > wb else (b, a)
        else:
            winner, loser = (a, b) if a.side == self.winner_of_roll else (b, a)
        self.morale(winner, loser)

    def morale_difficulty(self, winner: Fighting, loser: Fighting) -> int:
        # (winner.frightening and not loser.frightening, inlined)
        lower = 1 if winner.troops.profile.fear is not None and loser.troops.profile.fear is None else 0
        balance = balance_of_power(
            loser.power(loser.charged, loser.was_charged), winner.power(winner.charged, winner.was_charged)
        )
        if self.outcome_rows:
            return _row_value(self.outcome_rows, balance, lower)
        order = [3, 2, 1, -2, -3]
        return (4, 6, 8, 10, 12)[min(order.index(balance) + lower, 4)]

    def morale(self, winner: Fighting, loser: Fighting) -> None:
        if loser.state == "rout" or loser.all_have("auto_morale"):
            return
        difficulty = self.morale_difficulty(winner, loser)
        tactic = loser.tactic
        value = loser.cou_value + loser.cou_bonus + (tactic.get("courage", 0) if tactic else 0)
        if loser.formation == "close" and loser.count >= 5:  # current_formation == "close" (not routed here)
            value = max(value, loser.dis_value + loser.dis_bonus + (tactic.get("discipline", 0) if tactic else 0))
        ones_fail = not loser.all_have("morale_no_auto_fail")
        if self.test(value, difficulty, loser.best_of, ones_fail):
            return
        if loser.all_have("fanaticism") and self.test(
            loser.dis_value + loser.dis_bonus, difficulty, loser.best_of
        ):
            loser.state = "rout"  # routed, but does not flee
            self.logging and self.say(f"{loser.name} loses the fray; fanaticism keeps it in place (routed)")
            return
        self.logging and self.say(f"{loser.name} loses the fray (COU {value} vs {difficulty}) and routs")
        loser.state = "rout"
        self.kill_in_contact(loser, winner)
        if loser.alive:
            self.flee(loser)

    def combat(self) -> None:
        """Frays in order: the tactical roll's winner picks first, then in turn (largest first)."""
        keyed = []  # (-(points of both), discovery order, a, b): a stable sort on the points, written out
        enemies = self.sides[1]
        for u in self.sides[0]:
            if u.engaged:
                for j in sorted(u.engaged) if len(u.engaged) > 1 else u.engaged:
                    e = enemies[j]
                    keyed.append((-(u.points + e.points), len(keyed), u, e))  # points_alive(), inlined
        if not keyed:
            return
        keyed.sort()
        results = []
        for _, _, a, b in keyed:
            if a.alive and b.alive and b.index in a.engaged:
                wa, wb = self.fray(a, b)
                results.append((a, b, wa, wb))
        for a, b, wa, wb in results:
            self.outcome(a, b, wa, wb)
        # Implacable/X: new combats after pushing on, for fighters that caused a loss.
        for a, b, wa, wb in results:
            if not (a.implacable or b.implacable):
                continue  # (the usual case: nothing below would run)
            for unit, foe, dealt in ((a, b, wa), (b, a, wb)):
                x = unit.implacable
                for _ in range(x):
                    if not dealt or not unit.fighting:
                        break
                    target = foe if foe.alive and foe.index in unit.engaged else None
                    if target is None:
                        near = [
                            e
                            for e in self.sides[1 - unit.side]
                            if e.alive and self.distance(unit, e) <= unit.mov
                        ]
                        target = min(near, key=lambda e: self.distance(unit, e)) if near else None
                    if target is None:
                        break
                    self.logging and self.say(f"{unit.name} is implacable and strikes {target.name} again")
                    w_unit, _ = self.fray(unit, target, implacable=True)
                    dealt = w_unit

    def maintenance(self) -> None:
        """Fierce removals, Regeneration/X, Reinforcement; formations checked."""
        # Only the units in _upkeep can have a group with lost, fierce_left, reinforcements or a
        # Regenerating wounded fighter, or no fighter left without being gone (deal() adds every unit
        # it touches): for the others the loop below changes nothing and rolls no die.
        upkeep = self._upkeep
        if not upkeep:
            return
        keep: set[Fighting] = set()
        for side in (0, 1):
            for u in self.sides[side]:
                if u not in upkeep:
                    continue
                changed = False  # a count changed (recount() is kept in step with counts elsewhere)
                for g in u.groups:
                    if not (g.lost or g.damage or g.fierce_left or g.reinforcements):
                        continue
                    g.fierce_left = 0
                    x = g.traits.regeneration
                    if x and u.count > 0 and (g.lost or g.damage):
                        back = self.dice.regenerations(g.lost, x)
                        healed = g.damage and self.dice.d6() >= x
                        if healed:
                            g.damage = max(0, g.damage - (2 if self.dice.d6() >= x else 1))
                        if back:
                            g.count += back
                            changed = True
                            self.scores[1 - side] -= back * g.cost
                            self.logging and self.say(f"{back} {g.profile.name} regenerate")
                    if g.traits.reinforcement and g.lost:
                        g.reinforcements += g.lost
                    if g.reinforcements and u.alive and self.dice.d6() >= 5:
                        g.count += g.reinforcements
                        changed = True
                        self.scores[1 - side] -= g.reinforcements * g.cost
                        self.logging and self.say(f"{g.reinforcements} {g.profile.name} return as reinforcements")
                        g.reinforcements = 0
                    g.lost = 0
                    if g.reinforcements or (g.damage and x):
                        keep.add(u)  # something left to do at the next maintenance
                if changed:
                    u.recount()
                if u.count == 0 and u.state != "gone":
                    u.state = "gone"
                    self.break_contacts(u)
        self._upkeep = keep

    # -- the whole game -------------------------------------------------------

    def standing(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[side] if u.alive and u.state != "rout"]

    def any_standing(self, side: int) -> bool:
        for u in self.sides[side]:
            if u.alive and u.state != "rout":
                return True
        return False

    def play(self) -> GameRecord:
        rounds = 0
        for rounds in range(1, self.max_rounds + 1):
            self.round = rounds
            self.field_effects = {}
            self._expected = {}
            self._gains = {}
            self.logging and self.say(f"— round {rounds} —")
            self.update_leadership()
            points = self.tactical_roll()
            points = self.give_orders(points)
            self.buy_and_give_tactics(points)
            self.rally()
            self.mutagenic_dice()
            self.activation()
            self.combat()
            self.mystic_phase()
            self.maintenance()
            if not self.any_standing(0) or not self.any_standing(1):
                break
        # Units still routing at the end count as routed (their A.P. to the enemy).
        for side in (0, 1):
            for u in self.sides[side]:
                if u.alive and u.state == "rout":
                    self.scores[1 - side] += u.points_alive()
        costs = []
        for side in (0, 1):
            # The list's total cost, once per template (its units' costs are fixed).
            info = self.info[side]
            total = info.get("total_cost")
            if total is None:
                total = info["total_cost"] = sum(u.cost for u in self.sides[side])
            costs.append(total)
        margin = DRAW_MARGIN * max(costs + [1])
        gap = self.scores[0] - self.scores[1]
        winner = None if abs(gap) < margin else (0 if gap > 0 else 1)
        standing = [self.any_standing(0), self.any_standing(1)]
        if standing[0] and not standing[1]:
            winner = 0
        elif standing[1] and not standing[0]:
            winner = 1
        self.logging and self.say(
            f"end after {rounds} rounds: A.P. eliminated or routed {self.scores[0]:g} vs {self.scores[1]:g}; "
            + ("draw" if winner is None else f"side {winner + 1} wins")
        )
        records = [
            UnitRecord(u.side, u.name, float(u.cost), u.alive and u.state != "rout", u.kills)
            for side in (0, 1)
            for u in self.sides[side]
        ]
        return GameRecord(winner, rounds, (self.scores[0], self.scores[1]), records, self.lines)

    def mutagenic_dice(self) -> None:
        """One Mutagenic die per 500 A.P. section of Mutagenic fighters, each to one unit."""
        for side in (0, 1):
            if not self.info[side].get("mutagenic", True):
                continue  # no Mutagenic fighter in the list at all
            units = [
                u for u in self.sides[side] if u.alive and u.troops.traits.mutagenic is not None
            ]
            if not units:
                continue
            points = sum(u.points_alive() for u in units)
            dice = math.ceil(points / 500)
            for u in sorted(units, key=lambda u: (not u.engaged, u.order != "assault"))[:dice]:
                u.round_effects["mutagenic"] = 1


# --------------------------------------------------------------------------- ritual and communion hooks


@dataclass(frozen=True)
class MysticEffect:
    """A named ritual/communion effect: who it targets and what it does on the battlefield."""

    id: str
    summary: str
    choose: Callable[[Battle, Fighting, float], Fighting | None]
    apply: Callable[[Battle, Fighting, Fighting], None]


def _enemy_in_range(
    pick: Callable[[Fighting], float],
) -> Callable[[Battle, Fighting, float], Fighting | None]:
    def choose(b: Battle, u: Fighting, reach: float) -> Fighting | None:
        foes = [
            e
            for e in b.sides[1 - u.side]
            if e.alive and e.state != "rout" and b.distance(u, e) <= reach
        ]
        return max(foes, key=pick) if foes else None

    return choose


def _friend_in_range(
    pick: Callable[[Fighting], float],
) -> Callable[[Battle, Fighting, float], Fighting | None]:
    def choose(b: Battle, u: Fighting, reach: float) -> Fighting | None:
        friends = [
            f
            for f in b.sides[u.side]
            if f.alive and f.state != "rout" and b.distance(u, f) <= reach
        ]
        friends = [f for f in friends if pick(f) > 0]
        return max(friends, key=pick) if friends else None

    return choose


def _insensitive(b: Battle, target: Fighting) -> bool:
    xs = [g.traits.insensitive for g in target.groups if g.count]
    return bool(xs) and all(xs) and b.dice.d6() >= max(x for x in xs if x)


def _column_of_light(b: Battle, u: Fighting, target: Fighting) -> None:
    if _insensitive(b, target):
        return
    hit = min(target.count, TEMPLATE_FIGHTERS[target.current_formation])
    wounds = b.dice.from_cdf(
        _contest_cdf(b.table, 4 - target.stat("res"), hit, b.wound_shift_against(target))
    )
    killed = b.deal(u, target, wounds, hit, False)
    b.logging and b.say(f"  the column of light strikes {hit} {target.name}: {killed} eliminated")


def _terror(b: Battle, u: Fighting, target: Fighting) -> None:
    if _insensitive(b, target):
        return
    target.state = "rout"
    b.logging and b.say(f"  {target.name} is in Rout")
    if not target.engaged and not target.activated:
        b.flee(target)


def _galvanise(b: Battle, u: Fighting, target: Fighting) -> None:
    target.round_effects["war-fury"] = 1
    b.logging and b.say(f"  {target.name} gains War fury")


def _downpour(b: Battle, u: Fighting, target: Fighting) -> None:
    b.field_effects["downpour"] = 1


def _divine_anger(b: Battle, u: Fighting, target: Fighting) -> None:
    if not _insensitive(b, target):
        target.round_effects["anger"] = 1


def _divine_grace(b: Battle, u: Fighting, target: Fighting) -> None:
    target.round_effects["grace"] = 1


def _divine_hospice(b: Battle, u: Fighting, target: Fighting) -> None:
    g = target.troops
    lost = (target.start_count - target.count) if g is target.groups[0] else 0
    back = min(lost, u.faith // max(g.power_each, 1))
    if back:
        u.faith -= back * g.power_each
        g.count += back
        target.recount()
        b.scores[1 - target.side] -= back * g.cost
        b.logging and b.say(f"  {back} {g.profile.name} come back")


def _divine_arsenal(b: Battle, u: Fighting, target: Fighting) -> None:
    # Sacred weapon (Destruction) for units about to fight; sacred armour otherwise.
    # Provisional reading: +1 STR or +1 RES (the card text is not in the seed).
    key = "str" if target.engaged or target.order == "assault" else "res"
    target.round_effects[key] = target.round_effects.get(key, 0) + 1


def _weakness(b: Battle, u: Fighting, target: Fighting) -> None:
    if not _insensitive(b, target):
        target.round_effects["def"] = -target.troops.profile.def_


RITUAL_EFFECTS: dict[str, MysticEffect] = {
    e.id: e
    for e in (
        MysticEffect(
            "column-of-light",
            "template: Wound roll STR 4 on the fighters under it",
            _enemy_in_range(lambda e: e.count),
            _column_of_light,
        ),
        MysticEffect(
            "terror",
            "the target unit is in Rout",
            _enemy_in_range(lambda e: e.points_alive() * (not e.all_have("fear_immune"))),
            _terror,
        ),
        MysticEffect(
            "igneous-galvanisation",
            "the target unit gains War fury (one extra exchange)",
            _friend_in_range(
                lambda f: f.points_alive() * (bool(f.engaged) or f.order == "assault")
            ),
            _galvanise,
        ),
        MysticEffect(
            "downpour",
            "medium and long range shots fail this round",
            lambda b, u, r: (
                u if any(b.shooters(e) for e in b.sides[1 - u.side] if e.alive) else None
            ),
            _downpour,
        ),
    )
}  # teleportation and telluric manipulation move units or terrain: no effect on the abstract field.

COMMUNION_EFFECTS: dict[str, MysticEffect] = {
    e.id: e
    for e in (
        MysticEffect(
            "divine-anger",
            "the target suffers the Wounds it inflicts",
            _enemy_in_range(lambda e: e.points_alive() * bool(e.engaged)),
            _divine_anger,
        ),
        MysticEffect(
            "divine-grace",
            "the target re-rolls its failed dice once",
            _friend_in_range(
                lambda f: f.points_alive() * (bool(f.engaged) or f.order == "assault")
            ),
            _divine_grace,
        ),
        MysticEffect(
            "divine-hospice",
            "eliminated troops come back (T.F. = their Power)",
            _friend_in_range(lambda f: f.start_count - f.count),
            _divine_hospice,
        ),
        MysticEffect(
            "divine-arsenal",
            "sacred weapon (+1 STR) or armour (+1 RES), provisional reading",
            _friend_in_range(lambda f: f.points_alive()),
            _divine_arsenal,
        ),
        MysticEffect(
            "weakness",
            "the target's DEF is 0",
            _enemy_in_range(lambda e: e.points_alive() * bool(e.engaged)),
            _weakness,
        ),
    )
}  # oracle-of-destiny only reveals orders: no effect for this AI.


def play_game(
    cat: Catalogue,
    first: R2List,
    second: R2List,
    rng: np.random.Generator,
    log: bool = False,
    rounds: int = MAX_ROUNDS,
) -> GameRecord:
    """One simulated game; all randomness from *rng*."""
    return Battle(cat, first, second, rng, log, rounds).play()
