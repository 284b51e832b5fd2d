"""Schema of the Ragnarok (Morpheus Engine) catalogue.

Warrior types, armour, shields, weapons, abilities and God powers are the output
of :mod:`armybuilder.systems.morpheus.importer` run on the BattleScribe reference
data; formats and the rules tables (opposed rolls ME-D1, success stages, action
costs, charge, clash, cover, terrain) are written by hand beside them, because the
reference data does not hold them.  Figures the project had to assume are flagged
``provisional`` (tables) or listed in ``assigned`` (warrior fields, CAT-D1).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import CatalogModel, Catalogue, Decision, Strict

# ability references and the models' methods: shared with the plain mirrors (plain.py)
from .entries import MECatalogMethods, WeaponMethods
from .entries import ability_args as ability_args
from .entries import ability_id as ability_id
from .entries import ability_value as ability_value

AbilityKind = Literal["special", "attack", "status", "area"]

class Provisional(Strict):
    provisional: bool = False
    decision: str = ""
    source: str = ""


# --------------------------------------------------------------------------- formats


class MEFormat(Strict):
    """A format preset: the ME-D2 war-clan limits are data, so a later version may change them."""

    id: str
    name: str
    limit: int
    unit: str = "Glory"
    default: bool = False
    min_models: int = 7
    max_models: int = 12
    jarls: int = 1
    max_armour: int = 1
    max_shields: int = 1
    max_weapons: int = 3
    max_items: int = 5
    max_god_powers: int = 3
    source: str = ""


# --------------------------------------------------------------------------- entries


class Ability(Strict):
    id: str
    name: str
    kind: AbilityKind = "special"
    takes_value: bool = False  # written "(x)"
    takes_stat: bool = False  # written "(Stat)"
    text: str  # our own summary
    source: str


class WarriorType(Strict):
    id: str
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
    hp: int
    size: int = 2
    jarl: bool = False  # may lead the clan as its Jarl
    max_per_clan: int | None = None
    abilities: list[str] = Field(default_factory=list)  # "tactician/12"
    assigned: list[str] = Field(default_factory=list)  # fields set by the project (CAT-D1)
    source: str = ""


class Armour(Strict):
    id: str
    name: str
    cost: int
    rs: int
    special: str = ""
    source: str = ""


class Shield(Strict):
    id: str
    name: str
    cost: int
    overwhelm_size: int = 2  # extra Size against an enemy trying to Overwhelm
    source: str = ""


class Weapon(WeaponMethods, Strict):
    id: str
    name: str
    cost: int
    st: int
    range: str  # "ML", "MR" or inches as text
    kind: Literal["melee", "ranged"]
    abilities: list[str] = Field(default_factory=list)
    no_shield: bool = False  # no shield bonus while fighting with it (ME-D3: carrying both is legal)
    source: str = ""


class Item(Strict):
    """Other equipment (none in the reference data yet; ME-D2 allows 5 per warrior)."""

    id: str
    name: str
    cost: int
    text: str = ""
    source: str = ""


class Boost(Strict):
    cost: int
    effect: str  # short figure, e.g. "RN +6"


class PowerAttack(Strict):
    st: int | None = None
    range: int
    abilities: list[str] = Field(default_factory=list)


class GodPower(Strict):
    id: str
    name: str
    number: str  # reference numbering "1.11"
    group: int  # second digit group of the numbering: powers of one god
    godspark: int
    boosts: list[Boost] = Field(default_factory=list)
    attack: PowerAttack | None = None
    grants: list[str] = Field(default_factory=list)  # abilities the power gives
    text: str  # our own summary
    source: str = ""


# --------------------------------------------------------------------------- tables


class OpposedTable(Provisional):
    """ME-D1: 2d6 against TN = base - (X - Y)."""

    dice: int = 2
    sides: int = 6
    base: int = 7
    fixed_note: str = ""
    natural_rules: str = ""
    rules: list[str] = Field(default_factory=list)


class DamageSteps(Provisional):
    """Damage = 1 + stages // step, by ability (ME-D1)."""

    normal: int = 3
    savage: int = 2
    lethal: int = 1


class ActionCost(Strict):
    id: str
    name: str
    ap: int
    text: str
    source: str = ""


class Modifier(Strict):
    name: str
    effect: str
    source: str = ""


class TerrainKeyword(Strict):
    id: str
    name: str
    text: str
    source: str = ""


class Term(Strict):
    """A word of the prints' glossary that is not an ability (what "imprinted" means)."""

    id: str
    name: str
    text: str
    source: str = ""


class Engine(Provisional):
    """Assumptions of the simulator that the seed does not settle."""

    rounds: int = 6
    board: int = 48  # square board, inches
    deployment_depth: int = 6
    godspark_start: int = 0
    godspark_per_round: int = 3
    power_rounds: int = 1  # rounds a God power lasts
    notes: list[str] = Field(default_factory=list)


class Tables(Strict):
    opposed: OpposedTable | None = None
    damage: DamageSteps | None = None
    actions: list[ActionCost] = Field(default_factory=list)
    charge: list[Modifier] = Field(default_factory=list)
    clash: list[str] = Field(default_factory=list)
    overwhelm: list[Modifier] = Field(default_factory=list)
    prone: list[Modifier] = Field(default_factory=list)
    cover: list[Modifier] = Field(default_factory=list)
    ranged: list[Modifier] = Field(default_factory=list)
    terrain: list[TerrainKeyword] = Field(default_factory=list)
    terms: list[Term] = Field(default_factory=list)
    engine: Engine | None = None


class MECatalog(MECatalogMethods, CatalogModel):
    formats: list[MEFormat] = Field(default_factory=list)
    warriors: list[WarriorType] = Field(default_factory=list)
    armour: list[Armour] = Field(default_factory=list)
    shields: list[Shield] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    items: list[Item] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)
    god_powers: list[GodPower] = Field(default_factory=list)
    tables: Tables = Field(default_factory=Tables)
    decisions: list[Decision] = Field(default_factory=list)


MECat = Catalogue[MECatalog]
"""A resolved catalogue of this system, its ``data`` typed."""
