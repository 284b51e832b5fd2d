"""The new-list form and the list settings take any positive point limit (Pilot)."""

from __future__ import annotations

from textual.widgets import Input

from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.home import HomeScreen, NewListScreen
from armybuilder.tui.screens.modals import ActionForm


async def test_new_list_with_an_own_limit_then_changed_in_the_settings(r2, store, tmp_path):
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewListScreen)
        form.query_one("#file", Input).value = str(tmp_path / "own.yaml")
        form.query_one("#limit", Input).value = "0"
        await pilot.click("#ok")
        await pilot.pause()
        assert app.screen is form  # refused, with the reason
        assert "point limit" in str(form.query_one("#form-error").render())
        limit = form.query_one("#limit", Input)
        limit.value = "1250"
        limit.focus()
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen), str(form.query_one("#form-error").render())
        assert editor.session.army.limit == 1250
        assert "0/1250" in str(editor.query_one("#status").render())
        assert load_list(tmp_path / "own.yaml").army.limit == 1250

        editor.open_edits_menu("", lambda a: a.id == "set-format")
        await pilot.pause()
        settings = app.screen
        assert isinstance(settings, ActionForm)
        box = settings.query_one("#p-limit", Input)
        assert box.value == "1250"  # the current value, not a placeholder
        box.value = "777"
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is editor and editor.session.army.limit == 777
        assert "0/777" in str(editor.query_one("#status").render())
