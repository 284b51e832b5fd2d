"""The editor loses nothing: its exports ask before replacing a file (in stronger words when
that file is the list), and a save over a FIFO or on a full disk says "not saved" at once,
the file as it was."""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.modals import Confirm, PathPrompt
from armybuilder.tui.session import open_file

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
    path = tmp_path / "mine.yaml"
    path.write_text(LIST, encoding="utf-8")
    return path


async def _export_to(app, pilot, path: Path) -> None:
    editor = app.screen
    assert isinstance(editor, EditorScreen)
    editor.ask_export_path("text")
    await pilot.pause()
    assert isinstance(app.screen, PathPrompt)
    app.screen.query_one("#path").value = str(path)
    await pilot.press("enter")
    await pilot.pause()


async def test_exporting_over_the_list_asks_and_cancel_keeps_it(list_file, store):
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _export_to(app, pilot, list_file)
        assert isinstance(app.screen, Confirm) and app.screen.title_text == "Replace a list file?"
        assert "a list being read" in app.screen.body.plain
        await pilot.click("#cancel")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert isinstance(app.screen, EditorScreen)
    assert list_file.read_text(encoding="utf-8") == LIST


async def test_exporting_over_another_yaml_or_an_existing_file_asks_first(list_file, store, tmp_path):
    other = tmp_path / "friend.yaml"
    other.write_text(LIST, encoding="utf-8")
    old_text = tmp_path / "old.txt"
    old_text.write_text("an older roster\n", encoding="utf-8")
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _export_to(app, pilot, other)
        assert isinstance(app.screen, Confirm) and "the kind lists are kept in" in app.screen.body.plain
        await pilot.click("#other")  # another name: the path prompt again
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path").value = str(old_text)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and app.screen.title_text == "Replace the file?"
        await pilot.click("#replace")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause(0.1)
    assert other.read_text(encoding="utf-8") == LIST
    assert old_text.read_text(encoding="utf-8").splitlines()[-1].startswith("Fingerprint: ")


async def test_a_new_export_file_is_written_without_a_question(list_file, store, tmp_path):
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _export_to(app, pilot, tmp_path / "new.txt")
        await app.workers.wait_for_complete()
        await pilot.pause(0.1)
        assert isinstance(app.screen, EditorScreen)
    assert (tmp_path / "new.txt").is_file()


async def _save_and_read_notice(app, pilot) -> str:
    await pilot.press("ctrl+s")
    for _ in range(50):  # a save that blocked would never get here
        await pilot.pause(0.02)
        notes = [str(n.title) + ": " + str(n.message) for n in app._notifications]
        if notes:
            return notes[-1]
    raise AssertionError("no notification after saving")


async def test_saving_over_a_file_replaced_by_a_fifo_does_not_freeze(list_file, store):
    app = ArmyBuilderApp(open_file(list_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "rename-list", {"name": "Mine"})
        list_file.unlink()
        os.mkfifo(list_file)
        notice = await asyncio.wait_for(_save_and_read_notice(app, pilot), timeout=20)
        assert notice.startswith("not saved") and "not a regular file" in notice
        assert app.screen.session.dirty  # the edit is still there to save elsewhere


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mounting a small tmpfs needs root (tests/core/test_core_full_disk.py covers the rest)")
async def test_saving_a_hard_linked_list_on_a_full_disk_says_not_saved_and_keeps_it(store, tmp_path, r2):
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", f"ab-{uuid.uuid4().hex[:8]}", str(disk)], capture_output=True).returncode:
        pytest.skip("this machine does not let the test mount a tmpfs")
    try:
        path = disk / "mine.yaml"
        path.write_text(LIST, encoding="utf-8")
        os.link(path, disk / "link.yaml")
        app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=60)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.screen.apply("", "rename-list", {"name": "Mine " + "x" * 100})
            with open(disk / "filler", "wb") as filler:
                try:
                    filler.write(b"\0" * (1 << 20))
                except OSError:
                    pass
            notice = await _save_and_read_notice(app, pilot)
            assert notice.startswith("not saved") and "the disk is full" in notice and "unchanged" in notice
        assert path.read_text(encoding="utf-8") == LIST == (disk / "link.yaml").read_text(encoding="utf-8")
        assert load_list(path).army.name == "On disk"
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


async def test_the_meta_screen_shows_hostile_names_escaped(tmp_path):
    """The meta screen's title and table carry the lists' names: escaped as everywhere."""
    import re

    from hostile_lists import write_hostile
    from screen_host import Host
    from textual.widgets import Input

    from armybuilder.core.registry import get_system
    from armybuilder.tui.screens.meta import MetaScreen

    system = get_system("ragnarok2")
    samples = [Path(str(item)) for _, item in system.source.samples()]
    club = tmp_path / "club"
    for number, sample in enumerate(samples[:2]):
        write_hostile(sample, "text", club, f"{number}-")
    army = load_list(write_hostile(samples[0], "text", tmp_path, "mine-")).army
    screen = MetaScreen(system, army, system.catalogue_for(army), folder=str(club))
    async with Host(screen).run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        screen.query_one("#mt-games", Input).value = "2"
        screen.query_one("#mt-workers", Input).value = "1"
        await pilot.click("#mt-run")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.matrix is not None and len(screen.matrix.cells) == 2
        output = pilot.app.screen._compositor.render_full_update().render_segments(pilot.app.console)
    output = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output)  # Textual's own sequences
    output = re.sub(r"\x1b]8;[^\x1b]*\x1b\\\\", "", output)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", output)
    assert "\\x1b]52;c;" in output
