"""The key help: every place's keys written from the bindings themselves (the help screen
and the keys table of docs/editor.md), so that neither can fall behind them."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Static

from .modals import ActionForm, Dialog, FormCheckbox, FormSelect, Menu

HELP_NOTES = {
    "Menus and edit forms": (
        "enter applies a form from any field but the notes box (ctrl+s there)\n"
        "space or ↓ opens a drop-down list; escape cancels"
    ),
    "Catalogue browser (left)": (
        "type to search; every word must match; {filters}\n"
        "filter on a facet (an unknown filter says so)"
    ),
    "Everywhere": "ctrl+p   command palette: every action, searchable\ntab / shift+tab   next / previous area",
}


def _filter_words(app) -> str:
    """The typed filters of the open list's game, in its own words ("kind:…, group:…")."""
    from ..widgets.panels import Browser

    editor = getattr(app, "editor", None)
    try:
        names = editor.query_one(Browser).facet_names() if editor is not None else []
    except Exception:  # noqa: BLE001 - no browser yet: the generic words
        names = []
    return ", ".join(f"{n}:…" for n in names) if names else "facet:value (e.g. the people or kind of an entry)"


def help_sections(app_class: type) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Each place of the program and the classes whose bindings are its keys; ``app_class``:
    the running app's class (its own keys come first, and this module never imports the
    app, which opens the help)."""
    from ..widgets.battle_map import BattleMapView
    from ..widgets.panels import EntryList, FindingsList, ListTree, SearchBox
    from .editor import EditorScreen
    from .engine_run import EngineRunScreen
    from .home import HomeScreen
    from .odds import OddsScreen
    from .playtest import PlaytestScreen
    from .suggest import SuggestScreen

    return (
        ("Everywhere", (app_class, EditorScreen)),
        ("List tree (middle)", (ListTree,)),
        ("Catalogue browser (left)", (SearchBox, EntryList)),
        ("Findings (bottom)", (FindingsList,)),
        ("Menus and edit forms", (Menu, ActionForm, FormSelect, FormCheckbox)),
        ("Home screen", (HomeScreen,)),
        ("Odds screen (o)", (OddsScreen,)),
        ("Playtest (t) and meta (m) screens", (EngineRunScreen, PlaytestScreen)),
        ("Playtest map (^t)", (BattleMapView,)),
        ("Suggest screen (g)", (SuggestScreen, EngineRunScreen)),
    )


def help_rows(app) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each place's keys as (keys as shown, what they do), from the bindings themselves: the
    help screen and the keys table of docs/editor.md are both written from these rows."""
    out = []
    for title, classes in help_sections(type(app)):
        rows: list[tuple[str, str]] = []
        seen: set[str] = set()
        for cls in classes:
            for binding in cls.BINDINGS:
                if not isinstance(binding, Binding) or binding.key in seen or not (binding.tooltip or binding.description):
                    continue
                seen.add(binding.key)
                shown = []
                for key in binding.key.split(","):
                    try:
                        shown.append(app.get_key_display(Binding(key.strip(), binding.action)))
                    except Exception:  # noqa: BLE001 - fall back to the raw key name
                        shown.append(key.strip())
                rows.append((" ".join(shown), binding.tooltip or binding.description))
        out.append((title, rows))
    return out


def help_text(app) -> str:
    """The key help, written from the bindings themselves so it can never fall behind them."""
    lines = ["armybuilder — keys", ""]
    for title, rows in help_rows(app):
        lines.append(title)
        lines.extend(f"  {keys:<10} {what}" for keys, what in rows)
        note = HELP_NOTES.get(title)
        if note and "{filters}" in note:
            note = note.replace("{filters}", _filter_words(app))
        if note:
            lines.extend("  " + line for line in note.splitlines())
        lines.append("")
    lines.append("Mouse: click to focus and select; click again to act; scroll wheels work.")
    return "\n".join(lines)


def help_renderable(app) -> Group:
    """The help as drawn: the text of ``help_text``, each key's words in a column of their own
    so that a line too long for the dialog wraps under its words, not under the keys."""
    parts: list[Any] = [Text("armybuilder — keys", style="bold"), Text("")]
    for title, rows in help_rows(app):
        parts.append(Text(title, style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1)
        grid.add_column(min_width=10, style="bold cyan", no_wrap=True)
        grid.add_column(ratio=1)
        for keys, what in rows:
            grid.add_row("", Text(keys), Text(what))
        parts.append(grid)
        note = HELP_NOTES.get(title)
        if note and "{filters}" in note:
            note = note.replace("{filters}", _filter_words(app))
        if note:
            notes = Table.grid()
            notes.add_column(width=2)
            notes.add_column(ratio=1)
            for line in note.splitlines():
                notes.add_row("", Text(line))
            parts.append(notes)
        parts.append(Text(""))
    parts.append(Text("Mouse: click to focus and select; click again to act; scroll wheels work."))
    return Group(*parts)


class HelpScreen(Dialog[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog tall"):
            with VerticalScroll():
                yield Static(help_renderable(self.app), markup=False)
            yield Button("Close", id="close", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
