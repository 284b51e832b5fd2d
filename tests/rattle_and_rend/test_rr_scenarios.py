"""Scenarios visible: `playtest --scenario NAME` fixes Rattle and Rend's scenario, and the JSON and
the text report give the win rate of each scenario beside the overall one."""

from __future__ import annotations

import json
from pathlib import Path

from armybuilder.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "rattle-and-rend" / "samples"
IDS = {"kill-them-all", "king-of-the-hill", "capture-the-flags", "duel", "conquest"}


def test_scenario_option_fixes_every_game(capsys):
    path = str(SAMPLES / "vampire-court.yaml")
    assert main(["playtest", path, "--vs", "dwarven-throng", "--games", "12", "--scenario", "duel", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert list(payload["scenarios"]) == ["duel"] and payload["scenarios"]["duel"]["games"] == 12
    assert payload["scenarios"]["duel"]["win_rate"] == payload["win_rate"]


def test_drawn_scenarios_are_reported_one_by_one(capsys):
    path = str(SAMPLES / "vampire-court.yaml")
    assert main(["playtest", path, "--vs", "dwarven-throng", "--games", "40", "--seed", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    scenarios = payload["scenarios"]
    assert set(scenarios) <= IDS and len(scenarios) >= 3
    assert sum(s["games"] for s in scenarios.values()) == 40
    wins = sum(s["wins"] + 0.5 * s["draws"] for s in scenarios.values())
    assert abs(wins / 40 - payload["win_rate"]) < 1e-9
    assert main(["playtest", path, "--vs", "dwarven-throng", "--games", "40", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "by scenario (drawn for each game):" in text and ("King of the Hill" in text or "Conquest" in text)
    assert "(12 points) vs Dwarven Throng (12 points)" in text


def test_an_unknown_scenario_is_refused_with_the_known_ones(capsys):
    path = str(SAMPLES / "vampire-court.yaml")
    assert main(["playtest", path, "--vs", "dwarven-throng", "--games", "2", "--scenario", "siege"]) == 2
    err = capsys.readouterr().err
    assert "no scenario 'siege'" in err and "capture-the-flags" in err
