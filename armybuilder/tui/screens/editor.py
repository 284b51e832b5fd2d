"""The list editor: browser, list tree, detail, status bar and findings on one screen.

It speaks to the game only through ``GameSystem`` (outline, actions, apply, browse,
detail, status, validate), so one screen edits lists of every system.
"""

from __future__ import annotations

import importlib
import inspect
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
from textual.widgets import Footer, Input, Tree

from armybuilder.core.errors import InputError
from armybuilder.core.findings import Finding
from armybuilder.core.paths import ancestors
from armybuilder.core.system import BrowserEntry, EditAction

from ..session import Session
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
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("slash", "search", "Search"),
        Binding("question_mark", "app.help", "Help"),
        Binding("x", "export", "Export"),
        Binding("u", "upgrade", "Upgrade", show=False),
        Binding("d", "toggle_detail", "Detail", show=False),
        Binding("b", "toggle_browser", "Browser", show=False),
        Binding("o", "odds", "Odds", show=False),
        Binding("t", "playtest", "Playtest", show=False),
        Binding("f2", "focus_tree", "List", show=False),
        Binding("f3", "focus_findings", "Findings", show=False),
    ]

    def __init__(self, session: Session, recovery_delay: float = 3.0) -> None:
        super().__init__()
        self.session = session
        self.recovery_delay = recovery_delay
        self._recovery_timer: Timer | None = None
        self._browser_version: str | None = None
        self.last_findings: list[Finding] = []

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
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#browser").border_title = "Catalogue"
        self.query_one("#tree").border_title = "List"
        self.query_one("#detail").border_title = "Detail"
        s = self.session
        first = next(iter(s.system.outline(s.army, s.cat)), None)
        self.refresh_all(s.selected or (first.path if first is not None else ""))
        self.query_one(ListTree).focus()
        self._apply_size(self.size.width)
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
        self.query_one(FindingsList).show(self.last_findings, line_of)
        self.show_detail_for_tree()

    def _default_filters(self, entries: list[BrowserEntry]) -> dict[str, str]:
        """Start the browser on the list's own people / faction, when entries say theirs."""
        s = self.session
        key = s.system.faction_facet
        label = s.system.faction_name(s.army, s.cat)
        if key is None or not label:
            return {}
        return {key: label} if any(e.facets.get(key) == label for e in entries) else {}

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
        """Debounced: the recovery copy is written a few seconds after the last edit."""
        if self._recovery_timer is not None:
            self._recovery_timer.stop()
        self._recovery_timer = self.set_timer(self.recovery_delay, self.write_recovery)

    def write_recovery(self) -> None:
        self._recovery_timer = None
        try:
            self.session.write_recovery()
        except (InputError, OSError) as exc:
            self.notify(f"could not write the recovery copy: {exc}", severity="warning", markup=False)

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
        try:
            select = self.session.apply(path, action_id, args)
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - never lose the list to a system bug
            raise ValueError(f"this edit failed inside {self.session.system.name} ({type(exc).__name__}: {exc}); please report it") from exc
        self.after_edit(select)
        return select

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
        for adding in (True, False):
            for place in ancestors(path):
                for action in self.actions_at(place):
                    if (action.kind == "add") != adding:
                        continue
                    for param in action.params:
                        if param.kind == "choice" and any(c.value == entry.ref.id for c in param.choices):
                            self.run_edit(place, action, {param.name: entry.ref.id})
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
        if self.session.undo():
            self.after_edit(self.session.selected)
        else:
            self.notify("nothing to undo")

    def action_redo(self) -> None:
        if self.session.redo():
            self.after_edit(self.session.selected)
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
            default = str(Path.cwd() / (s.suggested_name or _slug(s.army.name) + ".yaml"))

            def check(path: Path) -> str | None:
                if not path.parent.is_dir():
                    return f"no folder {path.parent}"
                if path.exists():
                    return f"{path} exists already; choose another name"
                return None

            def chosen(path: Path | None) -> None:
                if path is not None:
                    self._save_to(path, then)

            self.app.push_screen(PathPrompt("Save the list as", default, check), chosen)
            return
        self._save_to(None, then)

    def _save_to(self, path: Path | None, then: Callable[[], None] | None = None) -> None:
        try:
            target = self.session.save(path)
        except InputError as exc:
            self.notify(str(exc), title="not saved", severity="error", markup=False)
            return
        if self._recovery_timer is not None:
            self._recovery_timer.stop()
            self._recovery_timer = None
        self.refresh_status()
        self.notify(f"saved {target}", markup=False)
        if then is not None:
            then()

    def action_save_as(self) -> None:
        s = self.session
        default = str(s.path) if s.path else str(Path.cwd() / (_slug(s.army.name) + ".yaml"))

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._save_to(path)

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
                self.after_edit(s.selected)
                self.notify(f"list moved to catalogue {impact.to_version} (ctrl+z to undo)")

        self.app.push_screen(
            Confirm(f"Upgrade to catalogue {impact.to_version}?", body, (("yes", "Upgrade", "primary"), ("no", "Keep", "default"))),
            chosen,
        )

    def action_export(self) -> None:
        def chosen(key: str | None) -> None:
            if key is not None:
                self.export(key)

        self.app.push_screen(Menu("Export", [(k, label) for k, label in EXPORT_KINDS], "written into the exports folder, in the background"), chosen)

    def export(self, kind: str) -> None:
        """Render in a worker thread (ReportLab takes a moment) and notify the path."""
        s = self.session
        army, system, cat = s.army, s.system, s.cat
        folder = Path(getattr(self.app, "export_dir", Path("exports")))
        stem = s.path.stem if s.path else _slug(army.name)
        paper = getattr(self.app, "paper", "A4")

        def work() -> Path:
            from armybuilder.core.lists import list_fingerprint

            folder.mkdir(parents=True, exist_ok=True)
            if kind == "sheets":
                from armybuilder.pdf.sheets import write_sheets

                out = folder / f"{system.id}-sheets.pdf"
                write_sheets(system.sheets(cat), out, paper=paper)
                return out
            roster = system.roster(army, cat, list_fingerprint(army, cat))
            if kind == "text":
                from armybuilder.core.atomic import atomic_write_text
                from armybuilder.core.text_roster import render_text

                out = folder / f"{stem}.txt"
                atomic_write_text(out, render_text(roster))
                return out
            from armybuilder.pdf.roster import write_roster

            out = folder / (f"{stem}-cards.pdf" if kind == "roster-cards" else f"{stem}.pdf")
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
            ("Undo", self.action_undo, "ctrl+z"),
            ("Redo", self.action_redo, "ctrl+y"),
            ("Search the catalogue", self.action_search, "/"),
            ("Filter the catalogue (people, category, rank, role)", self.action_filters, "f in the browser"),
            ("Upgrade the catalogue version", self.action_upgrade, "u: see what changes, then apply"),
            ("Export…", self.action_export, "x: PDF roster, cards, sheets, text roster"),
        ]
        for key, label in EXPORT_KINDS:
            out.append((f"Export: {label}", partial(self.export, key), "in the background"))
        paper = getattr(self.app, "paper", "A4")
        other = "Letter" if paper == "A4" else "A4"
        out.append((f"Export paper: use {other} (now {paper})", partial(self.set_paper, other), "for PDF exports"))
        out += [
            ("Odds panel", self.action_odds, "o"),
            ("Playtest", self.action_playtest, "t"),
            ("Show or hide the detail pane", self.action_toggle_detail, "d"),
            ("Show or hide the catalogue browser", self.action_toggle_browser, "b"),
            ("Go to the findings", self.action_focus_findings, "f3"),
            ("Go to the list", self.action_focus_tree, "f2"),
            ("Close the list (back home)", self.action_close_list, ""),
            ("Help: keys", self.app.action_help, "?"),  # type: ignore[attr-defined]
        ]
        path = self.query_one(ListTree).current_path()
        seen = set()
        for place in dict.fromkeys([path, ""]):
            node = self.query_one(ListTree).node_of(place)
            where = node.label if node is not None and place else "list"
            for action in self.actions_at(place):
                if (action.id, place) in seen:
                    continue
                seen.add((action.id, place))
                out.append((f"{action.label} ({where})", partial(self.run_edit, place, action), f"edit at {place or 'the list'}"))
        for f in self.last_findings:
            if f.where:
                out.append((f"Go to finding: {f.message[:70]}", partial(self.jump_to, f), f.rule))
        return out


def _slug(name: str) -> str:
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "army-list"
