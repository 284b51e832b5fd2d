"""A synthetic meta field: many lists sharing name prefixes, and a results file made up for them.

Rendering is what is tested with it, not the engine: the records follow hidden
strengths (a list beats a weaker one more often) and made-up unit figures, in the
very format :func:`armybuilder.meta.games.play_task` writes, so ``run_meta(...,
resume=True)`` reads them back and plays nothing.  Imported by basename.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.meta.field import from_army
from armybuilder.meta.games import engine_hash, namers, unit_key
from armybuilder.meta.run import MetaSetup
from armybuilder.meta.store import split_at_checkpoints


def synthetic_setup(count: int, folder: str = "club") -> MetaSetup:
    """*count* lists: renamed copies of the Rag'Narok 2 samples, files ``<sample>-vNN.yaml`` (shared prefixes)."""
    system = get_system("ragnarok2")
    names = sample_names(system)
    samples = [load_sample(system, name) for name in names]
    lists = []
    for k in range(count):
        base = k % len(samples)
        army = samples[base].model_copy(update={"name": f"{samples[base].name} v{k // len(samples) + 1}", "player": f"Player {k + 1:03d}"})
        lists.append(from_army(system, army, f"{folder}/{names[base]}-v{k // len(samples) + 1:02d}.yaml"))
    return MetaSetup(lists, lists, True, system.id, lists[0].catalogue)


def write_results(setup: MetaSetup, games: int, seed: int, path: Path, rng_seed: int = 7) -> int:
    """Records of every pairing's *games* games; returns how many records were written."""
    rng = np.random.default_rng(rng_seed)
    engine = engine_hash(setup.system_id)
    strength = {x.fingerprint: rng.normal(0, 1.2) for x in setup.rows}
    tables = {fp: sorted([f"Unit {k} of a list with a long name", float(40 + 10 * k)] for k in range(8)) for fp in strength}
    lines = []
    naming = namers(setup.keys())
    for a, b in setup.keys():
        p = 1 / (1 + math.exp(-(strength[a] - strength[b])))
        for _, _, start, stop in split_at_checkpoints([(a, b, 0, games)]):
            n = stop - start
            draws = int(rng.binomial(n, 0.05))
            wins = int(rng.binomial(n - draws, p))
            units = [[[int(rng.integers(0, n + 1)), float(rng.integers(0, 60) * n)] for _ in tables[fp]] for fp in (a, b)]
            record = {"a": a, "b": b, "seed": seed, "engine": engine, "start": start, "stop": stop, "wins": wins, "draws": draws,
                      "losses": n - draws - wins, "rounds": 6 * n, "margin": float((2 * wins - n + draws) * 40),
                      "units": units, "unit_keys": [unit_key(tables[a]), unit_key(tables[b])]}
            if start == 0 and [a, b] in (naming[a], naming[b]):  # each list's names once, as play_task writes them
                record["unit_names"] = [tables[a] if naming[a] == [a, b] else None, tables[b] if naming[b] == [a, b] else None]
            lines.append(json.dumps(record, separators=(",", ":")))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)
