"""The state of a Rattle and Rend game in play, as typed attributes of one class.

Why a class of its own: the rules are written as a chain of classes, one per phase
(:mod:`geometry`, :mod:`scenario`, :mod:`setup`, :mod:`combat`, :mod:`reactions`,
:mod:`actions`, then :class:`game.Game`), each the subclass of the one before, all standing on
this one. Every phase therefore reads the state through attributes whose types mypy knows, and
mypyc (which compiles the engine, see setup.py) turns each read into a field access instead of
a dictionary look-up. The pure-Python path gets the same layout from ``__slots__``.

The players are not in the chain: each side's :class:`~.policy.Policy` is held in
``policies`` and asked whenever the rules leave a choice to a player. Randomness comes from one
:class:`~armybuilder.core.rng.Uniforms` (``dice``), which the policies draw from too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.core.rng import Uniforms

from ..catalog import RRCatalog, band_plus
from .board import Piece
from .state import Marker, Side, Unit

if TYPE_CHECKING:
    from .policy import Policy

#: the board memo (``GameState.cache``): geometry worked out while the board stands still,
#: keyed by what it is about (a tuple starting with a name, or a name)
Memo = dict[Any, Any]


class GameState:
    """What a game holds while it is played: sides, board, scenario, round, dice, players, memos."""

    __slots__ = (
        "actions_this_round",
        "band_mm",
        "bid_max",
        "board_memo",
        "board_count",
        "board_signature",
        "board_stats",
        "cache",
        "cat",
        "costs",
        "data",
        "deployment",
        "dice",
        "dice_table",
        "extra_round",
        "finished",
        "fixed_scenario",
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
        "policies",
        "round",
        "round_limit",
        "scenario",
        "scenario_rounds",
        "side_lists",
        "side_lists_of",
        "sides",
        "stats_version",
        "terrain_obstacles",
        "turn_counter",
        "units",
        "used",
        "wider",
        "winner",
    )

    def __init__(self, cat: Catalogue, rng: np.random.Generator, log: bool) -> None:
        self.cat = cat
        data = cat.data
        assert isinstance(data, RRCatalog)
        self.data: RRCatalog = data
        self.dice = Uniforms(rng)
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
        self.policies: list[Policy] = []
        self.pieces: list[Piece] = []
        self.round = 0
        self.turn_counter = 0
        self.winner: int | None = None
        self.finished = False
        self.scenario = "kill-them-all"
        self.fixed_scenario: str | None = None  # playtest --scenario: played instead of the d20 roll
        self.scenario_rounds: int | None = None
        self.hill: Piece | None = None
        self.markers: list[Marker] = []
        self.extra_round = False
        self.placed: set[int] = set()
        self.cache: Memo | None = None
        # the board signature the memo holds for (ai_values.ValuingPolicy.open_board): every group's
        # x, y and state (kept on the group: Unit.seen_x, seen_y, seen_state) and their number,
        # the markers' holders, the stats' version
        self.board_count = -1
        self.board_signature: tuple[object, ...] = ()
        self.board_stats = -1
        self.board_memo: Memo = {}
        # each side's groups on the board, listed once per memo (Geometry.enemies): the memo they
        # were listed for, and the lists (None: not listed yet)
        self.side_lists_of: Memo | None = None
        self.side_lists: list[list[Unit] | None] = [None, None]
        self.stats_version = 0  # bumped when a group's stats change (Tacticians): the memos read them
        self.p_success_memo: dict[tuple[int | None, int, int], float] = {}
        self.wider: dict[str | None, str | None] = {b: band_plus(b, 1) for b in (None, "B", "S", "M", "L")}
        self.terrain_obstacles: dict[tuple[str | None, bool], list[tuple[float, float, float]]] = {}
        self.actions_this_round = 0
        self.player_a = 0
        self.deployment = "side"
        self.used: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def log(self, text: str) -> None:
        """Add a line to a narrated game; callers test ``self.logging`` first, so a game
        played for statistics never formats its lines."""
        if self.logging:
            self.lines.append(f"R{self.round} {text}")

    def note(self, side: int, option: str) -> None:
        """Count a use of one of the list's options (an action, a reaction, a trait's choice):
        the record's ``used``, so a playtest shows what each side made use of."""
        counts = self.used[side]
        counts[option] = counts.get(option, 0) + 1
