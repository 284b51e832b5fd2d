"""The export action renders in a worker thread, then names the file in a notification."""

from __future__ import annotations

import pytest

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor_files import EXPORT_KINDS
from armybuilder.tui.session import open_text

LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.0.0
format: 1000-ap
name: Export <b>&
people: lions
units:
  - troops: {profile: spearman, count: 10}
    members:
      - {profile: captain, commander_in_chief: true}
"""


async def _export(app, pilot, kind: str) -> str:
    from armybuilder.tui.screens.editor import EditorScreen

    editor = app.screen
    assert isinstance(editor, EditorScreen)
    editor.export(kind)
    await app.workers.wait_for_complete()
    await pilot.pause(0.1)
    messages = [n.message for n in app._notifications]
    return messages[-1]


async def test_text_roster_export(r2, store, tmp_path):
    session = open_text(LIST, "list.yaml", tmp_path / "mine.yaml", store)
    app = ArmyBuilderApp(session, store=store, export_dir=tmp_path / "out", recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        message = await _export(app, pilot, "text")
    out = tmp_path / "out" / "mine.txt"
    assert str(out) in message
    text = out.read_text(encoding="utf-8")
    assert "Export <b>&" in text
    from armybuilder.core.lists import list_fingerprint

    assert list_fingerprint(session.army, session.cat) in text


@pytest.mark.parametrize("kind,name", [("roster", "mine.pdf"), ("roster-cards", "mine-cards.pdf"), ("sheets", "ragnarok2-sheets.pdf")])
async def test_pdf_exports(kind, name, r2, store, tmp_path):
    session = open_text(LIST, "list.yaml", tmp_path / "mine.yaml", store)
    app = ArmyBuilderApp(session, store=store, export_dir=tmp_path / "out", recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        message = await _export(app, pilot, kind)
    out = tmp_path / "out" / name
    assert str(out) in message, message
    assert out.read_bytes().startswith(b"%PDF")


async def test_a_failing_export_is_reported_not_raised(r2, store, tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    session = open_text(LIST, "list.yaml", tmp_path / "mine.yaml", store)
    app = ArmyBuilderApp(session, store=store, export_dir=blocker, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        message = await _export(app, pilot, "text")
        assert app.is_running
    assert message.startswith("export failed")


async def test_export_dialog_shows_the_full_path_lets_the_folder_change_and_remembers_it(r2, store, tmp_path):
    """Issue 13: the menu said only "exports folder" and offered no other place; exported
    files were created 0600.  Now the full target is shown and editable, the folder is
    remembered, and files get the user's normal permissions (umask)."""
    import os

    from textual.widgets import Input

    from armybuilder.tui.screens.modals import Menu, PathPrompt

    session = open_text(LIST, "list.yaml", tmp_path / "mine.yaml", store)
    app = ArmyBuilderApp(session, store=store, export_dir=tmp_path / "out", recovery_delay=60)
    elsewhere = tmp_path / "elsewhere"
    old_mask = os.umask(0o022)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            assert isinstance(app.screen, Menu) and str(tmp_path / "out") in app.screen.subtitle
            app.screen.query_one("#menu").highlighted = [k for k, _ in EXPORT_KINDS].index("text")
            await pilot.press("enter")
            await pilot.pause()
            prompt = app.screen
            assert isinstance(prompt, PathPrompt)
            box = prompt.query_one("#path", Input)
            assert box.value == str((tmp_path / "out" / "mine.txt").resolve())
            box.value = str(elsewhere / "mine.txt")
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause(0.1)
            assert any(
                str(elsewhere / "mine.txt") in str(n.message) for n in app._notifications
            )
            # the next export proposes the folder chosen last time
            assert app.screen.export_target("roster").parent == elsewhere.resolve()
    finally:
        os.umask(old_mask)
    written = elsewhere / "mine.txt"
    assert written.is_file()
    assert written.stat().st_mode & 0o777 == 0o644  # not 0600


def test_new_lists_never_default_to_the_program_s_folder(tmp_path, monkeypatch):
    from armybuilder.tui import prefs

    monkeypatch.chdir(prefs.program_folder())
    monkeypatch.setattr("platformdirs.user_documents_dir", lambda: str(tmp_path / "Documents"))
    assert prefs.lists_dir(tmp_path / "data") == tmp_path / "Documents" / "armybuilder"
    monkeypatch.chdir(tmp_path)
    assert prefs.lists_dir(tmp_path / "data") == tmp_path
    prefs.put("lists_dir", str(tmp_path), tmp_path / "data")
    monkeypatch.chdir(prefs.program_folder())
    assert prefs.lists_dir(tmp_path / "data") == tmp_path  # the folder saved into last
