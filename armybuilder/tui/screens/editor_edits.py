"""The editor's edits: applying them (undoable, each described for undo and redo), the
forms and menus that ask their values, the keys that pick them (a, delete, r, n, +/-),
undo and redo, and moving between the panes.

A mixin of :class:`~armybuilder.tui.screens.editor.EditorScreen`, which holds the panels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Input

from armybuilder.core.findings import Finding
from armybuilder.core.paths import ancestors
from armybuilder.core.system import BrowserEntry, EditAction

from ..widgets.panels import Browser, DetailPane, FindingsList, ListTree

if TYPE_CHECKING:
    from ..session import Session

if TYPE_CHECKING:  # the screen the mixin is part of, for the type checker only
    from textual.screen import Screen as _Screen
else:
    _Screen = object


class EditsMixin(_Screen):
    """Edits and moves of the editor screen (its session, panels and refresh are the screen's)."""

    session: Session
    _done: list[str]
    _undone: list[str]
    after_edit: Callable[[str | None], None]
    show_detail_for_tree: Callable[[], None]
    _actions_for: tuple[int, int] | None = None
    _finding_at = -1  # the finding ``e`` jumped to last (its index in the findings list)
    _actions_cache: dict[str, list[EditAction]]
    _actions_keep: tuple[Any, Any]

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
        if action.refused:  # offered greyed ("show all"): never applied
            self.notify(f"{action.label}: not allowed here: {action.refused}", severity="warning", markup=False)
            return
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

        from .modals import ActionForm

        self.app.push_screen(ActionForm(action, preset, check))

    def actions_at(self, path: str) -> list[EditAction]:
        """The edits allowed at ``path``, kept until the list changes.

        Working out the pickers' legal choices takes a while (every profile against the
        list's rules), and the detail pane, the palette, a browser pick and the keys ask
        for the same place several times between two edits. Every edit makes a new list
        object, so the identity of the list is the cache's key.
        """
        s = self.session
        if self._actions_for != (id(s.army), id(s.cat)):
            self._actions_for = (id(s.army), id(s.cat))
            self._actions_cache = {}
            self._actions_keep = (s.army, s.cat)  # the ids stay theirs while cached
        found = self._actions_cache.get(path)
        if found is None:
            found = self._actions_cache[path] = s.system.actions(s.army, s.cat, path)
        return found

    def open_edits_menu(self, path: str, only: Callable[[EditAction], bool] | None = None, title: str = "Edits") -> None:
        """The edits allowed at ``path`` (those of one kind with ``only``); an edit the rules
        forbid here is hidden, and shown greyed with the reason on the menu's "show all"."""
        actions = [a for a in self.actions_at(path) if only is None or only(a)]
        if not actions:
            self.notify("no edit of that kind here", severity="warning")
            return
        allowed = [a for a in actions if not a.refused]
        if only is not None and len(allowed) == 1 and len(actions) == 1:
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

        from .modals import Menu

        refused = {str(i): a.refused for i, a in enumerate(actions) if a.refused}
        self.app.push_screen(Menu(f"{title}: {where}", items, refused=refused), chosen)

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
                    if action.refused:
                        if any(c.value == entry.ref.id for p in action.params for c in p.choices):
                            refusal = refusal or action.refused
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

    def action_next_finding(self, step: int) -> None:
        """``e`` / ``E``: the tree's cursor to the place of the next (previous) finding that
        has one, the findings list following; from the last, round to the first."""
        findings = self.query_one(FindingsList)
        placed = [i for i, f in enumerate(findings.findings) if f.where]
        if not placed:
            self.notify("no finding points at a place in the list")
            return
        current = self._finding_at if self._finding_at < len(findings.findings) else -1
        later = [i for i in placed if (i - current) * step > 0]
        index = (later[0] if step > 0 else later[-1]) if later else (placed[0] if step > 0 else placed[-1])
        findings.highlighted = index
        self._finding_at = index
        self.jump_to(findings.findings[index])

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
                if action.id != "set-count" or action.refused or len(ints) != 1 or ints[0].default is None:
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

        from .modals import FacetFilters

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
