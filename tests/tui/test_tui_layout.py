"""A layout that fits (issue 28, Deliver 6): the catalogue shows a profile's name whole at 120
columns, dialog titles fit, messages never cover a control, the samples stay in view at
80×24 beside ten recent lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList
from textual.widgets._toast import Toast

from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.modals import HelpScreen, PathPrompt
from armybuilder.tui.session import open_text


def _sample_session(system_id: str, store):
    rel, item = get_system(system_id).source.samples()[0]
    return open_text(item.read_text(encoding="utf-8"), rel, None, store)


def _controls(screen):
    return [w for w in screen.query("*") if w.focusable and w.region.area]


@pytest.mark.parametrize("system_id", ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"])
async def test_the_catalogue_shows_every_name_whole_at_120_columns(system_id, store):
    system = get_system(system_id)
    longest = max(len(e.name) for e in system.browse(system.catalogue()))
    app = ArmyBuilderApp(_sample_session(system_id, store), store=store, recovery_delay=3600)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        entries = app.screen.query_one("#entries", OptionList)
        assert entries.scrollable_content_region.width >= longest, (entries.scrollable_content_region.width, longest)
        lines = [entries.render_line(y).text for y in range(entries.size.height)]
        # each entry starts a line with its whole name (its cost and kind may take a second line)
        starts = iter(lines)
        for entry in app.screen.query_one("#browser").shown[: len(lines) // 2]:
            assert any(line.lstrip().startswith(entry.name) for line in starts), (entry.name, lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_catalogue_entry_breaks_between_words_never_inside_its_cost(size, store):
    app = ArmyBuilderApp(_sample_session("ragnarok2", store), store=store, recovery_delay=3600)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        entries = app.screen.query_one("#entries", OptionList)
        text = "\n".join(entries.render_line(y).text.strip() for y in range(entries.size.height))
        for entry in app.screen.query_one("#browser").shown[:5]:
            assert str(entry.cost) in text  # "44 A.P." on one line, whatever the width
        assert "…" not in text


async def test_dialog_titles_fit_at_80_columns(store):
    app = ArmyBuilderApp(_sample_session("ragnarok2", store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.ask_export_path("roster-cards")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        title = prompt.query_one(".dialog-title")
        shown = " ".join(title.render_line(y).text.strip() for y in range(title.size.height))
        assert prompt.title_text in shown, shown


async def test_messages_never_cover_a_control(store):
    app = ArmyBuilderApp(_sample_session("ragnarok2", store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        for _ in range(3):
            app.notify("a message long enough to need its whole line and then some more words to wrap " * 2, timeout=30)
        await pilot.pause(0.3)
        for screen_check in ("editor", "help"):
            if screen_check == "help":
                await pilot.press("question_mark")
                await pilot.pause(0.3)
                assert isinstance(app.screen, HelpScreen)
                app.notify("one more message, on the help", timeout=30)
                await pilot.pause(0.3)
            toasts = [t.region for t in app.screen.query(Toast) if t.region.area]
            assert toasts, screen_check
            for control in _controls(app.screen):
                for toast in toasts:
                    assert not control.region.overlaps(toast), (screen_check, control, control.region, toast)


async def test_the_samples_stay_in_view_at_80x24_beside_ten_recent_lists(store, tmp_path: Path):
    for i in range(10):
        path = tmp_path / f"list-{i}.yaml"
        path.write_text("x", encoding="utf-8")
        store.remember(path, f"My list number {i}", "ragnarok2")
    app = ArmyBuilderApp(store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        samples = app.screen.query_one("#home-samples", OptionList)
        assert samples.region.right <= 80 and samples.region.bottom <= 24
        assert samples.option_count <= samples.scrollable_content_region.height  # every sample in view
        every = sum(len(get_system(s).source.samples()) for s in ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok"))
        ids = [samples.get_option_at_index(i).id for i in range(samples.option_count)]
        assert sum(1 for i in ids if i) >= every
        texts = " ".join(samples.get_option_at_index(i).prompt.plain for i in range(samples.option_count))
        assert "Lions of the dawn" in texts and "alahan-lions" not in texts  # names, not file ids
        recent = app.screen.query_one("#home-menu", OptionList)
        assert sum(1 for i in range(recent.option_count) if (recent.get_option_at_index(i).id or "").startswith("recent:")) == 10
