"""Nothing lost: saves that respect other writers, per-session recovery copies, save-as asks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.modals import Confirm, PathPrompt
from armybuilder.tui.session import new_session, open_file

LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.1.0
format: 1000-ap
name: On disk   # a comment
people: lions
"""


@pytest.fixture
def list_file(tmp_path, r2) -> Path:
    path = tmp_path / "shared.yaml"
    path.write_text(LIST, encoding="utf-8")
    return path


def _someone_else_renames(path: Path, name: str) -> None:
    other = open_file(path)
    other.apply("", "rename-list", {"name": name})
    other.save()


async def test_a_save_over_someone_elses_change_asks_and_can_reload(list_file, store):
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("", "rename-list", {"name": "Mine"})
        _someone_else_renames(list_file, "Theirs")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "changed on disk" in app.screen.body.plain
        assert load_list(list_file).army.name == "Theirs"  # nothing written yet
        await pilot.click("#reload")
        await pilot.pause()
        assert app.screen is editor and editor.session.army.name == "Theirs"
        assert not editor.session.dirty
        await pilot.press("ctrl+z")  # my edit is still there
        assert editor.session.army.name == "Mine"
        await pilot.press("ctrl+s")  # the file is now the one we reloaded: no question
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
    assert load_list(list_file).army.name == "Mine"
    assert "# a comment" in list_file.read_text(encoding="utf-8")


async def test_overwrite_and_save_elsewhere(list_file, store, tmp_path):
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("", "rename-list", {"name": "Mine"})
        _someone_else_renames(list_file, "Theirs")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.click("#elsewhere")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path").value = str(tmp_path / "copy.yaml")
        await pilot.press("enter")
        await pilot.pause()
        assert load_list(tmp_path / "copy.yaml").army.name == "Mine"
        assert load_list(list_file).army.name == "Theirs"
        # now bound to the copy; a change to the original no longer matters, one to the copy does
        _someone_else_renames(tmp_path / "copy.yaml", "Third")
        editor.apply("", "rename-list", {"name": "Mine 2"})
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.click("#overwrite")
        await pilot.pause()
        assert not editor.session.dirty
    assert load_list(tmp_path / "copy.yaml").army.name == "Mine 2"


async def test_save_as_asks_before_replacing_a_file(list_file, store, tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text("precious: true\n", encoding="utf-8")
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.action_save_as()
        await pilot.pause()
        app.screen.query_one("#path").value = str(other)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "exists already" in app.screen.body.plain
        await pilot.click("#cancel")
        await pilot.pause()
        assert other.read_text(encoding="utf-8") == "precious: true\n"
        editor.action_save_as()
        await pilot.pause()
        app.screen.query_one("#path").value = str(other)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.click("#replace")
        await pilot.pause()
    assert load_list(other).army.name == "On disk"


async def test_two_editors_keep_separate_recovery_copies(list_file, store):
    """A crashes with an edit, B quits without saving: A's edit survives."""
    a = open_file(list_file, store)
    b = open_file(list_file, store)
    a.apply("", "rename-list", {"name": "A's edit"})
    b.apply("", "rename-list", {"name": "B's edit"})
    a.write_recovery()
    b.write_recovery()
    assert a.recovery_key != b.recovery_key
    b.discard_recovery()  # B closes without saving
    (left,) = store.recoveries_for(list_file)
    assert left.key == a.recovery_key and left.session == a.session_id
    assert "A's edit" in left.file.read_text(encoding="utf-8")


async def test_every_dead_sessions_copy_is_offered(list_file, store):
    for name in ("First crash", "Second crash"):
        s = open_file(list_file, store)
        s.apply("", "rename-list", {"name": name})
        s.write_recovery()
        time.sleep(0.01)
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "1 more unsaved" in app.screen.body.plain
        await pilot.click("#keep")  # not now: the next one is offered
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.click("#recover")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.session.army.name == "First crash"
    assert len(store.recoveries(include_live=True)) == 2  # none was deleted behind our back


async def test_recovered_copy_asks_if_the_file_changed_since_the_crash(list_file, store):
    crashed = open_file(list_file, store)
    crashed.apply("", "rename-list", {"name": "Before the crash"})
    crashed.write_recovery()
    _someone_else_renames(list_file, "Saved by another editor")
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        await pilot.click("#recover")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "changed on disk" in app.screen.body.plain
    assert load_list(list_file).army.name == "Saved by another editor"


async def test_recovery_copy_is_written_within_a_second_off_the_ui_thread(list_file, store):
    app = ArmyBuilderApp(open_file(list_file, store), store=store)  # the default delay
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("", "rename-list", {"name": "Edit 1"})
        # edits keep coming: a debounce would never write, the coalesced timer does
        for i in range(2, 8):
            await pilot.pause(0.12)
            editor.apply("", "rename-list", {"name": f"Edit {i}"})
        await app.workers.wait_for_complete()
        (copy,) = store.recoveries()
        assert "Edit " in copy.file.read_text(encoding="utf-8")
        await pilot.pause(0.6)
        await app.workers.wait_for_complete()
        assert "Edit 7" in store.recoveries()[0].file.read_text(encoding="utf-8")


async def test_new_list_save_asks_before_replacing(r2, store, tmp_path):
    taken = tmp_path / "scratch.yaml"
    taken.write_text("precious: true\n", encoding="utf-8")
    app = ArmyBuilderApp(new_session(r2, "lions", None, "Scratch", None, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("#path").value = str(taken)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.click("#cancel")
        await pilot.pause()
    assert taken.read_text(encoding="utf-8") == "precious: true\n"


async def test_copies_of_other_lists_are_announced_at_start(list_file, store, tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(LIST.replace("On disk", "Other"), encoding="utf-8")
    crashed = open_file(other, store)
    crashed.apply("", "rename-list", {"name": "Unsaved other"})
    crashed.write_recovery()
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)  # nothing to offer for this file
        assert any("1 unsaved copy of other lists" in n.message for n in app._notifications)
