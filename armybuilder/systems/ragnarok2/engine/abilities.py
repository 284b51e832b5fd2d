"""Abilities and mystic skills as named, data-driven hooks.

A profile lists its abilities as data (``"war-fury"``, ``"regeneration/5"``,
``"master-strike/2"``, options' ``grants`` included).  Each ability id with a game
effect in the seeds has one hook here: a small function that sets fields of the
fighter's :class:`Traits` (computed once per profile and catalogue, so the battle
simulator reads plain attributes in its hot loops).  The engine never tests an
ability name itself; it reads traits.  An ability id without a hook is kept in
``Traits.unhandled`` (the playtest can list them) instead of being ignored silently.

Where a seed glyph was lost (the die faces of Brutal, Counter-attack, Survival
instinct), the hook documents the reading used; these readings are parameters
of the hook, not scattered constants.

Abilities whose effect needs geometry this engine does not model (Consciousness:
line of sight; Scout: hidden units; Concentration/Mutagenic only raise
characteristics the AI spends on ATT) are still hooks, with the abstraction
stated in their summary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["Traits", "Hook", "HOOKS", "traits_of", "SEED_ABILITIES", "SEED_MYSTIC_SKILLS"]


@dataclass
class Traits:
    """What a fighter's abilities change, as plain fields read by the engine."""

    # combat
    extra_exchanges: int = 0  # War fury, Born killer
    brutish_charge: bool = False  # +1 extra exchange after a successful charge
    attack_reroll: str = ""  # "ones" (Brutal): a first natural 1 on an attack die is rolled again
    charge_power: int = 0  # Power added per fighter when it charges (Brutal)
    charged_power: int = 0  # Power added per fighter when it is charged (Hard boiled)
    wound_shift_against: int = 0  # columns applied to Wound rolls against it (Hard boiled: -1)
    lower_def_att: int = 0  # ATT bonus when lowering DEF to 0 (Bravery, Righteous)
    lower_def_str: int = 0  # STR bonus when lowering DEF to 0 (Fanaticism)
    master_strike: int | None = None  # X of Master strike/X
    sequence: int = 0  # max extra combat dice (Sequence/X: -1 ATT and DEF each)
    counter_attack_face: int = 0  # natural result of an enemy attack die giving a counter die
    fierce: bool = False  # keeps fighting (ATT/DEF/INI 0) until the maintenance phase
    possessed: bool = False  # 1 WL: like Fierce for the exchange; several WL: +ATT/+STR per WL lost
    implacable: int = 0  # new combats after pushing on, X times a round
    survival_face: int = 0  # each Wound roll against it is cancelled on this natural result or more
    regeneration: int | None = None  # X of Regeneration/X
    reinforcement: bool = False
    concentration: int = 0  # points a round, spent on ATT by the AI
    mutagenic: int | None = None  # X of Mutagenic/X
    assault_fire: bool = False
    # morale and fear
    fear_immune: bool = False  # Living dead, Righteous (Immunity/Fear)
    auto_morale: bool = False  # automatically succeeds morale rolls
    morale_no_auto_fail: bool = False  # a natural 1 does not fail morale rolls (Bravery, Born killer)
    morale_reroll_ones: bool = False  # Bravery: a 1 on a morale roll is rolled again
    fanaticism: bool = False  # failed Courage/morale: second try with DIS
    born_killer: bool = False  # no Courage test when its FEAR >= the opponent's
    dis_zero: bool = False  # Living dead: DIS counts as 0
    frightening: bool = False  # Living dead: every fighter treats it as frightening
    leadership: int | None = None  # X of Leadership/X (cm)
    scout: bool = False  # deploys forward, hidden
    consciousness: bool = False  # acts within 20 cm without sight or field of view
    template: bool = False  # fires a template (zone artillery): no line of sight needed
    # mystics
    spirit_of: frozenset[str] = frozenset()  # Elements whose incantations ignore natural 1s
    exalted: bool = False  # divination: a 1 is not an automatic failure
    focus: bool = False  # incantation: natural 5s are rolled again
    illuminated: bool = False  # divination: natural 5s are rolled again
    warrior_mage: bool = False
    warrior_monk: bool = False
    insensitive: int | None = None  # X of Insensitive/X
    arcane_mastery: bool = False
    recuperation: int = 0  # extra mana dice per warrior
    piety: int = 0  # T.F. kept from one round to the next
    thaumaturge: bool = False
    devotion: int = 0  # gives X mana a round (suffers a STR X Wound test, RES = DIS)
    martyr: int = 0  # gives X T.F. a round (same price)
    loyal: int = 0  # counts X more in a faith aura
    iconoclast: bool = False
    # bookkeeping
    handled: frozenset[str] = frozenset()
    unhandled: frozenset[str] = frozenset()


HookFn = Callable[[Traits, int | None, str], None]


@dataclass(frozen=True)
class Hook:
    id: str
    summary: str
    source: str
    apply: HookFn = field(repr=False)


HOOKS: dict[str, Hook] = {}


def hook(ability_id: str, summary: str, source: str) -> Callable[[HookFn], HookFn]:
    def register(fn: HookFn) -> HookFn:
        HOOKS[ability_id] = Hook(ability_id, summary, source, fn)
        return fn

    return register


G = "seed: generic rules, Abilities"
M = "seed: mystics, Mystic Skills"


def _value(value: int | None, default: int) -> int:
    return default if value is None or value == 0 else value


# --------------------------------------------------------------------------- combat


@hook("heavy-zone-artillery", "fires a template: its Wound rolls reach fighters the crew cannot see (no line of sight needed)", "seed: Shooting (template weapons); FAQ: XVII.2")
def _zone_artillery(t: Traits, value: int | None, raw: str) -> None:
    t.template = True


HOOKS["light-zone-artillery"] = Hook("light-zone-artillery", HOOKS["heavy-zone-artillery"].summary, HOOKS["heavy-zone-artillery"].source, _zone_artillery)


@hook("war-fury", "one extra exchange (ceases if the fighter routs)", "seed: generic rules, Extra exchanges")
def _war_fury(t: Traits, value: int | None, raw: str) -> None:
    t.extra_exchanges += 1


@hook("born-killer", "extra exchange; no Courage test against a FEAR not above its own; 1 does not fail morale", G)
def _born_killer(t: Traits, value: int | None, raw: str) -> None:
    t.extra_exchanges += 1
    t.born_killer = True
    t.morale_no_auto_fail = True


@hook("brutish-charge", "one extra exchange in a round it charged", G)
def _brutish_charge(t: Traits, value: int | None, raw: str) -> None:
    t.brutish_charge = True


@hook("brutal", "a natural 1 on its attack dice is rolled again once (glyph lost: read as 1); +1 Power per fighter when it charges", G)
def _brutal(t: Traits, value: int | None, raw: str) -> None:
    t.attack_reroll = "ones"
    t.charge_power += 1


@hook("bravery", "1 does not fail morale rolls and is rolled again; +1 ATT when it lowers its DEF to 0", G)
def _bravery(t: Traits, value: int | None, raw: str) -> None:
    t.morale_no_auto_fail = True
    t.morale_reroll_ones = True
    t.lower_def_att = max(t.lower_def_att, 1)


@hook("righteous", "Immunity/Fear; automatically passes morale; +1 ATT when it lowers its DEF to 0", G)
def _righteous(t: Traits, value: int | None, raw: str) -> None:
    t.fear_immune = True
    t.auto_morale = True
    t.lower_def_att = max(t.lower_def_att, 1)


@hook("fanaticism", "failed Courage test or morale roll: second try with DIS (success: routed but does not flee); +1 STR when it lowers its DEF to 0", G)
def _fanaticism(t: Traits, value: int | None, raw: str) -> None:
    t.fanaticism = True
    t.lower_def_str = max(t.lower_def_str, 1)


@hook("hard-boiled", "Wound rolls against it are read one column to the left; +1 Power when charged", G)
def _hard_boiled(t: Traits, value: int | None, raw: str) -> None:
    t.wound_shift_against -= 1
    t.charged_power += 1


@hook("master-strike", "attack read one column left; a success wounds with STR + ATT + X", G)
def _master_strike(t: Traits, value: int | None, raw: str) -> None:
    t.master_strike = value or 0


@hook("sequence", "up to X extra combat dice, -1 ATT and -1 DEF each (X = 1 when absent)", G)
def _sequence(t: Traits, value: int | None, raw: str) -> None:
    t.sequence = _value(value, 1)


@hook("counter-attack", "each enemy attack die showing a natural 1 (glyph lost: read as 1) gives it one die to strike back", G)
def _counter_attack(t: Traits, value: int | None, raw: str) -> None:
    t.counter_attack_face = 1


@hook("fierce", "an eliminated fighter keeps fighting (INI, ATT, DEF 0) until the maintenance phase", G)
def _fierce(t: Traits, value: int | None, raw: str) -> None:
    t.fierce = True


@hook("possessed", "1 Wound level: strikes back in the exchange it falls; several: +1 ATT and STR per Wound level lost", G)
def _possessed(t: Traits, value: int | None, raw: str) -> None:
    t.possessed = True


@hook("implacable", "after a fray where it caused a loss, fights X new combats (no charge bonus, no morale)", G)
def _implacable(t: Traits, value: int | None, raw: str) -> None:
    t.implacable = _value(value, 1)


@hook("survival-instinct", "each Wound roll against it is cancelled on a 6 (glyph lost: read as 6)", G)
def _survival_instinct(t: Traits, value: int | None, raw: str) -> None:
    t.survival_face = 6


@hook("regeneration", "maintenance: each fighter wounded or eliminated this round rolls 1d6 >= X to come back with one Wound level, then may roll once more", G)
def _regeneration(t: Traits, value: int | None, raw: str) -> None:
    t.regeneration = _value(value, 5)


@hook("reinforcement", "maintenance: eliminated fighters gather off-table; on 5-6 they return as a unit (abstraction: the lost fighters return to their unit at its edge)", G)
def _reinforcement(t: Traits, value: int | None, raw: str) -> None:
    t.reinforcement = True


@hook("concentration", "X points a round to raise characteristics; the AI adds them to ATT", G)
def _concentration(t: Traits, value: int | None, raw: str) -> None:
    t.concentration = _value(value, 1)


@hook("mutagenic", "one Mutagenic die per 500 A.P. section: 1d6 + X points (1 fails), at most 2 + X per characteristic; the AI adds them to ATT", G)
def _mutagenic(t: Traits, value: int | None, raw: str) -> None:
    t.mutagenic = value or 0


@hook("assault-fire", "shoots at the target of its charge before moving, difficulty 7, no modifier", G)
def _assault_fire(t: Traits, value: int | None, raw: str) -> None:
    t.assault_fire = True


@hook("living-dead", "Immunity/Fear; frightening to all; DIS counts as 0; automatically passes morale", G)
def _living_dead(t: Traits, value: int | None, raw: str) -> None:
    t.fear_immune = True
    t.frightening = True
    t.dis_zero = True
    t.auto_morale = True


@hook("leadership", "commander: leadership aura of X cm (COU/DIS sharing, war staff bonuses, tactical roll with two dice)", "seed: generic rules, Leadership")
def _leadership(t: Traits, value: int | None, raw: str) -> None:
    t.leadership = value or 0


@hook("scout", "a unit of Scouts deploys up to 20 cm ahead of its zone and stays hidden (no target) until an enemy ends a move within 10 cm of it or it assaults or supports", G)
def _scout(t: Traits, value: int | None, raw: str) -> None:
    t.scout = True


@hook("consciousness", "within 20 cm: assaults beyond its field of view and shoots without a line of sight", G)
def _consciousness(t: Traits, value: int | None, raw: str) -> None:
    t.consciousness = True


# --------------------------------------------------------------------------- mystic skills


@hook("spirit-of", "incantations of the named Element ignore natural 1s", M)
def _spirit_of(t: Traits, value: int | None, raw: str) -> None:
    element = raw.partition("/")[2].strip().lower()
    t.spirit_of = t.spirit_of | {element}


@hook("exalted", "divination: a natural 1 is not an automatic failure", M)
def _exalted(t: Traits, value: int | None, raw: str) -> None:
    t.exalted = True


@hook("focus", "incantation: natural 5s may be rolled again", M)
def _focus(t: Traits, value: int | None, raw: str) -> None:
    t.focus = True


@hook("illuminated", "divination: natural 5s may be rolled again", M)
def _illuminated(t: Traits, value: int | None, raw: str) -> None:
    t.illuminated = True


@hook("warrior-mage", "casts under an Assault order; may improve mastery while engaged", M)
def _warrior_mage(t: Traits, value: int | None, raw: str) -> None:
    t.warrior_mage = True


@hook("warrior-monk", "calls under an Assault order; may strengthen the bond while engaged", M)
def _warrior_monk(t: Traits, value: int | None, raw: str) -> None:
    t.warrior_monk = True


@hook("insensitive", "avoids an enemy spell or miracle on 1d6 >= X (the whole unit must have it)", M)
def _insensitive(t: Traits, value: int | None, raw: str) -> None:
    t.insensitive = _value(value, 6)


@hook("arcane-mastery", "lowers its POW (not below 1) to pay missing mana", M)
def _arcane_mastery(t: Traits, value: int | None, raw: str) -> None:
    t.arcane_mastery = True


@hook("recuperation", "X more mana recovery dice", M)
def _recuperation(t: Traits, value: int | None, raw: str) -> None:
    t.recuperation = _value(value, 1)


@hook("piety", "keeps up to X T.F. from one round to the next", M)
def _piety(t: Traits, value: int | None, raw: str) -> None:
    t.piety = _value(value, 1)


@hook("thaumaturge", "its unit gains one T.F. per Wound suffered (up to the maximum reserve)", M)
def _thaumaturge(t: Traits, value: int | None, raw: str) -> None:
    t.thaumaturge = True


@hook("devotion", "gives X mana to its unit once a round, then suffers a STR X Wound roll with RES = DIS", M)
def _devotion(t: Traits, value: int | None, raw: str) -> None:
    t.devotion = _value(value, 1)


@hook("martyr", "gives X T.F. to its unit once a round, then suffers a STR X Wound roll with RES = DIS", M)
def _martyr(t: Traits, value: int | None, raw: str) -> None:
    t.martyr = _value(value, 1)


@hook("loyal", "counts X more in a faith aura (T.F. recovery)", M)
def _loyal(t: Traits, value: int | None, raw: str) -> None:
    t.loyal = _value(value, 1)


@hook("iconoclast", "enemy warriors also count in its faith aura", M)
def _iconoclast(t: Traits, value: int | None, raw: str) -> None:
    t.iconoclast = True


#: Abilities of the generic rules seed with a game effect (all have a hook).
SEED_ABILITIES = (
    "assault-fire", "born-killer", "bravery", "brutal", "brutish-charge", "concentration",
    "consciousness", "counter-attack", "fanaticism", "fierce", "hard-boiled", "implacable",
    "leadership", "living-dead", "master-strike", "mutagenic", "possessed", "regeneration",
    "reinforcement", "righteous", "scout", "sequence", "survival-instinct", "war-fury",
)  # fmt: skip
#: Mystic skills of the mystics seed (all have a hook).
SEED_MYSTIC_SKILLS = (
    "devotion", "spirit-of", "exalted", "loyal", "focus", "warrior-mage", "iconoclast",
    "illuminated", "insensitive", "arcane-mastery", "martyr", "warrior-monk", "piety",
    "recuperation", "thaumaturge",
)  # fmt: skip

# Ability ids that are roles or pure army-building notions: no battle effect to apply.
_NO_BATTLE_EFFECT = frozenset({"incarnate", "character", "immunity", "musician", "standard-bearer"})


def _parse(text: str) -> tuple[str, int | None]:
    name, _, rest = text.partition("/")
    digits = "".join(ch for ch in rest if ch.isdigit() or ch == "-")
    try:
        value = int(digits) if digits not in ("", "-") else None
    except ValueError:
        value = None
    return name.strip().lower(), value


@lru_cache(maxsize=4096)
def _traits_cached(abilities: tuple[str, ...], roles: tuple[str, ...]) -> Traits:
    t = Traits()
    handled: set[str] = set()
    unhandled: set[str] = set()
    for text in abilities:
        name, value = _parse(text)
        if name.startswith("spirit-of-"):  # "spirit-of-light" as well as "spirit-of/light"
            text, name = "spirit-of/" + name.removeprefix("spirit-of-"), "spirit-of"
        entry = HOOKS.get(name)
        if entry is None:
            if name == "immunity" and "fear" in text.lower():
                t.fear_immune = True
                handled.add(name)
            elif name not in _NO_BATTLE_EFFECT:
                unhandled.add(name)
            continue
        entry.apply(t, value, text)
        handled.add(name)
    for role in roles:  # roles that are also skills
        if role in ("warrior-mage", "warrior-monk", "living-dead") and role not in handled:
            HOOKS[role].apply(t, None, role)
            handled.add(role)
    t.handled = frozenset(handled)
    t.unhandled = frozenset(unhandled)
    return t


def traits_of(abilities: Iterable[str], roles: Iterable[str] = ()) -> Traits:
    """Traits of a fighter with these ability strings and roles (shared, do not mutate)."""
    return _traits_cached(tuple(abilities), tuple(roles))
