"""The meta screen of the TUI: this list against a folder, driven with Textual's Pilot."""

from __future__ import annotations

import asyncio

from meta_lists import sample_folder
from screen_host import Host
from textual.widgets import DataTable, Input, Static

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.tui.screens.meta import MetaScreen


def test_meta_screen_plays_the_list_against_a_folder(tmp_path):
    asyncio.run(_drive(tmp_path))


async def _drive(tmp_path):
    folder = sample_folder(tmp_path / "club")
    (tmp_path / "club" / "notes.yaml").write_text("just: notes\n")  # unreadable as a list: left out
    system = get_system("ragnarok2")
    army = load_sample(system, sample_names(system)[0])
    screen = MetaScreen(system, army, system.catalogue_for(army), folder=str(folder))
    async with Host(screen).run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        screen.query_one("#mt-games", Input).value = "6"
        screen.query_one("#mt-workers", Input).value = "1"
        await pilot.click("#mt-run")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        matrix = screen.matrix
        assert matrix is not None and matrix.complete
        assert len(matrix.cols) == 4 and len(matrix.cells) == 4  # the folder's copy of the list too
        assert [x.path for x in matrix.left_out] == [str(folder / "notes.yaml")]
        table = screen.query_one("#mt-table", DataTable)
        assert table.row_count == 4
        mean = str(screen.query_one("#mt-mean", Static).render())
        assert "Against the folder" in mean and "Wilson" in mean and "24 games" in mean
        # a folder that is not one: a message, no crash
        screen.query_one("#mt-folder", Input).value = str(tmp_path / "nowhere")
        await pilot.click("#mt-run")
        await pilot.pause()
        assert "not a folder" in str(screen.query_one("#mt-message", Static).render())
