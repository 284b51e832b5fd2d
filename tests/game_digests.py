"""Digests of fixed-seed games of every ordered sample pairing of a game system, shared by the
Rattle and Rend and Morpheus determinism tests (each keeps its own committed JSON file)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from armybuilder.core.playtest import game_rngs, load_sample, sample_names
from armybuilder.core.registry import get_system


def _digest(records) -> str:
    text = json.dumps(
        [
            [r.winner, [float(s) for s in r.scores], r.rounds, [[u.side, u.name, u.points, u.survived, u.eliminated_points] for u in r.units], r.log]
            for r in records
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sample_pairing_digests(system_id: str, seed: int, games: int) -> dict[str, str]:
    """One digest per ordered pairing: winner, scores, rounds, every unit's record, every log line."""
    system = get_system(system_id)
    armies = {n: load_sample(system, n) for n in sample_names(system)}
    out = {}
    for a, first in armies.items():
        for b, second in armies.items():
            cat = system.catalogue_for(first)
            out[f"{a} vs {b}"] = _digest([system.play_game(cat, first, second, rng, True) for rng in game_rngs(seed, 0, games)])
    return out


def assert_committed(found: dict[str, str], path: Path, write_variable: str) -> None:
    """Compare with the committed file; with *write_variable* set, rewrite it first (a change
    of games is a deliberate commit that says why)."""
    if os.environ.get(write_variable):
        path.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert found == json.loads(path.read_text(encoding="utf-8"))
