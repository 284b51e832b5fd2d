"""User text is shown literally: names and notes are never parsed as markup."""

from __future__ import annotations

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import new_session
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
