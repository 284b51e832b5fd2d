"""The toy fourth system through the command line: new, validate, export, catalog, with no CLI edit."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

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
