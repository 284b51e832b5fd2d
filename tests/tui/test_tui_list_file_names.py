"""A list's file name typed without ".yaml" gets it, and an existing file is never replaced
without asking (Pilot): the new-list form and the editor's save prompts."""

from __future__ import annotations

from textual.widgets import Input

from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.home import NewListScreen
from armybuilder.tui.screens.modals import Confirm
from armybuilder.tui.session import new_session


async def _new_list_form(app, pilot) -> NewListScreen:
    await pilot.pause()
    await pilot.press("n")
    await pilot.pause()
    form = app.screen
    assert isinstance(form, NewListScreen)
    return form


async def test_a_new_list_typed_without_its_extension_is_saved_as_yaml(r2, store, tmp_path):
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _new_list_form(app, pilot)
        box = form.query_one("#file", Input)
        box.value = str(tmp_path / "my-army")
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen), str(form.query_one("#form-error").render())
        assert app.screen.session.path == tmp_path / "my-army.yaml"
    assert not (tmp_path / "my-army").exists()
    assert load_list(tmp_path / "my-army.yaml").army.system == "ragnarok2"


async def test_a_new_list_never_replaces_an_existing_file_with_or_without_the_extension(r2, store, tmp_path):
    (tmp_path / "mine.yaml").write_text("precious: true\n", encoding="utf-8")
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _new_list_form(app, pilot)
        box = form.query_one("#file", Input)
        for typed in ("mine", "mine.yaml"):
            box.value = str(tmp_path / typed)
            box.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is form
            assert "exists already" in str(form.query_one("#form-error").render())
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "precious: true\n"


async def test_saving_a_new_list_under_a_bare_name_adds_the_extension_and_asks_before_replacing(r2, store, tmp_path):
    (tmp_path / "taken.yaml").write_text("precious: true\n", encoding="utf-8")
    session = new_session(r2, None, None, "Unnamed", None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.screen
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(tmp_path / "taken")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "exists already" in app.screen.body.plain
        await pilot.click("#cancel")
        await pilot.pause()
        assert (tmp_path / "taken.yaml").read_text(encoding="utf-8") == "precious: true\n"
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(tmp_path / "fresh")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is editor and not editor.session.dirty
        assert editor.session.path == tmp_path / "fresh.yaml"
    assert load_list(tmp_path / "fresh.yaml").army.name == "Unnamed"
    assert not (tmp_path / "fresh").exists()


async def test_the_file_name_follows_the_list_name_unless_typed(r2, store, tmp_path):
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await _new_list_form(app, pilot)
        name, file = form.query_one("#name", Input), form.query_one("#file", Input)
        name.focus()
        await pilot.press("ctrl+u", *"Griffin vanguard")
        await pilot.pause()
        assert file.value.endswith("/griffin-vanguard.yaml")
        file.focus()
        await pilot.press("ctrl+u")  # an emptied box: the name fills it again
        name.focus()
        await pilot.press("end", "s")
        await pilot.pause()
        assert app.screen is form and file.value.endswith("griffin-vanguards.yaml")
        file.value = str(tmp_path / "mine")  # a name of the player's own stays as typed
        name.focus()
        await pilot.press("end", "backspace")
        await pilot.pause()
        assert file.value == str(tmp_path / "mine")
        file.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
        assert app.screen.session.army.name == "Griffin vanguard"
    assert load_list(tmp_path / "mine.yaml").army.name == "Griffin vanguard"
