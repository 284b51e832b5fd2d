"""Every dropdown (Select) shows its last row when the highlight reaches it, at 80×24 and
120×40: the pop-up stays on the screen, is scrolled to that row, and nothing covers it
(the findings panel once hid the rows the highlight moved into)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Select
from textual.widgets._select import SelectOverlay
from tui_lists import DAWN_PATROL  # tests are collected without packages

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.home import NewListScreen
from armybuilder.tui.session import open_file

SIZES = [(80, 24), (120, 40)]

LIST = DAWN_PATROL


async def _last_row_visible(pilot, select: Select) -> None:
    app = pilot.app
    select.focus()
    await pilot.pause()
    await pilot.press("enter")  # open the pop-up
    await pilot.pause()
    overlay = select.query_one(SelectOverlay)
    assert overlay.display, f"#{select.id} did not open"
    await pilot.press("end")
    await pilot.pause()
    where = f"#{select.id} at {app.size.width}×{app.size.height}"
    assert overlay.highlighted == overlay.option_count - 1, where
    region = overlay.region
    assert app.screen.region.contains_region(region), f"{where}: pop-up {region} leaves the screen"
    assert overlay.scroll_y == overlay.max_scroll_y, f"{where}: the last row is scrolled out of view"
    content = overlay.content_region
    for x in (content.x, content.right - 1):
        widget, _ = app.screen.get_widget_at(x, content.bottom - 1)
        assert widget is overlay or widget.parent is overlay, f"{where}: {type(widget).__name__} covers the pop-up's last row"
    await pilot.press("escape")
    await pilot.pause()


def _editor_app(tmp_path: Path, store) -> ArmyBuilderApp:
    path = tmp_path / "dawn.yaml"
    path.write_text(LIST, encoding="utf-8")
    return ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)


@pytest.mark.parametrize("size", SIZES)
async def test_edit_form_dropdowns(size, r2, store, tmp_path):
    app = _editor_app(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        for place, action_id in (("", "add-unit"), ("units[0]", "add-member")):
            action = next(a for a in editor.actions_at(place) if a.id == action_id)
            editor.run_edit(place, action)
            await pilot.pause()
            selects = list(app.screen.query(Select))
            assert selects, action_id
            for select in selects:
                await _last_row_visible(pilot, select)
            await pilot.press("escape")
            await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_filter_and_playtest_dropdowns(size, r2, store, tmp_path):
    app = _editor_app(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.action_filters()
        await pilot.pause()
        for select in list(app.screen.query(Select)):
            await _last_row_visible(pilot, select)
        await pilot.press("escape")
        await pilot.pause()
        editor.action_playtest()
        await pilot.pause()
        assert app.screen is not editor
        for select in list(app.screen.query(Select)):
            await _last_row_visible(pilot, select)


@pytest.mark.parametrize("size", SIZES)
async def test_new_list_dropdowns(size, r2, store):
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewListScreen)
        for select in list(app.screen.query(Select)):
            await _last_row_visible(pilot, select)
