"""A point limit of the player's own (1250 A.P.), in place of the format's, on every system.

The list file holds it (``limit:``), and validation, status, roster and fingerprint all
read it through ``core.checks.list_format``.
"""

from __future__ import annotations

import json

import pytest

from armybuilder.cli import main
from armybuilder.core.lists import list_fingerprint, load_list, new_list_file, parse_list
from armybuilder.core.registry import get_system
from armybuilder.core.text_roster import render_text

SYSTEMS = ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok")


def _sample(system_id: str):
    system = get_system(system_id)
    name, item = system.source.samples()[0]
    return parse_list(item.read_text(encoding="utf-8"), name).army


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_own_limit_is_kept_in_the_file_and_used_everywhere(system_id, tmp_path):
    system = get_system(system_id)
    cat = system.catalogue()
    army = system.new_list(cat, limit=1234)
    assert army.limit == 1234
    assert system.points(army, cat).limit == 1234
    assert system.format_of(army, cat).limit == 1234

    path = tmp_path / "own.yaml"
    new_list_file(army).save(path)
    assert "limit: 1234" in path.read_text(encoding="utf-8")
    again = load_list(path).army
    assert again.limit == 1234

    plain = system.new_list(cat)
    assert plain.limit is None
    assert list_fingerprint(again, cat) != list_fingerprint(plain, cat)

    # the limit a format already has is not stored twice
    assert system.new_list(cat, limit=system.default_format(cat).limit).limit is None

    roster = render_text(system.roster(again, cat, list_fingerprint(again, cat)))
    assert "1234" in roster


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_validation_checks_the_own_limit(system_id):
    system = get_system(system_id)
    army = _sample(system_id)
    cat = system.catalogue_for(army)
    total = system.points(army, cat).total
    assert total > 1
    over = army.model_copy(update={"limit": int(total) - 1})
    rules = {f.rule for f in system.validate(over, cat) if f.severity.value == "error"}
    assert any(r.endswith(".limit") for r in rules), rules
    roomy = army.model_copy(update={"limit": int(total) + 500})
    assert not any(f.rule.endswith(".limit") and f.severity.value == "error" for f in system.validate(roomy, cat))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_list_settings_edit_sets_and_clears_the_own_limit(system_id):
    system = get_system(system_id)
    cat = system.catalogue()
    army = system.new_list(cat)
    action = next(a for a in system.actions(army, cat, "") if a.id == "set-format")
    assert [p.name for p in action.params] == ["format", "limit"]
    fmt = army.format
    edited, _ = system.apply(army, cat, "", "set-format", {"format": fmt, "limit": "1250"})
    assert edited.limit == 1250 and system.points(edited, cat).limit == 1250
    again = next(a for a in system.actions(edited, cat, "") if a.id == "set-format")
    assert dict((p.name, p.default) for p in again.params) == {"format": fmt, "limit": 1250}  # the form shows it
    cleared, _ = system.apply(edited, cat, "", "set-format", {"format": fmt, "limit": ""})
    assert cleared.limit is None
    for bad in ("0", "-5", "many"):
        with pytest.raises(ValueError, match="point limit"):
            system.apply(army, cat, "", "set-format", {"format": fmt, "limit": bad})


def test_a_zero_or_negative_limit_in_a_file_is_a_positioned_error(tmp_path):
    from armybuilder.core.errors import InputError

    text = "armybuilder: 1\nsystem: ragnarok2\ncatalogue: 1.1.0\nformat: 1000-ap\nlimit: 0\npeople: alahan\n"
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_list(path)
    assert "bad.yaml:5" in str(caught.value) and "limit" in str(caught.value)


def test_cli_new_with_a_limit_no_format_has(tmp_path, capsys):
    out = tmp_path / "own.yaml"
    assert main(["new", "ragnarok2", "--limit", "1250", "-o", str(out)]) == 0
    assert "limit 1250" in capsys.readouterr().out
    assert main(["validate", str(out), "--format", "json"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)["files"][0]
    assert report["limit"] == 1250
    # a limit a format has picks that format, as before
    out2 = tmp_path / "big.yaml"
    assert main(["new", "ragnarok2", "--limit", "1500", "-o", str(out2)]) == 0
    text = out2.read_text(encoding="utf-8")
    assert "format: 1500-ap" in text and "limit:" not in text
    assert main(["new", "ragnarok2", "--limit", "0", "-o", str(tmp_path / "zero.yaml")]) == 2
