"""Cards: several per page, long texts continue on further faces, hostile text is safe."""

from __future__ import annotations

import io
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdf_samples import LONG_WORD, hostile_cards, hostile_roster, illegal_army, pdf_pages, r2_roster
from pypdf import PdfReader

from armybuilder.core.system import Card
from armybuilder.pdf.cards import COLS, ROWS, grid_for, layout_faces
from armybuilder.pdf.roster import write_roster
from armybuilder.pdf.styles import paper_size
from armybuilder.systems.ragnarok2 import SYSTEM


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def card_pages(data: bytes) -> list[str]:
    """Pages after the roster (the roster itself ends with its glossary or totals)."""
    pages = pdf_pages(data)
    return [p for p in pages if "PROFILE" in p or "TACTIC" in p or "RITUAL" in p or "COMMUNION" in p]


def test_cards_of_a_list_follow_the_roster(tmp_path, r2_cat):
    army = illegal_army()
    cards = SYSTEM.cards(army, r2_cat)
    kinds = {c.kind for c in cards}
    assert {"profile", "tactic", "communion", "ritual"} <= kinds
    out = tmp_path / "r.pdf"
    write_roster(r2_roster(army, r2_cat), cards, out)
    pages = card_pages(out.read_bytes())
    assert len(pages) == -(-len(cards) // (COLS * ROWS))
    text = squash("\n".join(pages))
    for card in cards:
        assert squash(card.title) in text
    assert "Fingerprint" in pages[-1]


def test_card_size_is_poker_on_a4_and_fits_letter():
    a4 = grid_for(paper_size("A4"))
    assert round(a4.card_w / 72 * 25.4) == 63 and round(a4.card_h / 72 * 25.4) == 88
    letter = grid_for(paper_size("Letter"))
    width, height = paper_size("Letter")
    assert letter.y0 >= 12 / 25.4 * 72 - 0.01 and letter.x0 >= 10 / 25.4 * 72 - 0.01
    assert letter.card_h * ROWS <= height and letter.card_w * COLS <= width
    assert letter.card_h / 72 * 25.4 > 80  # still a usable card


def test_long_card_continues_on_more_faces_and_short_one_does_not():
    grid = grid_for(paper_size("A4"))
    cards = hostile_cards()
    assert len(layout_faces(cards[2], grid)) == 1
    long_faces = layout_faces(cards[4], grid)
    assert len(long_faces) >= 2
    assert [f.part for f in long_faces] == list(range(1, len(long_faces) + 1))


def test_long_and_hostile_cards_print_everything(tmp_path):
    out = tmp_path / "cards.pdf"
    write_roster(hostile_roster(units=1), hostile_cards(), out)
    text = squash("\n".join(pdf_pages(out.read_bytes())))
    assert squash(LONG_WORD) in text
    assert "(1/" in text and "PROVISIONAL" in text
    assert squash("commands & <controls> nearby units") in text
    assert text.count("effect") >= 6 * 30  # every repetition of every part, across the faces
    assert all(f"Part{k}." in text for k in range(6))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    title=st.text(alphabet="ab<>&;/ ЖжΩωâ\"'x", min_size=1, max_size=80),
    body=st.text(alphabet="ab<>&; \nЖΩ", max_size=900),
    stats=st.lists(st.tuples(st.text(alphabet="ABC<&", min_size=1, max_size=9), st.text(alphabet="0123456789+-<", max_size=14)), max_size=12),
)
def test_any_card_text_renders(tmp_path, title, body, stats):
    card = Card(title, "profile", body[:60], tuple(stats), (("Effect", body),), body[:30], provisional=bool(len(body) % 2))
    out = tmp_path / "c.pdf"
    write_roster(hostile_roster(units=0, legal=True), [card], out)
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) >= 2
