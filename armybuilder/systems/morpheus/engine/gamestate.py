"""The state of a Ragnarok (Morpheus Engine) battle in play, as typed attributes of one class,
with the dice every phase rolls (from the game's one :class:`~armybuilder.core.rng.Uniforms`).

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

from typing import TYPE_CHECKING

from armybuilder.core.catalog import Catalogue
from armybuilder.core.rng import Uniforms
from armybuilder.odds.morpheus import Rules

from ..catalog import GodPower, MECatalog
from .fighters import Fighter, Terrain

if TYPE_CHECKING:
    from .policy import Policy


class GameState:
    """What a battle holds while it is played: clans, terrain, indexes, Godspark and dice."""

    __slots__ = (
        "cat", "data", "dice", "rules", "steps", "damage_memo", "max_rounds", "board", "depth", "godspark",
        "godspark_income", "sides", "everyone", "powers", "powers_used", "cheapest", "power_kinds", "power_rows",
        "scores", "round", "logging", "lines", "terrain", "living", "engage_limits", "engage_loose", "strike_span",
        "terror", "healers", "_sums", "_faces", "_base", "_xs", "_xf", "hazards", "difficult", "difficult_boxes", "los_blockers",
        "covers", "policies", "used", "clan_names",
    )  # fmt: skip

    cat: Catalogue
    data: MECatalog
    dice: Uniforms  # the game's one source of uniforms (rules and players draw from it)
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
    _sums: list[int]  # the total of each of the sides ** dice equally likely faces (2d6: 36)
    _faces: int  # len(_sums)
    _base: int
    _xs: list[float]
    _xf: list[Fighter]
    hazards: list[Terrain]
    difficult: list[Terrain]
    difficult_boxes: list[tuple[float, float, float, float, float, float, float]]
    los_blockers: list[Terrain]
    covers: list[tuple[Terrain, str]]
    policies: list[Policy]
    used: tuple[dict[str, int], dict[str, int]]
    clan_names: list[str]

    # -- log and dice -----------------------------------------------------

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)

    def note(self, side: int, option: str) -> None:
        """Count a use of one of the clan's options (a God power, an ability's choice)."""
        counts = self.used[side]
        counts[option] = counts.get(option, 0) + 1

    def natural(self) -> int:
        """One roll of the dice (2d6 by ME-D1): one uniform picks one of the 36 equally likely
        pairs of faces (the chance step ``dice.roll_distribution``, read through its faces)."""
        return self._sums[int(self.dice.u() * self._faces)]

    def roll(self, x: int, y: int) -> tuple[bool, int, int]:
        """"X versus Y" (ME-D1): (success, success stages, the natural roll); TN = base - (X - Y)."""
        natural = self._sums[int(self.dice.u() * self._faces)]
        tn = self._base - x + y  # rules.tn(x, y)
        if natural >= tn:
            return True, natural - tn, natural
        return False, 0, natural

    def told(self, what: str, x: int, y: int, natural: int, ok: bool) -> str:
        """A roll as the log shows it: "MA vs DF (5 vs 4): 8 against 6, success" (the natural roll
        against its target number TN = base - (X - Y))."""
        return f"{what} ({x} vs {y}): {natural} against {self._base - x + y}, " + ("success" if ok else "failure")

    def test(self, f: Fighter, x: int, y: int, stat: str = "", what: str = "") -> tuple[bool, int]:
        """A roll of ``f`` (X versus Y); Steel Your Mind re-rolls failed DR and MN tests. ``what``
        names the roll for the log (nothing is said without it)."""
        ok, stages, natural = self.roll(x, y)
        if self.logging and what:
            self.say(f"  {f.name}: {self.told(what, x, y, natural, ok)}")
        if not ok and stat in ("dr", "mn") and f.has("steel-your-mind"):
            ok, stages, natural = self.roll(x, y)
            if self.logging and what:
                self.say(f"  {f.name} rolls again (Steel Your Mind): {self.told(what, x, y, natural, ok)}")
        return ok, stages
