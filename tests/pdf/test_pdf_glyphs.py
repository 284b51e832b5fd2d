"""Glyph coverage: CJK prints in the fallback font, emoji are named, never a silent box."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from armybuilder.core.system import Card, Heading, Paragraph, Roster, Table
from armybuilder.pdf import styles
from armybuilder.pdf.roster import render_roster


def _fonts(data: bytes) -> set[str]:
    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def test_cjk_prints_in_the_fallback_font_and_emoji_are_named():
    name = "獅子の夜明け 🦁 Лев"
    roster = Roster(name, (("System", "test"),), True, (), (Heading(name, 2), Paragraph(name), Table(("Name",), ((name,),))), (), "AAAA")
    data = render_roster(roster, [Card(name, "profile", name, (("MOV", "10"),), ((name, name),), name)])
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    assert "獅子の夜明け" in text and "Лев" in text
    assert "[U+1F981]" in text and "🦁" not in text  # named, not an empty box
    assert any("DroidSansFallback" in f for f in _fonts(data))
    assert styles.take_unprintable() == ["🦁"]


def test_latin_lists_do_not_embed_the_fallback_font():
    roster = Roster("Tir-Nâ-Bor", (), True, (), (Paragraph("Ἀχιλλεύς"),), (), "AAAA")
    assert not any("Fallback" in f for f in _fonts(render_roster(roster)))


def test_export_warns_naming_characters_it_cannot_print(tmp_path):
    sample = Path("catalog/ragnarok2/samples/alahan-lions.yaml").read_text(encoding="utf-8")
    path = tmp_path / "l.yaml"
    path.write_text(sample.replace("name: Lions of the dawn", 'name: "Lions 🦁 獅子"'), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "armybuilder", "export", str(path), "-o", str(tmp_path / "o.pdf")], capture_output=True, text=True)
    assert run.returncode == 0
    assert "U+1F981 (🦁)" in run.stderr and "獅" not in run.stderr
