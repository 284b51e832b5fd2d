"""Pickers offer only what the list and the rules allow (issue 13), on the synthetic catalogue.

The reasons come from armybuilder.systems.ragnarok2.legality, the module the validator
uses too, so a picker never offers what the findings then reject.
"""

from __future__ import annotations

from textual.widgets import Checkbox, Select, Static

from armybuilder.core.findings import is_legal
from armybuilder.systems.ragnarok2.army import Member
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.modals import ActionForm
from armybuilder.tui.session import open_file

LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.0.0
format: 1000-ap
name: Picker test
people: lions
units:
  - troops: {profile: spearman, count: 10}
    members:
      - {profile: hero, commander_in_chief: true}
      - {profile: priest}
  - troops: {profile: knight, count: 4}
tactics: [wall]
"""


def _prompts(select: Select) -> list[str]:
    return [str(prompt) if not hasattr(prompt, "plain") else prompt.plain for prompt, _ in select._options]


async def _open(tmp_path, store, pilot_size=(120, 40)):
    path = tmp_path / "pickers.yaml"
    path.write_text(LIST, encoding="utf-8")
    return ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=60), pilot_size


async def _form(app, pilot, path: str, action_id: str) -> ActionForm:
    editor = app.screen
    action = next(a for a in editor.actions_at(path) if a.id == action_id)
    editor.run_edit(path, action)
    await pilot.pause()
    assert isinstance(app.screen, ActionForm)
    return app.screen


async def test_member_picker_hides_what_may_not_join_and_explains_on_request(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        form = await _form(app, pilot, "units[0]", "add-member")
        select = form.query_one("#p-profile", Select)
        shown = " | ".join(_prompts(select))
        # the Hero commands this unit: a Captain (a commander) may not join; the Hero is unique
        names = [prompt.split("  ")[0].strip() for prompt in _prompts(select)]  # ("Hero" is also a rank)
        assert "Captain" not in names and "Hero" not in names, names
        assert "Squire" in shown and "A.P." in shown  # legal ones, with their cost
        form.query_one("#show-all", Checkbox).value = True
        await pilot.pause()
        shown = " | ".join(_prompts(select))
        assert "Captain  not allowed: the unit already has a commander (one per unit)" in shown
        assert "Hero  not allowed: the unit already has a commander" in shown
        captain = next(i for i, c in enumerate(form.action.params[0].choices) if c.value == "captain")
        select.value = captain
        await pilot.pause()
        form.action_submit()
        await pilot.pause()
        assert app.screen is form  # refused, with the reason
        assert "Captain is not allowed here" in str(form.query_one("#form-error", Static).render())


async def test_miracle_picker_offers_only_the_faithful_s_cult(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        form = await _form(app, pilot, "units[0].members[1]", "toggle-miracle")
        shown = " | ".join(_prompts(form.query_one("#p-miracle", Select)))
        assert "Blessing" in shown and "3 litany points" in shown
        assert "Small prayer" in shown and "2 litany points" in shown  # no Fervor: costs 2 (R2-D8)
        assert "None" not in shown


async def test_duplicate_unit_leaves_its_unique_characters_behind(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("units[0]", "duplicate-unit", {})
        copy = editor.session.army.units[1]
        assert copy.troops.profile == "spearman" and copy.members == []
        assert not any(f.rule == "ragnarok2.unit.unique-character" for f in editor.last_findings)


async def test_browser_refuses_with_the_validator_s_reason(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one("#tree").goto("units[0]")
        before = editor.session.army.model_copy(deep=True)
        entry = next(e for e in editor.query_one("#browser").entries if e.ref.id == "hero")
        editor.add_from_browser(entry)
        await pilot.pause()
        assert editor.session.army == before
        assert any("Hero cannot be added here: the unit already has a commander" in str(n.message) for n in app._notifications)


def test_every_offered_member_keeps_the_list_legal(r2):
    """Property of the shared predicates: adding any member the picker shows as allowed never
    creates a composition finding the validator would report."""
    from synthetic_r2 import legal_army

    from armybuilder.systems.ragnarok2.editing import member_choices
    from armybuilder.systems.ragnarok2.rules import run_rules

    cat = r2.catalogue("1.0.0")
    army = legal_army()
    assert is_legal(run_rules(army, cat))
    composition = ("ragnarok2.unit.slots", "ragnarok2.unit.unique-character", "ragnarok2.unit.rank-category",
                   "ragnarok2.unit.troop-mystic", "ragnarok2.unit.one-people", "ragnarok2.unit.one-troop-profile")
    for ui, unit in enumerate(army.units):
        for choice in member_choices(cat, army, unit):
            trial = army.model_copy(deep=True)
            trial.units[ui].members.append(Member(profile=choice.value))
            found = [f.rule for f in run_rules(trial, cat) if f.rule in composition and f.severity == "error"]
            assert bool(found) == bool(choice.refused) or (choice.refused and "A.P." in choice.refused), (
                choice.value, ui, found, choice.refused)


async def test_search_box_keys_one_enter_arrows_slash_and_unknown_filters(r2, store, tmp_path):
    from textual.widgets import Input

    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        browser = editor.query_one("#browser")
        await pilot.press("slash")
        box = editor.query_one("#search", Input)
        assert app.focused is box
        await pilot.press("e")  # many entries
        entries = editor.query_one("#entries")
        first = browser.current()
        await pilot.press("down")  # arrows move the results from the box
        assert app.focused is box and entries.highlighted == 1 and browser.current() != first
        await pilot.press("up")
        assert browser.current() == first
        await pilot.press("slash")  # "/" inside the box starts a new search, it is not typed
        assert box.value == ""
        await pilot.press(*"cost:<20")
        assert "no filter 'cost:'" in str(editor.query_one("#filters").render())
        box.value = "people:acheron"
        await pilot.pause()
        assert "no people matches 'acheron'" in str(editor.query_one("#filters").render())
        roles = browser.facet_values()["role"]
        assert "commander" in roles and not any("," in r for r in roles)  # single roles
        box.value = "knight"
        await pilot.pause()
        units = len(editor.session.army.units)
        await pilot.press("enter")  # one Enter adds the highlighted entry (a form asks the count)
        await pilot.pause()
        assert isinstance(app.screen, ActionForm)
        await pilot.press("enter")
        await pilot.pause()
        assert len(editor.session.army.units) == units + 1


async def test_plus_and_minus_step_the_troops(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one("#tree").goto("units[1]")
        editor.query_one("#tree").focus()
        await pilot.press("plus", "plus", "minus", "plus")
        assert editor.session.army.units[1].troops.count == 6
        assert editor.query_one("#tree").current_path() == "units[1]"


async def test_undo_says_what_it_undid_and_help_lists_every_key(r2, store, tmp_path):
    from textual.widgets import Static as _Static

    from armybuilder.tui.screens.modals import HelpScreen

    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.query_one("#tree").goto("units[1]")
        editor.query_one("#tree").focus()
        await pilot.press("plus")
        await pilot.press("ctrl+z")
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
        assert any(m.startswith("undone: Change the number of troops on Knight") for m in messages), messages
        await pilot.press("ctrl+y")
        assert any(str(n.message).startswith("redone: Change the number of troops") for n in app._notifications)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one(_Static)  # the help as drawn, a wrapped line joined to its words
        shown = " ".join(" ".join(strip.text for strip in body.render_lines(body.region.reset_offset)).split())
        for key, words in (("f2", "go to the list tree"), ("f3", "go to the findings"), ("+ =", "one more trooper")):
            assert key in shown and words in shown


async def test_palette_offers_the_program_s_commands_only(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        from textual.command import CommandList

        listing = app.screen.query_one(CommandList)
        names = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert names and "Save" in names[0]
        assert not any(n.startswith(("Keys", "Maximize", "Screenshot")) for n in names)


async def test_findings_name_places_in_words_and_over_the_limit_jumps_to_a_unit(r2, store, tmp_path):
    from armybuilder.tui.widgets.panels import FindingsList

    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        editor.apply("units[0]", "set-count", {"count": 90})
        await pilot.pause()
        limit = next(f for f in editor.last_findings if f.rule == "ragnarok2.points.limit")
        assert limit.where.startswith("units[")  # a unit that could be cut, not the settings
        findings = editor.query_one(FindingsList)
        shown = [str(findings.get_option_at_index(i).prompt) for i in range(findings.option_count)]
        assert not any("@ units[" in line for line in shown)
        assert any("unit 1, Spearman" in line for line in shown), shown
        assert "1 error" in findings.border_title or "errors" in findings.border_title
        editor.jump_to(limit)
        assert editor.query_one("#tree").current_path() == limit.where


async def test_change_the_format_starts_on_the_current_format(r2, store, tmp_path):
    app, size = await _open(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        form = await _form(app, pilot, "", "set-format")
        select = form.query_one("#p-format", Select)
        assert not select.is_blank()
        assert form.action.params[0].choices[int(select.value)].value == "1000-ap"
