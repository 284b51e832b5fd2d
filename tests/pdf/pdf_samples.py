"""Samples of the PDF tests: rosters of the synthetic Rag'Narok 2 catalogue, hostile texts.

Hostile rosters are built directly as neutral ``Roster`` objects: the PDF code only
sees those shapes, whatever the system.  Imported by basename (``from pdf_samples
import ...``), never through the conftest: a test run over several folders has
several conftests.
"""

from __future__ import annotations

import io

from pypdf import PdfReader
from synthetic_r2 import legal_army

from armybuilder.core.findings import Finding, Severity
from armybuilder.core.lists import list_fingerprint
from armybuilder.core.system import Card, Heading, KeyValues, Paragraph, Roster, Table
from armybuilder.systems.ragnarok2 import SYSTEM as R2
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit

__all__ = [
    "HOSTILE",
    "LONG_WORD",
    "hostile_cards",
    "hostile_roster",
    "illegal_army",
    "legal_army",
    "pdf_pages",
    "pdf_text",
    "r2_roster",
]


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
