"""Determinism: golden narrated games of every sample pairing, and playtests that do not depend
on the number of workers.

One fixed-seed game of every ordered pairing of the bundled samples is committed as the text a
player reads (``golden/<first>--<second>.txt``: the log, then the winner, the scores and every
unit's record); a difference fails with the lines that changed. A change to the engine that
changes games rewrites those files in a deliberate commit that says why (regenerate with
``R2_WRITE_GOLDEN=1 pytest tests/ragnarok2/test_r2_digests.py``).
"""

from __future__ import annotations

from pathlib import Path

from game_digests import assert_golden_games

from armybuilder.core.playtest import load_sample, run_playtest, sample_names
from armybuilder.core.registry import get_system

GOLDEN = Path(__file__).with_name("golden")
GAMES = 3
SEED = 7


def test_fixed_seed_games_match_the_golden_narrated_games():
    assert_golden_games("ragnarok2", SEED, GOLDEN, "R2_WRITE_GOLDEN")


def test_one_and_two_workers_give_the_same_playtest():
    """Statistics are streamed (no per-game records come back from the workers), so the
    worker-count check compares whole summaries of every pairing."""
    system = get_system("ragnarok2")
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    for a in armies:
        for b in armies:
            one = run_playtest(armies[a], armies[b], GAMES, seed=SEED, workers=1).as_json()
            two = run_playtest(armies[a], armies[b], GAMES, seed=SEED, workers=2).as_json()
            assert one == two, f"{a} vs {b}"
