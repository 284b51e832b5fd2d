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
