"""Keys per task, counted as a player presses them (figures in docs/editor.md).

Each test builds a legal list from an empty editor on the bundled catalogue, pressing only
keys (no direct calls), checks the list is legal, and that the number of keys is the one
docs/editor.md gives for the task: a change of the editor that adds or saves keys fails
here until the page says what it measures.
"""

from __future__ import annotations

from pathlib import Path

from tui_other_system import other_system

from armybuilder.core.findings import is_legal
from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp

EDITOR_PAGE = Path(__file__).resolve().parents[2] / "docs" / "editor.md"


def documented(task: str) -> int:
    """The keys docs/editor.md gives for the task whose row starts with ``task``."""
    for line in EDITOR_PAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith(task):
            return int(cells[1])
    raise AssertionError(f"docs/editor.md has no keys row for {task!r}")


class Keys:
    def __init__(self, pilot) -> None:
        self.pilot = pilot
        self.count = 0

    async def __call__(self, *keys: str) -> None:
        for key in keys:
            await self.pilot.press(key)
            self.count += 1
        await self.pilot.pause()

    async def text(self, words: str) -> None:
        await self(*list(words))


async def test_task_1_a_legal_1000_ap_list_of_four_units_with_a_war_staff(store):
    other_system("ragnarok2")
    app = ArmyBuilderApp(store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        press = Keys(pilot)
        await pilot.pause()
        system = get_system("ragnarok2")
        people = [c.value for c in system.factions(system.catalogue())]
        await press("n", "tab", "enter", *["down"] * people.index("tir-na-bor"), "enter")  # people
        await press("tab", "tab", "enter")  # Enter in the name box creates the list
        editor = app.screen
        await press("slash")
        await press.text("soldier")
        await press("enter", "backspace", "1", "7", "enter")  # 17 troops (+3 members = 20 fighters)
        for who in ("kael", "musician", "standard"):  # join the selected unit: a war staff
            await press("slash")
            await press.text(who)
            await press("enter")
        for who, count in (("crossbow", "20"), ("veteran", "20"), ("forge", "18")):
            await press("slash")
            await press.text(who)
            await press("enter", "backspace", *count, "enter")
        findings = editor.query_one("#findings")
        index = next(i for i, f in enumerate(findings.findings) if "commander-in-chief" in f.rule)
        await press("f3", *["down"] * index, "enter", "enter")  # jump to Kael, open its edits
        menu = app.screen.query_one("#menu")
        pos = next(i for i in range(menu.option_count) if "Commander-in-Chief" in str(menu.get_option_at_index(i).prompt))
        await press(*["down"] * pos, "enter")
        s = editor.session
        assert len(s.army.units) == 4 and is_legal(s.findings()), [f.message for f in s.findings()]
        assert press.count == documented("Rag'Narok 2: a legal 1000 A.P. Tir-Nâ-Bor"), press.count


async def test_task_1b_a_legal_1000_ap_syharhalna_list_of_another_people(store):
    """The same task for a people the README does not use: Syharhalna, four units, a war staff."""
    other_system("ragnarok2")
    app = ArmyBuilderApp(store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        press = Keys(pilot)
        await pilot.pause()
        system = get_system("ragnarok2")
        people = [c.value for c in system.factions(system.catalogue())]
        await press("n", "tab", "enter", *["down"] * people.index("syharhalna"), "enter")  # people
        await press("tab", "tab", "enter")  # Enter in the name box creates the list
        editor = app.screen
        await press("slash")
        await press.text("halb")
        await press("enter", "backspace", "1", "7", "enter")  # 17 halberdiers (+3 members = 20 fighters)
        for who in ("thissan", "musician (2", "standard-bearer of d"):  # a war staff
            await press("slash")
            await press.text(who)
            await press("enter")
        for who, count in (("crossbowman (1", "20"), ("belisarius w", "20"), ("clone of", "18")):
            await press("slash")
            await press.text(who)
            await press("enter", "backspace", *count, "enter")
        findings = editor.query_one("#findings")
        index = next(i for i, f in enumerate(findings.findings) if "commander-in-chief" in f.rule)
        await press("f3", *["down"] * index, "enter", "enter")  # jump to Thissan Ka, open its edits
        menu = app.screen.query_one("#menu")
        pos = next(i for i in range(menu.option_count) if "Commander-in-Chief" in str(menu.get_option_at_index(i).prompt))
        await press(*["down"] * pos, "enter")
        s = editor.session
        assert len(s.army.units) == 4 and is_legal(s.findings()), [f.message for f in s.findings()]
        assert press.count == documented("Rag'Narok 2: a legal 1000 A.P. Syharhalna"), press.count


async def test_task_2_a_legal_rattle_and_rend_warband(store):
    other_system("rattle-and-rend")
    app = ArmyBuilderApp(store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        press = Keys(pilot)
        await pilot.pause()
        await press("n", "enter", "down", "enter")  # system: Rattle and Rend
        await press("tab", "tab", "tab", "enter")
        s = app.screen.session
        for what in ("fight", "fight", "shoot", "skirm"):
            await press("slash")
            await press.text(what)
            await press("enter", "enter")  # the form asks an optional label
        for what in ("heavy", "ward"):  # the form asks the heavy trait / warding reaction
            await press("slash")
            await press.text(what)
            await press("enter", "enter", "down", "enter", "enter")
        for what in ("ambush", "blessed", "discipl"):  # two traits and the drive
            await press("slash")
            await press.text(what)
            await press("enter")
        assert is_legal(s.findings()), [f.message for f in s.findings()]
        assert press.count == documented("Rattle and Rend"), press.count


async def test_task_3_a_legal_morpheus_war_clan(store):
    other_system("morpheus-ragnarok")
    app = ArmyBuilderApp(store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        press = Keys(pilot)
        await pilot.pause()
        await press("n", "enter", "down", "down", "enter")  # system: Morpheus
        await press("tab", "tab", "tab", "enter")
        s = app.screen.session
        for what in ("jarl", "berserk", "berserk", "skald", "bondi", "bondi", "bondi"):
            await press("slash")
            await press.text(what)
            await press("enter")
        for what in ("thunder", "battle d", "winter"):
            await press("slash")
            await press.text(what)
            await press("enter")
        assert is_legal(s.findings()), [f.message for f in s.findings()]
        assert press.count == documented("Morpheus"), press.count
