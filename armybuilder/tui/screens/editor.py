"""The list editor: browser, list tree, detail, status bar and findings on one screen.

It speaks to the game only through ``GameSystem`` (outline, actions, apply, browse,
detail, status, validate), so one screen edits lists of every system.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Tree

from armybuilder.core.atomic import SaveConflict
from armybuilder.core.errors import InputError
from armybuilder.core.findings import Finding
from armybuilder.core.paths import ancestors
from armybuilder.core.system import BrowserEntry, EditAction

from .. import prefs
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
from .modals import ActionForm, Confirm, FacetFilters, Menu, PathPrompt

EXPORT_KINDS = (
    ("roster", "PDF roster"),
    ("roster-cards", "PDF roster with reference cards"),
    ("sheets", "PDF reference sheets of the game"),
    ("text", "Text roster (forums, organisers)"),
)


class EditorScreen(Screen):
    """Edit one list; every edit goes through ``Session.apply`` (undoable)."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="save (asks a file name for a new list)"),
        Binding("ctrl+z", "undo", "Undo", priority=True, tooltip="undo the last edit (says which)"),
        Binding("ctrl+y", "redo", "Redo", priority=True, tooltip="redo what was undone"),
        Binding("slash", "search", "Search", tooltip="search the catalogue"),
        Binding("question_mark", "app.help", "Help", tooltip="this help"),
        Binding("x", "export", "Export", tooltip="export: PDF roster, cards, sheets, text roster"),
        Binding("u", "upgrade", "Upgrade", show=False, tooltip="upgrade the catalogue version"),
        Binding("d", "toggle_detail", "Detail", show=False, tooltip="show or hide the detail pane"),
        Binding("b", "toggle_browser", "Browser", show=False, tooltip="show or hide the catalogue"),
        Binding("o", "odds", "Odds", show=False, tooltip="odds panel"),
        Binding("t", "playtest", "Playtest", show=False, tooltip="playtest against a sample"),
        Binding("m", "meta", "Meta", show=False, tooltip="play this list against a folder of lists (meta)"),
        Binding("f2", "focus_tree", "List", show=False, tooltip="go to the list tree"),
        Binding("f3", "focus_findings", "Findings", show=False, tooltip="go to the findings"),
    ]

    def __init__(self, session: Session, recovery_delay: float = 0.3) -> None:
        super().__init__()
        self.session = session
        self.recovery_delay = recovery_delay
        self._recovery_timer: Timer | None = None
        self._recovery_lock = threading.Lock()
        self._recovery_running = False  # a worker thread is writing the copy
        self._recovery_again = False  # an edit came while it was writing
        self._browser_version: str | None = None
        self.last_findings: list[Finding] = []
        self._done: list[str] = []  # what each undo step undoes, in the session's order
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
        self.call_after_refresh(_settle_memory)
        ready = getattr(self.app, "editor_ready", None)
        if ready is not None:
            self.call_after_refresh(ready, self)

    def on_resize(self, event) -> None:
        self._apply_size(event.size.width)

    def _apply_size(self, width: int) -> None:
        self.set_class(width < 120, "-narrow")

    # -- refresh -----------------------------------------------------------------

    def refresh_all(self, select: str | None = None) -> None:
        """Bring every panel up to date with the session's current list."""
        s = self.session
        cat = s.cat
        if self._browser_version != cat.version:
            first = self._browser_version is None
            self._browser_version = cat.version
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
        self.query_one("#status", StatusBar).show(status_text(items, extra))
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append("● unsaved  " if s.dirty else "✔ saved  ", style="bold yellow" if s.dirty else "green")
        title.append(s.army.name, style="bold")
        title.append(f"  —  {s.system.name}", style="")
        faction = s.system.faction_of(s.army)
        if faction is not None:
            title.append(f", {faction}")
        fmt = s.system.format_of(s.army, cat)
        title.append(f", {fmt.name if fmt else s.army.format}")
        title.append(f"   {s.path if s.path else '(not saved yet)'}", style="dim")
        self.query_one("#titlebar", StatusBar).show(title)

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
        actions = s.system.actions(s.army, s.cat, path)
        if actions:
            text.append("\nEdits here (enter)\n", style="bold")
            for a in actions:
                text.append(f"  {a.label}\n")
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

    # -- edits ------------------------------------------------------------------------

    def apply(self, path: str, action_id: str, args: dict[str, Any]) -> str:
        """Apply an edit and refresh; ValueError (the system's refusal) propagates.

        Any other exception is a bug in a game system: it becomes a ValueError with a
        plain message, so the editor (and the player's unsaved list) survives it.
        """
        stack = self.session.undo_stack
        before = stack[-1] if stack else None
        what = self._describe(path, action_id)
        try:
            select = self.session.apply(path, action_id, args)
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - never lose the list to a system bug
            raise ValueError(f"this edit failed inside {self.session.system.name} ({type(exc).__name__}: {exc}); please report it") from exc
        if (stack[-1] if stack else None) is not before:  # a new undo step (not a no-op edit)
            self._remember_edit(what)
        self.after_edit(select)
        return select

    def _describe(self, path: str, action_id: str) -> str:
        """"Change the number of troops on Spearman": what an edit was, for undo and redo."""
        label = next((a.label for a in self.actions_at(path) if a.id == action_id), action_id.replace("-", " "))
        node = self.query_one(ListTree).node_of(path)
        return f"{label} on {node.label}" if node is not None and path else label

    def _remember_edit(self, what: str) -> None:
        self._done.append(what)
        self._undone.clear()
        del self._done[: max(0, len(self._done) - len(self.session.undo_stack))]

    def run_edit(self, path: str, action: EditAction, preset: dict[str, Any] | None = None) -> None:
        """Apply ``action``, asking its parameters in a form when some are not given."""
        preset = dict(preset or {})
        missing = [p for p in action.params if p.name not in preset]
        if not missing:
            try:
                self.apply(path, action.id, preset)
            except ValueError as exc:
                self.notify(str(exc), title=action.label, severity="error", markup=False)
                return
            if action.destructive:
                self.notify(f"{action.label}: done (ctrl+z to undo)", markup=False)
            return

        def check(values: dict[str, Any]) -> str | None:
            try:
                self.apply(path, action.id, {**values, **preset})
            except ValueError as exc:
                return str(exc)
            return None

        self.app.push_screen(ActionForm(action, preset, check))

    def actions_at(self, path: str) -> list[EditAction]:
        s = self.session
        return s.system.actions(s.army, s.cat, path)

    def open_edits_menu(self, path: str, only: Callable[[EditAction], bool] | None = None, title: str = "Edits") -> None:
        actions = [a for a in self.actions_at(path) if only is None or only(a)]
        if not actions:
            self.notify("no edit of that kind here", severity="warning")
            return
        if only is not None and len(actions) == 1:
            self.run_edit(path, actions[0])
            return
        node = self.query_one(ListTree).node_of(path)
        where = node.label if node is not None else (path or "the list")
        items = []
        for i, a in enumerate(actions):
            label = Text(a.label, style="red" if a.destructive else "")
            if a.params:
                label.append(" …", style="dim")
            items.append((str(i), label))

        def chosen(key: str | None) -> None:
            if key is not None:
                self.run_edit(path, actions[int(key)])

        self.app.push_screen(Menu(f"{title}: {where}", items), chosen)

    def add_from_browser(self, entry: BrowserEntry) -> None:
        """Find the edit (here, or at an enclosing place) whose choices hold this entry."""
        path = self.query_one(ListTree).current_path()
        # edits that add come first (picking a troop profile on a unit adds a unit, it
        # does not swap the unit's troops); any other edit offering the entry comes next
        refusal = ""
        for adding in (True, False):
            for place in ancestors(path):
                for action in self.actions_at(place):
                    if (action.kind == "add") != adding:
                        continue
                    for param in action.params:
                        if param.kind != "choice":
                            continue
                        choice = next((c for c in param.choices if c.value == entry.ref.id), None)
                        if choice is None:
                            continue
                        if choice.refused:  # the same reason the validator would give
                            refusal = refusal or choice.refused
                            continue
                        self.run_edit(place, action, {param.name: entry.ref.id})
                        return
        if refusal:
            self.notify(f"{entry.name} cannot be added here: {refusal}", severity="warning", markup=False)
            return
        self.notify(f"{entry.name} cannot be added here; select a place in the list first", severity="warning", markup=False)

    def jump_to(self, finding: Finding) -> None:
        tree = self.query_one(ListTree)
        tree.goto(finding.where)
        tree.focus()
        self.show_detail_for_tree()

    # -- actions (keys and palette) ---------------------------------------------------

    def action_add_here(self) -> None:
        self.open_edits_menu(self.query_one(ListTree).current_path(), lambda a: a.kind == "add", "Add")

    def action_step_count(self, delta: int) -> None:
        """``+``/``-``: one more or one fewer of the selected unit's troops (or warriors…).

        Uses the system's own "set-count" edit at the cursor or its enclosing place, so a
        quantity is stepped without opening a form (typing it stays possible with Enter).
        """
        path = self.query_one(ListTree).current_path()
        for place in ancestors(path):
            for action in self.actions_at(place):
                ints = [p for p in action.params if p.kind == "int"]
                if action.id != "set-count" or len(ints) != 1 or ints[0].default is None:
                    continue
                param = ints[0]
                value = int(param.default) + delta
                low = param.minimum if param.minimum is not None else 0
                high = param.maximum if param.maximum is not None else 999
                if not low <= value <= high:
                    self.notify(f"{param.label}: between {low:g} and {high:g}", severity="warning")
                    return
                try:
                    self.apply(place, action.id, {param.name: value})
                except ValueError as exc:
                    self.notify(str(exc), severity="error", markup=False)
                    return
                self.query_one(ListTree).goto(path)
                return
        self.notify("nothing to count here: select a unit", severity="warning")

    def action_remove_here(self) -> None:
        path = self.query_one(ListTree).current_path()
        found = [a for a in self.actions_at(path) if a.kind == "remove"]
        if not found:
            self.notify("nothing to remove here", severity="warning")
            return
        self.run_edit(path, found[0])

    def action_rename_here(self) -> None:
        path = self.query_one(ListTree).current_path()
        self.open_edits_menu(path, lambda a: a.kind == "rename", "Rename")

    def action_notes_here(self) -> None:
        path = self.query_one(ListTree).current_path()
        self.open_edits_menu(path, lambda a: a.kind == "notes", "Notes")

    def action_undo(self) -> None:
        known = len(self._done) == len(self.session.undo_stack)
        if self.session.undo():
            what = self._done.pop() if known and self._done else "the last change"
            self._undone.append(what)
            self.after_edit(self.session.selected)
            self.notify(f"undone: {what} (ctrl+y redoes it)", markup=False)
        else:
            self.notify("nothing to undo")

    def action_redo(self) -> None:
        if self.session.redo():
            what = self._undone.pop() if self._undone else "the last undone change"
            self._done.append(what)
            self.after_edit(self.session.selected)
            self.notify(f"redone: {what}", markup=False)
        else:
            self.notify("nothing to redo")

    def action_search(self) -> None:
        browser = self.query_one(Browser)
        browser.display = True
        self.query_one("#search", Input).focus()

    def action_filters(self) -> None:
        browser = self.query_one(Browser)

        def chosen(result: dict[str, str] | None) -> None:
            if result is not None:
                browser.set_filters(result)

        self.app.push_screen(FacetFilters(browser.facet_values(), browser.chosen), chosen)

    def action_focus_tree(self) -> None:
        self.query_one(ListTree).focus()

    def action_focus_findings(self) -> None:
        self.query_one(FindingsList).focus()

    def action_toggle_detail(self) -> None:
        pane = self.query_one(DetailPane)
        flag = "-shown" if self.has_class("-narrow") else "-hidden"
        pane.set_class(not pane.has_class(flag), flag)

    def action_toggle_browser(self) -> None:
        browser = self.query_one(Browser)
        browser.display = not browser.display

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        s = self.session
        if s.path is None:
            folder = prefs.lists_dir(self._prefs_root())
            default = str(folder / (s.suggested_name or _slug(s.army.name) + ".yaml"))

            def check(path: Path) -> str | None:
                if not path.parent.is_dir() and path.parent == folder:
                    path.parent.mkdir(parents=True, exist_ok=True)  # the documented default folder
                if not path.parent.is_dir():
                    return f"no folder {path.parent}"
                return None

            def chosen(path: Path | None) -> None:
                if path is not None:
                    self._save_as(path, then)

            self.app.push_screen(PathPrompt("Save the list as", default, check), chosen)
            return
        self._save_to(None, then)

    def _save_as(self, path: Path, then: Callable[[], None] | None = None) -> None:
        """Save under ``path``, asking first if that replaces another existing file."""
        from armybuilder.core.lists import same_file

        if not (path.exists() or path.is_symlink()) or same_file(path, self.session.path):
            self._save_to(path, then)
            return
        body = Text()
        body.append(str(path), style="bold")
        body.append(" exists already. Replace it with this list?")

        def chosen(key: str | None) -> None:
            if key == "replace":
                self._save_to(path, then, overwrite=True)
            elif key == "other":
                self.action_save_as()

        self.app.push_screen(
            Confirm("Replace the file?", body, (("cancel", "Cancel", "primary"), ("replace", "Replace it", "error"), ("other", "Another name…", "default"))),
            chosen,
        )

    def _ask_conflict(self, exc: SaveConflict, then: Callable[[], None] | None) -> None:
        """The file changed since it was read: reload it, overwrite it, or save elsewhere."""
        body = Text()
        body.append(str(exc))
        body.append(
            "\n\nReload: take the file as it is now (your edits stay in undo, ctrl+z)."
            "\nOverwrite: replace it with your list (the other changes are lost)."
            "\nSave elsewhere: keep both."
        )

        def chosen(key: str | None) -> None:
            if key == "reload":
                self.action_reload()
            elif key == "overwrite":
                self._save_to(None, then, overwrite=True)
            elif key == "elsewhere":
                self.action_save_as()

        self.app.push_screen(
            Confirm(
                "The file changed on disk",
                body,
                (("elsewhere", "Save elsewhere…", "primary"), ("reload", "Reload", "default"),
                 ("overwrite", "Overwrite", "error"), ("cancel", "Cancel", "default")),
            ),
            chosen,
        )

    def action_reload(self) -> None:
        try:
            self.session.reload()
        except InputError as exc:
            self.notify(str(exc), title="cannot reload", severity="error", markup=False)
            return
        self.refresh_all(self.session.selected)
        self.notify("reloaded from disk (ctrl+z brings your edits back)", markup=False)

    def _save_to(self, path: Path | None, then: Callable[[], None] | None = None, overwrite: bool = False) -> None:
        try:
            target = self.session.save(path, overwrite=overwrite)
        except SaveConflict as exc:
            self._ask_conflict(exc, then)
            return
        except InputError as exc:
            self.notify(str(exc), title="not saved", severity="error", markup=False)
            return
        if self._recovery_timer is not None:
            self._recovery_timer.stop()
            self._recovery_timer = None
        self.refresh_status()
        if path is not None:
            prefs.put("lists_dir", str(Path(target).parent.resolve()), self._prefs_root())
        self.notify(f"saved {target}", markup=False)
        if then is not None:
            then()

    def action_save_as(self) -> None:
        s = self.session
        default = str(s.path) if s.path else str(prefs.lists_dir(self._prefs_root()) / (_slug(s.army.name) + ".yaml"))

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._save_as(path)

        self.app.push_screen(PathPrompt("Save the list as", default, lambda p: None if p.parent.is_dir() else f"no folder {p.parent}"), chosen)

    def action_upgrade(self) -> None:
        from armybuilder.core.upgrade import upgrade_impact

        s = self.session
        newer = s.newer_version()
        if newer is None:
            self.notify(f"catalogue {s.army.catalogue} is the latest version")
            return
        impact = upgrade_impact(s.system, s.army, newer)
        body = Text("\n".join(impact.lines()))

        def chosen(key: str | None) -> None:
            if key == "yes":
                s.replace(s.army.model_copy(update={"catalogue": impact.to_version}), s.selected)
                self._remember_edit(f"Upgrade to catalogue {impact.to_version}")
                self.after_edit(s.selected)
                self.notify(f"list moved to catalogue {impact.to_version} (ctrl+z to undo)")

        self.app.push_screen(
            Confirm(f"Upgrade to catalogue {impact.to_version}?", body, (("yes", "Upgrade", "primary"), ("no", "Keep", "default"))),
            chosen,
        )

    def _prefs_root(self):
        return getattr(getattr(self.app, "store", None), "root", None)

    def export_folder(self) -> Path:
        return prefs.export_dir(Path(getattr(self.app, "export_dir", Path("exports"))), self._prefs_root())

    def export_target(self, kind: str, folder: Path | None = None) -> Path:
        """The file an export of ``kind`` writes (shown in full before writing)."""
        s = self.session
        folder = folder or self.export_folder()
        stem = s.path.stem if s.path else _slug(s.army.name)
        name = {
            "sheets": f"{s.system.id}-sheets.pdf",
            "text": f"{stem}.txt",
            "roster-cards": f"{stem}-cards.pdf",
        }.get(kind, f"{stem}.pdf")
        return folder / name

    def action_export(self) -> None:
        def chosen(key: str | None) -> None:
            if key is not None:
                self.ask_export_path(key)

        folder = self.export_folder()
        self.app.push_screen(Menu("Export", [(k, label) for k, label in EXPORT_KINDS], f"into {folder} (the next step shows the file and lets you change it)"), chosen)

    def ask_export_path(self, kind: str) -> None:
        """Show the full target path; the player may change it. The folder is remembered."""

        def check(path: Path) -> str | None:
            if path.is_dir():
                return f"{path} is a folder: add a file name"
            return None

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            path = path.resolve()
            prefs.put("export_dir", str(path.parent), self._prefs_root())
            self.export(kind, path)

        label = dict(EXPORT_KINDS)[kind]
        self.app.push_screen(PathPrompt(f"Export {label} to (enter writes; edit the path to choose another folder)", str(self.export_target(kind).resolve()), check), chosen)

    def export(self, kind: str, target: Path | None = None) -> None:
        """Render in a worker thread (ReportLab takes a moment) and notify the path."""
        s = self.session
        army, system, cat = s.army, s.system, s.cat
        out = target or self.export_target(kind)
        paper = getattr(self.app, "paper", "A4")

        def work() -> Path:
            from armybuilder.core.lists import list_fingerprint

            out.parent.mkdir(parents=True, exist_ok=True)
            if kind == "sheets":
                from armybuilder.pdf.sheets import write_sheets

                write_sheets(system.sheets(cat), out, paper=paper)
                return out
            roster = system.roster(army, cat, list_fingerprint(army, cat))
            if kind == "text":
                from armybuilder.core.atomic import atomic_write_text
                from armybuilder.core.text_roster import render_text

                atomic_write_text(out, render_text(roster))
                return out
            from armybuilder.pdf.roster import write_roster

            write_roster(roster, system.cards(army, cat) if kind == "roster-cards" else None, out, paper=paper)
            return out

        def run() -> None:
            try:
                out = work()
            except Exception as exc:  # noqa: BLE001 - any failure becomes a visible message
                self.app.call_from_thread(
                    self.notify, f"export failed: {type(exc).__name__}: {exc}", severity="error", markup=False
                )
                return
            self.app.call_from_thread(self.notify, f"exported {out.resolve()}", title="Export done", markup=False, timeout=10)

        self.notify("exporting…")
        self.run_worker(run, thread=True, group="export", name=f"export-{kind}")

    def set_paper(self, paper: str) -> None:
        self.app.paper = paper  # type: ignore[attr-defined]
        self.notify(f"PDF exports now use {paper} paper")

    def _external_screen(self, module: str):
        """The Screen class of an optional panel (written separately), if present."""
        try:
            mod = importlib.import_module(f"armybuilder.tui.screens.{module}")
        except ImportError:
            return None
        named = getattr(mod, f"{module.capitalize()}Screen", None)
        if inspect.isclass(named) and issubclass(named, Screen):
            return named
        for _, obj in inspect.getmembers(mod, inspect.isclass):
            if issubclass(obj, Screen) and obj.__module__ == mod.__name__:
                return obj
        return None

    def action_odds(self) -> None:
        self._open_external("odds", "odds panel")

    def action_playtest(self) -> None:
        self._open_external("playtest", "playtest screen")

    def action_meta(self) -> None:
        self._open_external("meta", "meta screen")

    def _open_external(self, module: str, what: str) -> None:
        screen_class = self._external_screen(module)
        if screen_class is None:
            self.notify(f"the {what} is not available in this build", severity="warning")
            return
        s = self.session
        try:
            self.app.push_screen(screen_class(s.system, s.army, s.cat))
        except Exception as exc:  # noqa: BLE001 - a broken panel must not lose the list
            self.notify(f"cannot open the {what}: {exc}", severity="error", markup=False)

    def action_close_list(self) -> None:
        self.app.close_editor(self)  # type: ignore[attr-defined]

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
            ("Export…", self.action_export, "x: PDF roster, cards, sheets, text roster"),
        ]
        for key, label in EXPORT_KINDS:
            out.append((f"Export: {label}", partial(self.ask_export_path, key), "shows the file, then writes it"))
        paper = getattr(self.app, "paper", "A4")
        other = "Letter" if paper == "A4" else "A4"
        out.append((f"Export paper: use {other} (now {paper})", partial(self.set_paper, other), "for PDF exports"))
        out += [
            ("Odds panel", self.action_odds, "o"),
            ("Playtest", self.action_playtest, "t"),
            ("Meta: this list against a folder of lists", self.action_meta, "m"),
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
                if (action.label, place) in seen:
                    continue
                seen.add((action.label, place))
                out.append((f"{action.label} ({where})", partial(self.run_edit, place, action), f"edit at {place or 'the list'}"))
        for f in self.last_findings:
            if f.where:
                out.append((f"Go to finding: {f.message[:70]}", partial(self.jump_to, f), f.rule))
        return out


def _settle_memory() -> None:
    """Move what exists once a list is drawn (modules, catalogue, widgets) out of the
    garbage collector's view.

    Textual allocates many short-lived objects per key; each full collection then
    walked every long-lived object too (60-100 ms on a 2-core machine, a visible
    stall every few keys). Frozen objects are never freed, which suits what lives as
    long as the program; later garbage is collected as usual.
    """
    import gc

    gc.freeze()


def _slug(name: str) -> str:
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "army-list"
