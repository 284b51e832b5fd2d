"""``meta --resume`` reads its results file like any input: a record it cannot believe
(wrong types, numbers out of range, totals that do not match its range) is reported and its
games played again, never trusted and never a crash; a results file that is a FIFO or a
device is refused at once."""

from __future__ import annotations

import json
import os

import pytest
from meta_lists import sample_folder

from armybuilder.cli import main
from armybuilder.meta.store import record_problem

GAMES = 4


def _meta(capsys, folder, out, *extra):
    code = main(["meta", str(folder), "--games", str(GAMES), "--workers", "1", "-o", str(out), "--json", *extra])
    stdout, err = capsys.readouterr()
    return code, stdout, err


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A whole run: its records and its matrix (JSON)."""
    folder = sample_folder(tmp_path_factory.mktemp("lists"))
    out = tmp_path_factory.mktemp("out") / "club.pdf"
    code = main(["meta", str(folder), "--games", str(GAMES), "--workers", "1", "-o", str(out), "--json"])
    assert code == 0
    records = [json.loads(line) for line in out.with_name("club.results.jsonl").read_text().splitlines()]
    payload = json.loads(out.with_suffix(".json").read_text())
    return folder, records, payload


def _lies(good: dict) -> dict[str, dict]:
    """Records a run never writes, each built from a real one."""
    games = good["stop"] - good["start"]
    return {
        "a huge win count": {**good, "wins": 10**30},
        "more results than games": {**good, "wins": 300, "draws": 0, "losses": 0},
        "counts that do not add up": {**good, "wins": games, "draws": 0, "losses": 1},
        "a negative count": {**good, "wins": games + 1, "losses": -1, "draws": 0},
        "a text count": {**good, "wins": "4"},
        "a float start": {**good, "start": 0.0},
        "a bool count": {**good, "draws": True},
        "an empty range": {**good, "stop": good["start"]},
        "a negative seed": {**good, "seed": -1},
        "a number for an id": {**good, "a": 5},
        "a list for an id": {**good, "b": ["x"]},
        "a null engine": {**good, "engine": None},
        "a string rounds": {**good, "rounds": "many"},
        "a range past any run": {**good, "start": 0, "stop": 10**12, "wins": 10**12, "draws": 0, "losses": 0},
    }


def test_every_lie_is_named():
    good = {"a": "A", "b": "B", "seed": 1, "engine": "e", "start": 0, "stop": 4, "wins": 2, "draws": 1, "losses": 1, "rounds": 20}
    assert record_problem(good) is None
    for what, record in _lies(good).items():
        assert record_problem(record) is not None, what
    assert record_problem([1, 2]) == "not a record"


def test_records_that_lie_are_reported_and_replayed(reference, tmp_path, capsys):
    folder, records, payload = reference
    out = tmp_path / "club.pdf"
    results = out.with_name("club.results.jsonl")
    lies = [lie for record in records for lie in _lies(record).values()]
    # every true record is replaced by lies about it: nothing may be believed
    results.write_text("".join(json.dumps(r) + "\n" for r in lies))
    code, stdout, err = _meta(capsys, folder, out, "--resume")
    assert code == 0, err
    assert "internal error" not in err and "Traceback" not in err
    assert f"{len(lies)} record(s) not believed" in err and "do not add up to its range of games" in err and "not counts within the range" in err
    again = json.loads(stdout)
    assert again["pairings"] == payload["pairings"] and again["standings"] == payload["standings"]
    assert all(p["win_rate"] is None or p["win_rate"] <= 1 for p in again["pairings"])


def test_true_records_beside_lies_are_kept(reference, tmp_path, capsys):
    folder, records, payload = reference
    out = tmp_path / "club.pdf"
    results = out.with_name("club.results.jsonl")
    lines = [json.dumps(r) for r in records] + [json.dumps(lie) for lie in _lies(records[0]).values()]
    results.write_text("\n".join(lines) + "\n")
    code, stdout, err = _meta(capsys, folder, out, "--resume")
    assert code == 0, err
    assert json.loads(stdout)["pairings"] == payload["pairings"]
    assert "their games were played again" in err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_results_file_that_is_not_a_file_is_refused_at_once(reference, tmp_path, capsys, kind):
    folder, _, _ = reference
    out = tmp_path / "club.pdf"
    results = out.with_name("club.results.jsonl")
    if kind == "fifo":
        os.mkfifo(results)
    else:
        results.symlink_to("/dev/zero")
    for extra in ((), ("--resume",)):
        code, _, err = _meta(capsys, folder, out, *extra)
        assert code == 2 and "not a regular file" in err, err
