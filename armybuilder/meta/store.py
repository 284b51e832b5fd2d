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


def read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Every whole record of *path*, and how many lines were unreadable."""
    records: list[dict[str, Any]] = []
    bad = 0
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], 0
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError.at(f"cannot read the results file: {exc}", path) from None
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


class ResultsFile:
    """Append-only JSON lines; every task's records are flushed and synced at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def __enter__(self) -> ResultsFile:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed in __exit__
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
