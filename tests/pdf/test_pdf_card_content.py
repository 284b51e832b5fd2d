"""Cards a player uses mid-game: readable sizes, full faces, rules once, no data notes.

Measured on the printed pages with pypdf (font sizes, text positions, strings) and on
the faces the layout makes: body text 7.5 pt or more and stats 9 pt or more; no
follow-on face under three lines; no face more than a quarter blank when the next
paragraph could start there; nothing nearer the paper's edge than 8 mm; no data or
developer note from the catalogue; each ability's rule once per export, in the glossary.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from armybuilder.core.lists import list_fingerprint, load_list, parse_list
from armybuilder.core.system import Card, Roster
from armybuilder.pdf.card_faces import (
    BLANK,
    MIN_LINES,
    STAT_SIZE,
    face_lines,
    measure,
    stats_flowables,
)
from armybuilder.pdf.cards import EDGE, MARKS, _frame, grid_for, layout_faces
from armybuilder.pdf.roster import glossary_cards, render_roster
from armybuilder.pdf.styles import Styles, paper_size

SAMPLES = {p.stem: p for p in Path("catalog").glob("*/samples/*.yaml")}
#: words of data and developer notes that must never reach a card
DATA_WORDS = ("reference card gives", "misprint", "armybuilder reads", "Effect not in the seeds", "description from the reference data", "Card note", "0 assigned", "die glyph")


def _export(stem: str, paper: str = "A4", text: str | None = None):
    lf = parse_list(text, str(SAMPLES[stem])) if text is not None else load_list(SAMPLES[stem])
    cat = lf.system.catalogue_for(lf.army)
    roster = lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))
    cards = lf.system.cards(lf.army, cat)
    return lf, cat, roster, cards, render_roster(roster, cards, paper)


def _fragments(data: bytes, first_card_page: int) -> list[tuple[int, float, float, float, str]]:
    """(page, x, y, size, text) of every text run on the card pages, in page coordinates."""
    out: list[tuple[int, float, float, float, str]] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages):
        if number < first_card_page:
            continue

        def visit(text, cm, tm, font, size, number=number):
            if text.strip():
                x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
                y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
                out.append((number, x, y, round(size * abs(tm[3]) * abs(cm[3]), 2), text.strip()))

        page.extract_text(visitor_text=visit)
    return out


def _first_card_page(data: bytes) -> int:
    pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]
    return next(i for i, p in enumerate(pages) if re.search(r"^(PROFILE|GROUP|WARRIOR|GOD-POWER|GLOSSARY|TACTIC)$", p, re.M))


@pytest.mark.parametrize("stem", sorted(SAMPLES))
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_card_pages_print_nothing_under_seven_and_a_half_points_nor_near_the_edge(stem, paper):
    *_, data = _export(stem, paper)
    width, height = paper_size(paper)
    fragments = _fragments(data, _first_card_page(data))
    assert fragments
    assert min(size for *_, size, _ in fragments) >= 7.5
    for _, x, y, _, text in fragments:
        assert EDGE <= x <= width - EDGE and EDGE <= y <= height - EDGE, text
    grid = grid_for(paper_size(paper))  # the cut marks too
    assert grid.x0 - MARKS >= EDGE - 0.01 and grid.y0 + 3 * grid.card_h + MARKS <= height - EDGE + 0.01


def test_stats_print_at_nine_points_or_more():
    card = Card("Q", "profile", "", (("MOV", "Q71"), ("RNG", "B-to-B"), ("FURY", "Q72")), (("Effect", "text"),))
    data = render_roster(Roster("t", (), True, (), ()), [card])
    sizes = {text: size for *_, size, text in _fragments(data, 1)}
    assert sizes["Q71"] >= STAT_SIZE and sizes["Q72"] >= STAT_SIZE and sizes["B-to-B"] >= STAT_SIZE
    for base in (9.0, 8.5, 8.0, 7.5):  # and at every size the layout tries
        styles = Styles(base=base)
        (table,) = stats_flowables((("MOV", "S"), ("RNG", "B-to-B"), ("FURY", "16+"), ("GUILE", "12+"), ("WILL", "13+")), styles, 150)
        assert len(table._cellvalues) == 2  # five Rattle and Rend stats in one band, not 3 + 2
        assert all(p.style.fontSize >= STAT_SIZE for p in table._cellvalues[1])


def _all_faces(stem: str, paper: str = "A4"):
    _, _, roster, cards, _ = _export(stem, paper)
    grid = grid_for(paper_size(paper))
    for card in [*cards, *glossary_cards(roster)]:
        yield card, grid, layout_faces(card, grid)


@pytest.mark.parametrize("stem", sorted(SAMPLES))
def test_faces_are_full_and_follow_on_faces_hold_three_lines(stem):
    for card, grid, faces in _all_faces(stem):
        for face in faces:
            width, avail, _ = _frame(card, Styles(base=face.size), grid, " (9/9)" if face.parts > 1 else "")
            if face.part > 1:
                assert face_lines(face.body, width) >= MIN_LINES, (card.title, face.part)
            if face.part < face.parts:  # the next face's first paragraph could have started here
                assert measure(face.body, width) >= (1 - BLANK) * avail - 0.5, (card.title, face.part)


def test_a_long_card_is_cut_between_sentences_when_that_fills_the_face():
    sentence = "The fighter may do a thing that takes a line or two of text to say in full."
    card = Card("Long", "ritual", "", (), tuple((f"Part {k}", " ".join([sentence] * 4)) for k in range(8)))
    faces = layout_faces(card, grid_for(paper_size("A4")))
    assert len(faces) >= 2
    for face in faces[:-1]:
        last = face.body[-1].text if hasattr(face.body[-1], "text") else ""
        assert last.rstrip().endswith(".")  # every face ends on a whole sentence


@pytest.mark.parametrize("stem", sorted(SAMPLES))
def test_no_data_or_developer_note_reaches_a_card(stem):
    lf, cat, _, cards, data = _export(stem)
    pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]
    printed = re.sub(r"\s+", " ", " ".join(pages[_first_card_page(data):]))
    for words in DATA_WORDS:
        assert words not in printed, words
    for _, note in cat.data.data_notes():
        assert note not in printed
    card_text = " ".join(f"{h} {b} {c.subtitle}" for c in cards for h, b in c.text)
    for words in DATA_WORDS:
        assert words not in card_text, words


@pytest.mark.parametrize("stem", sorted(SAMPLES))
def test_each_rule_is_explained_once_per_export_and_cards_point_to_it(stem):
    _, _, roster, cards, data = _export(stem)
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages))
    glossary = glossary_cards(roster)
    assert glossary and glossary[0].kind == "glossary"
    for term, rule in roster.glossary:
        head = re.sub(r"\s+", " ", rule)[:40]
        assert text.count(head) == 1, (term, head)  # once, on the glossary faces
    pointing = [c for c in cards if any("glossary" in b for _, b in c.text)]
    assert pointing, "no card points to the glossary"


def test_bravery_is_explained_once_in_the_alahan_export():
    _, _, roster, cards, data = _export("alahan-lions")
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages))
    assert text.count("A 1 on its morale rolls is not an automatic failure") == 1
    assert sum("Bravery" in b for c in cards for _, b in c.text) >= 6  # named on every card that has it


def test_labels_are_on_the_cards():
    r2 = SAMPLES["alahan-lions"].read_text(encoding="utf-8").replace(
        "      - profile: alahan-agonn-the-ardent-2nd", "      - profile: alahan-agonn-the-ardent-2nd\n        label: Agonn of the Seven Oaths"
    )
    *_, cards, _ = _export("alahan-lions", text=r2)
    agonn = next(c for c in cards if c.title.startswith("Agonn"))
    assert "“Agonn of the Seven Oaths”" in dict(agonn.text)["In"]
    *_, cards, _ = _export("ravens-of-hrafnsey")
    assert cards[0].title == "Jarl “Sigrun Ravenhair”"
    rr = SAMPLES["vampire-court"].read_text(encoding="utf-8")
    rr = rr.replace("  - {type: fighters}", "  - {type: fighters, label: The Red Hand}")
    *_, cards, _ = _export("vampire-court", text=rr)
    assert any(c.title == "The Red Hand (Fighters)" for c in cards)


def test_an_attached_champion_card_shows_the_stats_it_acts_with():
    lf, cat, _, cards, _ = _export("vampire-court")
    champion = next(c for c in cards if "Attached" in dict(c.text))
    target = int(re.search(r"to group (\d+)", dict(champion.text)["Attached"])[1])
    group = next(c for c in cards if c.subtitle.startswith(f"Group {target} "))
    assert champion.stats == group.stats


def test_morpheus_cards_lead_with_the_rs_the_warrior_fights_with():
    lf, cat, _, cards, _ = _export("ravens-of-hrafnsey")
    jarl = cards[0]
    armour = next(b for h, b in jarl.text if h.startswith("Armour:"))
    base, worn = re.search(r"\((\d+) \+ (\d+)", armour).groups()
    assert dict(jarl.stats)["RS"] == str(int(base) + int(worn))
    power = next(c for c in cards if "imprinted" in c.subtitle)
    assert "glossary" in power.subtitle
    _, _, roster, _, _ = _export("ravens-of-hrafnsey")
    assert any(term.startswith("Imprinted") for term, _ in roster.glossary)


def test_r2_cards_carry_mystic_health_and_units():
    _, _, _, cards, _ = _export("alahan-lions")
    sardar = next(c for c in cards if c.title == "Sardar the pure")
    text = " ".join(f"{h}. {b}" for h, b in sardar.text)
    assert "Element: Light" in text and "Power 5" in text and "unit 3, Archers" in text
    assert "1 Wound level" in sardar.subtitle and dict(sardar.stats)["WL"] == "1"
    for card in cards:
        assert ".cat" not in card.footer and "line " not in card.footer
