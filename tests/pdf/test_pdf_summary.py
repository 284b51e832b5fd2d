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


def _units_list(n: int) -> str:
    """The Tir-Nâ-Bor sample grown to ``n`` units (its Characters stay in the first unit)."""
    source = next(p for p in SAMPLES if "tir-na-bor" in p.name).read_text(encoding="utf-8")
    head, rest = source.split("units:\n", 1)
    body, tail = re.split(r"\n(?=tactics:)", rest, maxsplit=1)
    blocks = re.split(r"\n(?=  - name:)", body.rstrip())
    bare = [re.sub(r"\n    members:(\n      .*)+", "", b) for b in blocks]
    units = [blocks[0]] + [bare[1 + i % (len(bare) - 1)] for i in range(n - 1)]
    # a big event's own limit: the list breaks no rule, so its status adds one warning line
    return (head + "units:\n" + "\n".join(units) + "\n" + tail).replace("format: 1000-ap", "format: 1000-ap\nlimit: 9000")


def _sizes(data: bytes) -> list[tuple[int, float, str]]:
    out: list[tuple[int, float, str]] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages, start=1):

        def visit(text, cm, tm, font, size, number=number):
            if text.strip():
                out.append((number, round(size * abs(tm[3]) * abs(cm[3]), 2), text.strip()))

        page.extract_text(visitor_text=visit)
    return out


def _summary_of(text: str):
    lf = parse_list(text)
    roster, cat = _roster(lf)
    return roster, build_summary(lf.system, lf.army, cat, roster)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_forty_units_fit_one_page_at_eight_points_or_more(paper):
    roster, summary = _summary_of(_units_list(40))
    assert len(summary.lines) == 40
    data = render_summary(summary, paper)
    pages = _pages(data)
    assert len(pages) == 1
    assert "Bombardiers" in pages[0] and roster.fingerprint in pages[0]
    assert min(size for _, size, _ in _sizes(data)) >= 8.0
    text = render_summary_text(summary)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert sum(1 for line in text.splitlines() if re.match(r"^[ !]\s*\d+\. ", line)) == 40


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_sixty_units_run_on_a_clean_second_page_never_smaller(paper):
    roster, summary = _summary_of(_units_list(60).replace("format: 1000-ap", "format: 1000-ap\nplayer: Ann Example\nevent: Autumn Clash\nround: 3"))
    data = render_summary(summary, paper)
    pages = _pages(data)
    assert len(pages) == 2
    assert min(size for _, size, _ in _sizes(data)) >= 8.0
    numbers = [int(m) for page in pages for m in re.findall(r"^✖?(\d+)$", page, re.M)]
    assert sorted(set(numbers)) == list(range(1, 61))  # every unit, none lost at the break
    second = pages[1]
    assert "continued" in second and "Units" in second and "Cost" in second  # the header row repeats
    assert "Total:" in second and "Total:" not in pages[0].split("Units")[-1]
    for page in pages:  # a loose page says whose it is
        assert "Ann Example · Autumn Clash · round 3" in page and roster.fingerprint in page


@pytest.mark.parametrize(
    "stem, label",
    [("alahan-lions", "Aspect budget"), ("akkylannie-griffin-crusade", "Aspect budget"), ("vampire-court", "Groups"), ("ravens-of-hrafnsey", "Glory")],
)
def test_the_summary_shows_what_the_organiser_counts(stem, label):
    lf = load_list(next(p for p in SAMPLES if p.stem == stem))
    roster, cat = _roster(lf)
    summary = build_summary(lf.system, lf.army, cat, roster)
    assert label in dict(summary.checks)
    for out in (render_summary_text(summary), "\n".join(_pages(render_summary(summary)))):
        assert label in out and dict(summary.checks)[label].split(" (")[0] in re.sub(r"\s+", " ", out)


def test_the_vampire_court_counts_its_attached_champion_with_its_group():
    lf = load_list(next(p for p in SAMPLES if p.stem == "vampire-court"))
    roster, cat = _roster(lf)
    groups = dict(build_summary(lf.system, lf.army, cat, roster).checks)["Groups"]
    assert groups.startswith("8 of 4–8") and "9 entries, 1 attached Champion counted with its group" in groups


def test_export_summary_from_the_command_line(tmp_path):
    sample = str(SAMPLES[0])
    run = [sys.executable, "-m", "armybuilder", "export", sample, "--summary"]
    out = subprocess.run([*run, "--text"], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1].startswith("Fingerprint: ")
    pdf = tmp_path / "s.pdf"
    subprocess.run([*run, "-o", str(pdf)], capture_output=True, text=True, check=True)
    assert len(_pages(pdf.read_bytes())) == 1


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_the_organisers_checks_wrap_between_words(path):
    """A check's value wraps at its spaces on the summary page, never inside a word
    ("Skir" / "mishers"): every value reads whole once the page's line breaks are spaces."""
    lf = load_list(path)
    roster, cat = _roster(lf)
    summary = build_summary(lf.system, lf.army, cat, roster)
    page = re.sub(r"\s+", " ", "\n".join(_pages(render_summary(summary))))
    for label, value in summary.checks:
        assert re.sub(r"\s+", " ", value) in page, (label, value)
