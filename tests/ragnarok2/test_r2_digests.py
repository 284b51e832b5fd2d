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

import pytest

from armybuilder.core.playtest import load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

DIGESTS = Path(__file__).with_name("r2_digests.json")
GAMES = 3


def _digest(records) -> str:
    text = json.dumps([[r.winner, [float(s) for s in r.scores], r.rounds] for r in records])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _records(first, second, workers: int):
    import armybuilder.core.playtest as playtest

    captured = []
    real = playtest.summarise

    def keep(records, seed):
        captured.extend(records)
        return real(records, seed)

    playtest.summarise = keep
    try:
        run_playtest(first, second, GAMES, seed=7, workers=workers)
    finally:
        playtest.summarise = real
    return captured


def _all(workers: int) -> dict[str, str]:
    system = get_system("ragnarok2")
    names = sample_names(system)
    armies = {n: load_sample(system, n) for n in names}
    return {f"{a} vs {b}": _digest(_records(armies[a], armies[b], workers)) for a in names for b in names}


@pytest.mark.parametrize("workers", [1, 2])
def test_fixed_seed_games_match_the_committed_digests(workers):
    found = _all(workers)
    if os.environ.get("R2_WRITE_DIGESTS") and workers == 1:
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert found == json.loads(DIGESTS.read_text(encoding="utf-8"))
