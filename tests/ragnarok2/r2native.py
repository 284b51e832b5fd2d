"""Whether this process plays with the compiled (mypyc) Rag'Narok 2 engine, for the tests.

Tests that instrument the engine by replacing its functions or methods (monkeypatch) see the
pure-Python engine only: compiled code calls its own functions directly, not through the
module or class attribute a test replaces. Those tests are marked :data:`pure_engine_only`;
tests/ragnarok2/test_r2_native_parity.py ties the compiled build to the pure one, game for game.
"""

from __future__ import annotations

import importlib

import pytest


def engine_compiled() -> bool:
    """The Rag'Narok 2 engine in this process is the compiled build (the build's own switch when
    it exists, else where the battle module was loaded from)."""
    try:
        native = importlib.import_module("armybuilder._native")
    except ImportError:
        native = None
    compiled = getattr(native, "compiled", None)
    if compiled is not None:
        return bool(compiled("ragnarok2"))
    from armybuilder.systems.ragnarok2.engine import battle

    return not (battle.__file__ or "").endswith(".py")


_skip_when_compiled = pytest.mark.skipif(
    engine_compiled(),
    reason="instruments the engine with monkeypatch, which compiled code does not see; "
    "./scripts/test runs these again on the pure-Python engine (-m pure_engine), and "
    "test_r2_native_parity ties both builds",
)


def pure_engine_only(test):  # type: ignore[no-untyped-def]
    """Skipped on the compiled engine; marked ``pure_engine`` for ./scripts/test's second pass,
    which runs the marked tests with ARMYBUILDER_PURE_PYTHON=1."""
    return pytest.mark.pure_engine(_skip_when_compiled(test))
