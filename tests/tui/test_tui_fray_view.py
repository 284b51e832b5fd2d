"""The odds screen's fray view, driven from the editor with Textual's Pilot.

What a player does: the cursor on a unit, ``o``, read the exact fray against a sample's unit,
back to the list, change the unit, ``o`` again. The numbers on screen are checked against the
system's own payload (``GameSystem.fray_odds``, the JSON of ``odds --fray``), and every line
against the panel's width at 80×24 and 120×40.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Checkbox, Input, Select, Static, TabbedContent
from tui_other_system import other_system

from armybuilder.core.playtest import load_sample
from armybuilder.tui.screens.odds import OddsScreen
from armybuilder.tui.widgets import fray_view
from armybuilder.tui.widgets.fray_chart import bar_width, fray_text
from armybuilder.tui.widgets.fray_view import FILE, FrayView

ROYAL_GUARD, KNIGHTS = 3, 4  # units of the alahan-lions sample
WOLFEN = 4  # Wolfen zombies, unit 5 of the acheron-undead-host sample (3 fighters: quick)
# Thallion riders (Executioner) are Implacable/1: a new combat after the outcome of the fray.
THALLION = (Path(__file__).parents[1] / "ragnarok2" / "data" / "thallion-implacable.yaml").read_text(encoding="utf-8")


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _editor(tmp_path, store):
    """The app on a copy of the alahan-lions sample."""
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file

    system, samples = other_system("ragnarok2")
    source = next(item for rel, item in samples if rel == "alahan-lions.yaml")
    target = tmp_path / "lions.yaml"
    target.write_bytes(source.read_bytes())
    return system, ArmyBuilderApp(open_file(target, store), store=store, recovery_delay=60)


async def _settle(app, pilot) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _open_odds(app, pilot, cursor: str) -> OddsScreen:
    from armybuilder.tui.widgets.panels import ListTree

    editor = app.screen
    assert editor.query_one(ListTree).goto(cursor)
    await pilot.pause()
    await pilot.press("o")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OddsScreen)
    return screen


async def _choose_wolfen(screen: OddsScreen, app, pilot) -> FrayView:
    view = screen.query_one(FrayView)
    screen.query_one("#fray-opponent", Select).value = "acheron-undead-host"
    await pilot.pause()
    screen.query_one("#fray-theirs", Select).value = WOLFEN
    await _settle(app, pilot)
    return view


def _check_panel(text: str, payload: dict, mine: str, width: int) -> None:
    """Every figure of ``payload`` the panel shows, as the panel shows it; nothing wider than ``width``."""
    lines = text.splitlines()
    for line in lines:
        assert cell_len(line) <= width, (width, line)
    theirs = "defender" if mine == "attacker" else "attacker"
    for key in (mine, theirs):
        side = payload[key]
        row = next(line for line in lines if re.match(rf"{re.escape(side['unit'])}\s+\d+\s", line))
        fighters, rout, lost, ap = re.findall(r"[\d.]+(?=%|\s|$)", row[len(side["unit"]):])
        assert int(fighters) == side["fighters"]
        assert abs(float(rout) - 100 * side["p_rout"]) <= 0.05 + 1e-9
        assert abs(float(lost) - side["expected_losses"]) <= 0.005 + 1e-9
        assert abs(float(ap) - side["expected_ap_eliminated"]) <= 0.05 + 1e-9
        for character in side["characters"]:
            shown = next(line for line in lines if line.startswith(character["name"][:10]) and " falls " in line)
            assert abs(float(shown.rsplit(" ", 1)[1].rstrip("%")) - 100 * character["p_falls"]) <= 0.05 + 1e-9
    start = next(i for i, line in enumerate(lines) if line.startswith("most likely results"))
    likeliest = sorted(payload["joint_losses"], key=lambda cell: -cell["p"])[:5]
    for line, cell in zip(lines[start + 2 : start + 2 + len(likeliest)], likeliest, strict=True):
        mine_lost, their_lost, chance = line.split()
        assert (int(mine_lost), int(their_lost)) == (cell[mine], cell[theirs])
        assert abs(float(chance.rstrip("%")) - 100 * cell["p"]) <= 0.05 + 1e-9
    lines = lines[: start - 1]
    chart = lines[next(i for i, line in enumerate(lines) if line.startswith("at least k")) + 2:]
    tails = [payload[mine]["at_least"], payload[theirs]["at_least"]]
    bar = bar_width(width)
    assert chart and chart[0].startswith("≥1")
    for k, line in enumerate(chart, start=1):
        shown = [float(p) for p in re.findall(r"([\d.]+)%", line)]
        expected = [100 * t[k] for t in tails if k < len(t)]
        assert len(shown) == len(expected), line
        for got, want in zip(shown, expected, strict=True):
            assert abs(got - want) <= 0.05 + 1e-9, (k, line)
        if k < len(tails[0]):  # my side's bar: P(at least k) of the bar's cells filled
            assert line[4 : 4 + bar].count("█") == round(tails[0][k] * bar), (k, line)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_fray_view_opens_on_the_cursor_unit_and_shows_the_payload(store, tmp_path, size):
    fray_view._CACHE.clear()
    system, app = await _editor(tmp_path, store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        editor = app.screen
        screen = await _open_odds(app, pilot, f"units[{ROYAL_GUARD}].troops")
        # the Fray tab, on the unit under the cursor (not an empty "choose a unit")
        assert screen.query_one("#odds-tabs", TabbedContent).active == "tab-fray"
        assert screen.query_one("#fray-mine", Select).value == ROYAL_GUARD
        view = await _choose_wolfen(screen, app, pilot)
        assert screen.query_one("#fray-charge", Checkbox).value  # a charge by default
        session = editor.session
        other = load_sample(system, "acheron-undead-host")
        forward = system.fray_odds(session.cat, session.army, ROYAL_GUARD, other, WOLFEN, True).payload
        backward = system.fray_odds(session.cat, other, WOLFEN, session.army, ROYAL_GUARD, True).payload
        assert view.shown_payload(0) == forward and view.shown_payload(1) == backward
        width = view.panel_width()
        text = _text(screen, "#fray-forward")
        assert text.startswith("Charge: your Royal guard against their Wolfen zombies")
        _check_panel(text, forward, "attacker", width)
        _check_panel(_text(screen, "#fray-backward"), backward, "defender", width)
        back_panel = screen.query_one("#fray-backward", Static)
        if size[0] < fray_view.WIDE:
            # one direction at a time; ctrl+t shows the other
            assert back_panel.region.height == 0
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert back_panel.region.height > 0 and screen.query_one("#fray-forward", Static).region.height == 0
            assert "ctrl+t" in _text(screen, "#fray-status")
        else:
            # side by side
            front = screen.query_one("#fray-forward", Static).region
            assert back_panel.region.y == front.y and back_panel.region.x > front.x
        for selector in ("#fray-mine", "#fray-opponent", "#fray-theirs", "#fray-charge", "#fray-status"):
            region = screen.query_one(selector).region
            assert region.height > 0 and region.bottom <= size[1] and region.right <= size[0], selector
        # without a charge: both directions again, the same numbers as the system's
        await pilot.click("#fray-charge")
        await _settle(app, pilot)
        assert not screen.query_one("#fray-charge", Checkbox).value
        assert view.shown_payload(0) == system.fray_odds(session.cat, session.army, ROYAL_GUARD, other, WOLFEN, False).payload
        assert "no charge" in " ".join(_text(screen, "#fray-forward").split())  # the title wraps between words
        # the One roll tab (built when first shown) starts on the cursor unit too
        screen.query_one("#odds-tabs", TabbedContent).active = "tab-roll"
        await _settle(app, pilot)
        assert screen.query_one("#odds-mine", Select).value == ROYAL_GUARD
        assert "My unit attacks" in _text(screen, "#odds-forward")


async def test_fray_view_follows_the_list_as_it_is_edited(store, tmp_path):
    fray_view._CACHE.clear()
    system, app = await _editor(tmp_path, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.screen
        screen = await _open_odds(app, pilot, f"units[{ROYAL_GUARD}].troops")
        view = await _choose_wolfen(screen, app, pilot)
        assert view.shown_payload(0)["attacker"]["fighters"] == 4
        # back to the list, one guardsman fewer, odds again: same opponent, new numbers
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor
        await pilot.press("minus")
        await pilot.pause()
        assert editor.session.army.units[ROYAL_GUARD].troops.count == 3
        await pilot.press("o")
        await _settle(app, pilot)
        screen = app.screen
        view = screen.query_one(FrayView)
        assert screen.query_one("#fray-opponent", Select).value == "acheron-undead-host"  # remembered
        assert screen.query_one("#fray-theirs", Select).value == WOLFEN
        other = load_sample(system, "acheron-undead-host")
        session = editor.session
        assert view.shown_payload(0) == system.fray_odds(session.cat, session.army, ROYAL_GUARD, other, WOLFEN, True).payload
        assert view.shown_payload(0)["attacker"]["fighters"] == 3
        assert "Royal guard" in _text(screen, "#fray-forward")
        # the list changes while the screen is open (undo): it computes again on its own
        session.undo()
        await pilot.pause(0.8)
        await _settle(app, pilot)
        assert view.shown_payload(0)["attacker"]["fighters"] == 4
        assert view.shown_payload(0) == system.fray_odds(session.cat, session.army, ROYAL_GUARD, other, WOLFEN, True).payload


async def test_implacable_riders_show_their_new_combats(store, tmp_path):
    """Implacable riders: the fray view answers, with how often the Implacable combat is fought
    (the same figure as the command line's payload), at 80 columns."""
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_file

    fray_view._CACHE.clear()
    riders = tmp_path / "riders.yaml"
    riders.write_text(THALLION, encoding="utf-8")
    app = ArmyBuilderApp(open_file(riders, store), store=store, recovery_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await _open_odds(app, pilot, "units[0]")
        view = await _choose_wolfen(screen, app, pilot)
        assert screen.query_one("#fray-mine", Select).value == 0
        session = app.screen_stack[-2].session
        expected = session.system.fray_odds(session.cat, view.army, 0, view.other, WOLFEN, True).payload
        assert view.shown_payload(0) == expected
        (fought,) = expected["implacable_combats"]
        assert 0.0 < fought < 1.0
        panel = _text(screen, "#fray-forward")
        assert "Thallion" in panel and "Implacable combat fought" in panel
        assert f"{100 * fought:5.1f}%" in panel
        assert "exact result" in _text(screen, "#fray-status")


async def test_opponent_from_a_list_file_is_checked(tmp_path, store):
    """A list file as the opponent: a missing file, another game's list and a broken file are
    refused with a sentence; a good file offers its units (names shown as written, not markup)."""
    system, samples = other_system("ragnarok2")
    army = load_sample(system, "alahan-lions")
    cat = system.catalogue_for(army)
    morpheus, morpheus_samples = other_system("morpheus-ragnarok")
    other_game = tmp_path / "morpheus.yaml"
    other_game.write_bytes(morpheus_samples[0][1].read_bytes())
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: ragnarok2\nunits: [\n", encoding="utf-8")
    good = tmp_path / "theirs.yaml"
    text = next(item for rel, item in samples if rel == "acheron-undead-host.yaml").read_text(encoding="utf-8")
    good.write_text(text.replace("name: Wolfen zombies", "name: '[red]Wolfen[/red] zombies'"), encoding="utf-8")
    from screen_host import Host

    screen = OddsScreen(system, army, cat)
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen.query_one("#fray-mine", Select).value = ROYAL_GUARD
        screen.query_one("#fray-opponent", Select).value = FILE
        await pilot.pause()
        box = screen.query_one("#fray-file", Input)
        assert box.region.height > 0 and box.region.bottom <= 24  # the path field appears
        for path, words in (
            (tmp_path / "nowhere.yaml", "no such file"),
            ("~no-such-user-here/list.yaml", "home directory"),
            ("bad\x00name.yaml", "bad\\x00name.yaml: no such file"),  # the NUL shown, not sent
            (tmp_path, "a folder"),
            (other_game, "not Rag'Narok 2"),
            (broken, "broken.yaml:"),
        ):
            box.value = str(path)
            box.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert words in _text(screen, "#fray-status"), (path, _text(screen, "#fray-status"))
            assert screen.query_one("#fray-theirs", Select).value is Select.NULL
        box.value = str(good)
        await pilot.press("enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        theirs = screen.query_one("#fray-theirs", Select)
        labels = [str(prompt) for prompt, _ in theirs._options]
        assert "[red]Wolfen[/red] zombies" in labels
        theirs.value = labels.index("[red]Wolfen[/red] zombies") - (1 if theirs._allow_blank else 0)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert "[red]Wolfen[/red] zombies" in _text(screen, "#fray-forward")


async def test_computing_stays_responsive_and_can_be_abandoned(monkeypatch, tmp_path, store):
    """A slow fray (held back here by an event): the screen answers keys meanwhile; ctrl+g
    abandons it and the late result is not shown; escape goes back."""
    fray_view._CACHE.clear()
    system, app = await _editor(tmp_path, store)
    release = threading.Event()
    real = type(system).fray_odds

    def slow(self_cat, *args):
        release.wait(10)
        return real(system, self_cat, *args)

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        editor = app.screen
        monkeypatch.setattr(system, "fray_odds", slow)
        screen = await _open_odds(app, pilot, f"units[{ROYAL_GUARD}]")
        view = screen.query_one(FrayView)
        await pilot.pause()
        assert view.computing and "computing" in _text(screen, "#fray-status")
        assert "computing…" in _text(screen, "#fray-forward")
        shown = {key.description: key.region for key in screen.query("FooterKey")}
        assert "Cancel" in shown and "Compute" not in shown  # Cancel in the place of Compute
        assert 0 < shown["Quit"].right <= 80, shown  # every key fits an 80-column footer
        await pilot.press("ctrl+t")  # the screen still answers
        await pilot.pause()
        assert view.choices.shown == 1
        assert screen.check_action("cancel", ())  # offered while computing
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert app.screen is screen and not view.computing and not screen.check_action("cancel", ())
        assert "cancelled" in _text(screen, "#fray-status")
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert view.shown_payload(0) is None and view.shown_payload(1) is None  # outdated: not shown
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is editor


@pytest.mark.parametrize("system_id", ["morpheus-ragnarok", "rattle-and-rend"])
async def test_other_systems_say_the_fray_view_does_not_apply(system_id):
    from screen_host import Host

    system, samples = other_system(system_id)
    army = load_sample(system, samples[0][0].removesuffix(".yaml"))
    screen = OddsScreen(system, army, system.catalogue_for(army))
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert screen.query_one("#odds-tabs", TabbedContent).active == "tab-roll"
        assert not screen.query(FrayView)
        assert f"{system.name} has no exact fray" in _text(screen, "#fray-none")


def test_fray_text_fits_its_width_and_escapes_names():
    payload = {
        "attacker": {"unit": "[b]Very long unit name that goes on and on[/b]", "fighters": 20, "p_rout": 0.123456,
                     "expected_losses": 3.14159, "expected_ap_eliminated": 77.77, "at_least": [1.0, 0.9, 0.5, 0.0004],
                     "characters": [{"name": "A Character with a truly endless name", "p_falls": 0.5}]},
        "defender": {"unit": "Zombies\x1b[2J", "fighters": 2, "p_rout": 1.0, "expected_losses": 2.0,
                     "expected_ap_eliminated": 20.0, "at_least": [1.0, 1.0, 1.0], "characters": []},
    }  # fmt: skip
    for width in (40, 57, 76):
        text = fray_text(payload, "Your unit charge theirs, with a title longer than the narrowest panel", "attacker", width)
        for line in text.plain.splitlines():
            assert cell_len(line) <= width, (width, line)
        assert "\x1b" not in text.plain and "[b]Very" in text.plain  # escaped, shown as written
        assert "12.3%" in text.plain and "100.0%" in text.plain and "falls" in text.plain
        rows = [line for line in text.plain.splitlines() if line.startswith("≥")]
        assert [r.split()[0] for r in rows] == ["≥1", "≥2"]  # ≥3 is below 0.05 % on both sides


async def test_mirror_opponent_and_an_empty_list():
    """'this list (mirror)' offers the list's own units; a list without units says so."""
    from screen_host import Host

    from armybuilder.core.registry import get_system
    from armybuilder.tui.widgets.fray_view import SELF

    system = get_system("ragnarok2")
    army = load_sample(system, "alahan-lions")
    cat = system.catalogue_for(army)
    screen = OddsScreen(system, army, cat)
    async with Host(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen.query_one("#fray-opponent", Select).value = SELF
        await pilot.pause()
        theirs = screen.query_one("#fray-theirs", Select)
        assert [value for _, value in theirs._options if value is not Select.NULL] == [c.value for c in system.fray_units(army, cat)]
        screen.query_one("#fray-mine", Select).value = ROYAL_GUARD
        theirs.value = ROYAL_GUARD
        view = screen.query_one(FrayView)
        expected = system.fray_odds(cat, army, ROYAL_GUARD, army, ROYAL_GUARD, True).payload
        # the view computes after a short delay, in a worker: wait for its answer, not for a time
        deadline = time.monotonic() + 20
        while view.shown_payload(0) != expected and time.monotonic() < deadline:
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.05)
        assert view.shown_payload(0) == expected
    empty = system.new_list(cat, faction="alahan")
    screen = OddsScreen(system, empty, cat)
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "no unit that can fight" in _text(screen, "#fray-status")
        assert screen.query_one("#fray-mine", Select).value is Select.NULL
