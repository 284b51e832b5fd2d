"""The bench's suggestion line: games per second of a run, and the games it needed to find a
known repair.

The run is the proof test's (tests/suggest/test_suggest_proofs.py): the Rattle and Rend
sample "Dwarven Throng" with two Fighters groups removed (4 of 12 points unspent), against
"Vampire Court", 48 games a list, seed 3.  The repair is a confirmed edit that adds a group
(new or a copy) and spends 2 of those points.
"""

from __future__ import annotations

import time
from typing import Any


def planted_run(seed: int = 3) -> dict[str, Any]:
    """Games, CPU seconds and the repair's rank (None: not found) of the planted run."""
    import tempfile
    from pathlib import Path

    from armybuilder.core.lists import ListFile, load_list
    from armybuilder.core.registry import bench_workload
    from armybuilder.meta.runners import LocalRunner

    from .run import run_suggest

    system, (name, edits, opponent, games) = bench_workload("SUGGEST_PLANT")  # Rattle and Rend's
    repairs = bench_workload("SUGGEST_REPAIRS")[1]
    samples = {name: Path(str(path)) for name, path in system.source.samples()}
    lf = load_list(samples[f"{name}.yaml"])
    cat = system.catalogue_for(lf.army)
    army = lf.army
    for path, action, args in edits:
        army, _ = system.apply(army, cat, path, action, args)
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "planted.yaml"
        ListFile(None, lf.doc, system, army).save(target)
        weak = load_list(target)
        cpu = time.process_time()
        run = run_suggest(weak, [samples[f"{opponent}.yaml"]], games, seed, LocalRunner(1))
        cpu = time.process_time() - cpu
    shown = [s for s in run.steps[0].suggestions if s.confirmed]
    rank = next((i for i, s in enumerate(shown, start=1) if s.neighbour.edit.action in repairs and s.neighbour.cost == 2), None)
    return {"games": float(run.played), "cpu": cpu, "rank": rank, "candidates": run.steps[0].candidates}
