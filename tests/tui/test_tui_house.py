"""House catalogues in the editor (Pilot): a new list for a people only a house catalogue
has, its entries marked in the browser and the detail, added to the list, named in the
status bar and the findings; a changed house catalogue said, and pinned again with u.

On the bundled Rag'Narok 2 catalogue and tests/house_data (every figure invented)."""

from __future__ import annotations

from house_lists import WOLF_LIST, house_folder, write_list
from textual.widgets import Input, Select

from armybuilder.core.lists import load_list
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.home import HomeScreen, NewListScreen
from armybuilder.tui.screens.modals import ActionForm, Confirm
from armybuilder.tui.session import open_file
from armybuilder.tui.widgets.panels import Browser, entry_prompt


def _status(editor) -> str:
    return " ".join(str(editor.query_one("#status").render()).split())


async def test_a_new_list_for_a_people_of_a_house_catalogue(store, tmp_path, monkeypatch):
    house_folder(tmp_path, monkeypatch, "wolfen-of-yllia")
    app = ArmyBuilderApp(store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewListScreen)
        faction = form.query_one("#faction", Select)
        prompts = [getattr(p, "plain", str(p)) for p, _ in faction._options]
        offered = next(p for p in prompts if "Yllia" in p)
        assert offered.startswith("The Children of Yllia — house catalogue wolfen-of-yllia 1.1.0") and "7 profiles" in offered
        faction.value = "yllia@wolfen-of-yllia"
        form.query_one("#file", Input).value = str(tmp_path / "pack.yaml")
        await pilot.click("#ok")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen), str(form.query_one("#form-error").render())
        s = editor.session
        assert s.army.people == "yllia" and [p.id for p in s.army.house] == ["wolfen-of-yllia"]
        assert "house catalogue wolfen-of-yllia 1.1.0" in _status(editor)
        saved = load_list(tmp_path / "pack.yaml").army
        assert saved.house[0].version == "1.1.0" and saved.house[0].hash == s.cat.houses[0].hash

        # the browser starts on the list's people: the house profiles, marked as house data
        browser = editor.query_one(Browser)
        shown = {e.ref.id: e for e in browser.shown}
        warrior = shown["yllia-wolfen-warrior"]
        assert warrior.facets["data"] == "house wolfen-of-yllia"
        assert "house" in entry_prompt(warrior).plain
        bundled = next(e for e in browser.entries if e.ref.collection == "tactics")
        assert bundled.facets["data"] == "bundled" and "house" not in entry_prompt(bundled).plain
        detail = s.system.detail(s.cat, warrior.ref)
        assert detail.subtitle.startswith("house catalogue wolfen-of-yllia 1.1.0 (Wolfen of Yllia (test data, invented figures))")

        # the add-unit form marks them too
        add_unit = next(a for a in editor.actions_at("") if a.id == "add-unit")
        editor.run_edit("", add_unit)
        await pilot.pause()
        form = app.screen
        assert isinstance(form, ActionForm)
        prompts = [getattr(p, "plain", str(p)) for p, _ in form.query_one("#p-profile", Select)._options]
        assert any(p.startswith("Wolfen warrior") and "house · 16 A.P. each, Regular" in p for p in prompts), prompts
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor

        # added from the browser like any profile, and judged like one
        editor.add_from_browser(warrior)
        await pilot.pause()
        if not isinstance(app.screen, EditorScreen):  # the unit's size is asked
            await pilot.press("enter")
            await pilot.pause()
        assert app.screen is editor
        unit = s.army.units[0]
        assert unit.troops is not None and unit.troops.profile == "yllia-wolfen-warrior"
        said = [f.message for f in editor.last_findings]
        assert any(m.startswith("uses house catalogue wolfen-of-yllia 1.1.0") for m in said)
        assert not any("does not exist in catalogue" in m for m in said)


async def test_a_changed_house_catalogue_is_said_and_pinned_again_with_u(store, tmp_path, monkeypatch):
    root = house_folder(tmp_path, monkeypatch, "wolfen-of-yllia")
    path = write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia", "1.0.0")
    app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        s = editor.session
        assert any("Version 1.1.0 is installed" in f.message for f in editor.last_findings)
        points = s.system.points(s.army, s.cat).total
        await pilot.press("u")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, Confirm)
        body = " ".join(str(w.render()) for w in dialog.query(".dialog-body Static"))
        # the list is on the bundled catalogue's older version: one upgrade offers both
        assert dialog.title_text.startswith("Upgrade to ") and dialog.title_text.endswith("house catalogue wolfen-of-yllia 1.0.0 → 1.1.0?")
        assert "house catalogue wolfen-of-yllia 1.0.0 → 1.1.0" in body and "changed: profiles yllia-wolfen-warrior: cost 15 → 16" in body
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is editor
        assert s.army.house[0].version == "1.1.0" and s.system.points(s.army, s.cat).total == points + 17  # warriors cost 16
        assert "house catalogue wolfen-of-yllia 1.1.0" in _status(editor)

        # the house catalogue changes under the open list: said at once, in red in the status bar
        profiles = root / "wolfen-of-yllia" / "profiles.yaml"
        profiles.write_text(profiles.read_text(encoding="utf-8").replace("cost: 32", "cost: 33"), encoding="utf-8")
        editor.refresh_all()
        await pilot.pause()
        assert "changed since the list was pinned to it" in _status(editor)
        assert any("has changed since the list was pinned" in f.message for f in s.findings())
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert not any(f.rule.endswith("catalogue.house") and f.severity.value == "error" for f in s.findings())
        repinned = s.army.house[0].hash
        await pilot.press("ctrl+z")  # the pin is an edit like any other
        await pilot.pause()
        assert s.army.house[0].hash != repinned, [f.message for f in s.findings()]
        assert any("has changed since the list was pinned" in f.message for f in s.findings())


async def test_the_editor_s_roster_export_names_the_house_catalogue(store, tmp_path, monkeypatch):
    import io

    from pypdf import PdfReader

    house_folder(tmp_path, monkeypatch, "wolfen-of-yllia")
    path = write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    app = ArmyBuilderApp(open_file(path, store), store=store, export_dir=tmp_path / "out", recovery_delay=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        editor.export("roster-cards")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause(0.1)
    pdf = tmp_path / "out" / "wolf-cards.pdf"
    flat = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages).split())
    assert "uses house catalogue wolfen-of-yllia 1.1.0" in flat and "Pack chieftain" in flat and "Moon fury" in flat
