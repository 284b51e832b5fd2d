"""One task of a meta run: a few pieces of pairings, played wherever the task lands.

The numbers must not depend on what runs them (one process, eight, a cluster)
nor on the order tasks finish in.  So game *i* of the pairing (A, B) draws from
child *i* of a seed sequence whose entropy is the run's seed plus a digest of
both lists' fingerprints: the pairing's identity, not its place in a task.

Everything a task needs travels in a plain dict (the *context*: system id,
catalogue version, the lists' contents by fingerprint, the house catalogues' data they
use), so it pickles the same
way to a local process or a Dask worker.  A worker keeps the catalogue and the
validated lists between tasks (``_CACHE``), and the engine keeps its per-list
memos warm.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np

#: A piece of a pairing: (first fingerprint, second fingerprint, first game, stop).
Segment = tuple[str, str, int, int]

_CACHE: dict[Any, Any] = {}


class EngineMismatch(RuntimeError):
    """A worker's engine code differs from the run's: its games would not be the same games."""


def pairing_entropy(seed: int, first: str, second: str) -> list[int]:
    """Entropy words of the pairing (first, second) under *seed*: its identity, not its order."""
    if seed < 0:
        raise ValueError("the seed must be zero or more")
    digest = hashlib.sha256(f"{first}|{second}".encode()).digest()
    words = [int.from_bytes(digest[k : k + 4], "little") for k in range(0, 16, 4)]
    return [seed, *words]


def pairing_rngs(seed: int, first: str, second: str, start: int, stop: int) -> list[np.random.Generator]:
    """Generators of games start..stop-1 of a pairing: game *i* is child *i* (``spawn_key=(i,)``)."""
    entropy = pairing_entropy(seed, first, second)
    return [
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(i,))))
        for i in range(start, stop)
    ]


def engine_hash(system_id: str) -> str:
    """A digest of the code and library that decide a game's outcome.

    Stored with every result, so ``--resume`` never mixes games of an older
    engine into a new matrix, and compared with each Dask worker's, so a worker
    running other code cannot slip different numbers in.
    """
    key = ("engine", system_id)
    if key in _CACHE:
        return _CACHE[key]
    from armybuilder.core.registry import KNOWN_SYSTEMS

    root = Path(__file__).resolve().parents[1]
    package = root.joinpath(*KNOWN_SYSTEMS[system_id].split(".")[1:])
    digest = hashlib.sha256(np.__version__.encode())
    for folder in (root / "core", package):
        for file in sorted(folder.rglob("*.py")):
            digest.update(str(file.relative_to(root)).encode())
            digest.update(file.read_bytes())
    _CACHE[key] = digest.hexdigest()[:16]
    return _CACHE[key]


def _game(context: dict[str, Any]):
    """(system, catalogue) of the context, loaded once per process."""
    from armybuilder.core.registry import get_system

    houses = context.get("houses") or []
    key = ("game", context["system"], context["catalogue"], tuple((h["id"], h["version"], h["hash"]) for h in houses))
    if key not in _CACHE:
        system = get_system(context["system"])
        if houses:  # house catalogues the lists use, sent as data (validated here)
            from armybuilder.core.house_use import from_portable

            _CACHE[key] = (system, from_portable(system, context["catalogue"], houses))
        else:
            _CACHE[key] = (system, system.catalogue(context["catalogue"]))
    return _CACHE[key]


def _army(context: dict[str, Any], fingerprint: str):
    key = ("list", context["system"], fingerprint)
    if key not in _CACHE:
        system, _ = _game(context)
        _CACHE[key] = system.list_model.model_validate(context["lists"][fingerprint])
    return _CACHE[key]


def play_task(context: dict[str, Any], segments: list[Segment]) -> list[dict[str, Any]]:
    """Play every game of *segments*; one result record per segment.

    A record: both fingerprints, the seed, the engine hash, the game range, the
    wins, draws and losses of the first list and the rounds played (for the mean).
    """
    engine = context["engine"]
    here = engine_hash(context["system"])
    if here != engine:
        raise EngineMismatch(
            f"this process runs other armybuilder code (engine {here}) than the run (engine {engine}): "
            "install the same armybuilder version on every worker"
        )
    system, cat = _game(context)
    seed = context["seed"]
    table = context.get("table")
    out = []
    for first, second, start, stop in segments:
        a, b = _army(context, first), _army(context, second)
        wins = draws = losses = rounds = 0
        for rng in pairing_rngs(seed, first, second, start, stop):
            record = system.play_game(cat, a, b, rng, table=table)
            rounds += record.rounds
            if record.winner == 0:
                wins += 1
            elif record.winner == 1:
                losses += 1
            else:
                draws += 1
        out.append(
            {
                "a": first, "b": second, "seed": seed, "engine": context.get("run", engine),
                "start": start, "stop": stop,
                "wins": wins, "draws": draws, "losses": losses, "rounds": rounds,
            }
        )
    return out


