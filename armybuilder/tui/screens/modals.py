"""Small dialogs: edit forms built from ``Param``, menus, confirmations, help."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, ScreenResultType
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from armybuilder.core.checks import plural
from armybuilder.core.errors import InputError
from armybuilder.core.sanitize import has_unsafe, visible, visible_lines
from armybuilder.core.system import EditAction, Param

from .. import workspace
from ..safe_text import safe_text
from ..widgets.file_tree import file_tree
from .dialog_style import DIALOG_CSS


class _CachedBackdrop:
    """The dimmed screen under a dialog, tinted style by style and replayed while unchanged.

    Textual redraws the whole screen underneath, re-tinting every segment (colour
    arithmetic per cell run), each time a dialog repaints itself, which happens several
    times while a dialog mounts and focuses: a third of the cost of opening an edit
    form. Here the tint is computed once per distinct style, and the tinted lines are
    reused until the screen underneath reports a change.
    """

    _tinted: dict[tuple[Any, Any], Any] = {}  # (style, tint) -> tinted style, shared by all dialogs

    def __init__(self, owner: Dialog, inner: Any) -> None:
        self.owner = owner
        self.inner = inner

    def __rich_console__(self, console, options):
        owner = self.owner
        key = (id(self.inner.screen), options.size, self.inner.color, owner._backdrop_generation)
        if owner._backdrop_key != key:
            owner._backdrop_lines = list(self._tint(console.render(self.inner.screen._compositor, options)))
            owner._backdrop_key = key
        return iter(owner._backdrop_lines)

    def _tint(self, segments):
        from rich.segment import Segment

        color = self.inner.color
        tinted = self._tinted
        if len(tinted) > 4096:
            tinted.clear()
        process = type(self.inner).process_segments
        for segment in segments:
            text, style, control = segment
            if control:
                yield segment
                continue
            new = tinted.get((style, color))
            if new is None:
                new = next(iter(process([Segment(" ", style)], color))).style
                tinted[(style, color)] = new
            yield Segment(text, new)


class Dialog(ModalScreen[ScreenResultType]):
    """A modal screen whose dimmed backdrop is redrawn only when the screen under it changes."""

    DEFAULT_CSS = DIALOG_CSS
    _backdrop_generation = 0
    _backdrop_key: tuple | None = None
    _backdrop_lines: list = []

    def render(self):
        from textual.renderables.background_screen import BackgroundScreen

        shown = super().render()
        return _CachedBackdrop(self, shown) if isinstance(shown, BackgroundScreen) else shown

    def render_lines(self, crop):
        # the screen's own lines are only the backdrop (its children draw themselves):
        # the cut lines are kept while the backdrop and the size are the same
        key = (self._backdrop_generation, crop, self.size, self.app.screen_stack[-2:-1] and id(self.app.screen_stack[-2]))
        if getattr(self, "_lines_key", None) == key:
            return self._lines
        lines = super().render_lines(crop)
        self._lines_key, self._lines = key, lines
        return lines

    def refresh(self, *regions, **kwargs):
        # the screen underneath reports its changed regions here: draw it afresh
        if regions:
            self._backdrop_generation += 1
        return super().refresh(*regions, **kwargs)


def _choice_prompt(label: str, detail: str, refused: str = "") -> Text:
    if refused:
        text = Text(label, style="dim strike")
        text.append(f"  not allowed: {refused}", style="dim italic")
        return text
    text = Text(label)
    if detail:
        text.append(f"  {detail}", style="dim")
    return safe_text(text)


def choice_options(p: Param, show_all: bool) -> list[tuple[Text, int]]:
    """(prompt, index into p.choices) of a choice parameter: the legal ones, or all."""
    return [
        (_choice_prompt(c.label, c.detail, c.refused), i)
        for i, c in enumerate(p.choices)
        if show_all or not c.refused
    ]


SHOW_ALL_KEY = "ctrl+l"
"""The key of "show all" in menus and forms: its own key, so that Enter never reaches it."""


class Menu(Dialog[str | None]):
    """Pick one item of a list (edits at a place, export kinds, recent files…).

    ``refused`` maps an item's key to why the rules forbid it here: such items are hidden,
    and shown greyed with the reason (never chosen) after ``ctrl+l``, as in the forms.
    """

    AUTO_FOCUS = "#menu"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding(SHOW_ALL_KEY, "show_all", "Show all", tooltip="show the items the rules forbid here, greyed, with the reason"),
    ]

    def __init__(
        self, title: str, items: Sequence[tuple[str, Text | str]], subtitle: str = "", refused: dict[str, str] | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.subtitle = subtitle
        self.items = list(items)
        self.refused = {k: v for k, v in (refused or {}).items() if v}
        self.showing_all = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(safe_text(Text(self.title_text, style="bold")), classes="dialog-title")
            if self.subtitle:
                yield Static(Text(self.subtitle, style="dim"), classes="dialog-subtitle")
            yield OptionList(*self._options(), id="menu")
            if self.refused:
                yield Static(self._hidden_note(), id="menu-hidden", classes="hint")

    def _hidden_note(self) -> Text:
        n = len(self.refused)
        if self.showing_all:
            return Text(f"{SHOW_ALL_KEY}: hide the {plural(n, 'item')} not allowed here", style="dim")
        return Text(f"{plural(n, 'item')} not allowed here {'is' if n == 1 else 'are'} hidden ({SHOW_ALL_KEY} shows {'it' if n == 1 else 'them'} with the reason)", style="dim")

    def _options(self) -> list[Option]:
        out = []
        for key, prompt in self.items:
            why = self.refused.get(key)
            if why and not self.showing_all:
                continue
            text = prompt.copy() if isinstance(prompt, Text) else Text(prompt)
            if why:
                text = Text(text.plain, style="dim strike")
                text.append(f"  not allowed: {why}", style="dim italic")
            out.append(Option(text, id=key, disabled=bool(why)))
        if not out:
            out.append(Option(Text(f"nothing allowed here ({SHOW_ALL_KEY} shows why)", style="dim"), disabled=True))
        return out

    def action_show_all(self) -> None:
        if not self.refused:
            return
        self.showing_all = not self.showing_all
        menu = self.query_one("#menu", OptionList)
        kept = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        menu.add_options(self._options())
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        if kept in ids:
            menu.highlighted = ids.index(kept)
        self.query_one("#menu-hidden", Static).update(self._hidden_note())

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(Dialog[str | None]):
    """A question with a few buttons; returns the chosen button id (None on escape)."""

    AUTO_FOCUS = "Button"  # not the scrollable body: Enter must press the first button
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, title: str, body: Text | str, buttons: Sequence[tuple[str, str, str]] = (("yes", "Yes", "primary"), ("no", "No", "default"))) -> None:
        super().__init__()
        self.title_text = title
        self.body = safe_text(body, lines=True)
        self.buttons = buttons

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(safe_text(Text(self.title_text, style="bold")), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(self.body, markup=False)
            with Horizontal(classes="buttons"):
                for key, label, variant in self.buttons:
                    yield Button(label, id=key, variant=variant, compact=True)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _multi_line(p: Param) -> bool:
    """A notes field: a box of several lines, where Enter starts a new line."""
    return p.kind == "text" and "note" in p.name


class FormSelect(Select):
    """A form's drop-down: Enter applies the form once a value is chosen (space, ↑ or ↓ open
    the list); a blank one opens its list on Enter, as a player expects."""

    BINDINGS = [
        Binding("enter", "enter", "Apply", show=False),
        Binding("down,space,up", "show_overlay", "Show the choices", show=False),
    ]

    def action_enter(self) -> None:
        if self.is_blank():
            self.action_show_overlay()
        else:
            self.screen.action_submit()  # type: ignore[attr-defined]


class FormCheckbox(Checkbox):
    """A form's yes/no field: space ticks it, Enter applies the form."""

    BINDINGS = [
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("enter", "screen.submit", "Apply", show=False),
    ]


class ActionForm(Dialog[dict[str, Any] | None]):
    """Ask the ``Param`` values of one edit; ``apply`` decides if they are usable.

    ``check`` is called with the values on submit; it returns an error message to show
    (the form stays open) or None when the edit went through.
    """

    AUTO_FOCUS = None  # on_mount focuses the first value still to give

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "submit", "Apply", show=False, priority=True),
        Binding(SHOW_ALL_KEY, "show_all", "Show all", show=False, priority=True,
                tooltip="show the choices the rules forbid here, greyed, with the reason"),
    ]

    def __init__(self, action: EditAction, preset: dict[str, Any] | None = None, check=None) -> None:
        super().__init__()
        self.action = action
        self.preset = preset or {}
        self.check = check
        # a text shown escaped (it holds control characters) → the value it stands for,
        # so that applying the form unchanged keeps the exact text
        self._escaped: dict[str, tuple[str, str]] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.action.label, style="bold"), classes="dialog-title")
            with VerticalScroll(classes="form"):
                for p in self.action.params:
                    yield Label(Text(p.label + (f"  ({p.help})" if p.help else "")))
                    yield self._field(p)
                hidden = sum(1 for p in self.action.params if p.kind == "choice" for c in p.choices if c.refused)
                if hidden:
                    # never focused: only its key (or a click) shows the others, so Enter
                    # moving on from a choice can never tick it
                    box = Checkbox(
                        f"show all ({SHOW_ALL_KEY}): {plural(hidden, 'choice')} not allowed here "
                        f"{'is' if hidden == 1 else 'are'} hidden",
                        False,
                        id="show-all",
                        compact=True,
                    )
                    box.can_focus = False
                    yield box
            yield Static("", id="form-error", markup=False)
            yield Static(Text(self._hint(), style="dim"), classes="hint")
            with Horizontal(classes="buttons"):
                yield Button("Apply", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def _hint(self) -> str:
        """The keys of this form, in words (a notes box takes Enter for its new lines)."""
        keys = []
        if any(_multi_line(p) for p in self.action.params):
            keys += ["enter: a new line in the notes", "ctrl+s applies"]
        else:
            keys.append("enter applies")
        if any(p.kind == "choice" for p in self.action.params):
            keys.append("space opens a list")
        keys.append("escape cancels")
        return " · ".join(keys)

    def _field(self, p: Param):
        value = self.preset.get(p.name, p.default)
        wid = f"p-{p.name}"
        if p.kind == "choice":
            options = choice_options(p, show_all=False)
            index = next((i for i, c in enumerate(p.choices) if c.value == value), None)
            if index is not None and p.choices[index].refused:
                options = choice_options(p, show_all=True)  # the current value stays visible
            if index is None and len(options) == 1:
                index = options[0][1]
            # the label is above the box: the empty box says what to do, not the label again
            prompt = "choose" if options else f"{p.label}: nothing allowed here ({SHOW_ALL_KEY} shows why)"
            return FormSelect(options, id=wid, prompt=prompt, allow_blank=index is None, value=Select.NULL if index is None else index, compact=True)
        if p.kind == "bool":
            return FormCheckbox(p.label, bool(value), id=wid, compact=True)
        if isinstance(value, str) and has_unsafe(value.replace("\n", "").replace("\t", "")):
            shown = visible_lines(value) if "note" in p.name else visible(value)
            self._escaped[p.name] = (shown, value)
            value = shown
        if _multi_line(p):
            area = TextArea(str(value or ""), id=wid)
            area.show_line_numbers = False
            return area
        kind = {"int": "integer", "float": "number"}.get(p.kind, "text")
        return Input("" if value is None else str(value), type=kind, id=wid, compact=True)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        # focus the first value still to give (a browser pick presets the profile)
        for p in self.action.params:
            if p.name not in self.preset:
                self.query_one(f"#p-{p.name}").focus()
                return
        self.query_one("#ok", Button).focus()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in self.action.params:
            widget = self.query_one(f"#p-{p.name}")
            if isinstance(widget, Select):
                out[p.name] = None if widget.is_blank() else p.choices[int(widget.value)].value  # type: ignore[arg-type]
            elif isinstance(widget, Checkbox):
                out[p.name] = widget.value
            elif isinstance(widget, TextArea):
                out[p.name] = widget.text
            elif isinstance(widget, Input):
                raw = widget.value.strip()
                if p.kind == "int":
                    out[p.name] = int(raw) if raw.lstrip("-").isdigit() else raw
                elif p.kind == "float":
                    try:
                        out[p.name] = float(raw)
                    except ValueError:
                        out[p.name] = raw
                else:
                    out[p.name] = widget.value
        for name, (shown, original) in self._escaped.items():
            if out.get(name) == shown:
                out[name] = original
        return out

    def on_select_changed(self, event: Select.Changed) -> None:
        """A choice made moves on to the next field still to fill, so Enter then applies."""
        focused = self.focused
        if focused is not None and event.select in focused.ancestors_with_self and not event.select.is_blank():
            self.call_after_refresh(self._after_choice, event.select)

    def _after_choice(self, select: Select) -> None:
        if not select.has_focus:  # the overlay is still open, or the player moved on
            return
        fields = [self.query_one(f"#p-{p.name}") for p in self.action.params]
        later = fields[fields.index(select) + 1:] if select in fields else []
        nxt = next((w for w in later if w.focusable), None)
        if nxt is not None:
            nxt.focus()  # else Enter on the choice applies the form

    def action_show_all(self) -> None:
        """ctrl+l: the choices the rules forbid here, greyed with the reason (again: hidden)."""
        try:
            box = self.query_one("#show-all", Checkbox)
        except Exception:  # noqa: BLE001 - nothing hidden in this form
            self.notify("every choice of this form is allowed here")
            return
        box.value = not box.value

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id != "show-all":
            return
        event.stop()
        for p in self.action.params:
            if p.kind != "choice":
                continue
            select = self.query_one(f"#p-{p.name}", Select)
            current = None if select.is_blank() else select.value
            options = choice_options(p, event.value)
            select.set_options(options)
            select.prompt = p.label if options else f"{p.label}: nothing allowed here ({SHOW_ALL_KEY} shows why)"
            if current is not None and (event.value or not p.choices[int(current)].refused):  # type: ignore[arg-type]
                select.value = current

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self.action_submit()
        else:
            self.dismiss(None)

    def refusal(self) -> str | None:
        """The reason a chosen value is not allowed (the player asked to see all)."""
        for p in self.action.params:
            if p.kind != "choice":
                continue
            widget = self.query_one(f"#p-{p.name}", Select)
            if not widget.is_blank():
                choice = p.choices[int(widget.value)]  # type: ignore[arg-type]
                if choice.refused and choice.value != self.preset.get(p.name, p.default):
                    return f"{choice.label} is not allowed here: {choice.refused}"
        return None

    def action_submit(self) -> None:
        refused = self.refusal()
        if refused:
            self.query_one("#form-error", Static).update(Text(refused, style="bold red"))
            return
        values = self.values()
        if self.check is not None:
            error = self.check(values)
            if error:
                self.query_one("#form-error", Static).update(safe_text(Text(error, style="bold red"), lines=True))
                return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathPrompt(Dialog[Path | None]):
    """Ask a file path (save as, open); ``check`` returns an error text or None."""

    AUTO_FOCUS = "#path"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str = "", check=None, browse: bool = False, hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.default = workspace.shown(default) if default else default
        self.check = check
        self.browse = browse
        self.hint = hint  # a line under the title: what Enter does, what may be changed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog tall" if self.browse else "dialog"):
            yield Static(safe_text(Text(self.title_text, style="bold")), classes="dialog-title")
            if self.hint:
                yield Static(Text(self.hint, style="dim"), classes="dialog-subtitle")
            yield Input(self.default, placeholder="path/to/list.yaml", id="path", compact=True)
            if self.browse:
                yield file_tree(id="files")
            yield Static("", id="form-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    def on_directory_tree_file_selected(self, event) -> None:
        self.query_one("#path", Input).value = str(event.path)
        self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        raw = self.query_one("#path", Input).value.strip()
        if not raw:
            self.query_one("#form-error", Static).update(Text("type a file name", style="bold red"))
            return
        try:
            path = workspace.confine(raw) if workspace.active() else Path(raw).expanduser()
        except InputError as exc:
            self.query_one("#form-error", Static).update(safe_text(Text(str(exc), style="bold red"), lines=True))
            return
        if self.check is not None:
            error = self.check(path)
            if error:
                self.query_one("#form-error", Static).update(Text(error, style="bold red"))
                return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FacetFilters(Dialog[dict[str, str] | None]):
    """Choose one value per facet (people, category, rank, role) for the browser."""

    AUTO_FOCUS = "Select"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, values: dict[str, list[str]], chosen: dict[str, str]) -> None:
        super().__init__()
        self.values = values
        self.chosen = chosen

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text("Filter the catalogue", style="bold"), classes="dialog-title")
            with VerticalScroll(classes="form"):
                for key, values in self.values.items():
                    yield Label(Text(key.capitalize()))
                    current = self.chosen.get(key)
                    yield Select(
                        [(Text(v), v) for v in values],
                        id=f"f-{key}",
                        prompt="any",
                        value=current if current in values else Select.NULL,
                        compact=True,
                    )
            with Horizontal(classes="buttons"):
                yield Button("Apply", id="ok", variant="primary", compact=True)
                yield Button("Clear", id="clear", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            out = {}
            for key in self.values:
                select = self.query_one(f"#f-{key}", Select)
                if not select.is_blank():
                    out[key] = str(select.value)
            self.dismiss(out)
        elif event.button.id == "clear":
            self.dismiss({})
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


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


def help_sections() -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Each place of the program and the classes whose bindings are its keys."""
    from ..app import ArmyBuilderApp
    from ..widgets.battle_map import BattleMapView
    from ..widgets.panels import EntryList, FindingsList, ListTree, SearchBox
    from .editor import EditorScreen
    from .engine_run import EngineRunScreen
    from .home import HomeScreen
    from .odds import OddsScreen
    from .playtest import PlaytestScreen
    from .suggest import SuggestScreen

    return (
        ("Everywhere", (ArmyBuilderApp, EditorScreen)),
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
    for title, classes in help_sections():
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
