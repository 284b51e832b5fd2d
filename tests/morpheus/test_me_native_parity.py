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

import pytest
from native_parity import both_builds

from armybuilder._native import compiled


@pytest.mark.skipif(not compiled("morpheus-ragnarok"), reason="the Morpheus engine is not compiled (no mypyc build in place): one build only")
def test_compiled_and_pure_builds_play_identical_games():
    from armybuilder.systems.morpheus.engine import battle

    assert not str(battle.__file__).endswith(".py")  # this process plays the compiled build
    here, there = both_builds("morpheus-ragnarok", battle.__name__, per_seed=3, playtest_games=40)
    games = json.loads(here)
    assert len(games) == 2 * 4 + 1
    assert all(any(line.startswith("result:") for line in record[4]) for key, rows in games.items() if key != "playtest" for record in rows)
    assert here == there
