"""The test suite never touches the user's own data folder (preferences, recent lists)."""

from __future__ import annotations

from pathlib import Path

from armybuilder.tui import prefs
from armybuilder.tui.storage import data_dir


def test_preferences_written_by_a_test_land_in_a_temporary_folder(tmp_path):
    prefs.put("playtest", {"games": 6, "seed": 2, "workers": 1})
    assert data_dir().is_relative_to(tmp_path)
    assert not data_dir().is_relative_to(Path.home())
    assert prefs.get("playtest") == {"games": 6, "seed": 2, "workers": 1}
