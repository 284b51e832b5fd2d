"""A cell of the matrix replays as a playtest, and a resumed run reuses every game it can."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from meta_lists import cells, sample_folder

from armybuilder.cli import main
from armybuilder.meta.run import RunState, prepare, run_meta
from armybuilder.meta.runners import LocalRunner
from armybuilder.meta.store import checkpoints, read_records, split_at_checkpoints


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    folder = sample_folder(tmp_path_factory.mktemp("lists"))
    return sorted(folder.glob("*.yaml"))[:2]


def _json(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_a_cells_seed_replays_its_games_with_playtest(two, tmp_path, capsys):
    a, b = map(str, two)
    meta = _json(capsys, "meta", a, "--vs", b, "--games", "5", "--workers", "1", "-o", str(tmp_path / "m.pdf"), "--json")
    (pairing,) = meta["pairings"]
    seed = pairing["replay_seed"]
    assert 0 <= seed < 2**53  # exact in any JSON reader
    played = _json(capsys, "playtest", a, "--vs", b, "--seed", str(seed), "--games", "5", "--json")
    assert (played["wins"], played["draws"], played["losses"]) == (pairing["wins"], pairing["draws"], pairing["losses"])
    assert played["mean_rounds"] == pytest.approx(pairing["mean_rounds"])
    # the row list's units over its games as first list: the playtest's own per-unit figures
    ours = {u["name"]: u for u in meta["standings"][0]["units"]}
    theirs = {u["name"]: u for u in played["units"] if u["side"] == "list"}
    assert set(ours) == set(theirs)
    for name, u in theirs.items():
        assert ours[name]["survival_rate"] == pytest.approx(u["survival_rate"]), name
        assert ours[name]["mean_points_eliminated"] == pytest.approx(u["mean_points_eliminated"]), name
    # the worst/best matchup names the command that narrates the first game: it runs and its game is the cell's game 0
    best = meta["standings"][0]["best_matchups"][0]
    assert best["replay"] == ["armybuilder", "playtest", a, "--vs", b, "--seed", str(seed), "--games", "1", "--log"]
    first = _json(capsys, "playtest", a, "--vs", b, "--seed", str(seed), "--games", "1", "--json", "--log")
    one = _json(capsys, "meta", a, "--vs", b, "--games", "1", "--workers", "1", "-o", str(tmp_path / "one.pdf"), "--json")
    assert (first["wins"], first["draws"], first["losses"]) == tuple(one["pairings"][0][k] for k in ("wins", "draws", "losses"))
    assert first["log"] and one["pairings"][0]["replay_seed"] == seed


def test_the_replay_command_runs_as_printed(two, tmp_path):
    """The command from the report, as a user pastes it (the installed entry point)."""
    a, b = map(str, two)
    code = main(["meta", a, "--vs", b, "--games", "1", "--workers", "1", "-o", str(tmp_path / "m.pdf"), "--json"])
    assert code == 0
    payload = json.loads((tmp_path / "m.json").read_text())
    command = payload["standings"][0]["best_matchups"][0]["replay"]
    exe = [sys.executable, "-m", "armybuilder"] + command[1:]
    result = subprocess.run(exe, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Log of game 1" in result.stdout and "1 game (seed" in result.stdout


def test_checkpoints_cut_the_records():
    assert checkpoints(0, 1000) == [10, 20, 50, 100, 200, 500]
    assert checkpoints(20, 120) == [50, 100]
    assert checkpoints(0, 8) == []
    assert split_at_checkpoints([("a", "b", 5, 60)]) == [("a", "b", 5, 10), ("a", "b", 10, 20), ("a", "b", 20, 50), ("a", "b", 50, 60)]


def test_resuming_with_fewer_games_reuses_the_games_played(two, tmp_path):
    setup = prepare(two)
    results = tmp_path / "m.results.jsonl"
    run_meta(setup, 30, 4, LocalRunner(1), results)
    lines = len(read_records(results)[0])
    fewer = RunState()
    matrix = run_meta(setup, 20, 4, LocalRunner(1), results, resume=True, state=fewer)
    assert fewer.played == 0 and fewer.resumed == 2 * 20  # every game of the shorter run was read back
    assert len(read_records(results)[0]) == lines  # nothing appended
    assert cells(matrix) == cells(run_meta(setup, 20, 4, LocalRunner(1)))
    between = RunState()
    matrix = run_meta(setup, 25, 4, LocalRunner(1), results, resume=True, state=between)
    assert between.played == 2 * 5 and between.resumed == 2 * 20  # only games 20-24 of each pairing
    assert cells(matrix) == cells(run_meta(setup, 25, 4, LocalRunner(1)))
    assert matrix.units and all(u.games == 2 * 25 for u in matrix.units[0].values())
