"""User text is shown literally: names and notes are never parsed as markup."""

from __future__ import annotations

import json
import re

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import new_session, open_file
from armybuilder.tui.widgets.panels import DetailPane, ListTree

HOSTILE = ["[bold]x[/]", "<b>&amp;", "[link=file:///etc/passwd]click[/link]", "[/]"]


async def test_hostile_names_and_notes_are_shown_literally(r2, store):
    session = new_session(r2, "lions", None, "[bold]x[/] <b>&", None, store)
    session.apply("", "add-unit", {"profile": "spearman", "count": 10})
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        title = editor.query_one("#titlebar").render()
        assert "[bold]x[/] <b>&" in str(title)

        for name in HOSTILE:
            editor.apply("units[0]", "rename-unit", {"name": name})
            await pilot.pause()
            tree = editor.query_one(ListTree)
            labels = [node.label.plain for node in tree.by_path.values()]
            assert any(label.startswith(name + "  ") for label in labels), (name, labels)
        editor.apply("units[0]", "edit-unit-notes", {"notes": "[red]not red[/red] & <i>"})
        editor.apply("", "edit-notes", {"notes": "[b]list[/b] notes"})
        editor.query_one(ListTree).goto("units[0]")
        editor.show_detail_for_tree()
        await pilot.pause()
        body = str(editor.query_one(DetailPane).query_one("#detail-body").render())
        assert "[red]not red[/red] & <i>" in body
        editor.query_one(ListTree).goto("")
        editor.show_detail_for_tree()
        body = str(editor.query_one(DetailPane).query_one("#detail-body").render())
        assert "[b]list[/b] notes" in body
        # the whole screen, as drawn, holds the literal characters
        svg = app.export_screenshot()
        assert "[bold]x[/]" in svg.replace("&#160;", " ")


#: OSC 52 (clipboard), OSC 0 (window title), CSI clear screen, C1 CSI/OSC, BEL, bidi override
ESCAPES = "\x1b]52;c;UFdORUQ=\x07\x1b]0;owned\x07\x1b[2J\u009b2J\u009d0;t\u009c\u202e"
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")


def _screen_output(app) -> str:
    """What the terminal would receive for a full repaint of the current screen."""
    update = app.screen._compositor.render_full_update()
    return update.render_segments(app.console)


def _without_textual_sequences(output: str) -> str:
    """Drop the escape sequences Textual itself writes (SGR styles, cursor moves, links)."""
    output = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output)
    return re.sub(r"\x1b]8;[^\x1b]*\x1b\\\\", "", output)


async def test_terminal_escapes_in_user_text_are_shown_as_escapes(r2, store, tmp_path):
    text = (
        "armybuilder: 1\nsystem: ragnarok2\ncatalogue: 1.1.0\nformat: 1000-ap\npeople: lions\n"
        f"name: {json.dumps('List' + ESCAPES)}\n"
        f"tactics: [{json.dumps('tac' + ESCAPES)}]\n"
    )
    path = tmp_path / "evil.yaml"
    path.write_text(text, encoding="utf-8")
    session = open_file(path, store)
    session.apply("", "add-unit", {"profile": "spearman", "count": 10})
    session.apply("units[0]", "rename-unit", {"name": "Unit" + ESCAPES})
    session.apply("units[0]", "edit-unit-notes", {"notes": "Notes" + ESCAPES})
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one(ListTree).goto("units[0]")
        editor.show_detail_for_tree()
        app.notify("Toast" + ESCAPES, title="Title" + ESCAPES)
        await pilot.pause()
        drawn = _without_textual_sequences(_screen_output(app))
        found = RAW_CONTROL.search(drawn)
        assert found is None, drawn[max(0, found.start() - 40): found.start() + 20]
        # the characters are there for the reader to see, as escapes
        assert "List\\x1b]52;c;" in drawn  # title bar
        assert "Unit\\x1b]52;c;" in drawn  # list tree
        assert "Notes\\x1b]52;c;" in drawn  # detail pane
        assert "tac\\x1b]52;c;" in drawn  # findings (unknown tactic)
        (toast,) = list(app._notifications)  # notifications: message and title escaped
        assert toast.message.startswith("Toast\\x1b]52;c;") and toast.title.startswith("Title\\x1b]52;c;")
        assert RAW_CONTROL.search(toast.message + toast.title) is None
        # the list itself is unchanged: a save writes what the user wrote
        assert session.army.name == "List" + ESCAPES


async def test_dialogs_and_home_screen_escape_user_text(r2, store, tmp_path):
    from armybuilder.tui.screens.modals import Confirm

    path = tmp_path / "evil.yaml"
    path.write_text(
        "armybuilder: 1\nsystem: ragnarok2\ncatalogue: 1.1.0\nformat: 1000-ap\npeople: lions\n"
        f"name: {json.dumps('Recent' + ESCAPES)}\n",
        encoding="utf-8",
    )
    open_file(path, store)  # remembered as a recent list
    app = ArmyBuilderApp(None, store=store, recovery_delay=60)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        drawn = _without_textual_sequences(_screen_output(app))
        assert RAW_CONTROL.search(drawn) is None
        assert "Recent\\x1b]52;c;" in drawn
        app.push_screen(Confirm("Ask" + ESCAPES, "Body" + ESCAPES))
        await pilot.pause()
        drawn = _without_textual_sequences(_screen_output(app))
        assert RAW_CONTROL.search(drawn) is None
        assert "Body\\x1b]52;c;" in drawn and "Ask\\x1b]52;c;" in drawn


async def test_edit_forms_show_escapes_and_keep_the_exact_text(r2, store):
    from armybuilder.tui.screens.modals import ActionForm

    session = new_session(r2, "lions", None, "Name" + ESCAPES, None, store)
    action = next(a for a in session.system.actions(session.army, session.cat, "") if a.id == "rename-list")
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    results = []
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        app.push_screen(ActionForm(action, {"name": session.army.name}), results.append)
        await pilot.pause()
        drawn = _without_textual_sequences(_screen_output(app))
        assert RAW_CONTROL.search(drawn) is None
        assert "Name\\x1b]52;c;" in drawn
        await pilot.click("#ok")  # applied unchanged: the exact name, not its escaped form
        await pilot.pause()
    assert results == [{"name": "Name" + ESCAPES}]


#: The controls Rich's ``Text`` drops silently (BEL, backspace, VT, FF, CR): a name holding
#: one is still shown with it as an escape, so the reader sees that the file holds something odd.
DROPPED_BY_RICH = "\x07bel\x08bs\x0bvt\x0cff\rcr"


async def test_controls_rich_would_drop_are_shown_as_escapes(r2, store):
    session = new_session(r2, "lions", None, "List" + DROPPED_BY_RICH, None, store)
    session.apply("", "add-unit", {"profile": "spearman", "count": 10})
    session.apply("units[0]", "rename-unit", {"name": "Unit" + DROPPED_BY_RICH})
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        editor = app.screen
        labels = [node.label.plain for node in editor.query_one(ListTree).by_path.values()]
        assert any(label.startswith("Unit\\x07bel\\x08bs\\x0bvt\\x0cff\\x0dcr") for label in labels), labels
        drawn = _without_textual_sequences(_screen_output(app))
        assert "Unit\\x07bel\\x08bs\\x0bvt\\x0cff\\x0dcr" in drawn
        assert "List\\x07bel\\x08bs" in drawn  # title bar
