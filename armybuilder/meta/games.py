"""One task of a meta run: a few pieces of pairings, played wherever the task lands.

The numbers must not depend on what runs them (one process, eight, a cluster)
nor on the order tasks finish in.  So each pairing (A, B) has its own seed, a
digest of the run's seed and both lists' fingerprints (its identity, not its
place in a task), and game *i* of the pairing is game *i* of a playtest with
that seed (:func:`armybuilder.core.playtest.game_rngs`): ``armybuilder playtest
A --vs B --seed PAIRING_SEED --games 1 --log`` narrates the pairing's first game.

Everything a task needs travels in a plain dict (the *context*: system id,
catalogue version, the lists' contents by fingerprint, the house catalogues' data they
use), so it pickles the same
way to a local process or a Dask worker.  A worker keeps the catalogue and the
validated lists between tasks (``_CACHE``), and the engine keeps its per-list
memos warm.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from armybuilder.core.engine import lists_held

#: A piece of a pairing: (first fingerprint, second fingerprint, first game, stop).
Segment = tuple[str, str, int, int]

_CACHE: dict[Any, Any] = {}


class EngineMismatch(RuntimeError):
    """A worker's engine code differs from the run's: its games would not be the same games."""


#: Pairing seeds stay below 2**53: exact in any JSON reader (a browser's numbers are
#: doubles) and well inside ``playtest --seed``'s range.
PAIRING_SEED_BITS = 53


def pairing_seed(seed: int, first: str, second: str) -> int:
    """The playtest seed of the pairing (first, second) under the run's *seed*.

    A digest of the three, so it is the pairing's identity (the other seat order,
    another run seed: another seed).  53 bits make two pairings of a 500-list field
    share a seed with a chance of about one in 300,000.
    """
    if seed < 0:
        raise ValueError("the seed must be zero or more")
    digest = hashlib.sha256(f"meta|{seed}|{first}|{second}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> (64 - PAIRING_SEED_BITS)


def pairing_rngs(seed: int, first: str, second: str, start: int, stop: int) -> list[np.random.Generator]:
    """Generators of games start..stop-1 of a pairing: the playtest's games at :func:`pairing_seed`."""
    from armybuilder.core.playtest import game_rngs

    return game_rngs(pairing_seed(seed, first, second), start, stop)


def replay_command(first_path: str, second_path: str, seed: int, options: Sequence[str] = ()) -> list[str]:
    """The command that narrates a pairing's first game: the same game, roll for roll.

    *options* are the run's options that decide a game besides the lists and the seed
    (those ``meta`` and ``playtest`` share), passed on as they were given."""
    return ["armybuilder", "playtest", first_path, "--vs", second_path, "--seed", str(seed), *options, "--games", "1", "--log"]


def engine_hash(system_id: str) -> str:
    """A digest of the code and library that decide a game's outcome.

    Stored with every result, so ``--resume`` never mixes games of an older
    engine into a new matrix, and compared with each Dask worker's, so a worker
    running other code cannot slip different numbers in.
    """
    key = ("engine", system_id)
    if key in _CACHE:
        return _CACHE[key]
    from armybuilder.core.registry import KNOWN_SYSTEMS

    root = Path(__file__).resolve().parents[1]
    package = root.joinpath(*KNOWN_SYSTEMS[system_id].split(".")[1:])
    digest = hashlib.sha256(np.__version__.encode())
    # this module too: it derives the seeds and writes the records
    for file in [*sorted((root / "core").rglob("*.py")), *sorted(package.rglob("*.py")), Path(__file__).resolve()]:
        digest.update(str(file.relative_to(root)).encode())
        digest.update(file.read_bytes())
    _CACHE[key] = digest.hexdigest()[:16]
    return _CACHE[key]


def system_and_catalogue(context: dict[str, Any]):
    """(system, catalogue) of the context, loaded once per process."""
    from armybuilder.core.registry import get_system

    houses = context.get("houses") or []
    key = ("game", context["system"], context["catalogue"], tuple((h["id"], h["version"], h["hash"]) for h in houses))
    if key not in _CACHE:
        system = get_system(context["system"])
        if houses:  # house catalogues the lists use, sent as data (validated here)
            from armybuilder.core.house_use import from_portable

            _CACHE[key] = (system, from_portable(system, context["catalogue"], houses))
        else:
            _CACHE[key] = (system, system.catalogue(context["catalogue"]))
    return _CACHE[key]


def _army(context: dict[str, Any], fingerprint: str):
    key = ("list", context["system"], fingerprint)
    if key not in _CACHE:
        system, _ = system_and_catalogue(context)
        _CACHE[key] = system.list_model.model_validate(context["lists"][fingerprint])
    return _CACHE[key]


def unit_key(table: list[list[Any]]) -> str:
    """A short digest of a side's units ([name, points] sorted by name): what the numbers line up with."""
    return hashlib.sha256(repr([(str(n), float(p)) for n, p in table]).encode()).hexdigest()[:10]


class SegmentTally:
    """One segment's games folded as they are played: what its record carries."""

    __slots__ = ("wins", "draws", "losses", "rounds", "margin", "units")

    def __init__(self) -> None:
        self.wins = self.draws = self.losses = self.rounds = 0
        self.margin = 0.0
        #: per side, unit name → [points, games, survived, points eliminated]
        self.units: tuple[dict[str, list[float]], dict[str, list[float]]] = ({}, {})

    def add(self, record: Any) -> None:
        if record.winner == 0:
            self.wins += 1
        elif record.winner == 1:
            self.losses += 1
        else:
            self.draws += 1
        self.rounds += record.rounds
        self.margin += float(record.scores[0] - record.scores[1])
        for u in record.units:
            side = self.units[u.side]
            figures = side.get(u.name)
            if figures is None:
                figures = side[u.name] = [u.points, 0, 0, 0.0]
            figures[1] += 1
            figures[2] += int(u.survived)
            figures[3] += u.eliminated_points

    def record(self, games: int, names: tuple[bool, bool] = (False, False)) -> dict[str, Any]:
        """The record's figures.  Per side the units go as numbers only ([survived, eliminated]
        in the order of their names), with the digest of their names and points (``unit_keys``):
        the names themselves travel once per list in the whole run (``unit_names``, for the
        sides *names* asks for, else null), which keeps a 500-list field's results file small.
        A side whose units did not all play every game (no engine does that) carries its names
        in full."""
        tables: list[list[list[Any]]] = []
        keys: list[str | None] = []
        numbers: list[list[list[Any]]] = []
        for side in self.units:
            order = sorted(side)
            table: list[list[Any]] = [[name, side[name][0]] for name in order]
            tables.append(table)
            if all(side[name][1] == games for name in order):
                keys.append(unit_key(table))
                numbers.append([[side[name][2], side[name][3]] for name in order])
            else:
                keys.append(None)
                numbers.append([[name, *side[name]] for name in order])
        out: dict[str, Any] = {
            "wins": self.wins, "draws": self.draws, "losses": self.losses, "rounds": self.rounds,
            "margin": self.margin, "units": numbers, "unit_keys": keys,
        }
        if any(names):
            out["unit_names"] = [table if wanted else None for table, wanted in zip(tables, names, strict=True)]
        return out


def namers(keys: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """Per list fingerprint, the first pairing that holds it: its record from game 0 names its units."""
    out: dict[str, list[str]] = {}
    for a, b in keys:
        out.setdefault(a, [a, b])
        out.setdefault(b, [a, b])
    return out


def play_task(context: dict[str, Any], segments: list[Segment]) -> list[dict[str, Any]]:
    """Play every game of *segments*; one result record per segment.

    A record: both fingerprints, the run's seed, the engine hash, the game range,
    the wins, draws and losses of the first list, the rounds and the score margin
    (first list's score minus the second's) summed over the games, and per side
    each unit's games survived and points eliminated (see :meth:`SegmentTally.record`).
    """
    engine = context["engine"]
    here = engine_hash(context["system"])
    if here != engine:
        raise EngineMismatch(
            f"this process runs other armybuilder code (engine {here}) than the run (engine {engine}): "
            "install the same armybuilder version on every worker"
        )
    system, cat = system_and_catalogue(context)
    seed = context["seed"]
    table = context.get("table")
    options = {"table": table} if table is not None else {}  # only a system with tables is handed one
    namers: dict[str, list[str]] = context.get("namers", {})
    out = []
    for first, second, start, stop in segments:
        a, b = _army(context, first), _army(context, second)
        tally = SegmentTally()
        with lists_held(a, b):
            for rng in pairing_rngs(seed, first, second, start, stop):
                tally.add(system.play_game(cat, a, b, rng, **options))
        # each list's unit names go with the first segment of the pairing that names it (see namers)
        names = (start == 0 and namers.get(first) == [first, second], start == 0 and namers.get(second) == [first, second])
        out.append({"a": first, "b": second, "seed": seed, "engine": context.get("run", engine), "start": start, "stop": stop,
                    **tally.record(stop - start, names)})
    return out
