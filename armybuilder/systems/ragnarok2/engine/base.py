"""The battle's state as every phase reads it: one trait that declares it, once.

Why a trait: the rules are split by phase into mixins (:mod:`.strategic`, :mod:`.movement`,
:mod:`.shooting`, :mod:`.combat`, :mod:`.outcome`, :mod:`.mystic_phase`, :mod:`.maintenance`,
:mod:`.ai`), and :class:`~.battle.Battle` is the one concrete class that combines them. Each
phase reads the battle's fields (``self.sides``, ``self.dice``...) and calls moves of other
phases (``self.deal()``, ``self.flee()``...). Declaring those here, and making every phase a
subclass of :class:`BattleBase`, gives the type checker the truth about ``self`` in every
phase, and gives mypyc (the engine's optional compiled build) native attribute reads and
method calls instead of generic ``getattr``. mypyc allows several bases only when all but one
are *traits* (``mypy_extensions.trait``): hence the phases are traits too. Without the compiled
build, ``trait`` is the identity and these are plain Python mixins.

The moves declared here without a body are defined by the phase named in their docstring;
:class:`~.battle.Battle` inherits the real ones (the phases come before this class in its
method resolution order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from .chance import Dice
from .state import Fighting, Group
from .tables import BalanceRow, pass_chance

if TYPE_CHECKING:
    from armybuilder.core.catalog import Catalogue

    from ..catalog import Profile, R2Catalog
    from .battlefield import Battlefield
    from .fray import CombatKey, Contact
    from .geometry import Box
    from .policy import Policy
    from .recorder import Recorder


# "fray 1", "fray 2"...: the keys of A.P. destroyed by the first and the second army, by phase.
_SIDE_KEYS = {phase: (f"{phase} 1", f"{phase} 2") for phase in ("shooting", "fray", "rout", "disengagement", "mystic", "other", "activation")}


@trait
class BattleBase:
    """Every field of a battle and the moves one phase asks of another (see the module doc)."""

    # (No __slots__ = () here: the fields below are Battle's slots, which mypy accepts only when
    # some base leaves the instance a dict.)

    cat: Catalogue
    data: R2Catalog
    table: str  # the catalogue's content hash: the key of its memoised tables
    dice: Dice
    logging: bool
    max_rounds: int
    lines: list[str]
    sides: list[list[Fighting]]
    info: list[dict[str, Any]]  # per side: C.-in-C., war staffs, deck, rituals, communions... (build_side())
    winner_of_roll: int
    scores: list[float]
    cic_index: list[int | None]
    cic_profile: list[Profile | None]
    temporary_cic: list[bool]
    dis_penalty: list[int]
    aura_units: list[list[Fighting]]
    mystic_units: list[list[Fighting]]
    outcome_rows: tuple[BalanceRow, ...]
    fear_rows: tuple[BalanceRow, ...]
    round: int
    field_effects: dict[str, int]
    _tactic_cost: int
    _tactical_memo: Any
    _mystic_sums: dict[Fighting, tuple[Any, ...]]
    _charge_bound: tuple[Any, ...]
    _cic_seen: list[tuple[Any, ...] | None]
    _upkeep: set[Fighting]
    policies: tuple[Policy, Policy]
    round_memo: dict[Any, Any]
    loss_caused: set[int]
    field: Battlefield  # the table: size, zones, scenery
    gaps: dict[int, tuple[int, int, float]]  # SpaceRules.gap()'s memo: pair -> (geo of each, gap)
    sight_memo: dict[int, tuple[int, bool]]  # SpaceRules.sees()'s memo: pair -> (table_stamp(), seen)
    sight_lines: dict[int, tuple[Box, Box, list[tuple[Box, int]], bool]]  # SpaceRules._sees()'s: pair -> (the blocks, what stood between, seen)
    spot_memo: dict[int, tuple[int, tuple[int, float, float, float, float]]]  # contact_spot()'s memo: pair -> (table_stamp(), spot)
    world: int  # bumped at every move and every Scout spotted: sight between units is looked at again
    trials: int  # trial spots stood on so far (SpaceRules.try_spot(): each gets a stamp of its own)
    table_changes: list[int]  # blocks moved or reshaped (casualties, a rout, re-forming), counted by the units themselves
    plans: dict[Any, Any]  # plan_travel()'s and assault_options()'s answers for the table as it stands (SpaceRules.plans_now())
    plans_layout: list[Any]  # the table they were found for: table_stamp(), then each unit's geo, alive, state, hidden
    reshape_to: int  # plan_travel()'s files for a scattered unit that narrows to stand where it goes (0: as it is)
    recorder: Recorder | None  # the frames of a replay, when one is asked
    phase: str  # the phase destroying A.P. now (shooting, fray, rout, flight, mystic...): destroyed's key
    destroyed: dict[str, float]  # A.P. destroyed by phase ("fray"), and by phase and side that destroyed them ("fray 1")
    deployed: list[int]  # the sides in the order they deployed (the second sees the first: deploy())
    frays_fought: int  # frays resolved in the game's combat phases (GameRecord.figures: "frays")

    # -- helpers every phase uses -------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def enemies(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[1 - side] if u.alive]

    def enemy_unit(self, unit: Fighting, index: int) -> Fighting:
        return self.sides[1 - unit.side][index]

    def foes_within(self, u: Fighting, reach: float) -> list[tuple[Fighting, float]]:
        """The enemy units on the table and not hidden whose edge is within *reach* cm of *u*'s,
        with that gap, in side order: what an assault or a volley may pick from."""
        out = []
        for e in self.sides[1 - u.side]:
            if not e.alive or e.state == "gone" or e.hidden:
                continue
            d = self.gap(u, e)
            if d <= reach:
                out.append((e, d))
        return out

    def test(self, value: int, difficulty: int, best_of: int = 1, ones_fail: bool = True) -> bool:
        return self.dice.chance(pass_chance(value, difficulty, best_of, ones_fail))

    def record_loss(self, victim_side: int, points: float) -> None:
        """A.P. of *victim_side* destroyed in the phase now under way (GameRecord.figures)."""
        d = self.destroyed
        phase = self.phase
        d[phase] = d.get(phase, 0.0) + points
        key = _SIDE_KEYS[phase][1 - victim_side] if phase in _SIDE_KEYS else f"{phase} {2 - victim_side}"
        d[key] = d.get(key, 0.0) + points

    def eliminate_points(self, killer: Fighting | None, victim: Fighting, points: float) -> None:
        self.scores[1 - victim.side] += points
        self.record_loss(victim.side, points)
        if killer is not None:
            killer.kills += points

    # -- moves one phase asks of another (defined by the phase named) ---------------

    def best_shooting_target(self, u: Fighting, shooters: list[Group]) -> Fighting | None:
        """:mod:`.ai`."""
        raise NotImplementedError

    def shooters(self, unit: Fighting) -> list[Group]:
        """:mod:`.movement`."""
        raise NotImplementedError

    def flee(self, u: Fighting, away: tuple[float, float] | None = None, why: str = "in the direction of the assault") -> None:
        """:mod:`.flight`."""
        raise NotImplementedError

    def gap(self, a: Fighting, b: Fighting) -> float:
        """:mod:`.space`."""
        raise NotImplementedError

    def sees(self, u: Fighting, e: Fighting) -> bool:
        """:mod:`.space`."""
        raise NotImplementedError

    def in_view(self, u: Fighting, e: Fighting) -> bool:
        """:mod:`.space`."""
        raise NotImplementedError

    def moved(self, u: Fighting) -> None:
        """:mod:`.space`."""
        raise NotImplementedError

    def table_stamp(self) -> int:
        """:mod:`.space`."""
        raise NotImplementedError

    def try_spot(self, u: Fighting, x: float, y: float, fx: float, fy: float) -> tuple[Any, ...]:
        """:mod:`.space`."""
        raise NotImplementedError

    def end_trial(self, u: Fighting, saved: tuple[Any, ...]) -> None:
        """:mod:`.space`."""
        raise NotImplementedError

    def travel(
        self, u: Fighting, tx: float, ty: float, allowance: float, straight: bool, face: bool = True,
        ignore: tuple[Fighting, ...] = (), stop: float = 0.0,
    ) -> float:  # fmt: skip
        """:mod:`.space`."""
        raise NotImplementedError

    def plans_now(self) -> dict[Any, Any]:
        """:mod:`.space`."""
        raise NotImplementedError

    def plan_travel(
        self, u: Fighting, tx: float, ty: float, allowance: float, straight: bool, face: bool = True,
        ignore: tuple[Fighting, ...] = (), stop: float = 0.0,
    ) -> tuple[float, float, float, float, float] | None:  # fmt: skip
        """:mod:`.space`."""
        raise NotImplementedError

    def others(self, *skip: Fighting) -> list[Fighting]:
        """:mod:`.space`."""
        raise NotImplementedError

    def move_obstacles(self, u: Fighting, ignore: tuple[Fighting, ...] = (), enemies: bool = True) -> list[Box]:
        """:mod:`.space`."""
        raise NotImplementedError

    def free_run(self, box: Box, dx: float, dy: float, dist: float, obstacles: list[Box], edges: bool = True) -> float:
        """:mod:`.space`."""
        raise NotImplementedError

    def turn(self, u: Fighting, fx: float, fy: float) -> bool:
        """:mod:`.space`."""
        raise NotImplementedError

    def fits(self, u: Fighting) -> bool:
        """:mod:`.space`."""
        raise NotImplementedError

    def wheel(self, u: Fighting, hx: float, hy: float) -> bool:
        """:mod:`.space`."""
        raise NotImplementedError

    def nearest_edge(self, u: Fighting) -> tuple[float, float, float]:
        """:mod:`.space`."""
        raise NotImplementedError

    def sight_obstacles(self, a: Fighting, b: Fighting) -> list[tuple[Box, int]]:
        """:mod:`.space`."""
        raise NotImplementedError

    def way_left(self, px: float, py: float, gx: float, gy: float, pad: float) -> float:
        """:mod:`.space`."""
        raise NotImplementedError

    def waypoint(self, u: Fighting, gx: float, gy: float) -> tuple[float, float]:
        """:mod:`.space`."""
        raise NotImplementedError

    def as_battle(self) -> Any:
        """:mod:`.space`."""
        raise NotImplementedError

    def assault_options(self, u: Fighting) -> list[Any]:
        """:mod:`.assault`."""
        raise NotImplementedError

    def assault(self, u: Fighting) -> None:
        """:mod:`.assault`."""
        raise NotImplementedError

    def contact_spot(self, u: Fighting, e: Fighting) -> tuple[int, float, float, float, float]:
        """:mod:`.assault`."""
        raise NotImplementedError

    def spot_scouts(self, u: Fighting) -> None:
        """:mod:`.movement`."""
        raise NotImplementedError

    def snapshot(self, caption: str) -> None:
        """:mod:`.battle`."""
        raise NotImplementedError

    def kill_in_contact(self, u: Fighting, killer: Fighting | None) -> None:
        """:mod:`.flight`."""
        raise NotImplementedError

    def shoot(self, u: Fighting, moved: bool = False) -> None:
        """:mod:`.shooting`."""
        raise NotImplementedError

    def volley(self, u: Fighting, g: Group, target: Fighting, shooters: int, difficulty: int, label: str) -> int:
        """:mod:`.shooting`."""
        raise NotImplementedError

    def cast_rituals(self, u: Fighting, warriors_only: bool = False) -> None:
        """:mod:`.mystic_phase`."""
        raise NotImplementedError

    def call_communions(self, u: Fighting, warriors_only: bool = False) -> None:
        """:mod:`.mystic_phase`."""
        raise NotImplementedError

    def wound_shift_against(self, target: Fighting) -> int:
        """:mod:`.combat`."""
        raise NotImplementedError

    def survival_thinning(self, target: Fighting, rolls: int) -> int:
        """:mod:`.combat`."""
        raise NotImplementedError

    def deal(
        self, killer: Fighting | None, target: Fighting, wounds: int, in_contact: int, scattered: bool,
        victims: list[Group] | None = None,
    ) -> int:  # fmt: skip
        """:mod:`.combat`."""
        raise NotImplementedError

    def break_contacts(self, unit: Fighting) -> None:
        """:mod:`.combat`."""
        raise NotImplementedError

    def unit_of(self, key: int) -> Fighting:
        """:mod:`.combat`."""
        raise NotImplementedError

    def frays(self) -> list[list[Fighting]]:
        """:mod:`.combat`."""
        raise NotImplementedError

    def build_contact(self, units: list[Fighting], only: dict[int, set[int]] | None = None) -> Contact:
        """:mod:`.combat`."""
        raise NotImplementedError

    def combats_of(self, fighters: Contact) -> list[CombatKey]:
        """:mod:`.combat`."""
        raise NotImplementedError

    def resolve_combats(self, fighters: Contact, wounds: dict[tuple[int, int], int], charge: bool = True) -> None:
        """:mod:`.combat`."""
        raise NotImplementedError

    def eliminate_in_contact(self, u: Fighting, killer: Fighting | None, per_group: dict[int, int]) -> None:
        """:mod:`.outcome`."""
        raise NotImplementedError
