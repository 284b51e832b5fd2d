"""The meta matrix without a cluster: seeds, packing, results file, resume, standings."""

from __future__ import annotations

import json

import pytest
from meta_lists import cells, sample_folder

from armybuilder.core.errors import InputError
from armybuilder.meta.games import pairing_rngs
from armybuilder.meta.run import ProgressLine, prepare, run_meta
from armybuilder.meta.runners import LocalRunner
from armybuilder.meta.store import missing, pack, read_records, task_size, usable
from armybuilder.meta.tally import Tally

GAMES = 8


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = sample_folder(tmp_path_factory.mktemp("lists"))
    return prepare(sorted(folder.glob("*.yaml")))


@pytest.fixture(scope="module")
def reference(setup):
    return run_meta(setup, GAMES, 3, LocalRunner(1))


def test_game_seeds_belong_to_the_pairing_not_to_its_order():
    whole = [g.random() for g in pairing_rngs(5, "AAAA", "BBBB", 0, 6)]
    parts = [g.random() for g in pairing_rngs(5, "AAAA", "BBBB", 0, 2) + pairing_rngs(5, "AAAA", "BBBB", 2, 6)]
    assert whole == parts
    assert whole != [g.random() for g in pairing_rngs(5, "BBBB", "AAAA", 0, 6)]  # the other seat order
    assert whole != [g.random() for g in pairing_rngs(6, "AAAA", "BBBB", 0, 6)]  # another seed


def test_pack_cuts_long_pairings_and_groups_short_ones():
    segments = [("a", "b", 0, 5), ("a", "c", 0, 2), ("b", "a", 3, 10)]
    tasks = pack(segments, 4)
    assert [sum(e - s for _, _, s, e in t) for t in tasks] == [4, 4, 4, 2]
    flat = [seg for t in tasks for seg in t]
    assert sum(e - s for _, _, s, e in flat) == 14
    assert flat[0] == ("a", "b", 0, 4) and flat[-1] == ("b", "a", 8, 10)
    assert task_size(10_000_000, 8) == 2000 and task_size(100, 2) == 200


def test_usable_keeps_disjoint_ranges_and_missing_fills_the_gaps():
    rec = lambda a, s, e, seed=1, engine="e": {"a": a, "b": "x", "start": s, "stop": e, "seed": seed, "engine": engine, "wins": e - s, "draws": 0, "losses": 0}  # noqa: E731
    records = [rec("p", 0, 4), rec("p", 2, 6), rec("p", 8, 10), rec("p", 4, 8, seed=2), rec("p", 10, 12, engine="old"), rec("q", 0, 30)]
    done = usable(records, 1, "e", 20, {("p", "x"), ("q", "x")})
    assert [(r["start"], r["stop"]) for r in done[("p", "x")]] == [(0, 4), (8, 10)]
    assert ("q", "x") not in done  # beyond the wanted games
    assert missing([("p", "x"), ("q", "x")], 20, done) == [("p", "x", 4, 8), ("p", "x", 10, 20), ("q", "x", 0, 20)]


def test_same_numbers_whatever_the_workers_and_task_size(setup, reference):
    again = run_meta(setup, GAMES, 3, LocalRunner(2), task_games=5)
    assert cells(again) == cells(reference)
    assert reference.complete and reference.played == GAMES * 12
    other_seed = run_meta(setup, GAMES, 4, LocalRunner(1))
    assert cells(other_seed) != cells(reference)


def test_a_cancelled_run_resumes_to_the_same_matrix(setup, reference, tmp_path):
    results = tmp_path / "meta.results.jsonl"
    seen = []
    partial = run_meta(setup, GAMES, 3, LocalRunner(1), results, task_games=10, progress=lambda d, t: seen.append(d), cancelled=lambda: len(seen) > 2)
    assert not partial.complete
    kept = len(read_records(results)[0])
    assert 0 < kept < 12
    with pytest.raises(InputError, match="--resume"):
        run_meta(setup, GAMES, 3, LocalRunner(1), results)
    with results.open("a") as f:
        f.write('{"a": "torn')  # the machine stopped mid-write
    played = []
    final = run_meta(setup, GAMES, 3, LocalRunner(1), results, resume=True, progress=lambda d, t: played.append(d))
    assert cells(final) == cells(reference)
    assert played[0] == partial.played  # the resumed run started from what was kept
    records, torn = read_records(results)
    assert torn == 0 and sum(r["stop"] - r["start"] for r in records) == GAMES * 12  # the torn line was set aside
    assert (tmp_path / "meta.results.jsonl.unreadable").read_text() == '{"a": "torn\n'
    # Resuming a finished run plays nothing; asking for more games plays only the extra ones.
    again = run_meta(setup, GAMES, 3, LocalRunner(1), results, resume=True)
    assert cells(again) == cells(reference) and len(read_records(results)[0]) == len(records)
    more = run_meta(setup, GAMES + 2, 3, LocalRunner(1), results, resume=True)
    assert more.played == (GAMES + 2) * 12 and len(read_records(results)[0]) > len(records)


def test_standings_pool_both_seats_and_rank(reference):
    standings = reference.standings()
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    rates = [s.tally.rate for s in standings]
    assert rates == sorted(rates, reverse=True)
    first = standings[0]
    manual = Tally()
    for (i, j), t in reference.cells.items():
        if i == first.index:
            manual.add(t.wins, t.draws, t.losses)
        if j == first.index:
            manual.add(t.losses, t.draws, t.wins)
    assert (manual.wins, manual.draws, manual.losses) == (first.tally.wins, first.tally.draws, first.tally.losses)
    assert first.tally.games == 2 * 3 * GAMES
    low, high = first.tally.interval
    assert low <= first.tally.rate <= high


def test_json_and_csv_carry_every_pairing(reference):
    payload = reference.as_json()
    assert len(payload["pairings"]) == 12 and payload["complete"] and payload["field"] is None
    one = payload["pairings"][0]
    assert set(one) >= {"list", "opponent", "games", "wins", "draws", "losses", "win_rate", "win_rate_95"}
    assert one["wins"] + one["draws"] + one["losses"] == one["games"] == GAMES
    json.dumps(payload)
    lines = reference.as_csv().splitlines()
    assert lines[0].startswith("list,opponent,") and len(lines) == 13


def test_progress_line_shows_rate_and_time_left():
    import io

    line = ProgressLine(1000, 0, io.StringIO(), enabled=True)
    line.started -= 2.0
    line.advance(500)
    text = line.render()
    assert "500/1,000 games" in text and "games/s" in text and "left" in text
    assert text.startswith("[###############...............]")


def test_local_processes_start_from_a_thread_under_a_tui_stderr(tmp_path):
    """Textual's stderr has file number -1; spawning workers from its thread must still work."""
    import subprocess
    import sys

    folder = sample_folder(tmp_path / "lists")
    code = f"""
import io, sys, threading
from pathlib import Path
from armybuilder.meta.run import prepare, run_meta
from armybuilder.meta.runners import LocalRunner

class TuiStderr(io.StringIO):
    def fileno(self):
        return -1

setup = prepare(sorted(Path({str(folder)!r}).glob("*.yaml"))[:2])
sys.stderr = TuiStderr()
out = []
thread = threading.Thread(target=lambda: out.append(run_meta(setup, 1, 1, LocalRunner(2), task_games=1)))
thread.start(); thread.join()
sys.__stdout__.write("played %d" % out[0].played if out else "failed")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout == "played 2", result.stdout + result.stderr
