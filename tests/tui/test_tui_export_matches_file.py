"""Exports from the editor match the file (issue 28, Deliver 1).

A roster printed with unsaved edits carried a fingerprint no file had, and the organiser's
check failed at the desk.  Now exporting with unsaved edits asks to save first, or prints
"UNSAVED — does not match any file" in place of the fingerprint, and says so.  The printed
fingerprint is read back from the PDF (pypdf) and compared with ``armybuilder fingerprint``
of the saved file, in another process, as the organiser runs it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader
from textual.widgets import Input

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.editor_files import EXPORT_KINDS, UNSAVED
from armybuilder.tui.screens.modals import Confirm, Menu, PathPrompt

FINGERPRINT = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b")


def cli_fingerprint(path: Path) -> str:
    env = {**os.environ, "ARMYBUILDER_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "armybuilder", "fingerprint", str(path)], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


async def _choose_export(app, pilot, kind: str) -> None:
    await pilot.press("x")
    await pilot.pause()
    assert isinstance(app.screen, Menu)
    app.screen.query_one("#menu").highlighted = [k for k, _ in EXPORT_KINDS].index(kind)
    await pilot.press("enter")
    await pilot.pause()


async def _type_path(app, pilot, path: Path) -> None:
    assert isinstance(app.screen, PathPrompt), app.screen
    app.screen.query_one("#path", Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


async def _finished(app, pilot) -> list[str]:
    await app.workers.wait_for_complete()
    await pilot.pause(0.1)
    return [str(n.message) for n in app._notifications]


async def test_exporting_an_edited_sample_saves_it_first_and_prints_the_file_s_fingerprint(store, tmp_path):
    app = ArmyBuilderApp(store=store, export_dir=tmp_path / "out", recovery_delay=3600, offer_recovery=False)
    saved, printed = tmp_path / "lions.yaml", tmp_path / "out" / "lions.pdf"
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_sample("ragnarok2", "alahan-lions.yaml")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        editor.apply("", "rename-list", {"name": "Lions at the desk"})
        await _choose_export(app, pilot, "roster")
        assert isinstance(app.screen, Confirm) and "Save before exporting" in app.screen.title_text
        await pilot.press("enter")  # the first button: save and export
        await pilot.pause()
        await _type_path(app, pilot, saved)  # a sample has no file yet: save as
        await _type_path(app, pilot, printed)
        messages = await _finished(app, pilot)
        assert not editor.session.dirty
    assert any(str(printed) in m and UNSAVED not in m for m in messages), messages
    text = pdf_text(printed)
    assert "Lions at the desk" in text and UNSAVED not in text
    assert set(FINGERPRINT.findall(text)) == {cli_fingerprint(saved)}


async def test_exporting_unsaved_edits_prints_unsaved_in_place_of_a_fingerprint(store, tmp_path):
    source = tmp_path / "lions.yaml"
    from armybuilder.core.registry import get_system

    item = dict(get_system("ragnarok2").source.samples())["alahan-lions.yaml"]
    source.write_bytes(item.read_bytes())
    from armybuilder.tui.session import open_file

    app = ArmyBuilderApp(open_file(source, store), store=store, export_dir=tmp_path / "out", recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.screen
        before = cli_fingerprint(source)
        editor.apply("", "rename-list", {"name": "Renamed, never saved"})
        await _choose_export(app, pilot, "roster")
        assert isinstance(app.screen, Confirm)
        await pilot.click("#unsaved")
        await pilot.pause()
        await _type_path(app, pilot, tmp_path / "out" / "renamed.pdf")
        messages = await _finished(app, pilot)
        assert editor.session.dirty
        await _choose_export(app, pilot, "summary-text")
        await pilot.click("#unsaved")
        await pilot.pause()
        await _type_path(app, pilot, tmp_path / "out" / "renamed.txt")
        await _finished(app, pilot)
    assert any(UNSAVED in m for m in messages), messages  # the toast says it too
    text = pdf_text(tmp_path / "out" / "renamed.pdf")
    assert UNSAVED.replace(" — ", " ") in text.replace(" — ", " ").replace("\n", " ") or UNSAVED in text
    assert not FINGERPRINT.findall(text), "an unsaved roster prints no fingerprint at all"
    summary = (tmp_path / "out" / "renamed.txt").read_text(encoding="utf-8")
    assert UNSAVED in summary and before not in summary and not FINGERPRINT.findall(summary)


async def test_the_one_page_summary_is_exported_from_the_editor_with_the_file_s_fingerprint(store, tmp_path):
    source = tmp_path / "host.yaml"
    from armybuilder.core.registry import get_system

    item = dict(get_system("ragnarok2").source.samples())["acheron-undead-host.yaml"]
    source.write_bytes(item.read_bytes())
    from armybuilder.tui.session import open_file

    app = ArmyBuilderApp(open_file(source, store), store=store, export_dir=tmp_path / "out", recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _choose_export(app, pilot, "summary")
        assert isinstance(app.screen, PathPrompt)  # nothing unsaved: no question
        assert app.screen.query_one("#path", Input).value.endswith("host-summary.pdf")
        await pilot.press("enter")
        await _finished(app, pilot)
    pdf = tmp_path / "out" / "host-summary.pdf"
    assert len(PdfReader(str(pdf)).pages) == 1
    assert set(FINGERPRINT.findall(pdf_text(pdf))) == {cli_fingerprint(source)}
