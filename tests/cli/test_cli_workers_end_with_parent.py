"""A killed ``meta`` or ``playtest`` does not leave its worker processes playing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill_and_watch(argv: list[str], tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-m", "armybuilder", *argv], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:  # the pool's two workers
            time.sleep(0.2)
            workers = {p for p in _children(parent.pid) if "python" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")}
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)  # into their tasks
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if _alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"workers {left} outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_killed_meta_ends_its_workers(tmp_path):
    _kill_and_watch(["meta", str(SAMPLES), "--games", "3000", "--workers", "2", "-o", str(tmp_path / "m.pdf")], tmp_path)


def test_a_killed_playtest_ends_its_workers(tmp_path):
    lions = SAMPLES / "alahan-lions.yaml"
    _kill_and_watch(["playtest", str(lions), "--vs", "acheron-undead-host", "--games", "100000", "--workers", "2"], tmp_path)
