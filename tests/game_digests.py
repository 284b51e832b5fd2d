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


def narrated_game(system_id: str, first: str, second: str, seed: int) -> str:
    """One fixed-seed game of two bundled samples as a player reads it: the narrated log, then
    the winner, the scores and every unit's record (the golden text of :func:`assert_golden_games`)."""
    system = get_system(system_id)
    a, b = load_sample(system, first), load_sample(system, second)
    cat = system.catalogue_for(a)
    record = system.play_game(cat, a, b, game_rngs(seed, 0, 1)[0], True)
    lines = [f"# {first} against {second}, game 0 of seed {seed}", *record.log, "",
             f"winner: {'draw' if record.winner is None else f'side {record.winner + 1}'}; "
             f"scores {record.scores[0]:g} and {record.scores[1]:g}; {record.rounds} rounds"]  # fmt: skip
    lines += [f"unit: side {u.side + 1} {u.name}: {u.points:g} A.P., {'survived' if u.survived else 'lost'}, "
              f"{u.eliminated_points:g} A.P. eliminated" for u in record.units]  # fmt: skip
    return "\n".join(lines) + "\n"


def assert_golden_games(system_id: str, seed: int, folder: Path, write_variable: str) -> None:
    """Every ordered pairing of the system's samples, one narrated game each, against the text
    committed in *folder* (``<first>--<second>.txt``): a difference fails with the lines that
    differ. With *write_variable* set the files are written first (a change of games is a
    deliberate commit that says why)."""
    import difflib

    system = get_system(system_id)
    names = sample_names(system)
    problems = []
    for first in names:
        for second in names:
            text = narrated_game(system_id, first, second, seed)
            path = folder / f"{first}--{second}.txt"
            if os.environ.get(write_variable):
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            committed = path.read_text(encoding="utf-8") if path.exists() else ""
            if text != committed:
                diff = difflib.unified_diff(committed.splitlines(), text.splitlines(), str(path), "this run", lineterm="", n=1)
                problems.append("\n".join(list(diff)[:40]))
    assert not problems, "narrated games differ from the golden files:\n" + "\n\n".join(problems)
