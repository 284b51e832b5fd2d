"""The state of a Rattle and Rend game in play, as typed attributes of one class.

Why a class of its own: the rules are written as a chain of classes, one per phase
(:mod:`geometry`, :mod:`scenario`, :mod:`setup`, :mod:`combat`, :mod:`reactions`,
:mod:`actions`, :mod:`ai`, then :class:`game.Game`), each the subclass of the one before, all
standing on this one.  Every phase therefore reads the state through attributes whose types
mypy knows, and mypyc (which compiles the engine, see docs/architecture.md) turns each read into a
field access instead of a dictionary look-up.  The pure-Python path gets the same layout
from ``__slots__``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from armybuilder.core.catalog import Catalogue

from ..catalog import RRCatalog, band_plus
from .board import Piece
from .state import Dice, Marker, Side, Unit

#: the board memo (``GameState.cache``): everything worked out while the board stands still,
#: keyed by what it is about (a tuple starting with a name, or a name)
Memo = dict[Any, Any]


class GameState:
    """What a game holds while it is played: sides, board, scenario, round, dice and memos."""

    __slots__ = (
        "actions_this_round",
        "band_mm",
        "bid_max",
        "board_memo",
        "board_signature",
        "cache",
        "cat",
        "charge_memo",
        "costs",
        "data",
        "deployment",
        "dice",
        "dice_table",
        "extra_round",
        "finished",
        "foes_versions",
        "goal_memo",
        "hill",
        "lines",
        "logging",
        "markers",
        "morale_threshold",
        "p_success_memo",
        "pieces",
        "pivots",
        "placed",
        "player_a",
        "rest_odds",
        "round",
        "round_limit",
        "scenario",
        "scenario_rounds",
        "sides",
        "terrain_obstacles",
        "turn_counter",
        "units",
        "weight_now",
        "wider",
        "winner",
    )

    def __init__(self, cat: Catalogue, rng: np.random.Generator, log: bool) -> None:
        self.cat = cat
        data = cat.data
        assert isinstance(data, RRCatalog)
        self.data: RRCatalog = data
        self.dice = Dice(rng)
        self.logging = log
        self.lines: list[str] = []
        t = data.tables
        self.band_mm: dict[str, float] = {r.band: float(r.distance_mm) for r in t.ranges} or {"B": 0.0, "S": 80.0, "M": 160.0, "L": 240.0}
        self.pivots: dict[str, int] = {r.band: r.pivots for r in t.ranges} or {"B": 0, "S": 0, "M": 1, "L": 2}
        cd = t.check_dice
        self.dice_table: tuple[int, int, int] = (cd.standard, cd.penalty, cd.bonus) if cd else (2, 1, 3)
        self.costs: list[int] = list(t.action_costs) or [1, 2, 3]
        self.morale_threshold: int = t.morale_threshold
        self.round_limit: int = t.round_limit
        self.bid_max: int = t.initiative_bid[1]
        self.sides: list[Side] = []
        self.units: list[Unit] = []
        self.pieces: list[Piece] = []
        self.round = 0
        self.turn_counter = 0
        self.winner: int | None = None
        self.finished = False
        self.scenario = "kill-them-all"
        self.scenario_rounds: int | None = None
        self.hill: Piece | None = None
        self.markers: list[Marker] = []
        self.extra_round = False
        self.placed: set[int] = set()
        self.cache: Memo | None = None
        self.board_signature: tuple[object, ...] = ()
        self.board_memo: Memo = {}
        # kept across boards, keyed by a group's uid and position and the enemies' version
        # (scenario.ScenarioRules._foes_version): Charge targets and nearest enemies
        self.foes_versions: dict[tuple[object, ...], int] = {}
        self.charge_memo: dict[tuple[object, ...], tuple[Unit, float, float] | tuple[()]] = {}
        self.goal_memo: dict[tuple[object, ...], tuple[float, float]] = {}
        self.weight_now = 0.35  # move_weight() while options are scored (ai.ActionChoice.options)
        self.p_success_memo: dict[tuple[int | None, int, int], float] = {}
        self.rest_odds: dict[int, tuple[float, float, float]] = {}  # Guile -> P(fail, success, critical) of Rest
        self.wider: dict[str | None, str | None] = {b: band_plus(b, 1) for b in (None, "B", "S", "M", "L")}
        self.terrain_obstacles: dict[tuple[str | None, bool], list[tuple[float, float, float]]] = {}
        self.actions_this_round = 0
        self.player_a = 0
        self.deployment = "side"

    def log(self, text: str) -> None:
        """Add a line to a narrated game; callers test ``self.logging`` first, so a game
        played for statistics never formats its lines."""
        if self.logging:
            self.lines.append(f"R{self.round} {text}")
