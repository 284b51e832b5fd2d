"""Home: recent lists, recovery of unsaved work, new list, open a file, bundled samples."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from armybuilder.core.errors import InputError
from armybuilder.core.outputs import as_list_path
from armybuilder.core.registry import get_system, system_ids
from armybuilder.core.system import GameSystem
from armybuilder.tui import prefs, resume_collector, workspace

from ..safe_text import safe_text
from .dialog_style import DIALOG_CSS


def _load_systems() -> tuple[list[GameSystem], list[str]]:
    """Registered systems whose package and catalogue load, and a message for each that does not."""
    out: list[GameSystem] = []
    problems: list[str] = []
    for system_id in system_ids():
        try:
            system = get_system(system_id)
            system.catalogue()
        except Exception as exc:  # noqa: BLE001 - shown on the home screen, never hidden
            problems.append(f"{system_id} cannot be used: {type(exc).__name__}: {exc}")
            continue
        out.append(system)
    return out, problems


def loadable_systems() -> list[GameSystem]:
    """Systems whose package and catalogue load (the others are listed by :func:`system_problems`)."""
    return _load_systems()[0]


def system_problems() -> list[str]:
    """Why each registered system that does not load cannot be used (shown on the home screen)."""
    return _load_systems()[1]


class HomeScreen(Screen):
    DEFAULT_CSS = """
    #home { padding: 1 2; }
    #home-title { height: 1; }
    #home-subtitle { height: 1; margin-bottom: 1; }
    #home-columns { height: 1fr; }
    /* names and paths wrap rather than lose their ends: every word of them stays readable */
    #home-menu, #home-samples { height: 1fr; width: 1fr; border: round $primary-darken-2; text-wrap: wrap; }
    #home-menu:focus, #home-samples:focus { border: heavy $accent; }
    """
    BINDINGS = [
        Binding("n", "new", "New list"),
        Binding("o", "open", "Open file"),
        Binding("delete", "discard", "Discard recovery copy"),
        Binding("question_mark", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "discard":  # only offered on a recovery entry
            return self._highlighted_recovery() is not None
        return True

    def _highlighted_recovery(self):
        try:
            menu = self.query_one("#home-menu", OptionList)
        except Exception:  # noqa: BLE001 - not composed yet
            return None
        if menu.highlighted is None:
            return None
        key = menu.get_option_at_index(menu.highlighted).id or ""
        return self.recoveries.get(key.split(":", 1)[1]) if key.startswith("recover:") else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.refresh_bindings()

    def action_discard(self) -> None:
        from .modals import Confirm

        recovery = self._highlighted_recovery()
        if recovery is None:
            return
        body = Text("Delete the unsaved changes of ")
        body.append(recovery.name, style="bold")
        body.append(f" ({recovery.when})? This cannot be undone.")

        def chosen(key: str | None) -> None:
            if key == "delete":
                self.app.store.discard_recovery(recovery.key)  # type: ignore[attr-defined]
                self.reload()

        self.app.push_screen(
            Confirm("Discard the recovery copy?", body, (("keep", "Keep it", "primary"), ("delete", "Delete", "error"))),
            chosen,
        )

    recoveries: dict = {}
    recent: list = []

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            yield Static(Text("armybuilder", style="bold"), id="home-title")
            yield Static(Text(" · ".join(s.name for s in loadable_systems()), style="dim"), id="home-subtitle")
            # your lists on the left, the bundled samples beside them: both in view at 80×24,
            # however many recent lists there are (tab moves between them)
            with Horizontal(id="home-columns"):
                yield OptionList(id="home-menu")
                yield OptionList(id="home-samples")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#home-menu", OptionList).focus()
        self.call_after_refresh(resume_collector)  # drawn: the start-up pause ends

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Rebuild the menu (recent lists and recoveries change while the app runs)."""
        menu = self.query_one("#home-menu", OptionList)
        menu.clear_options()
        store = self.app.store  # type: ignore[attr-defined]
        options: list[Option | None] = []
        recoveries = store.recoveries()
        if recoveries:
            options.append(Option(Text("Unsaved work from a session that did not close", style="bold yellow"), disabled=True))
            for r in recoveries:
                label = Text("  ↺ recover ")
                label.append(r.name, style="bold")
                label.append(f"  {workspace.shown(r.path) if r.path else '(never saved)'}  · {r.when}", style="dim")
                options.append(Option(safe_text(label), id=f"recover:{r.key}"))
            options.append(None)
        options.append(Option(Text("＋ New list…", style="bold"), id="new"))
        options.append(Option(Text("📂 Open a file…"), id="open"))
        if getattr(self.app, "uploads", False):  # in a browser (armybuilder serve)
            options.append(Option(Text("📤 Upload a list file…"), id="upload"))
        recent = store.recent()
        if recent:
            options.append(None)
            options.append(Option(Text("Recent lists", style="bold underline"), disabled=True))
            for i, r in enumerate(recent):
                label = Text(r.name, style="bold")
                label.append(f"\n{workspace.shown(r.path)}", style="dim")  # a line of its own: a long path wraps whole
                options.append(Option(safe_text(label, lines=True), id=f"recent:{i}"))
        for problem in system_problems():  # a half-written system is shown, never skipped silently
            options.append(Option(safe_text(Text(f"⚠ {problem}", style="bold red")), disabled=True))
        for opt in options:
            if opt is None:
                menu.add_option(None)
            else:
                menu.add_option(opt)
        self._fill_samples()
        self.recent = recent
        self.recoveries = {r.key: r for r in recoveries}
        if menu.option_count:
            menu.highlighted = next(
                (i for i in range(menu.option_count) if not menu.get_option_at_index(i).disabled), 0
            )

    def _fill_samples(self) -> None:
        """The bundled samples by their own names, under their game's name."""
        from armybuilder.core.playtest import sample_titles

        samples = self.query_one("#home-samples", OptionList)
        samples.clear_options()
        samples.border_title = "Bundled samples"
        for system in loadable_systems():
            try:
                titles = sample_titles(system)
            except Exception:  # noqa: BLE001 - a system whose samples cannot be read offers none
                titles = []
            if not titles:
                continue
            samples.add_option(Option(Text(system.name, style="bold underline"), disabled=True))
            for name, title in titles:
                samples.add_option(Option(Text(title), id=f"sample:{system.id}:{name}.yaml"))
        if samples.option_count:
            samples.highlighted = next(
                (i for i in range(samples.option_count) if not samples.get_option_at_index(i).disabled), 0
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id or ""
        app = self.app
        if key == "new":
            self.action_new()
        elif key == "open":
            self.action_open()
        elif key == "upload":
            app.action_upload()  # type: ignore[attr-defined]
        elif key.startswith("recent:"):
            app.open_path(Path(self.recent[int(key.split(":", 1)[1])].path))  # type: ignore[attr-defined]
        elif key.startswith("sample:"):
            _, system_id, rel = key.split(":", 2)
            app.open_sample(system_id, rel)  # type: ignore[attr-defined]
        elif key.startswith("recover:"):
            app.recover(self.recoveries[key.split(":", 1)[1]])  # type: ignore[attr-defined]

    def palette_commands(self):
        """The home screen's commands for the palette (ctrl+p)."""
        return [
            ("New list…", self.action_new, "n"),
            ("Open a file…", self.action_open, "o"),
            ("Help: keys", self.app.action_help, "?"),
            ("Change the colour theme", self.app.action_change_theme, "Textual's themes"),
            ("Quit", self.app.action_quit, "ctrl+q"),
        ]

    def action_new(self) -> None:
        def created(result) -> None:
            if result is not None:
                self.app.open_session(result)  # type: ignore[attr-defined]

        self.app.push_screen(NewListScreen(), created)

    def action_open(self) -> None:
        from .modals import PathPrompt

        def check(path: Path) -> str | None:
            if not path.is_file():
                return f"no file {workspace.shown(path)}"
            return None

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.app.open_path(path)  # type: ignore[attr-defined]

        self.app.push_screen(PathPrompt("Open a list file", "", check, browse=True), chosen)


class NewListScreen(ModalScreen):
    """System, people/faction, format, name and file → a new list saved at once."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self) -> None:
        super().__init__()
        self.systems = loadable_systems()
        # the file name follows the list's name unless the player typed one of their own
        self._derived_file = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog tall"):
            yield Static(Text("New list", style="bold"), classes="dialog-title")
            with VerticalScroll(classes="form"):
                yield Label("Game system")
                yield Select(
                    [(Text(s.name), s.id) for s in self.systems],
                    id="system",
                    allow_blank=False,
                    value=self.systems[0].id if self.systems else Select.NULL,
                    compact=True,
                )
                yield Label("People / faction", id="faction-label")
                yield Select([], id="faction", prompt="choose", compact=True)
                yield Label("Format")
                yield Select([], id="format", prompt="choose", compact=True)
                yield Label("Point limit of your own (empty: the format's)")
                yield Input("", id="limit", type="integer", placeholder="empty: the format's", compact=True)
                yield Label("Name")
                yield Input("New army", id="name", compact=True)
                yield Label("File")
                self._derived_file = workspace.shown(prefs.lists_dir(self._prefs_root()) / "new-army.yaml")
                yield Input(self._derived_file, id="file", compact=True)
            yield Static("", id="form-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Create", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def _prefs_root(self):
        return getattr(getattr(self.app, "store", None), "root", None)

    def on_mount(self) -> None:
        self.fill()
        self.query_one("#system", Select).focus()

    def system(self) -> GameSystem | None:
        value = self.query_one("#system", Select).value
        return next((s for s in self.systems if s.id == value), None)

    def fill(self) -> None:
        system = self.system()
        if system is None:
            return
        cat = system.catalogue()
        self.query_one("#faction-label", Label).update(Text(system.faction_label))
        from armybuilder.core.house_use import faction_choices

        factions = faction_choices(system)  # the bundled ones, then those of house catalogues
        faction = self.query_one("#faction", Select)
        faction.set_options([(Text(f"{c.label}  ") + Text(c.detail, style="dim"), c.value) for c in factions])
        if factions:
            faction.value = factions[0].value
        formats = system.formats(cat)
        fmt = self.query_one("#format", Select)
        fmt.set_options([(Text(f.name if str(f.limit) in f.name else f"{f.name} ({f.limit} {f.unit})"), f.id) for f in formats])
        if formats:
            default = system.default_format(cat)
            fmt.value = default.id
            # an example in this game's own scale: 1250 A.P., 15 points, 1000 Glory
            example = default.limit + max(1, default.limit // 4)
            self.query_one("#limit", Input).placeholder = f"e.g. {example} {default.unit}; empty: the format's"

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "system":
            self.fill()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "name":
            return
        file_input = self.query_one("#file", Input)
        typed = file_input.value.strip()
        if typed and typed != self._derived_file:
            return  # a file name of the player's own stays as typed
        import re

        slug = re.sub(r"[^a-z0-9]+", "-", event.value.lower()).strip("-") or "army-list"
        current = Path(typed) if typed else None
        folder = current.parent if current is not None and current.name else Path(workspace.shown(prefs.lists_dir(self._prefs_root())))
        self._derived_file = str(folder / (slug + ".yaml"))
        file_input.value = self._derived_file

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self.create()
        else:
            self.dismiss(None)

    def error(self, message: str) -> None:
        self.query_one("#form-error", Static).update(Text(message, style="bold red"))

    def create(self) -> None:
        from ..session import new_session

        system = self.system()
        if system is None:
            self.error("choose a game system")
            return
        faction = self.query_one("#faction", Select)
        fmt = self.query_one("#format", Select)
        name = self.query_one("#name", Input).value.strip() or "New army"
        raw = self.query_one("#file", Input).value.strip()
        if not raw:
            self.error("type a file name")
            return
        try:
            path = as_list_path(workspace.confine(raw) if workspace.active() else Path(raw).expanduser())
        except InputError as exc:
            self.error(str(exc))
            return
        if path.exists() or path.is_symlink():
            self.error(f"{workspace.shown(path)} exists already; choose another file name")
            return
        if not path.parent.is_dir() and path.parent == prefs.lists_dir(self._prefs_root()):
            path.parent.mkdir(parents=True, exist_ok=True)  # the documented default folder
        if not path.parent.is_dir():
            self.error(f"no folder {workspace.shown(path.parent)}")
            return
        from armybuilder.core.editing import point_limit

        try:
            limit = point_limit(self.query_one("#limit", Input).value)
        except ValueError as exc:
            self.error(str(exc))
            return
        try:
            session = new_session(
                system,
                None if faction.is_blank() else str(faction.value),
                None if fmt.is_blank() else str(fmt.value),
                name,
                path,
                self.app.store,  # type: ignore[attr-defined]
                limit=limit,
            )
            session.save(path)
        except (InputError, ValueError) as exc:
            self.error(str(exc))
            return
        prefs.put("lists_dir", str(path.parent.resolve()), self._prefs_root())
        self.dismiss(session)

    def action_cancel(self) -> None:
        self.dismiss(None)
