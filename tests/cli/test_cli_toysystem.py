"""The toy fourth system through the command line: new, validate, export, catalog, with no CLI edit."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from armybuilder.cli import main

TESTS = Path(__file__).resolve().parents[1]


def test_new_validate_and_export_a_toy_list(tmp_path, capsys):
    target = tmp_path / "crew.yaml"
    assert main(["new", "toy-pit", "--faction", "crabs", "--name", "Shell Game", "-o", str(target)]) == 0
    assert "crew: crabs" in target.read_text(encoding="utf-8")
    capsys.readouterr()

    assert main(["validate", str(target), "--format", "json"]) == 0  # an empty crew is legal
    report = json.loads(capsys.readouterr().out)["files"][0]
    assert report["system"] == "toy-pit" and report["valid"] and report["limit"] == 50

    text = target.read_text(encoding="utf-8").replace("fighters: []", "fighters:\n- type: crab-matriarch\n- type: gull-captain\n")
    target.write_text(text, encoding="utf-8")
    assert main(["validate", str(target)]) == 1
    out = capsys.readouterr().out
    gull_line = text.splitlines().index("- type: gull-captain") + 1
    assert f"toy-pit.crew.mixed (line {gull_line}): fighter 2 (Gull Captain) belongs to another crew (gulls); remove it" in out
    assert "toy-pit.points.leaders" in out  # 30 coins of leaders, more than 40 % of 50

    pdf = tmp_path / "crew.pdf"
    assert main(["export", str(target), "-o", str(pdf), "--cards"]) == 0
    flat = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages).split())
    assert "Shell Game" in flat and "Pit Fighters · Reef Crabs · Pit (50 coins)" in flat and "Crab Matriarch" in flat


def test_catalog_commands_know_the_toy_system(capsys):
    assert main(["catalog", "list"]) == 0
    assert "toy-pit" in capsys.readouterr().out
    assert main(["catalog", "check", "toy-pit"]) == 0
    assert main(["catalog", "diff", "toy-pit", "1.0.0", "1.1.0"]) == 0
    assert "fighters gull-brawler: cost 8 → 9" in capsys.readouterr().out


def test_a_separate_process_registers_the_toy_system_from_the_environment(tmp_path):
    env = {**os.environ, "ARMYBUILDER_SYSTEMS": "toy-pit=toysystem", "PYTHONPATH": str(TESTS)}
    sample = TESTS / "toysystem" / "catalog" / "samples" / "crabs.yaml"
    out = subprocess.run([sys.executable, "-m", "armybuilder", "validate", str(sample)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "LEGAL — Pit Fighters, catalogue 1.1.0, 44/50 coins" in out.stdout


def _toy_process(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """``armybuilder ARGV`` in a process of its own that registers the toy system from the
    environment, as a system living outside the package is registered."""
    env = {**os.environ, "ARMYBUILDER_SYSTEMS": "toy-pit=toysystem", "PYTHONPATH": str(TESTS),
           "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache")}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, text=True, env=env, cwd=tmp_path)


def test_a_toy_playtest_end_to_end(tmp_path):
    """The toy engine played through the command a player uses: games, scenarios, the narrated
    log, the JSON summary, all from the seed, and a scenario fixed by name."""
    crabs = str(TESTS / "toysystem" / "catalog" / "samples" / "crabs.yaml")
    run = _toy_process(tmp_path, "playtest", crabs, "--vs", "gulls", "--games", "40", "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["games"] == 40 and summary["wins"] + summary["draws"] + summary["losses"] == 40
    assert set(summary["scenarios"]) <= {"open-pit", "sudden-death"} and summary["scenarios"]
    # the leaders lend their second blow: the Crab Matriarch in every game (the default policy
    # spends it at once), the Gull Captain whenever he stands long enough
    assert summary["options_used"]["list"]["second-blow"] == 40 and 0 < summary["options_used"]["opponent"]["second-blow"] < 40
    again = _toy_process(tmp_path, "playtest", crabs, "--vs", "gulls", "--games", "40", "--seed", "3", "--json", "--workers", "2")
    assert json.loads(again.stdout) == summary  # the same seed plays the same games on any workers
    text = _toy_process(tmp_path, "playtest", crabs, "--vs", "gulls", "--games", "10", "--log", "--scenario", "sudden-death")
    assert text.returncode == 0, text.stderr
    assert "R0 scenario sudden-death (3 rounds)" in text.stdout and "strikes" in text.stdout
    wrong = _toy_process(tmp_path, "playtest", crabs, "--vs", "gulls", "--scenario", "lava-pit")
    assert wrong.returncode == 2 and "open-pit" in wrong.stderr and "Traceback" not in wrong.stderr


def test_toy_odds_from_the_system_then_from_the_remembered_tables(tmp_path):
    """``armybuilder odds toy-pit``: the first run loads the system and remembers its tables,
    the next runs the toy's calculator from its file alone; both print the same."""
    argv = ["odds", "toy-pit", "--striker", "gull-captain", "--target", "crab-matriarch", "--blows", "2", "--json"]
    first = _toy_process(tmp_path, *argv)
    assert first.returncode == 0, first.stderr
    payload = json.loads(first.stdout)
    assert (payload["attack"], payload["guard"]) == (4, 5) and abs(payload["p_blow"] - 4 / 9) < 1e-15
    assert payload["put_out"] == pytest.approx([(5 / 9) ** 2, 2 * (4 / 9) * (5 / 9), (4 / 9) ** 2])
    assert list((tmp_path / "cache").glob("toy-pit-odds.json"))  # the tables, remembered
    again = _toy_process(tmp_path, *argv)
    assert again.returncode == 0 and again.stdout == first.stdout
    wrong = _toy_process(tmp_path, "odds", "toy-pit", "--striker", "kraken")
    assert wrong.returncode == 2 and "--striker 'kraken': no such fighter type" in wrong.stderr
