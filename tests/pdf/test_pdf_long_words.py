"""Line breaking is linear in a text's length: an unbroken 800,000-character word must print.

Speed itself is measured by ``armybuilder bench``; these tests count the work instead
(how many times ReportLab measures a string), which does not depend on the machine:
four times the text must cost about four times the work, not sixteen.
"""

from __future__ import annotations

import re

from pdf_samples import pdf_text
from reportlab.pdfbase import ttfonts

from armybuilder.core.system import Card, Heading, KeyValues, Paragraph, Roster, Table
from armybuilder.pdf.roster import render_roster
from armybuilder.pdf.styles import CHUNK, chunks


def _roster(word: str) -> Roster:
    return Roster(
        "Long words",
        (("System", "test"),),
        True,
        (),
        (Heading(word, 2), Paragraph(word), KeyValues((("Notes", word),)), Table(("Name", "Text"), (("x", word),))),
        (("Term", word),),
        "AAAA-BBBB-CCCC",
    )


def _measures(word: str, monkeypatch) -> int:
    calls = 0
    original = ttfonts.TTFont.stringWidth

    def counting(self, text, size, encoding="utf8"):
        nonlocal calls
        calls += 1
        return original(self, text, size, encoding)

    monkeypatch.setattr(ttfonts.TTFont, "stringWidth", counting)
    render_roster(_roster(word), [Card("c", "profile", text=(("Long", word),))])
    monkeypatch.setattr(ttfonts.TTFont, "stringWidth", original)
    return calls


def test_breaking_an_unbroken_word_is_linear_in_its_length(monkeypatch):
    small = _measures("w" * 20_000, monkeypatch)
    large = _measures("w" * 80_000, monkeypatch)
    # quadratic breaking (the old behaviour) made this ratio about 16
    assert large / small < 5.5, (small, large)


def test_a_very_long_word_prints_whole():
    word = "Ж" + "abcdefghij" * 1500 + "Ω"
    data = render_roster(_roster(word))
    text = re.sub(r"\s+", "", pdf_text(data))
    text = re.sub(r"Page\d+of\d+|FingerprintAAAA-BBBB-CCCC|Longwords·test", "", text)  # the footers
    assert word in text


def test_chunks_keep_prose_whole_and_cut_only_runs_without_spaces():
    prose = " ".join(["Countercharge"] * 1000)
    pieces = chunks(prose)
    assert "".join(pieces) == prose and len(pieces) > 1
    assert all(len(p) <= CHUNK for p in pieces)
    assert all(p.endswith(" ") for p in pieces[:-1])  # never inside a word
    run = "x" * (CHUNK * 3 + 5)
    assert "".join(chunks(run)) == run
    assert chunks("short text") == ["short text"]
