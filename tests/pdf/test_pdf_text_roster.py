"""The plain-text roster and the export / sheets commands end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_samples import (
    HOSTILE,
    LONG_WORD,
    hostile_roster,
    illegal_army,
    legal_army,
    pdf_text,
    r2_roster,
)

from armybuilder import cli
from armybuilder.core.catalog import catalog_root
from armybuilder.core.text_roster import render_text


def test_text_roster_is_compact_and_ends_with_the_fingerprint(r2_cat):
    roster = r2_roster(legal_army(), r2_cat)
    text = render_text(roster)
    lines = text.rstrip("\n").split("\n")
    assert lines[-1] == f"Fingerprint: {roster.fingerprint}"
    assert lines[0] == "Lions of the Dawn"
    assert "Status: LEGAL" in text
    assert "10× Spearman — 10×10 A.P." in text
    assert "Captain" in text and "— 40 A.P." in text
    assert "4× Knight — 4×30 A.P." in text
    assert "Total: 490 / 1000 A.P." in text
    assert "COU/FEAR" not in text  # characteristics stay in the PDF
    assert text.count(roster.fingerprint) == 1


def test_text_roster_of_an_illegal_list_lists_its_findings(r2_cat):
    roster = r2_roster(illegal_army(), r2_cat)
    text = render_text(roster)
    assert "Status: NOT LEGAL" in text
    for f in roster.findings:
        assert f.message in text
    assert text.rstrip().endswith(roster.fingerprint)


def test_text_roster_keeps_hostile_text_literal_and_on_one_line():
    roster = hostile_roster(units=5)
    text = render_text(roster)
    for name in HOSTILE:
        assert name in text
    assert LONG_WORD in text
    assert "\x00" not in text
    assert text.rstrip().split("\n")[-1] == "Fingerprint: ABCD-EFGH-JKLM"
    bad = type(roster)("a\x00b\nc", roster.header, True, (), roster.blocks, (), "")
    text = render_text(bad)
    assert text.split("\n")[0] == "a\\x00b c"  # controls shown as escapes (core/sanitize.py), breaks as spaces
    assert text.rstrip().split("\n")[-1] == "Fingerprint: ABCD-EFGH-JKLM"  # taken from the header


def _samples() -> list[Path]:
    found = []
    root = catalog_root()
    for system in sorted(p.name for p in root.iterdir() if p.is_dir()):
        folder = root / system / "samples"
        if folder.is_dir():
            found += sorted((Path(str(f)) for f in folder.iterdir() if f.name.endswith(".yaml")), key=lambda p: p.name)
    return found


SAMPLES = _samples()


@pytest.mark.skipif(not SAMPLES, reason="no bundled sample lists yet")
@pytest.mark.parametrize("sample", SAMPLES[:12], ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_export_samples_end_to_end(tmp_path, capsys, sample):
    out = tmp_path / "roster.pdf"
    assert cli.main(["export", str(sample), "--cards", "-o", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["fingerprint", str(sample)]) == 0
    fp = capsys.readouterr().out.strip()
    text = pdf_text(out.read_bytes())
    assert f"Fingerprint {fp}" in text
    assert cli.main(["export", str(sample), "--text"]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip("\n").split("\n")[-1] == f"Fingerprint: {fp}"
    letter = tmp_path / "letter.pdf"
    assert cli.main(["export", str(sample), "--paper", "Letter", "-o", str(letter)]) == 0
    assert letter.read_bytes() != out.read_bytes()


def test_sheets_command_and_bad_paper(tmp_path, capsys):
    out = tmp_path / "s.pdf"
    assert cli.main(["sheets", "ragnarok2", "-o", str(out), "--paper", "Letter"]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert cli.main(["sheets", "ragnarok2", "--paper", "A3", "-o", str(out)]) == 2
    assert "invalid choice" in capsys.readouterr().err
