"""The generic TUI odds panel and playtest screen, driven on a Morpheus war clan."""

from __future__ import annotations

import asyncio

from screen_host import Host
from textual.widgets import Input, Select, Static

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.systems.morpheus import SYSTEM
from armybuilder.tui.screens.odds import OddsScreen
from armybuilder.tui.screens.playtest import PlaytestScreen


def _sample():
    names = sample_names(SYSTEM)
    army = load_sample(SYSTEM, names[0])
    return army, SYSTEM.catalogue_for(army), names


def test_odds_warrior_against_sample_warrior():
    army, cat, names = _sample()

    async def drive() -> None:
        screen = OddsScreen(SYSTEM, army, cat)
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            screen.query_one("#odds-opponent", Select).value = names[1]
            await pilot.pause()
            screen.query_one("#odds-mine", Select).value = 0
            await pilot.pause()
            forward = str(screen.query_one("#odds-forward", Static).render())
            backward = str(screen.query_one("#odds-backward", Static).render())
            assert "My unit attacks" in forward and "Their unit attacks" in backward
            assert screen.query_one("#odds-p-attack", Input).value == "3"  # the Jarl's MA

    asyncio.run(drive())


def test_playtest_screen_runs_morpheus_games():
    army, cat, _ = _sample()

    async def drive() -> None:
        screen = PlaytestScreen(SYSTEM, army, cat)
        async with Host(screen).run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            screen.query_one("#pt-games", Input).value = "6"
            screen.query_one("#pt-seed", Input).value = "2"
            screen.query_one("#pt-workers", Input).value = "1"
            await pilot.click("#pt-run")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.summary is not None and screen.summary.games == 6

    asyncio.run(drive())
