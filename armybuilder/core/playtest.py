"""Playtests: many simulated games between two lists, with honest statistics.

Reproducibility does not depend on the number of worker processes: game *i*
always draws its randomness from child *i* of ``SeedSequence(seed)``, and results
are aggregated in game order, so ``--workers 1`` and ``--workers 8`` agree exactly.

Memory does not grow with the number of games: each game's record is folded into a
:class:`Tally` (counts, sums, and the score margins as value → count) as soon as it
is played, workers send back one tally per chunk, and only a bounded window of
chunks is in flight.  A million games need what a thousand need.
"""

from __future__ import annotations

import copy
import math
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .engine import lists_held
from .registry import get_system
from .system import ArmyListBase, GameRecord, GameSystem

if TYPE_CHECKING:
    from .shapes import BattleMap

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval; well-behaved at 0 %, 100 % and small samples."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # Exact ends at 0 % and 100 % (the formula gives them up to rounding).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)



def per_game(total: float, games: int) -> float:
    """A total over the games it was summed on (0 with no game): a mean a game."""
    return total / games if games else 0.0


def win_score(wins: int, draws: int) -> float:
    """Wins plus half the draws: a draw counts half a win (a mirror match scores 0.5 a game)."""
    return wins + 0.5 * draws


def win_rate(wins: int, draws: int, games: int) -> float:
    """:func:`win_score` a game (0 with no game)."""
    return per_game(win_score(wins, draws), games)


def win_interval(wins: int, draws: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of :func:`win_rate`."""
    return wilson_interval(win_score(wins, draws), games)

@dataclass
class UnitStats:
    side: int
    name: str
    points: float
    games: int = 0
    survived: int = 0
    eliminated_points: float = 0.0

    @property
    def survival_rate(self) -> float:
        return per_game(self.survived, self.games)

    @property
    def mean_eliminated(self) -> float:
        return per_game(self.eliminated_points, self.games)


@dataclass
class ScenarioStats:
    """The games of one scenario within a playtest (a system that draws its scenario per game)."""

    games: int = 0
    wins: int = 0
    losses: int = 0

    @property
    def draws(self) -> int:
        return self.games - self.wins - self.losses

    @property
    def win_rate(self) -> float:
        return win_rate(self.wins, self.draws, self.games)

    @property
    def interval(self) -> tuple[float, float]:
        return win_interval(self.wins, self.draws, self.games)


@dataclass
class PlaytestSummary:
    games: int
    wins: int
    draws: int
    losses: int
    seed: int
    mean_rounds: float
    units: list[UnitStats]
    log: list[str] = field(default_factory=list)
    cancelled: bool = False
    #: the list's score minus the opponent's (A.P., points...) → number of games that
    #: ended with it; bounded by the scores' range, not by the number of games
    margins: Counter[float] = field(default_factory=Counter)
    #: both lists' points as the system counts them (None: the sum of the per-unit figures)
    points: tuple[float, float] | None = None
    #: the system's named figures of a game (GameRecord.figures), summed over the games
    figures: dict[str, float] = field(default_factory=dict)
    #: how many games had each figure above zero (e.g. the games with at least one fray)
    figure_games: Counter[str] = field(default_factory=Counter)
    #: the table layout played on (name, title, source), for systems with layouts
    table: dict[str, Any] | None = None
    #: the first game on its table, frame by frame, when a replay was asked
    map: BattleMap | None = None
    #: per scenario played (catalogue id, in the order first played), its games and results
    scenarios: dict[str, ScenarioStats] = field(default_factory=dict)
    #: per side, each option the engine reports (``GameRecord.used``) → games in which it was used
    used: tuple[dict[str, int], dict[str, int]] = field(default_factory=lambda: ({}, {}))

    @property
    def win_rate(self) -> float:
        """Wins plus half the draws, over games played (a mirror match scores 0.5)."""
        return win_rate(self.wins, self.draws, self.games)

    @property
    def interval(self) -> tuple[float, float]:
        return win_interval(self.wins, self.draws, self.games)

    def figures_json(self) -> dict[str, dict[str, float]]:
        """Each figure's mean per game and the share of games where it was above zero."""
        games = max(self.games, 1)
        return {
            name: {"mean": round(total / games, 4), "share_of_games": round(self.figure_games[name] / games, 6)}
            for name, total in sorted(self.figures.items())
        }

    def as_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 6),
            "win_rate_95": [round(low, 6), round(high, 6)],
            "mean_rounds": round(self.mean_rounds, 4),
            "seed": self.seed,
            **({"table": self.table} if self.table is not None else {}),
            **({"figures": self.figures_json()} if self.figures else {}),
            # Both lists' points: the sum of their per-unit figures (Characters are listed apart).
            "points": {
                "list": self.points[0] if self.points else sum(u.points for u in self.units if u.side == 0),
                "opponent": self.points[1] if self.points else sum(u.points for u in self.units if u.side == 1),
            },
            "scenarios": {
                name: {
                    "games": st.games,
                    "wins": st.wins,
                    "draws": st.draws,
                    "losses": st.losses,
                    "win_rate": round(st.win_rate, 6),
                    "win_rate_95": [round(st.interval[0], 6), round(st.interval[1], 6)],
                }
                for name, st in self.scenarios.items()
            },
            "options_used": {"list": dict(sorted(self.used[0].items())), "opponent": dict(sorted(self.used[1].items()))},
            "units": [
                {
                    "side": "list" if u.side == 0 else "opponent",
                    "name": u.name,
                    "points": u.points,
                    "survival_rate": round(u.survival_rate, 6),
                    "mean_points_eliminated": round(u.mean_eliminated, 4),
                }
                for u in self.units
            ],
        }


def game_rngs(seed: int, start: int, stop: int) -> list[np.random.Generator]:
    """Generators of games start..stop-1: game *i* uses child *i* of ``SeedSequence(seed)``.

    Child *i* is built directly (``spawn_key=(i,)`` is exactly what ``spawn()`` gives
    its *i*-th child), so a chunk costs O(stop - start), not O(stop): spawning all
    earlier children again made a long playtest quadratic.
    """
    return [
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,))))
        for i in range(start, stop)
    ]


class Tally:
    """Statistics of games folded in one at a time (no per-game record is kept)."""

    __slots__ = ("games", "wins", "losses", "rounds", "units", "margins", "figures", "figure_games", "scenarios", "used")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.losses = 0
        self.rounds = 0
        self.units: dict[tuple[int, str], UnitStats] = {}
        self.margins: Counter[float] = Counter()
        self.figures: dict[str, float] = {}
        self.figure_games: Counter[str] = Counter()
        self.scenarios: dict[str, ScenarioStats] = {}
        self.used: tuple[Counter[str], Counter[str]] = (Counter(), Counter())

    def add(self, record: GameRecord) -> None:
        self.games += 1
        if record.winner == 0:
            self.wins += 1
        elif record.winner == 1:
            self.losses += 1
        self.rounds += record.rounds
        units = self.units
        for u in record.units:
            stats = units.get((u.side, u.name))
            if stats is None:
                stats = units[(u.side, u.name)] = UnitStats(u.side, u.name, u.points)
            stats.games += 1
            stats.survived += int(u.survived)
            stats.eliminated_points += u.eliminated_points
        self.margins[float(record.scores[0] - record.scores[1])] += 1
        figures = self.figures
        for name, value in record.figures.items():
            figures[name] = figures.get(name, 0.0) + value
            if value > 0:
                self.figure_games[name] += 1
        if record.scenario is not None:
            played = self.scenarios.get(record.scenario)
            if played is None:
                played = self.scenarios[record.scenario] = ScenarioStats()
            played.games += 1
            played.wins += record.winner == 0
            played.losses += record.winner == 1
        for side in (0, 1):
            if record.used[side]:
                self.used[side].update(record.used[side].keys())

    def merge(self, other: Tally) -> None:
        """Add the games of ``other`` (a later chunk: units first seen there come last)."""
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.rounds += other.rounds
        for key, theirs in other.units.items():
            mine = self.units.get(key)
            if mine is None:
                self.units[key] = copy.copy(theirs)
            else:
                mine.games += theirs.games
                mine.survived += theirs.survived
                mine.eliminated_points += theirs.eliminated_points
        self.margins.update(other.margins)
        for name, value in other.figures.items():
            self.figures[name] = self.figures.get(name, 0.0) + value
        self.figure_games.update(other.figure_games)
        for name, theirs_played in other.scenarios.items():
            played = self.scenarios.setdefault(name, ScenarioStats())
            played.games += theirs_played.games
            played.wins += theirs_played.wins
            played.losses += theirs_played.losses
        for side in (0, 1):
            self.used[side].update(other.used[side])

    def summary(self, seed: int) -> PlaytestSummary:
        draws = self.games - self.wins - self.losses
        mean_rounds = per_game(self.rounds, self.games)
        return PlaytestSummary(
            self.games, self.wins, draws, self.losses, seed, mean_rounds, list(self.units.values()),
            margins=Counter(self.margins), figures=dict(self.figures), figure_games=Counter(self.figure_games),
            scenarios={name: ScenarioStats(st.games, st.wins, st.losses) for name, st in self.scenarios.items()},
            used=(dict(self.used[0]), dict(self.used[1])),
        )


def unknown_entries(army: ArmyListBase) -> list[str]:
    """What ``army`` names that its catalogue does not hold (a profile, a tactic, a group
    type...), each as the start of its finding's sentence: a game cannot play what it does
    not know, and a playtest must say so rather than play the list without it."""
    import re

    system = get_system(army.system)
    cat = system.catalogue_for(army)
    return [
        re.split(r";| \(known:", f.message)[0]
        for f in system.findings(army, cat)
        if f.rule.endswith(".catalogue.missing-entry")
    ]


# One worker process's game: system, catalogue and the two validated lists, set once by
# _init_worker (the pool's initializer) so that a task carries only (seed, start, stop)
# and the engine's per-list caches stay warm across the worker's chunks.
_WORKER: dict[str, Any] = {}


def _init_worker(
    system_id: str,
    version: str,
    first: dict[str, Any],
    second: dict[str, Any],
    options: dict[str, Any],
    houses: list[dict[str, Any]] | None,
    parent: int,
) -> None:
    from .lifetime import end_with_parent

    end_with_parent(parent)  # a killed playtest does not leave its workers playing
    system = get_system(system_id)
    _WORKER["system"] = system
    if houses:  # the house catalogues the lists use, as the parent resolved them
        from .house_use import from_portable

        _WORKER["cat"] = from_portable(system, version, houses)
    else:
        _WORKER["cat"] = system.catalogue(version)
    _WORKER["first"] = system.list_model.model_validate(first)
    _WORKER["second"] = system.list_model.model_validate(second)
    _WORKER["options"] = options


def _play_range(seed: int, start: int, stop: int) -> Tally:
    system, cat, a, b = _WORKER["system"], _WORKER["cat"], _WORKER["first"], _WORKER["second"]
    options = _WORKER["options"]
    tally = Tally()
    with lists_held(a, b):
        for rng in game_rngs(seed, start, stop):
            tally.add(system.play_game(cat, a, b, rng, **options))
    return tally


def game_options(scenario: str | None = None, policies: tuple[str, str] | None = None) -> dict[str, Any]:
    """The keyword arguments of ``play_game`` that fix a game's setup, only those given (an engine
    without scenarios or policies is never handed one)."""
    options: dict[str, Any] = {}
    if scenario is not None:
        options["scenario"] = scenario
    if policies is not None:
        options["policies"] = policies
    return options


def run_playtest(
    first: ArmyListBase,
    second: ArmyListBase,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    log: bool = False,
    scenario: str | None = None,
    policies: tuple[str, str] | None = None,
    table: str | None = None,
    replay: bool = False,
) -> PlaytestSummary:
    """Play ``games`` games of ``first`` against ``second`` (game *i* from child *i* of
    ``SeedSequence(seed)``); ``scenario`` fixes the scenario of every game (a system with
    scenarios draws one per game otherwise), ``policies`` names the players of both sides.
    ``table``: a table layout's name or file for systems with layouts (None: the default, for a
    system with layouts its standard table placed afresh for each game); ``replay``: keep the
    first game's frames (``summary.map``). Raises InputError for a layout the system does not
    know or a bad file."""
    system = get_system(first.system)
    options = game_options(scenario, policies)
    houses: list[dict[str, Any]] = []
    if getattr(first, "house", None) or getattr(second, "house", None):
        from .house_use import portable_houses, shared_catalogue

        cat = shared_catalogue(system, first.catalogue, [first, second])  # both lists' house data
        houses = portable_houses(cat)
    else:
        cat = system.catalogue_for(first)
    spec = system.table_spec(cat, table)  # read once, before any game (a bad file fails here)
    if spec is not None:
        options["table"] = spec
    workers = max(1, min(workers, os.cpu_count() or 1, games or 1))
    # In-process: small chunks, so progress and cancellation respond quickly.
    chunk = 25 if workers == 1 else max(1, min(500, math.ceil(games / (workers * 4))))
    bounds = ((s, min(games, s + chunk)) for s in range(0, games, chunk))
    tally = Tally()
    stopped = False
    if workers == 1:
        with lists_held(first, second):
            for start, stop in bounds:
                if cancelled and cancelled():
                    stopped = True
                    break
                for rng in game_rngs(seed, start, stop):
                    tally.add(system.play_game(cat, first, second, rng, **options))
                if progress:
                    progress(tally.games, games)
    else:
        a, b = first.model_dump(mode="json"), second.model_dump(mode="json")
        # fork is cheap, but forking a process with other threads (the TUI runs this in
        # a thread worker) can deadlock: spawn there.
        import multiprocessing
        import threading

        method = "fork" if threading.current_thread() is threading.main_thread() and os.name == "posix" else "spawn"
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_init_worker,
            initargs=(system.id, cat.version, a, b, options, houses, os.getpid()),  # the lists travel once per worker, not per chunk
        ) as pool:
            # A bounded window of chunks in flight, merged in game order whatever
            # finishes first: memory stays flat however many games are asked for.
            window: deque[Future[Tally]] = deque()
            pending = iter(bounds)
            for start, stop in pending:
                window.append(pool.submit(_play_range, seed, start, stop))
                if len(window) >= workers * 4:
                    break
            while window:
                if cancelled and cancelled():
                    stopped = True
                    for f in window:
                        f.cancel()
                    break
                tally.merge(window.popleft().result())
                nxt = next(pending, None)
                if nxt is not None:
                    window.append(pool.submit(_play_range, seed, *nxt))
                if progress:
                    progress(tally.games, games)
    summary = tally.summary(seed)
    summary.cancelled = stopped
    summary.points = (float(system.points(first, cat).total), float(system.points(second, cat).total))
    if spec is not None:
        summary.table = {key: spec[key] for key in ("name", "title", "source") if key in spec}
        summary.table["scattered"] = bool(spec.get("scatter"))
    if (log or replay) and games:
        rng = game_rngs(seed, 0, 1)[0]  # the first game again, narrated and recorded
        extra = {"replay": True} if replay else {}
        first_game = system.play_game(cat, first, second, rng, log, **options, **extra)
        summary.log = first_game.log if log else []
        summary.map = first_game.map
    return summary


def summarise(records: Iterable[GameRecord], seed: int) -> PlaytestSummary:
    """The statistics of finished games (any iterable: records are not kept)."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally.summary(seed)


def histogram(values: Iterable[float] | Mapping[float, int], bins: int = 10) -> list[tuple[float, float, int]]:
    """Equal-width bins over the values' range: [(low, high, count)], for charts.

    ``values`` is a sequence of values or, as in :attr:`PlaytestSummary.margins`, a
    mapping of each value to how many times it occurred.
    """
    counts_of: Mapping[float, int] = values if isinstance(values, Mapping) else Counter(values)
    present = [v for v, n in counts_of.items() if n > 0]
    if not present:
        return []
    low, high = min(present), max(present)
    total = sum(counts_of[v] for v in present)
    if high == low:
        return [(low, high, total)]
    width = (high - low) / bins
    counts = [0] * bins
    for v in present:
        # a span of a few subnormals divided into bins underflows to a width of 0
        index = int((v - low) / width) if width > 0 else int((v - low) / (high - low) * bins)
        counts[min(index, bins - 1)] += counts_of[v]
    return [(low + i * width, low + (i + 1) * width, c) for i, c in enumerate(counts)]


def sample_names(system: GameSystem[Any, Any]) -> list[str]:
    """Names of the bundled sample lists of a system (the sample opponents)."""
    return [name.removesuffix(".yaml") for name, _ in system.source.samples()]


def sample_titles(system: GameSystem[Any, Any]) -> list[tuple[str, str]]:
    """(name, title) of each bundled sample: the name of :func:`sample_names` (what
    ``--vs`` takes), the title a player reads: the list's own name and its faction
    ("The Grand Crane's host, The Limbos of Acheron"), never the file's id."""
    from .fastyaml import parse_text
    from .sanitize import visible

    out = []
    factions: dict[Any, str] | None = None
    for rel, item in system.source.samples():
        name = rel.removesuffix(".yaml")
        try:
            doc = parse_text(item.read_text(encoding="utf-8"), rel)
        except Exception:  # noqa: BLE001 - a broken sample still gets a title (load_sample says why)
            doc = {}
        title = doc.get("name") if isinstance(doc, dict) and isinstance(doc.get("name"), str) else ""
        faction = doc.get(system.faction_field) if isinstance(doc, dict) and system.faction_field else None
        if faction:
            if factions is None:
                factions = {c.value: c.label for c in system.factions(system.catalogue())}
            label = factions.get(faction, "")
            title = f"{title}, {label}" if title and label else (title or label)
        out.append((name, visible(title or name.replace("-", " ").capitalize())))
    return out


def load_sample(system: GameSystem[Any, Any], name: str) -> ArmyListBase:
    """A bundled sample list of *system*, parsed and validated (raises InputError if broken)."""
    from .lists import list_from_doc
    from .yamlio import decode_text, parse_text

    wanted = name if name.endswith(".yaml") else f"{name}.yaml"
    for rel, item in system.source.samples():
        if rel == wanted:
            label = f"sample:{name}"
            return list_from_doc(parse_text(decode_text(item.read_bytes(), label), label), label, None).army
    raise KeyError(f"{system.name} has no sample named {name!r}")
