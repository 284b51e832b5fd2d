"""The state of a Ragnarok (Morpheus Engine) battle in play, as typed attributes of one class,
with the dice every phase rolls.

Why a class of its own: the rules are written as a chain of classes, one per phase
(:mod:`geometry`, :mod:`combat`, :mod:`movement`, :mod:`powers`, :mod:`activation`, then
:class:`battle.Battle`), each the subclass of the one before, all standing on this one.  Every
phase reads the state through attributes whose types mypy knows, and mypyc (which compiles the
engine, see setup.py and docs/architecture.md) turns each read into a field access and each call of
another phase's rule into a direct call.  The pure-Python path gets the same layout from
``__slots__``: a battle has more attributes than CPython 3.11 keeps in a shared-key layout, and
with a dictionary of its own every ``self.rule()`` call took the interpreter's slow path.
:meth:`battle.Battle.__init__` fills every attribute.
"""

from __future__ import annotations

import numpy as np

from armybuilder.core.catalog import Catalogue
from armybuilder.odds.morpheus import Rules

from ..catalog import GodPower, MECatalog
from .fighters import Fighter, Terrain


class GameState:
    """What a battle holds while it is played: clans, terrain, indexes, Godspark and dice."""

    __slots__ = (
        "cat", "data", "rng", "rules", "steps", "damage_memo", "max_rounds", "board", "depth", "godspark",
        "godspark_income", "sides", "everyone", "powers", "powers_used", "cheapest", "power_kinds", "power_rows",
        "scores", "round", "logging", "lines", "terrain", "living", "engage_limits", "engage_loose", "strike_span",
        "terror", "healers", "_sums", "_next", "_base", "_xs", "_xf", "hazards", "difficult", "difficult_boxes", "los_blockers",
        "covers",
    )  # fmt: skip

    cat: Catalogue
    data: MECatalog
    rng: np.random.Generator
    rules: Rules
    steps: dict[str, int]  # the Damage step of each kind of attack (normal, savage, lethal)
    damage_memo: dict[tuple[int, int, str], float]
    max_rounds: int
    board: float
    depth: float
    godspark: list[int]
    godspark_income: int
    sides: list[list[Fighter]]
    everyone: list[Fighter]
    powers: list[list[GodPower]]
    powers_used: list[set[str]]
    cheapest: list[int]
    power_kinds: dict[str, str]
    power_rows: list[tuple[tuple[GodPower, str, int], ...]]
    scores: list[float]
    round: int
    logging: bool
    lines: list[str]
    terrain: list[Terrain]
    living: list[list[Fighter]]
    engage_limits: list[dict[int, tuple[float, ...]]]
    engage_loose: list[dict[int, tuple[float, ...]]]
    strike_span: list[float]
    terror: list[list[Fighter] | None]
    healers: list[bool]
    _sums: list[int]
    _next: int
    _base: int
    _xs: list[float]
    _xf: list[Fighter]
    hazards: list[Terrain]
    difficult: list[Terrain]
    difficult_boxes: list[tuple[float, float, float, float, float, float, float]]
    los_blockers: list[Terrain]
    covers: list[tuple[Terrain, str]]

    # -- log and dice -----------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def natural(self) -> int:
        """One roll of the dice (2d6): the generator's dice are drawn 1,024 at a time and summed
        in one block (numpy), so a roll is one list read; the same dice in the same order as
        rolling them one by one (a block's few dice short of a whole roll are never used)."""
        if self._next >= len(self._sums):
            self._refill()
        self._next += 1
        return self._sums[self._next - 1]

    def _refill(self) -> None:
        dice = self.rules.dice
        block = self.rng.integers(1, self.rules.sides + 1, size=1024)
        if dice == 2:  # 2d6: the even and the odd dice added (a third of reshape().sum()'s time)
            self._sums = (block[0::2] + block[1::2]).tolist()
        else:
            whole = len(block) // dice
            self._sums = block[: whole * dice].reshape(whole, dice).sum(axis=1).tolist()
        self._next = 0

    def roll(self, x: int, y: int) -> tuple[bool, int, int]:
        if self._next >= len(self._sums):
            self._refill()
        natural = self._sums[self._next]
        self._next += 1
        tn = self._base - x + y  # rules.tn(x, y)
        if natural >= tn:  # a test that jumps: the interpreter's quick integer comparison
            return True, natural - tn, natural
        return False, 0, natural

    def test(self, f: Fighter, x: int, y: int, stat: str = "") -> tuple[bool, int]:
        """A roll of ``f`` (X versus Y); Steel Your Mind re-rolls failed DR and MN tests."""
        ok, stages, _ = self.roll(x, y)
        if not ok and stat in ("dr", "mn") and f.has("steel-your-mind"):
            ok, stages, _ = self.roll(x, y)
        return ok, stages
