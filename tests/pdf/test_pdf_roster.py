"""The roster PDF: what a printed list must show, read back with pypdf."""

from __future__ import annotations

import io
import re

import pytest
from pdf_samples import (
    HOSTILE,
    LONG_WORD,
    hostile_cards,
    hostile_roster,
    illegal_army,
    legal_army,
    pdf_pages,
    pdf_text,
    r2_roster,
)
from pypdf import PdfReader

from armybuilder.core.system import Table
from armybuilder.pdf.roster import write_roster
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit


def squash(text: str) -> str:
    """Text without any whitespace: pypdf breaks wrapped lines where the layout did."""
    return re.sub(r"\s+", "", text)


def render(tmp_path, roster, cards=None, paper="A4", name="roster.pdf") -> bytes:
    out = tmp_path / name
    write_roster(roster, cards, out, paper=paper)
    return out.read_bytes()


def test_roster_shows_names_points_fingerprint_and_legality(tmp_path, r2_cat):
    army = legal_army()
    roster = r2_roster(army, r2_cat)
    assert roster.legal
    data = render(tmp_path, roster)
    text = pdf_text(data)
    for needle in ("Lions of the Dawn", "Rag'Narok 2", "Lions", "1000 A.P.", "Spearman", "Captain", "Musician", "Standard bearer", "Hero", "Knight", "490 / 1000 A.P.", "Wall", "LEGAL", "Glossary", "Leadership", r2_cat.hash):
        assert needle in text, needle
    assert "NOT LEGAL" not in text
    # the fingerprint in the title box and in the footer of every page, with page numbers
    pages = pdf_pages(data)
    assert roster.fingerprint and roster.fingerprint in pages[0].split("Page")[0]
    for number, page in enumerate(pages, start=1):
        assert f"Fingerprint {roster.fingerprint}" in page
        assert f"Page {number} of {len(pages)}" in page


def test_illegal_roster_lists_every_finding_on_the_first_page(tmp_path, r2_cat):
    roster = r2_roster(illegal_army(), r2_cat)
    assert not roster.legal
    errors = [f for f in roster.findings if f.severity == "error"]
    assert len(errors) >= 2
    first = pdf_pages(render(tmp_path, roster))[0]
    assert "NOT LEGAL" in first
    assert f"{len(errors)} errors" in first
    for f in roster.findings:
        assert squash(f.message) in squash(first), f.message
        assert f.rule in squash(first)


def test_hostile_names_print_literally_in_every_script(tmp_path):
    roster = hostile_roster(units=6)
    data = render(tmp_path, roster, hostile_cards())
    text = pdf_text(data)
    for name in HOSTILE:
        assert squash(name) in squash(text), name[:40]
    assert "<b>Bold & Brash</b>" in text  # markup printed, not interpreted
    assert "Tir-Nâ-Bor & <Friends>" in text
    assert "the <b>army</b> has 2 commanders-in-chief & needs 1" in text
    assert squash("Wall & <i>shield</i>") in squash(text)
    # the bundled DejaVu font is embedded (subset), not a base-14 font limited to Latin-1
    reader = PdfReader(io.BytesIO(data))
    fonts = {str(f["/BaseFont"]) for page in reader.pages for f in (page["/Resources"]["/Font"].get_object().values())}
    assert any("ArmyBuilderSans" in f or "DejaVu" in f for f in fonts), fonts
    assert all("Helvetica" not in f for f in fonts), fonts


def test_long_words_and_texts_split_instead_of_failing(tmp_path):
    roster = hostile_roster(units=3)
    huge = roster.blocks + (
        # a cell far taller than a page must split inside its row
        Table(("Name", "Text"), (("x", " ".join([LONG_WORD] * 40)),)),
    )
    roster = type(roster)(roster.title, roster.header, roster.legal, roster.findings, huge, roster.glossary, roster.fingerprint)
    data = render(tmp_path, roster)
    assert squash(LONG_WORD) in squash(pdf_text(data))
    assert len(PdfReader(io.BytesIO(data)).pages) >= 3


def test_sixty_unit_list(tmp_path, r2_cat):
    units = [Unit(troops=Troops(profile="spearman", count=5 + i % 7), members=[Member(profile="sergeant", leader=True)]) for i in range(60)]
    army = R2List(catalogue="1.0.0", format="1000-ap", name="Sixty banners", people="lions", units=units)
    roster = r2_roster(army, r2_cat)
    data = render(tmp_path, roster)
    pages = pdf_pages(data)
    assert len(pages) > 3
    text = "\n".join(pages)
    for i in range(1, 61):
        assert f"{i}. Spearman" in text, i
    assert all(roster.fingerprint in page for page in pages)
    assert "NOT LEGAL" in pages[0]  # 60 units cost far more than 1000 A.P.


def test_hostile_sixty_unit_roster_with_cards_on_letter(tmp_path):
    data = render(tmp_path, hostile_roster(units=60), hostile_cards() * 2, paper="Letter")
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert "60." in pdf_text(data)


def test_repeat_exports_are_byte_identical(tmp_path, r2_cat):
    roster = r2_roster(illegal_army(), r2_cat)
    from armybuilder.systems.ragnarok2 import SYSTEM

    cards = SYSTEM.cards(illegal_army(), r2_cat)
    first = render(tmp_path, roster, cards, name="a.pdf")
    render(tmp_path, hostile_roster(units=7), hostile_cards(), paper="Letter", name="between.pdf")  # no state leaks
    second = render(tmp_path, roster, cards, name="b.pdf")
    assert first == second
    assert render(tmp_path, hostile_roster(), hostile_cards(), name="c.pdf") == render(tmp_path, hostile_roster(), hostile_cards(), name="d.pdf")


@pytest.mark.parametrize(("paper", "size"), [("A4", (595, 842)), ("Letter", (612, 792)), ("letter", (612, 792))])
def test_paper_sizes(tmp_path, r2_cat, paper, size):
    data = render(tmp_path, r2_roster(legal_army(), r2_cat), paper=paper)
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == size


def test_unknown_paper_is_a_clear_error(tmp_path, r2_cat):
    with pytest.raises(ValueError, match="A4 or Letter"):
        render(tmp_path, r2_roster(legal_army(), r2_cat), paper="A5")


def test_legal_roster_with_warnings_shows_them(tmp_path):
    roster = hostile_roster(units=1, legal=True)
    from armybuilder.core.findings import Finding, Severity

    roster = type(roster)(roster.title, roster.header, True, (Finding("x.rule", Severity.WARNING, "mind the <gap> & the rest"),), roster.blocks, roster.glossary, roster.fingerprint)
    first = pdf_pages(render(tmp_path, roster))[0]
    assert "LEGAL" in first and "NOT LEGAL" not in first
    assert "mind the <gap> & the rest" in first
    assert "PROVISIONAL" in pdf_text(render(tmp_path, roster, name="p.pdf"))


def test_empty_roster_and_unwritable_target(tmp_path):
    from armybuilder.core.errors import InputError
    from armybuilder.core.system import Roster

    empty = Roster("", (), True, (), ())
    text = pdf_text(render(tmp_path, empty, []))
    assert "Unnamed list" in text and "LEGAL" in text
    with pytest.raises(InputError, match="cannot write"):
        write_roster(empty, None, tmp_path / "missing-folder" / "r.pdf")
    assert not (tmp_path / "missing-folder").exists()


def test_absurd_sizes_never_raise_layout_errors(tmp_path):
    """Everything far larger than a page or a card: split, capped or shrunk, never a LayoutError."""
    from armybuilder.core.findings import Finding, Severity
    from armybuilder.core.system import Card, Heading, KeyValues, Paragraph, Roster

    big = " ".join([LONG_WORD] * 6)
    roster = Roster(
        title=big,
        header=(("System", big), ("People", LONG_WORD * 2)),
        legal=False,
        findings=(Finding("r.x", Severity.ERROR, " ".join(["message"] * 1500), LONG_WORD, LONG_WORD),),
        blocks=(
            Heading(big, 1),
            Heading(big, 2),
            Table(tuple(f"C{i}" for i in range(20)), ((LONG_WORD,) * 20,)),
            Table(("A", "B"), (("x", " ".join(["word"] * 2500)),)),
            KeyValues(((big, big),)),
            Paragraph(" ".join([LONG_WORD] * 30), "provisional"),
        ),
        glossary=((big, big),),
        fingerprint="ABCD-EFGH-JKLM",
    )
    cards = [
        Card(big, LONG_WORD, big, tuple((LONG_WORD[:30], LONG_WORD[:40]) for _ in range(20)), ((big, " ".join(["text"] * 1500)),), big, True),
        Card("x", "profile", "", tuple((f"S{i}", str(i)) for i in range(40))),
    ]
    data = render(tmp_path, roster, cards, paper="Letter")
    pages = pdf_pages(data)
    assert "NOT LEGAL" in pages[0]
    assert all("ABCD-EFGH-JKLM" in p for p in pages)
    assert squash(LONG_WORD) in squash("".join(pages))
