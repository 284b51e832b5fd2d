"""The Suggest screen (g in the editor), driven with Textual's Pilot: a real run in a worker with
its progress bar, the confirmed suggestions in words, one applied as an undoable edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from screen_host import Host
from textual.widgets import Button, DataTable, Input, ProgressBar, Select, Static

from armybuilder.core.lists import ListFile, load_list
from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.suggest import SuggestScreen
from armybuilder.tui.session import open_file

SYSTEM = "morpheus-ragnarok"
#: the Jarl's Ulfbert removed: she fights with fists, 65 Glory unspent (tests/suggest's proof plant)
DISARMED = [("warriors[0].equipment[2]", "remove-equipment", {})]


def _sample(name: str) -> Path:
    return Path(str(dict(get_system(SYSTEM).source.samples())[f"{name}.yaml"]))


def _disarmed(folder: Path) -> Path:
    lf = load_list(_sample("ravens-of-hrafnsey"))
    army = lf.army
    for path, action, args in DISARMED:
        army, _ = lf.system.apply(army, lf.system.catalogue_for(army), path, action, args)
    target = folder / "disarmed.yaml"
    ListFile(None, lf.doc, lf.system, army).save(target)
    return target


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _run(pilot, screen, games: str, seed: str, field: str | None = None) -> None:
    if field is not None:
        screen.query_one("#sg-field", Select).value = "folder"
        await pilot.pause()
        screen.query_one("#sg-folder", Input).value = field
    screen.query_one("#sg-games", Input).value = games
    screen.query_one("#sg-seed", Input).value = seed
    screen.query_one("#sg-workers", Input).value = "1"
    await pilot.click("#sg-run")
    await pilot.pause()


async def test_g_runs_suggestions_and_applies_one_as_an_undoable_edit(store, tmp_path):
    """32 games a list against one opponent, seed 1 (about 1,300 games): the disarmed Jarl is offered
    a weapon; applying it is one edit that ctrl+z takes back."""
    app = ArmyBuilderApp(open_file(_disarmed(tmp_path), store), store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        before = editor.session.army
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SuggestScreen)
        assert screen.query_one("#sg-folder", Input).disabled  # the samples are the field until a folder is chosen
        await _run(pilot, screen, "32", "1", field=str(_sample("wolves-of-the-fjord")))
        await app.workers.wait_for_complete()
        await pilot.pause()
        run = screen.run
        assert run is not None and run.played > 0
        bar = screen.query_one("#sg-progress", ProgressBar)
        assert bar.total == bar.progress == run.played  # the bar counted every game it planned
        shown = [s for s in run.steps[0].suggestions if s.confirmed]
        table = screen.query_one("#sg-table", DataTable)
        assert shown and table.row_count == len(shown)
        first = table.get_row_at(0)
        assert first[5].plain == shown[0].neighbour.edit.words and "Jarl" in first[5].plain
        assert first[1].startswith(f"{shown[0].standing.confirmed.mean:+.1%}") and "→" in first[2] and "Glory" in first[3]
        assert "legal edits raced against 1 opponent," in _text(screen, "#sg-message")
        assert " a game" in _text(screen, "#sg-units")  # the units behind the gain
        assert not screen.query_one("#sg-apply", Button).disabled

        await pilot.press("a")
        await pilot.pause()
        assert app.screen is editor
        assert editor.session.army == shown[0].neighbour.army  # the suggested list, one edit away
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.session.army == before


async def test_cancel_stops_the_run_and_says_so():
    lf = load_list(_sample("ravens-of-hrafnsey"))
    screen = SuggestScreen(lf.system, lf.army, lf.system.catalogue_for(lf.army), path=None)
    async with Host(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _run(pilot, screen, "100000", "1")
        await pilot.click("#sg-cancel")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.run is None and "cancelled" in _text(screen, "#sg-message")
        assert not screen.query_one("#sg-run", Button).disabled


@pytest.mark.parametrize(("games", "field", "said"), [
    ("0", None, "Games: between 1"),
    ("8", "no-such-folder", "no such folder or file"),
])
async def test_bad_input_is_said_and_nothing_runs(games, field, said, tmp_path):
    lf = load_list(_sample("ravens-of-hrafnsey"))
    screen = SuggestScreen(lf.system, lf.army, lf.system.catalogue_for(lf.army), path=None)
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _run(pilot, screen, games, "1", field=None if field is None else str(tmp_path / field))
        assert said in _text(screen, "#sg-message") and not screen.running and screen.run is None


async def test_an_illegal_list_is_refused_with_the_reason(tmp_path):
    lf = load_list(_sample("ravens-of-hrafnsey"))
    army = lf.army
    for path in ("warriors[7]", "warriors[6]"):  # too few warriors for the format
        army, _ = lf.system.apply(army, lf.system.catalogue_for(army), path, "remove-warrior", {})
    screen = SuggestScreen(lf.system, army, lf.system.catalogue_for(army), path=None)
    async with Host(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _run(pilot, screen, "8", "1")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "not legal" in _text(screen, "#sg-message") and screen.run is None
