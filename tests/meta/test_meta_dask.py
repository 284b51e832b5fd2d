"""The meta matrix on a real Dask cluster: a LocalCluster on 127.0.0.1, a scheduler and
two worker processes (each behind a nanny that restarts it, as ``dask worker`` does).

Checked: the cluster's matrix equals the local run's for the same seed, the tasks of a
worker killed mid-run finish elsewhere, and a run interrupted then resumed on the
cluster ends with the same matrix.  The field is Rattle and Rend's three samples: what is
checked is the cluster's bookkeeping, which any system's games exercise alike, and its games
are among the cheapest to play.
"""

from __future__ import annotations

import json
import logging
import os
import signal

import pytest
from meta_lists import cells, sample_folder

from armybuilder.cli import main
from armybuilder.meta.run import prepare, run_meta
from armybuilder.meta.runners import DaskRunner, LocalRunner
from armybuilder.meta.store import read_records

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask, distributed) is in the test extra")

GAMES = 20
SEED = 11
PAIRINGS = 6  # three lists, each against the two others in both seats
SYSTEM = "rattle-and-rend"


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=":0", silence_logs=logging.CRITICAL,
    ) as c:
        with distributed.Client(c.scheduler_address, set_as_default=False) as client:
            client.run(lambda: __import__("armybuilder.meta.games"))  # workers import the engine once
            yield c, client


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return sample_folder(tmp_path_factory.mktemp("lists"), SYSTEM)


@pytest.fixture(scope="module")
def reference(lists):
    return run_meta(prepare(sorted(lists.glob("*.yaml"))), GAMES, SEED, LocalRunner(1))


def test_the_cluster_gives_the_local_matrix(cluster, lists, tmp_path, capsys):
    c, _ = cluster
    args = [str(lists), "--games", "6", "--seed", "2", "--json"]
    assert main(["meta", *args, "--scheduler", c.scheduler_address, "-o", str(tmp_path / "dask.pdf")]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(["meta", *args, "--workers", "1", "-o", str(tmp_path / "local.pdf")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_cluster["pairings"] == local["pairings"] and on_cluster["standings"] == local["standings"]
    assert (tmp_path / "dask.png").exists() and (tmp_path / "dask.results.jsonl").exists()


def test_a_killed_workers_tasks_finish_elsewhere(cluster, lists, reference):
    c, client = cluster
    pids = client.run(os.getpid)
    killed: dict[str, object] = {}

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed or done == 0:
            return
        busy = {addr: keys for addr, keys in client.processing().items() if keys}
        if not busy:
            return
        addr = max(busy, key=lambda a: len(busy[a]))
        killed.update(addr=addr, pid=pids[addr], tasks=len(busy[addr]))
        os.kill(pids[addr], signal.SIGKILL)

    with DaskRunner(c.scheduler_address) as runner:
        runner.probe()
        matrix = run_meta(prepare(sorted(lists.glob("*.yaml"))), GAMES, SEED, runner, task_games=5, progress=kill_a_busy_worker)
    assert killed and killed["tasks"] >= 1  # the worker died holding tasks
    assert killed["addr"] not in client.scheduler_info()["workers"]
    assert cells(matrix) == cells(reference) and matrix.complete
    # the nanny brings a fresh worker back (a new Python process: slow to start on a loaded machine)
    client.wait_for_workers(2, timeout=180)


def test_an_interrupted_cluster_run_resumes_to_the_same_matrix(cluster, lists, reference, tmp_path):
    c, _ = cluster
    setup = prepare(sorted(lists.glob("*.yaml")))
    results = tmp_path / "m.results.jsonl"
    seen: list[int] = []
    with DaskRunner(c.scheduler_address) as runner:
        runner.probe()
        partial = run_meta(setup, GAMES, SEED, runner, results, task_games=5,
                           progress=lambda d, t: seen.append(d), cancelled=lambda: len(seen) > 3)
        assert not partial.complete and 0 < partial.played < GAMES * PAIRINGS
        kept = sum(r["stop"] - r["start"] for r in read_records(results)[0])
        played: list[int] = []
        final = run_meta(setup, GAMES, SEED, runner, results, resume=True, task_games=5, progress=lambda d, t: played.append(d))
    assert played[0] == kept  # only the missing games were played
    assert cells(final) == cells(reference) and final.complete


def test_a_cluster_without_workers_says_so_until_one_joins(lists, reference):
    """The progress shows "waiting for workers" while the scheduler has none; the run then finishes."""
    import io

    from armybuilder.meta.run import ProgressLine

    with distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as empty:
        log = io.StringIO()  # not a terminal: plain lines, as under nohup

        class Organiser(ProgressLine):
            def heartbeat(self, status=None):
                super().heartbeat(status)
                if status and not empty.workers:
                    empty.scale(1)  # an organiser reads the message and starts 'dask worker'

        with DaskRunner(empty.scheduler_address) as runner:
            assert runner.probe() == 0
            matrix = run_meta(prepare(sorted(lists.glob("*.yaml"))), GAMES, SEED, runner, progress=Organiser(0, stream=log))
    lines = log.getvalue().splitlines()
    assert f"waiting for workers: none is connected to {empty.scheduler_address}" in lines[1]
    assert lines[-1].startswith(f"meta: {GAMES * PAIRINGS}/{GAMES * PAIRINGS} games (100%), ") and "waiting" not in lines[-1]
    assert cells(matrix) == cells(reference) and matrix.complete
