"""The same editor on the other game systems (and on the bundled Rag'Narok 2 data).

Parametrised over the registry: the toy system of tests/toysystem runs here too.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input
from tui_other_system import other_system  # tests are collected without packages

from armybuilder.core.lists import load_list
from armybuilder.core.registry import system_ids
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.modals import PathPrompt
from armybuilder.tui.widgets.panels import ListTree


def _args(action) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for p in action.params:
        if p.kind == "choice":
            if not p.choices:
                return {}
            args[p.name] = p.choices[0].value
        elif p.kind in ("int", "float"):
            args[p.name] = p.default if p.default is not None else (p.minimum or 1)
        elif p.kind == "bool":
            args[p.name] = bool(p.default)
        else:
            args[p.name] = p.default or "x"
    return args


def _paths(nodes) -> list[str]:
    out = []
    for n in nodes:
        out.append(n.path)
        out += _paths(n.children)
    return out


@pytest.mark.parametrize("system_id", system_ids())
async def test_basics_on_a_bundled_sample(system_id, store, tmp_path):
    system, samples = other_system(system_id)
    rel = samples[0][0]
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.open_sample(system_id, rel)
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        s = editor.session
        original = s.army
        assert editor.query_one(ListTree).outline  # the list is shown as a tree
        points = s.system.points(s.army, s.cat)
        status = editor.query_one("#status").render().plain
        assert f"{points.total:g}/{points.limit}" in status.replace(" ", ""), status  # the points are shown
        title = editor.query_one("#titlebar").render().plain
        faction = s.system.faction_name(s.army, s.cat)  # by its name, never its id
        assert s.system.name in title and faction in title, title

        # an "add" edit somewhere in the list, as the protocol offers it
        applied = None
        for path in ["", *_paths(s.system.outline(s.army, s.cat))]:
            for action in s.system.actions(s.army, s.cat, path):
                if action.kind != "add":
                    continue
                args = _args(action)
                if action.params and not args:
                    continue
                try:
                    editor.apply(path, action.id, args)
                except ValueError:
                    continue
                applied = (path, action.id)
                break
            if applied:
                break
        assert applied is not None, "no add edit could be applied"
        assert s.army != original and s.dirty
        edited = s.army
        await pilot.press("ctrl+z")
        assert s.army == original
        await pilot.press("ctrl+y")
        assert s.army == edited

        target = tmp_path / f"{system_id}.yaml"
        await pilot.press("ctrl+s")  # a sample has no file yet: asks where
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert not s.dirty
    assert load_list(target).army == edited


async def test_bundled_ragnarok2_sample_broken_then_fixed_through_findings(store, tmp_path):
    """The real catalogue: over the limit after an edit, fixed by following the finding."""
    system, samples = other_system("ragnarok2")
    rel = next((r for r, _ in samples if "alahan" in r), samples[0][0])
    target = tmp_path / "mine.yaml"
    target.write_bytes(dict(samples)[rel].read_bytes())
    from armybuilder.tui.session import open_file
    from armybuilder.tui.widgets.panels import FindingsList

    app = ArmyBuilderApp(open_file(target, store), store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        editor = app.screen
        s = editor.session
        assert not [f for f in editor.last_findings if f.severity == "error"], "the sample should be legal"
        units_before = len(s.army.units)
        editor.apply("units[0]", "duplicate-unit", {})
        await pilot.pause()
        errors = [f for f in editor.last_findings if f.severity == "error"]
        assert errors, "a duplicated unit should break the limit or the army scheme"
        findings = editor.query_one(FindingsList)
        findings.focus()
        findings.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        tree = editor.query_one(ListTree)
        assert tree.has_focus
        tree.goto("units[1]")  # the copy sits right after the original
        await pilot.press("delete")
        await pilot.pause()
        assert len(s.army.units) == units_before
        assert not [f for f in editor.last_findings if f.severity == "error"]
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert load_list(target).army == s.army


async def test_rattle_and_rend_heavy_and_ward_ask_their_trait_when_added(store, tmp_path):
    """Issue 13: adding a Heavy or a Ward from the catalogue made an illegal group at once;
    the add form now asks its heavy trait / warding reaction."""
    from textual.widgets import Select

    from armybuilder.tui.screens.modals import ActionForm

    system, samples = other_system("rattle-and-rend")
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_sample("rattle-and-rend", samples[0][0])
        await pilot.pause()
        editor = app.screen
        s = editor.session
        s.replace(s.army.model_copy(update={"groups": s.army.groups[:3]}))  # room for two more groups
        editor.refresh_all()
        for type_id, field, rule in (("heavy", "heavy_trait", "heavy.trait"), ("ward", "warding_reaction", "ward.reaction")):
            editor.query_one(ListTree).goto("groups")
            entry = next(e for e in editor.query_one("#browser").entries if e.ref.id == type_id)
            editor.add_from_browser(entry)
            await pilot.pause()
            form = app.screen
            assert isinstance(form, ActionForm)
            select = form.query_one(f"#p-{field}", Select)
            assert form.focused is select  # the first value still to give
            select.value = 0
            form.action_submit()
            await pilot.pause()
            assert app.screen is editor
            added = s.army.groups[-1]
            assert added.type == type_id and getattr(added, field)
            assert not any(rule in f.rule and f.where == f"groups[{len(s.army.groups) - 1}]" for f in editor.last_findings)


async def test_home_shows_every_registered_system_and_a_broken_one_loudly(store, monkeypatch):
    """The toy system's samples are offered like the bundled ones; a half-written system is
    listed with its error instead of vanishing."""
    from textual.widgets import OptionList

    from armybuilder.core import registry

    monkeypatch.setitem(registry.KNOWN_SYSTEMS, "half-written", "no_such_system_module")
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        lines = []
        for menu in app.screen.query(OptionList):
            lines += [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
    assert "Pit Fighters" in lines and any("gulls" in line.lower() for line in lines), lines
    assert "Rag'Narok 2" in lines
    broken = [line for line in lines if "half-written cannot be used" in line]
    assert broken and "no_such_system_module" in broken[0]
