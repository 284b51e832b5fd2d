"""The meta matrix's bench line: local processes against a 2-worker Dask LocalCluster.

Same matrix (10 lists, every ordered pairing, 200 games each: 18,000 Rag'Narok 2
games), same number of worker processes, same machine: the ratio of the two wall
times is what Dask's scheduling, messaging and result handling cost (target
≤ 1.2×).  The cluster is started before the clock and its workers have imported
the engine once, as a long-running cluster's have; the local pool's start-up is
inside its time.
"""

from __future__ import annotations

import logging
import time

from .field import MetaList, from_army
from .run import MetaSetup, run_meta
from .runners import DaskRunner, LocalRunner


def _load_games() -> None:
    """Run on each Dask worker before the clock starts: the games' module is imported."""
    import armybuilder.meta.games  # noqa: F401


def ten_lists(system_id: str = "ragnarok2", count: int = 10) -> list[MetaList]:
    """*count* distinct lists from the bundled samples (renamed copies: distinct fingerprints)."""
    from armybuilder.core.playtest import load_sample, sample_names
    from armybuilder.core.registry import get_system

    system = get_system(system_id)
    samples = [load_sample(system, name) for name in sample_names(system)]
    out = []
    for k in range(count):
        army = samples[k % len(samples)].model_copy(update={"name": f"{samples[k % len(samples)].name} #{k + 1}"})
        out.append(from_army(system, army, f"list{k + 1:02d}"))
    return out


def local_vs_cluster(games: int = 200, count: int = 10, workers: int = 2) -> dict[str, float]:
    """Wall seconds of the same matrix with local processes and on a LocalCluster."""
    from distributed import Client, LocalCluster

    lists = ten_lists(count=count)
    setup = MetaSetup(lists, lists, True, lists[0].system.id, lists[0].catalogue)
    start = time.perf_counter()
    local = run_meta(setup, games, 1, LocalRunner(workers))
    local_s = time.perf_counter() - start
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        with Client(cluster.scheduler_address, set_as_default=False) as client:
            client.run(_load_games)
        start = time.perf_counter()
        with DaskRunner(cluster.scheduler_address) as runner:
            runner.probe()
            remote = run_meta(setup, games, 1, runner)
        cluster_s = time.perf_counter() - start
    if {k: (t.wins, t.draws, t.losses) for k, t in local.cells.items()} != {k: (t.wins, t.draws, t.losses) for k, t in remote.cells.items()}:
        raise RuntimeError("the cluster's matrix differs from the local one")
    return {"local": local_s, "cluster": cluster_s, "games": float(local.played), "ratio": cluster_s / local_s}
