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
from native_parity import both_builds
from rr_builds import GAME_MODULE, compiled


@pytest.mark.skipif(not compiled(), reason="the Rattle and Rend engine is not compiled (no mypyc build in place): one build only")
def test_compiled_and_pure_builds_play_identical_games():
    here, there = both_builds("rattle-and-rend", GAME_MODULE, per_seed=2, playtest_games=12)
    assert len(json.loads(here)) == 2 * 9 + 1
    assert here == there
