"""Credibility figures of the battle engine: can a player trust its playtests?

Three checks on the bundled samples (``armybuilder bench`` prints them each run):

- **mirror matches**: every sample against itself should score 50 % (draws count half); a
  departure is a bias of the engine (who activates first, ties) rather than of the lists
  (played with five times the games of the other checks: see :func:`credibility`);
- **full list against a cut copy**: every sample against a copy with about 20 % of its points
  removed (troops taken off its units, the largest units first) should win clearly (>= 65 %);
- **the win-rate matrix** of the samples against one another, and what its games say of the
  fighting: the share of games with at least one fray (>= 95 %: armies that meet) and the share
  of the A.P. destroyed that each phase destroyed (frays and routs at least half: melee matters).

The samples are never tuned to pass: the figures describe the engine, and the engine will be
judged on lists nobody on the project has seen. The same full-against-cut check runs in the
tests on legal lists of four other peoples (``tests/ragnarok2/data/credibility/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from armybuilder.core.catalog import Catalogue

from ..army import R2List, unit_cost

CUT_SHARE = 0.20
MIRROR_BAND = (0.47, 0.53)
CUT_TARGET = 0.65
FRAY_GAMES_TARGET = 0.95  # share of the matrix's games with at least one fray
MELEE_TARGET = 0.50  # share of the A.P. destroyed in the matrix's games by frays and routs
MELEE_PHASES = ("fray", "rout")


def cut_copy(army: R2List, cat: Catalogue, share: float = CUT_SHARE) -> R2List:
    """A copy of *army* with about *share* of its units' A.P. removed: one trooper at a time from
    the unit with the most troops left (ties: the first unit), Characters and members kept."""
    units = [u.model_copy(deep=True) for u in army.units]
    total = sum(unit_cost(cat, u) for u in units)
    target = total * share
    removed = 0.0
    while removed < target:
        best = None
        for i, u in enumerate(units):
            if u.troops is not None and u.troops.count > 1 and (best is None or u.troops.count > units[best].troops.count):  # type: ignore[union-attr]
                best = i
        if best is None:
            break
        u = units[best]
        before = unit_cost(cat, u)
        u.troops.count -= 1  # type: ignore[union-attr]
        removed += before - unit_cost(cat, u)
    return army.model_copy(update={"units": units, "name": f"{army.name} (cut {round(100 * removed / max(total, 1))} %)"})


@dataclass
class Credibility:
    games: int
    names: list[str]
    mirror_games: int = 0  # games of each mirror match (the matrix's diagonal)
    matrix: dict[str, dict[str, float]] = field(default_factory=dict)  # row list's win rate vs column
    cut: dict[str, float] = field(default_factory=dict)  # full list's win rate vs its cut copy
    cut_points: dict[str, tuple[float, float]] = field(default_factory=dict)
    matrix_games: int = 0  # games of the matrix off its diagonal (pairings of two samples)
    fray_games: int = 0  # of those, the games with at least one fray
    phase_ap: dict[str, float] = field(default_factory=dict)  # A.P. destroyed in them by phase

    @property
    def fray_share(self) -> float:
        return self.fray_games / self.matrix_games if self.matrix_games else 0.0

    @property
    def melee_share(self) -> float:
        total = sum(self.phase_ap.values())
        return sum(self.phase_ap.get(p, 0.0) for p in MELEE_PHASES) / total if total else 0.0

    def phase_shares(self) -> list[tuple[str, float]]:
        total = sum(self.phase_ap.values()) or 1.0
        return sorted(((p, v / total) for p, v in self.phase_ap.items() if v > 0), key=lambda kv: (-kv[1], kv[0]))

    @property
    def mirror(self) -> dict[str, float]:
        return {n: self.matrix[n][n] for n in self.names}

    def mirror_verdict(self, name: str) -> str:
        """'ok' inside 50 ± 3 %; 'OUT OF 50 ± 3 %' only when the games played show it.

        A fair mirror's win rate wanders by chance (its standard error is 2.2 points at 500
        games, 1.1 at 2,000): a rate outside the band whose 95 % interval still holds 50 % is
        something these games cannot tell from a fair mirror, and is said so, not called a bias;
        a rate whose interval leaves 50 % out is a bias the games show."""
        from armybuilder.core.playtest import wilson_interval

        rate = self.mirror[name]
        if MIRROR_BAND[0] <= rate <= MIRROR_BAND[1]:
            return "ok"
        games = self.mirror_games or self.games
        low, high = wilson_interval(rate * games, games)
        if low <= 0.5 <= high:
            return f"outside 50 ± 3 % but within chance at {games} games (95 % interval {100 * low:.1f}–{100 * high:.1f} %)"
        return "OUT OF 50 ± 3 %"

    def mirrors_ok(self) -> bool:
        """No mirror shown to be out of the band by the games played (see :meth:`mirror_verdict`)."""
        return not any(self.mirror_verdict(n).startswith("OUT") for n in self.names)

    def lines(self) -> list[str]:
        out = [f"Rag'Narok 2 credibility ({self.games} games a pairing; win rate of the row, a draw counts half)"]
        for n in self.names:
            rate = self.mirror[n]
            ok = self.mirror_verdict(n)
            out.append(f"  mirror  {n:<32} {100 * rate:5.1f} %  {ok}  ({self.mirror_games or self.games} games)")
        for n in self.names:
            rate = self.cut[n]
            full, cut = self.cut_points[n]
            ok = "ok" if rate >= CUT_TARGET else "BELOW 65 %"
            out.append(f"  full vs cut {n:<28} {100 * rate:5.1f} %  ({full:g} vs {cut:g} A.P.)  {ok}")
        width = max(len(n) for n in self.names)
        out.append("  matrix " + " " * (width - 6) + " ".join(f"{n[:8]:>8}" for n in self.names))
        for a in self.names:
            out.append(f"  {a:<{width}} " + " ".join(f"{100 * self.matrix[a][b]:7.1f}%" for b in self.names))
        if self.matrix_games:
            ok = "ok" if self.fray_share >= FRAY_GAMES_TARGET else "BELOW 95 %"
            out.append(f"  games with at least one fray {100 * self.fray_share:5.1f} %  ({self.matrix_games} games of the matrix)  {ok}")
            ok = "ok" if self.melee_share >= MELEE_TARGET else "BELOW 50 %"
            out.append(f"  A.P. destroyed by frays and routs {100 * self.melee_share:5.1f} %  {ok}")
            out.append("  A.P. destroyed by phase: " + ", ".join(f"{p} {100 * s:.1f} %" for p, s in self.phase_shares()))
        return out


def credibility(games: int = 200, seed: int = 11, mirror_games: int | None = None) -> Credibility:
    """Play the three checks on the bundled Rag'Narok 2 samples (one worker, fixed seed).

    Mirror matches play *mirror_games* games (five times *games* unless given): a mirror is
    checked against a band of ± 3 points, and at 400 games the standard error of a fair
    mirror's win rate is about 2.2 points, so one of four fair mirrors would fall outside the
    band about every other run by chance alone; at 2,000 games it is about 1 point."""
    from armybuilder.core.playtest import load_sample, run_playtest, sample_names
    from armybuilder.core.registry import get_system

    system = get_system("ragnarok2")
    names = sample_names(system)
    armies = {n: load_sample(system, n) for n in names}
    mirrors = mirror_games if mirror_games is not None else 5 * games
    result = Credibility(games, names, mirrors)
    for a in names:
        result.matrix[a] = {}
        for b in names:
            summary = run_playtest(armies[a], armies[b], mirrors if a == b else games, seed=seed)
            result.matrix[a][b] = summary.win_rate
            if a != b:
                result.matrix_games += summary.games
                result.fray_games += summary.figure_games.get("frays", 0)
                for key, value in summary.figures.items():
                    phase = key[3:]
                    if key.startswith("ap ") and " " not in phase:
                        result.phase_ap[phase] = result.phase_ap.get(phase, 0.0) + value
    for n in names:
        army = armies[n]
        cat = system.catalogue_for(army)
        cut = cut_copy(army, cat)  # type: ignore[arg-type]
        result.cut[n] = run_playtest(army, cut, games, seed=seed).win_rate
        result.cut_points[n] = (
            float(system.points(army, cat).total),
            float(system.points(cut, cat).total),
        )
    return result
