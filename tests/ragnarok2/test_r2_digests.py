"""Determinism: committed digests of fixed-seed games of every sample pairing.

The digest of (winner, scores, rounds) of a few games of every ordered pairing of the bundled
samples is committed in ``r2_digests.json``; it must be the same with one worker and with two.
A change to the engine that changes games must update that file in a deliberate commit that
says why (regenerate with ``R2_WRITE_DIGESTS=1 pytest tests/ragnarok2/test_r2_digests.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from armybuilder.core.playtest import game_rngs, load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

DIGESTS = Path(__file__).with_name("r2_digests.json")
GAMES = 3
SEED = 7


def _digest(records) -> str:
    text = json.dumps([[r.winner, [float(s) for s in r.scores], r.rounds] for r in records])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _records(system, first, second):
    """The games run_playtest plays, in game order: game *i* on child *i* of the seed."""
    cat = system.catalogue_for(first)
    return [system.play_game(cat, first, second, rng) for rng in game_rngs(SEED, 0, GAMES)]


def _armies():
    system = get_system("ragnarok2")
    return system, {n: load_sample(system, n) for n in sample_names(system)}


def _all() -> dict[str, str]:
    system, armies = _armies()
    return {f"{a} vs {b}": _digest(_records(system, armies[a], armies[b])) for a in armies for b in armies}


def test_fixed_seed_games_match_the_committed_digests():
    found = _all()
    if os.environ.get("R2_WRITE_DIGESTS"):
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert found == json.loads(DIGESTS.read_text(encoding="utf-8"))


def test_one_and_two_workers_give_the_same_playtest():
    """Statistics are streamed (no per-game records come back from the workers), so the
    worker-count check compares whole summaries of every pairing."""
    system, armies = _armies()
    for a in armies:
        for b in armies:
            one = run_playtest(armies[a], armies[b], GAMES, seed=SEED, workers=1).as_json()
            two = run_playtest(armies[a], armies[b], GAMES, seed=SEED, workers=2).as_json()
            assert one == two, f"{a} vs {b}"
