"""Layout: words never broken without a hyphen, headings never alone at a page foot, notes with their table."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armybuilder.core.registry import get_system
from armybuilder.core.system import Heading, Paragraph, Roster, Table
from armybuilder.pdf.roster import render_roster
from armybuilder.pdf.sheets import render_sheets


def _pages(data: bytes) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]


def _words(sheets) -> set[str]:
    text = []
    for b in sheets.blocks:
        if isinstance(b, Table):
            text += [*b.columns, *(c for r in b.rows for c in r), b.title, b.note]
        elif isinstance(b, (Heading, Paragraph)):
            text.append(b.text)
    return {w.lower() for w in re.findall(r"[A-Za-z]+", " ".join(text))}


@pytest.mark.parametrize("system_id", ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_sheets_never_break_a_word_without_a_hyphen(system_id, paper):
    system = get_system(system_id)
    sheets = system.sheets(system.catalogue())
    vocabulary = _words(sheets)
    broken = []
    for page in _pages(render_sheets(sheets, paper)):
        lines = page.splitlines()
        for a, b in zip(lines, lines[1:], strict=False):
            end, start = re.search(r"([A-Za-z]+)$", a), re.match(r"^([A-Za-z]+)", b)
            if end and start:
                joined = (end[1] + start[1]).lower()
                if joined in vocabulary and end[1].lower() not in vocabulary and start[1].lower() not in vocabulary:
                    broken.append(f"{end[1]}/{start[1]}")
    assert not broken


def test_a_heading_is_never_left_alone_at_the_foot_of_a_page():
    for filler in range(30, 60):  # move the heading over every position near the page foot
        blocks = [Paragraph(f"Line {i} of the filler text.") for i in range(filler)]
        rows = tuple((f"row {i}", "x" * 20) for i in range(60))
        blocks += [Heading("Tactical deck", 1), Table(("Tactic", "Text"), rows)]
        pages = _pages(render_roster(Roster("t", (), True, (), tuple(blocks)), None))
        where = next(i for i, p in enumerate(pages) if "Tactical deck" in p)
        assert "row 0" in pages[where], filler


def test_a_table_note_is_never_alone_on_a_page():
    for filler in range(30, 60):
        blocks = [Paragraph(f"Line {i} of the filler text.") for i in range(filler)]
        blocks.append(Table(("Fighter", "N"), (("Guard", "12"), ("Hero", "1")), note="Notes: holds the left flank"))
        pages = _pages(render_roster(Roster("t", (), True, (), tuple(blocks)), None))
        where = next(i for i, p in enumerate(pages) if "holds the left flank" in p)
        assert "Hero" in pages[where], filler


def test_a_unit_heading_and_its_errors_never_stay_at_a_page_foot_without_its_table():
    for filler in range(28, 60):
        blocks = [Paragraph(f"Line {i} of the filler text.") for i in range(filler)]
        rows = tuple((f"fighter {i}", "10", "x" * 12) for i in range(6))
        blocks += [
            Heading("✖ 3. Archers — army corps, 10 fighters, 128 A.P.", 2),
            Paragraph("unit 3 (Archers) has 25 fighters; an army corps unit holds 5 to 20: remove 5", "error"),
            Table(("Fighter", "N", "Notes"), rows),
        ]
        pages = _pages(render_roster(Roster("t", (), True, (), tuple(blocks)), None))
        where = next(i for i, p in enumerate(pages) if "3. Archers" in p)
        assert "fighter 0" in pages[where] and "remove 5" in pages[where], filler


def test_the_glossary_pointer_never_takes_a_page_of_its_own():
    """With cards, the roster's glossary is a two-line pointer to the glossary faces; when
    the roster fills its last page, the pointer is left out rather than printed alone on a
    new sheet (the glossary faces say the same, titled "Glossary").  Ten Alahan units fill
    the roster's third page to its foot."""
    import yaml

    from armybuilder.core.lists import list_fingerprint, parse_list

    sample = yaml.safe_load(open("catalog/ragnarok2/samples/alahan-lions.yaml", encoding="utf-8"))
    for n in (5, 10):
        sample_n = dict(sample, units=[dict(sample["units"][i % 5]) for i in range(n)])
        lf = parse_list(yaml.safe_dump(sample_n))
        cat = lf.system.catalogue_for(lf.army)
        roster = lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))
        pages = _pages(render_roster(roster, lf.system.cards(lf.army, cat)))
        roster_pages = [p for p in pages if "PROFILE" not in p and "GLOSSARY" not in p]
        assert all("Total" in p or "Units" in p or "A.P." in p.split("Glossary")[0] for p in roster_pages), n
        alone = [i + 1 for i, p in enumerate(roster_pages) if "are on the glossary cards" in p and "A.P." not in p]
        assert not alone, (n, alone)
        assert any("GLOSSARY" in p for p in pages)  # the faces themselves are there
