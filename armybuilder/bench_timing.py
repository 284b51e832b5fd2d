"""How ``armybuilder bench`` times things: repeats, whole processes paired with a bare
interpreter start, and whether the machine is free enough for a figure to mean anything.

The lowest layer of the bench: :mod:`armybuilder.bench` (which orders, prints and judges
the figures) and :mod:`armybuilder.bench_figures` (the measurements) both build on it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass
class Measured:
    """What a figure's measurement returns: value, verdict, note and its repeats."""

    value: float
    ok: bool | None
    note: str = ""
    samples: Sequence[float] = ()
    unit: str | None = None  # when the figure is not in the line's usual unit (e.g. ms, not a ratio)


#: above this (max - min) / median, the repeats disagree too much to trust the median
UNSTEADY_SPREAD = 0.5
#: a calibration loop taking this much more wall time than CPU time: another program had the core
STARVED_RATIO = 1.25


def spread(samples: Sequence[float]) -> float | None:
    if len(samples) < 2:
        return None
    middle = statistics.median(samples)
    return (max(samples) - min(samples)) / middle if middle else None


def calibration_ratio() -> float:
    """Wall time over CPU time of a short pure-Python loop (1.0 on a free core)."""
    ratios = []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        total = 0
        for i in range(150_000):
            total += i * i
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        ratios.append(wall / cpu if cpu > 0 else 1.0)
    return min(ratios)


def machine_busy() -> str:
    """Why the machine is too busy for timings to mean much, or "" when it is free."""
    reasons = []
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0] / cores
        if load > 1.0:
            reasons.append(f"load {load:.1f} per core")
    except OSError:
        pass
    ratio = calibration_ratio()
    if ratio > STARVED_RATIO:
        reasons.append(f"calibration loop got {1 / ratio:.0%} of a core")
    return ", ".join(reasons)


def times(fn: Callable[[], object], repeat: int, number: int = 1) -> list[float]:
    """Seconds per call of ``fn`` (``number`` calls per repeat), one entry per repeat."""
    found = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        found.append((time.perf_counter() - start) / number)
    return found


def median_time(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    return statistics.median(times(fn, repeat, number))


def child_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a whole command: on a shared machine the CPU time
    says how much work the command did, the wall time how long its user waited."""
    cpu, start = child_cpu(), time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=False, env=env)
    return time.perf_counter() - start, child_cpu() - cpu


def run(cmd: list[str], env: dict[str, str] | None = None) -> float:
    return run_timed(cmd, env)[0]


@dataclass
class Paired:
    """Whole-process times of a command and of a bare interpreter, repeat by repeat."""

    mine: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    mine_cpu: list[float] = field(default_factory=list)
    bare_cpu: list[float] = field(default_factory=list)


def paired_runs(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> Paired:
    """The command and a bare interpreter start, interleaved so both see the same load."""
    bare = [sys.executable, "-c", "pass"]
    run(cmd, env)  # warm caches (catalogue cache, file system)
    runs = Paired()
    for _ in range(repeat):
        wall, cpu = run_timed(bare, env)
        runs.bare.append(wall)
        runs.bare_cpu.append(cpu)
        wall, cpu = run_timed(cmd, env)
        runs.mine.append(wall)
        runs.mine_cpu.append(cpu)
    return runs


def paired(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[list[float], list[float]]:
    """(command times, bare interpreter times), interleaved so both see the same load."""
    runs = paired_runs(cmd, repeat, env)
    return runs.mine, runs.bare
