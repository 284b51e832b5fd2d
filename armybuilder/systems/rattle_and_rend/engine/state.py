"""The pieces of a Rattle and Rend game in play: groups, sides, actions, markers, and the two
records a player hands the rules (an :class:`Order` on its turn, an :class:`Offer` it takes).

Plain records with no rules in them; the rules live in the phase modules (setup, geometry,
combat, reactions, actions, game) and the players' choices in :mod:`policy` and :mod:`ai`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

MAX_ACTIONS_PER_ROUND: Final = 240
#: Tacticians' four bonuses (seed: Tactitians), the choice a side makes on its first turn
TACTICS: Final = ("fury", "guile", "move", "reach")


class IllegalOrder(Exception):
    """A player gave an order the rules do not allow (a policy's fault, never a list's)."""


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
    # the profile's MOV, RNG, Fury and Guile, before a Tacticians' bonus of the round
    base_mov: str | None = None
    base_rng: str | None = None
    base_fury: int | None = None
    base_guile: int | None = None
    # where the board memo last saw this group (ai_values.ValuingPolicy.open_board): its x, y
    # and state when the memo's board signature was taken ("": not yet)
    seen_x: float = 0.0
    seen_y: float = 0.0
    seen_state: str = ""
    # the board memo's entries about this group, kept on it rather than under keys in the memo
    # (ai.ScoringPolicy reads them for every group at every choice): the memo they belong to
    # (a new memo, a new board: they are void), the group's plan (ai.UnitPlan), the enemies in
    # its range and sight, its goal
    memo_of: dict[Any, Any] | None = None
    plan: Any = None
    in_range: list[Unit] | None = None
    goal: tuple[float, float] | None = None
    # its Charge target as the player that owns it last worked it out (ai.ScoringPolicy._plan),
    # kept across boards while what decides it holds: the player, the group's place and its
    # carrier's, the enemies' version (ai_values.ValuingPolicy._foes_version) and the stats'
    charge_by: Any = None
    charge_x: float = 0.0
    charge_y: float = 0.0
    charge_ux: float = 0.0
    charge_uy: float = 0.0
    charge_foes: int = -1
    charge_stats: int = -1
    charge_target: Any = None

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
    soothsayer: int | None = None  # this round's number (Soothsayers)
    soothsaid_turn: int = -1  # the turn in which it last replaced a die (once a turn)
    tactic: str | None = None  # Tacticians' bonus in force (kept from round to round)
    death_bonus: bool = False
    free_action: bool = False  # Evade critical: the next action of an ally costs 0
    coordinated_used: bool = False
    anchor: tuple[float, float] = (200.0, 0.0)
    edge_y: float | None = 0.0
    markers_off: int = 0
    removed_points: float = 0.0  # enemy points this side removed

    def has(self, trait: str) -> bool:
        return trait in self.traits


class Action:
    """One action being resolved: the reaction bookkeeping of How Reactions Work.

    (A plain class, not a dataclass: mypyc builds a dataclass through its Python ``__init__``,
    and a game makes one of these per action, and an :class:`Order` per option scored.)"""

    __slots__ = ("side", "actor", "name", "reacted", "reactor", "swap", "cancelled", "attack", "countercharge", "target", "bonus")

    def __init__(self, side: Side, actor: Unit, name: str, reacted: bool = False, attack: bool = False, bonus: int = 0) -> None:
        self.side = side
        self.actor = actor
        self.name = name
        self.reacted = reacted
        self.reactor: Unit | None = None
        self.swap = False
        self.cancelled = False
        self.attack = attack
        self.countercharge: Unit | None = None  # Fighters meeting this attack (simultaneous melee)
        self.target: Unit | None = None  # the enemy the action means to attack, once declared
        self.bonus = bonus  # Reversal's critical: the action is made with a bonus


@dataclass
class Marker:
    x: float
    y: float
    holder: Unit | None = None
    taken_turn: int = -1
    off: bool = False


class Order:
    """What a player gives on its turn: an action (the seed's name), the group that takes it and
    what the action needs: an enemy (``target``), an allied group (``ally``), a point on the board
    (``point``: a move's end, an ambush's entry), the groups it moves (``movers``). The rules
    check it (:meth:`actions.ActionRules.legal`) before it is played."""

    __slots__ = ("name", "unit", "target", "ally", "point", "movers", "score")

    def __init__(self, name: str, unit: Unit, target: Unit | None = None, ally: Unit | None = None,
                 point: tuple[float, float] | None = None, movers: list[Unit] | None = None) -> None:  # fmt: skip
        self.name = name
        self.unit = unit
        self.target = target
        self.ally = ally
        self.point = point
        self.movers = movers
        self.score = 0.0  # the player's own estimate (read by nothing but its log line)


class Offer:
    """A reaction the rules offer a side: its name, the group that would react, the enemy it is
    about (the actor, the attacker, the mover) and the ally it concerns (Sacrifice, Pursuit);
    ``run`` plays its effect once it is declared and not refused."""

    __slots__ = ("name", "reactor", "foe", "ally", "run")

    def __init__(self, name: str, reactor: Unit, foe: Unit | None, ally: Unit | None, run: Callable[[], None]) -> None:
        self.name = name
        self.reactor = reactor
        self.foe = foe
        self.ally = ally
        self.run = run
