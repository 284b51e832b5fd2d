"""The results file of a meta run, and the games still to play.

Each finished task appends its records as JSON lines, flushed and synced, so
a run killed at any moment keeps everything finished before.  A torn last line
(the machine stopped mid-write) is skipped.  ``--resume`` reads the file back:
records of the same seed and engine whose game ranges fit the wanted games are
kept (disjoint ranges only, so no game counts twice), and only the complement
is played.  Because game *i* of a pairing always draws from the same child
seed, a resumed matrix equals an uninterrupted one.

No record spans a checkpoint (10, 20, 50, 100, 200, 500, 1,000 games...), so a
run resumed with fewer games reuses every record up to the last checkpoint at or
under its ``--games`` and plays only the games past it.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from armybuilder.core.errors import InputError

from .games import Segment

Pair = tuple[str, str]


def results_path(report: Path) -> Path:
    """The results file beside a report: ``meta.pdf`` → ``meta.results.jsonl``."""
    return report.with_name(report.stem + ".results.jsonl")


#: The largest results file read back (a record a task: a million tasks fit).
RESULTS_LIMIT = 512 * 1024 * 1024


def read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Every whole record of *path*, and how many lines were unreadable."""
    from armybuilder.core.textfile import read_bytes

    records: list[dict[str, Any]] = []
    bad = 0
    if not os.path.lexists(path):
        return [], 0
    try:  # a regular file of bounded size (a FIFO or a device is refused at once)
        text = read_bytes(path, RESULTS_LIMIT).decode("utf-8", errors="replace")
    except InputError as exc:
        raise InputError.at(f"cannot read the results file: {exc.first.message}", path) from None
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError
            for name in ("a", "b", "start", "stop", "wins", "draws", "losses", "seed", "engine"):
                record[name]  # noqa: B018 - presence check
        except (ValueError, KeyError):
            bad += 1
            continue
        records.append(record)
    return records, bad


#: Bounds of a record's numbers: a game count or a seed beyond them was never written by
#: a run (``meta`` caps games per pairing and seeds below them).
MAX_RECORD_GAMES = 10**9
MAX_RECORD_SEED = 2**63 - 1
#: Rounds a game may last, at most, in any system (a record's rounds are their sum).
MAX_ROUNDS_PER_GAME = 1000
_TEXT_FIELDS = ("a", "b", "engine")
_COUNT_FIELDS = ("wins", "draws", "losses")


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high  # a bool is not a count


def record_problem(record: Any) -> str | None:
    """Why a results record cannot be believed (a sentence), or None.

    A record is believed only as a run writes one: text ids, whole numbers in range, a
    game range ``0 <= start < stop``, and wins, draws and losses adding up to that range
    exactly (300 games are not the result of a 100-game range)."""
    if not isinstance(record, dict):
        return "not a record"
    for name in _TEXT_FIELDS:
        if not isinstance(record.get(name), str) or not 0 < len(record[name]) <= 128:
            return f"{name!r} is not an id"
    if not _whole(record.get("seed"), 0, MAX_RECORD_SEED):
        return "'seed' is not a whole number from 0 to 2**63-1"
    start, stop = record.get("start"), record.get("stop")
    if not (_whole(start, 0, MAX_RECORD_GAMES) and _whole(stop, 1, MAX_RECORD_GAMES)):
        return "'start' and 'stop' are not a range of games"
    games = int(stop) - int(start)  # type: ignore[arg-type]  # both whole numbers, checked above
    if games <= 0:
        return "'start' and 'stop' are not a range of games"
    if not all(_whole(record.get(name), 0, games) for name in _COUNT_FIELDS):
        return "'wins', 'draws' and 'losses' are not counts within the range"
    if sum(record[name] for name in _COUNT_FIELDS) != games:
        return "wins, draws and losses that do not add up to its range of games"
    if "rounds" in record and not _whole(record["rounds"], 0, games * MAX_ROUNDS_PER_GAME):
        return "'rounds' is not a count of rounds for those games"
    if "margin" in record and not _number(record["margin"], -MAX_MARGIN_PER_GAME * games, MAX_MARGIN_PER_GAME * games):
        return "'margin' is not a sum of margins for those games"
    return _units_problem(record, games)


#: the largest margin of points one game can end with, for any system (a bound, not a figure)
MAX_MARGIN_PER_GAME = 10**6
#: the most points a unit can be worth (a bound on its points and on what it eliminates in a game)
MAX_POINTS = 10**7


def _number(value: Any, low: float, high: float) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and low <= value <= high


def _units_problem(record: dict[str, Any], games: int) -> str | None:
    """Why the per-unit figures of a record cannot be read (they are summed into the report)."""
    units, keys, names = record.get("units"), record.get("unit_keys"), record.get("unit_names")
    if units is None:
        return None
    if not isinstance(units, list) or len(units) > 2:
        return "'units' is not two sides of unit figures"
    if keys is None:
        keys = [None] * len(units)
    if not isinstance(keys, list) or len(keys) != len(units) or not all(k is None or isinstance(k, str) for k in keys):
        return "'unit_keys' does not match 'units'"
    if names is not None and (not isinstance(names, list) or len(names) > 2 or not all(
            t is None or (isinstance(t, list) and all(isinstance(row, list) and len(row) == 2 and isinstance(row[0], str)
                                                     and _number(row[1], 0, MAX_POINTS) for row in t)) for t in names)):
        return "'unit_names' is not two tables of unit names and points"
    for side, key in zip(units, keys, strict=True):
        if not isinstance(side, list) or len(side) > 10_000:
            return "'units' is not two sides of unit figures"
        for row in side:
            if key is not None:
                ok = isinstance(row, list) and len(row) == 2 and _number(row[0], 0, games) and _number(row[1], 0, MAX_POINTS * games)
            else:
                ok = (isinstance(row, list) and len(row) == 5 and isinstance(row[0], str) and _number(row[1], 0, MAX_POINTS)
                      and _whole(row[2], 0, games) and _number(row[3], 0, games) and _number(row[4], 0, MAX_POINTS * games))
            if not ok:
                return "'units' holds a figure that is not a count within the range"
    return None


def checked_records(records: Iterable[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The records that can be believed, and a reason for each one that cannot (its games
    are then played again, as if it had never been written)."""
    good: list[dict[str, Any]] = []
    refused: list[str] = []
    for record in records:
        problem = record_problem(record)
        if problem is None:
            good.append(record)
        else:
            refused.append(problem)
    return good, refused


def usable(records: Iterable[dict[str, Any]], seed: int, engine: str, games: int, wanted: set[Pair]) -> dict[Pair, list[dict[str, Any]]]:
    """Per pairing, disjoint records within games 0..games-1 of this seed and engine."""
    chosen: dict[Pair, list[dict[str, Any]]] = {}
    candidates = sorted(
        (r for r in records if r["seed"] == seed and r["engine"] == engine and (r["a"], r["b"]) in wanted
         and 0 <= r["start"] < r["stop"] <= games),
        key=lambda r: (r["a"], r["b"], r["start"], r["stop"]),
    )
    for r in candidates:
        kept = chosen.setdefault((r["a"], r["b"]), [])
        if kept and r["start"] < kept[-1]["stop"]:
            continue  # overlaps a kept range (a task replayed after a lost worker, say)
        kept.append(r)
    return chosen


def missing(pairs: Iterable[Pair], games: int, done: dict[Pair, list[dict[str, Any]]]) -> list[Segment]:
    """The game ranges of each pairing not covered by *done*, in pairing order."""
    out: list[Segment] = []
    for pair in pairs:
        at = 0
        for r in done.get(pair, []):
            if r["start"] > at:
                out.append((pair[0], pair[1], at, r["start"]))
            at = max(at, r["stop"])
        if at < games:
            out.append((pair[0], pair[1], at, games))
    return out


def checkpoints(start: int, stop: int) -> list[int]:
    """The checkpoints strictly between *start* and *stop*: 10, 20, 50, 100, 200, 500, ..."""
    out = []
    scale = 10
    while scale < stop:
        for step in (1, 2, 5):
            at = step * scale
            if start < at < stop:
                out.append(at)
        scale *= 10
    return out


def split_at_checkpoints(segments: Iterable[Segment]) -> list[Segment]:
    """Each segment cut at the checkpoints inside it (one record each, reusable by a shorter run)."""
    out: list[Segment] = []
    for a, b, start, stop in segments:
        for at in [*checkpoints(start, stop), stop]:
            out.append((a, b, start, at))
            start = at
    return out


def set_aside_unreadable(path: Path) -> Path | None:
    """Move the unreadable lines of a results file to ``<file>.unreadable`` (appended).

    A torn line (a write cut short) would otherwise be found, and reported, by every
    later run.  The readable lines are rewritten as they were, atomically.  Returns
    where the lines went, or None if there were none.
    """
    from armybuilder.core.atomic import atomic_write_text

    records, torn = read_records(path)  # the one judge of what is readable
    if not torn:
        return None
    kept: list[str] = []
    bad: list[str] = []
    expected = iter(records)
    wanted = next(expected, None)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            readable = wanted is not None and json.loads(line) == wanted
        except ValueError:
            readable = False
        if readable:
            kept.append(line + "\n")
            wanted = next(expected, None)
        else:
            bad.append(line + "\n")
    aside = path.with_name(path.name + ".unreadable")
    with open(aside, "a", encoding="utf-8") as f:
        f.write("".join(bad))
        f.flush()
        os.fsync(f.fileno())
    atomic_write_text(path, "".join(kept))
    return aside


def task_size(total_games: int, workers: int, low: int = 200, high: int = 2000) -> int:
    """Games per task: about eight tasks per worker, within [low, high].

    A Rag'Narok 2 game takes about a millisecond and a Dask task costs a few
    milliseconds to schedule and report, so 200 games or more keep scheduling
    under 5 % of the work; eight tasks per worker keep the cores busy to the end.
    """
    return max(low, min(high, math.ceil(total_games / max(1, workers * 8))))


def pack(segments: Iterable[Segment], size: int) -> list[list[Segment]]:
    """Cut long segments to *size* games and pack short ones together, in order."""
    tasks: list[list[Segment]] = []
    current: list[Segment] = []
    filled = 0
    for a, b, start, stop in segments:
        while start < stop:
            take = min(stop - start, size - filled)
            current.append((a, b, start, start + take))
            filled += take
            start += take
            if filled >= size:
                tasks.append(current)
                current, filled = [], 0
    if current:
        tasks.append(current)
    return tasks


def _open_for_appending(path: Path) -> IO[str]:
    """The results file opened for appending, if it is a regular file: opened without
    blocking (a FIFO there fails at once instead of waiting for a reader) and checked."""
    import stat

    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), 0o666)
    except OSError as exc:
        raise InputError.at(f"cannot write the results file ({exc.strerror or exc}): it must be a regular file", path) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError.at("the results file is not a regular file (a pipe or a device): move it away or choose another -o", path)
    os.set_blocking(fd, True)
    return open(fd, "a", encoding="utf-8")  # noqa: SIM115 - closed in ResultsFile.__exit__


class ResultsFile:
    """Append-only JSON lines; every task's records are flushed and synced at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def __enter__(self) -> ResultsFile:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = _open_for_appending(self.path)
        if self._handle.tell() > 0:
            self._terminate_torn_line()
        return self

    def _terminate_torn_line(self) -> None:
        with open(self.path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            last = f.read(1)
        if last != b"\n":
            assert self._handle is not None
            self._handle.write("\n")  # a torn line stays alone on its line, skipped on reading

    def append(self, records: list[dict[str, Any]]) -> None:
        assert self._handle is not None, "use ResultsFile as a context manager"
        self._handle.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
