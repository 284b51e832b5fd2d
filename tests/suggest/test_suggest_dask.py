"""``suggest --scheduler``: the same suggestions on a Dask cluster as on one local process."""

from __future__ import annotations

import json
import logging

import pytest
from suggest_lists import planted

from armybuilder.cli import main

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask, distributed) is in the test extra")

SWAP = [("warriors[1]", "set-type", {"type": "bondi"})]


def test_the_cluster_gives_the_local_suggestions(tmp_path, capsys):
    weak = planted("morpheus-ragnarok", "ravens-of-hrafnsey", SWAP, tmp_path)
    args = ["suggest", str(weak), "--vs", "wolves-of-the-fjord", "--games", "4", "--seed", "6", "--json"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster:
        assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
        on_cluster = json.loads(capsys.readouterr().out)
    assert main([*args, "--workers", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_cluster["steps"] == local["steps"]
    assert on_cluster["games_played"] == local["games_played"] > 0
