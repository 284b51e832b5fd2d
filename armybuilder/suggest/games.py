"""The games of a suggestion run: every candidate plays the base list's games.

Common random numbers.  The base list's games against an opponent are the meta
matrix's pairing games (:func:`armybuilder.meta.games.pairing_seed` of the run's
seed and both lists' fingerprints, one seed for each seat), and every candidate
plays game *i* of a block with that same generator, against the same opponent, in
the same seat.  The difference between a candidate's result and the base list's
then measures the edit, not the luck of the dice, and a block's game *i* replays
with ``armybuilder playtest BASE --vs OPPONENT --seed SEED`` (or the candidate's
list in BASE's place).

A task is a list of segments ``(candidate key, block, start, stop)``; a block is
an (opponent, seat) pair of the context.  The context travels like meta's (a
plain dict, pickled to a local process or a Dask worker), so the same runners
play it and the results do not depend on which worker played what.
"""

from __future__ import annotations

from typing import Any

from armybuilder.core.engine import lists_held
from armybuilder.meta.games import EngineMismatch, engine_hash, pairing_rngs, system_and_catalogue

#: (candidate key, block index, first game, stop)
Segment = tuple[str, int, int, int]

_LISTS: dict[tuple[str, str], Any] = {}


def _army(context: dict[str, Any], key: str) -> Any:
    """The validated list of *key*, once per process (the engine's memos stay warm)."""
    cache_key = (context["system"], key)
    if cache_key not in _LISTS:
        if len(_LISTS) > 512:  # a long run meets thousands of candidates: keep the recent ones
            _LISTS.clear()
        system, _ = system_and_catalogue(context)
        _LISTS[cache_key] = system.list_model.model_validate(context["lists"][key])
    return _LISTS[cache_key]


def block_seed_pair(base: str, opponent: str, seat: int) -> tuple[str, str]:
    """The meta pairing (first, second) whose seed a block's games use: the base list in *seat*."""
    return (base, opponent) if seat == 0 else (opponent, base)


def play_suggest_task(context: dict[str, Any], segments: list[Segment]) -> list[dict[str, Any]]:
    """Play every segment; one record per segment, from the candidate's side.

    A record holds the segment, the run's seed and engine, ``outcomes`` (one
    character a game: ``W`` a win, ``D`` a draw, ``L`` a loss of the candidate) and
    the candidate's units (name → [points, games, survived, points eliminated]).
    """
    engine = context["engine"]
    here = engine_hash(context["system"])
    if here != engine:
        raise EngineMismatch(
            f"this process runs other armybuilder code (engine {here}) than the run (engine {engine}): "
            "install the same armybuilder version on every worker"
        )
    system, cat = system_and_catalogue(context)
    seed, base = context["seed"], context["base"]
    out = []
    for key, block, start, stop in segments:
        opponent, seat = context["blocks"][block]
        me, them = _army(context, key), _army(context, opponent)
        first, second = block_seed_pair(base, opponent, seat)
        outcomes = []
        units: dict[str, list[float]] = {}
        with lists_held(me, them):
            for rng in pairing_rngs(seed, first, second, start, stop):
                record = system.play_game(cat, me, them, rng) if seat == 0 else system.play_game(cat, them, me, rng)
                if record.winner is None:
                    outcomes.append("D")
                else:
                    outcomes.append("W" if record.winner == seat else "L")
                for u in record.units:
                    if u.side != seat:
                        continue
                    figures = units.get(u.name)
                    if figures is None:
                        figures = units[u.name] = [u.points, 0, 0, 0.0]
                    figures[1] += 1
                    figures[2] += int(u.survived)
                    figures[3] += u.eliminated_points
        out.append({"key": key, "block": block, "start": start, "stop": stop, "seed": seed, "engine": engine,
                    "base": base, "outcomes": "".join(outcomes), "units": units})
    return out
