#!/usr/bin/env python3
"""How long a newcomer waits on this machine: from ``git clone`` to the editor, and to the tests.

    python3 scripts/fresh_clone_times.py [--source REPO] [--test]

Clones ``--source`` (default: this checkout's repository) into a temporary folder, then starts
``./scripts/run`` there in a tmux window of 120×40 and times until the editor has drawn the
sample list (its name on the screen), as a player would see it; with ``--test``, runs
``./scripts/test`` in the same clone afterwards and times it to its last line. The figures:
the clone, the setup and first screen, and the tests, in wall seconds, with the load average
before and after (a shared machine's load changes every figure).

What it does not control: pip's download cache (a machine that installed the dependencies
before downloads nothing; say so with the figure) and the machine's load. It leaves nothing
behind: the clone, its ``.venv`` and the tmux session are removed at the end. Standard library
and tmux only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "Lions of the dawn"  # the sample list's name, drawn by the editor once it has loaded it
LIMIT = 1800.0  # seconds: a setup that takes longer is reported as stuck


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def time_editor(clone: Path, session: str) -> float:
    """Seconds from ``./scripts/run`` to the drawn sample list, in a 120×40 tmux window."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARMYBUILDER_", "VIRTUAL_ENV"))}
    scratch = clone / ".fresh-user"
    env |= {"ARMYBUILDER_CACHE_DIR": str(scratch / "cache"), "ARMYBUILDER_DATA_DIR": str(scratch / "data")}
    exports = " ".join(f"{k}={v}" for k, v in env.items() if k.startswith("ARMYBUILDER_"))
    start = time.perf_counter()
    _tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", str(clone), f"env {exports} ./scripts/run")
    try:
        while time.perf_counter() - start < LIMIT:
            if MARKER in _tmux("capture-pane", "-p", "-t", session):
                return time.perf_counter() - start
            time.sleep(0.2)
        raise SystemExit(f"the editor did not draw the sample within {LIMIT:.0f} s")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(ROOT), help="the repository to clone (default: this one)")
    parser.add_argument("--test", action="store_true", help="also time ./scripts/test in the clone")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        parser.error("tmux is needed (the editor is timed in a real terminal)")
    folder = Path(tempfile.mkdtemp(prefix="armybuilder-fresh-"))
    clone = folder / "armybuilder"
    try:
        print(f"load average before: {_load()}")
        start = time.perf_counter()
        subprocess.run(["git", "clone", "--quiet", args.source, str(clone)], check=True)
        cloned = time.perf_counter() - start
        print(f"git clone: {cloned:.1f} s")
        editor = time_editor(clone, f"fresh-clone-{os.getpid()}")
        print(f"./scripts/run to the drawn sample list: {editor:.1f} s (from git clone: {cloned + editor:.1f} s)")
        if args.test:
            env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
            start = time.perf_counter()
            done = subprocess.run(["./scripts/test"], cwd=clone, env=env, capture_output=True, text=True)
            tests = time.perf_counter() - start
            last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
            print(f"./scripts/test to its last line: {tests:.1f} s (exit {done.returncode}: {last})")
        print(f"load average after: {_load()}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
