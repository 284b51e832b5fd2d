"""Whole editor workflows driven through Textual's Pilot, on the synthetic catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from armybuilder.core.findings import is_legal
from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.home import HomeScreen, NewListScreen
from armybuilder.tui.screens.modals import ActionForm, Confirm, Menu
from armybuilder.tui.session import new_session, open_file
from armybuilder.tui.widgets.panels import FindingsList, ListTree

ILLEGAL = """\
# my lions, drafted on the train
armybuilder: 1
system: ragnarok2
catalogue: 1.0.0   # keep the old costs
format: 1000-ap
name: Dawn patrol
people: lions
units:
  - troops: {profile: spearman, count: 10}
    members:
      - profile: captain   # the boss
        leader: false      # not yet
  - troops: {profile: knight, count: 4}
  - troops: {profile: knight, count: 4}
tactics: [wall]
communions: []   # no priest, no litany
"""


async def until(pilot, check, limit: float = 10.0) -> None:
    """Let the app run until *check()* holds (or *limit* seconds pass): its timers fire late on a
    loaded machine, so a fixed pause can end before they do."""
    import time

    deadline = time.monotonic() + limit
    while not check() and time.monotonic() < deadline:
        await pilot.pause(0.05)


async def choose(pilot, text: str) -> None:
    """In the open Menu, highlight the option containing ``text`` and press Enter."""
    screen = pilot.app.screen
    assert isinstance(screen, Menu), screen
    menu = screen.query_one("#menu", OptionList)
    for i in range(menu.option_count):
        if text in menu.get_option_at_index(i).prompt.plain:
            menu.highlighted = i
            break
    else:
        raise AssertionError(f"no menu option with {text!r}")
    await pilot.press("enter")
    await pilot.pause()


async def search_and_add(pilot, words: str) -> None:
    await pilot.press("slash")
    search = pilot.app.screen.query_one("#search", Input)
    search.value = ""
    await pilot.press(*words)
    await pilot.press("enter")  # one Enter from the box adds the highlighted entry
    await pilot.pause()


def errors(editor: EditorScreen) -> list:
    return [f for f in editor.last_findings if f.severity == "error"]


@pytest.fixture
def illegal_file(tmp_path, r2) -> Path:
    path = tmp_path / "dawn.yaml"
    path.write_text(ILLEGAL, encoding="utf-8")
    return path


async def test_build_a_legal_list_from_nothing(r2, store, tmp_path):
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewListScreen)
        form.query_one("#name", Input).value = "Dawn guard"
        form.query_one("#file", Input).value = str(tmp_path / "dawn-guard.yaml")
        await pilot.click("#ok")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.session.army.units == []

        await search_and_add(pilot, "spearman")
        assert isinstance(app.screen, ActionForm)  # asks the number of troops
        await pilot.press("backspace", "1", "0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
        assert editor.session.army.units[0].troops.count == 10

        await search_and_add(pilot, "captain")  # joins the selected unit
        assert editor.session.army.units[0].members[0].profile == "captain"
        assert [f.rule for f in errors(editor)] == ["ragnarok2.command.commander-in-chief"]

        editor.query_one(ListTree).focus()
        assert editor.query_one(ListTree).current_path() == "units[0].members[0]"
        await pilot.press("enter")
        await choose(pilot, "Commander-in-Chief")
        assert errors(editor) == []
        assert "no findings" in str(editor.query_one(FindingsList).get_option_at_index(0).prompt)

        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not editor.session.dirty
    saved = load_list(tmp_path / "dawn-guard.yaml")
    assert saved.army.name == "Dawn guard"
    assert is_legal(saved.system.validate(saved.army, saved.system.catalogue_for(saved.army)))
    assert store.recent()[0].path == str((tmp_path / "dawn-guard.yaml").resolve())


async def test_fix_an_illegal_list_by_following_its_findings(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        rules = {f.rule for f in errors(editor)}
        assert rules == {"ragnarok2.scheme.corps-majority", "ragnarok2.command.commander-in-chief"}

        findings = editor.query_one(FindingsList)
        findings.focus()
        index = next(i for i, f in enumerate(findings.findings) if f.rule.endswith("commander-in-chief"))
        findings.highlighted = index
        await pilot.press("enter")  # jump to the place the finding names
        await pilot.pause()
        tree = editor.query_one(ListTree)
        # The finding names the commander who could take the post: the jump lands on it.
        assert tree.has_focus and tree.current_path() == "units[0].members[0]"
        await pilot.press("enter")
        await choose(pilot, "Commander-in-Chief")
        assert {f.rule for f in errors(editor)} == {"ragnarok2.scheme.corps-majority"}

        findings.focus()
        findings.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        tree.goto("units[2]")
        await pilot.press("delete")
        await pilot.pause()
        assert len(editor.session.army.units) == 2
        assert errors(editor) == []
        assert editor.session.dirty


async def test_undo_redo_round_trip(illegal_file, store):
    session = open_file(illegal_file, store)
    original = session.army
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("units[0]", "set-count", {"count": 12})
        editor.apply("units[0].members[0]", "set-commander-in-chief", {})
        editor.apply("", "rename-list", {"name": "Renamed"})
        final = editor.session.army
        for _ in range(3):
            await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.session.army == original
        assert not editor.session.dirty
        assert len(errors(editor)) == 2
        await pilot.press("ctrl+z")  # nothing left: a notice, no change
        assert editor.session.army == original
        for _ in range(3):
            await pilot.press("ctrl+y")
        await pilot.pause()
        assert editor.session.army == final
        assert editor.session.army.name == "Renamed"
        assert editor.query_one(ListTree).outline == tuple(
            editor.session.system.outline(final, editor.session.cat)
        )


async def test_save_reload_identical_and_comments_kept(illegal_file, store):
    session = open_file(illegal_file, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("units[0].members[0]", "set-commander-in-chief", {})
        editor.apply("units[0]", "add-member", {"profile": "musician"})
        edited = editor.session.army
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not editor.session.dirty
    text = illegal_file.read_text(encoding="utf-8")
    assert "# my lions, drafted on the train" in text
    assert "# keep the old costs" in text
    assert "# the boss" in text
    # keys the player wrote keep their comments even when their value is the default
    assert "communions: []   # no priest, no litany" in text
    assert "leader: false      # not yet" in text
    assert load_list(illegal_file).army == edited
    # nothing pending: no recovery copy is left behind after a save
    assert store.recoveries() == []


async def test_recovery_after_a_crash(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "rename-list", {"name": "Unsaved work"})
        edited = app.screen.session.army
        await until(pilot, store.recoveries)  # the recovery timer (0.05 s) has fired
        # the process "dies" here: no quit, no save
    assert load_list(illegal_file).army.name == "Dawn patrol"
    [recovery] = store.recoveries()
    assert recovery.path == str(illegal_file.resolve())

    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Confirm)  # offered before anything else
        await pilot.press("enter")  # the first button has the focus
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.session.army == edited
        assert editor.session.dirty
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert load_list(illegal_file).army.name == "Unsaved work"
    assert "# the boss" in illegal_file.read_text(encoding="utf-8")
    assert store.recoveries() == []


async def test_home_lists_recoveries_of_never_saved_lists(r2, store):
    session = new_session(r2, "lions", None, "Scratch", None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "add-unit", {"profile": "knight", "count": 3})
        await until(pilot, store.recoveries)  # the recovery timer (0.05 s) has fired
    app = ArmyBuilderApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#home-menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        key = next(i for i in ids if i and i.startswith("recover:"))
        menu.highlighted = ids.index(key)
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.session.army.units[0].troops.count == 3
        assert editor.session.path is None and editor.session.dirty


async def test_quit_with_unsaved_changes_asks(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "rename-list", {"name": "Changed"})
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.click("#cancel")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.click("#discard")
        await pilot.pause()
        assert not app.is_running
    assert load_list(illegal_file).army.name == "Dawn patrol"
    assert store.recoveries() == []


async def test_upgrade_shows_the_impact_then_applies(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        assert any(f.rule.endswith("newer-version") for f in editor.last_findings)
        await pilot.press("u")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, Confirm)
        shown = dialog.body.plain
        assert "1.0.0 → 1.1.0" in shown and "spearman" in shown
        await pilot.click("#yes")
        await pilot.pause()
        assert editor.session.army.catalogue == "1.1.0"
        assert editor.session.cat.version == "1.1.0"
        assert not any(f.rule.endswith("newer-version") for f in editor.last_findings)
        await pilot.press("ctrl+z")
        assert editor.session.army.catalogue == "1.0.0"


async def test_edit_form_reports_refusals_and_stays_open(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one(ListTree).goto("units[0]")
        await pilot.press("enter")
        await choose(pilot, "Change the number of troops")
        assert isinstance(app.screen, ActionForm)
        await pilot.press("backspace", "backspace", "1", "2", "0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ActionForm)
        assert "between" in str(app.screen.query_one("#form-error").render())
        await pilot.press("escape")
        assert editor.session.army.units[0].troops.count == 10


async def test_palette_lists_the_edits_at_the_cursor(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one(ListTree).goto("units[0].members[0]")
        names = [name for name, _, _ in editor.palette_commands()]
        for expected in ("Save", "Undo", "Redo", "Export…", "Upgrade the catalogue version", "Odds panel", "Playtest"):
            assert expected in names
        actions = editor.session.system.actions(editor.session.army, editor.session.cat, "units[0].members[0]")
        assert any(a.refused for a in actions)  # a captain is no army standard
        for action in actions:  # the palette offers what the rules allow, nothing else
            assert any(n.startswith(action.label) for n in names) != bool(action.refused), action.label
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"commander-in-chief")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert editor.session.army.units[0].members[0].commander_in_chief


@pytest.mark.parametrize("key,module,name", [("o", "odds", "OddsScreen"), ("t", "playtest", "PlaytestScreen"), ("m", "meta", "MetaScreen")])
async def test_odds_and_playtest_screens_open_on_the_list(key, module, name, illegal_file, store):
    import importlib

    screen_class = getattr(importlib.import_module(f"armybuilder.tui.screens.{module}"), name)
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, screen_class)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor


async def test_mouse_first_click_selects_second_click_acts(illegal_file, store):
    from armybuilder.tui.screens.modals import Menu as MenuScreen

    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        tree = editor.query_one(ListTree)
        target = tree.by_path["units[1]"]
        offset = (8, target.line + 1)  # inside the border
        await pilot.click("#tree", offset=offset)
        await pilot.pause()
        assert tree.current_path() == "units[1]"
        assert app.screen is editor  # no menu yet
        await pilot.click("#tree", offset=offset)
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("escape")
        await pilot.pause()
        # browser: a click shows the entry, a second click adds it
        entries = editor.query_one("#entries")
        await pilot.click("#entries", offset=(3, 2))
        await pilot.pause()
        assert app.screen is editor
        await pilot.click("#entries", offset=(3, 2))
        await pilot.pause()
        assert app.screen is not editor or len(editor.session.army.units[1].members) == 1
        assert entries is not None


async def test_facet_filters_dialog_narrows_the_browser(illegal_file, store):
    from textual.widgets import Select

    from armybuilder.tui.screens.modals import FacetFilters
    from armybuilder.tui.widgets.panels import Browser

    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        browser = editor.query_one(Browser)
        assert browser.chosen == {"people": "Lions"}  # starts on the list's people
        editor.action_filters()
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, FacetFilters)
        dialog.query_one("#f-rank", Select).value = "Elite"
        await pilot.click("#ok")
        await pilot.pause()
        assert {e.name for e in browser.shown if e.kind == "profile"} == {"Knight"}
        editor.action_filters()
        await pilot.pause()
        await pilot.click("#clear")
        await pilot.pause()
        assert browser.chosen == {}
        assert any(e.name == "Wolf warrior" for e in browser.shown)


async def test_help_notes_and_fingerprint(illegal_file, store):
    from armybuilder.core.lists import list_fingerprint
    from armybuilder.tui.screens.modals import HelpScreen
    from armybuilder.tui.widgets.panels import DetailPane

    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor
        tree = editor.query_one(ListTree)
        tree.goto("units[0]")
        await pilot.press("n")  # the unit's notes, in a text box
        await pilot.pause()
        assert isinstance(app.screen, ActionForm)
        await pilot.press(*"flank", "enter", *"left")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        assert editor.session.army.units[0].notes == "flank\nleft"
        tree.goto("")
        editor.show_detail_for_tree()
        body = str(editor.query_one(DetailPane).query_one("#detail-body").render())
        assert list_fingerprint(editor.session.army, editor.session.cat) in body


async def test_a_crash_copy_kept_for_later_survives_a_clean_quit(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "rename-list", {"name": "Work in progress"})
        await until(pilot, store.recoveries)  # the recovery timer (0.05 s) has fired
    assert len(store.recoveries()) == 1
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.click("#keep")  # "Not now"
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
        await pilot.press("ctrl+q")  # nothing changed: quits at once
        await pilot.pause()
    [kept] = store.recoveries()
    assert "Work in progress" in kept.file.read_text(encoding="utf-8")


async def test_home_can_discard_a_recovery_copy(r2, store):
    session = new_session(r2, "lions", None, "Scratch", None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.apply("", "add-unit", {"profile": "knight", "count": 3})
        await until(pilot, store.recoveries)  # the recovery timer (0.05 s) has fired
    assert len(store.recoveries()) == 1
    app = ArmyBuilderApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#home-menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = next(i for i, k in enumerate(ids) if k and k.startswith("recover:"))
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.click("#delete")
        await pilot.pause()
        assert store.recoveries() == []
        menu = app.screen.query_one("#home-menu", OptionList)
        assert not any((menu.get_option_at_index(i).id or "").startswith("recover:") for i in range(menu.option_count))


async def test_a_crashing_system_edit_does_not_kill_the_editor(illegal_file, store, monkeypatch):
    session = open_file(illegal_file, store)

    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(type(session.system), "apply", broken)
    app = ArmyBuilderApp(session, store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one(ListTree).goto("units[0]")
        await pilot.press("delete")
        await pilot.pause()
        assert app.is_running and app.screen is editor
        assert "failed inside" in [n.message for n in app._notifications][-1]


async def test_an_unexpected_error_writes_the_recovery_copy_first(illegal_file, store):
    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=3600)
    with pytest.raises(RuntimeError):
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.screen.apply("", "rename-list", {"name": "Just before the crash"})

            def explode() -> None:
                raise RuntimeError("a bug somewhere")

            app.call_later(explode)
            await pilot.pause()
    [recovery] = store.recoveries()
    assert "Just before the crash" in recovery.file.read_text(encoding="utf-8")


async def test_findings_name_the_line_while_the_list_matches_its_file(illegal_file, store):
    from armybuilder.tui.widgets.panels import FindingsList

    app = ArmyBuilderApp(open_file(illegal_file, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        findings = editor.query_one(FindingsList)
        prompts = [findings.get_option_at_index(i).prompt.plain for i in range(findings.option_count)]
        assert any(", line " in p for p in prompts), prompts
        editor.apply("", "rename-list", {"name": "Changed"})  # now the file is out of date
        await pilot.pause()
        prompts = [findings.get_option_at_index(i).prompt.plain for i in range(findings.option_count)]
        assert not any(", line " in p for p in prompts), prompts
