"""Schema of the Rag'Narok 2 catalogue.

Figures come from the seeds and the Confrontation reference data; the rank, size
and role fields the reference data lacks are assigned by this project and listed in
``assigned`` on each profile (CAT-D1), so ``catalog check`` can show them and a
later catalogue version can correct them one by one.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from armybuilder.core.catalog import CatalogModel, Catalogue, Decision, Strict

# the models' methods: shared with their plain mirrors (plain.py), which validation reads
from .entries import AspectsMethods, MiracleMethods, ProfileMethods, R2CatalogMethods

Formation = Literal["close", "scattered"]
SchemeCategory = Literal["army-corps", "shock-troops", "support"]
Size = Literal["small", "medium", "large", "enormous", "colossal", "gigantic"]
Role = Literal[
    "character",  # a Character (unlimited per unit, +1 combat die)
    "incarnate",  # Incarnate Character: 4 Wound levels
    "living-legend",
    "commander",  # has Leadership/X and is neither musician nor standard bearer
    "musician",
    "standard-bearer",
    "leader",  # may lead a unit (R2-D5 restrictions still apply)
    "independent",  # an independent of another kind (one per unit)
    "magician",
    "warrior-mage",
    "faithful",
    "warrior-monk",
    "war-machine",  # artillery rules: support, counts in the war-machine share
    "construct",
    "living-dead",
    "familiar",
    "marksman",
]

# --------------------------------------------------------------------------- tables


class Provisional(Strict):
    provisional: bool = False
    decision: str = ""  # rules-decisions id, e.g. "R2-D1"
    source: str = ""


class ContestColumn(Strict):
    label: str  # "+4..+7"
    low: int | None  # inclusive bounds of (attacker - defender); None = open
    high: int | None
    result: str  # as printed: "2+/5", "6*"
    success: int  # minimum natural result
    reroll_from: int = 6  # natural results from which a die is rolled again
    halved: bool = False  # threshold of impossible: successes halved, rounded up


class ContestTable(Provisional):
    columns: list[ContestColumn]
    rules: list[str] = Field(default_factory=list)  # own-words reminders for the sheet


class TacticalRow(Strict):
    label: str  # "Failure", "1-5", ..., "21+"
    low: int | None
    high: int | None
    points: list[int]  # index 0..3 = Leadership points 1..4 (0 where the seed prints "-")


class TacticalTable(Provisional):
    rows: list[TacticalRow]
    tactic_cost: int = 2
    per_complete_war_staff: int = 1


class SchemeRow(Strict):
    category: SchemeCategory
    name: str
    regiment: tuple[int, int]  # (min, max) fighters, close-formation peoples
    horde: tuple[int, int]  # scattered peoples


class ArmyScheme(Provisional):
    rows: list[SchemeRow]
    solo_unit_cost: int = 50  # a profile worth this much may form a unit alone (FAQ)


class SizeRow(Strict):
    size: Size
    name: str
    power: int
    wound_levels: int


class BalanceRow(Strict):
    balance: str  # "3 to 1"
    ratio: int  # 3, 2, 1, -2, -3 (negative: the unit is the weaker side)
    value: int  # COU difficulty, or Fear modifier


class RangeBand(Strict):
    band: Literal["short", "medium", "long"]
    difficulty: int


class Modifier(Strict):
    id: str
    condition: str
    modifier: int


class ShootingTable(Provisional):
    ranges: list[RangeBand]
    modifiers: list[Modifier]


class MovementRow(Strict):
    action: str
    multiplier: float  # of MOV, in cm


class Action(Strict):
    id: str
    name: str
    condition: str = ""
    test: str = ""
    text: str = ""


class Order(Strict):
    id: str
    name: str
    text: str = ""
    actions: list[Action]


class Phase(Strict):
    id: str
    name: str
    steps: list[str]


class BaseSize(Strict):
    """A kind of base and the fighters that stand on it (decision R2-T3)."""

    id: str  # infantry, cavalry, creature, large-creature
    name: str
    width: float  # cm, across the fighter's facing
    depth: float  # cm, along it
    sizes: list[Size]  # the Sizes whose fighters stand on it
    mounted: bool = False  # for riders only (a mounted fighter of these Sizes)
    assails: int = 1  # opponents on infantry or cavalry bases it can assail at once (seed: Movement during an assault)


class SceneryKind(Strict):
    """A kind of scenery a layout places: its footprint, height and whether units pass it."""

    id: str
    name: str
    shape: Literal["rect", "round"] = "rect"  # a round piece stands on its square
    width: float  # cm
    depth: float
    height: float  # cm: its Size for line of sight (R2-D10)
    impassable: bool = True  # units bypass it (seed: The obstacles)
    text: str = ""


class BattlefieldTable(Provisional):
    """The table the battle is played on (project decisions R2-T1 to R2-T6: the seed names no size)."""

    width: float = 180.0  # cm, along the armies' edges
    depth: float = 120.0  # cm, from one army's edge to the other's
    deployment_depth: float = 20.0  # each army deploys within this distance of its own edge
    scout_distance: float = 10.0  # seed: Scout (deployed no nearer an enemy; hidden beyond)
    coherence: float = 2.5  # seed: Formations (fighters no more than 2.5 cm apart)
    scattered_gap: float = 1.0  # cm between the bases of a scattered unit at rest
    close_min_files: int = 5  # files of a close unit (R2-T4)
    scenery_gap: float = 8.0  # cm kept free between two pieces a layout scatters
    no_mans_land: float = 15.0  # cm a scattered piece keeps from the deployment zones
    bases: list[BaseSize] = Field(default_factory=list)
    mounted_words: list[str] = Field(default_factory=list)  # a Large profile named so rides (R2-T3)
    mounted_profiles: list[str] = Field(default_factory=list)  # riders whose names do not say so
    scenery: list[SceneryKind] = Field(default_factory=list)
    layout: str = "standard"  # the layout a playtest plays unless told


class MysticRule(Strict):
    """A rule of the mystics a player looks up at the table (mana, casting, Temporary Faith,
    calling), summarised in the project's words: a text and, for a procedure, its steps."""

    id: str
    title: str
    text: str = ""
    steps: list[str] = Field(default_factory=list)
    source: str = ""


class Tables(Strict):
    contest: ContestTable | None = None
    tactical: TacticalTable | None = None
    army_scheme: ArmyScheme | None = None
    sizes: list[SizeRow] = Field(default_factory=list)
    incarnate_wound_levels: int = 4
    #: one more for a warrior-mage or warrior-monk Character, once (FAQ: II.3); see health.py
    mystic_warrior_wound_levels: int = 1
    outcome_of_fray: list[BalanceRow] = Field(default_factory=list)  # loser's COU difficulty
    fear_balance: list[BalanceRow] = Field(default_factory=list)  # Fear modifier
    shooting: ShootingTable | None = None
    movement: list[MovementRow] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    phases: list[Phase] = Field(default_factory=list)
    faith_recovery: dict[str, int] = Field(default_factory=dict)  # devout: 1, zealot: 2...
    mystic_rules: list[MysticRule] = Field(default_factory=list)  # the sheets' mystics pages
    familiar_cost: int = 0
    battlefield: BattlefieldTable | None = None
    # Source of each table field above that has no ``source`` of its own (the lists and
    # mappings), keyed by field name: "sizes" → "seed: The fighters / Power".
    sources: dict[str, str] = Field(default_factory=dict)


# --------------------------------------------------------------------------- entries


class R2Format(Strict):
    id: str
    name: str
    limit: int
    unit: str = "A.P."
    default: bool = False
    character_share: int = 50  # % of the limit (R2-D7, FAQ)
    war_machine_share: int = 25
    source: str = ""


class Rank(Strict):
    id: str
    name: str
    category: int = Field(ge=1, le=4)  # rank category, also the tactical table column
    scheme: SchemeCategory | None = None  # army-scheme category of a unit of such troops


class People(Strict):
    id: str
    name: str
    alliance: str
    formation: Formation
    source: str = ""
    note: str = ""
    aliases: list[str] = Field(default_factory=list)


class Ability(Strict):
    """Glossary entry of an ability or mystic skill, in this project's own words.

    ``provisional``: the seeds name the ability without defining it, and ``text`` is the
    project's reading under ``decision`` (a catalogue decision), printed as provisional.
    """

    id: str
    name: str
    kind: Literal["passive", "active", "mystic", "other"] = "passive"
    takes_value: bool = False  # written "Name/X"
    text: str
    source: str
    aliases: list[str] = Field(default_factory=list)
    provisional: bool = False
    decision: str = ""


class Aspects(AspectsMethods, Strict):
    alteration: int = 0
    creation: int = 0
    destruction: int = 0


class RangedWeapon(Strict):
    name: str
    strength: int
    short: int  # cm
    medium: int
    long: int


class ProfileOption(Strict):
    id: str
    name: str
    cost: int  # A.P. per fighter
    text: str = ""
    source: str = ""
    grants: list[str] = Field(default_factory=list)  # ability strings


class Profile(ProfileMethods, Strict):
    id: str
    name: str
    people: str
    rank: str  # Rank id
    size: Size
    roles: list[Role] = Field(default_factory=list)
    cost: int  # A.P. per fighter
    mov: int | float  # cm; the reference data has half steps (7.5, 12.5, 17.5)
    ini: int
    att: int
    str_: int = Field(alias="str")
    def_: int = Field(alias="def")
    res: int
    aim: int | None = None
    cou: int | None = None
    fear: int | None = None
    dis: int
    power: int | None = None  # magician Power (POW)
    elements: list[str] = Field(default_factory=list)
    path: str | None = None
    initiation_rank: int | None = None  # familiars allowed
    aspects: Aspects | None = None  # faithful
    cult: str | None = None
    faith_rank: str | None = None  # devout / zealot / dean / avatar
    abilities: list[str] = Field(default_factory=list)  # "bravery", "leadership/15"
    ranged: RangedWeapon | None = None
    options: list[ProfileOption] = Field(default_factory=list)
    assigned: list[str] = Field(default_factory=list)  # fields assigned by the project (CAT-D1)
    source: str = ""
    note: str = ""  # for the player: clan, cult, other paths, flight, card remarks (printed)
    #: for the catalogue's keepers: what the reference lacked or misprinted and what the
    #: project did (CAT-D1); ``catalog check -v`` lists it, no print shows it
    data_note: str = ""


TacticEffect = Literal[
    "attack_shift",  # columns right (+) for the unit's attack rolls
    "wound_shift",  # columns right (+) for the unit's Wound rolls
    "defense_shift",  # columns left for enemy attack rolls against the unit (+1 = one column left)
    "toughness_shift",  # columns left for enemy Wound rolls against the unit
    "initiative",  # added to the final result of its Initiative tests
    "courage",  # added to the final result of its Courage tests and morale rolls
    "discipline",  # added to the final result of its Discipline tests
    "rally",  # added to its rallying test; the tactic may go to a Disorganized or routed unit
    "power",  # added to the unit's Power for the balance of Power
    "movement",  # cm added to its MOV
    "extra_exchange",  # extra exchanges for all its fighters
    "attack",  # added to ATT
    "defense",  # added to DEF
    "strength",  # added to STR
    "resistance",  # added to RES
    "to_enemy",  # 1: the tactic is given to an enemy unit (its effects then hurt that unit)
    "order",  # 1: the unit receives an order without spending a tactical point
    "no_run",  # 1: the unit may not Run this round
    "no_charge",  # 1: the unit may not charge (Assault) this round
    "change_order",  # 1: when activated, the unit may reveal any other order than the one it was given
]
TACTIC_EFFECT_KEYS: tuple[str, ...] = get_args(TacticEffect)


class Tactic(Strict):
    id: str
    name: str
    condition: str
    pros: str
    cons: str
    provisional: bool = False
    decision: str = ""
    source: str = ""
    # Machine-readable condition, checked against the army at build time (R2-D9).
    min_rank_category: int | None = None
    formation: Formation | None = None
    scheme: SchemeCategory | None = None
    min_effective: int | None = None
    orders: list[Literal["progress", "assault", "support", "reaction"]] = Field(default_factory=list)  # the unit received one of these (none: any)
    # What the battle simulator applies to a unit holding the tactic this round:
    # ``effects`` are the pros, ``cons_effects`` the cons (only rank I units, i.e.
    # rank category 1, suffer them).  Keys: see TacticEffect.
    effects: dict[TacticEffect, int] = Field(default_factory=dict)
    cons_effects: dict[TacticEffect, int] = Field(default_factory=dict)


class Communion(Strict):
    id: str
    name: str
    cult: str
    fervor: int  # T.F. cost to call
    aspects: list[str]
    difficulty: int | None = None
    target: str = ""
    range: str = ""
    duration: str = ""
    text: str
    power: int  # litany budget cost during army building (R2-D8)
    source: str


class Miracle(MiracleMethods, Strict):
    id: str
    name: str
    cults: list[str] = Field(default_factory=list)
    fervor: int | None = None  # None → 2 for the litany budget (R2-D8)
    aspects: list[str] = Field(default_factory=list)
    difficulty: str = ""
    text: str = ""
    source: str = ""


class Ritual(Strict):
    id: str
    name: str
    path: str
    mana: int
    element: str
    difficulty: int
    target: str
    range: str
    duration: str
    text: str
    power: int  # A.P. during army building (R2-D8)
    source: str


class Restriction(Strict):
    """A rule about profiles matched by name, e.g. the FAQ's battle toad (never a leader)."""

    id: str
    match: str  # case-insensitive fragment of a profile name
    slot: Literal["commander", "musician", "standard-bearer", "character", "independent"] | None = None
    can_lead: bool | None = None
    text: str
    source: str


class LayoutPiece(Strict):
    """A piece of scenery set on the table at a place: its kind (or its own footprint and height)."""

    kind: str = ""  # a SceneryKind id of the battlefield table ("" : width, depth and height given here)
    name: str = ""
    x: float  # cm from the table's left edge (seen from the first army's edge) to the piece's centre
    y: float  # cm from the first army's edge
    angle: float = 0.0  # degrees, turning the piece's depth axis from the first army's edge toward the right
    width: float | None = Field(default=None, gt=0)
    depth: float | None = Field(default=None, gt=0)
    height: float | None = Field(default=None, ge=0)
    shape: Literal["rect", "round"] | None = None
    impassable: bool | None = None


class ScatterPiece(Strict):
    """Pieces of a kind placed afresh for each game, at random in the no man's land."""

    kind: str
    count: int = Field(default=1, ge=1, le=24)


class Layout(Strict):
    """A table layout: pieces set at fixed places and pieces scattered afresh each game."""

    id: str
    name: str
    text: str = ""
    pieces: list[LayoutPiece] = Field(default_factory=list)
    scatter: list[ScatterPiece] = Field(default_factory=list)
    source: str = ""
    decision: str = ""


class R2Catalog(R2CatalogMethods, CatalogModel):
    formats: list[R2Format] = Field(default_factory=list)
    ranks: list[Rank] = Field(default_factory=list)
    peoples: list[People] = Field(default_factory=list)
    profiles: list[Profile] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)
    tactics: list[Tactic] = Field(default_factory=list)
    communions: list[Communion] = Field(default_factory=list)
    miracles: list[Miracle] = Field(default_factory=list)
    rituals: list[Ritual] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    restrictions: list[Restriction] = Field(default_factory=list)
    layouts: list[Layout] = Field(default_factory=list)
    tables: Tables = Field(default_factory=Tables)
    notes: list[str] = Field(default_factory=list)


R2Cat = Catalogue[R2Catalog]
"""A resolved catalogue of this system, its ``data`` typed."""
