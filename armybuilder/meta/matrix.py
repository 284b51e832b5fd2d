"""The meta matrix: win rates per pairing, standings against the field, JSON and CSV.

A draw counts half, as in the playtest.  A cell (i, j) is row list *i* playing
first against column list *j*.  A list's standing against the field pools every
game it played: in a square matrix its row (as first list) and its column (as
second list, counted from its side), so both seats weigh the same; against a
``--vs`` field, its row.  Intervals are Wilson 95 % intervals on pooled games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from armybuilder.core.playtest import wilson_interval
from armybuilder.core.sanitize import csv_text

from .field import LeftOut, MetaList


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rounds: int = 0

    def add(self, wins: int, draws: int, losses: int, rounds: int = 0) -> None:
        self.games += wins + draws + losses
        self.wins += wins
        self.draws += draws
        self.losses += losses
        self.rounds += rounds

    @property
    def rate(self) -> float | None:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

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
        }


@dataclass
class Standing:
    rank: int
    index: int  # row index
    tally: Tally


@dataclass
class MetaMatrix:
    system: str
    catalogue: str
    seed: int
    games: int  # per pairing
    rows: list[MetaList]
    cols: list[MetaList]
    square: bool
    cells: dict[tuple[int, int], Tally]
    left_out: list[LeftOut] = field(default_factory=list)

    def cell(self, i: int, j: int) -> Tally | None:
        return self.cells.get((i, j))

    @property
    def played(self) -> int:
        return sum(t.games for t in self.cells.values())

    @property
    def complete(self) -> bool:
        return all(t.games >= self.games for t in self.cells.values())

    def field_tally(self, i: int) -> Tally:
        """Every game row list *i* played (both seats in a square matrix)."""
        total = Tally()
        for (r, c), t in self.cells.items():
            if r == i:
                total.add(t.wins, t.draws, t.losses, t.rounds)
            elif self.square and c == i:
                total.add(t.losses, t.draws, t.wins, t.rounds)
        return total

    def standings(self) -> list[Standing]:
        """Rows ranked by mean win rate against the field (ties share a rank)."""
        tallies = [(i, self.field_tally(i)) for i in range(len(self.rows))]
        tallies.sort(key=lambda it: (-(it[1].rate or 0.0), self.rows[it[0]].label))
        out: list[Standing] = []
        for pos, (i, t) in enumerate(tallies):
            rank = out[-1].rank if out and out[-1].tally.rate == t.rate else pos + 1
            out.append(Standing(rank, i, t))
        return out

    def as_json(self) -> dict[str, Any]:
        pairings = []
        for (i, j), t in sorted(self.cells.items()):
            a, b = self.rows[i], self.cols[j]
            pairings.append({"list": a.path, "opponent": b.path, "list_fingerprint": a.fingerprint,
                             "opponent_fingerprint": b.fingerprint, **t.as_json()})
        standings = []
        for s in self.standings():
            item = self.rows[s.index]
            standings.append({"rank": s.rank, "list": item.path, "name": item.name, **s.tally.as_json()})
        return {
            "system": self.system,
            "catalogue": self.catalogue,
            "seed": self.seed,
            "games_per_pairing": self.games,
            "complete": self.complete,
            "lists": [item.as_json() for item in self.rows],
            "field": None if self.square else [item.as_json() for item in self.cols],
            "pairings": pairings,
            "standings": standings,
            "left_out": [x.as_json() for x in self.left_out],
        }

    def as_csv(self) -> str:
        """One row per pairing (the list playing first, then its opponent).

        Paths and names come from the players' files: :func:`~armybuilder.core.sanitize.csv_text`
        quotes them, shows their control characters as escapes and keeps a spreadsheet from
        reading one as a formula."""
        rows: list[list[object]] = [["list", "opponent", "list_name", "opponent_name", "games", "wins", "draws", "losses",
                                     "win_rate", "win_rate_low", "win_rate_high"]]
        for (i, j), t in sorted(self.cells.items()):
            a, b = self.rows[i], self.cols[j]
            low, high = t.interval
            rate = None if t.rate is None else round(t.rate, 6)
            rows.append([a.path, b.path, a.name, b.name, t.games, t.wins, t.draws, t.losses, rate, round(low, 6), round(high, 6)])
        return csv_text(rows)


def build_matrix(
    system: str, catalogue: str, seed: int, games: int, rows: list[MetaList], cols: list[MetaList],
    square: bool, pairs: list[tuple[int, int]], done: dict[tuple[str, str], list[dict[str, Any]]],
    left_out: list[LeftOut] | None = None,
) -> MetaMatrix:
    """The matrix of *pairs* from the kept records (keyed by both fingerprints)."""
    cells: dict[tuple[int, int], Tally] = {}
    for i, j in pairs:
        t = Tally()
        for r in done.get((rows[i].fingerprint, cols[j].fingerprint), []):
            t.add(r["wins"], r["draws"], r["losses"], r.get("rounds", 0))
        cells[(i, j)] = t
    return MetaMatrix(system, catalogue, seed, games, rows, cols, square, cells, list(left_out or []))
