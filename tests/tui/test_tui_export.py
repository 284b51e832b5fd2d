"""The export action renders in a worker thread, then names the file in a notification."""

from __future__ import annotations

import pytest

from armybuilder.tui.app import ArmyBuilderApp
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
