"""The engines' figures of ``armybuilder bench``: speed normalised by a reference workload.

Machines of one kind still differ (shared hosts, other tenants, clock steps), so a rate in games
per second says little on its own. Each run therefore times a **reference workload** (a function
adding the integers below 10 M in a plain ``for`` loop with a local accumulator, in this thread's
CPU time) and every engine's rate is printed **normalised**: games per second per core × the
reference's seconds, i.e. games per reference-loop-second. Two machines that differ only in speed
give the same normalised figure; the budgets of design.md are in that unit.

Each engine is measured in the build this process loads (compiled by mypyc or its .py sources,
``armybuilder._native``); when it runs compiled, its pure-Python path is measured as well, in a
child process started with ``ARMYBUILDER_PURE_PYTHON=1`` that times its own reference, so both
figures of one run stand side by side. ``python -m armybuilder.bench_engines SYSTEM GAMES`` is
that child: it prints one JSON object.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

REFERENCE_N = 10_000_000


def reference_workload(n: int = REFERENCE_N) -> int:
    """The reference: the integers below ``n`` added in a plain loop with a local accumulator."""
    total = 0
    for i in range(n):
        total += i
    return total


def reference_seconds(repeat: int = 3) -> list[float]:
    """This thread's CPU seconds for :func:`reference_workload`, one entry per repeat."""
    out = []
    for _ in range(repeat):
        start = time.thread_time()
        reference_workload()
        out.append(time.thread_time() - start)
    return out


@dataclass
class EngineRate:
    """One engine's measured speed over every ordered pairing of its system's samples."""

    system: str
    name: str
    games: int
    pairings: int
    samples: int
    cpu: float  # this thread's CPU seconds for the games
    wall: float
    slowest: float  # games per CPU second of the slowest pairing
    reference: float  # the reference workload's seconds (median), timed in the same process
    build: str  # "compiled (mypyc)" or "pure Python (why)"

    @property
    def rate(self) -> float:
        """Games per second per core (CPU time of the one thread that played them)."""
        return self.games / self.cpu if self.cpu > 0 else math.inf

    @property
    def normalised(self) -> float:
        """Games per reference-loop-second: :attr:`rate` × the reference's seconds."""
        return self.rate * self.reference


def measure_engine(system_id: str, games_total: int) -> EngineRate:
    """Play every ordered pairing of the system's samples (``games_total`` spread over them, at
    least 20 a pairing) in this thread, one worker, and time the reference around them."""
    from armybuilder._native import build_of
    from armybuilder.core.playtest import load_sample, run_playtest, sample_names
    from armybuilder.core.registry import get_system

    system = get_system(system_id)
    if not system.engine_ready():
        raise NotImplementedError("no simulator yet")
    armies = [load_sample(system, n) for n in sample_names(system)]
    if not armies:
        raise LookupError(f"{system_id} has no bundled sample")
    # "For the sample lists": every ordered pairing (a list against itself included), so one
    # easy pairing cannot hide a slow one.
    pairings = [(a, b) for a in armies for b in armies]
    per_pairing = max(20, games_total // len(pairings))
    reference = reference_seconds(3)
    # A per-core rate is a steady-state figure: the catalogue load, the engine's imports and a
    # list's templates happen once per process, so a few games warm them first.
    cpu = wall = 0.0
    slowest = math.inf
    for a, b in pairings:
        run_playtest(a, b, 3, seed=0, workers=1)
        start, start_wall = time.thread_time(), time.perf_counter()
        run_playtest(a, b, per_pairing, seed=1, workers=1)
        elapsed = time.thread_time() - start
        wall += time.perf_counter() - start_wall
        cpu += elapsed
        slowest = min(slowest, per_pairing / max(elapsed, 1e-9))
    reference += reference_seconds(2)  # before and after the games: a clock that moved shows
    package = system.engine_package
    build = build_of(package) if package else "pure Python (not compiled)"
    return EngineRate(
        system_id, system.name, per_pairing * len(pairings), len(pairings), len(armies), cpu, wall, slowest,
        statistics.median(reference), build,
    )


def measure_pure(system_id: str, games_total: int) -> EngineRate:
    """:func:`measure_engine` in a child process on the engine's .py sources."""
    env = dict(os.environ, ARMYBUILDER_PURE_PYTHON="1")
    out = subprocess.run(
        [sys.executable, "-m", "armybuilder.bench_engines", system_id, str(games_total)],
        capture_output=True, text=True, env=env, check=True, timeout=3600,
    )  # fmt: skip
    return EngineRate(**json.loads(out.stdout.strip().splitlines()[-1]))


def rate_note(found: EngineRate) -> str:
    return (
        f"{found.rate:,.0f} games/s per core × {found.reference:.3f} s; {found.games} games, {found.pairings} pairings "
        f"of {found.samples} samples, 1 worker, CPU time ({found.games / found.wall:,.0f}/s of wall time); "
        f"slowest pairing {found.slowest:,.0f}/s; engine {found.build}"
    )



Attempt = Callable[[str, str, str, Callable[[], "tuple[float, bool | None, str]"]], None]


def engine_figures(attempt: Attempt, quick: bool, as_json: bool) -> None:
    """The bench's engine lines: the reference workload, every engine's normalised rate (and its
    pure-Python rate beside a compiled one), then the credibility figures of every system."""
    from armybuilder.core.registry import all_systems

    games = 300 if quick else 2000
    references: list[float] = []

    def reference() -> tuple[float, bool | None, str]:
        times = reference_seconds(3)
        references.extend(times)
        return statistics.median(times), None, "the integers below 10 M added in a plain loop, this thread's CPU time, median of 3"

    attempt("reference workload (normalises the engines' rates)", "-", "s", reference)
    for system in all_systems():  # every registered system with a simulator, its own budget
        budget = system.playtest_budget
        verdict = f">= {budget}" if budget else "(none)"
        measured: dict[str, EngineRate] = {}

        def rate(system_id: str = system.id, budget: int | None = budget, measured: dict[str, EngineRate] = measured) -> tuple[float, bool | None, str]:
            found = measured["found"] = measure_engine(system_id, games)
            return found.normalised, (found.normalised >= budget) if budget else None, rate_note(found)

        attempt(f"playtest: {system.name} normalised rate", verdict, "games", rate)
        found = measured.get("found")
        if found is not None and found.build.startswith("compiled"):

            def pure(system_id: str = system.id, compiled: EngineRate = found) -> tuple[float, bool | None, str]:
                slow = measure_pure(system_id, games // 4)
                return slow.normalised, None, f"{rate_note(slow)}; compiled / pure: {compiled.normalised / slow.normalised:.2f}×"

            attempt(f"playtest: {system.name} normalised rate, pure Python", "-", "games", pure)
    for system in all_systems():
        if not (system.engine_ready() and system.has_cut_copy()):
            continue
        credible: dict[str, Any] = {}

        def mirror(system: Any = system, credible: dict[str, Any] = credible) -> tuple[float, bool | None, str]:
            from armybuilder.core.credibility import credibility

            credible["result"] = result = credibility(system, 100 if quick else 400)
            name, value = max(result.mirror.items(), key=lambda kv: (abs(kv[1] - 0.5), kv[0]))
            verdict = result.mirror_verdict(name)
            detail = f"furthest from 50 %: {name}, {result.mirror_games} games a mirror"
            return 100 * value, result.mirrors_ok(), detail + ("" if verdict == "ok" else f"; {verdict}")

        attempt(f"{system.name} mirror matches (worst of the samples)", "50 ± 3 %", "%", mirror)
        if "result" not in credible:
            continue

        def full_vs_cut(result: Any = credible["result"]) -> tuple[float, bool | None, str]:
            from armybuilder.core.credibility import CUT_TARGET

            name, value = min(result.cut.items(), key=lambda kv: (kv[1], kv[0]))
            return 100 * value, value >= CUT_TARGET, f"weakest: {name} against a copy with ~20 % of its {result.unit} removed"

        attempt(f"{system.name} full list vs cut copy (weakest sample)", ">= 65 %", "%", full_vs_cut)
        if not as_json:
            print("\n".join(credible["result"].lines()), flush=True)


def option_figures(attempt: Attempt, quick: bool, as_json: bool) -> None:
    """Every system's option study (``bench --options``): each option a player chooses, in a list
    built around it, used in how many games, and with against without it; 1,500 games an option
    (200 with --quick)."""
    from armybuilder.core.credibility import option_lines
    from armybuilder.core.registry import all_systems

    games, seed = (200 if quick else 1500), 5
    for system in all_systems():
        if not (system.engine_ready() and system.has_option_study()):
            continue
        found: dict[str, Any] = {}

        def study(system: Any = system, found: dict[str, Any] = found) -> tuple[float, bool | None, str]:
            figures = found["figures"] = system.option_study(games, seed)
            worst = min(figures, key=lambda f: (f.interval[1] if f.rate is not None else 1.0, f.option))
            bad = [f.option for f in figures if not f.ok]
            note = f"{len(figures)} options, {games} games each; lowest: {worst.label}" + (f"; not ok: {', '.join(bad)}" if bad else "")
            return 100.0 * (worst.rate or 0.0), not bad, note

        attempt(f"{system.name} options: with against without (lowest)", "interval holds 50 %", "%", study)
        if not as_json and "figures" in found:
            print("\n".join(option_lines(system.name, found["figures"], games, seed)), flush=True)


def main(argv: list[str]) -> int:
    system_id, games = argv[0], int(argv[1])
    print(json.dumps(asdict(measure_engine(system_id, games))))
    return 0


if __name__ == "__main__":  # the pure-Python measurement's child process
    raise SystemExit(main(sys.argv[1:]))
