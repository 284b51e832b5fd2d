#!/usr/bin/env python3
"""How long armybuilder takes to start, whole processes timed the way hyperfine would time them.

    .venv/bin/python scripts/startup_times.py [--runs N] [--sample LIST]

Each command runs ``--runs`` times (default 10), the commands interleaved so that a change in
the machine's load touches them alike, after one unmeasured warm-up run each.  For each it
prints the least and the median wall time and the median CPU time (user + system of the child,
which a busy machine inflates less than the wall time), and the load average before and after:
the machine may be shared, and a figure means little without it.

The commands: a bare interpreter (the floor), ``armybuilder --help`` and ``--version``, and the
editor on a sample until it has drawn the list (``python -m armybuilder.tui.probe``, headless,
as ``armybuilder bench`` times it), once with the user cache kept, once with an empty
user cache in every run (a new user or a new machine: the catalogues come from the install's
prepared cache, ``python -m armybuilder.core.prepare``), and once more with neither (an install
that never ran the preparation: the catalogue's YAML is read).  Standard library only.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
SAMPLE = ROOT / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``argv``; a failed run stops the script."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="the list the editor opens")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    with tempfile.TemporaryDirectory(prefix="armybuilder-startup-") as scratch:
        warm_cache = Path(scratch) / "cache"
        base = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(warm_cache), "ARMYBUILDER_DATA_DIR": str(Path(scratch) / "data")}
        probe = [PYTHON, "-m", "armybuilder.tui.probe", str(args.sample)]
        # label -> (argv, a new user cache each run, the install's prepared catalogues ignored)
        commands: dict[str, tuple[list[str], bool, bool]] = {
            "python -c pass (a bare interpreter)": ([PYTHON, "-c", "pass"], False, False),
            "armybuilder --help": ([PYTHON, "-m", "armybuilder", "--help"], False, False),
            "armybuilder --version": ([PYTHON, "-m", "armybuilder", "--version"], False, False),
            "editor on a sample, to the drawn list": (probe, False, False),
            "the same, empty user cache every run": (probe, True, False),
            "the same, and no catalogue prepared": (probe, True, True),
        }
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        load_before = os.getloadavg()
        for run in range(args.runs + 1):
            for label, (argv, cold, unprepared) in commands.items():
                env = dict(base)
                if cold:
                    env["ARMYBUILDER_CACHE_DIR"] = tempfile.mkdtemp(dir=scratch, prefix="cold-")
                if unprepared:
                    env["ARMYBUILDER_PREPARED_DIR"] = ""
                measured = _timed(argv, env)
                if run:  # the first round warms the disk cache and the user cache
                    times[label].append(measured)
        load_after = os.getloadavg()
    print(f"{args.runs} runs each, interleaved; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")  # fmt: skip
    width = max(map(len, times))
    print(f"{'command':<{width}}  {'least wall':>10}  {'median wall':>11}  {'median CPU':>10}")
    for label, found in times.items():
        walls, cpus = [w for w, _ in found], [c for _, c in found]
        print(f"{label:<{width}}  {min(walls):>9.3f}s  {statistics.median(walls):>10.3f}s  {statistics.median(cpus):>9.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
