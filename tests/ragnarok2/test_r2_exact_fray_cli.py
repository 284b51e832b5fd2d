"""`armybuilder odds ragnarok2 --fray ... --vs ...` through the CLI's main()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main

# Thallion riders (Executioner) are Implacable: the one ability the exact fray still refuses.
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
        ("{implacable}:1", "acheron-undead-host:1", "does not enumerate: Thallion rider (Executioner) (Thallion riders): Implacable"),
    ],
)
def test_bad_references_are_clear_errors_with_exit_2(capsys, tmp_path, fray, vs, message):
    implacable = tmp_path / "thallion.yaml"
    implacable.write_text(THALLION, encoding="utf-8")
    fray = fray.format(implacable=implacable)
    code, out, err = run(capsys, "odds", "ragnarok2", "--fray", fray, "--vs", vs)
    assert code == 2
    assert message in err and "Traceback" not in err
