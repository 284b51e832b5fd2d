"""The odds panel and the playtest screen, driven with Textual's Pilot."""

from __future__ import annotations

import pytest
from screen_host import Host
from textual.widgets import Button, Input, Select, Static, TabbedContent
from tui_other_system import other_system  # tests are collected without packages

from armybuilder.core.checks import plural
from armybuilder.core.registry import get_system
from armybuilder.tui.screens.odds import SELF, OddsScreen, at_least_chart
from armybuilder.tui.screens.playtest import PlaytestScreen, histogram_text


def _r2_sample():
    from armybuilder.core.playtest import load_sample, sample_names

    system = get_system("ragnarok2")
    names = sample_names(system)
    army = load_sample(system, names[0])
    return system, army, system.catalogue_for(army), names


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _one_roll(screen, pilot) -> None:
    """Show the One roll tab (Rag'Narok 2 opens on the Fray tab)."""
    screen.query_one("#odds-tabs", TabbedContent).active = "tab-roll"
    await pilot.pause()
    await pilot.pause()
    assert screen.roll_ready


def test_at_least_chart_bars():
    chart = str(at_least_chart("Wounds", [0.25, 0.5, 0.25], 1.0))
    lines = chart.splitlines()
    assert "mean 1.00" in lines[0]
    assert lines[1].startswith("≥1") and "75.0%" in lines[1]
    assert lines[2].startswith("≥2") and "25.0%" in lines[2]
    assert lines[1].count("█") == round(0.75 * 30) and lines[2].count("█") == round(0.25 * 30)


def test_histogram_text_counts_every_game():
    text = str(histogram_text([-10, 0, 5, 5, 40], bins=5))
    counts = [int(line.rsplit(" ", 1)[1]) for line in text.splitlines()[1:]]
    assert sum(counts) == 5


async def test_odds_unit_against_sample_unit_both_directions():
    system, army, cat, names = _r2_sample()
    screen = OddsScreen(system, army, cat)
    async with Host(screen).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        assert not screen.roll_ready  # Rag'Narok 2 opens on the Fray tab; One roll is built when shown
        await _one_roll(screen, pilot)
        opponent = screen.query_one("#odds-opponent", Select)
        opponent.value = names[1]
        await pilot.pause()
        screen.query_one("#odds-mine", Select).value = 0
        await pilot.pause()
        theirs = screen.query_one("#odds-theirs", Select)
        assert theirs.value is not Select.NULL
        forward, backward = _text(screen, "#odds-forward"), _text(screen, "#odds-backward")
        assert "My unit attacks" in forward and "Their unit attacks" in backward
        assert "Wounds" in forward and "≥1" in forward and "≥1" in backward
        # The form now holds my unit's attack: the same exact numbers as the system's odds().
        other = screen.opponent()
        params = system.unit_odds_params(cat, army, 0, other, theirs.value)
        assert screen.query_one("#odds-p-attack", Input).value == str(params["attack"])
        mean = system.odds(cat, params).payload["wounds"]["mean"]
        assert f"mean {mean:.2f}" in forward


async def test_odds_free_form_and_bad_input(r2, cat=None):
    system = r2
    cat = system.catalogue()
    army = system.new_list(cat, faction="lions")
    screen = OddsScreen(system, army, cat)
    async with Host(screen).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        await _one_roll(screen, pilot)
        assert screen.query_one("#odds-opponent", Select).value == SELF
        values = {"attack": "4", "defense": "2", "strength": "5", "resistance": "3", "dice": "20"}
        for name, value in values.items():
            screen.query_one(f"#odds-p-{name}", Input).value = value
        await pilot.click("#odds-compute")
        await pilot.pause()
        assert "Attacks" in _text(screen, "#odds-forward")
        screen.query_one("#odds-p-dice", Input).value = "lots"
        screen.action_compute()  # (a second click right after the first may merge into a double click)
        await pilot.pause()
        assert "whole number" in _text(screen, "#odds-message")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, OddsScreen)


async def test_playtest_runs_in_a_worker_and_shows_statistics():
    system, army, cat, names = _r2_sample()
    screen = PlaytestScreen(system, army, cat)
    async with Host(screen).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        screen.query_one("#pt-games", Input).value = "40"
        screen.query_one("#pt-seed", Input).value = "7"
        screen.query_one("#pt-workers", Input).value = "1"
        await pilot.click("#pt-run")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        summary = screen.summary
        assert summary is not None and summary.games == 40 and not summary.cancelled
        assert summary.wins + summary.draws + summary.losses == 40
        text = _text(screen, "#pt-summary")
        assert f"wins {summary.wins}" in text and "Wilson" in text
        assert "Score margin" in _text(screen, "#pt-histogram")
        assert str(screen.query_one("#pt-progress").progress) in ("40", "40.0")
        assert not screen.query_one("#pt-run", Button).disabled


async def test_playtest_cancel_stops_early():
    system, army, cat, names = _r2_sample()
    screen = PlaytestScreen(system, army, cat)
    async with Host(screen).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        screen.query_one("#pt-games", Input).value = "100000"
        screen.query_one("#pt-workers", Input).value = "1"
        await pilot.click("#pt-run")
        await pilot.pause()
        await pilot.click("#pt-cancel")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.summary is not None and screen.summary.cancelled
        assert screen.summary.games < 100000
        assert "Cancelled" in _text(screen, "#pt-summary")


async def test_playtest_rejects_bad_numbers(r2):
    cat = r2.catalogue()
    army = r2.new_list(cat, faction="lions")
    screen = PlaytestScreen(r2, army, cat)
    async with Host(screen).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        screen.query_one("#pt-games", Input).value = "0"
        await pilot.click("#pt-run")
        await pilot.pause()
        assert "Games: between 1" in _text(screen, "#pt-message")
        assert screen.summary is None


@pytest.mark.parametrize("system_id", ["rattle-and-rend", "morpheus-ragnarok"])
async def test_screens_work_on_the_other_bundled_systems(system_id):
    """Odds (unit against unit, both ways) and a short playtest on a system other than Rag'Narok 2."""
    system, samples = other_system(system_id)
    from armybuilder.core.playtest import load_sample

    army = load_sample(system, samples[0][0].removesuffix(".yaml"))
    cat = system.catalogue_for(army)
    odds = OddsScreen(system, army, cat)
    async with Host(odds).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        odds.query_one("#odds-mine", Select).value = 0
        await pilot.pause()
        theirs = odds.query_one("#odds-theirs", Select).value
        assert isinstance(theirs, int)
        forward, backward = _text(odds, "#odds-forward"), _text(odds, "#odds-backward")
        assert forward.startswith("My unit attacks") and backward.startswith("Their unit attacks")
        params = system.unit_odds_params(cat, army, 0, odds.opponent(), theirs)
        charts = {k: v for k, v in system.odds(cat, params).payload.items() if isinstance(v, dict) and "pmf" in v}
        assert charts  # the panel charts the system's own exact odds: named outcomes or counts with their means
        for name, chart in charts.items():
            assert name.replace("_", " ").capitalize() in forward
            named = [(k, v) for k, v in chart.items() if k not in ("pmf", "mean") and isinstance(v, float)]
            if len(named) == len(chart["pmf"]):  # each outcome by its name, with its probability
                for outcome, p in named:
                    assert f"{outcome.replace('_', ' ')} " in forward and f"{p:6.1%}" in forward
            else:
                assert f"mean {chart['mean']:.2f}" in forward
    playtest = PlaytestScreen(system, army, cat)
    async with Host(playtest).run_test(size=(140, 50)) as pilot:
        await pilot.pause()
        playtest.query_one("#pt-games", Input).value = "6"
        playtest.query_one("#pt-workers", Input).value = "1"
        await pilot.click("#pt-run")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        summary = playtest.summary
        assert summary is not None and summary.games == 6 and summary.wins + summary.draws + summary.losses == 6
        text = _text(playtest, "#pt-summary")
        assert f"wins {summary.wins}" in text
        if system.scenarios(cat):  # each scenario's figure beside the overall one, by its name
            assert summary.scenarios
            for scenario in system.scenarios(cat):
                if scenario.value in summary.scenarios:
                    played = summary.scenarios[scenario.value]
                    assert f"{scenario.label} " in text and plural(played.games, "game") in text


async def test_editor_opens_both_screens(store, tmp_path):
    """The editor's o and t keys push these screens for the list being edited."""
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file

    system, samples = other_system("ragnarok2")
    target = tmp_path / "mine.yaml"
    target.write_bytes(samples[0][1].read_bytes())
    app = ArmyBuilderApp(open_file(target, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.action_odds()
        await pilot.pause()
        assert isinstance(app.screen, OddsScreen) and app.screen.army == editor.session.army
        await pilot.press("escape")
        await pilot.pause()
        editor.action_playtest()
        await pilot.pause()
        assert isinstance(app.screen, PlaytestScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor


async def test_playtest_with_two_workers_inside_the_running_app(store, tmp_path):
    """Issue 13: at its defaults (2 workers) the playtest failed inside Textual with
    "bad value(s) in fds_to_keep" (the process pool's resource tracker read Textual's
    stderr capture, whose fileno() is -1).  Workers chosen once are kept next time."""
    from multiprocessing import resource_tracker

    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file

    resource_tracker._resource_tracker._stop()  # as in a fresh editor: no tracker yet
    system, samples = other_system("ragnarok2")
    target = tmp_path / "mine.yaml"
    target.write_bytes(samples[0][1].read_bytes())
    app = ArmyBuilderApp(open_file(target, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.action_playtest()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlaytestScreen)
        assert screen.query_one("#pt-workers", Input).value == "2"
        screen.query_one("#pt-games", Input).value = "6"
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "failed" not in _text(screen, "#pt-message")
        assert screen.summary is not None and screen.summary.games == 6
        screen.query_one("#pt-workers", Input).value = "1"
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        app.screen.action_playtest()
        await pilot.pause()
        assert app.screen.query_one("#pt-workers", Input).value == "1"
        assert app.screen.query_one("#pt-games", Input).value == "6"


async def test_playtest_results_fit_80_and_120_columns_and_show_both_lists_points():
    """Issue 13: the per-unit table wrapped, names were cut without a mark, the column did not
    say whose, and nothing showed the two lists' points."""
    system, army, cat, names = _r2_sample()
    for width, height in ((80, 24), (120, 40)):
        screen = PlaytestScreen(system, army, cat)
        async with Host(screen).run_test(size=(width, height)) as pilot:
            await pilot.pause()
            screen.query_one("#pt-games", Input).value = "10"
            screen.query_one("#pt-workers", Input).value = "1"
            await pilot.press("ctrl+r")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            summary = _text(screen, "#pt-summary")
            histogram = _text(screen, "#pt-histogram")
            points = system.points(army, cat)
            assert f"{army.name}, {points.total:g}/{points.limit} A.P." in summary
            assert "Opponent's units" in summary and "foes/game" in summary
            for line in (summary + "\n" + histogram).splitlines():
                assert len(line) <= width - 2, (width, line)  # nothing wraps
            # every field and the Run button are on screen at 80×24
            for selector in ("#pt-opponent", "#pt-games", "#pt-seed", "#pt-workers", "#pt-run"):
                region = screen.query_one(selector).region
                assert region.right <= width and region.bottom <= height and region.height > 0, selector


async def test_odds_screen_at_80x24_keeps_labels_and_every_field_on_screen():
    """Issue 13: seven inputs lost their labels once filled, the last field and Compute were
    off-screen at 80×24, and percentages wrapped."""
    from textual.widgets import Label

    system, army, cat, names = _r2_sample()
    screen = OddsScreen(system, army, cat)
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _one_roll(screen, pilot)
        for p in screen.params:
            box = screen.query_one(f"#odds-p-{p.name}", Input)
            box.value = str(p.default if p.default is not None else 1)
            label = screen.query_one(f"#odds-l-{p.name}", Label)
            assert p.label in str(label.render())
            for widget in (box, label):
                assert widget.region.height > 0 and widget.region.bottom <= 24 and widget.region.right <= 80, p.name
        compute = screen.query_one("#odds-compute", Button)
        assert compute.region.height > 0 and compute.region.bottom <= 24
        await pilot.press("ctrl+r")
        await pilot.pause()
        for line in _text(screen, "#odds-forward").splitlines():
            assert len(line) <= 78, line
        assert "%" in _text(screen, "#odds-forward")
