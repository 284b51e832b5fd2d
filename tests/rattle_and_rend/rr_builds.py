"""The two builds of the Rattle and Rend engine, for the tests that compare them
(see tests/native_parity.py)."""

from __future__ import annotations

from pathlib import Path

from native_parity import run_pure as _run_pure

from armybuilder._native import compiled as _compiled

GAME_MODULE = "armybuilder.systems.rattle_and_rend.engine.game"


def compiled() -> bool:
    """Is the compiled engine what this process imports?"""
    return _compiled("rattle-and-rend")


def run_pure(code: str) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python engine; its standard output."""
    return _run_pure(code, GAME_MODULE, Path(__file__).parent)
