"""The cheap-to-paint pieces that keep keys fast: the key bar and the dialogs' backdrop.

They replace costlier Textual defaults (a Footer that remounts a widget per key on every
focus change; a dimmed backdrop re-tinted on every dialog repaint), so these tests pin
down that they still show what the defaults showed.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input
from tui_lists import DAWN_PATROL  # tests are collected without packages

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.modals import Menu
from armybuilder.tui.session import open_file
from armybuilder.tui.widgets.keybar import KeyBar
from armybuilder.tui.widgets.panels import ListTree

LIST = DAWN_PATROL


def _app(tmp_path: Path, store) -> ArmyBuilderApp:
    path = tmp_path / "dawn.yaml"
    path.write_text(LIST, encoding="utf-8")
    return ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)


async def test_key_bar_follows_the_focus_and_a_click_presses_the_key(r2, store, tmp_path):
    app = _app(tmp_path, store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        assert isinstance(app.focused, ListTree)
        shown = str(bar.render())
        assert "Add" in shown and "Remove" in shown and "Palette" in shown
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        assert "Add" not in str(bar.render())  # the tree's keys went with its focus
        await pilot.press("f2")
        await pilot.pause()
        assert "Add" in str(bar.render())
        # a click on "^p Palette" opens the palette, as the footer's keys did
        await pilot.click(KeyBar, offset=(2, 0))
        await pilot.pause()
        assert type(app.screen).__name__ == "CommandPalette"


async def test_dialog_backdrop_shows_changes_made_under_it(r2, store, tmp_path):
    app = _app(tmp_path, store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        app.push_screen(Menu("Pick", [("a", "first"), ("b", "second")]))
        await pilot.pause()
        assert "Dawn" in app.export_screenshot()  # the dimmed list shows behind the dialog
        editor.apply("", "rename-list", {"name": "Dusk raid"})
        await pilot.pause()
        shot = app.export_screenshot()
        assert "Dusk" in shot and "Dawn" not in shot
