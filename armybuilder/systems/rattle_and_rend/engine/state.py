"""The pieces of a Rattle and Rend game in play: groups, sides, actions, markers, options, dice.

Plain records with no rules in them; the rules live in the phase modules (setup, geometry,
combat, reactions, actions) and the AI's choices in :mod:`ai`, all joined in :class:`game.Game`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import numpy as np

MAX_ACTIONS_PER_ROUND: Final = 240
REMOVE_VALUE: Final = 3.0  # value of removing one enemy point, in momentum points (it is lost every round)
COST_WEIGHT: Final = 0.45  # how much one momentum point spent weighs against that

T = TypeVar("T")


class Dice:
    """d20s and uniforms drawn from the injected generator in blocks of 256.

    The same draws as :class:`armybuilder.core.rng.Uniforms` (a block of ``rng.random`` at a
    time, handed out in order), written out here because the compiled engine's classes may
    only stand on compiled classes."""

    __slots__ = ("rng", "buffer", "index")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buffer: list[float] = []
        self.index = 0

    def u(self) -> float:
        """The next uniform in [0, 1); a fresh block is drawn when the buffer is spent."""
        i = self.index
        if i >= len(self.buffer):
            self.buffer = self.rng.random(256).tolist()
            i = 0
        self.index = i + 1
        return self.buffer[i]

    def d20(self) -> int:
        return int(self.u() * 20) + 1

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely."""
        return items[int(self.u() * len(items))]


@dataclass(eq=False, slots=True)
class Unit:
    """A group in play: a group of the list, with its attached Champion if any."""

    uid: int
    side: int
    name: str
    gtype: str
    points: int
    mov: str | None
    rng: str | None
    fury: int | None
    guile: int | None
    will: int | None
    reactions: tuple[str, ...]
    champion_action: str | None = None
    heavy_trait: str | None = None
    warding: str | None = None
    attached: bool = False  # a Champion rides with this group: Will checks have a bonus
    capacity: int = 0
    radius: float = 20.0
    x: float = 0.0
    y: float = 0.0
    state: str = "board"  # board / carried / reserve / banished / out
    carrier: Unit | None = None
    actions: int = 0
    free_next: bool = False
    eliminated: float = 0.0
    duel_target: bool = False
    back_round: int = 0  # banished until this round

    @property
    def is_ward(self) -> bool:
        return self.gtype == "ward"

    @property
    def on_board(self) -> bool:
        return self.state == "board"

    @property
    def in_play(self) -> bool:
        return self.state != "out"


@dataclass(eq=False, slots=True)
class Side:
    idx: int
    name: str
    traits: frozenset[str]
    units: list[Unit]
    total: int = 0
    momentum: int = 0
    last_actor: Unit | None = None
    morale_due: bool = False
    morale_done: bool = False
    first_turn_done: bool = False
    soothsayer: int | None = None
    death_bonus: bool = False
    free_action: bool = False  # Evade critical: the next action of an ally costs 0
    coordinated_used: bool = False
    anchor: tuple[float, float] = (200.0, 0.0)
    edge_y: float | None = 0.0
    markers_off: int = 0
    removed_points: float = 0.0  # enemy points this side removed

    def has(self, trait: str) -> bool:
        return trait in self.traits


@dataclass(slots=True)
class Action:
    """One action being resolved: the reaction bookkeeping of How Reactions Work."""

    side: Side
    actor: Unit
    name: str
    reacted: bool = False
    reactor: Unit | None = None
    swap: bool = False
    cancelled: bool = False
    attack: bool = False
    countercharge: Unit | None = None  # Fighters meeting this attack (simultaneous melee)
    target: Unit | None = None  # the enemy the action means to attack, once declared


@dataclass
class Marker:
    x: float
    y: float
    holder: Unit | None = None
    taken_turn: int = -1
    off: bool = False


@dataclass(slots=True)
class Option:
    score: float
    cost: int
    unit: Unit
    name: str
    run: Callable[[Action], None]


_RunAction = Callable[[Action], None]
RunAction = _RunAction
#: one option of a group as the AI scores it: (score, name, what plays it)
Scored = tuple[float, str, RunAction]


class UnitPlan:
    """What the board alone decides about one group's options (targets, their odds, paths and
    the closures that play them), kept in the board memo for as long as the board signature
    holds.  Scores here are before the momentum cost; what depends on the move weight (the
    round) is keyed by it.  Rescoring a group after an action that moved nothing only
    subtracts the new cost and works out Rest and Scheming Plot again."""

    __slots__ = (
        "ux", "uy", "stand", "charge", "rest", "rest_run", "feint", "translocate", "sprint_full", "sprint_most",
        "sprint_traced", "maneuver_done", "maneuver", "most_bound", "most_fine", "champion", "scored",
    )

    def __init__(self) -> None:
        self.ux = self.uy = 0.0
        self.stand: tuple[float, float | None, _RunAction] | None = None
        self.charge: tuple[float, _RunAction] | None = None
        self.rest: tuple[float, float, float] | None = None  # P(fail, success, critical) of Rest
        self.rest_run: _RunAction | None = None
        self.feint: tuple[float, _RunAction] | None = None
        self.translocate: _RunAction | None = None
        # The board memo holds one move weight (ai.ActionChoice._open_board starts a new memo when
        # it changes), so what depends on it is kept here as it is, never per weight:
        # Sprint: the best progress of a full move, of this move (nan off the clamp box), and
        # (value, run) once traced; None: not worked out yet
        self.sprint_full: float | None = None
        self.sprint_most: float | None = None
        self.sprint_traced: tuple[float, _RunAction] | None = None
        self.maneuver_done = False  # Maneuver worked out (maneuver then holds it, or None)
        self.maneuver: tuple[float, _RunAction] | None = None
        # bounds of a Maneuver's score: by the side's longest MOV, by the ally drawn (None: not yet)
        self.most_bound: float | None = None
        self.most_fine: float | None = None
        self.champion: tuple[str, Any] | None = None
        # cost -> the first-pass options that only it decides (ai.ActionChoice._fixed_scores)
        self.scored: dict[int, tuple[list[Scored], list[Scored], list[Scored] | None]] = {}
