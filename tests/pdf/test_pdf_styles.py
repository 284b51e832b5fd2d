"""Fonts shipped with their licence, escaping, paper sizes and the column-width rule."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.pdf.layout import column_widths, fit_text
from armybuilder.pdf.styles import FONT, Styles, esc, paper_size, plain, register_fonts


def test_fonts_and_licence_are_package_data():
    folder = resources.files("armybuilder.pdf") / "fonts"
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"):
        assert (folder / name).read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType file
    licence = (folder / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence


def test_the_font_covers_the_scripts_we_promise():
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    face = pdfmetrics.getFont(FONT).face
    for ch in "Tir-Nâ-Bor Дружина Ἀχιλλεὺς ΩωЖж“”—·×✖✔⚠…":
        assert ord(ch) in face.charToGlyph, ch


def test_escaping_makes_markup_literal():
    assert esc("<b>Bob & co</b>") == "&lt;b&gt;Bob &amp; co&lt;/b&gt;"
    assert esc("a\x00b\x1bc\nd") == "a\\x00b\\x1bc<br/>d"  # controls shown as escapes, never dropped
    assert esc("&amp;") == "&amp;amp;"  # an entity typed by a user stays as typed
    assert plain("x\x07y\nz") == "x\\x07y z"
    assert esc("Bob\u202eevil\u009b") == "Bob\\u202eevil\\u009b"


def test_paper_sizes():
    assert [round(v) for v in paper_size("A4")] == [595, 842]
    assert [round(v) for v in paper_size("letter")] == [612, 792]
    with pytest.raises(ValueError):
        paper_size("A3")


def test_fit_text_cuts_with_an_ellipsis():
    assert fit_text("short", FONT, 7, 500) == "short"
    cut = fit_text("x" * 500, FONT, 7, 50)
    assert cut.endswith("…") and len(cut) < 500


cells = st.text(alphabet="ab Жω<&-1234567890", max_size=60)


@settings(max_examples=60, deadline=None)
@given(
    columns=st.lists(st.text(alphabet="ABC /", max_size=12), min_size=1, max_size=14),
    data=st.data(),
    total=st.floats(min_value=100, max_value=800),
)
def test_column_widths_fill_the_width_and_stay_positive(columns, data, total):
    rows = data.draw(st.lists(st.lists(cells, min_size=len(columns), max_size=len(columns)), max_size=6))
    relative = data.draw(st.one_of(st.none(), st.lists(st.floats(min_value=0.1, max_value=5), min_size=len(columns), max_size=len(columns))))
    widths = column_widths(tuple(columns), rows, total, Styles(), relative)
    assert len(widths) == len(columns)
    assert all(w > 0 for w in widths)
    assert sum(widths) == pytest.approx(total, rel=1e-6)


def test_short_columns_do_not_wrap_beside_a_huge_one():
    styles = Styles()
    rows = [("Row 219", "value & <219>", "Ж" + "abcdefghij" * 29 + "Ω")]
    widths = column_widths(("Label", "Value", "Comment"), rows, 510, styles)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert widths[0] >= stringWidth("Row 219", styles.cell.fontName, styles.cell.fontSize)
    assert widths[1] >= stringWidth("value & <219>", styles.cell.fontName, styles.cell.fontSize)


def test_a_bell_in_a_name_prints_as_an_escape_in_every_pdf():
    from pathlib import Path

    from pdf_samples import pdf_text

    from armybuilder.core.lists import list_fingerprint, parse_list
    from armybuilder.core.summary import build_summary
    from armybuilder.pdf.roster import render_roster
    from armybuilder.pdf.summary import render_summary

    text = Path("catalog/ragnarok2/samples/alahan-lions.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Lions of the dawn", 'name: "Lions\\a of the dawn"').replace("name: Paladins", 'name: "Pala\\adins"')
    lf = parse_list(text)
    assert "\x07" in lf.army.name
    cat = lf.system.catalogue_for(lf.army)
    roster = lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))
    for data in (render_roster(roster, lf.system.cards(lf.army, cat)), render_summary(build_summary(lf.system, lf.army, cat, roster))):
        printed = pdf_text(data)
        assert "Lions\\x07 of the dawn" in printed and "Pala\\x07dins" in printed and "\x07" not in printed
