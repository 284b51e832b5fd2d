"""A registered game system and its bundled samples for the TUI tests; a broken one fails.

Imported by basename (``from tui_other_system import other_system``), never from
the conftest: when pytest is given several test folders, ``conftest`` names
whichever folder's conftest was loaded last.
"""

from __future__ import annotations

import pytest

from armybuilder.core import registry


def other_system(system_id: str):
    """A registered system with its bundled samples; a system that does not load, or has
    no sample, fails the test (a half-written system is a bug, never a skip)."""
    system = registry.get_system(system_id)
    system.catalogue()
    samples = system.source.samples()
    if not samples:
        pytest.fail(f"{system_id} has no bundled sample")
    return system, samples
