"""The odds screen's drop-downs show their choices whole at 80×24 and 120×40, in every
system, on the sample whose unit names are the longest (Pilot): the chosen value and every
row of the open pop-up a whole choice, none cut with "…"."""

from __future__ import annotations

import pytest
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import open_text

SYSTEMS = ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok")


def _rows(app, region) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return [strips[y].crop(region.x, region.right).text.rstrip() for y in range(region.y, region.bottom)]


def _longest_names_sample(system):
    def longest(pair):
        rel, item = pair
        session = open_text(item.read_text(encoding="utf-8"), rel, None, None)
        return max((len(c.label) for c in system.odds_units(session.army, session.cat)), default=0)

    return max(system.source.samples(), key=longest)


@pytest.mark.parametrize("size", ((80, 24), (120, 40)), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_odds_dropdowns_show_their_choices_whole(system_id, size, store):
    system = get_system(system_id)
    rel, item = _longest_names_sample(system)
    session = open_text(item.read_text(encoding="utf-8"), rel, None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
    opened = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause(0.3)
        for tab in ("ctrl+f", "ctrl+o"):
            await pilot.press(tab)
            await pilot.pause(0.3)
            for select in list(app.screen.query(Select)):
                if not select.display or not select.region.area:
                    continue
                where = f"{rel} #{select.id} at {size}"
                assert all("…" not in row for row in _rows(app, select.region)), f"{where}: {_rows(app, select.region)}"
                select.expanded = True
                await pilot.pause(0.1)
                overlay = select.query_one(SelectOverlay)
                rows = [row.strip() for row in _rows(app, overlay.content_region)]
                labels = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
                for row in filter(None, rows):
                    assert row in labels, f"{where}: {row!r} is no whole choice of {labels}"
                opened += 1
                select.expanded = False
                await pilot.pause(0.05)
        await app.workers.wait_for_complete()
    assert opened >= 3


@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_the_odds_footer_shows_its_keys_whole_at_80_columns(system_id, store):
    """Once the fray is computed, every key the footer offers is drawn whole at 80×24 (a
    key cut to "^" is no key); ctrl+f and ctrl+o, the tabs, among them."""
    system = get_system(system_id)
    rel, item = system.source.samples()[0]
    session = open_text(item.read_text(encoding="utf-8"), rel, None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        footer = app.screen.query_one("Footer")
        line = _rows(app, footer.region)[0]
        shown = [b for b in app.screen.active_bindings.values() if b.binding.show and b.enabled]
        assert any(b.binding.key == "ctrl+f" for b in shown)
        for active in shown:
            key = app.get_key_display(active.binding)
            assert f"{key} {active.binding.description}" in line, (line, key, active.binding.description)
