"""Editor protocol, status, roster, sheets and cards of Ragnarok (Morpheus Engine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.core.catalog import catalog_root
from armybuilder.core.findings import is_legal
from armybuilder.core.lists import list_fingerprint, load_list, new_list_file
from armybuilder.core.registry import get_system
from armybuilder.core.system import EntryRef, KeyValues, Table
from armybuilder.systems.morpheus import SYSTEM, Morpheus

SAMPLES = sorted(Path(str(catalog_root() / "morpheus-ragnarok" / "samples")).glob("*.yaml"))


def ids(actions):
    return [a.id for a in actions]


def test_registered_system(me_cat):
    assert isinstance(get_system("morpheus-ragnarok"), Morpheus)
    assert SYSTEM.default_format(me_cat).id == "800-glory"
    assert SYSTEM.default_format(me_cat).limit == 800


def test_build_a_legal_clan_with_edits_only(me_cat):
    army = SYSTEM.new_list(me_cat, name="Built")
    path = ""
    army, path = SYSTEM.apply(army, me_cat, "", "add-warrior", {"type": "jarl"})
    assert path == "warriors[0]" and army.warriors[0].jarl  # a Jarl type is marked on arrival
    for item in ("heavy-armor", "shield", "axe-sword-hammer"):
        army, _ = SYSTEM.apply(army, me_cat, "warriors[0]", "add-equipment", {"item": item})
    army, path = SYSTEM.apply(army, me_cat, "", "add-warrior", {"type": "bondi"})
    army, _ = SYSTEM.apply(army, me_cat, path, "add-equipment", {"item": "spear"})
    for _ in range(5):
        army, path = SYSTEM.apply(army, me_cat, path, "duplicate-warrior", {})
    army, _ = SYSTEM.apply(army, me_cat, "", "add-god-power", {"power": "battle-dance"})
    army, _ = SYSTEM.apply(army, me_cat, "god_powers[0]", "toggle-imprinted", {})
    army, _ = SYSTEM.apply(army, me_cat, "", "rename-list", {"name": "Edited"})
    army, _ = SYSTEM.apply(army, me_cat, "", "edit-notes", {"notes": "n"})
    army, _ = SYSTEM.apply(army, me_cat, "warriors[1]", "set-label", {"label": "Bjorn"})
    army, _ = SYSTEM.apply(army, me_cat, "warriors[1]", "edit-warrior-notes", {"notes": "brave"})
    assert len(army.warriors) == 7 and sum(w.jarl for w in army.warriors) == 1
    assert army.god_powers[0].imprinted and army.name == "Edited"
    assert is_legal(SYSTEM.validate(army, me_cat)), SYSTEM.validate(army, me_cat)
    assert SYSTEM.points(army, me_cat).total == 160 + 15 + 5 + 10 + 6 * 55


def test_every_offered_action_applies(me_base, me_cat):
    army = me_base
    for path in ("", "warriors", "warriors[1]", "warriors[1].equipment[0]", "god_powers", "god_powers[0]"):
        for action in SYSTEM.actions(army, me_cat, path):
            args = {}
            for p in action.params:
                args[p.name] = p.choices[-1].value if p.choices else (p.default if p.default not in (None, "") else (int(p.minimum or 1) if p.kind == "int" else "x"))
            if action.id == "set-organiser":  # date and round are checked: "x" is no date
                args.update(date="2026-11-28", round="3")
            new, selected = SYSTEM.apply(army, me_cat, path, action.id, args)
            assert new is not army
            SYSTEM.outline(new, me_cat)
            SYSTEM.validate(new, me_cat)
            assert isinstance(selected, str)


def test_remove_edits_and_jarl_moves(me_base, me_cat):
    army, sel = SYSTEM.apply(me_base, me_cat, "warriors[1].equipment[2]", "remove-equipment", {})
    assert army.warriors[1].equipment == ["light-leathers", "shield"] and sel == "warriors[1]"
    army, _ = SYSTEM.apply(army, me_cat, "warriors[5]", "set-jarl", {})
    assert [w.jarl for w in army.warriors].index(True) == 5 and sum(w.jarl for w in army.warriors) == 1
    army, sel = SYSTEM.apply(army, me_cat, "warriors[7]", "remove-warrior", {})
    assert len(army.warriors) == 7 and sel == "warriors[6]"
    army, sel = SYSTEM.apply(army, me_cat, "god_powers[0]", "remove-god-power", {})
    assert army.god_powers == [] and sel == "god_powers"
    army, sel = SYSTEM.apply(army, me_cat, "warriors[2]", "move-up", {})
    assert sel == "warriors[1]"
    army, _ = SYSTEM.apply(army, me_cat, "warriors[2]", "set-type", {"type": "berserker"})
    assert army.warriors[2].type == "berserker"
    assert me_base.warriors[1].equipment[-1] == "spear"  # the original is untouched


@pytest.mark.parametrize(
    "path,action,args,message",
    [
        ("", "add-warrior", {"type": "troll"}, "no warrior type"),
        ("", "add-warrior", {}, "'type' is needed"),
        ("warriors[0]", "add-equipment", {"item": "laser"}, "no equipment"),
        ("", "add-god-power", {"power": "touch-of-life"}, "already"),
        ("warriors[40]", "set-jarl", {}, "choose a warrior"),
        ("god_powers[9]", "remove-god-power", {}, "choose a God power"),
        ("warriors[0]", "fly", {}, "unknown edit"),
    ],
)
def test_bad_edits_raise_value_errors(me_base, me_cat, path, action, args, message):
    with pytest.raises(ValueError, match=message):
        SYSTEM.apply(me_base, me_cat, path, action, args)


def test_outline_status_browse_detail(me_base, me_cat):
    outline = SYSTEM.outline(me_base, me_cat)
    warriors, powers = outline
    assert warriors.cost == 665 and len(warriors.children) == 8
    assert warriors.children[0].detail.startswith("Jarl")
    assert warriors.children[0].children[1].label == "Shield"
    assert powers.children[0].label == "Touch of Life"
    status = {s.label: s for s in SYSTEM.status(me_base, me_cat)}
    assert status["Glory"].value == "665/800" and status["Glory"].ok
    assert status["Models"].ok and status["Jarl"].ok and status["Gear"].ok
    browse = SYSTEM.browse(me_cat)
    kinds = {b.kind for b in browse}
    assert {"warrior", "weapon", "armour", "shield", "God power", "ability"} <= kinds
    for entry in browse:
        assert SYSTEM.detail(me_cat, entry.ref).title
    jarl = SYSTEM.detail(me_cat, EntryRef("warriors", "jarl"))
    assert ("AP", "3") in jarl.stats and jarl.cost == "160 Glory"
    assert any(title.startswith("Tactician (12)") for title, _ in jarl.sections)
    assert SYSTEM.detail(me_cat, EntryRef("warriors", "nobody")).subtitle.startswith("not in catalogue")


def test_roster_sheets_and_cards(me_cat):
    for sample in SAMPLES:
        lf = load_list(sample)
        fp = list_fingerprint(lf.army, me_cat)
        roster = SYSTEM.roster(lf.army, me_cat, fp)
        assert roster.legal and roster.fingerprint == fp
        assert ("Models", str(len(lf.army.warriors))) in roster.header
        tables = [b for b in roster.blocks if isinstance(b, Table)]
        assert len(tables[0].rows) == len(lf.army.warriors)
        assert roster.glossary
        cards = SYSTEM.cards(lf.army, me_cat)
        assert len(cards) == len(lf.army.warriors) + len(lf.army.god_powers)
    sheets = SYSTEM.sheets(me_cat)
    opposed = next(b for b in sheets.blocks if isinstance(b, Table) and b.title == "X versus Y")
    assert opposed.provisional
    zero = next(r for r in opposed.rows if r[0] == "+0")
    assert zero[1] == "7" and zero[2] == "58.3%" and zero[3] == "10+"  # need 7: +1 Damage on 10, 11, 12


def test_samples_validate_through_the_cli(capsys):
    code = main(["validate", *map(str, SAMPLES), "--format", "json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0 and payload["summary"]["legal"] == 2 == len(SAMPLES)
    assert all(f["valid"] and f["points"] <= 800 for f in payload["files"])


def test_catalogue_check_is_clean(capsys):
    assert main(["catalog", "check", "morpheus-ragnarok"]) == 0
    assert "morpheus-ragnarok 1.0.0: ok" in capsys.readouterr().out


def test_new_list_saves_and_loads(tmp_path, me_cat):
    army = SYSTEM.new_list(me_cat, name="Fresh")
    army, _ = SYSTEM.apply(army, me_cat, "", "add-warrior", {"type": "jarl"})
    lf = new_list_file(army, tmp_path / "fresh.yaml")
    lf.save()
    again = load_list(tmp_path / "fresh.yaml")
    assert again.army == army
    assert "format: 800-glory" in (tmp_path / "fresh.yaml").read_text()


def test_roster_of_a_broken_clan_is_not_legal(me_base, me_cat):
    me_base.warriors[0].jarl = False
    roster = SYSTEM.roster(me_base, me_cat, "X")
    assert not roster.legal
    assert any(isinstance(b, KeyValues) and ("Jarl", "none") in b.items for b in roster.blocks)
