"""Golden narrated games of Rattle and Rend (``tests/golden/rr-*.txt``): a mirror, where every
line must say whose group acts, and two different warbands in a fixed scored scenario. A change
shows as a diff to read against the seed; ``GOLDEN_WRITE=1`` rewrites them deliberately."""

from __future__ import annotations

import pytest
from golden_games import assert_golden, narrated

SAMPLES = "catalog/rattle-and-rend/samples"
GAMES = [
    ("rr-throng-mirror-seed3.txt", [f"{SAMPLES}/dwarven-throng.yaml", "--vs", "dwarven-throng", "--seed", "3"]),
    ("rr-ogrekin-vs-vampires-conquest-seed1.txt", [f"{SAMPLES}/ogrekin-hunting-party.yaml", "--vs", "vampire-court", "--seed", "1", "--scenario", "conquest"]),
]


@pytest.mark.parametrize(("name", "args"), GAMES, ids=[n for n, _ in GAMES])
def test_a_narrated_game_matches_its_golden_text(capsys, name, args):
    assert_golden(narrated(capsys, args), name)
