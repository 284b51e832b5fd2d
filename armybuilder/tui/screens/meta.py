"""The meta screen: the list being edited against every list of a folder.

The organiser's matrix (``armybuilder meta``) reduced to the row a player cares
about: how does *this* list fare against the club's lists?  Games run in local
processes from a thread worker (as the playtest does); the table shows, per
opponent, wins/draws/losses and the win rate with its Wilson interval, and the
mean against the whole folder.  Nothing is written to disk.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Footer, Input, Label, ProgressBar, Static

from armybuilder.core.catalog import Catalogue
from armybuilder.core.checks import plural
from armybuilder.core.errors import InputError
from armybuilder.core.system import ArmyListBase, GameSystem
from armybuilder.meta.field import from_army
from armybuilder.meta.matrix import MetaMatrix
from armybuilder.meta.run import prepare_row, run_meta
from armybuilder.meta.runners import LocalRunner

from .. import workspace
from ..safe_text import safe_text
from .engine_run import EngineRunScreen

MAX_GAMES = 100_000


class MetaScreen(EngineRunScreen):
    """Choose a folder, games, seed and workers; run; read this list's row of the matrix."""

    PREFIX = "mt"
    CANCELLING = "cancelling after the running tasks…"
    DEFAULT_CSS = """
    MetaScreen { layout: vertical; }
    MetaScreen #mt-top { height: auto; }
    MetaScreen .mt-row { height: auto; }
    MetaScreen .mt-row Label { width: 10; padding: 1 1 0 0; }
    MetaScreen #mt-folder { width: 1fr; }
    MetaScreen .mt-small { width: 14; }
    MetaScreen #mt-progress { height: auto; margin: 1 0; }
    MetaScreen #mt-message { height: auto; }
    MetaScreen #mt-mean { height: auto; padding: 0 1; }
    MetaScreen #mt-table { height: 1fr; }
    """

    def __init__(self, system: GameSystem, army: ArmyListBase, catalogue: Catalogue, folder: str | None = None) -> None:
        super().__init__(system, army, catalogue)
        self.folder = workspace.shown(folder or os.getcwd())
        self.matrix: MetaMatrix | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="mt-top"):
            yield Static(safe_text(Text(f"Meta — {self.system.name}: {self.army.name} against a folder of lists", style="bold")))
            with Horizontal(classes="mt-row"):
                yield Label("Folder")
                yield Input(self.folder, id="mt-folder")
            yield from self._counts_row("200", str(os.cpu_count() or 1))
            with Horizontal(classes="mt-row"):
                yield Button("Run", id="mt-run", variant="primary")
                yield Button("Cancel", id="mt-cancel", disabled=True)
            yield ProgressBar(id="mt-progress", show_eta=True)
            yield Static("", id="mt-message")
        yield Static("", id="mt-mean")
        yield DataTable(id="mt-table", zebra_stripes=True, cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#mt-table", DataTable)
        table.add_columns("Opponent", "Name", "Games", "W / D / L", "Win rate", "95 % interval")
        self._check_engine()

    def action_run(self) -> None:
        if self.running or not self.system.engine_ready():
            return
        try:
            games, seed, workers = self._counts(MAX_GAMES, workspace.max_workers(256))
        except ValueError as exc:
            self._message(str(exc), error=True)
            return
        raw = self.query_one("#mt-folder", Input).value.strip() or "."
        try:
            folder = workspace.confine(raw) if workspace.active() else Path(raw).expanduser()
        except InputError as exc:
            self._message(str(exc), error=True)
            return
        if not folder.is_dir():
            self._message(f"{workspace.shown(folder)}: not a folder", error=True)
            return
        self._set_running(True)
        self._message(f"reading the lists of {workspace.shown(folder)}…")
        self.run_matrix(folder, games, seed, workers)

    @work(thread=True, exclusive=True, group="meta")
    def run_matrix(self, folder: Path, games: int, seed: int, workers: int) -> None:
        from armybuilder.core.filesets import expand_paths

        def matrix() -> MetaMatrix:
            setup = prepare_row(from_army(self.system, self.army, "this list"), list(expand_paths([str(folder)])))
            self.app.call_from_thread(self._message, f"{plural(len(setup.cols), 'list')}, {plural(games, 'game')} each" +
                                      (f"; {len(setup.left_out)} left out (illegal or unreadable)" if setup.left_out else ""))
            return run_meta(setup, games, seed, LocalRunner(workers), progress=self._progress, cancelled=self._cancel.is_set)

        self._report(matrix, "the matrix failed", expected=(InputError,))

    def _show(self, matrix: MetaMatrix) -> None:
        self.matrix = matrix
        self._message("done" if matrix.complete else "cancelled: the figures cover the games played")
        total = matrix.field_tally(0)
        low, high = total.interval
        mean = Text()
        mean.append("Against the folder: ", style="bold")
        mean.append(f"{(total.rate or 0):.1%}", style="bold green" if (total.rate or 0) >= 0.5 else "bold red")
        mean.append(f"  (95 % Wilson interval {low:.1%} – {high:.1%}; {total.games:,} game{'' if total.games == 1 else 's'}; a draw counts half)")
        if not matrix.rows[0].legal:
            mean.append("\nthis list is not legal yet: its figures are for the list as it stands", style="yellow")
        self.query_one("#mt-mean", Static).update(mean)
        table = self.query_one("#mt-table", DataTable)
        table.clear()
        cells = sorted(matrix.cells.items(), key=lambda kv: -(kv[1].rate or 0))
        for (_, j), t in cells:
            opponent = matrix.cols[j]
            lo, hi = t.interval
            table.add_row(safe_text(opponent.label), safe_text(opponent.name), f"{t.games:,}", f"{t.wins} / {t.draws} / {t.losses}",
                          "–" if t.rate is None else f"{t.rate:.1%}", f"{lo:.1%} – {hi:.1%}")
