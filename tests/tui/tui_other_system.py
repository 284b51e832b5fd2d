"""The other registered game systems for the TUI tests, or a clean skip.

Imported by basename (``from tui_other_system import other_system``), never from
the conftest: when pytest is given several test folders, ``conftest`` names
whichever folder's conftest was loaded last.
"""

from __future__ import annotations

import pytest

from armybuilder.core import registry


def other_system(system_id: str):
    """A registered system with a bundled sample, or skip the test cleanly."""
    try:
        system = registry.get_system(system_id)
        system.catalogue()
        samples = system.source.samples()
    except Exception as exc:  # noqa: BLE001 - the package may not exist yet
        pytest.skip(f"{system_id} is not loadable here: {type(exc).__name__}: {exc}")
    if not samples:
        pytest.skip(f"{system_id} has no bundled sample")
    return system, samples
