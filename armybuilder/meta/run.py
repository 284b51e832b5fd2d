"""A whole meta run: lists in, pairings played where the runner says, matrix out.

The order of work: read and check the lists, read back what the results file
already holds (``--resume``), pack the missing games into tasks, play them,
append each task's records as it finishes, build the matrix from the records.
The matrix is built from the records only, so an uninterrupted run, a resumed
one and one on a cluster give the same numbers for the same seed.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from armybuilder.core.errors import InputError

from .field import LeftOut, MetaList, check_same_game, label_field, pairings, read_lists
from .games import engine_hash, namers
from .matrix import MetaMatrix, UnitFold, build_matrix
from .store import (
    ResultsFile,
    checked_records,
    missing,
    pack,
    read_records,
    set_aside_unreadable,
    split_at_checkpoints,
    task_size,
    usable,
)


@dataclass
class MetaSetup:
    """The lists of a run: rows, columns (the same lists unless against a field), the left-out."""

    rows: list[MetaList]
    cols: list[MetaList]
    square: bool
    system_id: str
    catalogue: str
    left_out: list[LeftOut] = field(default_factory=list)

    def __post_init__(self) -> None:
        label_field([*self.rows, *self.cols])

    @property
    def score_unit(self) -> str:
        """What the system's scores count for these lists ("A.P."), for the margins."""
        item = self.rows[0]
        try:
            fmt = item.system.format_of(item.army, item.system.catalogue_for(item.army))
        except (LookupError, ValueError):
            fmt = None
        return getattr(fmt, "unit", None) or "points"

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return pairings(self.rows, self.cols, self.square)

    def keys(self) -> list[tuple[str, str]]:
        """Distinct (first, second) fingerprints to play, in pairing order (a list
        submitted twice under two names is played once per opponent)."""
        return list(dict.fromkeys((self.rows[i].fingerprint, self.cols[j].fingerprint) for i, j in self.pairs))


def prepare(lists: Sequence[Path], field_lists: Sequence[Path] | None = None, include_illegal: bool = False) -> MetaSetup:
    """Read the lists (and the field, if any) and check they make one matrix."""
    rows, left = read_lists(lists, include_illegal)
    cols, left_cols = (rows, []) if field_lists is None else read_lists(field_lists, include_illegal)
    seen = {x.path for x in left}
    left += [x for x in left_cols if x.path not in seen]
    if field_lists is None and len(rows) < 2:
        raise _with_left_out(f"a meta matrix needs at least two usable lists (found {len(rows)}{', ' + str(len(left)) + ' left out' if left else ''})", left)
    if not rows:
        raise _with_left_out("no usable list to play against the field" + (f" ({len(left)} left out)" if left else ""), left)
    system, version = check_same_game(rows + (cols if field_lists is not None else []))
    if field_lists is not None and not cols:
        raise InputError.at("no usable list in the field (--vs)")
    setup = MetaSetup(rows, cols, field_lists is None, system.id, version, left)
    if not setup.pairs:
        raise InputError.at("no pairing to play (the field holds only the lists themselves)")
    return setup


def _with_left_out(message: str, left: list[LeftOut]) -> InputError:
    """The refusal, followed by why each list was left out (else the organiser never learns)."""
    from armybuilder.core.errors import Problem

    return InputError([Problem(message), *(Problem(f"left out: {x.reason}", x.path) for x in left)])


def prepare_row(row: MetaList, field_lists: Sequence[Path]) -> MetaSetup:
    """One list (the one being edited) against a field: the TUI's matrix row.

    The row is played even if illegal (its author is still building it); the
    field's illegal lists are left out as in the command.
    """
    cols, left = read_lists(field_lists)
    if not cols:
        raise InputError.at("no usable list in the folder" + (f" ({len(left)} left out)" if left else ""))
    system, version = check_same_game([row, *cols])
    setup = MetaSetup([row], cols, False, system.id, version, left)
    if not setup.pairs:
        raise InputError.at("no pairing to play")
    return setup


class ProgressLine:
    """Where a run stands, on stderr.

    On a terminal, one line redrawn in place:
    ``[#####.....] 1,234/18,000 games  812 games/s  0:00:21 left``.  Elsewhere (nohup,
    CI, a log file), a plain line every *every* seconds and at the end, so a log shows
    the run moving without a line per task.  A runner's status ("waiting for workers")
    takes the rate's place until it clears.
    """

    def __init__(self, total: int, done: int = 0, stream: IO[str] | None = None, enabled: bool | None = None,
                 every: float = 5.0, name: str = "meta") -> None:
        self.total = total
        self.name = name
        #: what the command adds after the games (suggest: the candidates left, the best gain)
        self.detail: str | None = None
        self.done = done
        self.start_done = done
        self.stream = stream or sys.stderr
        tty = self.stream.isatty()
        #: "bar" on a terminal, "lines" elsewhere, "off"; enabled=True forces the bar, False silences
        self.mode = "off" if enabled is False else "bar" if enabled or tty else "lines"
        self.every = every
        self.started = time.monotonic()
        self._shown = -math.inf
        self._last = ""
        self._drawn = 0  # characters of the bar on screen
        self.status: str | None = None
        self._status_since = self.started

    @property
    def enabled(self) -> bool:
        """A bar is on screen (a message after it starts on a new line)."""
        return self.mode == "bar"

    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0

    def _eta(self) -> str:
        rate = self.rate()
        left = (self.total - self.done) / rate if rate > 0 else None
        return "--:--:--" if left is None else time.strftime("%H:%M:%S", time.gmtime(left)) if left < 86400 else f"{left / 86400:.1f} days"

    def _pace(self, sep: str) -> str:
        if self.done == self.start_done:
            if self.done >= self.total:
                return "every game read back from the results file"
            # until a task ends there is no rate: the time so far (since the workers came, on a
            # cluster that had none) shows the run is alive
            return f"the first tasks are under way (for {self._lasted(self._status_since)})"
        return f"{self.rate():,.0f} games/s{sep}{self._eta()} left"

    def _status(self) -> str | None:
        """The runner's status with how long it has lasted (a log shows the wait is still on)."""
        if not self.status:
            return None
        return f"{self.status} (for {self._lasted(self._status_since)})"

    @staticmethod
    def _lasted(since: float) -> str:
        return time.strftime("%H:%M:%S", time.gmtime(time.monotonic() - since))

    def render(self, width: int = 30) -> str:
        filled = width * self.done // self.total if self.total else width
        tail = self._status() or self._pace("  ")
        detail = f"  {self.detail}" if self.detail else ""
        return f"[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} games  {tail}{detail}"

    def line(self) -> str:
        """The plain line of a log: no bar, no carriage return."""
        share = self.done / self.total if self.total else 1.0
        tail = self._status() or self._pace(", ")
        detail = f", {self.detail}" if self.detail else ""
        return f"{self.name}: {self.done:,}/{self.total:,} games ({share:.0%}), {tail}{detail}"

    def _show(self, force: bool = False) -> None:
        now = time.monotonic()
        due = self.every if self.mode == "lines" else 0.1
        if self.mode == "off" or not (force or now - self._shown >= due):
            return
        text = self._redraw() if self.mode == "bar" else self.line() + "\n"
        if self.mode == "lines" and text == self._last:
            return  # a log gains nothing from the same line twice
        self._shown, self._last = now, text
        self.stream.write(text)
        self.stream.flush()

    def _redraw(self) -> str:
        """The bar over the one before it, within the terminal's width (a wrapped line could not
        be drawn over), blanking what a longer line (a status) left beyond it."""
        columns = shutil.get_terminal_size((80, 24)).columns - 1
        bar = self.render()
        if len(bar) > columns:
            bar = self.render(width=10)
        if len(bar) > columns:
            bar = bar[:columns - 1] + "…"
        blank = max(0, self._drawn - len(bar))
        self._drawn = len(bar)
        return "\r" + bar + " " * blank

    def advance(self, games: int) -> None:
        self.done += games
        self._show(force=self.done >= self.total and self.mode == "bar")

    def heartbeat(self, status: str | None = None) -> None:
        """The runner is waiting (no task finished): show a changed status at once, else as due."""
        changed = status != self.status
        if changed:
            self._status_since = time.monotonic()
        self.status = status
        self._show(force=changed)

    def finish(self) -> None:
        self.status = None
        if self.mode == "bar":
            self.stream.write(self._redraw() + "\n")
            self.stream.flush()
        elif self.mode == "lines":
            self._show(force=True)


@dataclass
class RunState:
    """What a run did, for the messages after it (also after an interruption)."""

    planned: int = 0  # games of the whole matrix
    resumed: int = 0  # games read back from the results file
    played: int = 0  # games played by this run
    tasks: int = 0
    task_games: int = 0
    torn_lines: int = 0
    #: where the unreadable lines of the results file were moved (said once, then gone)
    set_aside: Path | None = None
    refused: list[str] = field(default_factory=list)  # why each record not believed was not


def _houses(setup: MetaSetup) -> list[dict[str, Any]]:
    """The house catalogues the lists use (core/house.py), as data: a worker, maybe on
    another machine, plays with what this process read, validated again there."""
    armies = [x.army for x in [*setup.rows, *setup.cols]]
    if not any(getattr(a, "house", None) for a in armies):
        return []
    from armybuilder.core.house_use import portable_houses, shared_catalogue
    from armybuilder.core.registry import get_system

    return portable_houses(shared_catalogue(get_system(setup.system_id), setup.catalogue, armies))


def _table_spec(setup: MetaSetup, table: str | None) -> dict[str, Any] | None:
    """The layout the games are played on, read once here (a bad file fails before any game)."""
    from armybuilder.core.registry import get_system

    system = get_system(setup.system_id)
    return system.table_spec(system.catalogue(setup.catalogue), table)


def _digest(spec: dict[str, Any]) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


def run_meta(
    setup: MetaSetup,
    games: int,
    seed: int,
    runner: Any,
    results: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | ProgressLine | None = None,
    cancelled: Callable[[], bool] | None = None,
    task_games: int | None = None,
    state: RunState | None = None,
    table: str | None = None,
) -> MetaMatrix:
    """Play what the matrix still misses and return the matrix.

    *runner* is a :class:`~.runners.LocalRunner` or :class:`~.runners.DaskRunner`.
    Without *resume* an existing results file is an error (it would be lost or mixed).
    *table*: a table layout's name or file (systems with layouts; None: the default table);
    the games of a run on another table are never resumed into this one.
    """
    if games < 1:
        raise InputError.at("--games must be at least 1")
    if seed < 0:
        raise InputError.at("--seed must be zero or more")
    state = state if state is not None else RunState()
    engine = engine_hash(setup.system_id)
    spec = _table_spec(setup, table)
    # The results of a run carry its engine and, on a named table, the layout's digest: a
    # resume on another table plays its games again rather than mix two tables' results.
    run_id = engine if spec is None or table is None else f"{engine} table {_digest(spec)}"
    keys = setup.keys()
    records: list[dict[str, Any]] = []
    if results is not None and os.path.lexists(results) and not results.is_file():
        raise InputError.at("the results file is not a regular file (a pipe or a device): move it away or choose another -o", results)
    if results is not None and results.exists() and results.stat().st_size > 0:
        if not resume:
            raise InputError.at("a results file of an earlier run is here: add --resume to continue it, or move it away to start again", results)
        records, state.torn_lines = read_records(results)
        if state.torn_lines:
            state.set_aside = set_aside_unreadable(results)
        records, state.refused = checked_records(records)  # types, ranges, totals: else replayed
    done = usable(records, seed, run_id, games, set(keys))
    units = UnitFold()
    for r in records:
        if r.get("engine") == run_id:
            units.learn(r)  # names from any record of this engine, kept or not
    records = []  # only the kept ones stay, without their units
    for rs in done.values():
        for r in rs:
            units.take(r)
    todo = split_at_checkpoints(missing(keys, games, done))
    state.planned = games * len(keys)
    state.resumed = sum(r["stop"] - r["start"] for rs in done.values() for r in rs)
    remaining = sum(stop - start for _, _, start, stop in todo)
    state.task_games = task_games or task_size(remaining, getattr(runner, "workers", 1) or 1)
    tasks = pack(todo, state.task_games)
    state.tasks = len(tasks)
    context = {
        "system": setup.system_id,
        "catalogue": setup.catalogue,
        "seed": seed,
        "engine": engine,
        "run": run_id,
        "table": spec,
        "lists": {x.fingerprint: x.content() for x in [*setup.rows, *setup.cols]},
        # lists whose unit names no kept record holds: named by the first pairing still to start
        "namers": {fp: pair for fp, pair in namers([(a, b) for a, b, start, _ in todo if start == 0]).items()
                   if not units.named_list(fp)},
        "houses": _houses(setup),
    }
    if isinstance(progress, ProgressLine):
        progress.total, progress.done, progress.start_done = state.planned, state.resumed, state.resumed
        progress.advance(0)  # the bar from the start, not after the first task
    elif progress:
        progress(state.resumed, state.planned)
    with ResultsFile(results) if results is not None else contextlib.nullcontext() as store:

        def on_result(new: list[dict[str, Any]]) -> None:
            if store is not None:
                store.append(new)
            played = 0
            for r in new:
                units.take(r)
                done.setdefault((r["a"], r["b"]), []).append(r)
                played += r["stop"] - r["start"]
            state.played += played
            if isinstance(progress, ProgressLine):
                progress.advance(played)
            elif progress:
                progress(state.resumed + state.played, state.planned)

        heartbeat = progress.heartbeat if isinstance(progress, ProgressLine) else None
        runner.run(context, tasks, on_result, cancelled, heartbeat=heartbeat)
    if isinstance(progress, ProgressLine):
        progress.finish()
    for rs in done.values():
        rs.sort(key=lambda r: r["start"])
    return build_matrix(setup.system_id, setup.catalogue, seed, games, setup.rows, setup.cols, setup.square, setup.pairs, done,
                        setup.left_out, setup.score_unit, units)
