"""A synthetic Rag'Narok 2 catalogue with the tables the engine reads (imported by engine tests).

Profiles are named after the seed's worked examples (Griffin conscripts, morbid
puppets, tyrant of Vile-Tis, orc brutes, Cynwäll asadars, marauders of Vile-Tis,
brontops riders, Griffin fusiliers...), with characteristics chosen for the
tests (the seed gives only the ones its examples use).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from armybuilder.core.catalog import Catalogue, CatalogueSource
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.catalog import R2Catalog

S = "mov: 10, ini: 3, att: 3, str: 3, def: 3, res: 3, cou: 5, dis: 3"

DATA = f"""
formats:
  - {{id: 1000-ap, name: 1000 A.P., limit: 1000, default: true}}
ranks:
  - {{id: irregular, name: Irregular, category: 1, scheme: support}}
  - {{id: regular, name: Regular, category: 1, scheme: army-corps}}
  - {{id: veteran, name: Veteran, category: 2, scheme: army-corps}}
  - {{id: elite, name: Elite, category: 3, scheme: shock-troops}}
  - {{id: creature, name: Creature, category: 2, scheme: support}}
  - {{id: living-legend, name: Living legend, category: 4}}
peoples:
  - {{id: griffin, name: Griffin, alliance: Light, formation: close}}
  - {{id: beasts, name: Beasts, alliance: Destiny, formation: scattered}}
tactics:
  - {{id: brutality, name: Brutality, condition: assaulting unit, pros: p, cons: c, effects: {{attack_shift: 1}}, cons_effects: {{defense: -1}}}}
  - {{id: unfailing-wall, name: Unfailing wall, condition: close, pros: p, cons: c, formation: close, effects: {{defense_shift: 1, courage: 2}}}}
  - {{id: rallying, name: Rallying, condition: any, pros: p, cons: c, effects: {{rally: 3}}}}
rituals:
  - {{id: terror, name: Terror, path: Primagy, mana: 15, element: Darkness, difficulty: 12, target: Unit, range: 30 cm, duration: Special, text: t, power: 15, source: test}}
  - {{id: column-of-light, name: Column of light, path: Primagy, mana: 10, element: Light, difficulty: 10, target: Template, range: 50 cm, duration: Instant, text: t, power: 10, source: test}}
communions:
  - {{id: divine-grace, name: Divine grace, cult: Universal, fervor: 10, aspects: [alteration], difficulty: 8, target: Unit, range: 50 cm, duration: Sustain/2, text: t, power: 16, source: test}}
tables:
  contest:
    provisional: true
    decision: R2-D1
    columns:
      - {{label: "≤-13", low: null, high: -13, result: "6*", success: 6, halved: true}}
      - {{label: "-12..-8", low: -12, high: -8, result: "6", success: 6}}
      - {{label: "-7..-4", low: -7, high: -4, result: "5+", success: 5}}
      - {{label: "-3..-2", low: -3, high: -2, result: "4+", success: 4}}
      - {{label: "-1..+1", low: -1, high: 1, result: "3+", success: 3}}
      - {{label: "+2..+3", low: 2, high: 3, result: "2+", success: 2}}
      - {{label: "+4..+7", low: 4, high: 7, result: "2+/5", success: 2, reroll_from: 5}}
      - {{label: "+8..+12", low: 8, high: 12, result: "2+/4", success: 2, reroll_from: 4}}
      - {{label: "≥+13", low: 13, high: null, result: "2+/3", success: 2, reroll_from: 3}}
  tactical:
    rows:
      - {{label: Failure, low: null, high: 0, points: [0, 1, 2, 3]}}
      - {{label: 1-5, low: 1, high: 5, points: [1, 3, 5, 7]}}
      - {{label: 6-10, low: 6, high: 10, points: [2, 4, 6, 8]}}
      - {{label: 11-15, low: 11, high: 15, points: [3, 5, 7, 9]}}
      - {{label: 16-20, low: 16, high: 20, points: [4, 6, 8, 10]}}
      - {{label: 21+, low: 21, high: null, points: [5, 7, 9, 11]}}
  sizes:
    - {{size: small, name: Small, power: 1, wound_levels: 1}}
    - {{size: medium, name: Medium, power: 1, wound_levels: 1}}
    - {{size: large, name: Large, power: 2, wound_levels: 2}}
    - {{size: enormous, name: Enormous, power: 3, wound_levels: 2}}
    - {{size: colossal, name: Colossal, power: 4, wound_levels: 2}}
    - {{size: gigantic, name: Gigantic, power: 5, wound_levels: 2}}
  outcome_of_fray:
    - {{balance: 3 to 1, ratio: 3, value: 4}}
    - {{balance: 2 to 1, ratio: 2, value: 6}}
    - {{balance: 1 to 1, ratio: 1, value: 8}}
    - {{balance: 1 to 2, ratio: -2, value: 10}}
    - {{balance: 1 to 3, ratio: -3, value: 12}}
  fear_balance:
    - {{balance: 3 to 1, ratio: 3, value: 3}}
    - {{balance: 2 to 1, ratio: 2, value: 2}}
    - {{balance: 1 to 1, ratio: 1, value: 0}}
    - {{balance: 1 to 2, ratio: -2, value: -2}}
    - {{balance: 1 to 3, ratio: -3, value: -3}}
  shooting:
    ranges: [{{band: short, difficulty: 4}}, {{band: medium, difficulty: 7}}, {{band: long, difficulty: 10}}]
    modifiers:
      - {{id: moved, condition: moved, modifier: 1}}
      - {{id: other-level, condition: level, modifier: 2}}
      - {{id: partially-visible, condition: partial, modifier: 1}}
      - {{id: large, condition: Large, modifier: -1}}
      - {{id: very-large, condition: Very Large, modifier: -2}}
profiles:
  - {{id: conscript, name: Griffin conscript, people: griffin, rank: regular, size: medium, cost: 8, mov: 10, ini: 2, att: 2, str: 3, def: 2, res: 3, cou: 4, dis: 2}}
  - {{id: fusilier, name: Griffin fusilier, people: griffin, rank: regular, size: medium, cost: 14, mov: 10, ini: 2, att: 1, str: 3, def: 2, res: 3, aim: 3, cou: 4, dis: 3, ranged: {{name: arquebus, strength: 6, short: 20, medium: 40, long: 60}}}}
  - {{id: hunter, name: Darkness hunter, people: griffin, rank: veteran, size: medium, cost: 40, roles: [character, marksman], mov: 10, ini: 4, att: 4, str: 4, def: 3, res: 4, aim: 4, cou: 6, dis: 4, ranged: {{name: pistol, strength: 5, short: 10, medium: 20, long: 30}}}}
  - {{id: templar, name: Templar, people: griffin, rank: living-legend, size: medium, cost: 150, roles: [character, incarnate, commander, leader], abilities: [leadership/20], mov: 10, ini: 5, att: 6, str: 6, def: 5, res: 6, cou: 7, dis: 6}}
  - {{id: brontops, name: Brontops rider, people: beasts, rank: elite, size: large, cost: 60, mov: 15, ini: 1, att: 4, str: 8, def: 3, res: 8, fear: 6, dis: 2}}
  - {{id: puppet, name: Morbid puppet, people: beasts, rank: regular, size: small, cost: 5, abilities: [living-dead], mov: 10, ini: 1, att: 1, str: 1, def: 0, res: 2, fear: 2, dis: 0}}
  - {{id: tyrant, name: Tyrant of Vile-Tis, people: beasts, rank: creature, size: large, cost: 45, mov: 15, ini: 3, att: 5, str: 11, def: 3, res: 8, fear: 7, dis: 2}}
  - {{id: brute, name: Orc brute, people: beasts, rank: veteran, size: medium, cost: 15, mov: 10, ini: 2, att: 3, str: 5, def: 2, res: 6, cou: 5, dis: 2}}
  - {{id: asadar, name: Cynwäll asadar, people: griffin, rank: elite, size: medium, cost: 22, mov: 10, ini: 4, att: 4, str: 5, def: 4, res: 4, cou: 6, dis: 5}}
  - {{id: marauder, name: Marauder of Vile-Tis, people: beasts, rank: elite, size: large, cost: 30, mov: 15, ini: 2, att: 3, str: 6, def: 2, res: 6, fear: 5, dis: 1}}
  - {{id: chief, name: Beast chief, people: beasts, rank: veteran, size: medium, cost: 45, roles: [commander, leader], abilities: [leadership/15], {S}}}
  - {{id: warlord, name: Shaka Morkhai, people: beasts, rank: veteran, size: large, cost: 60, roles: [character], {S}}}
  - {{id: warrior, name: Beast warrior, people: beasts, rank: regular, size: medium, cost: 10, {S}}}
  - {{id: mage, name: Dark mage, people: beasts, rank: veteran, size: medium, cost: 50, roles: [character, magician], power: 4, elements: [Darkness, Light], path: Primagy, {S}}}
  - {{id: priest, name: Priest, people: griffin, rank: veteran, size: medium, cost: 50, roles: [character, faithful], aspects: {{alteration: 3, creation: 1, destruction: 1}}, cult: Light, faith_rank: zealot, {S}}}
"""


def build_catalogue(folder: Path) -> Catalogue:
    """Write the catalogue into *folder* and resolve it."""
    files = {
        "catalogue.yaml": """
            id: ragnarok2-engine-test
            system: ragnarok2
            name: Engine test catalogue
            version: 1.0.0
            date: '2026-01-01'
            summary: synthetic data for the engine tests
        """,
        "data.yaml": DATA,
    }
    for rel, text in files.items():
        (folder / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    return CatalogueSource("ragnarok2", R2Catalog, folder).resolve("1.0.0")


def engine_army(people: str, *units, rituals=(), communions=()) -> R2List:
    """A list from compact specs: (troop profile, count, member profiles...) per unit."""
    return R2List(
        catalogue="1.0.0", format="1000-ap", name="t", people=people,
        units=[
            Unit(troops=Troops(profile=p, count=n) if n else None, members=[Member(profile=m) for m in ms])
            for p, n, *ms in units
        ],
        rituals=list(rituals), communions=list(communions),
    )  # fmt: skip
