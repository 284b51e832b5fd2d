"""The compiled Rag'Narok 2 engine plays the same games as the pure-Python one.

The engine may run compiled by mypyc (a build of the same .py files). Compiled code stores
values in the types the annotations declare (an ``int`` annotation refuses a float, a ``float``
one turns 10 into 10.0), so a wrong annotation could change a narrated line or a figure without
changing who wins. This test plays fixed-seed games of every ordered pairing of the bundled
samples in this process (compiled) and in a child process told to load the .py files
(``ARMYBUILDER_PURE_PYTHON=1``), and compares everything a user sees: each game's winner,
scores, rounds, per-unit records and narrated log, and the playtest's JSON summary.

Run as a script, it prints that record as JSON (what the child process does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from r2native import engine_compiled

from armybuilder.core.playtest import game_rngs, load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

SEEDS = (3, 11)
GAMES = 2
ROOT = Path(__file__).resolve().parents[2]


def games_record() -> dict:
    """Every game of the comparison, as plain JSON values, with the engine file that played them."""
    from armybuilder.systems.ragnarok2.engine import battle

    system = get_system("ragnarok2")
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out: dict = {"engine": battle.__file__, "games": {}}
    for a, first in armies.items():
        for b, second in armies.items():
            cat = system.catalogue_for(first)
            for seed in SEEDS:
                games = []
                for rng in game_rngs(seed, 0, GAMES):
                    g = system.play_game(cat, first, second, rng, log=True)
                    games.append({
                        "winner": g.winner, "rounds": g.rounds, "scores": [repr(s) for s in g.scores],
                        "units": [[u.side, u.name, repr(u.points), u.survived, repr(u.eliminated_points)] for u in g.units],
                        "log": g.log,
                    })  # fmt: skip
                summary = run_playtest(first, second, GAMES, seed=seed, workers=1, log=True)
                out["games"][f"{a} vs {b} seed {seed}"] = {
                    "games": games, "summary": summary.as_json(), "summary_log": summary.log,
                }
    return out


def _pure_switch_exists() -> bool:
    try:
        from armybuilder import _native  # (the build's switch, when it exists)
    except ImportError:
        return False
    return hasattr(_native, "compiled")


@pytest.mark.skipif(not engine_compiled(), reason="the Rag'Narok 2 engine is not compiled here: only the pure-Python engine runs")
@pytest.mark.skipif(
    not _pure_switch_exists(), reason="no armybuilder._native switch to make a process load the pure-Python engine"
)
def test_compiled_and_pure_engines_play_the_same_games():
    compiled = games_record()
    env = {**os.environ, "ARMYBUILDER_PURE_PYTHON": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(Path(__file__).parent), env.get("PYTHONPATH", "")])
    child = subprocess.run(
        [sys.executable, __file__], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert child.returncode == 0, child.stderr
    pure = json.loads(child.stdout)
    assert pure["engine"].endswith(".py"), f"ARMYBUILDER_PURE_PYTHON=1 still loaded {pure['engine']}"
    assert not compiled["engine"].endswith(".py")
    assert compiled["games"].keys() == pure["games"].keys()
    for key, played in compiled["games"].items():
        assert played == pure["games"][key], f"{key}: the compiled engine played another game than the pure one"


if __name__ == "__main__":
    print(json.dumps(games_record()))
