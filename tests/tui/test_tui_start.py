"""What the editor's start loads and how it leaves memory, in a fresh process.

The first paint needs the editor's panels only: dialogs, the home screen, the engine
screens, PDF export and the engines load when first used (tests/tui/* exercise them
there). The garbage collector, paused while the program starts, is on again once the
list is drawn, with the start's objects frozen out of its view. Each check runs the
bench's own start-up probe (or ``armybuilder.tui.run``) in a child process: in this one,
other tests have long since imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tui_lists import DAWN_PATROL  # tests are collected without packages

from armybuilder.core.catalog import catalog_root

NOT_AT_START = (
    "armybuilder.tui.screens.modals",
    "armybuilder.tui.screens.home",
    "armybuilder.tui.screens.odds",
    "armybuilder.tui.screens.playtest",
    "armybuilder.tui.screens.meta",
    "armybuilder.tui.commands",
    "armybuilder.pdf",
    "armybuilder.meta",
    "armybuilder.systems.ragnarok2.engine",
    "textual.widgets._text_area",
    "textual.document",
    "textual.widgets._markdown",
    "numpy",
    "reportlab",
    "pygments",
    "markdown_it",
    "tree_sitter",
)


def _child(code: str, tmp_path: Path) -> dict:
    env = {**os.environ, "ARMYBUILDER_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _sample(tmp_path: Path) -> Path:
    source = Path(str(catalog_root())) / "ragnarok2" / "samples" / "alahan-lions.yaml"
    target = tmp_path / "lions.yaml"
    target.write_bytes(source.read_bytes())
    return target


def test_the_first_paint_loads_only_the_editor(tmp_path):
    path = _sample(tmp_path)
    seen = _child(
        "import gc, json, sys\n"
        "from armybuilder.tui.probe import probe\n"
        f"probe({str(path)!r})\n"
        "print(json.dumps({'modules': sorted(sys.modules), 'collecting': gc.isenabled(),"
        " 'frozen': gc.get_freeze_count()}))",
        tmp_path,
    )
    modules = seen["modules"]
    assert "armybuilder.tui.screens.editor" in modules  # the probe did draw the editor
    loaded = [name for name in NOT_AT_START if any(m == name or m.startswith(name + ".") for m in modules)]
    assert loaded == []
    assert seen["collecting"] is True
    assert seen["frozen"] > 50_000  # modules, catalogue and widgets: out of the collector's view


def test_an_unreadable_list_leaves_the_collector_on(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("armybuilder: 1\nunits: [\n", encoding="utf-8")
    seen = _child(
        "import gc, json\n"
        "from pathlib import Path\n"
        "from armybuilder.core.errors import InputError\n"
        "from armybuilder.tui import run\n"
        "try:\n"
        f"    run(Path({str(bad)!r}))\n"
        "    outcome = 'opened'\n"
        "except InputError as exc:\n"
        "    outcome = str(exc)\n"
        "print(json.dumps({'outcome': outcome, 'collecting': gc.isenabled()}))",
        tmp_path,
    )
    assert "bad.yaml" in seen["outcome"]
    assert seen["collecting"] is True


LIST = DAWN_PATROL


async def test_the_list_joins_the_recent_lists_once_drawn(r2, store, tmp_path):
    import threading

    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file

    path = tmp_path / "dawn.yaml"
    path.write_text(LIST, encoding="utf-8")
    session = open_file(path, store, remember=False)  # as armybuilder.tui.app.run opens it
    assert store.recent() == []  # the start writes nothing before the editor is drawn
    app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for thread in threading.enumerate():
            if thread.name == "remember-list":
                thread.join(timeout=10)
        assert [r.path for r in store.recent()] == [str(path.resolve())]
        assert [r.name for r in store.recent()] == ["Dawn patrol"]


async def test_the_tree_counts_its_line_widths_as_it_draws_them(store, tmp_path):
    """``ListTree.get_label_width`` skips building lines that fit: the same widths as
    Textual's count of the drawn (cut) lines, at a narrow and a wide size."""
    from textual.widgets import Tree

    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file
    from armybuilder.tui.widgets.panels import ListTree

    path = _sample(tmp_path)
    cut = 0
    for size in ((60, 24), (160, 48)):
        app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            tree = app.screen.query_one(ListTree)
            nodes = list(tree.root.children)
            assert nodes
            while nodes:
                node = nodes.pop()
                nodes.extend(node.children)
                drawn = Tree.get_label_width(tree, node)  # builds the line as drawn
                assert tree.get_label_width(node) == drawn, node.label.plain
                own = node.label.cell_len + (2 if node.allow_expand else 0)
                cut += drawn < own
    assert cut > 0  # the narrow size did cut some lines: both branches were compared
