"""``armybuilder odds``: one calculator for every surface, and a start without the system.

The command's first run loads the system (its catalogue) and remembers the plain tables;
the next runs read them back and import neither the system, pydantic nor numpy.  Both runs
print what the protocol's ``system.odds`` (the TUI's and the bench's path) computes, float
for float; the tables are believed only while the files they were read from are unchanged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import zip_longest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.registry import KNOWN_SYSTEMS, get_system
from armybuilder.odds import tables
from armybuilder.systems.ragnarok2 import odds_calculator as ragnarok2
from armybuilder.systems.ragnarok2.engine.dice import R2_D1_COLUMNS, attack_then_wounds

PROBE = (
    "import contextlib, io, json, sys\n"
    "from armybuilder.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
    "    code = main(sys.argv[1:])\n"
    "print(json.dumps({'code': code, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
)

CASES = {
    "ragnarok2": (["--attack", "5", "--defense", "3", "--strength", "6", "--resistance", "5", "--dice", "20"],
                  {"attack": 5, "defense": 3, "strength": 6, "resistance": 5, "dice": 20, "attack_shift": 0, "wound_shift": 0}),
    "rattle-and-rend": (["--attacker", "fighters", "--target", "shooters", "--poisoners"],
                        {"mode": "attack", "stat": 11, "bonus": 0, "penalty": 0, "fury": 11, "will": 11, "attacker": "fighters",
                         "target": "shooters", "will_bonus": 0, "will_penalty": 0, "poisoners": True}),
    "morpheus-ragnarok": (["--attack", "3", "--defense", "2", "--strength", "3", "--resistance", "3", "--attacks", "3", "--hp", "2"],
                          {"attack": 3, "defense": 2, "strength": 3, "resistance": 3, "attacks": 3, "damage": "normal",
                           "charge": False, "overwhelm": False, "attack_bonus": 0, "strength_bonus": 0, "hp": 2}),
}
HEAVY = ("numpy", "pydantic", "pydantic_core", "yaml", "ruamel", "textual", "rich", "reportlab")


def _run(cache, *argv: str) -> dict:
    env = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(cache)}
    env.pop("ARMYBUILDER_SYSTEMS", None)
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("system_id", list(CASES))
def test_a_second_odds_run_loads_no_system_and_prints_the_same(tmp_path, system_id):
    argv, values = CASES[system_id]
    first = _run(tmp_path, "odds", system_id, *argv, "--json")
    assert first["code"] == 0
    assert "pydantic" in first["modules"]  # the first run did load the system
    again = _run(tmp_path, "odds", system_id, *argv, "--json")
    assert again["code"] == 0 and again["out"] == first["out"]
    assert [m for m in again["modules"] if m.split(".")[0] in HEAVY and m != "pydantic.plugin._loader"] == []
    # the calculator alone, run from its file: not its system's package nor the protocol
    system = get_system(system_id)
    assert [m for m in again["modules"] if m.startswith("armybuilder.systems.")] == [system.odds_calculator]
    assert "armybuilder.core.system" not in again["modules"]
    # the very floats of the protocol's path (the TUI's and the bench's)
    assert json.loads(again["out"]) == json.loads(json.dumps(system.odds(system.catalogue(), values).payload))
    text = _run(tmp_path, "odds", system_id, *argv)
    assert text["out"].splitlines() == list(system.odds(system.catalogue(), values).lines)


def test_bad_odds_input_is_the_same_clear_error_on_both_paths(tmp_path):
    argv = ["odds", "ragnarok2", "--attack", "5", "--defense", "3", "--strength", "6", "--resistance", "5", "--dice", "201"]
    env = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(tmp_path)}
    slow = subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, text=True, env=env)
    _run(tmp_path, "odds", "ragnarok2", *CASES["ragnarok2"][0])  # tables remembered
    fast = subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, text=True, env=env)
    assert slow.returncode == fast.returncode == 2
    assert slow.stderr == fast.stderr and "--dice must be between 0 and 200" in fast.stderr


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _remember(system_id: str) -> None:
    system = get_system(system_id)
    cat = system.catalogue()
    tables.remember(system_id, KNOWN_SYSTEMS[system_id], system.source.folder, system.odds_calculator, system.name, cat.version,
                    system.odds_tables(cat), system.odds_module)


def test_remembered_tables_are_those_the_system_reads(cache_dir):
    for system_id in CASES:
        _remember(system_id)
        entry = tables.cached(system_id, KNOWN_SYSTEMS[system_id])
        assert entry is not None and entry["name"] == get_system(system_id).name
        system = get_system(system_id)
        assert entry["calculator"] == system.odds_calculator == f"{KNOWN_SYSTEMS[system_id]}.odds_calculator"
        assert entry["tables"] == json.loads(json.dumps(system.odds_tables(system.catalogue())))
        assert tables.calculator(entry).PARAMETERS == __import__(system.odds_calculator, fromlist=["PARAMETERS"]).PARAMETERS


def test_tables_are_not_believed_once_their_files_change_or_are_edited(cache_dir, monkeypatch):
    _remember("ragnarok2")
    assert tables.cached("ragnarok2", KNOWN_SYSTEMS["ragnarok2"]) is not None
    assert tables.cached("ragnarok2", "some.other.module") is None
    entry = tables.cached("ragnarok2", KNOWN_SYSTEMS["ragnarok2"])
    assert entry is not None
    with monkeypatch.context() as patch:  # a calculator outside the system's package is never run
        patch.setattr(tables.catalog_cache, "read", lambda name: {**entry, "calculator": "armybuilder.cli"})
        assert tables.cached("ragnarok2", KNOWN_SYSTEMS["ragnarok2"]) is None
    with monkeypatch.context() as patch:  # a catalogue file, the model or the calculator changed
        patch.setattr(tables, "_digest", lambda *args: "changed")
        assert tables.cached("ragnarok2", KNOWN_SYSTEMS["ragnarok2"]) is None
    path = cache_dir / "ragnarok2-odds.json"
    tag, payload = path.read_bytes().split(b"\n", 1)
    forged = payload.replace(b"Rag'Narok 2", b"Forged game")
    assert forged != payload
    path.write_bytes(tag + b"\n" + forged)
    assert tables.cached("ragnarok2", KNOWN_SYSTEMS["ragnarok2"]) is None


def test_the_digest_covers_the_catalogue_files(tmp_path):
    folder = tmp_path / "cat"
    (folder / "errata").mkdir(parents=True)
    (folder / "catalogue.yaml").write_text("id: x\n")
    (folder / "errata" / "1.0.1.yaml").write_text("version: 1.0.1\n")
    module, calculator = KNOWN_SYSTEMS["ragnarok2"], ragnarok2.__name__
    before = tables._digest("ragnarok2", module, calculator, folder)
    (folder / "samples").mkdir()
    (folder / "samples" / "a.yaml").write_text("name: a\n")  # samples are not read for the odds
    assert tables._digest("ragnarok2", module, calculator, folder) == before
    (folder / "errata" / "1.0.1.yaml").write_text("version: 1.0.2\n")
    assert tables._digest("ragnarok2", module, calculator, folder) != before


ROWS = [[c.label, c.low, c.high, c.success, c.reroll_from, c.halved] for c in R2_D1_COLUMNS]


@settings(max_examples=40, deadline=None)
@given(st.integers(-16, 16), st.integers(-16, 16), st.integers(0, 60), st.integers(-2, 2), st.integers(-2, 2))
def test_rag_narok_odds_agree_with_the_engine_dice(att_diff, str_diff, dice, a_shift, w_shift):
    """The integer calculator against the engine's numpy distributions (FFT sums, cut at
    1e-15), every column of R2-D1 including the halved ones."""
    params = {"attack": 16 + att_diff, "defense": 16, "strength": 16 + str_diff, "resistance": 16, "dice": dice,
              "attack_shift": a_shift, "wound_shift": w_shift}
    payload, _ = ragnarok2.compute(ROWS, params)
    attacks, wounds = attack_then_wounds(R2_D1_COLUMNS, att_diff, str_diff, dice, a_shift, w_shift)
    for name, dist in (("attacks", attacks), ("wounds", wounds)):
        got = payload[name]["pmf"]
        assert max(abs(a - b) for a, b in zip_longest(got, dist.pmf.tolist(), fillvalue=0.0)) < 1e-12
        assert payload[name]["mean"] == pytest.approx(dist.mean(), rel=1e-9, abs=1e-12)
        assert abs(sum(got) - 1.0) < 2e-12
