"""The counts the meta matrix keeps: a pairing's games, a unit's figures, a list's standing.

Apart from :mod:`.matrix` so that what reads a finished matrix (:mod:`.analysis`, the
reports) and the matrix itself share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from armybuilder.core.playtest import per_game, win_interval, win_rate


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rounds: int = 0
    margin: float = 0.0  # summed over the games: this side's score minus the other's

    def add(self, wins: int, draws: int, losses: int, rounds: int = 0, margin: float = 0.0) -> None:
        self.games += wins + draws + losses
        self.wins += wins
        self.draws += draws
        self.losses += losses
        self.rounds += rounds
        self.margin += margin

    def add_seen_from_second(self, other: Tally) -> None:
        """Add *other*'s games as its second list saw them (wins and losses swapped, margin negated)."""
        self.add(other.losses, other.draws, other.wins, other.rounds, -other.margin)

    @property
    def mean_rounds(self) -> float | None:
        return per_game(self.rounds, self.games) if self.games else None

    @property
    def mean_margin(self) -> float | None:
        return per_game(self.margin, self.games) if self.games else None

    @property
    def rate(self) -> float | None:
        return win_rate(self.wins, self.draws, self.games) if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return win_interval(self.wins, self.draws, self.games)

    def as_json(self) -> dict[str, Any]:
        low, high = self.interval
        rate = self.rate
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": None if rate is None else round(rate, 6),
            "win_rate_95": [round(low, 6), round(high, 6)],
            "mean_margin": None if self.mean_margin is None else round(self.mean_margin, 4),
            "mean_rounds": None if self.mean_rounds is None else round(self.mean_rounds, 4),
        }


@dataclass
class UnitFigures:
    """One unit of a list over every game the list played: the playtest's per-unit figures."""

    name: str
    points: float
    games: int = 0
    survived: int = 0
    eliminated: float = 0.0  # points of enemies it eliminated or routed, summed

    @property
    def survival_rate(self) -> float:
        return per_game(self.survived, self.games)

    @property
    def mean_eliminated(self) -> float:
        return per_game(self.eliminated, self.games)

    @property
    def eliminated_per_100(self) -> float | None:
        """Points eliminated a game per 100 points the unit costs: what it earns for its price."""
        return 100 * self.mean_eliminated / self.points if self.points else None

    def as_json(self) -> dict[str, Any]:
        per = self.eliminated_per_100
        return {
            "name": self.name, "points": self.points, "games": self.games,
            "survival_rate": round(self.survival_rate, 6),
            "mean_points_eliminated": round(self.mean_eliminated, 4),
            "eliminated_per_100_points": None if per is None else round(per, 4),
        }


@dataclass
class Standing:
    rank: int
    index: int  # row index
    tally: Tally
