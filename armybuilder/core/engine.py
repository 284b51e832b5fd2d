"""The shape every battle engine follows, after OpenSpiel's Python games: a state, the rules by
phase, chance steps as explicit distributions, one source of uniforms, and the players apart.

``docs/engines.md`` walks through it; in short, an engine package holds

- **the state**: one class with typed attributes (sides, board, round, the log), nothing else;
- **the rules by phase**: functions or classes (a chain of subclasses of the state, or mixins)
  that decide what is legal and what happens; they never choose what the seed leaves to a player;
- **chance steps**: a rule that needs luck asks a function for the step's outcomes as a
  :data:`Chance` (``[(probability, outcome)]``, probabilities summing to 1) and samples it with
  the game's :class:`~armybuilder.core.rng.Uniforms`; the same function serves an exact
  calculator, which enumerates the outcomes instead of sampling one (where the seed names die
  faces, as in a d20 check whose faces a rule may replace, the step is the die itself);
- **the players**: a :class:`Policy` per side (``state.policies[side]``) answers every choice the
  rules hand over, from what the state shows and nothing hidden; two policies can play each other,
  and an engine names its policies in ``POLICIES`` (name → factory), the first being the default;
- **randomness** only from the injected ``numpy.random.Generator``, through one
  :class:`~armybuilder.core.rng.Uniforms` per game, which policies use too (a policy that draws,
  say to break a bid's tie, draws from the game's uniforms, so a game replays from its seed);
- ``play_game(cat, first, second, rng, log=False, *, scenario=None, policies=None)`` returning a
  :class:`~armybuilder.core.shapes.GameRecord` (the scenario played and each side's count of
  every option it used, for the playtest's per-scenario figures and the option checks).

This module holds what every engine shares: the chance-step helpers and the policy protocol.
It imports no system, and no engine imports another.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import accumulate
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: a chance step: ``(probability, outcome)`` pairs whose probabilities sum to 1
Chance = Sequence[tuple[float, T]]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while one game is played (``with
    collector_paused(): ...``). A simulated game allocates tuples, lists and floats by the
    hundred thousand, and the collector, woken every few hundred allocations, would walk them
    and now and then the whole heap (the catalogues included) for cycles a game hardly makes:
    about a tenth of an engine's time. Reference counting still frees everything as usual; the
    few cycles a game leaves are collected once the collector runs again, after the game. Safe
    with games in several threads: the collector stays off until the first game that paused it
    ends, and is never left off."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()



#: the content keys of the lists a run is playing (see :func:`lists_held`), by ``id`` of the list
_LIST_KEYS: ContextVar[dict[int, tuple[Any, str]] | None] = ContextVar("armybuilder_list_keys", default=None)


@contextmanager
def lists_held(*armies: Any) -> Iterator[None]:
    """``with lists_held(first, second): ...``: a run that plays many games of the same lists
    (a playtest, a meta segment) promises not to change them meanwhile, so each list's content
    key (:func:`list_key`) is worked out once for the run rather than once per game. Per thread
    and task (a context variable): a run in another thread keeps its own keys."""
    token = _LIST_KEYS.set({id(army): (army, army.model_dump_json()) for army in armies})
    try:
        yield
    finally:
        _LIST_KEYS.reset(token)


def list_key(army: Any) -> str:
    """A list's content as JSON: the key under which an engine keeps what it builds from the
    list (its sides, its fighters) across games; an edited list is a new key. Inside
    :func:`lists_held` the key of a held list is the one worked out when the run began."""
    keys = _LIST_KEYS.get()
    if keys is not None:
        found = keys.get(id(army))
        if found is not None and found[0] is army:
            key: str = found[1]
            return key
    dumped: str = army.model_dump_json()
    return dumped

def sample(outcomes: Chance[T], u: float) -> T:
    """The outcome of ``outcomes`` at the uniform ``u`` in [0, 1) (inverse CDF: the pairs in their
    order; the last outcome absorbs rounding)."""
    total = 0.0
    for p, outcome in outcomes:
        total += p
        if u < total:
            return outcome
    return outcomes[-1][1]


def cdf_of(outcomes: Chance[T]) -> tuple[float, ...]:
    """The cumulative probabilities of ``outcomes`` in their order (for a sampler that reads a
    CDF with ``bisect``, :meth:`armybuilder.core.rng.Uniforms.from_cdf`)."""
    return tuple(accumulate(p for p, _ in outcomes))


def expectation(outcomes: Chance[T], value: Callable[[T], float]) -> float:
    """The expected ``value`` of a chance step."""
    return math.fsum(p * value(o) for p, o in outcomes)


def merged(outcomes: Chance[T]) -> list[tuple[float, T]]:
    """``outcomes`` with equal outcomes added together, in the order each first appears."""
    found: dict[T, float] = {}
    for p, o in outcomes:
        found[o] = found.get(o, 0.0) + p
    return [(p, o) for o, p in found.items()]


def is_distribution(outcomes: Chance[T], tolerance: float = 1e-9) -> bool:
    """True when every probability is in [0, 1] and they sum to 1 (within ``tolerance``)."""
    return all(0.0 <= p <= 1.0 for p, _ in outcomes) and abs(math.fsum(p for p, _ in outcomes) - 1.0) <= tolerance


def uniform_die(sides: int) -> list[tuple[float, int]]:
    """A fair die's faces 1..sides as a chance step."""
    return [(1.0 / sides, face) for face in range(1, sides + 1)]


class Policy(Protocol):
    """A player: the engine's rules hand it every choice the seed leaves to a player.

    What the choices are differs per game (an action and its target, a reaction, a bid, where a
    pushed group goes), so each engine's policy class declares them; this protocol is what every
    policy shares: a name for logs, records and the command line. A policy object plays one side
    of one game (an engine's ``POLICIES`` holds factories): it reads the state it is handed and
    may keep memos of its own scoring, never a hidden copy of the game."""

    name: str


#: an engine's policies by name, the default first (each factory makes the player of one side of one game)
Policies = Mapping[str, Callable[[], Policy]]
