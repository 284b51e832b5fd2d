"""The status bar wraps between items, never with "│" at the start of a line, and shows
every item at 80×24 and 120×40 on every bundled sample (Pilot)."""

from __future__ import annotations

import pytest

from armybuilder.core.registry import get_system
from armybuilder.core.system import StatusItem
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import open_text
from armybuilder.tui.widgets.panels import STATUS_SEPARATOR, status_text

SYSTEMS = ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok")


def test_a_wrapped_line_starts_with_an_item_never_with_the_separator():
    items = [StatusItem(f"Item{i}", "12/34", True) for i in range(8)]
    text = status_text(items, [("catalogue 1.1.0", "dim")], width=40)
    lines = text.plain.split("\n")
    assert len(lines) > 1
    for line in lines:
        assert len(line) <= 40 and not line.startswith(("│", " ")) and not line.endswith(("│", " "))
    assert [p for line in lines for p in line.split(STATUS_SEPARATOR)] == [f"Item{i} 12/34" for i in range(8)] + ["catalogue 1.1.0"]
    assert "\n" not in status_text(items, width=None).plain  # no width: one line, as before


@pytest.mark.parametrize("size", ((80, 24), (120, 40)), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_the_status_bar_of_every_sample_shows_whole_items(system_id, size, store):
    system = get_system(system_id)
    for rel, item in system.source.samples():
        session = open_text(item.read_text(encoding="utf-8"), rel, None, store)
        app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            bar = app.screen.query_one("#status")
            region = bar.content_region
            strips = app.screen._compositor.render_strips()
            lines = [strips[y].crop(region.x, region.right).text.rstrip() for y in range(region.y, region.bottom)]
            lines = [line for line in lines if line]
            wanted = [i.label + " " + i.value for i in system.status(session.army, session.cat)]
            shown = [p.strip() for line in lines for p in line.split(STATUS_SEPARATOR.strip())]
            for line in lines:
                assert not line.lstrip().startswith("│"), f"{rel} at {size}: {lines}"
            for piece in wanted + [f"catalogue {session.army.catalogue}"]:
                assert piece in shown, f"{rel} at {size}: {piece!r} missing or cut in {lines}"
