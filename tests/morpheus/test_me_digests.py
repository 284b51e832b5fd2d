"""Determinism: committed digests of fixed-seed Morpheus (Ragnarok) games of every sample pairing.

Each digest covers a few narrated games of one ordered pairing of the bundled samples: winner,
scores, rounds, every model's record and every log line, so a change to the draws or to any
decision of the AI shows.  Speed work must leave them as they are; a change of the rules or of
the AI's policy updates ``me_digests.json`` in a commit that says why (regenerate with
``ME_WRITE_DIGESTS=1 pytest tests/morpheus/test_me_digests.py``).
"""

from __future__ import annotations

from pathlib import Path

from game_digests import assert_committed, sample_pairing_digests

DIGESTS = Path(__file__).with_name("me_digests.json")
GAMES = 4
SEED = 7


def test_fixed_seed_games_match_the_committed_digests():
    assert_committed(sample_pairing_digests("morpheus-ragnarok", SEED, GAMES), DIGESTS, "ME_WRITE_DIGESTS")
