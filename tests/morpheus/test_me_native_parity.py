"""The compiled Morpheus engine (mypyc) plays the same games as the pure-Python one.

Compiled code enforces annotations at run time and keeps ``float`` attributes as C doubles: an
annotation that lies (an int stored in a ``float``) would change a record (10 becomes 10.0) or
a narrated line.  So fixed-seed narrated games of every ordered sample pairing at two seeds, and
a playtest's JSON, are made here (compiled) and in a subprocess on the ``.py`` files
(``ARMYBUILDER_PURE_PYTHON=1``), and compared as text.  Skipped when the engine is not
compiled: there is one build to test.  The digests (test_me_digests.py) tie both builds to the
committed games as well, since ./scripts/test runs them on whichever build is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder._native import compiled

ROOT = Path(__file__).resolve().parents[2]

#: printed by both builds: narrated games of every ordered pairing at two seeds, and a playtest
GAMES = '''
import json
from armybuilder.core.playtest import game_rngs, load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

def games_text():
    system = get_system("morpheus-ragnarok")
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out = {}
    for seed in (5, 29):
        for a, first in armies.items():
            for b, second in armies.items():
                cat = system.catalogue_for(first)
                records = [system.play_game(cat, first, second, rng, True) for rng in game_rngs(seed, 0, 3)]
                out[f"{seed} {a} vs {b}"] = [
                    [r.winner, [repr(s) for s in r.scores], r.rounds,
                     [[u.side, u.name, repr(u.points), u.survived, repr(u.eliminated_points)] for u in r.units], r.log]
                    for r in records
                ]
    first, second = armies[sorted(armies)[0]], armies[sorted(armies)[-1]]
    out["playtest"] = run_playtest(first, second, 40, seed=3).as_json()
    return json.dumps(out, sort_keys=True)
'''

#: run first in the pure subprocess: it must really have loaded the sources
_CHECK_PURE = '''
import armybuilder.systems.morpheus.engine.battle as _battle
assert _battle.__file__.endswith(".py"), _battle.__file__
'''


def run_pure(code: str) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python engine; its standard output."""
    env = dict(os.environ, ARMYBUILDER_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _CHECK_PURE + code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.skipif(not compiled("morpheus"), reason="the Morpheus engine is not compiled (no mypyc build in place): one build only")
def test_compiled_and_pure_builds_play_identical_games():
    from armybuilder.systems.morpheus.engine import battle

    assert not str(battle.__file__).endswith(".py")  # this process plays the compiled build
    scope: dict[str, object] = {}
    exec(GAMES, scope)
    here = scope["games_text"]()  # type: ignore[operator]
    there = run_pure(GAMES + "\nprint(games_text())").strip()
    games = json.loads(here)
    assert len(games) == 2 * 4 + 1
    assert all(any(line.startswith("result:") for line in record[4]) for key, rows in games.items() if key != "playtest" for record in rows)
    assert here == there
