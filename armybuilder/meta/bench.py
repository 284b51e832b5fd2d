"""The meta matrix's bench lines: games per second per core, locally and on Dask, and scaling.

* :func:`local_rate` — the matrix played in this process (``--workers 1``): games
  per second of this thread's CPU time, the whole run's cost (tasks, records, the
  matrix) included;
* :func:`cluster_rates` — the same matrix through a Dask LocalCluster of 1 then 2
  worker processes on the loopback: games per CPU second of the workers (all
  their threads: the event loop and heartbeats count) and per wall second, so
  the wall rate of 2 workers over 1 is the scaling;
* :func:`local_vs_cluster` — same matrix, same number of processes, local pool
  against the cluster: the ratio of the wall times is what Dask's scheduling,
  messaging and result handling cost (target ≤ 1.2×).

Clusters are started before the clock and their workers have played a few games
(catalogue, lists and engine warm), as a long-running cluster's have; the local
pool's start-up is inside its time.  :func:`field_time` turns a per-core rate into
the time of a field: an organiser's planning figure.
"""

from __future__ import annotations

import logging
import time
from typing import Any

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


def bench_setup(count: int = 10) -> MetaSetup:
    lists = ten_lists(count=count)
    return MetaSetup(lists, lists, True, lists[0].system.id, lists[0].catalogue)


def local_rate(games: int = 100, count: int = 10) -> dict[str, float]:
    """Games, CPU and wall seconds of the matrix played in this thread (after a warm-up)."""
    setup = bench_setup(count)
    run_meta(setup, 2, 99, LocalRunner(1))  # catalogue, lists and the engine's templates, once
    cpu, wall = time.thread_time(), time.perf_counter()
    matrix = run_meta(setup, games, 1, LocalRunner(1))
    return {"games": float(matrix.played), "cpu": time.thread_time() - cpu, "wall": time.perf_counter() - wall}


def _process_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cluster_rates(games: int = 100, count: int = 10, sizes: tuple[int, ...] = (1, 2)) -> dict[int, dict[str, float]]:
    """Per cluster size: games, the workers' CPU seconds and the wall seconds of the matrix."""
    from distributed import Client, LocalCluster

    setup = bench_setup(count)
    out: dict[int, dict[str, float]] = {}
    for size in sizes:
        with LocalCluster(n_workers=size, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
            with Client(cluster.scheduler_address, set_as_default=False) as client, DaskRunner(cluster.scheduler_address) as runner:
                runner.probe()
                run_meta(setup, 2, 99, runner, task_games=1)  # every worker warm
                before: dict[str, Any] = client.run(_process_cpu)
                wall = time.perf_counter()
                matrix = run_meta(setup, games, 1, runner)
                wall = time.perf_counter() - wall
                after: dict[str, Any] = client.run(_process_cpu)
        cpu = sum(after[w] - before.get(w, 0.0) for w in after)
        out[size] = {"games": float(matrix.played), "cpu": cpu, "wall": wall}
    return out


def field_time(rate_per_core: float, lists: int = 100, games: int = 1000) -> float:
    """Core-seconds of every ordered pairing of *lists* lists at *games* games each."""
    return lists * (lists - 1) * games / rate_per_core


def describe_hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:,.1f} h" if hours >= 1 else f"{seconds / 60:,.0f} min"


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
