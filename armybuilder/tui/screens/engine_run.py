"""What the playtest and meta screens share: run games in a thread worker, show progress, cancel.

Both screens read whole numbers from inputs, start a worker that plays many
games, move a progress bar from that thread, stop at the next chunk when
cancelled and show the outcome (or the error) back on the event loop.  That
machinery lives here once; each screen keeps its own form, its worker's work and
the way it shows the result.  Widget ids follow the screen's ``PREFIX``:
``#<prefix>-run``, ``-cancel``, ``-progress`` and ``-message``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Input, Label, ProgressBar, Static

from armybuilder.core.catalog import Catalogue
from armybuilder.core.system import ArmyListBase, GameSystem

from ..safe_text import safe_text


class EngineRunScreen(Screen[None]):
    """A screen whose Run button plays games in a worker thread, with progress and Cancel."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+r", "run", "Run"),
        Binding("ctrl+c", "cancel", "Cancel", show=False),
    ]
    PREFIX: ClassVar[str] = ""
    """The screen's widget-id prefix ("pt" gives ``#pt-run``, ``#pt-message``…)."""
    CANCELLING: ClassVar[str] = "cancelling…"
    """The message shown while the worker finishes what it has started."""

    def __init__(self, system: GameSystem, army: ArmyListBase, catalogue: Catalogue) -> None:
        super().__init__()
        self.system = system
        self.army = army
        self.cat = catalogue
        self.running = False
        self._cancel = threading.Event()

    def _sel(self, name: str) -> str:
        return f"#{self.PREFIX}-{name}"

    def _check_engine(self) -> None:
        """Say so and disable Run when the system has no battle simulator (called from on_mount)."""
        if not self.system.engine_ready():
            self._message(f"{self.system.name} has no battle simulator yet.", error=True)
            self.query_one(self._sel("run"), Button).disabled = True

    def _message(self, text: str, error: bool = False) -> None:
        self.query_one(self._sel("message"), Static).update(safe_text(Text(text, style="red" if error else ""), lines=True))

    def _counts_row(self, games: str, workers: str) -> ComposeResult:
        """The row of Games, Seed and Workers inputs (``#<prefix>-games``, ``-seed``, ``-workers``)."""
        with Horizontal(classes=f"{self.PREFIX}-row"):
            for label, name, value in (("Games", "games", games), ("Seed", "seed", "1"), ("Workers", "workers", workers)):
                yield Label(label)
                yield Input(value, id=f"{self.PREFIX}-{name}", type="integer", classes=f"{self.PREFIX}-small")

    def _counts(self, max_games: int, max_workers: int) -> tuple[int, int, int]:
        """Games, seed and workers from the counts row; ValueError naming the one that is wrong."""
        return (self._int(self._sel("games"), "Games", 1, max_games), self._int(self._sel("seed"), "Seed", 0, 2**63 - 1),
                self._int(self._sel("workers"), "Workers", 1, max_workers))

    def _int(self, widget_id: str, label: str, low: int, high: int) -> int:
        """The whole number in input ``widget_id``; ValueError naming ``label`` when it is not one in range."""
        raw = self.query_one(widget_id, Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"{label}: a whole number is needed") from None
        if not low <= value <= high:
            raise ValueError(f"{label}: between {low} and {high}")
        return value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == f"{self.PREFIX}-run":
            self.action_run()
        elif event.button.id == f"{self.PREFIX}-cancel":
            self.action_cancel()

    def action_run(self) -> None:  # pragma: no cover - every screen has its own
        raise NotImplementedError

    def _set_running(self, running: bool) -> None:
        """Mark a run as started or over: Run and Cancel swap which of them can be pressed."""
        if running:
            self._cancel.clear()
        self.running = running
        self.query_one(self._sel("run"), Button).disabled = running
        self.query_one(self._sel("cancel"), Button).disabled = not running

    def action_cancel(self) -> None:
        if self.running:
            self._cancel.set()
            self._message(self.CANCELLING)

    def _progress(self, done: int, total: int) -> None:
        """The progress callback of a run: moves the bar from the worker thread."""
        self.app.call_from_thread(self.query_one(self._sel("progress"), ProgressBar).update, total=total, progress=done)

    def _report(self, compute: Callable[[], Any], failure: str, expected: tuple[type[Exception], ...] = ()) -> None:
        """Run ``compute`` (in the worker thread) and hand its result to :meth:`_finished` on the event loop.

        An error of the ``expected`` kinds is shown as its own message; any other one
        as ``failure`` with its type, so a failing engine never takes the editor down.
        """
        try:
            result = compute()
        except expected as exc:
            message = str(exc)
        except Exception as exc:  # noqa: BLE001 - show it, keep the editor alive
            message = f"{failure}: {type(exc).__name__}: {exc}"
        else:
            self.app.call_from_thread(self._finished, result, "")
            return
        self.app.call_from_thread(self._finished, None, message)

    def _finished(self, result: Any, error: str) -> None:
        self._set_running(False)
        if result is None:
            self._message(error, error=True)
            return
        self._show(result)

    def _show(self, result: Any) -> None:  # pragma: no cover - every screen has its own
        raise NotImplementedError

    def action_close(self) -> None:
        self._cancel.set()
        self.app.pop_screen()
