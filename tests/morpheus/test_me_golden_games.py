"""Golden narrated games of the Morpheus-Engine Ragnarok (``tests/golden/me-*.txt``): the two
sample clans against each other, and a mirror, where every line must say whose model acts. A
change shows as a diff to read against the seed; ``GOLDEN_WRITE=1`` rewrites them deliberately."""

from __future__ import annotations

import pytest
from golden_games import assert_golden, narrated

SAMPLES = "catalog/morpheus-ragnarok/samples"
GAMES = [
    ("me-wolves-vs-ravens-seed3.txt", [f"{SAMPLES}/wolves-of-the-fjord.yaml", "--vs", "ravens-of-hrafnsey", "--seed", "3"]),
    ("me-wolves-mirror-seed1.txt", [f"{SAMPLES}/wolves-of-the-fjord.yaml", "--vs", "wolves-of-the-fjord", "--seed", "1"]),
]


@pytest.mark.parametrize(("name", "args"), GAMES, ids=[n for n, _ in GAMES])
def test_a_narrated_game_matches_its_golden_text(capsys, name, args):
    assert_golden(narrated(capsys, args), name)
