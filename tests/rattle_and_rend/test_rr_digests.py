"""Determinism: committed digests of fixed-seed Rattle and Rend games of every sample pairing.

Each digest covers a few narrated games of one ordered pairing of the bundled samples: winner,
scores, rounds, every group's record and every log line, so a change to the draws or to any
decision of the AI shows.  Speed work must leave them as they are; a change of the rules or of
the AI's policy updates ``rr_digests.json`` in a commit that says why (regenerate with
``RR_WRITE_DIGESTS=1 pytest tests/rattle_and_rend/test_rr_digests.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from armybuilder.core.playtest import game_rngs, load_sample, sample_names
from armybuilder.core.registry import get_system

DIGESTS = Path(__file__).with_name("rr_digests.json")
GAMES = 4
SEED = 7


def _digest(records) -> str:
    text = json.dumps(
        [
            [r.winner, [float(s) for s in r.scores], r.rounds, [[u.side, u.name, u.points, u.survived, u.eliminated_points] for u in r.units], r.log]
            for r in records
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _all() -> dict[str, str]:
    system = get_system("rattle-and-rend")
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out = {}
    for a, first in armies.items():
        for b, second in armies.items():
            cat = system.catalogue_for(first)
            out[f"{a} vs {b}"] = _digest([system.play_game(cat, first, second, rng, True) for rng in game_rngs(SEED, 0, GAMES)])
    return out


def test_fixed_seed_games_match_the_committed_digests():
    found = _all()
    if os.environ.get("RR_WRITE_DIGESTS"):
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert found == json.loads(DIGESTS.read_text(encoding="utf-8"))
