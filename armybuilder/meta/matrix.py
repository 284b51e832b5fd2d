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

from armybuilder.core.sanitize import csv_text

from .field import LeftOut, MetaList
from .tally import Standing, Tally, UnitFigures


class UnitFold:
    """Every list's units, folded from the records as they are kept.

    A record's units are numbers lined up with a table of names it names by digest
    (``unit_keys``); each list's table comes once, with the first game of one of its
    pairings (``unit_names``), maybe after the numbers.  So numbers are summed per (list,
    seat, table) and named at the end.  :meth:`take` removes the units from a
    record: what stays per record is a few numbers, whatever the field's size.
    """

    def __init__(self) -> None:
        self.tables: dict[tuple[str, str], list[list[Any]]] = {}  # (fingerprint, key) → [[name, points], ...]
        self.sums: dict[tuple[str, int, str], list[Any]] = {}  # (fingerprint, seat, key) → [games, survived[], eliminated[]]
        self.named: dict[tuple[str, int], dict[str, UnitFigures]] = {}  # sides that came with their names

    def learn(self, record: dict[str, Any]) -> None:
        """The unit names a record carries (any record of the file: its games may be of no use)."""
        from .games import unit_key

        owners = (record.get("a"), record.get("b"))
        for seat, table in enumerate((record.get("unit_names") or [])[:2]):
            if isinstance(table, list) and isinstance(owners[seat], str):
                self.tables[(str(owners[seat]), unit_key(table))] = table

    def named_list(self, fingerprint: str) -> bool:
        return any(fp == fingerprint for fp, _ in self.tables)

    def take(self, record: dict[str, Any]) -> None:
        self.learn(record)
        record.pop("unit_names", None)
        units = record.pop("units", None) or []
        keys = record.pop("unit_keys", None) or [None] * len(units)
        games = record["stop"] - record["start"]
        owners = (record["a"], record["b"])
        for seat, (side, key) in enumerate(zip(units[:2], keys, strict=False)):
            if key is None:  # [name, points, games, survived, eliminated] each
                into = self.named.setdefault((owners[seat], seat), {})
                for name, points, played, survived, eliminated in side:
                    figures = into.setdefault(name, UnitFigures(name, points))
                    figures.games += played
                    figures.survived += survived
                    figures.eliminated += eliminated
                continue
            total = self.sums.get((owners[seat], seat, key))
            if total is None:
                total = self.sums[(owners[seat], seat, key)] = [0, [0] * len(side), [0.0] * len(side)]
            if len(side) != len(total[1]):
                continue  # a record whose key names another table of units: its figures fit nowhere
            total[0] += games
            for k, (survived, eliminated) in enumerate(side):
                total[1][k] += survived
                total[2][k] += eliminated

    def figures(self, fingerprint: str, seats: tuple[int, ...]) -> dict[str, UnitFigures]:
        """The list's units over its games in *seats* (those whose names are known)."""
        out: dict[str, UnitFigures] = {}
        for (fp, seat, key), (games, survived, eliminated) in self.sums.items():
            table = self.tables.get((fp, key))
            if fp != fingerprint or seat not in seats or table is None or len(table) != len(survived):
                continue
            for (name, points), s, e in zip(table, survived, eliminated, strict=True):
                figures = out.setdefault(name, UnitFigures(name, points))
                figures.games += games
                figures.survived += s
                figures.eliminated += e
        for seat in seats:
            for name, theirs in self.named.get((fingerprint, seat), {}).items():
                figures = out.setdefault(name, UnitFigures(name, theirs.points))
                figures.games += theirs.games
                figures.survived += theirs.survived
                figures.eliminated += theirs.eliminated
        return out


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
    #: per row list, its units over every game it played (both seats in a square matrix)
    units: dict[int, dict[str, UnitFigures]] = field(default_factory=dict)
    #: what the systems' scores count ("A.P.", "points"): the margins' unit
    score_unit: str = "points"
    #: options of the run that decide a game besides the lists and the seed, for the replay commands
    game_options: list[str] = field(default_factory=list)
    #: figures derived from the cells (standings, profiles), worked out once: the cells do not change
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

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
        return self.field_tallies()[i]

    def field_tallies(self) -> list[Tally]:
        """Every row's :meth:`field_tally`, in one pass over the cells."""
        totals = [Tally() for _ in self.rows]
        for (r, c), t in self.cells.items():
            totals[r].add(t.wins, t.draws, t.losses, t.rounds, t.margin)
            if self.square and c != r:
                totals[c].add_seen_from_second(t)
        return totals

    def pairing_seed(self, i: int, j: int) -> int:
        """The playtest seed of cell (i, j): ``playtest ROW --vs COLUMN --seed S`` plays its games."""
        from .games import pairing_seed

        return pairing_seed(self.seed, self.rows[i].fingerprint, self.cols[j].fingerprint)

    def standings(self) -> list[Standing]:
        """Rows ranked by mean win rate against the field (ties share a rank)."""
        if "standings" in self.derived:
            return list(self.derived["standings"])
        tallies = list(enumerate(self.field_tallies()))
        tallies.sort(key=lambda it: (-(it[1].rate or 0.0), self.rows[it[0]].label))
        out: list[Standing] = []
        for pos, (i, t) in enumerate(tallies):
            rank = out[-1].rank if out and out[-1].tally.rate == t.rate else pos + 1
            out.append(Standing(rank, i, t))
        self.derived["standings"] = out
        return list(out)

    def as_json(self) -> dict[str, Any]:
        pairings = []
        for (i, j), t in sorted(self.cells.items()):
            a, b = self.rows[i], self.cols[j]
            pairings.append({"list": a.path, "opponent": b.path, "list_fingerprint": a.fingerprint,
                             "opponent_fingerprint": b.fingerprint, **t.as_json(), "replay_seed": self.pairing_seed(i, j)})
        from .analysis import profile_json, profiles

        return {
            "system": self.system,
            "catalogue": self.catalogue,
            "seed": self.seed,
            "games_per_pairing": self.games,
            "complete": self.complete,
            "lists": [item.as_json() for item in self.rows],
            "field": None if self.square else [item.as_json() for item in self.cols],
            "score_unit": self.score_unit,
            "pairings": pairings,
            "standings": [profile_json(self, p) for p in profiles(self)],
            "left_out": [x.as_json() for x in self.left_out],
        }

    def as_csv(self) -> str:
        """One row per pairing (the list playing first, then its opponent).

        Paths and names come from the players' files: :func:`~armybuilder.core.sanitize.csv_text`
        quotes them, shows their control characters as escapes and keeps a spreadsheet from
        reading one as a formula."""
        rows: list[list[object]] = [["list", "opponent", "list_name", "opponent_name", "games", "wins", "draws", "losses",
                                     "win_rate", "win_rate_low", "win_rate_high", "mean_margin", "mean_rounds", "replay_seed"]]
        for (i, j), t in sorted(self.cells.items()):
            a, b = self.rows[i], self.cols[j]
            low, high = t.interval
            rate = "" if t.rate is None else f"{t.rate:.6f}"
            margin = "" if t.mean_margin is None else f"{t.mean_margin:.4f}"
            rounds = "" if t.mean_rounds is None else f"{t.mean_rounds:.4f}"
            rows.append([a.path, b.path, a.name, b.name, t.games, t.wins, t.draws, t.losses, rate, f"{low:.6f}", f"{high:.6f}",
                         margin, rounds, self.pairing_seed(i, j)])
        return csv_text(rows)


def build_matrix(
    system: str, catalogue: str, seed: int, games: int, rows: list[MetaList], cols: list[MetaList],
    square: bool, pairs: list[tuple[int, int]], done: dict[tuple[str, str], list[dict[str, Any]]],
    left_out: list[LeftOut] | None = None, score_unit: str = "points", units: UnitFold | None = None,
) -> MetaMatrix:
    """The matrix of *pairs* from the kept records (keyed by both fingerprints), with
    each row list's units over its games (as first list, and as second in a square matrix)."""
    if units is None:  # records that still hold their units
        units = UnitFold()
        for rs in done.values():
            for r in rs:
                units.take(r)
    cells: dict[tuple[int, int], Tally] = {}
    for i, j in pairs:
        t = Tally()
        for r in done.get((rows[i].fingerprint, cols[j].fingerprint), []):
            t.add(r["wins"], r["draws"], r["losses"], r.get("rounds", 0), r.get("margin", 0.0))
        cells[(i, j)] = t
    seats = (0, 1) if square else (0,)
    per_row = {i: units.figures(row.fingerprint, seats) for i, row in enumerate(rows)}
    return MetaMatrix(system, catalogue, seed, games, rows, cols, square, cells, list(left_out or []), per_row, score_unit)
