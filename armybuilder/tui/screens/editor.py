"""The list editor: browser, list tree, detail, status bar and findings on one screen.

It speaks to the game only through ``GameSystem`` (outline, actions, apply, browse,
detail, status, validate), so one screen edits lists of every system. This module holds
the screen's layout, refresh and events; its edits are in ``editor_edits`` and its files
(save, export, engine screens) in ``editor_files``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Tree

from armybuilder.core.errors import InputError
from armybuilder.core.findings import Finding
from armybuilder.core.paths import ancestors
from armybuilder.core.sanitize import visible
from armybuilder.core.system import BrowserEntry

from .. import settle_memory, workspace
from ..session import Session
from ..widgets.keybar import KeyBar
from ..widgets.panels import (
    Browser,
    DetailPane,
    FindingsList,
    ListTree,
    StatusBar,
    detail_text,
    status_text,
)
from .editor_edits import EditsMixin
from .editor_files import EXPORT_KINDS, FilesMixin

__all__ = ["EXPORT_KINDS", "EditorScreen", "ancestors"]


class EditorScreen(EditsMixin, FilesMixin, Screen):
    """Edit one list; every edit goes through ``Session.apply`` (undoable)."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="save (asks a file name for a new list)"),
        Binding("ctrl+z", "undo", "Undo", priority=True, tooltip="undo the last edit (says which)"),
        Binding("ctrl+y", "redo", "Redo", priority=True, tooltip="redo what was undone"),
        Binding("slash", "search", "Search", tooltip="search the catalogue"),
        Binding("question_mark", "app.help", "Help", tooltip="this help"),
        Binding("x", "export", "Export", tooltip="export: PDF roster, cards, one-page summary, sheets, text roster"),
        Binding("u", "upgrade", "Upgrade", show=False, tooltip="upgrade the catalogue version"),
        Binding("d", "toggle_detail", "Detail", show=False, tooltip="show or hide the detail pane"),
        Binding("b", "toggle_browser", "Browser", show=False, tooltip="show or hide the catalogue"),
        Binding("o", "odds", "Odds", show=False, tooltip="odds panel"),
        Binding("t", "playtest", "Playtest", show=False, tooltip="playtest against a sample"),
        Binding("m", "meta", "Meta", show=False, tooltip="play this list against a folder of lists (meta)"),
        Binding("g", "suggest", "Suggest", show=False, tooltip="suggest: the legal edits that raise this list's win rate against a field"),
        Binding("f2", "focus_tree", "List", show=False, tooltip="go to the list tree"),
        Binding("f3", "focus_findings", "Findings", show=False, tooltip="go to the findings"),
        Binding("e", "next_finding(1)", "Next finding", show=False, tooltip="jump to the place of the next finding (E: the previous one)"),
        Binding("E", "next_finding(-1)", "Previous finding", show=False, tooltip="jump to the place of the previous finding"),
        Binding("s", "export_summary", "Summary", show=False, tooltip="export the one-page tournament summary (PDF)"),
    ]

    def __init__(self, session: Session, recovery_delay: float = 0.3) -> None:
        super().__init__()
        self.session = session
        self.recovery_delay = recovery_delay
        self._recovery_timer: Timer | None = None
        self._recovery_lock = threading.Lock()
        self._recovery_running = False  # a worker thread is writing the copy
        self._recovery_again = False  # an edit came while it was writing
        self._browser_version: tuple[str, str] | None = None
        self.last_findings: list[Finding] = []
        # what each undo step undoes, in the session's order (a recovery's is its edits)
        self._done: list[str] = ["the recovered edits (back to the file on disk)"] * len(session.undo_stack) if session.recovered else []
        self._undone: list[str] = []

    # -- layout ----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar("", id="titlebar", markup=False)
        with Horizontal(id="main"):
            yield Browser(id="browser")
            with Vertical(id="centre"):
                yield ListTree(id="tree")
            yield DetailPane(id="detail")
        yield StatusBar("", id="status", markup=False)
        yield FindingsList(id="findings")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#browser").border_title = "Catalogue"
        self.query_one("#tree").border_title = "List"
        self.query_one("#detail").border_title = "Detail"
        s = self.session
        first = next(iter(s.system.outline(s.army, s.cat)), None)
        self.refresh_all(s.selected or (first.path if first is not None else ""))
        self.query_one(ListTree).focus()
        self._apply_size(self.size.width)
        self.call_after_refresh(settle_memory)
        ready = getattr(self.app, "editor_ready", None)
        if ready is not None:
            self.call_after_refresh(ready, self)
        self.call_after_refresh(s.remember_later)  # drawn: now the bookkeeping

    def on_resize(self, event) -> None:
        self._apply_size(event.size.width)

    def _apply_size(self, width: int) -> None:
        self.set_class(width < 120, "-narrow")
        if self.is_mounted:
            self.refresh_status()  # the title bar keeps what fits whole

    # -- refresh -----------------------------------------------------------------

    def refresh_all(self, select: str | None = None) -> None:
        """Bring every panel up to date with the session's current list."""
        s = self.session
        cat = s.cat
        if self._browser_version != (cat.version, cat.hash):  # the hash: house catalogues too
            first = self._browser_version is None
            self._browser_version = (cat.version, cat.hash)
            browser = self.query_one(Browser)
            entries = s.system.browse(cat)
            if first:
                browser.chosen = self._default_filters(entries)
            browser.set_entries(entries)
        self.query_one(ListTree).show(s.system.outline(s.army, cat), select)
        self.refresh_status()
        self.last_findings = s.findings()
        # lines refer to the file as saved: shown only while the list matches it
        line_of = s.listfile.line_of if (s.path is not None and not s.dirty) else None
        self.query_one(FindingsList).show(self.last_findings, line_of, self.place_words)
        self.show_detail_for_tree()

    def _default_filters(self, entries: list[BrowserEntry]) -> dict[str, str]:
        """Start the browser on the list's own people / faction, when entries say theirs."""
        s = self.session
        key = s.system.faction_facet
        label = s.system.faction_name(s.army, s.cat)
        if key is None or not label:
            return {}
        return {key: label} if any(e.facets.get(key) == label for e in entries) else {}

    def place_words(self, where: str) -> str:
        """A list path in words: ``units[3].members[0]`` → "Kal-Nur in unit 4, Hammers"."""
        import re

        tree = self.query_one(ListTree)
        chain = [(p, tree.node_of(p)) for p in ancestors(where) if p]
        chain = [(p, n) for p, n in chain if n is not None]
        if not chain:
            return ""
        path, node = chain[0]
        assert node is not None

        def numbered(p: str, label: str) -> str:
            m = re.search(r"(\w+)\[(\d+)\]$", p)
            if not m:
                return label
            noun = m.group(1)[:-1] if m.group(1).endswith("s") else m.group(1)
            return f"{noun.replace('_', ' ')} {int(m.group(2)) + 1}, {label}"

        outer = next(((p, n) for p, n in chain[1:] if re.search(r"\[\d+\]$", p)), None)
        if outer is not None:
            outer_path, outer_node = outer
            assert outer_node is not None  # the chain holds only nodes found
            return f"{node.label} in {numbered(outer_path, outer_node.label)}"
        return numbered(path, node.label)

    def refresh_status(self) -> None:
        s = self.session
        cat = s.cat
        items = s.system.status(s.army, cat)
        points = s.system.points(s.army, cat)
        extra: list[tuple[str, str]] = []
        if not any(i.label.lower() in (points.unit.lower(), "points", "a.p.") for i in items):
            extra.insert(0, (f"{points.total:g}/{points.limit} {points.unit}", "bold"))
        newer = s.newer_version()
        extra.append((f"catalogue {s.army.catalogue}" + (f" ({newer} available: u)" if newer else ""), "yellow" if newer else "dim"))
        for use in cat.houses:  # house data: named, and flagged when it is not the pinned data
            extra.append((use.words().removeprefix("uses "), "dim" if use.status == "ok" else "bold red"))
        self.query_one("#status", StatusBar).show(status_text(items, extra, width=self.size.width - 2), lines=True)
        self.query_one("#titlebar", StatusBar).show(self._title(self.size.width - 2))

    def _title(self, room: int) -> Text:
        """The title bar: saved or not, the list's name, its game, people and format, its file.
        What does not fit in ``room`` cells goes whole, the file's folder first, then its name,
        then the game's name: no word is ever cut."""
        s = self.session
        cat = s.cat
        state = ("● unsaved  ", "bold yellow") if s.dirty else ("✔ saved  ", "green")
        faction = s.system.faction_name(s.army, cat)
        fmt = s.system.format_of(s.army, cat)
        setting = ", ".join(x for x in (faction, fmt.name if fmt else s.army.format) if x)
        where = workspace.shown(s.path) if s.path else "(not saved yet)"
        candidates = (
            (f"{s.system.name}, {setting}", where),
            (f"{s.system.name}, {setting}", s.path.name if s.path else where),
            (setting, s.path.name if s.path else where),
            (setting, ""),
        )
        for about, file in candidates:
            title = Text(no_wrap=True)
            title.append(*state)
            # escaped before Rich sees them: ``Text`` silently drops BEL, BS, VT, FF and CR
            title.append(visible(s.army.name), style="bold")
            title.append(f"  —  {visible(about)}")
            if file:
                title.append(f"   {visible(file)}", style="dim")
            if title.cell_len <= room:
                break
        return title

    def show_detail_for_tree(self) -> None:
        tree = self.query_one(ListTree)
        path = tree.current_path()
        node = tree.node_of(path)
        s = self.session
        if node is not None and node.ref is not None:
            self.query_one(DetailPane).show(detail_text(s.system.detail(s.cat, node.ref)))
            return
        text = Text()
        if node is not None:
            text.append(node.label + "\n", style="bold")
            if node.detail:
                text.append(node.detail + "\n", style="dim")
        if path == "":
            from armybuilder.core.lists import list_fingerprint

            text.append("Fingerprint ", style="bold")
            text.append(list_fingerprint(s.army, s.cat) + "\n")
            text.append(f"Catalogue {s.cat.name} {s.army.catalogue}\n", style="dim")
            for use in s.cat.houses:
                text.append(f"{use.words().capitalize()}" + (f" ({use.name})" if use.name else "") + "\n", style="dim")
            from armybuilder.core.organiser import organiser_facts

            for key, value in organiser_facts(s.army) or (("Tournament", "no player or event yet (enter: Tournament details)"),):
                text.append(f"{key} ", style="bold")
                text.append(f"{value}\n")
            text.append("\nNotes\n", style="bold")
            text.append((s.army.notes or "(none: press n to write some)") + "\n")
        notes = s.system.notes_at(s.army, path) if path else ""
        if notes:
            text.append("\nNotes\n", style="bold")
            text.append(notes + "\n")
        actions = [a for a in self.actions_at(path) if not a.refused]
        if actions:
            text.append("\nEdits here (enter)\n", style="bold")
            for a in actions:  # a bullet each: a label the narrow pane wraps still reads as one edit
                text.append(f"• {a.label}\n")
        self.query_one(DetailPane).show(text)

    def after_edit(self, select: str | None) -> None:
        self.refresh_all(select)
        self.schedule_recovery()

    def schedule_recovery(self) -> None:
        """Coalesced: one copy ``recovery_delay`` after the first edit of a burst.

        Not a debounce: a player editing without pause still gets a copy written every
        ``recovery_delay`` seconds, so a kill -9 loses at most that much.
        """
        if self._recovery_timer is None:
            self._recovery_timer = self.set_timer(self.recovery_delay, self.write_recovery)

    def write_recovery(self) -> None:
        """Hand the write to a worker thread (rendering a big list takes a while)."""
        self._recovery_timer = None
        with self._recovery_lock:
            if self._recovery_running:
                self._recovery_again = True  # the running worker writes once more
                return
            self._recovery_running = True
        self.run_worker(self._recovery_worker, thread=True, group="recovery", exit_on_error=False)

    def _recovery_worker(self) -> None:
        while True:
            try:
                self.session.write_recovery()
            except (InputError, OSError) as exc:
                self.app.call_from_thread(
                    self.notify, f"could not write the recovery copy: {exc}", severity="warning", markup=False
                )
            with self._recovery_lock:
                if not self._recovery_again:
                    self._recovery_running = False
                    return
                self._recovery_again = False

    # -- events --------------------------------------------------------------------

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if event.node.data is not None:
            self.session.selected = event.node.data
        self.show_detail_for_tree()

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        self.open_edits_menu(event.node.data or "")

    def on_browser_entry_highlighted(self, event: Browser.EntryHighlighted) -> None:
        if event.entry is not None:
            s = self.session
            self.query_one(DetailPane).show(detail_text(s.system.detail(s.cat, event.entry.ref)))

    def on_browser_entry_chosen(self, event: Browser.EntryChosen) -> None:
        self.add_from_browser(event.entry)

    def on_findings_list_jump(self, event: FindingsList.Jump) -> None:
        self.jump_to(event.finding)

    def on_descendant_focus(self, event) -> None:
        if isinstance(event.widget, ListTree):
            self.show_detail_for_tree()

    # -- command palette -------------------------------------------------------------

    def palette_commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        """Every action of the editor, plus every edit allowed at the cursor and on the list."""
        out: list[tuple[str, Callable[[], Any], str]] = [
            ("Save", self.action_save, "ctrl+s"),
            ("Save as…", self.action_save_as, "write the list to another file"),
            ("Reload from disk", self.action_reload, "take the file as saved now (your edits stay in undo)"),
            ("Undo", self.action_undo, "ctrl+z"),
            ("Redo", self.action_redo, "ctrl+y"),
            ("Search the catalogue", self.action_search, "/"),
            (f"Filter the catalogue ({', '.join(self.query_one(Browser).facet_names()) or 'no filters'})", self.action_filters, "f in the browser"),
            ("Upgrade the catalogue version", self.action_upgrade, "u: see what changes, then apply"),
            ("Export…", self.action_export, "x: PDF roster, cards, one-page summary, sheets, text roster"),
        ]
        for key, label in EXPORT_KINDS:
            out.append((f"Export: {label}", partial(self.export_checked, key), "shows the file, then writes it"))
        paper = getattr(self.app, "paper", "A4")
        other = "Letter" if paper == "A4" else "A4"
        out.append((f"Export paper: use {other} (now {paper})", partial(self.set_paper, other), "for PDF exports"))
        out += [
            ("Odds panel", self.action_odds, "o"),
            ("Playtest", self.action_playtest, "t"),
            ("Meta: this list against a folder of lists", self.action_meta, "m"),
            ("Suggest: the edits that raise this list's win rate", self.action_suggest, "g"),
            ("Show or hide the detail pane", self.action_toggle_detail, "d"),
            ("Show or hide the catalogue browser", self.action_toggle_browser, "b"),
            ("Go to the findings", self.action_focus_findings, "f3"),
            ("Go to the list", self.action_focus_tree, "f2"),
            ("Close the list (back home)", self.action_close_list, ""),
            ("Help: keys", self.app.action_help, "?"),  # type: ignore[attr-defined]
            ("Change the colour theme", self.app.action_change_theme, "Textual's themes"),
        ]
        path = self.query_one(ListTree).current_path()
        seen = set()
        for place in dict.fromkeys([path, ""]):
            node = self.query_one(ListTree).node_of(place)
            where = node.label if node is not None and place else "list"
            for action in self.actions_at(place):
                if action.refused or (action.label, place) in seen:
                    continue
                seen.add((action.label, place))
                out.append((f"{action.label} ({where})", partial(self.run_edit, place, action), f"edit at {place or 'the list'}"))
        for f in self.last_findings:
            if f.where:
                out.append((f"Go to finding: {f.message[:70]}", partial(self.jump_to, f), f.rule))
        return out

