"""Racing the candidates: successive halving on common games, then a fresh confirmation.

One step of a suggestion run, for a base list, its legal neighbours and a field:

1. **Racing.**  The base list plays every block (opponent × seat) ``per_block``
   games.  All candidates play the first rung's few games of each block; the
   better half (by mean paired gain over the same games) go on to twice as many,
   and so on until the finalists have played all ``per_block`` games of every
   block.  Games go to the contenders: a hopeless edit is dropped after a handful.
2. **Confirmation.**  Picking the best of many candidates on the same games
   flatters them (the winner's curse), so the finalists and the base list then
   play ``per_block`` *further* games of every block (game numbers past the
   racing's), and every figure reported rests on those games only.  A suggestion
   is kept when its gain's 95 % interval excludes zero.

Which candidates survive a rung depends only on the records, never on the order
they arrived in or the worker that played them: one worker, two or a cluster give
the same suggestions for the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from armybuilder.meta.store import pack, task_size

from .games import Segment
from .stats import Paired, paired, scores

#: Candidates that reach the confirmation games.
FINALISTS = 6


@dataclass
class Played:
    """The games a run has played: per (candidate key, block), outcomes by game number."""

    outcomes: dict[tuple[str, int], dict[int, str]] = field(default_factory=dict)
    #: per (candidate key, block, first game): that segment's unit figures
    units: dict[tuple[str, int, int], dict[str, list[float]]] = field(default_factory=dict)
    games: int = 0

    def take(self, records: list[dict[str, Any]]) -> None:
        for r in records:
            games = self.outcomes.setdefault((r["key"], r["block"]), {})
            for i, c in enumerate(r["outcomes"], start=r["start"]):
                games[i] = c
            self.units[(r["key"], r["block"], r["start"])] = r["units"]
            self.games += r["stop"] - r["start"]

    def has(self, key: str, block: int, start: int, stop: int) -> bool:
        games = self.outcomes.get((key, block), {})
        return all(i in games for i in range(start, stop))

    def scores(self, key: str, blocks: int, start: int, stop: int) -> list[float]:
        """Scores of games start..stop-1 of every block, block by block."""
        out: list[float] = []
        for b in range(blocks):
            games = self.outcomes[(key, b)]
            out += scores("".join(games[i] for i in range(start, stop)))
        return out

    def unit_figures(self, key: str, blocks: int, start: int, stop: int) -> dict[str, list[float]]:
        """name → [points, games, survived, points eliminated] over the segments within start..stop."""
        total: dict[str, list[float]] = {}
        for (k, b, first), units in self.units.items():
            if k != key or b >= blocks or not start <= first < stop:
                continue
            for name, (points, games, survived, eliminated) in units.items():
                row = total.setdefault(name, [points, 0, 0, 0.0])
                row[1] += games
                row[2] += survived
                row[3] += eliminated
        return dict(sorted(total.items()))


@dataclass
class Standing:
    """A candidate's figures after racing (and confirmation, for a finalist)."""

    key: str
    racing: Paired
    racing_games: int
    confirmed: Paired | None = None


@dataclass
class StepResult:
    standings: list[Standing]  # finalists first, in confirmed order, then the others by racing gain
    rungs: list[tuple[int, int]]  # (candidates, games per block) of each rung
    games: int  # games this step rests on (the base list's included, those read back too)


Play = Callable[[list[list[Segment]], dict[str, Any]], None]


def rung_sizes(candidates: int, per_block: int, finalists: int = FINALISTS) -> list[int]:
    """Games per block of each racing rung: halving the field, doubling the games.

    As many rungs as halvings take the field to the finalists; the first rung has
    at least one game a block.
    """
    halvings = max(0, math.ceil(math.log2(max(1, candidates) / finalists))) if candidates > finalists else 0
    sizes = [max(1, per_block >> (halvings - k)) for k in range(halvings + 1)]
    return sorted(set(sizes))


def kept(alive: int, last: bool, finalists: int = FINALISTS) -> int:
    """How many of *alive* candidates a rung keeps: half of them (never fewer than the
    finalists) after a racing rung, the finalists after the last."""
    return min(alive, finalists) if last else min(alive, max(finalists, math.ceil(alive / 2)))


def planned_games(candidates: int, blocks: int, per_block: int, finalists: int = FINALISTS) -> int:
    """The games one step plays (the base list's, every rung's, the confirmation's), known
    before it starts: what a progress bar counts towards."""
    total, alive, done = per_block, candidates, 0
    sizes = rung_sizes(candidates, per_block, finalists)
    for rung, n in enumerate(sizes):
        total += alive * (n - done)
        done = n
        alive = kept(alive, rung == len(sizes) - 1, finalists)
    total += (1 + alive) * per_block
    return total * blocks


def _segments(keys: Sequence[str], blocks: int, start: int, stop: int, played: Played) -> list[Segment]:
    """The games start..stop-1 of every block that *keys* have not played yet (the ones
    played already, by an earlier rung or a resumed run, are never played again)."""
    out: list[Segment] = []
    for k in keys:
        for b in range(blocks):
            games = played.outcomes.get((k, b), {})
            first = start
            while first < stop and first in games:
                first += 1
            last = first
            while last < stop:
                if last in games:  # a hole: play up to it, then go on after it
                    if last > first:
                        out.append((k, b, first, last))
                    while last < stop and last in games:
                        last += 1
                    first = last
                else:
                    last += 1
            if first < stop:
                out.append((k, b, first, stop))
    return out


def race(base: str, candidates: Sequence[str], blocks: int, per_block: int, play: Play, played: Played,
         finalists: int = FINALISTS, workers: int = 1, on_rung: Callable[[int, int, float | None], None] | None = None) -> StepResult:
    """Race *candidates* (keys) against *base* over *blocks* blocks; *play* plays tasks of segments.

    *play(tasks, records_sink)* must hand every record to ``played.take`` (it is
    called with the tasks of one rung and returns when they are all played).
    """
    before = played.games
    rungs: list[tuple[int, int]] = []

    def run(segments: list[Segment]) -> None:
        if segments:
            total = sum(stop - start for _, _, start, stop in segments)
            play(pack(segments, task_size(total, workers, low=8, high=400)), {})  # type: ignore[arg-type]  # (key, block, start, stop) packs as meta's segments do

    alive = list(candidates)
    order_of = {k: i for i, k in enumerate(candidates)}
    sizes = rung_sizes(len(alive), per_block, finalists)
    run(_segments([base], blocks, 0, per_block, played))
    racing: dict[str, Paired] = {}
    for rung, n in enumerate(sizes):
        rungs.append((len(alive), n))
        run(_segments(alive, blocks, 0, n, played))  # each continues where its last rung stopped
        base_scores = played.scores(base, blocks, 0, n)
        for k in alive:
            racing[k] = paired(base_scores, played.scores(k, blocks, 0, n))
        order = sorted(alive, key=lambda k: (-racing[k].mean, order_of[k]))
        last = rung == len(sizes) - 1
        alive = order[:kept(len(alive), last, finalists)]
        if on_rung:
            on_rung(len(alive), played.games - before, racing[order[0]].mean if order else None)
    # confirmation: fresh games for the finalists and the base list
    run(_segments([base, *alive], blocks, per_block, 2 * per_block, played))
    base_scores = played.scores(base, blocks, per_block, 2 * per_block)
    standings = {k: Standing(k, racing[k], racing[k].games) for k in candidates if k in racing}
    for k in alive:
        standings[k].confirmed = paired(base_scores, played.scores(k, blocks, per_block, 2 * per_block))
    final = sorted(alive, key=lambda k: (-_confirmed_mean(standings[k]), order_of[k]))
    rest = sorted((k for k in standings if k not in alive), key=lambda k: (-standings[k].racing.mean, order_of[k]))
    return StepResult([standings[k] for k in [*final, *rest]], rungs, played.games)


def _confirmed_mean(standing: Standing) -> float:
    return standing.confirmed.mean if standing.confirmed is not None else -math.inf
