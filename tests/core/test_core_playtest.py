"""core.playtest: per-game seeds, worker-count independence, progress, cancel, statistics."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from armybuilder.core.playtest import (
    PlaytestSummary,
    game_rngs,
    histogram,
    load_sample,
    run_playtest,
    sample_names,
    summarise,
    wilson_interval,
)
from armybuilder.core.registry import get_system
from armybuilder.core.system import GameRecord, UnitRecord


@pytest.fixture(scope="module")
def lists():
    system = get_system("ragnarok2")
    names = sample_names(system)
    return load_sample(system, names[0]), load_sample(system, names[1])


def test_game_seeds_do_not_depend_on_how_games_are_split():
    whole = [g.random() for g in game_rngs(9, 0, 10)]
    parts = [g.random() for g in game_rngs(9, 0, 4)] + [g.random() for g in game_rngs(9, 4, 10)]
    assert whole == parts
    assert whole != [g.random() for g in game_rngs(10, 0, 10)]


def test_same_seed_same_summary_whatever_the_workers(lists):
    a, b = lists
    one = run_playtest(a, b, 30, seed=4, workers=1)
    three = run_playtest(a, b, 30, seed=4, workers=3)
    assert one.as_json() == three.as_json()
    assert one.margins == three.margins and sum(one.margins.values()) == 30
    other = run_playtest(a, b, 30, seed=5, workers=1)
    assert other.margins != one.margins


def test_progress_is_reported_and_cancel_stops_between_chunks(lists):
    a, b = lists
    seen = []
    summary = run_playtest(a, b, 60, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (60, 60) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 1  # stop after the first chunk

    stopped = run_playtest(a, b, 200, seed=1, cancelled=cancelled)
    assert stopped.cancelled and 0 < stopped.games < 200
    assert stopped.wins + stopped.draws + stopped.losses == stopped.games
    assert summary.games == 60 and not summary.cancelled


def test_log_narrates_the_first_game(lists):
    a, b = lists
    summary = run_playtest(a, b, 3, seed=2, log=True)
    assert summary.log and any("round" in line for line in summary.log)


def test_summarise_counts_and_unit_statistics():
    records = [
        GameRecord(0, 3, (100.0, 20.0), [UnitRecord(0, "A", 50, True, 100), UnitRecord(1, "B", 60, False, 20)]),
        GameRecord(None, 6, (50.0, 50.0), [UnitRecord(0, "A", 50, False, 50), UnitRecord(1, "B", 60, True, 50)]),
        GameRecord(1, 4, (0.0, 80.0), [UnitRecord(0, "A", 50, False, 0), UnitRecord(1, "B", 60, True, 80)]),
    ]
    s = summarise(records, seed=7)
    assert (s.wins, s.draws, s.losses, s.games) == (1, 1, 1, 3)
    assert s.win_rate == pytest.approx(0.5) and s.mean_rounds == pytest.approx(13 / 3)
    a = next(u for u in s.units if u.name == "A")
    assert a.survival_rate == pytest.approx(1 / 3) and a.mean_eliminated == pytest.approx(50)
    assert s.margins == {80.0: 1, 0.0: 1, -80.0: 1}
    payload = s.as_json()
    assert payload["win_rate_95"][0] <= payload["win_rate"] <= payload["win_rate_95"][1]
    assert PlaytestSummary(0, 0, 0, 0, 1, 0.0, []).win_rate == 0.0


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_contains_the_rate(successes, trials):
    successes = min(successes, trials)
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high + 1e-12 <= 1.0 + 1e-12


@given(st.lists(st.floats(-1000, 1000, allow_nan=False), min_size=1, max_size=200), st.integers(1, 20))
@example([0.0, 5e-324], 2)  # a subnormal span: its bins' width underflows to 0
def test_histogram_keeps_every_value(values, bins):
    rows = histogram(values, bins)
    assert sum(c for _, _, c in rows) == len(values)
    assert rows[0][0] == min(values) and rows[-1][1] == pytest.approx(max(values))


@given(st.lists(st.integers(-50, 50).map(float), min_size=1, max_size=200), st.integers(1, 20))
def test_histogram_of_counts_is_the_histogram_of_values(values, bins):
    from collections import Counter

    assert histogram(Counter(values), bins) == histogram(values, bins)


def test_tally_memory_does_not_grow_with_the_games():
    """Folding games keeps counts and sums: a thousand more games add no objects."""
    import sys

    from armybuilder.core.playtest import Tally

    def record(i):
        return GameRecord(i % 3 if i % 3 < 2 else None, 4, (float(i % 7), 3.0), [UnitRecord(0, "A", 50, i % 2 == 0, 10.0), UnitRecord(1, "B", 60, True, 5.0)])

    tally = Tally()
    for i in range(1000):
        tally.add(record(i))
    size = (len(tally.units), len(tally.margins), sys.getsizeof(tally.margins))
    for i in range(1000, 50_000):
        tally.add(record(i))
    assert (len(tally.units), len(tally.margins), sys.getsizeof(tally.margins)) == size
    summary = tally.summary(seed=1)
    assert summary.games == 50_000 and sum(summary.margins.values()) == 50_000
    assert summary.wins + summary.draws + summary.losses == 50_000


def test_unknown_sample_is_a_key_error():
    with pytest.raises(KeyError):
        load_sample(get_system("ragnarok2"), "no-such-sample")
