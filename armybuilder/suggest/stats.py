"""The statistics of a suggestion: paired differences on common games.

A candidate and the base list play the very same games (same seed, opponent and
seat), so each game gives one paired difference of scores (a win 1, a draw ½, a
loss 0): from -1 to +1.  The gain is their mean; its 95 % interval is Student's
on the differences, which the pairing makes much narrower than two independent
win rates would allow.  The win rates themselves carry Wilson intervals, as in
``playtest`` and ``meta``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from armybuilder.core.playtest import Z95, per_game, wilson_interval

SCORE = {"W": 1.0, "D": 0.5, "L": 0.0}

#: Student's t, two-sided 95 %, by degrees of freedom (1..30); past 30 the normal's 1.96 is
#: within 2 % of it, past 120 within 0.5 %.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    if df <= 60:
        return 2.000 + (2.042 - 2.000) * (60 - df) / 30
    if df <= 120:
        return 1.980 + (2.000 - 1.980) * (120 - df) / 60
    return Z95


def scores(outcomes: str) -> list[float]:
    return [SCORE[c] for c in outcomes]


@dataclass(frozen=True)
class Paired:
    """A candidate against the base list on the same *games* games."""

    games: int
    base_score: float  # the base list's wins plus half its draws
    score: float  # the candidate's
    mean: float  # mean paired difference: the gain in win rate
    low: float
    high: float

    @property
    def base_rate(self) -> float:
        return per_game(self.base_score, self.games)

    @property
    def rate(self) -> float:
        return per_game(self.score, self.games)

    @property
    def base_interval(self) -> tuple[float, float]:
        return wilson_interval(self.base_score, self.games)

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    @property
    def significant(self) -> bool:
        """The gain's interval excludes zero (on the side of a gain)."""
        return self.low > 0

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "win_rate_before": self.base_rate, "interval_before": list(self.base_interval),
            "win_rate_after": self.rate, "interval_after": list(self.interval),
            "gain": self.mean, "gain_interval": [self.low, self.high],
        }


def paired(base: Sequence[float], candidate: Sequence[float]) -> Paired:
    """The paired comparison of two equally long score sequences (game by game)."""
    if len(base) != len(candidate):
        raise ValueError("paired games must be the same games")
    n = len(base)
    if n == 0:
        return Paired(0, 0.0, 0.0, 0.0, -1.0, 1.0)
    diffs = [c - b for b, c in zip(base, candidate, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return Paired(n, sum(base), sum(candidate), mean, -1.0, 1.0)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Paired(n, sum(base), sum(candidate), mean, max(-1.0, mean - half), min(1.0, mean + half))
