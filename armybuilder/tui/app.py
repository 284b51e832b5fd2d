"""The armybuilder TUI: home screen and list editor for every game system.

``run(path)`` opens it (``armybuilder`` and ``armybuilder edit LIST`` reach it through
:func:`armybuilder.tui.run`, which pauses the garbage collector first).  The list is
loaded before the terminal is taken over, so a broken file gives a plain
``file:line:column`` error and exit code 2 instead of a full-screen failure.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from armybuilder.core.errors import InputError

from . import workspace
from .session import Session, open_file, open_recovery, open_text
from .storage import Recovery, Store


def _screen_commands():
    """The palette provider, imported when the palette first opens (faster start)."""
    from .commands import ScreenCommands

    return ScreenCommands


class ArmyBuilderApp(App):
    """Home screen at the bottom of the stack; each opened list is an editor screen."""

    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    TITLE = "armybuilder"
    # Only the program's own commands: Textual's (Keys, Maximize, Screenshot, Theme…) crowded
    # them out; the theme stays reachable as one of ours (see EditorScreen.palette_commands).
    COMMANDS = {_screen_commands}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        session: Session | None = None,
        *,
        store: Store | None = None,
        recovery_delay: float = 0.3,
        export_dir: Path | None = None,
        offer_recovery: bool = True,
    ) -> None:
        super().__init__()
        self.store = store or Store()
        self.initial = session
        self.recovery_delay = recovery_delay
        self.export_dir = export_dir or Path("exports")
        self.paper = "A4"
        self.offer_recovery = offer_recovery

    def notify(self, message: str, *, title: str = "", **options) -> None:
        """Every notification passes the sanitiser: error texts quote ids from the file. In a
        served session no path in it shows the host's folders (:func:`workspace.hide_root`)."""
        from armybuilder.core.sanitize import visible_lines

        super().notify(visible_lines(workspace.hide_root(message)), title=visible_lines(title), **options)

    def _write_all_recoveries(self) -> None:
        from .screens.editor import EditorScreen

        for screen in list(self.screen_stack):
            if isinstance(screen, EditorScreen):
                try:
                    screen.session.write_recovery()
                except Exception:  # noqa: BLE001 - best effort while going down
                    pass

    def _on_terminate(self) -> None:
        """SIGTERM / SIGHUP (terminal closed): keep the unsaved work, then leave."""
        self._write_all_recoveries()
        self.exit(return_code=1)

    def on_mount(self) -> None:
        import asyncio
        import signal

        for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if signum is None:
                continue
            try:
                asyncio.get_running_loop().add_signal_handler(signum, self._on_terminate)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not on this platform / not the main thread (tests)
        # the start-up pause of the garbage collector ends when the first screen is drawn;
        # this covers a first screen that says nothing (a recovery question waiting)
        from . import resume_collector

        self.set_timer(2.0, resume_collector)
        # Opened on a list: the editor comes first and the home screen is built only
        # when the player closes the list (it loads every system: not worth the wait).
        if self.initial is not None:
            session, self.initial = self.initial, None
            self._open_with_recovery_check(session)
            self._mention_other_recoveries(session)
        else:
            self.show_home()

    def _mention_other_recoveries(self, session: Session) -> None:
        """Opened on one list: unsaved copies of *other* lists are announced, never hidden."""
        if not self.offer_recovery:
            return
        mine = str(session.path.resolve()) if session.path else None
        others = [r for r in self.store.recoveries() if r.path != mine and r.session != session.session_id]
        if others:
            self.notify(
                f"{len(others)} unsaved {'copy' if len(others) == 1 else 'copies'} of other lists, left by "
                "editors that did not close: close this list (home screen) to recover them",
                title="unsaved work",
                severity="warning",
                timeout=12,
                markup=False,
            )

    def show_home(self) -> None:
        from .screens.home import HomeScreen

        self.push_screen(HomeScreen())

    def exported(self, path: Path) -> None:
        """An export was written: in a browser (``armybuilder serve``) it is also handed
        over as a download, since the file itself stays on the host."""
        if self.is_web:
            self.deliver_binary(path)
            self.notify(f"{path.name}: download started", markup=False)

    # -- opening ---------------------------------------------------------------

    def editor_ready(self, editor) -> None:
        """Called once an editor has drawn its list (the start-up benchmark hooks here)."""

    @property
    def editor(self):
        from .screens.editor import EditorScreen

        return next((s for s in reversed(self.screen_stack) if isinstance(s, EditorScreen)), None)

    def open_session(self, session: Session) -> None:
        from .screens.editor import EditorScreen

        if session.store is None:
            session.store = self.store
        self.push_screen(EditorScreen(session, self.recovery_delay))

    def _open_with_recovery_check(self, session: Session, skipped: frozenset[str] = frozenset()) -> None:
        """Offer, one after the other, every copy of this file left by an editor that died.

        Each editor session keeps its own copy, so two crashed editors on one file leave
        two copies: both are offered (newest first), none is lost.
        """
        found = (
            [r for r in self.store.recoveries_for(session.path, exclude=session.session_id) if r.key not in skipped]
            if (self.offer_recovery and session.path)
            else []
        )
        if not found:
            self.open_session(session)
            return
        recovery = found[0]
        from .screens.modals import Confirm

        body = Text()
        body.append("An editor closed without saving changes to\n")
        body.append(str(session.path), style="bold")
        body.append(f"\n(recovery copy written {recovery.when}).\n\nRecover those changes? They stay unsaved until you save.")
        if len(found) > 1:
            body.append(f"\n\n{len(found) - 1} more unsaved copies of this file follow (also listed on the home screen).")

        def chosen(key: str | None) -> None:
            if key == "recover":
                session.remember_later()  # the file is still the one the player opened
                self.recover(recovery)
            else:
                if key == "discard":
                    self.store.discard_recovery(recovery.key)
                self._open_with_recovery_check(session, skipped | {recovery.key})

        self.push_screen(
            Confirm(
                "Recover unsaved work?",
                body,
                (("recover", "Recover", "primary"), ("discard", "Discard them", "error"), ("keep", "Not now", "default")),
            ),
            chosen,
        )

    def open_path(self, path: Path) -> None:
        try:
            session = open_file(workspace.confine(path), self.store)
            session.catalogue_check()  # resolve the pinned catalogue now: its errors belong here
        except InputError as exc:
            self.notify(str(exc), title="cannot open", severity="error", markup=False, timeout=10)
            return
        self._open_with_recovery_check(session)

    def open_sample(self, system_id: str, rel: str) -> None:
        from armybuilder.core.registry import get_system
        from armybuilder.core.yamlio import decode_text

        try:
            system = get_system(system_id)
            item = dict(system.source.samples())[rel]
            session = open_text(decode_text(item.read_bytes(), rel), rel, None, self.store)
            session.catalogue_check()
        except (InputError, KeyError) as exc:
            self.notify(str(exc), title="cannot open the sample", severity="error", markup=False)
            return
        self.open_session(session)
        self.notify("a bundled sample: ctrl+s saves your own copy")

    def recover(self, recovery: Recovery) -> None:
        try:
            session = open_recovery(recovery.file, Path(recovery.path) if recovery.path else None, self.store, recovery.base)
            session.catalogue_check()
        except (InputError, OSError) as exc:
            self.notify(f"the recovery copy is unreadable: {exc}", severity="error", markup=False)
            return
        session.recovery_key = recovery.key  # keep writing into the same slot until saved
        session.owns_recovery = True
        self.store.claim_recovery(recovery.key, session.session_id)  # now a live editor's copy
        self.open_session(session)
        self.notify("recovered unsaved changes: ctrl+s to save them", timeout=8)

    def close_editor(self, editor) -> None:
        """Leave an editor (asking about unsaved changes) and return to the home screen."""

        def leave() -> None:
            editor.session.discard_recovery()
            from .screens.home import HomeScreen

            if self.screen is not editor:
                return
            if any(isinstance(s, HomeScreen) for s in self.screen_stack):
                self.pop_screen()
            else:
                self.switch_screen(HomeScreen())

        self._ask_unsaved(editor, leave)

    def _ask_unsaved(self, editor, proceed) -> None:
        if not editor.session.dirty:
            proceed()
            return
        from .screens.modals import Confirm

        body = Text("The list ")
        body.append(editor.session.army.name, style="bold")
        body.append(" has unsaved changes.")

        def chosen(key: str | None) -> None:
            if key == "save":
                editor.action_save(then=proceed)
            elif key == "discard":
                proceed()

        self.push_screen(
            Confirm("Unsaved changes", body, (("save", "Save", "primary"), ("discard", "Don't save", "error"), ("cancel", "Cancel", "default"))),
            chosen,
        )

    def _handle_exception(self, error: Exception) -> None:
        """Before an unexpected error ends the program, write every unsaved list out."""
        self._write_all_recoveries()
        super()._handle_exception(error)

    # -- app actions -------------------------------------------------------------

    async def action_quit(self) -> None:
        editor = self.editor
        if editor is None:
            self.exit()
            return

        def leave() -> None:
            editor.session.discard_recovery()
            self.exit()

        self._ask_unsaved(editor, leave)

    def action_help(self) -> None:
        from .screens.modals import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def _is_bundled(path: Path) -> bool:
    """A sample shipped inside the package: edited as a copy, never saved over."""
    from armybuilder.core.catalog import catalog_root

    try:
        root = Path(str(catalog_root())).resolve()
        return path.resolve().is_relative_to(root)
    except (OSError, ValueError):
        return False


def run(path: Path | None) -> int:
    """Open the editor on ``path`` (home screen without one); see :func:`armybuilder.tui.run`."""
    session = None
    store = Store()
    if path is not None:
        if _is_bundled(path) and path.is_file():
            from armybuilder.core.yamlio import decode_text

            session = open_text(decode_text(path.read_bytes(), str(path)), str(path), None, store)
        else:
            # InputError → "error: file:line:col …", exit 2; into the recent lists once drawn
            session = open_file(path, store, remember=False)
        session.catalogue_check()  # the pinned catalogue must load too, before the terminal is taken
    app = ArmyBuilderApp(session, store=store)
    app.run()
    return app.return_code or 0
