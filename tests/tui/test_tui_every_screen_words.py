"""Words a player reads, on every screen of every system at 80×24 and 120×40 (issue 28,
Deliver 5).

The walk opens each system's first sample and an empty list, then visits what a player
sees: the home screen, the new-list form, the editor with the cursor on every line of the
list, every menu of edits (and its "show all"), every form (and every choice of its drop-downs), the catalogue's detail of one
entry of each kind, the export dialog and its question, the help, the odds screen's two
tabs with a unit chosen, the playtest before and after a short run, the meta and suggest screens.  Each
screen's text as drawn fails on a raw value (None, True, False), a catalogue or file id
where a name belongs, an "_" in a word, a count whose noun has the wrong number ("1
litany points", "2 unit"), or a word cut by the screen's width ("Syharhal…"; what does not
fit loses whole words and ends with " …").  The catalogue's details of every entry go through the same
checks as text.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.widgets import Input, Select

from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.modals import ActionForm, Menu
from armybuilder.tui.session import new_session, open_text
from armybuilder.tui.widgets.panels import ListTree, detail_text

SYSTEMS = ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok")
SIZES = ((80, 24), (120, 40))

RAW = re.compile(r"(?<![\w-])(None|True|False)(?![\w-])")
UNDERSCORE = re.compile(r"\b[A-Za-z]+_[A-Za-z_]*\b")
ONE_MANY = re.compile(r"(?<![\d.,+/-])\b1 ([A-Za-z]+s)\b")
SINGULAR_EXCEPTIONS = {"is", "was", "has", "this", "plus", "bonus", "less", "class", "pass", "miss", "Glory", "its", "us"}
NOUNS = (
    "point", "list", "unit", "fighter", "model", "warrior", "group", "game", "error", "warning", "entry", "trait",
    "choice", "item", "profile", "tactic", "miracle", "communion", "copy", "edit", "finding", "weapon", "familiar",
    "round", "litany point", "Aspect point", "God power", "Jarl", "member", "trooper",
)
# "7 warrior types", "a 2 point ally": a noun before another word is an adjective
MANY_ONE = re.compile(r"(?<![\d.,+/-])\b(0|[2-9]|\d{2,}) (" + "|".join(NOUNS) + r")\b(?![s'-]| [a-z])")
PATHS = re.compile(r"\S*/\S*|\S+\.(?:yaml|pdf|txt)\b")
# a word cut by the width ("Syharhal…"): text that does not fit loses whole words, then " …"
CUT_WORD = re.compile(r"([A-Za-z][\w'.-]*)…")  # ("0…3" is a range)
# the app's own labels that end with "…" on a whole word (a dialog follows)
WHOLE_BEFORE_ELLIPSIS = {
    "list", "file", "search", "tactic", "rank", "group", "as", "elsewhere", "name", "Export", "exporting", "computing",
    "fray", "cancelling", "tasks", "chunk",
}


def raw_ids(system: Any) -> set[str]:
    """Ids a player should never read: those of several words (a catalogue entry's, a
    sample file's) that no name of the catalogue holds as it is."""
    cat = system.catalogue()
    names = " ".join(e.name.lower() for e in system.browse(cat))
    ids = {rel.removesuffix(".yaml") for rel, _ in system.source.samples()}
    for collection, entries in cat.index.items():
        if collection != "decisions":  # "R2-D9" is how a ruling is cited, as a rule's source
            ids.update(str(i) for i in entries)
    return {i for i in ids if ("-" in i or "_" in i) and i.lower() not in names and not i[0].isdigit()}


def one_word_ids(system: Any) -> set[str]:
    """Ids of one word that differ from the entry's name ("frenzy" for Frenzy, "fayry"):
    such a word is common in a sentence ("into a frenzy"), so it counts as an id only where
    it stands as a value, alone on its line, in a column or after "label: ".  A collection's
    own kind word ("shield" under a shield's name) is a word."""
    cat = system.catalogue()
    out = set()
    for collection, entries in cat.index.items():
        # a table layout's id ("standard", "open") is what a player types after --table: a word
        if collection in ("decisions", "layouts"):
            continue
        kind = collection.removesuffix("s")
        for i, entry in entries.items():
            name = getattr(entry, "name", None)
            i = str(i)
            if name and name != i and "-" not in i and "_" not in i and not i[0].isdigit() and i != kind:
                out.add(i)
    return out


class Words:
    """The checks, and what they found, screen by screen."""

    def __init__(self, system: Any) -> None:
        self.ids = raw_ids(system)
        self.id_pattern = re.compile(r"(?<![\w/.-])(" + "|".join(map(re.escape, sorted(self.ids, key=len, reverse=True))) + r")(?![\w-])") if self.ids else None
        single = one_word_ids(system)
        # a value: alone on its line, in a column (two spaces, "│"), or after "label: "
        self.value_pattern = (
            re.compile(r"(?:^|(?<=: )|(?<=  )|(?<=│ ))(" + "|".join(map(re.escape, sorted(single, key=len, reverse=True))) + r")(?=$|  |[,;│])", re.M)
            if single
            else None
        )
        # a choice's detail ends on a value ("2 pts, reaction Countercharge"): its last word too
        self.choice_pattern = re.compile(r"(?<= )(" + "|".join(map(re.escape, sorted(single, key=len, reverse=True))) + r")$", re.M) if single else None
        self.problems: list[str] = []
        # names that hold a raw value's word ("Fly True", a God power) are names
        cat = system.catalogue()
        self.named = sorted({e.name for e in system.browse(cat) if RAW.search(e.name)}, key=len, reverse=True)

    def check(self, where: str, text: str, choices: bool = False) -> None:
        """The checks on ``text``; ``choices``: lines of a drop-down, whose last word is a value."""
        text = PATHS.sub(" ", text)
        for name in self.named:
            text = text.replace(name, " ")
        found = []
        for rx, what in ((RAW, "a raw value"), (UNDERSCORE, "an '_' in a word")):
            found += [(what, m) for m in rx.finditer(text)]
        found += [("1 with a plural", m) for m in ONE_MANY.finditer(text) if m.group(1) not in SINGULAR_EXCEPTIONS]
        found += [("a plural number with a singular noun", m) for m in MANY_ONE.finditer(text)]
        found += [("a word cut by the width", m) for m in CUT_WORD.finditer(text) if m.group(1) not in WHOLE_BEFORE_ELLIPSIS]
        if self.id_pattern is not None:
            found += [("a raw id", m) for m in self.id_pattern.finditer(text)]
        if self.value_pattern is not None:
            found += [("a raw id as a value", m) for m in self.value_pattern.finditer(text)]
        if choices and self.choice_pattern is not None:
            found += [("a raw id ending a choice", m) for m in self.choice_pattern.finditer(text)]
        for what, m in found:
            line = text[max(0, m.start() - 50): m.end() + 30].replace("\n", " ⏎ ")
            problem = f"{where}: {what}: …{line}…"
            if problem not in self.problems:
                self.problems.append(problem)


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _walk(nodes):
    for n in nodes:
        yield n
        yield from _walk(n.children)


def _kind(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


async def _settle(app, pilot, pause: float = 0.05) -> None:
    await pilot.pause(pause)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _back_to(screen, app, pilot) -> None:
    """Escape until *screen* is on top again: on a loaded machine a key may still be on its way
    when the next dialog opens, and the walk must not go on from a dialog left open."""
    for _ in range(5):
        await pilot.pause()
        if app.screen is screen:
            return
        await pilot.press("escape")
    assert app.screen is screen, app.screen


async def _walk_editor(app, pilot, words: Words, label: str) -> None:
    editor = app.screen
    s = editor.session
    tree = editor.query_one(ListTree)
    words.check(f"{label} editor", screen_text(app))
    menus_seen: set[str] = set()
    forms_seen: set[str] = set()
    for node in list(_walk(s.system.outline(s.army, s.cat))) + [None]:
        path = node.path if node is not None else ""
        if _kind(path) in menus_seen:  # one line of each kind: the same words, other figures
            continue
        menus_seen.add(_kind(path))
        tree.goto(path)
        editor.show_detail_for_tree()
        await pilot.pause()
        words.check(f"{label} cursor on {path or 'the list'}", screen_text(app))
        editor.open_edits_menu(path)
        await pilot.pause()
        if isinstance(app.screen, Menu):
            words.check(f"{label} edits menu at {path or 'the list'}", screen_text(app))
            await pilot.press("ctrl+l")
            words.check(f"{label} edits menu at {path or 'the list'} (show all)", screen_text(app))
            await _back_to(editor, app, pilot)
        for action in editor.actions_at(path):
            if not action.params or action.refused or action.id + action.label in forms_seen:
                continue
            forms_seen.add(action.id + action.label)
            editor.run_edit(path, action)
            await pilot.pause()
            if isinstance(app.screen, ActionForm):
                words.check(f"{label} form {action.label!r}", screen_text(app))
                await pilot.press("ctrl+l")
                words.check(f"{label} form {action.label!r} (show all)", screen_text(app))
                # every choice of its drop-downs, as the open list shows them
                for select in app.screen.query(Select):
                    shown = [getattr(prompt, "plain", str(prompt)) for prompt, _ in select._options]
                    words.check(f"{label} form {action.label!r} choices of #{select.id}", "\n".join(shown), choices=True)
            await _back_to(editor, app, pilot)
    # the catalogue: one entry of each kind, its detail on screen
    browser = editor.query_one("#browser")
    kinds: set[str] = set()
    entries = editor.query_one("#entries")
    for i, entry in enumerate(browser.shown):
        if entry.kind in kinds:
            continue
        kinds.add(entry.kind)
        entries.highlighted = i
        await pilot.pause()
        words.check(f"{label} catalogue entry {entry.name}", screen_text(app))


async def _walk_dialogs(app, pilot, words: Words, label: str) -> None:
    editor = app.screen
    s = editor.session
    await pilot.press("x")
    await pilot.pause()
    words.check(f"{label} export menu", screen_text(app))
    await pilot.press("enter")  # the PDF roster: a question first when unsaved
    await pilot.pause()
    words.check(f"{label} export question", screen_text(app))
    await pilot.press("escape")
    await pilot.pause()
    if app.screen is not editor:
        await pilot.press("escape")
    await pilot.press("question_mark")
    await pilot.pause()
    words.check(f"{label} help", screen_text(app))
    await pilot.press("escape")
    # the engine screens, on the first unit
    first = next(iter(s.system.outline(s.army, s.cat)))
    if first.children:
        editor.query_one(ListTree).goto(first.children[0].path)
    editor.query_one(ListTree).focus()
    await pilot.press("o")
    await _settle(app, pilot, 0.3)
    words.check(f"{label} odds (first tab)", screen_text(app))
    await pilot.press("ctrl+o")
    await _settle(app, pilot, 0.3)
    words.check(f"{label} odds (one roll)", screen_text(app))
    await pilot.press("ctrl+r")
    await _settle(app, pilot, 0.2)
    words.check(f"{label} odds (one roll, computed)", screen_text(app))
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("t")
    await _settle(app, pilot)
    words.check(f"{label} playtest", screen_text(app))
    app.screen.query_one("#pt-games", Input).value = "2"
    app.screen.query_one("#pt-workers", Input).value = "1"
    await pilot.press("ctrl+r")
    await _settle(app, pilot, 0.3)
    words.check(f"{label} playtest (run)", screen_text(app))
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("m")
    await _settle(app, pilot)
    words.check(f"{label} meta", screen_text(app))
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("g")
    await _settle(app, pilot)
    words.check(f"{label} suggest", screen_text(app))
    await pilot.press("escape")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_every_screen_in_plain_words(system_id, size, store):
    system = get_system(system_id)
    words = Words(system)
    rel, item = system.source.samples()[0]
    # home and the new-list form
    app = ArmyBuilderApp(store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        words.check("home", screen_text(app))
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one("#system").value = system_id
        await pilot.pause()
        words.check("new list", screen_text(app))
    # a sample, then an empty list
    for label, session in (
        (f"sample {rel}", open_text(item.read_text(encoding="utf-8"), rel, None, store)),
        ("empty list", new_session(system, None, None, "Empty", None, store)),
    ):
        app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await _walk_editor(app, pilot, words, label)
            if label.startswith("sample"):
                await _walk_dialogs(app, pilot, words, label)
    assert not words.problems, "\n".join(words.problems[:40])


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_catalogue_detail_in_plain_words(system_id):
    system = get_system(system_id)
    cat = system.catalogue()
    words = Words(system)
    for entry in system.browse(cat):
        words.check(f"detail of {entry.ref.id}", detail_text(system.detail(cat, entry.ref)).plain)
    assert not words.problems, "\n".join(words.problems[:40])


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_line_of_every_sample_in_plain_words(system_id):
    """Each line of the list tree of every bundled sample, whole (the tree cuts what does not
    fit): a line's detail ends on a value ("weapon, ST 3, ML, Lethal"), so its last word too."""
    system = get_system(system_id)
    words = Words(system)
    for rel, item in system.source.samples():
        session = open_text(item.read_text(encoding="utf-8"), rel, None, None)
        for node in _walk(system.outline(session.army, session.cat)):
            words.check(f"{rel} tree line {node.path}", f"{node.label}  {node.detail}", choices=True)
    assert not words.problems, "\n".join(words.problems[:40])
