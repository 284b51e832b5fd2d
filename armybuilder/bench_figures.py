"""Measurements behind ``armybuilder bench``'s start-up, odds and memory figures.

Kept apart from :mod:`armybuilder.bench` (which orders, prints and judges the
figures) so that each stays small.  Every function returns a
:class:`~armybuilder.bench_timing.Measured`: the value, its verdict and its repeats.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from armybuilder.bench_timing import Measured, paired_runs, times


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def paired_process(cmd: list[str], budget_s: float, repeat: int) -> Measured:
    """Median wall time of a whole command, with the bare interpreter of the same run.

    The note adds the minimum and the CPU time: on a shared machine the wall time
    waits for the cores, the CPU time is the command's own work.
    """
    runs = paired_runs(cmd, repeat)
    value = statistics.median(runs.mine)
    note = (f"whole process (min {_ms(min(runs.mine))} ms, CPU {_ms(statistics.median(runs.mine_cpu))} ms); "
            f"bare interpreter {_ms(statistics.median(runs.bare))} ms in the same run")
    return Measured(value, value < budget_s, note, runs.mine)


def ratio_to_bare(cmd: list[str], budget: float, repeat: int) -> Measured:
    """A command's whole-process time over a bare interpreter start, paired repeat by repeat."""
    runs = paired_runs(cmd, repeat)
    ratios = [m / b for m, b in zip(runs.mine, runs.bare, strict=True)]
    value = statistics.median(ratios)
    cpu_ratio = statistics.median(m / b for m, b in zip(runs.mine_cpu, runs.bare_cpu, strict=True) if b > 0) if any(runs.bare_cpu) else 0.0
    note = (f"medians {_ms(statistics.median(runs.mine))} ms against {_ms(statistics.median(runs.bare))} ms; "
            f"minima {_ms(min(runs.mine))} against {_ms(min(runs.bare))} ms; CPU time {cpu_ratio:.1f}×")
    return Measured(value, value <= budget, note, ratios)


_CATALOGUE_PROBE = (
    "import sys, time\n"
    "from armybuilder.core.registry import get_system\n"
    "system = get_system(sys.argv[1])\n"
    "system.catalog_model\n"
    "import armybuilder.core.construct, platformdirs\n"
    "start, cpu = time.perf_counter(), time.process_time()\n"
    "system.catalogue()\n"
    "print(time.perf_counter() - start, time.process_time() - cpu)\n"
)


def cached_catalogue_load(system_id: str, repeat: int) -> Measured:
    """Seconds to load a cached catalogue in a fresh process (the cache is warmed first).

    The catalogue's model classes and the loader's modules are imported before the clock starts:
    a system imports them lazily (``validate`` never needs pydantic), and this line times the
    cache, not the imports (~3 ms more on first use).
    The note adds the CPU time of the same loads: on a busy machine the wall time also counts
    the waits for a core."""
    cmd = [sys.executable, "-c", _CATALOGUE_PROBE, system_id]
    subprocess.run(cmd, capture_output=True, check=True)
    samples, cpu = [], []
    for _ in range(repeat):
        wall_s, cpu_s = subprocess.run(cmd, capture_output=True, check=True, text=True).stdout.split()
        samples.append(float(wall_s) * 1000)
        cpu.append(float(cpu_s) * 1000)
    value = statistics.median(samples)
    note = (f"fresh process, cache warm, no validation; CPU median {statistics.median(cpu):.1f} ms "
            f"(min {min(cpu):.1f})")
    return Measured(value, value < 10.0, note, samples)


# --------------------------------------------------------------------------- odds


ODDS_PARAMS = {"attack": 5, "defense": 3, "strength": 6, "resistance": 5, "attack_shift": 0, "wound_shift": 0}


def _ours(system: Any, cat: Any, dice: int, repeat: int) -> list[float]:
    """Seconds of one whole odds request (maths, payload and text) through the protocol.

    The calculator keeps no cache (armybuilder.odds): every call computes."""
    params = {**ODDS_PARAMS, "dice": dice}
    system.odds(cat, params)
    return times(lambda: system.odds(cat, params), repeat, 20)


def _icepool_die(column: Any, depth: int) -> Any:
    """One die's successes as an icepool Die: the re-roll chain cut after ``depth`` re-rolls.

    Exact integer weights; ``depth`` is chosen so that the cut mass (6**-depth at
    most) is below the 1e-12 the project's pmfs keep.
    """
    import icepool

    faces = range(2, 7)  # a natural 1 fails and never re-rolls
    succ_chain = sum(1 for f in faces if f >= column.success and f >= column.reroll_from)
    fail_chain = sum(1 for f in faces if f < column.success and f >= column.reroll_from)
    succ_stop = sum(1 for f in faces if f >= column.success and f < column.reroll_from)
    fail_stop = 6 - succ_chain - fail_chain - succ_stop
    live: dict[int, int] = {0: 1}
    done: dict[int, int] = {}
    for k in range(depth + 1):
        scale = 6 ** (depth - k)
        step: dict[int, int] = {}
        for s, w in live.items():
            done[s + 1] = done.get(s + 1, 0) + w * succ_stop * scale
            done[s] = done.get(s, 0) + w * fail_stop * scale
            if k < depth:
                step[s + 1] = step.get(s + 1, 0) + w * succ_chain
                step[s] = step.get(s, 0) + w * fail_chain
        live = step
    return icepool.Die({s: w for s, w in done.items() if w})


def icepool_combat(columns: Any, dice: int) -> tuple[Any, Any]:
    """The same combat in icepool, written its fast way: one die's law, sums with ``@``."""
    import icepool

    from armybuilder.odds.ragnarok2 import column

    attack = column(columns, ODDS_PARAMS["attack"] - ODDS_PARAMS["defense"])
    wound = column(columns, ODDS_PARAMS["strength"] - ODDS_PARAMS["resistance"])
    if attack.halved or wound.halved:
        raise NotImplementedError("the icepool comparison covers plain columns")
    a_die, w_die = _icepool_die(attack, 16), _icepool_die(wound, 16)
    per_attack_die = a_die.map(lambda k: k @ w_die)
    del icepool
    return dice @ a_die, dice @ per_attack_die


#: icepool's side of one comparison, in a process of its own: it is stopped after a budget
#: of CPU time (ITIMER_PROF), which is then a lower bound of what it would have taken
_ICEPOOL_PROBE = (
    "import json, signal, sys, time\n"
    "from armybuilder.bench_figures import icepool_combat\n"
    "from armybuilder.odds.ragnarok2 import columns_of\n"
    "rows, dice, limit, length = json.loads(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])\n"
    "class Late(Exception):\n"
    "    pass\n"
    "def late(*_):\n"
    "    raise Late\n"
    "signal.signal(signal.SIGPROF, late)\n"
    "start = time.process_time()\n"
    "signal.setitimer(signal.ITIMER_PROF, limit)\n"
    "try:\n"
    "    attacks, wounds = icepool_combat(columns_of(rows), dice)\n"
    "    signal.setitimer(signal.ITIMER_PROF, 0)\n"
    "except Late:\n"
    "    print(json.dumps({'late': limit}))\n"
    "    sys.exit(0)\n"
    "seconds = time.process_time() - start\n"
    "pmfs = {n: [float(d.probability(k)) for k in range(length)] for n, d in (('attacks', attacks), ('wounds', wounds))}\n"
    "print(json.dumps({'seconds': seconds, **pmfs}))\n"
)


def _icepool_seconds(rows: Any, dice: int, payload: dict[str, Any], limit_s: float) -> tuple[float, bool]:
    """(CPU seconds of icepool's combat, whether it finished); its pmfs must be ours."""
    length = max(len(payload["attacks"]["pmf"]), len(payload["wounds"]["pmf"])) + 3
    out = subprocess.run(
        [sys.executable, "-c", _ICEPOOL_PROBE, json.dumps(rows), str(dice), str(limit_s), str(length)],
        capture_output=True, check=True, text=True,
    ).stdout
    answer = json.loads(out.strip().splitlines()[-1])
    if "late" in answer:
        return float(answer["late"]), False
    for name in ("attacks", "wounds"):
        pmf = payload[name]["pmf"]
        worst = max(abs(p - (pmf[k] if k < len(pmf) else 0.0)) for k, p in enumerate(answer[name]))
        if worst > 1e-9:
            raise LookupError(f"icepool and the project disagree on the {name} at {dice} dice ({worst:.1e})")
    return float(answer["seconds"]), True


def odds_against_icepool(dice_counts: tuple[int, ...], repeat: int, icepool_limit_s: float) -> Measured:
    """How many times faster the project's exact odds are than icepool's, at each dice count.

    One figure, the smallest ratio; the note gives every count.  Ours: the fastest of
    ``repeat`` whole odds requests (wall time, 20 calls each); icepool's: the CPU time of its
    combat (the same laws, checked value by value) in a process of its own, stopped after
    ``icepool_limit_s`` of CPU time, in which case the ratio is a lower bound (``≥``).
    Without icepool installed: the project's milliseconds alone."""
    from armybuilder.core.registry import get_system
    from armybuilder.systems.ragnarok2.engine.odds import odds_tables

    system = get_system("ragnarok2")
    cat = system.catalogue()
    ours = {dice: min(_ours(system, cat, dice, repeat)) for dice in dice_counts}
    try:
        import icepool  # noqa: F401 - optional: the comparison needs it
    except ImportError:
        shown = ", ".join(f"{d}: {t * 1000:.3f} ms" for d, t in ours.items())
        return Measured(max(ours.values()) * 1000, None, f"icepool not installed (pip install icepool to compare); "
                        f"the project alone: {shown}", [t * 1000 for t in ours.values()], unit="ms")
    rows = odds_tables(cat)
    ratios, parts = [], []
    for dice, mine in ours.items():
        payload = system.odds(cat, {**ODDS_PARAMS, "dice": dice}).payload
        theirs, finished = _icepool_seconds(rows, dice, payload, icepool_limit_s)
        ratios.append(theirs / mine)
        parts.append(f"{dice}: {'' if finished else '≥'}{theirs / mine:,.0f}× ({mine * 1000:.2f} ms / "
                     f"{theirs * 1000:,.0f} ms{'' if finished else ' and still running'})")
    note = "dice: ratio (ours / icepool CPU); " + "; ".join(parts) + "; same pmfs"
    value = min(ratios)
    return Measured(value, value >= 30, note, ratios)


# --------------------------------------------------------------------------- memory


_PLAYTEST_PROBE = (
    "import json, resource, sys\n"
    "from armybuilder.bench import _sample\n"
    "from armybuilder.core.playtest import run_playtest\n"
    "first = _sample('ragnarok2')[0].army\n"
    "summary = run_playtest(first, first, int(sys.argv[1]), seed=1, workers=int(sys.argv[2]))\n"
    "own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps([summary.games, own, workers]))\n"
)


def playtest_peak_memory(games: int, workers: int) -> tuple[float, str]:
    """Peak resident memory (MiB) of a playtest process and of its largest worker."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _PLAYTEST_PROBE, str(games), str(workers)],
        capture_output=True, check=True, text=True, env={**os.environ},
    ).stdout
    played, own_kib, worker_kib = json.loads(out.strip().splitlines()[-1])
    if played != games:
        raise LookupError(f"the playtest stopped after {played} games")
    elapsed = time.perf_counter() - start
    peak = (own_kib + worker_kib) / 1024
    return peak, f"{games:,} Rag'Narok 2 games on {workers} workers in {elapsed:.0f} s: main {own_kib / 1024:.0f} MiB + worker {worker_kib / 1024:.0f} MiB"

