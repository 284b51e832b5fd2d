"""The organiser's prints: event fields, program and catalogue versions, the one-page summary."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from armybuilder.core.errors import InputError
from armybuilder.core.lists import list_fingerprint, load_list, parse_list
from armybuilder.core.summary import build_summary, render_summary_text
from armybuilder.core.text_roster import render_text
from armybuilder.pdf.roster import render_roster
from armybuilder.pdf.summary import render_summary

SAMPLES = sorted(Path("catalog").glob("*/samples/*.yaml"))
ORGANISER = "player: Ann Example\nteam: Hammers\nevent: Autumn Clash\ndate: 2026-11-28\nround: 3\n"


def _with_organiser(path: Path) -> str:
    return path.read_text(encoding="utf-8").replace("\nformat:", "\n" + ORGANISER + "format:", 1)


def _roster(lf):
    cat = lf.system.catalogue_for(lf.army)
    return lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat)), cat


def _pages(data: bytes) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_organiser_fields_print_on_roster_text_and_summary(path):
    lf = parse_list(_with_organiser(path), str(path))
    assert lf.army.player == "Ann Example" and lf.army.round == 3 and lf.army.date.isoformat() == "2026-11-28"
    roster, cat = _roster(lf)
    text = render_text(roster)
    pdf = "\n".join(_pages(render_roster(roster)))
    summary = render_summary_text(build_summary(lf.system, lf.army, cat, roster))
    for out in (text, pdf, summary):
        for value in ("Ann Example", "Hammers", "Autumn Clash", "2026-11-28", "armybuilder 0.1.0", cat.version):
            assert value in out
    assert all(len(line) <= 80 for line in summary.splitlines())
    assert lf.system.sheets_module.summary_lines  # each system writes its own lines
    assert "God powers:" in summary or "Tactics:" in summary or "Drive:" in summary
    assert summary.splitlines()[-1] == f"Fingerprint: {roster.fingerprint}"


def test_organiser_fields_do_not_change_the_fingerprint_and_survive_a_save(tmp_path):
    path = SAMPLES[0]
    plain, with_fields = load_list(path), parse_list(_with_organiser(path))
    cat = plain.system.catalogue_for(plain.army)
    assert list_fingerprint(plain.army, cat) == list_fingerprint(with_fields.army, cat)
    with_fields.army = with_fields.army.model_copy(update={"round": 4})
    saved = with_fields.save(tmp_path / "l.yaml")
    again = load_list(saved)
    assert (again.army.player, again.army.round, str(again.army.date)) == ("Ann Example", 4, "2026-11-28")
    assert "date: 2026-11-28" in saved.read_text()


@pytest.mark.parametrize(
    "line, field",
    [("round: 0", "round"), ("round: 100", "round"), ("date: tomorrow", "date"), ('player: "a\\tb"', "player"), ("event: [1]", "event"), ("team: " + "x" * 121, "team")],
)
def test_organiser_fields_are_validated_with_a_position(line, field):
    text = SAMPLES[0].read_text(encoding="utf-8").replace("\nformat:", f"\n{line}\nformat:", 1)
    with pytest.raises(InputError) as info:
        parse_list(text, "l.yaml")
    problem = info.value.first
    assert problem.line is not None and field in str(problem)


def test_an_older_catalogue_pin_is_named_on_the_roster():
    text = next(p for p in SAMPLES if "alahan" in p.name).read_text(encoding="utf-8").replace("catalogue: 1.2.0", "catalogue: 1.0.0")
    roster, _ = _roster(parse_list(text))
    pdf = "\n".join(_pages(render_roster(roster)))
    assert "older version; the latest is 1.2.0" in re.sub(r"\s+", " ", pdf)
    assert "older version; the latest is 1.2.0" in render_text(roster)


def test_an_illegal_list_says_so_on_every_page_and_marks_units_and_total():
    text = next(p for p in SAMPLES if "alahan" in p.name).read_text(encoding="utf-8")
    text = text.replace("profile: alahan-sardar-the-pure", "profile: alahan-no-such-mage").replace("count: 12, leader", "count: 90, leader")
    lf = parse_list(text)
    roster, _ = _roster(lf)
    assert not roster.legal
    pages = _pages(render_roster(roster, lf.system.cards(lf.army, lf.system.catalogue_for(lf.army))))
    assert len(pages) > 2 and all("NOT LEGAL" in page for page in pages)
    whole = "\n".join(pages)
    assert "✖ 3. Archers" in whole  # the unit with the missing profile, where it stands
    assert "OVER THE LIMIT" in whole and "missing" in whole
    assert re.search(r"alahan-no-such-mage\s*\(missing\)\s*1\s*missing", whole)  # costed as missing, never 0


def test_a_42_unit_summary_fits_one_a4_page_and_80_columns(tmp_path):
    source = next(p for p in SAMPLES if "tir-na-bor" in p.name).read_text(encoding="utf-8")
    head, rest = source.split("units:\n", 1)
    body, tail = re.split(r"\n(?=tactics:)", rest, maxsplit=1)
    lf = parse_list(head + "units:\n" + (body.rstrip() + "\n") * 6 + tail)
    assert len(lf.army.units) == 42
    roster, cat = _roster(lf)
    summary = build_summary(lf.system, lf.army, cat, roster)
    for paper in ("A4", "Letter"):
        pages = _pages(render_summary(summary, paper))
        assert len(pages) == 1
        assert "Bombardiers" in pages[0] and roster.fingerprint in pages[0] and "NOT LEGAL" in pages[0]
    text = render_summary_text(summary)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert sum(1 for line in text.splitlines() if re.match(r"^[ !]\s*\d+\. ", line)) == 42


def test_export_summary_from_the_command_line(tmp_path):
    sample = str(SAMPLES[0])
    run = [sys.executable, "-m", "armybuilder", "export", sample, "--summary"]
    out = subprocess.run([*run, "--text"], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1].startswith("Fingerprint: ")
    pdf = tmp_path / "s.pdf"
    subprocess.run([*run, "-o", str(pdf)], capture_output=True, text=True, check=True)
    assert len(_pages(pdf.read_bytes())) == 1
