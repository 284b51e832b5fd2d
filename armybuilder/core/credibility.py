"""Credibility figures of a battle engine: can a player trust its playtests?

Three checks on a system's bundled samples, printed by ``armybuilder bench``:

- **mirror matches**: every sample against itself should score 50 % (draws count half); a
  departure is a bias of the engine (who acts first, ties), not of the lists (played with five
  times the games of the other checks: see :func:`credibility`);
- **full list against a cut copy**: every sample against a copy with about a fifth of its points
  removed (the system's :meth:`~armybuilder.core.system.GameSystem.cut_copy`) should win clearly
  (>= 65 %);
- **the win-rate matrix** of the samples against one another; a pairing outside 10–90 % is
  printed with its per-unit figures (survival, points eliminated), so a reader can see which
  units decide it.

The samples are never tuned to pass: the figures describe the engine, which will be judged on
lists nobody on the project has seen. Any system that implements ``cut_copy`` gets the checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .playtest import UnitStats, load_sample, run_playtest, sample_names, wilson_interval
from .system import GameSystem

MIRROR_BAND = (0.47, 0.53)
CUT_TARGET = 0.65
PAIRING_BAND = (0.10, 0.90)


@dataclass
class Credibility:
    """The three checks' results for one system (win rates of the row list, a draw counting half)."""

    system: str
    unit: str
    games: int
    names: list[str]
    mirror_games: int = 0
    seed: int = 11
    matrix: dict[str, dict[str, float]] = field(default_factory=dict)
    cut: dict[str, float] = field(default_factory=dict)
    cut_points: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: the per-unit figures of every pairing (row, column) outside :data:`PAIRING_BAND`
    lopsided: dict[tuple[str, str], list[UnitStats]] = field(default_factory=dict)

    @property
    def mirror(self) -> dict[str, float]:
        return {n: self.matrix[n][n] for n in self.names}

    def mirror_verdict(self, name: str) -> str:
        """'ok' inside 50 ± 3 %; 'OUT OF 50 ± 3 %' only when the games played show it.

        A fair mirror's win rate wanders by chance (its standard error is 2.2 points at 500
        games, 1.1 at 2,000): a rate outside the band whose 95 % interval still holds 50 % is
        something these games cannot tell from a fair mirror, and is said so."""
        rate = self.mirror[name]
        if MIRROR_BAND[0] <= rate <= MIRROR_BAND[1]:
            return "ok"
        games = self.mirror_games or self.games
        low, high = wilson_interval(rate * games, games)
        if low <= 0.5 <= high:
            return f"outside 50 ± 3 % but within chance at {games} games (95 % interval {100 * low:.1f}–{100 * high:.1f} %)"
        return "OUT OF 50 ± 3 %"

    def mirrors_ok(self) -> bool:
        return not any(self.mirror_verdict(n).startswith("OUT") for n in self.names)

    def lines(self) -> list[str]:
        out = [f"{self.system} credibility ({self.games} games a pairing, seed {self.seed}; win rate of the row, a draw counts half)"]
        for n in self.names:
            out.append(f"  mirror  {n:<32} {100 * self.mirror[n]:5.1f} %  {self.mirror_verdict(n)}  ({self.mirror_games or self.games} games)")
        for n in self.names:
            rate = self.cut[n]
            full, cut = self.cut_points[n]
            ok = "ok" if rate >= CUT_TARGET else "BELOW 65 %"
            out.append(f"  full vs cut {n:<28} {100 * rate:5.1f} %  ({full:g} vs {cut:g} {self.unit})  {ok}")
        width = max((len(n) for n in self.names), default=6)
        out.append("  matrix " + " " * max(0, width - 6) + " ".join(f"{n[:8]:>8}" for n in self.names))
        for a in self.names:
            out.append(f"  {a:<{width}} " + " ".join(f"{100 * self.matrix[a][b]:7.1f}%" for b in self.names))
        for (a, b), units in self.lopsided.items():
            out.append(f"  {a} vs {b}: {100 * self.matrix[a][b]:.1f} %, outside 10–90 %; per unit (survival, {self.unit} eliminated a game):")
            for u in units:
                side = a if u.side == 0 else b
                out.append(f"    [{side[:12]}] {u.name:<40} {100 * u.survival_rate:5.1f} %  {u.mean_eliminated:6.2f}")
        return out


def credibility(system: GameSystem[Any, Any], games: int = 200, seed: int = 11, mirror_games: int | None = None) -> Credibility:
    """Play the three checks on *system*'s bundled samples (one worker, fixed seed).

    Mirror matches play *mirror_games* games (five times *games* unless given): a mirror is
    checked against a band of ± 3 points, and at 400 games the standard error of a fair
    mirror's win rate is about 2.5 points, so one of several fair mirrors would often fall
    outside the band by chance alone; at 2,000 games it is about 1.1 points."""
    names = sample_names(system)
    armies = {n: load_sample(system, n) for n in names}
    mirrors = mirror_games if mirror_games is not None else 5 * games
    first = next(iter(armies.values()))
    cat = system.catalogue_for(first)
    result = Credibility(system.name, system.points(first, cat).unit, games, names, mirrors, seed)
    for a in names:
        result.matrix[a] = {}
        for b in names:
            summary = run_playtest(armies[a], armies[b], mirrors if a == b else games, seed=seed)
            result.matrix[a][b] = rate = summary.win_rate
            if not PAIRING_BAND[0] <= rate <= PAIRING_BAND[1]:
                result.lopsided[(a, b)] = summary.units
    for n in names:
        army = armies[n]
        cat = system.catalogue_for(army)
        cut = system.cut_copy(army, cat)
        result.cut[n] = run_playtest(army, cut, games, seed=seed).win_rate
        result.cut_points[n] = (float(system.points(army, cat).total), float(system.points(cut, cat).total))
    return result


@dataclass
class OptionFigure:
    """One option of a list (a champion action, a reaction, a God power, a trait's choice) measured
    in a list built around it: how often the player used it, and how the list did with the option
    against the same list without it (a free option should never make a list worse)."""

    option: str  # the engine's id of the option
    label: str  # what it is, for a reader
    army: str  # the list built around it
    games: int
    used: int  # games in which the side with the option used it
    rate: float | None = None  # win rate with the option against without it (a draw counts half)
    interval: tuple[float, float] = (0.0, 1.0)

    @property
    def ok(self) -> bool:
        """Used in some games, and never shown to make the list worse: the with-against-without
        interval holds 50 % or lies above it."""
        return self.used > 0 and (self.rate is None or self.interval[1] >= 0.5)

    def line(self) -> str:
        text = f"  {self.label:<42} used in {self.used:>5} of {self.games} games"
        if self.rate is not None:
            low, high = self.interval
            text += f"; with against without {100 * self.rate:5.1f} % ({100 * low:.1f}–{100 * high:.1f} %)"
        return text + ("  ok" if self.ok else ("  NEVER USED" if self.used == 0 else "  WORSE WITH IT"))


def option_lines(system: str, figures: list[OptionFigure], games: int, seed: int) -> list[str]:
    return [f"{system} options (lists built around each, {games} games each, seed {seed}; with against without: the same list, "
            "the option forbidden to the other side's player)", *(f.line() for f in figures)]
