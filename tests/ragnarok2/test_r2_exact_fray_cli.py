"""`armybuilder odds ragnarok2 --fray ... --vs ...` through the CLI's main()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main

# Thallion riders (Executioner) are Implacable/1: a new combat after the outcome of the fray.
THALLION = (Path(__file__).parents[1] / "ragnarok2" / "data" / "thallion-implacable.yaml").read_text(encoding="utf-8")


def test_units_with_abilities_are_answered(capsys):
    """Knights of the Lion (Master strike) charge Gravediggers (Fierce, Master strike)."""
    code, out, _ = run(capsys, "odds", "ragnarok2", "--fray", "alahan-lions:Knights", "--vs", "acheron-undead-host:Gravediggers", "--charge", "--json")
    assert code == 0
    data = json.loads(out)
    assert sum(row["p"] for row in data["joint_losses"]) + data["pruned_mass"] == pytest.approx(1.0, abs=1e-8)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fray_json_is_a_distribution_with_the_documented_fields(capsys):
    code, out, _ = run(capsys, "odds", "ragnarok2", "--fray", "alahan-lions:Royal", "--vs", "acheron-undead-host:Wolfen", "--charge", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["charge"] is True
    assert data["attacker"]["unit"] == "Royal guard" and data["defender"]["unit"] == "Wolfen zombies"
    total = sum(row["p"] for row in data["joint_losses"]) + data["pruned_mass"]
    assert total == pytest.approx(1.0, abs=1e-8)
    for side in ("attacker", "defender"):
        s = data[side]
        assert len(s["losses"]) == s["fighters"] + 1
        assert s["at_least"][0] == pytest.approx(1.0, abs=1e-8)
        assert all(x >= y - 1e-12 for x, y in zip(s["at_least"], s["at_least"][1:], strict=False))


def test_fray_text_has_at_least_tables_and_characters(capsys):
    code, out, _ = run(capsys, "odds", "ragnarok2", "--fray", "alahan-lions:1", "--vs", "acheron-undead-host:1")
    assert code == 0
    assert "Guards of the Lion loses at least k fighters" in out
    assert "Valdenar, prince of Doriman (Guards of the Lion) falls:" in out


@pytest.mark.parametrize(
    ("fray", "vs", "message"),
    [
        ("alahan-lions:9", "acheron-undead-host:1", "no unit number 9"),
        ("alahan-lions:Royal", "nowhere:1", "neither a list file nor a bundled sample"),
        ("alahan-lions:Royal", "acheron-undead-host:Zombie", "names several units"),
        ("alahan-lions", "acheron-undead-host:1", "expected LIST:UNIT"),
    ],
)
def test_bad_references_are_clear_errors_with_exit_2(capsys, fray, vs, message):
    code, out, err = run(capsys, "odds", "ragnarok2", "--fray", fray, "--vs", vs)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_implacable_riders_are_answered_with_their_new_combats(capsys, tmp_path):
    """Thallion riders (Implacable/1) charge the Royal guard: the fray is answered, the JSON says
    how often the Implacable combat is fought, the text has a line for it."""
    riders = tmp_path / "thallion.yaml"
    riders.write_text(THALLION, encoding="utf-8")
    code, out, err = run(capsys, "odds", "ragnarok2", "--fray", f"{riders}:1", "--vs", "alahan-lions:Royal", "--charge", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["attacker"]["unit"] == "Thallion riders"
    (fought,) = data["implacable_combats"]
    assert 0.3 < fought < 0.9
    assert sum(row["p"] for row in data["joint_losses"]) + data["pruned_mass"] == pytest.approx(1.0, abs=1e-8)
    code, out, _ = run(capsys, "odds", "ragnarok2", "--fray", f"{riders}:1", "--vs", "alahan-lions:Royal", "--charge")
    assert code == 0
    assert f"Implacable combat after the outcome: fought {100 * fought:.1f} %" in out
    # A fray without an Implacable unit has no such combat and no such line.
    code, out, _ = run(capsys, "odds", "ragnarok2", "--fray", "alahan-lions:Royal", "--vs", "acheron-undead-host:Wolfen", "--json")
    assert json.loads(out)["implacable_combats"] == []


def test_the_fray_is_found_from_the_odds_help(capsys):
    """A player who asks `odds ragnarok2 --help` learns the fray exists; `--fray --help` (with
    no LIST:UNIT yet) explains it instead of failing on the missing value."""
    with pytest.raises(SystemExit) as done:
        main(["odds", "ragnarok2", "--help"])
    assert done.value.code == 0
    assert "--fray LIST:UNIT --vs LIST_OR_SAMPLE:UNIT" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit) as done:
        main(["odds", "ragnarok2", "--fray", "--help"])
    assert done.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--charge" in out and "Exact outcome of one fray" in out
