"""The compiled engine (mypyc) plays the same games as the pure-Python one.

Compiled code enforces annotations at run time and keeps ``float`` attributes as C doubles:
an annotation that lies (an int stored in a ``float``) would change a record (10 becomes
10.0) or a narrated line.  So fixed-seed narrated games of every ordered sample pairing, and
a playtest's JSON, are made here (compiled) and in a subprocess on the ``.py`` files, and
compared as text.  Skipped when the engine is not compiled: there is one build to test.
"""

from __future__ import annotations

import json

import pytest
from rr_builds import compiled, run_pure

#: printed by both builds: narrated games of every ordered pairing at two seeds, and a playtest
GAMES = '''
import json
from armybuilder.core.playtest import game_rngs, load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

def games_text():
    system = get_system("rattle-and-rend")
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out = {}
    for seed in (5, 29):
        for a, first in armies.items():
            for b, second in armies.items():
                cat = system.catalogue_for(first)
                records = [system.play_game(cat, first, second, rng, True) for rng in game_rngs(seed, 0, 2)]
                out[f"{seed} {a} vs {b}"] = [
                    [r.winner, [repr(s) for s in r.scores], r.rounds, [[u.side, u.name, repr(u.points), u.survived, repr(u.eliminated_points)] for u in r.units], r.log]
                    for r in records
                ]
    first, second = armies[sorted(armies)[0]], armies[sorted(armies)[-1]]
    out["playtest"] = run_playtest(first, second, 12, seed=3).as_json()
    return json.dumps(out, sort_keys=True)
'''


@pytest.mark.skipif(not compiled(), reason="the Rattle and Rend engine is not compiled (no mypyc build in place): one build only")
def test_compiled_and_pure_builds_play_identical_games():
    scope: dict[str, object] = {}
    exec(GAMES, scope)
    here = scope["games_text"]()  # type: ignore[operator]
    there = run_pure(GAMES + "\nprint(games_text())").strip()
    assert len(json.loads(here)) == 2 * 9 + 1
    assert here == there
