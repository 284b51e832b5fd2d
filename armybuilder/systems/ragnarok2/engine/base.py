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

import math
from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from .chance import Dice
from .state import Fighting, Group
from .tables import BalanceRow, _test_p

if TYPE_CHECKING:
    from armybuilder.core.catalog import Catalogue

    from ..catalog import Profile, R2Catalog
    from .fray import CombatKey, Contact
    from .policy import Policy


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

    # -- helpers every phase uses -------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def distance(self, a: Fighting, b: Fighting) -> float:
        return abs(b.pos - a.pos)

    def enemies(self, side: int) -> list[Fighting]:
        return [u for u in self.sides[1 - side] if u.alive]

    def enemy_unit(self, unit: Fighting, index: int) -> Fighting:
        return self.sides[1 - unit.side][index]

    def toward(self, unit: Fighting, target_pos: float, distance: float, stop_short: float = 1.0) -> None:
        gap = target_pos - unit.pos
        step = min(distance, max(0.0, abs(gap) - stop_short))
        unit.pos += math.copysign(step, gap)

    def test(self, value: int, difficulty: int, best_of: int = 1, ones_fail: bool = True) -> bool:
        return self.dice.chance(_test_p(value, difficulty, best_of, ones_fail))

    def eliminate_points(self, killer: Fighting | None, victim: Fighting, points: float) -> None:
        self.scores[1 - victim.side] += points
        if killer is not None:
            killer.kills += points

    # -- moves one phase asks of another (defined by the phase named) ---------------

    def best_shooting_target(self, u: Fighting, shooters: list[Group]) -> Fighting | None:
        """:mod:`.ai`."""
        raise NotImplementedError

    def shooters(self, unit: Fighting) -> list[Group]:
        """:mod:`.movement`."""
        raise NotImplementedError

    def flee(self, u: Fighting, away_from: Fighting | None = None) -> None:
        """:mod:`.movement`."""
        raise NotImplementedError

    def kill_in_contact(self, u: Fighting, killer: Fighting | None) -> None:
        """:mod:`.movement`."""
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
