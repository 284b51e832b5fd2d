"""Legality as an organiser reads it, in every print and in ``validate``.

A list that sets its own point limit is never shown as simply legal for its format: a
warning finding with its own rule id in every system, and the status "limit set by the
list: 1250 A.P. (format 1000 A.P.)" on the roster (PDF and text), the summary (PDF and
text) and ``validate``.  An illegal list says which rules it breaks, in words, on every
print, the summary too; places are counted from 1 as the prints number units, and an
army-wide error is not pinned on the unit a fix could start at.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_samples import pdf_pages

from armybuilder.core.lists import list_fingerprint, parse_list
from armybuilder.core.paths import place_words
from armybuilder.core.registry import get_system, system_ids
from armybuilder.core.summary import build_summary, render_summary_text
from armybuilder.core.text_roster import render_text
from armybuilder.pdf.roster import render_roster
from armybuilder.pdf.summary import render_summary

ALAHAN = Path("catalog/ragnarok2/samples/alahan-lions.yaml")


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _own_limit_list(system_id: str):
    """The system's first sample with a limit 250 above its format's (legal under it)."""
    system = get_system(system_id)
    name, item = system.source.samples()[0]
    army = parse_list(item.read_text(encoding="utf-8"), name).army
    cat = system.catalogue_for(army)
    fmt = system.format_of(army, cat)
    return system, army.model_copy(update={"limit": fmt.limit + 250}), cat, fmt


@pytest.mark.parametrize("system_id", system_ids())
def test_an_own_limit_is_a_warning_with_its_own_rule_id_in_every_system(system_id):
    system, army, cat, fmt = _own_limit_list(system_id)
    own = [f for f in system.validate(army, cat) if f.rule.endswith(".own-limit")]
    assert len(own) == 1 and own[0].severity == "warning" and own[0].where == "limit"
    note = f"limit set by the list: {fmt.limit + 250} {fmt.unit} (format {fmt.limit} {fmt.unit})"
    assert own[0].message.startswith(note) and system.limit_note(army, cat) == note
    assert not [f for f in system.validate(army.model_copy(update={"limit": None}), cat) if f.rule.endswith(".own-limit")]


@pytest.mark.parametrize("system_id", ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"])
def test_every_print_of_an_own_limit_list_says_so_in_the_status(system_id):
    system, army, cat, fmt = _own_limit_list(system_id)
    note = f"limit set by the list: {fmt.limit + 250} {fmt.unit} (format {fmt.limit} {fmt.unit})"
    roster = system.roster(army, cat, list_fingerprint(army, cat))
    assert roster.legal and roster.limit_note == note
    text = render_text(roster)
    assert re.search(rf"Status: LEGAL only at the list's own limit \(\d warnings?\) — {re.escape(note)}", text)
    summary = build_summary(system, army, cat, roster)
    assert note in _flat(render_summary_text(summary))
    assert "Status: LEGAL only at the list's own limit" in render_summary_text(summary)
    for pdf in (render_roster(roster), render_summary(summary)):
        pages = [_flat(p) for p in pdf_pages(pdf)]
        assert note in pages[0] and "LEGAL only at the list's own limit" in pages[0]
        assert "no rule is broken" not in pages[0]
        assert all("OWN LIMIT" in p for p in pages)  # every loose page says it


def test_validate_states_the_own_limit_in_its_status_line(tmp_path):
    text = ALAHAN.read_text(encoding="utf-8").replace("format: 1000-ap", "format: 1000-ap\nlimit: 1250")
    path = tmp_path / "own.yaml"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "armybuilder", "validate", "--no-cache", str(path)], capture_output=True, text=True)
    head = run.stdout.splitlines()[0]
    assert run.returncode == 0 and "LEGAL only at the list's own limit" in head
    assert "limit set by the list: 1250 A.P. (format 1000 A.P.)" in head
    assert "warning ragnarok2.points.own-limit" in run.stdout


def _illegal():
    text = ALAHAN.read_text(encoding="utf-8").replace("count: 12, leader", "count: 40, leader")
    text = text.replace("profile: alahan-agonn-the-ardent-2nd", "profile: alahan-valdenar-prince-of-doriman")
    lf = parse_list(text)
    cat = lf.system.catalogue_for(lf.army)
    return lf, cat, lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))


def test_every_print_of_an_illegal_list_says_which_rules_it_breaks():
    lf, cat, roster = _illegal()
    errors = [f for f in roster.findings if f.severity == "error"]
    assert len(errors) >= 3 and any(f.army_wide for f in errors)
    summary = build_summary(lf.system, lf.army, cat, roster)
    outputs = {
        "summary text": render_summary_text(summary),
        "summary PDF": "\n".join(pdf_pages(render_summary(summary))),
        "roster text": render_text(roster),
        "roster PDF": "\n".join(pdf_pages(render_roster(roster))),
    }
    for name, out in outputs.items():
        flat = _flat(out)
        assert "NOT LEGAL" in flat, name
        for f in errors:
            assert _flat(f.message) in flat, (name, f.message)
        assert "units[" not in flat and "members[" not in flat, name  # places in words, from 1


def test_an_army_wide_error_is_not_printed_as_a_units_error():
    lf, _, roster = _illegal()
    limit = next(f for f in roster.findings if f.rule == "ragnarok2.points.limit")
    assert limit.army_wide and limit.where.startswith("units[")  # the editor still jumps to a unit to cut
    text = render_text(roster)
    cut = int(re.match(r"units\[(\d+)\]", limit.where)[1]) + 1
    heading = next(line for line in text.splitlines() if re.match(rf"^(✖ )?{cut}\. ", line))
    marked = {f.where for f in roster.findings if f.severity == "error" and not f.army_wide}
    assert heading.startswith("✖") == any(w.startswith(f"units[{cut - 1}]") for w in marked)
    findings_part = text.split("== Findings ==")[1]
    limit_line = next(line for line in findings_part.splitlines() if limit.message in line)
    assert f"unit {cut}" not in limit_line.split(limit.message)[1]


def test_places_are_counted_from_one():
    assert place_words("units[0].members[1]") == "unit 1, member 2"
    assert place_words("god_powers[2]") == "god power 3"
    assert place_words("groups[4].champion_action") == "group 5, champion action"
    assert place_words("limit") == "limit" and place_words("") == ""
    assert place_words("not a [path") == "not a [path"
