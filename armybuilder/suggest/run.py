"""A whole suggestion run: a list, a field, up to K steps of racing and confirmation.

Each step starts from the best list so far: its legal neighbours are raced on
the base list's games against the field (:mod:`.race`), the finalists confirmed
on fresh games, and the best confirmed gain becomes the next step's base list.
The run stops early when no edit's gain is shown to be above zero.

Records of played games go to an optional results file (JSON lines, as
``meta``'s) as they arrive; ``resume`` reads them back, and only the games they
lack are played again, so an interrupted run continues where it stopped and
ends with the same suggestions.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from armybuilder.core.errors import InputError
from armybuilder.core.findings import errors
from armybuilder.core.lists import ListFile, list_fingerprint
from armybuilder.meta.field import LeftOut, MetaList, check_same_game, read_lists
from armybuilder.meta.games import engine_hash

from .games import play_suggest_task
from .neighbours import Neighbour, neighbours
from .race import FINALISTS, Played, Standing, planned_games, race
from .stats import Paired

#: Lowest games a candidate plays against each (opponent, seat) block when confirmed.
MIN_PER_BLOCK = 2


class SuggestCancelled(Exception):
    """The run was asked to stop (the editor's screen closed, or its Stop pressed)."""


@dataclass
class Progress:
    """Where a run stands, for a progress bar: games done of the games planned so far.

    A step's games are known when it starts (:func:`.race.planned_games`); a later
    step's are not (its candidates are the neighbours of a list not yet found), so
    ``planned`` grows as steps begin.
    """

    step: int
    steps: int
    left: int  # candidates still racing
    planned: int  # games of the steps begun so far
    done: int  # games played or read back
    best: float | None  # the best racing gain of the last rung

    def words(self) -> str:
        where = f"step {self.step} of {self.steps}" if self.steps > 1 else "racing"
        gain = "" if self.best is None else f", best gain {self.best:+.1%}"
        return f"{where}: {self.left} candidate{'s' if self.left != 1 else ''} left{gain}"


@dataclass
class Suggestion:
    """A confirmed or merely raced edit of one step."""

    neighbour: Neighbour
    standing: Standing
    #: name → [points, games, survived, points eliminated] on the confirmation games
    units: dict[str, list[float]] = field(default_factory=dict)

    @property
    def figures(self) -> Paired:
        return self.standing.confirmed or self.standing.racing

    @property
    def confirmed(self) -> bool:
        return self.standing.confirmed is not None and self.standing.confirmed.significant


@dataclass
class Step:
    """One step: the base list it started from and what its race found."""

    base: Any  # the list (model)
    base_fingerprint: str
    base_units: dict[str, list[float]]
    candidates: int
    suggestions: list[Suggestion]  # finalists, best confirmed gain first
    rungs: list[tuple[int, int]]
    games: int

    @property
    def best(self) -> Suggestion | None:
        kept = [s for s in self.suggestions if s.confirmed]
        return kept[0] if kept else None


@dataclass
class SuggestRun:
    system_id: str
    system_name: str
    catalogue: str
    seed: int
    per_block: int
    opponents: list[MetaList]
    left_out: list[LeftOut]
    steps: list[Step]
    unit: str
    played: int = 0
    resumed: int = 0

    @property
    def blocks(self) -> int:
        return 2 * len(self.opponents)

    @property
    def games(self) -> int:
        """Games behind each confirmed figure (and each finalist's racing figure)."""
        return self.per_block * self.blocks


class ResultsStore:
    """The run's records, appended as they arrive (flushed, synced), read back by ``resume``."""

    def __init__(self, path: Path | None, resume: bool) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        self._file: IO[str] | None = None
        if path is None:
            return
        if path.exists() and path.stat().st_size > 0:
            if not resume:
                raise InputError.at("a results file of an earlier run is here: add --resume to continue it, or move it away", path)
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    record = json.loads(line)
                    if isinstance(record, dict) and all(k in record for k in ("key", "opponent", "seat", "start", "stop", "outcomes", "base")):
                        self.records.append(record)
                except ValueError:
                    continue  # a torn last line: its games are played again

    def append(self, records: list[dict[str, Any]]) -> None:
        if self.path is None:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        for r in records:
            self._file.write(json.dumps(r, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _opponents(base: ListFile, field_paths: Sequence[Path]) -> tuple[list[MetaList], list[LeftOut]]:
    cols, left = read_lists(field_paths)
    if base.path is not None:
        cols = [c for c in cols if not _same(Path(c.path), base.path)]
    distinct = list({c.fingerprint: c for c in cols}.values())
    if not distinct:
        raise InputError.at("no usable list in the field (--vs): a suggestion needs opponents")
    return distinct, left


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def run_suggest(
    base_file: ListFile,
    field_paths: Sequence[Path],
    games: int,
    seed: int,
    runner: Any,
    steps: int = 1,
    results: Path | None = None,
    resume: bool = False,
    progress: Callable[[Progress], None] | None = None,
    finalists: int = FINALISTS,
    cancelled: Callable[[], bool] | None = None,
    heartbeat: Callable[[str | None], None] | None = None,
) -> SuggestRun:
    """Explore, race and confirm up to *steps* edits of *base_file*'s list against the field.

    *games*: games of each list against the whole field (both seats of every
    opponent), rounded up to a whole number per block; the finalists play as many
    again for the confirmation.  *progress* is told where the run stands as games
    arrive and rungs finish; *cancelled* is asked between tasks and stops the run
    (:class:`SuggestCancelled`, the games played kept in *results*); *heartbeat* hears a
    runner's status while it waits (a cluster without workers).
    """
    if games < 1:
        raise InputError.at("--games must be at least 1")
    if steps < 1:
        raise InputError.at("--steps must be at least 1")
    if seed < 0:
        raise InputError.at("--seed must be zero or more")
    system = base_file.system
    army = base_file.army
    cat = system.catalogue_for(army)
    problems = [f.message for f in errors(system.findings(army, cat))]
    label = str(base_file.path or "the list")
    if problems:
        raise InputError.at("the list is not legal (" + "; ".join(problems[:3]) + "); suggest explores legal lists: fix it first", label)
    opponents, left_out = _opponents(base_file, field_paths)
    me = MetaList(label, army.name, list_fingerprint(army, cat), system, army, army.catalogue)
    check_same_game([me, *opponents])
    blocks = [(o.fingerprint, seat) for o in opponents for seat in (0, 1)]
    per_block = max(MIN_PER_BLOCK, math.ceil(games / len(blocks)))
    engine = engine_hash(system.id)
    fmt = system.format_of(army, cat)
    out = SuggestRun(system.id, system.name, army.catalogue, seed, per_block, opponents, left_out, [],
                     getattr(fmt, "unit", None) or "points")
    store = ResultsStore(results, resume)
    shown = Progress(1, steps, 0, 0, 0, None)
    workers = getattr(runner, "workers", 1) or 1
    try:
        current = army
        for step_no in range(steps):
            base_fp = list_fingerprint(current, cat)
            found = neighbours(system, current, cat)
            by_key = {n.key: n for n in found}
            played = Played()
            block_of = {b: i for i, b in enumerate(blocks)}
            for r in store.records:
                if r.get("seed") == seed and r.get("engine") == engine and r.get("base") == base_fp:
                    where = block_of.get((r["opponent"], r["seat"]))
                    if where is not None and (r["key"] == base_fp or r["key"] in by_key):
                        played.take([{**r, "block": where}])
            out.resumed += played.games
            context = {
                "system": system.id, "catalogue": army.catalogue, "seed": seed, "engine": engine, "base": base_fp,
                "blocks": blocks, "houses": _houses(system, [current, *[o.army for o in opponents]], army.catalogue),
                "lists": {base_fp: current.model_dump(mode="json"), **{o.fingerprint: o.content() for o in opponents},
                          **{n.key: n.army.model_dump(mode="json") for n in found}},
            }

            def on_result(records: list[dict[str, Any]], _context: dict[str, Any] = context, _played: Played = played) -> None:
                for r in records:
                    r["opponent"], r["seat"] = _context["blocks"][r["block"]]
                store.append(records)
                _played.take(records)
                games = sum(r["stop"] - r["start"] for r in records)
                out.played += games
                shown.done += games
                if progress:
                    progress(shown)

            def play(tasks: list[Any], _: dict[str, Any], _context: dict[str, Any] = context) -> None:
                runner.run(_context, tasks, on_result, cancelled, heartbeat=heartbeat, play=play_suggest_task)
                if cancelled is not None and cancelled():
                    raise SuggestCancelled("cancelled: a part of the games suggests nothing")

            def on_rung(left: int, _games: int, best: float | None) -> None:
                shown.left, shown.best = left, best
                if progress:
                    progress(shown)

            shown.step, shown.left, shown.best = step_no + 1, len(found), None
            shown.planned += planned_games(len(found), len(blocks), per_block, finalists)
            shown.done += played.games
            if progress:
                progress(shown)
            result = race(base_fp, [n.key for n in found], len(blocks), per_block, play, played, finalists, workers, on_rung)
            confirm = (per_block, 2 * per_block)
            suggestions = [
                Suggestion(by_key[s.key], s, played.unit_figures(s.key, len(blocks), *confirm))
                for s in result.standings if s.confirmed is not None
            ]
            step = Step(current, base_fp, played.unit_figures(base_fp, len(blocks), *confirm), len(found), suggestions,
                        result.rungs, result.games)
            out.steps.append(step)
            if step.best is None:
                break
            current = step.best.neighbour.army
    finally:
        store.close()
    return out


def _houses(system: Any, armies: list[Any], version: str) -> list[dict[str, Any]]:
    """The house catalogues the lists use, as data for the workers (as meta sends them)."""
    if not any(getattr(a, "house", None) for a in armies):
        return []
    from armybuilder.core.house_use import portable_houses, shared_catalogue

    return portable_houses(shared_catalogue(system, version, armies))
