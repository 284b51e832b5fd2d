"""Schema of the Rattle and Rend catalogue (seed: Rattle and Rend, Alpha #02).

Everything a rule or the engine reads is data: group stats and costs, which
secondary trait a group type must take, the format's limits (12 points, 4–8 groups,
≥ 4 points of Fighters, Shooters and Skirmishers), the check dice (1/2/3 d20), the
scenario, deployment and terrain tables.  Names the seed misspells or renames are
kept as ``aliases`` (RR-D3) so a list written with the seed's spelling still loads
through :meth:`RRCatalog.canonical`.

Stats are *target numbers*: a check succeeds when a d20 shows the stat or more, so
a lower stat is better.  ``None`` means the group has no such stat (a Ward has no
MOV, Fury or Guile).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import CatalogModel, Catalogue, Decision, Strict

# range bands and the catalogue's methods: shared with the plain mirrors (plain.py)
from .entries import BANDS as BANDS
from .entries import Band as Band
from .entries import RRCatalogMethods
from .entries import band_plus as band_plus

Stat = Literal["fury", "guile", "will"]
TraitKind = Literal["champion-action", "heavy-trait", "warding-reaction"]


class Sourced(Strict):
    source: str = ""
    provisional: bool = False
    decision: str = ""  # rules-decisions id, e.g. "RR-D3"
    aliases: list[str] = Field(default_factory=list)


class RRFormat(Strict):
    id: str
    name: str
    limit: int
    unit: str = "points"
    default: bool = False
    min_groups: int = 4
    max_groups: int = 8
    line_types: list[str] = Field(default_factory=lambda: ["fighters", "shooters", "skirmishers"])
    min_line_points: int = 4
    traits: int = 2  # distinct warband traits to choose
    drives: int = 1
    source: str = ""


class GroupType(Sourced):
    """A group type: cost, base, stats and its one standard reaction."""

    id: str
    name: str
    cost: int
    base: str
    mov: Band | None
    rng: Band | None
    fury: int | None
    guile: int | None
    will: int | None
    reaction: str  # id in ``reactions``
    trait: TraitKind | None = None  # the secondary trait the type must take (RR-D1)
    can_attach: bool = False  # a Champion may join another group
    attach_targets: list[str] = Field(default_factory=list)  # group type ids
    takes_actions: bool = True  # Wards never act
    text: str = ""


class Action(Sourced):
    """A standard or champion action; ``movement`` is the band moved before the effect."""

    id: str
    name: str
    kind: Literal["standard", "champion"]
    movement: Literal["none", "mov", "mov+1", "optional"]
    check: Stat | None = None
    penalty: bool = False  # the check is made with a penalty
    summary: str  # one line, for pick lists
    effect: str
    critical: str = ""
    requires: str = ""  # "ward": only with a Ward in the warband


class Reaction(Sourced):
    """A standard reaction (one per group type) or a warding reaction (a Ward's trait)."""

    id: str
    name: str
    kind: Literal["standard", "warding"]
    check: Stat | None = None
    summary: str
    trigger: str
    effect: str
    critical: str = ""


class HeavyTrait(Sourced):
    id: str
    name: str
    summary: str
    text: str
    mov: Band | None = None  # the Heavy's MOV becomes this band
    targets: int = 1  # enemy groups attacked by one attack (Colossal: 3)
    transport: int = 0  # points of the warband it may carry


class WarbandTrait(Sourced):
    """A warband trait; ``stat_modifiers`` are what the engine applies throughout a game."""

    id: str
    name: str
    summary: str
    text: str
    stat_modifiers: list[StatModifier] = Field(default_factory=list)
    transport: int = 0  # Riders: every Heavy carries this many points
    transport_trait: int = 0  # Riders: a Transport Heavy carries this many points


class StatModifier(Strict):
    stat: Stat | Literal["mov", "rng"]
    delta: int  # target number change (−2 is better) or range bands (+1)
    group_types: list[str] = Field(default_factory=list)  # empty: all groups


class Drive(Sourced):
    id: str
    name: str
    question: str
    setup: str


class RollEntry(Sourced):
    """One row of a d20 table (scenarios, deployments, terrain density)."""

    id: str
    name: str
    low: int = Field(ge=1, le=20)
    high: int = Field(ge=1, le=20)
    text: str


class Scenario(RollEntry):
    setup: str = ""
    victory: str = ""
    rounds: int | None = None  # scored at the end of this round; None: play until one side is gone
    default: bool = False


class TerrainType(Sourced):
    id: str
    name: str
    examples: str
    text: str
    exit_cost: int = 0  # momentum paid to leave instead of a check
    exit_check: Stat | None = None


class RangeBand(Strict):
    band: Band
    name: str
    distance_mm: int  # upper end of the band, centre to centre
    pivots: int = 0  # pivots a move of this band may make


class CheckDice(Strict):
    standard: int = 2
    penalty: int = 1
    bonus: int = 3
    critical_dice: int = 2  # dice at or above the stat for a critical success


class WillResult(Sourced):
    id: str  # fail / success / critical
    name: str
    text: str


class StatInfo(Sourced):
    id: Stat | Literal["mov", "rng"]
    name: str
    text: str


class Tables(Strict):
    check_dice: CheckDice | None = None
    ranges: list[RangeBand] = Field(default_factory=list)
    stats: list[StatInfo] = Field(default_factory=list)
    will_results: list[WillResult] = Field(default_factory=list)
    momentum: list[str] = Field(default_factory=list)  # own-words reminders (RR-D2)
    action_costs: list[int] = Field(default_factory=list)  # 1st, 2nd, 3rd action of a group
    initiative_bid: tuple[int, int] = (0, 5)
    morale_threshold: int = 6  # warband morale when total momentum first drops to this
    board_mm: int = 400
    attack_modifiers: list[str] = Field(default_factory=list)
    round_limit: int = 6  # the engine's cap for a scenario with no round count (project choice)


class RRCatalog(RRCatalogMethods, CatalogModel):
    formats: list[RRFormat] = Field(default_factory=list)
    group_types: list[GroupType] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    reactions: list[Reaction] = Field(default_factory=list)
    heavy_traits: list[HeavyTrait] = Field(default_factory=list)
    warband_traits: list[WarbandTrait] = Field(default_factory=list)
    drives: list[Drive] = Field(default_factory=list)
    scenarios: list[Scenario] = Field(default_factory=list)
    deployments: list[RollEntry] = Field(default_factory=list)
    terrain_densities: list[RollEntry] = Field(default_factory=list)
    terrain_types: list[TerrainType] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    tables: Tables = Field(default_factory=Tables)
    notes: list[str] = Field(default_factory=list)


WarbandTrait.model_rebuild()


RRCat = Catalogue[RRCatalog]
"""A resolved catalogue of this system, its ``data`` typed."""
