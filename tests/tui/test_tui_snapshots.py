"""SVG snapshots of the key screens (pytest-textual-snapshot).

Regenerate after an intended visual change with ``--snapshot-update`` and look at
the SVGs before committing them.
"""

from __future__ import annotations

import pytest

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import open_text

LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.0.0
format: 1000-ap
name: Lions [bold]of[/] the <dawn> & co
people: lions
units:
  - name: Spear wall
    troops: {profile: spearman, count: 10}
    members:
      - {profile: captain, commander_in_chief: true}
      - {profile: musician}
  - troops: {profile: knight, count: 4}
  - troops: {profile: knight, count: 4}
tactics: [wall]
"""


@pytest.fixture
def editor_app(r2, store):
    return ArmyBuilderApp(open_text(LIST, "lions.yaml", None, store), store=store, recovery_delay=3600)


def test_snapshot_home(r2, store, snap_compare, monkeypatch):
    import armybuilder.tui.screens.home as home

    monkeypatch.setattr(home, "loadable_systems", lambda: [r2])
    assert snap_compare(ArmyBuilderApp(store=store), terminal_size=(80, 24))


def test_snapshot_editor_80x24(editor_app, snap_compare):
    assert snap_compare(editor_app, terminal_size=(80, 24))


def test_snapshot_editor_160x48(editor_app, snap_compare):
    async def select_captain(pilot):
        pilot.app.screen.query_one("#tree").goto("units[0].members[0]")
        pilot.app.screen.show_detail_for_tree()
        await pilot.pause()

    assert snap_compare(editor_app, terminal_size=(160, 48), run_before=select_captain)
