"""The code base stays clean under the project's ruff configuration (pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    out = subprocess.run([str(ruff), "check", "--no-cache", "armybuilder", "tests"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing():
    """mypy with the project's configuration (pyproject.toml): strict on core/, checked elsewhere.

    Every module is checked, the battle engines included (mypyc compiles them from the same
    types); the test toy system is checked as a package.
    """
    mypy = Path(sys.executable).with_name("mypy")
    out = subprocess.run([str(mypy)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
