"""Reference sheets for every registered system that has a catalogue, and for odd shapes."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdf_samples import LONG_WORD, pdf_pages, pdf_text
from pypdf import PdfReader

from armybuilder.core.registry import get_system, system_ids
from armybuilder.core.system import Heading, KeyValues, Paragraph, Sheets, Table
from armybuilder.pdf.sheets import render_sheets, write_sheets


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _system_sheets(system_id: str) -> Sheets:
    system = get_system(system_id)
    return system.sheets(system.catalogue())  # a system whose catalogue does not load fails here


@pytest.mark.parametrize("system_id", system_ids())
def test_sheets_of_every_system(tmp_path, system_id):
    sheets = _system_sheets(system_id)
    out = tmp_path / f"{system_id}.pdf"
    write_sheets(sheets, out)
    data = out.read_bytes()
    text = squash(pdf_text(data))
    assert squash(sheets.title) in text
    headings = [b.text for b in sheets.blocks if isinstance(b, Heading)]
    tables = [b for b in sheets.blocks if isinstance(b, Table)]
    assert headings and tables
    for h in headings:
        assert squash(h) in text, h
    for t in tables:
        for row in t.rows[:3]:
            assert squash(row[0]) in text
    if any(t.provisional for t in tables) or any(isinstance(b, Paragraph) and b.style == "provisional" for b in sheets.blocks):
        assert "PROVISIONAL" in text
    out2 = tmp_path / f"{system_id}-again.pdf"
    write_sheets(sheets, out2, paper="Letter")
    page = PdfReader(io.BytesIO(out2.read_bytes())).pages[0]
    assert round(float(page.mediabox.height)) == 792


def test_long_table_repeats_its_header_on_every_page(tmp_path):
    rows = tuple((f"Row {i}", f"value & <{i}>", LONG_WORD if i % 25 == 0 else "short") for i in range(220))
    sheets = Sheets(
        "Длинные таблицы & <tables>",
        (
            Heading("A very long table", 1),
            Table(("Label", "Value", "Comment"), rows, title="Big one", provisional=True, note="made up"),
            KeyValues((("Key <k>", "Value & v"),)),
            Paragraph("Ends here & <nowhere>.", "provisional"),
            Paragraph("Careful.", "warning"),
            Paragraph("Broken.", "error"),
            Heading("Minor", 3),
            Table(("Only",), ()),
        ),
    )
    out = tmp_path / "long.pdf"
    write_sheets(sheets, out)
    data = out.read_bytes()
    pages = pdf_pages(data)
    assert len(pages) >= 4
    table_pages = [p for p in pages if "Row " in p]
    assert len(table_pages) >= 3
    for page in table_pages:
        assert "Label" in page and "Comment" in page  # header row repeated
    text = pdf_text(data)
    for i in range(220):
        assert f"value & <{i}>" in text
    assert "Ends here & <nowhere>." in text and "PROVISIONAL" in text
    again = tmp_path / "long2.pdf"
    write_sheets(sheets, again)
    assert again.read_bytes() == data


_text = st.text(alphabet="ab <>&;Жω—\n", max_size=120)
_blocks = st.lists(
    st.one_of(
        st.builds(Heading, _text, st.integers(min_value=0, max_value=4)),
        st.builds(Paragraph, _text, st.sampled_from(["body", "note", "warning", "error", "provisional"])),
        st.builds(KeyValues, st.lists(st.tuples(_text, _text), max_size=6).map(tuple)),
        st.builds(
            Table,
            st.lists(_text, max_size=8).map(tuple),
            st.lists(st.lists(_text, max_size=9).map(tuple), max_size=12).map(tuple),  # ragged rows
            _text,
            _text,
            st.booleans(),
        ),
    ),
    max_size=14,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(title=_text, blocks=_blocks, paper=st.sampled_from(["A4", "Letter"]))
def test_any_blocks_render(tmp_path, title, blocks, paper):
    out = tmp_path / "any.pdf"
    write_sheets(Sheets(title, tuple(blocks)), out, paper=paper)
    assert PdfReader(io.BytesIO(out.read_bytes())).pages


def test_table_wider_than_the_page_prints_in_bands(tmp_path):
    columns = tuple(f"Col{i}" for i in range(100))
    rows = tuple(tuple(f"r{j}c{i}" for i in range(100)) for j in range(5))
    out = tmp_path / "wide.pdf"
    write_sheets(Sheets("wide", (Table(columns, rows, title="Wide", note="the end"),)), out)
    text = pdf_text(out.read_bytes())
    assert all(f"r{j}c{i}" in text for i in range(100) for j in range(5))
    assert "Wide (continued)" in text and text.count("the end") == 1


def test_ragnarok2_sheets_hold_the_mystic_rules_a_player_looks_up():
    sheets = _system_sheets("ragnarok2")
    text = re.sub(r"\s+", " ", pdf_text(render_sheets(sheets)))
    for title in ("Mana reserve", "Mana recovery (mystic phase)", "Casting a spell", "Casting a ritual", "Counter-magic (Reaction order)",
                  "Temporary Faith", "Recovering Temporary Faith (mystic phase)", "Calling a miracle", "Calling a communion",
                  "Censure (Reaction order)", "Durations of rituals and communions", "Summoned fighters"):
        assert title in text, title
    steps = {b.title: b for b in sheets.blocks if isinstance(b, Table)}  # the procedures, as numbered steps
    procedures = [b for b in sheets.blocks if isinstance(b, Table) and b.columns == ("Step", "What to do")]
    assert [len(p.rows) for p in procedures] == [9, 9] and steps is not None
    sources = [b.text for b in sheets.blocks if isinstance(b, Paragraph) and b.text.startswith("Source: mystics seed:")]
    assert len(sources) == 13  # every mystic rule names its place in the seed
    assert "every die showing 3 or more adds as many gems as that magician's POW" in text


def test_morpheus_and_rattle_and_rend_sheets_hold_no_simulator_or_design_notes():
    me = get_system("morpheus-ragnarok")
    cat = me.catalogue()
    text = re.sub(r"\s+", " ", pdf_text(render_sheets(me.sheets(cat))))
    assert "Simulator" not in text and "simulator" not in text
    for note in cat.data.tables.engine.notes:
        assert note[:60] not in text
    rr = get_system("rattle-and-rend")
    cat = rr.catalogue()
    text = re.sub(r"\s+", " ", pdf_text(render_sheets(rr.sheets(cat))))
    assert "Readings of the rules" not in text
    for d in cat.data.decisions:
        assert re.sub(r"\s+", " ", d.summary)[:60] not in text
    assert "an attached Champion and its group count as one" in text  # RR-D1, where a player looks
