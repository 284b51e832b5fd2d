"""What the engines' parity tests share: the same games from both builds of an engine.

An engine may run compiled (mypyc, setup.py) or from its .py files (armybuilder._native's
switch, ``ARMYBUILDER_PURE_PYTHON=1``). Compiled code enforces annotations at run time and keeps
``float`` attributes as C doubles: an annotation that lies (an int stored in a ``float``) would
change a record (10 becomes 10.0) or a narrated line. So a parity test prints fixed-seed
narrated games of every ordered sample pairing at two seeds, and a playtest's JSON, in this
process (compiled) and in a fresh interpreter on the sources, and compares the two texts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: printed by both builds (``games_text(system id, games per seed and pairing, playtest games)``)
GAMES = '''
import json
from armybuilder.core.playtest import game_rngs, load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

def games_text(system_id, per_seed, playtest_games):
    system = get_system(system_id)
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out = {}
    for seed in (5, 29):
        for a, first in armies.items():
            for b, second in armies.items():
                cat = system.catalogue_for(first)
                records = [system.play_game(cat, first, second, rng, True) for rng in game_rngs(seed, 0, per_seed)]
                out[f"{seed} {a} vs {b}"] = [
                    [r.winner, [repr(s) for s in r.scores], r.rounds,
                     [[u.side, u.name, repr(u.points), u.survived, repr(u.eliminated_points)] for u in r.units], r.log]
                    for r in records
                ]
    first, second = armies[sorted(armies)[0]], armies[sorted(armies)[-1]]
    out["playtest"] = run_playtest(first, second, playtest_games, seed=3).as_json()
    return json.dumps(out, sort_keys=True)
'''


def run_pure(code: str, module: str, *folders: Path) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python engine; its standard output.

    The interpreter first checks that *module* (one of the engine's compiled modules) was
    loaded from its .py file, so a comparison never compares the compiled build with itself.
    *folders* go on its path too (a test folder whose modules *code* imports).
    """
    check = f"import {module} as _engine\nassert _engine.__file__.endswith('.py'), _engine.__file__\n"
    path = os.pathsep.join([str(ROOT), str(ROOT / "tests"), *map(str, folders)])
    env = dict(os.environ, ARMYBUILDER_PURE_PYTHON="1", PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", check + code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def both_builds(system_id: str, module: str, per_seed: int, playtest_games: int) -> tuple[str, str]:
    """The games' text from this process and from the pure-Python engine."""
    scope: dict[str, object] = {}
    exec(GAMES, scope)
    here = scope["games_text"](system_id, per_seed, playtest_games)  # type: ignore[operator]
    there = run_pure(GAMES + f"\nprint(games_text({system_id!r}, {per_seed}, {playtest_games}))", module).strip()
    return str(here), there
