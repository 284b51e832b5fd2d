"""Rattle and Rend editor protocol: outline, actions, apply round trips, printing content."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder.core.lists import list_content, new_list_file, parse_list
from armybuilder.core.system import Card, Heading, Table
from armybuilder.systems.rattle_and_rend.rules import run_rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "catalog" / "rattle-and-rend" / "samples"


def build(system, cat, edits):
    army = system.new_list(cat, name="Built in the editor")
    path = ""
    for where, action, args in edits:
        army, path = system.apply(army, cat, where if where is not None else path, action, args)
    return army, path


def test_new_warband_then_every_choice_through_apply_is_legal(system, cat):
    army, _ = build(
        system,
        cat,
        [
            ("", "add-group", {"type": "fighters", "label": "Spears"}),
            ("", "add-group", {"type": "champion"}),
            (None, "set-champion-action", {"id": "Spot Weakness"}),  # names work as well as ids
            (None, "attach", {"target": 0}),
            ("", "add-group", {"type": "shooters"}),
            ("", "add-group", {"type": "skirmishers"}),
            ("", "add-group", {"type": "heavy"}),
            (None, "set-heavy-trait", {"id": "colossal"}),
            ("", "add-group", {"type": "ward"}),
            (None, "set-warding-reaction", {"id": "defiance"}),
            ("", "add-group", {"type": "champion"}),
            (None, "set-champion-action", {"id": "scheming-plot"}),
            ("", "set-traits", {"first": "elites", "second": "Tactitians"}),  # the seed's spelling (RR-D3)
            ("", "set-drive", {"drive": "frenzy"}),
        ],
    )
    assert army.traits == ["elites", "tacticians"]
    assert army.groups[1].attached_to == 0
    assert run_rules(army, cat) == []
    outline = system.outline(army, cat)
    groups = outline[0]
    assert [n.path for n in groups.children] == ["groups[0]", "groups[2]", "groups[3]", "groups[4]", "groups[5]", "groups[6]"]
    assert groups.children[0].children[0].path == "groups[1]"  # the Champion sits under its group
    assert "attached to Spears (Fighters)" in groups.children[0].children[0].detail
    assert [s.label for s in system.status(army, cat)] == ["Points", "Groups", "Line", "Traits", "Drive"]
    assert all(s.ok for s in system.status(army, cat))


def test_save_and_load_round_trip_keeps_the_warband(system, cat, tmp_path):
    army = parse_list((SAMPLES / "vampire-court.yaml").read_text(), "v").army
    lf = new_list_file(army, tmp_path / "court.yaml")
    lf.save()
    again = parse_list((tmp_path / "court.yaml").read_text(), "again").army
    assert list_content(again) == list_content(army)


def test_edits_keep_attachments_pointing_at_the_same_group(system, cat):
    army = parse_list((SAMPLES / "vampire-court.yaml").read_text(), "v").army
    fighters = army.groups[3]
    assert army.groups[4].attached_to == 3
    army, _ = system.apply(army, cat, "groups[0]", "remove-group", {})
    assert army.groups[3].attached_to == 2 and army.groups[2] == fighters
    army, where = system.apply(army, cat, "groups[2]", "duplicate-group", {})
    assert where == "groups[3]" and army.groups[4].attached_to == 2
    army, where = system.apply(army, cat, "groups[2]", "move-up", {})
    assert where == "groups[1]" and army.groups[4].attached_to == 1 and army.groups[1] == fighters
    army, _ = system.apply(army, cat, "groups[1]", "remove-group", {})
    assert army.groups[3].attached_to is None  # its group is gone: the Champion stands alone


def test_duplicated_champion_does_not_double_the_attachment(system, cat):
    army = parse_list((SAMPLES / "ogrekin-hunting-party.yaml").read_text(), "o").army
    army, where = system.apply(army, cat, "groups[3]", "duplicate-group", {})
    assert army.groups[3].attached_to == 2 and army.groups[4].attached_to is None


def test_changing_type_drops_choices_of_the_old_type(system, cat):
    army = parse_list((SAMPLES / "dwarven-throng.yaml").read_text(), "d").army
    army, _ = system.apply(army, cat, "groups[5]", "set-type", {"type": "shooters"})
    assert army.groups[5].heavy_trait is None
    assert army.groups[4].transported_by is None  # Shooters carry nobody


def test_transport_edits(system, cat):
    army = parse_list((SAMPLES / "dwarven-throng.yaml").read_text(), "d").army
    army, _ = system.apply(army, cat, "groups[4]", "leave-transport", {})
    assert army.groups[4].transported_by is None
    labels = [a.id for a in system.actions(army, cat, "groups[1]")]
    assert "set-transport" in labels
    army, _ = system.apply(army, cat, "groups[1]", "set-transport", {"carrier": 5})
    assert army.groups[1].transported_by == 5 and run_rules(army, cat) == []
    with pytest.raises(ValueError, match="carries no groups"):
        system.apply(army, cat, "groups[2]", "set-transport", {"carrier": 3})


@pytest.mark.parametrize(
    ("path", "action", "args", "message"),
    [
        ("", "add-group", {"type": "dragons"}, "no group type 'dragons'"),
        ("", "set-traits", {"first": "elites", "second": "elites"}, "must differ"),
        ("", "set-drive", {"drive": "greed"}, "no drive 'greed'"),
        ("groups[0]", "set-champion-action", {"id": "sprint"}, "no champion action 'sprint'"),
        ("groups[3]", "attach", {"target": 5}, "cannot be attached"),
        ("groups[42]", "rename-group", {"label": "x"}, "choose a group first"),
        ("groups[0]", "explode", {}, "unknown edit"),
    ],
)
def test_bad_edits_explain_themselves(system, cat, path, action, args, message):
    army = parse_list((SAMPLES / "vampire-court.yaml").read_text(), "v").army
    with pytest.raises(ValueError, match=message):
        system.apply(army, cat, path, action, args)


def test_every_offered_action_applies(system, cat):
    """Whatever the editor offers at a place can be applied with its first choices."""
    army = parse_list((SAMPLES / "vampire-court.yaml").read_text(), "v").army
    paths = [""] + [f"groups[{i}]" for i in range(len(army.groups))] + ["traits", "traits[0]", "drive", "groups"]
    for path in paths:
        for action in system.actions(army, cat, path):
            args = {}
            for p in action.params:
                if p.kind == "choice":
                    args[p.name] = p.default if p.default is not None else p.choices[0].value
                else:
                    args[p.name] = p.default if p.default not in (None, "") else (int(p.minimum or 1) if p.kind == "int" else "x")
            if action.id == "set-organiser":  # date and round are checked: "x" is no date
                args.update(date="2026-11-28", round="3")
            if action.id == "set-traits":
                args = {"first": "elites", "second": "zealots"}
            if action.id == "add-trait":
                args = {"trait": "raiders"}
            new, where = system.apply(army, cat, path, action.id, args)
            assert new is not army
            run_rules(new, cat)  # never raises


def test_browse_and_detail(system, cat):
    entries = system.browse(cat)
    kinds = {e.kind for e in entries}
    assert {"group type", "champion action", "warding reaction", "warband trait", "scenario", "deployment", "terrain"} <= kinds
    shooters = system.detail(cat, next(e.ref for e in entries if e.name == "Shooters"))
    assert dict(shooters.stats) == {"MOV": "S", "RNG": "M", "FURY": "13+", "GUILE": "13+", "WILL": "13+"}
    assert any(h == "Reaction: Suppression" for h, _ in shooters.sections)
    suppression = system.detail(cat, next(e.ref for e in entries if e.name == "Suppression"))
    assert ("Also called", "Stand and Shoot, Give Fire") in suppression.sections


def test_roster_sheets_and_cards(system, cat):
    army = parse_list((SAMPLES / "dwarven-throng.yaml").read_text(), "d").army
    roster = system.roster(army, cat, "AAAA-BBBB-CCCC")
    assert roster.legal and dict(roster.header)["Points"] == "12 / 12 points"
    table = next(b for b in roster.blocks if isinstance(b, Table))
    fighters = next(r for r in table.rows if r[0] == "2. Fighters")
    assert fighters[4:7] == ("11+", "15+", "9+")  # Death-Defiers: Will 11+ becomes 9+
    heavy = next(r for r in table.rows if r[0].startswith("6. Heavy"))
    assert heavy[2] == "M" and "Transport, carries 4 points" in heavy[0]  # Transport + Riders
    sheet_titles = [b.text for b in system.sheets(cat).blocks if isinstance(b, Heading)]
    for title in ("Dice checks", "Standard actions", "Champion actions", "Reactions", "Warding reactions",
                  "Scenarios (d20)", "Deployment (d20)", "Terrain"):
        assert title in sheet_titles
    cards = system.cards(army, cat)
    assert all(isinstance(c, Card) for c in cards)
    assert [c.kind for c in cards] == ["group"] * 6
    # the warband traits and the drive are written once, in the glossary the cards point to
    glossary = dict(roster.glossary)
    drive = next(v for k, v in glossary.items() if k.endswith("(drive)"))
    assert "provisional" in drive and sum(k.endswith("(drive)") for k in glossary) == 1


def test_cli_validate_json_and_catalog_check():
    exe = [sys.executable, "-m", "armybuilder"]
    files = sorted(str(p) for p in SAMPLES.glob("*.yaml"))
    out = subprocess.run([*exe, "validate", *files, "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert [f["valid"] for f in payload["files"]] == [True, True, True]
    assert {f["points"] for f in payload["files"]} == {12}
    check = subprocess.run([*exe, "catalog", "check", "rattle-and-rend"], capture_output=True, text=True, cwd=ROOT)
    assert check.returncode == 0 and "rattle-and-rend 1.0.0: ok" in check.stdout


def test_cli_validate_reports_a_broken_warband(tmp_path):
    text = (SAMPLES / "ogrekin-hunting-party.yaml").read_text().replace("traits: [ambushers, zealots]", "traits: [ambushers]")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    out = subprocess.run([sys.executable, "-m", "armybuilder", "validate", str(bad), "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1
    finding = json.loads(out.stdout)["files"][0]["findings"][0]
    assert finding["rule"] == "rattle-and-rend.traits.count" and finding["line"] is not None


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from armybuilder.systems.rattle_and_rend.army import Group, RRList  # noqa: E402

# letters, digits, punctuation and spaces of any script (control characters such as NEL are a
# YAML-level matter of core/yamlio, not of this system)
_text = st.text(st.characters(whitelist_categories=("L", "N", "P", "Zs")), max_size=20)
_groups = st.builds(
    Group,
    type=st.sampled_from(["champion", "heavy", "fighters", "shooters", "skirmishers", "ward", "dragons"]),
    label=_text,
    champion_action=st.one_of(st.none(), st.sampled_from(["banishment", "Spot Weakness"])),
    heavy_trait=st.one_of(st.none(), st.just("transport")),
    warding_reaction=st.one_of(st.none(), st.just("rally")),
    attached_to=st.one_of(st.none(), st.integers(0, 9)),
    transported_by=st.one_of(st.none(), st.integers(0, 9)),
    notes=_text,
)


@settings(max_examples=60, deadline=None)
@given(
    name=_text.filter(lambda s: s.strip() != ""),
    notes=_text,
    traits=st.lists(st.sampled_from(["elites", "Tactitians", "riders", "unknown"]), max_size=3),
    drive=st.one_of(st.none(), st.sampled_from(["frenzy", "greed"])),
    groups=st.lists(_groups, max_size=9),
)
def test_any_warband_survives_save_and_load(name, notes, traits, drive, groups):
    army = RRList(catalogue="1.0.0", format="12-points", name=name, notes=notes, traits=traits, drive=drive, groups=groups)
    lf = new_list_file(army)
    again = parse_list(lf.render(), "round trip").army
    assert list_content(again) == list_content(army)
