"""Fixtures of the PDF tests: a small synthetic Rag'Narok 2 catalogue and rosters built on it.

The catalogue is a copy of the one in tests/ragnarok2/conftest.py (conftests are not
importable across test folders) with abilities that have texts, so the glossary and the
cards have something to print.  Hostile rosters are built directly as neutral
``Roster`` objects: the PDF code only sees those shapes, whatever the system.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from armybuilder.core.catalog import CatalogueSource
from armybuilder.core.findings import Finding, Severity
from armybuilder.core.lists import list_fingerprint
from armybuilder.core.system import Card, Heading, KeyValues, Paragraph, Roster, Table
from armybuilder.systems.ragnarok2 import SYSTEM as R2
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


@pytest.fixture(scope="session")
def r2_source(tmp_path_factory) -> CatalogueSource:
    folder: Path = tmp_path_factory.mktemp("pdfcat")
    for rel, text in CATALOGUE.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return CatalogueSource("ragnarok2", R2Catalog, folder)


@pytest.fixture(scope="session")
def r2_cat(r2_source):
    return r2_source.resolve("1.0.0")


def legal_army(name: str = "Lions of the Dawn") -> R2List:
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


def illegal_army() -> R2List:
    """Two commanders-in-chief is never allowed; a lone knight unit breaks the scheme."""
    army = legal_army("Broken host")
    units = list(army.units)
    units[1] = Unit(troops=Troops(profile="spearman", count=8), members=[Member(profile="hero", commander_in_chief=True)])
    extra = [Unit(troops=Troops(profile="knight", count=3)) for _ in range(3)]
    return army.model_copy(update={"units": units + extra, "communions": ["grace"], "rituals": ["column"]})


def r2_roster(army: R2List, cat) -> Roster:
    return R2.roster(army, cat, list_fingerprint(army, cat))


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]


LONG_WORD = "Ж" + "abcdefghij" * 29 + "Ω"  # 300 characters, no space to break at
HOSTILE = ["<b>Bold & Brash</b>", "Дружина Тир-На-Бора", "Ἀχιλλεὺς ὁ Πηλεΐδης", "Tir-Nâ-Bor", LONG_WORD]


def hostile_roster(units: int = 6, legal: bool = False) -> Roster:
    """A neutral roster whose every text is hostile: markup, ampersands, scripts, huge words."""
    blocks: list = [KeyValues((("Commander-in-Chief", HOSTILE[0]), ("Army standard", HOSTILE[1]), ("Notes", LONG_WORD)))]
    blocks.append(Heading("Units", 1))
    for i in range(units):
        name = HOSTILE[i % len(HOSTILE)]
        blocks.append(Heading(f"{i + 1}. {name} — army corps, 12 fighters, {100 + i} A.P.", 2))
        blocks.append(
            Table(
                ("Fighter", "N", "A.P.", "MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "COU/FEAR", "DIS", "POW"),
                (
                    (f"{name} warrior", "10", "10×10", "10", "3", "3", "3", "3", "3", "-", "5", "3", "-"),
                    (f"Captain “{HOSTILE[(i + 1) % len(HOSTILE)]}” — leader", "1", "40", "10", "3", "3", "3", "3", "3", "-", "5", "3", "-"),
                ),
                widths=(5.2, 0.7, 1.2, *([0.8] * 10)),
            )
        )
    blocks.append(Table(("Tactic", "Condition", ""), (("Wall & <i>shield</i>", LONG_WORD, "provisional"),), title="Tactical deck", provisional=True, note="Tactic texts are provisional & <unverified>."))
    blocks.append(Paragraph("Provisional: the <contest> table is a reconstruction & may change.", "provisional"))
    blocks.append(KeyValues((("Total", f"{100 * units} / 1000 A.P."),)))
    findings = () if legal else (
        Finding("ragnarok2.hostile.one", Severity.ERROR, "the <b>army</b> has 2 commanders-in-chief & needs 1", "units[1].members[0]", "R2-D1", 12),
        Finding("ragnarok2.hostile.two", Severity.ERROR, "Ἀχιλλεὺς cannot lead Дружина", "units[0]", "seed: scheme"),
        Finding("ragnarok2.hostile.three", Severity.WARNING, LONG_WORD, "", ""),
    )
    return Roster(
        title=f"{HOSTILE[0]} {HOSTILE[1]} {HOSTILE[2]}",
        header=(("System", "Rag'Narok 2"), ("People", "Tir-Nâ-Bor & <Friends>"), ("Format", "1000 A.P."), ("Catalogue", "1.0.0 (hash 0123abcd)"), ("Fingerprint", "ABCD-EFGH-JKLM")),
        legal=legal,
        findings=findings,
        blocks=tuple(blocks),
        glossary=(("Leadership/X", "commands & <controls> nearby units"), (HOSTILE[2], LONG_WORD)),
        fingerprint="ABCD-EFGH-JKLM",
    )


def hostile_cards() -> list[Card]:
    stats = (("MOV", "10"), ("INI", "3"), ("ATT", "3"), ("STR", "3"), ("DEF", "3"), ("RES", "3"), ("AIM", "-"), ("COU/FEAR", "5"), ("DIS", "3"), ("POW", "-"))
    return [
        Card(HOSTILE[0], "profile", "Lions · Regular · medium", stats, (("Leadership/10", "commands & <controls> nearby units"),), "10 A.P. · catalogue 1.0.0"),
        Card(HOSTILE[1], "profile", HOSTILE[2], stats, (("Long", LONG_WORD),), "40 A.P."),
        Card("Wall", "tactic", "Tactic", (), (("Condition", "close formation"), ("Pros", "p"), ("Cons", "c")), "R2-D9", provisional=True),
        Card("Grace", "communion", "Cult: Universal", (("Fervor", "10 (alteration)"), ("Diff.", "8"), ("Range", "30 cm"), ("Duration", "one round")), (("Effect", "heals " * 40),), "seed"),
        Card("Endless " + LONG_WORD, "ritual", "Path: Primagy", (("Cost", "10 (Light)"),), tuple((f"Part {k}", ("a very long effect text " * 30) + LONG_WORD) for k in range(6)), "seed: rituals", provisional=True),
    ]
