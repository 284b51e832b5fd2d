"""The small synthetic Rag'Narok 2 catalogue the rule, PDF and editor tests share.

Each rule can be broken on its own on it, and its figures are known, so tests can
assert exact costs.  Imported by basename (``from synthetic_r2 import ...``): the
root tests/conftest.py puts tests/ on ``sys.path``; this name is used by no other
test module.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from armybuilder.core.catalog import CatalogueSource
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.catalog import R2Catalog

STATS = "mov: 10, ini: 3, att: 3, str: 3, def: 3, res: 3, cou: 5, dis: 3"

CATALOGUE = {
    "catalogue.yaml": """
        id: ragnarok2-test
        system: ragnarok2
        name: Test catalogue
        version: 1.0.0
        date: '2026-01-01'
        summary: synthetic data for the rule tests
    """,
    "data.yaml": f"""
        formats:
          - {{id: 1000-ap, name: 1000 A.P., limit: 1000, default: true}}
        ranks:
          - {{id: irregular, name: Irregular, category: 1, scheme: support}}
          - {{id: regular, name: Regular, category: 1, scheme: army-corps}}
          - {{id: veteran, name: Veteran, category: 2, scheme: army-corps}}
          - {{id: elite, name: Elite, category: 3, scheme: shock-troops}}
          - {{id: special, name: Special, category: 3, scheme: shock-troops}}
          - {{id: creature, name: Creature, category: 2, scheme: support}}
          - {{id: hero, name: Hero, category: 3}}
          - {{id: living-legend, name: Living legend, category: 4}}
          - {{id: artillery, name: Special (Artillery), category: 3, scheme: support}}
        peoples:
          - {{id: lions, name: Lions, alliance: Light, formation: close}}
          - {{id: wolves, name: Wolves, alliance: Destiny, formation: scattered}}
        abilities:
          - {{id: leadership, name: Leadership, takes_value: true, text: commands, source: test}}
        restrictions: []
        tactics:
          - {{id: wall, name: Wall, condition: close formation, pros: p, cons: c, formation: close}}
          - {{id: elite-only, name: Elite charge, condition: rank 3, pros: p, cons: c, min_rank_category: 3}}
        communions:
          - {{id: grace, name: Grace, cult: Universal, fervor: 10, aspects: [alteration], text: t, power: 4, source: test}}
          - {{id: dark-gift, name: Dark gift, cult: Darkness, fervor: 10, aspects: [destruction], text: t, power: 2, source: test}}
        miracles:
          - {{id: blessing, name: Blessing, cults: [Light], fervor: 3, aspects: [creation], text: t, source: test}}
          - {{id: no-fervor, name: Small prayer, cults: [Light], aspects: [], text: t, source: test}}
        rituals:
          - {{id: column, name: Column of light, path: Primagy, mana: 10, element: Light, difficulty: 10, target: Template, range: 50 cm, duration: Instant, text: t, power: 10, source: test}}
          - {{id: terror, name: Terror, path: Primagy, mana: 15, element: Darkness, difficulty: 12, target: Unit, range: 30 cm, duration: Special, text: t, power: 15, source: test}}
        tables:
          army_scheme:
            rows:
              - {{category: army-corps, name: Army corps, regiment: [5, 20], horde: [3, 12]}}
              - {{category: shock-troops, name: Shock troops, regiment: [3, 12], horde: [1, 6]}}
              - {{category: support, name: Support, regiment: [1, 10], horde: [1, 6]}}
        profiles:
          - {{id: spearman, name: Spearman, people: lions, rank: regular, size: medium, cost: 10, {STATS}}}
          - {{id: veteran, name: Veteran, people: lions, rank: veteran, size: medium, cost: 14, {STATS}}}
          - {{id: knight, name: Knight, people: lions, rank: elite, size: large, cost: 30, {STATS}}}
          - {{id: ogre, name: Ogre, people: lions, rank: creature, size: large, cost: 55, {STATS}}}
          - {{id: ballista, name: Ballista, people: lions, rank: artillery, size: large, cost: 130, roles: [war-machine], {STATS}}}
          - {{id: captain, name: Captain, people: lions, rank: veteran, size: medium, cost: 40, roles: [commander, leader], abilities: [leadership/10], {STATS}}}
          - {{id: sergeant, name: Sergeant, people: lions, rank: regular, size: medium, cost: 20, roles: [leader], {STATS}}}
          - {{id: musician, name: Musician, people: lions, rank: regular, size: medium, cost: 15, roles: [musician], {STATS}}}
          - {{id: bearer, name: Standard bearer, people: lions, rank: regular, size: medium, cost: 15, roles: [standard-bearer], {STATS}}}
          - {{id: hero, name: Hero, people: lions, rank: living-legend, size: medium, cost: 120, roles: [character, incarnate, commander, living-legend], abilities: [leadership/20], {STATS}}}
          - {{id: legend-bearer, name: Legendary bearer, people: lions, rank: living-legend, size: medium, cost: 90, roles: [character, standard-bearer, living-legend], {STATS}}}
          - {{id: squire, name: Squire, people: lions, rank: regular, size: medium, cost: 30, roles: [character], {STATS}}}
          - {{id: mage, name: Mage, people: lions, rank: hero, size: medium, cost: 60, roles: [character, magician], power: 3, elements: [Light], initiation_rank: 2, {STATS}}}
          - {{id: battle-mage, name: Battle mage, people: lions, rank: living-legend, size: medium, cost: 70, roles: [character, magician, warrior-mage], power: 2, elements: [Light], initiation_rank: 1, {STATS}}}
          - {{id: priest, name: Priest, people: lions, rank: hero, size: medium, cost: 50, roles: [character, faithful], aspects: {{alteration: 1, creation: 2, destruction: 0}}, cult: Light, {STATS}}}
          - {{id: golem, name: Golem, people: lions, rank: regular, size: large, cost: 35, roles: [independent, construct], {STATS}}}
          - {{id: battle-toad, name: Battle toad, people: lions, rank: regular, size: small, cost: 12, roles: [independent], {STATS}}}
          - {{id: wolf, name: Wolf warrior, people: wolves, rank: regular, size: medium, cost: 12, {STATS}}}
          - {{id: wolf-chief, name: Wolf chief, people: wolves, rank: veteran, size: medium, cost: 45, roles: [commander, leader], abilities: [leadership/10], {STATS}}}
    """,
}

#: an errata on top of 1.0.0: toads never lead, spearmen cost more, the ogre is retired
ERRATA_1_1_0 = """
        version: 1.1.0
        date: '2026-02-01'
        summary: toads never lead; spearmen cost more; the ogre is retired
        source: test
        operations:
          - op: add
            path: restrictions
            value: {id: toad, match: battle toad, slot: independent, can_lead: false, text: the battle toad never leads, source: FAQ}
          - {op: set, path: 'profiles[spearman].cost', value: 11}
          - {op: remove, path: 'profiles[ogre]'}
    """


def write_catalogue(folder: Path, files: dict[str, str]) -> CatalogueSource:
    """Write ``files`` (relative path → indented YAML text) below ``folder``; its source."""
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return CatalogueSource("ragnarok2", R2Catalog, folder)


def legal_army(name: str = "Lions of the Dawn") -> R2List:
    """490 A.P.: two army-corps units (one with a complete war staff) and one of shock troops."""
    return R2List(
        catalogue="1.0.0",
        format="1000-ap",
        name=name,
        people="lions",
        units=[
            Unit(
                troops=Troops(profile="spearman", count=10),
                members=[
                    Member(profile="captain", leader=True, commander_in_chief=True),
                    Member(profile="musician"),
                    Member(profile="bearer"),
                ],
            ),
            Unit(troops=Troops(profile="spearman", count=8), members=[Member(profile="hero")]),
            Unit(troops=Troops(profile="knight", count=4)),
        ],
        tactics=["wall"],
    )
