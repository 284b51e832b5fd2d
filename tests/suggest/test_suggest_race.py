"""Paired statistics and the race, on games whose outcomes the test decides."""

from __future__ import annotations

import hashlib

import pytest

from armybuilder.suggest.race import Played, planned_games, race, rung_sizes
from armybuilder.suggest.stats import paired, t95


def test_paired_gain_and_interval():
    base = [0, 1, 0, 1, 0, 0, 1, 0]
    same = paired(base, base)
    assert (same.mean, same.low, same.high) == (0, 0, 0) and not same.significant
    small = paired(base, [1, 1, 0, 1, 1, 0, 1, 1])  # three losses turned into wins, nothing lost...
    assert small.mean == pytest.approx(3 / 8) and not small.significant  # ...but 8 games cannot show it
    better = paired(base * 2, [1, 1, 0, 1, 1, 0, 1, 1] * 2)  # the same over 16 games can
    assert 0 < better.low < better.mean < better.high
    assert better.significant
    assert (better.base_rate, better.rate) == (3 / 8, 6 / 8)
    mixed = paired(base, [1, 0, 1, 0, 0, 0, 1, 0])  # as many won as lost: no gain shown
    assert mixed.low < 0 < mixed.high and not mixed.significant
    with pytest.raises(ValueError):
        paired([1], [1, 0])


def test_t_quantiles():
    assert t95(1) == pytest.approx(12.706)
    assert t95(30) == pytest.approx(2.042)
    assert 1.98 < t95(100) < 2.0
    assert t95(10_000) == pytest.approx(1.96, abs=1e-3)


def test_rungs_halve_the_field_and_double_the_games():
    assert rung_sizes(5, 16, finalists=6) == [16]
    assert rung_sizes(48, 16, finalists=6) == [2, 4, 8, 16]
    assert rung_sizes(1000, 4, finalists=6)[-1] == 4 and rung_sizes(1000, 4, finalists=6)[0] == 1


def _outcome(key: str, block: int, game: int, strength: float) -> str:
    """A fixed pseudo-random outcome: a candidate of strength s wins a game with chance s."""
    roll = int.from_bytes(hashlib.sha256(f"{block}|{game}".encode()).digest()[:4], "little") / 2**32
    return "W" if roll < strength else "L"


def _player(strengths, calls):
    def play(tasks, _):
        for task in tasks:
            records = []
            for key, block, start, stop in task:
                calls.append((key, block, start, stop))
                records.append({"key": key, "block": block, "start": start, "stop": stop, "units": {},
                                "outcomes": "".join(_outcome(key, block, g, strengths[key]) for g in range(start, stop))})
            played.take(records)

    played = Played()
    return play, played


def test_the_race_gives_games_to_contenders_and_confirms_on_fresh_games():
    strengths = {"base": 0.4, **{f"c{i}": 0.4 for i in range(30)}, "good": 0.8, "bad": 0.1}
    candidates = [k for k in strengths if k != "base"]
    calls: list = []
    play, played = _player(strengths, calls)
    result = race("base", candidates, blocks=4, per_block=16, play=play, played=played, finalists=4)
    best = result.standings[0]
    assert best.key == "good" and best.confirmed is not None and best.confirmed.significant
    assert best.confirmed.games == 4 * 16
    # the confirmation games come after the racing games: none of them picked the finalists
    finalists = {s.key for s in result.standings if s.confirmed is not None}
    assert len(finalists) == 4
    confirm = [(k, s) for k, _, s, e in calls if s >= 16]
    assert {k for k, _ in confirm} == finalists | {"base"}
    # "bad" was dropped after the first rung: it played a handful of games, "good" all of them
    games = {k: sum(e - s for kk, _, s, e in calls if kk == k) for k in strengths}
    assert games["bad"] == 4 * result.rungs[0][1]
    assert games["good"] == 4 * 32
    assert result.rungs[0][0] == len(candidates) and result.rungs[-1][1] == 16
    # no game is played twice
    seen = set()
    for key, block, start, stop in calls:
        for g in range(start, stop):
            assert (key, block, g) not in seen
            seen.add((key, block, g))


def test_the_race_is_the_same_however_the_games_arrive():
    strengths = {"base": 0.5, **{f"c{i}": 0.3 + i / 40 for i in range(12)}}
    candidates = [k for k in strengths if k != "base"]
    first = race("base", candidates, 2, 8, *_player(strengths, []), finalists=3)

    def backwards(tasks, _):  # the same records, tasks finishing in the other order
        inner(list(reversed(tasks)), _)

    inner, played = _player(strengths, [])
    second = race("base", candidates, 2, 8, backwards, played, finalists=3)
    assert [(s.key, s.racing, s.confirmed) for s in first.standings] == [(s.key, s.racing, s.confirmed) for s in second.standings]


@pytest.mark.parametrize(("candidates", "blocks", "per_block", "finalists"),
                         [(0, 2, 4, 6), (3, 2, 4, 6), (33, 4, 16, 4), (100, 2, 5, 6), (7, 1, 1, 6)])
def test_the_planned_games_are_the_games_the_race_plays(candidates, blocks, per_block, finalists):
    """The progress bar's total: known before the step starts, reached exactly at its end."""
    strengths = {"base": 0.5, **{f"c{i}": (i * 7 % 10) / 10 for i in range(candidates)}}
    calls: list = []
    play, played = _player(strengths, calls)
    race("base", [k for k in strengths if k != "base"], blocks, per_block, play, played, finalists=finalists)
    assert sum(stop - start for _, _, start, stop in calls) == planned_games(candidates, blocks, per_block, finalists)
