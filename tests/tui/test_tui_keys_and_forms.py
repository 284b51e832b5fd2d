"""Forms that apply on Enter, menus that offer only the legal, keys for every task and the
help written from them (issue 28, Deliver 2, 3 and 4), on the synthetic catalogue."""

from __future__ import annotations

from textual.widgets import Checkbox, Input, OptionList, Select, TabbedContent, TextArea

from armybuilder.core.lists import load_list
from armybuilder.core.system import Choice, EditAction, Param
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.modals import (
    SHOW_ALL_KEY,
    ActionForm,
    Confirm,
    HelpScreen,
    Menu,
    help_sections,
    help_text,
)
from armybuilder.tui.session import open_file
from armybuilder.tui.widgets.panels import ListTree

LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.0.0
format: 1000-ap
name: Keys test
people: lions
units:
  - troops: {profile: spearman, count: 10}
    members:
      - {profile: hero, commander_in_chief: true}
      - {profile: priest}
      - {profile: captain}
  - troops: {profile: knight, count: 4}
  - troops: {profile: knight, count: 4}
tactics: [wall]
"""

PICK = EditAction(
    "pick",
    "Pick a thing",
    (Param("thing", "Thing", "choice", (Choice("a", "Apple"), Choice("b", "Banana", refused="no bananas here"), Choice("c", "Cherry"))),),
)
PICK_AND_NAME = EditAction(
    "pick-name", "Pick and name", (*PICK.params, Param("label", "Label (optional)", "text", default=""))
)
NOTES = EditAction("notes", "Edit the notes", (Param("notes", "Notes", "text", default="first line"),))


def _file(tmp_path):
    path = tmp_path / "keys.yaml"
    path.write_text(LIST, encoding="utf-8")
    return path


async def _form(app, pilot, action: EditAction) -> tuple[ActionForm, list[dict]]:
    applied: list[dict] = []

    def check(values: dict) -> None:
        applied.append(values)

    app.push_screen(ActionForm(action, None, check))
    await pilot.pause()
    assert isinstance(app.screen, ActionForm)
    return app.screen, applied


async def test_enter_after_a_drop_down_pick_applies_and_never_ticks_show_all(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form, applied = await _form(app, pilot, PICK)
        box = form.query_one("#show-all", Checkbox)
        assert not box.can_focus and SHOW_ALL_KEY in str(box.label)
        await pilot.press("enter", "down", "down", "enter")  # open the list, past Apple to Cherry (Banana hidden)
        await pilot.pause()
        assert not box.value
        await pilot.press("enter")  # applies: the one field is given
        await pilot.pause()
        assert applied == [{"thing": "c"}] and not isinstance(app.screen, ActionForm)

        form, applied = await _form(app, pilot, PICK_AND_NAME)
        await pilot.press("enter", "down", "enter")  # Apple
        await pilot.pause()
        assert isinstance(form.focused, Input)  # moved on to the label
        await pilot.press("enter")
        await pilot.pause()
        assert applied == [{"thing": "a", "label": ""}]

        form, applied = await _form(app, pilot, PICK)
        for _ in range(6):  # Tab goes round the fields and buttons, never to "show all"
            await pilot.press("tab")
            assert form.focused is not form.query_one("#show-all")
        await pilot.press(SHOW_ALL_KEY)
        await pilot.pause()
        select = form.query_one("#p-thing", Select)
        assert form.query_one("#show-all", Checkbox).value and len(select._options) == 4  # blank + 3
        form.query_one("#p-thing", Select).value = 1  # Banana, greyed: refused with its reason
        form.action_submit()
        await pilot.pause()
        assert applied == [] and "no bananas here" in str(form.query_one("#form-error").render())
        await pilot.press("escape")


async def test_a_notes_box_takes_enter_for_new_lines_and_says_ctrl_s_applies(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form, applied = await _form(app, pilot, NOTES)
        assert "ctrl+s applies" in str(form.query_one(".hint").render())
        area = form.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press("enter", "x")
        await pilot.pause()
        assert applied == [] and area.text == "first line\nx"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert applied == [{"notes": "first line\nx"}]


async def test_member_menu_offers_only_the_roles_the_rules_allow(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one(ListTree).goto("units[0].members[1]")  # the priest: no commander, no standard
        await pilot.press("enter")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, Menu)
        options = menu.query_one("#menu", OptionList)
        labels = [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]
        assert not any("Commander-in-Chief" in x or "army standard" in x or "leader" in x for x in labels), labels
        await pilot.press(SHOW_ALL_KEY)
        await pilot.pause()
        greyed = [options.get_option_at_index(i) for i in range(options.option_count)]
        cic = next(o for o in greyed if "Commander-in-Chief" in o.prompt.plain)
        assert cic.disabled and "not a commander" in cic.prompt.plain
        assert any(o.disabled and "cannot lead a unit" in o.prompt.plain for o in greyed)
        await pilot.press("escape")
        # the captain may take the command: offered, naming whom it replaces
        editor.query_one(ListTree).goto("units[0].members[2]")
        await pilot.press("enter")
        await pilot.pause()
        options = app.screen.query_one("#menu", OptionList)
        labels = [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]
        assert any(x.startswith("Make Commander-in-Chief (in place of Hero)") for x in labels), labels


async def test_communions_and_miracles_answer_to_the_litany_budget_shown_in_the_status_bar(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        status = editor.query_one("#status").shown.plain
        assert "A.P. " in status and "Litany 0/3" in status  # beside the points: the priest's Aspects
        communion = next(a for a in editor.actions_at("") if a.id == "add-communions")
        grace = next(c for c in communion.params[0].choices if c.value == "grace")
        assert grace.refused == "costs 4; 3 litany points left of the faithful's 3 Aspect points"
        editor.apply("units[0].members[1]", "toggle-miracle", {"miracle": "blessing"})
        assert "Litany 3/3" in editor.query_one("#status").shown.plain
        miracle = next(a for a in editor.actions_at("units[0].members[1]") if a.id == "toggle-miracle")
        prayer = next(c for c in miracle.params[0].choices if c.value == "no-fervor")
        assert "0 litany points left" in prayer.refused


async def test_tree_jumps_and_next_finding_by_key(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.screen
        tree = editor.query_one(ListTree)
        tree.focus()
        await pilot.press("right_square_bracket")
        assert tree.current_path() == "units[2]"
        await pilot.press("left_square_bracket")
        assert tree.current_path() == "units[0]"
        await pilot.press("end")
        assert tree.current_path() == ""  # the list settings, last line
        await pilot.press("home")
        assert tree.current_path() == "units"
        placed = [f for f in editor.last_findings if f.where]
        assert placed
        await pilot.press("e")
        assert tree.current_path() == placed[0].where or placed[0].where.startswith(tree.current_path())
        await pilot.press("e", "E")
        assert tree.current_path() == placed[0].where or placed[0].where.startswith(tree.current_path())


async def test_odds_tabs_by_key(store):
    from armybuilder.core.registry import get_system
    from armybuilder.tui.session import open_text

    system = get_system("ragnarok2")
    rel, item = system.source.samples()[0]
    session = open_text(item.read_text(encoding="utf-8"), rel, None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=3600)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        tabs = app.screen.query_one("#odds-tabs", TabbedContent)
        assert tabs.active == "tab-fray"
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert tabs.active == "tab-roll" and app.screen.query("#roll")
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert tabs.active == "tab-fray"


async def test_help_lists_every_key_of_every_place(r2, store, tmp_path):
    app = ArmyBuilderApp(open_file(_file(tmp_path), store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = help_text(app)
        for _, classes in help_sections():
            seen: set[str] = set()  # a key bound twice in one place is listed once
            for cls in classes:
                for binding in cls.BINDINGS:
                    what = getattr(binding, "tooltip", "") or getattr(binding, "description", "")
                    if what and binding.key not in seen:
                        assert what in text, (cls.__name__, binding.key)
                    seen.add(binding.key)
        for words in ("Fray tab", "One roll tab", "first unit", "last unit", "next finding", "first line", "one-page", "^l", "^f", "^o"):
            assert words.lower() in text.lower(), words


async def test_undo_after_a_recovery_goes_back_to_the_file_on_disk(r2, store, tmp_path):
    path = _file(tmp_path)
    on_disk = load_list(path).army
    app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.apply("", "rename-list", {"name": "Renamed before the crash"})
        app.screen.apply("units[1]", "set-count", {"count": 6})
        import time

        deadline = time.monotonic() + 10
        while not store.recoveries() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        app.screen.session.owns_recovery = False  # as if killed: the copy stays behind
    assert store.recoveries()
    app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("enter")  # Recover
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.session.army.name == "Renamed before the crash"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.session.army == on_disk and not editor.session.dirty
        assert any("the recovered edits" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+y")
        assert editor.session.army.name == "Renamed before the crash"
