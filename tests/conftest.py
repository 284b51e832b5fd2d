"""Root of the test tree: makes the helper modules shared across test folders importable.

Tests are collected without packages (no ``__init__.py``), so a test or a conftest
imports a helper module by its basename.  Helpers shared by several folders live
here in tests/ (``synthetic_r2.py``), helpers of one folder in that folder, each
under a name no other module of the tree uses; a conftest is never imported by
name, since several folders each have one.
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# The toy fourth game system (tests/toysystem): registered in one line, it then runs
# through the CLI, TUI, PDF and shared system tests like the bundled ones.
from armybuilder.core import registry  # noqa: E402

registry.register("toy-pit", "toysystem")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path, monkeypatch):
    """Every test's remembered preferences, recent lists and recovery copies go to a temporary
    folder: a screen test outside tests/tui (Morpheus, meta) once wrote its 6 games / 1 worker
    into the real user's preferences, which the editor then offered as its defaults."""
    from armybuilder.tui.storage import DATA_ENV

    monkeypatch.setenv(DATA_ENV, str(tmp_path / "userdata"))


_SESSION_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The catalogue and findings caches of a test run live in a folder of its own: two
    checkouts of different code testing on one machine never read each other's entries,
    and none reads the catalogues prepared at install."""
    import os
    import tempfile

    # the install's prepared catalogues stay out of the tests' way (a cold start is tested
    # as such); tests/core/test_core_prepare.py sets a folder of its own
    os.environ.setdefault("ARMYBUILDER_PREPARED_DIR", "")
    if "ARMYBUILDER_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="armybuilder-test-cache-")
        _SESSION_CACHE.append(folder)
        os.environ["ARMYBUILDER_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    for folder in _SESSION_CACHE:
        os.environ.pop("ARMYBUILDER_CACHE_DIR", None)
        shutil.rmtree(folder, ignore_errors=True)
