"""The help as drawn at 80×24 and 120×40: every word of ``help_text`` and, where a key's
words wrap, the next line under the words, never under the keys (Pilot)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.modals import HelpScreen, help_rows, help_text
from armybuilder.tui.session import new_session


@pytest.mark.parametrize("size", ((80, 24), (120, 40)), ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_help_wraps_under_the_words_of_each_key(size, r2, store):
    app = ArmyBuilderApp(new_session(r2, None, None, "Help", None, store), store=store, recovery_delay=3600)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one(Static)
        lines = [strip.text.rstrip() for strip in body.render_lines(body.region.reset_offset)]
        drawn = " ".join(" ".join(lines).split())
        assert drawn == " ".join(help_text(app).split())  # the same words, in the same order
        titles = {title for title, _ in help_rows(app)} | {"armybuilder — keys"}
        mouse = "Mouse: click to focus and select; click again to act; scroll wheels work."
        for line in lines:
            if line and not line.startswith(" "):  # at the left edge: a title or the mouse note
                assert line in titles or line in mouse, line
        wrapped = [line for line in lines if line.startswith(" " * 13) and line.strip()]
        assert wrapped or size[0] >= 120  # at 80 columns some words wrap, under the words
