"""The Suggest screen: which legal edits raise the list's win rate against a field.

``armybuilder suggest`` for the list being edited: the field is the system's
bundled samples, a folder (or one list file), or the recent lists of the same
game; the run (racing on common games, then confirmation on fresh ones: see
:mod:`armybuilder.suggest.race`) plays in local processes from a thread worker,
with a progress bar counting the games planned.  Each confirmed suggestion shows
its edit in the editor's words, its cost, the win rate before and after and the
gain with its 95 % interval; Apply (or Enter on a row) hands the edit back to the
editor, which applies it as one undoable edit.  Nothing is written to disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Footer, Input, Label, ProgressBar, Select, Static

from armybuilder.core.catalog import Catalogue
from armybuilder.core.checks import plural
from armybuilder.core.errors import InputError
from armybuilder.core.lists import ListFile
from armybuilder.core.system import ArmyListBase, GameSystem
from armybuilder.meta.runners import LocalRunner
from armybuilder.suggest.neighbours import Edit
from armybuilder.suggest.report import unit_changes
from armybuilder.suggest.run import Progress, SuggestCancelled, Suggestion, SuggestRun, run_suggest

from .. import workspace
from ..safe_text import safe_text
from .engine_run import EngineRunScreen

MAX_GAMES = 100_000
#: the field choices: every bundled sample of the game, a folder or file, the recent lists
FIELDS = (("Bundled samples", "samples"), ("Folder or file", "folder"), ("Recent lists", "recent"))

#: what the editor does with a chosen suggestion: (the list it was found for, the edit)
ApplyEdit = Callable[[ArmyListBase, Edit], None]


class SuggestScreen(EngineRunScreen):
    """Choose a field, games, seed and workers; run; apply one of the confirmed suggestions."""

    PREFIX = "sg"
    CANCELLING = "cancelling after the running tasks…"
    BINDINGS = [Binding("a", "apply", "Apply", tooltip="apply the highlighted suggestion to the list (ctrl+z in the editor undoes it)")]
    DEFAULT_CSS = """
    SuggestScreen { layout: vertical; }
    SuggestScreen #sg-top { height: auto; }
    SuggestScreen .sg-row { height: auto; }
    SuggestScreen .sg-row Label { width: 9; padding: 1 1 0 0; }
    SuggestScreen #sg-field { width: 26; }
    SuggestScreen #sg-folder { width: 1fr; }
    SuggestScreen .sg-small { width: 13; }
    SuggestScreen #sg-progress { height: auto; margin: 0 0 0 1; }
    SuggestScreen #sg-message { height: auto; padding: 0 1; }
    SuggestScreen #sg-table { height: 1fr; min-height: 4; }
    SuggestScreen #sg-units { height: auto; max-height: 5; padding: 0 1; }
    """

    def __init__(self, system: GameSystem, army: ArmyListBase, catalogue: Catalogue, path: Path | None = None,
                 on_apply: ApplyEdit | None = None) -> None:
        super().__init__(system, army, catalogue)
        self.path = path
        self.on_apply = on_apply
        self.folder = workspace.shown(path.resolve().parent if path is not None else os.getcwd())
        self.run: SuggestRun | None = None
        self.shown: list[Suggestion] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="sg-top"):
            yield Static(safe_text(Text(f"Suggest — {self.army.name}: the edits that raise its win rate", style="bold")))
            with Horizontal(classes="sg-row"):
                yield Label("Field")
                yield Select(FIELDS, value="samples", allow_blank=False, id="sg-field")
                yield Input(self.folder, id="sg-folder", disabled=True, tooltip="a folder of lists, or one list file")
            yield from self._counts_row("100", str(os.cpu_count() or 1))
            with Horizontal(classes="sg-row"):
                yield Button("Run", id="sg-run", variant="primary")
                yield Button("Cancel", id="sg-cancel", disabled=True)
                yield Button("Apply", id="sg-apply", disabled=True)
            yield ProgressBar(id="sg-progress", show_eta=True)
            yield Static("games of this list against the field (both seats); the finalists play as many again", id="sg-message")
        yield DataTable(id="sg-table", zebra_stripes=True, cursor_type="row")
        yield Static("", id="sg-units")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#sg-table", DataTable)
        table.add_columns("#", "Gain (95 % interval)", "Win rate before → after", "Cost", "Games", "Edit")
        self._check_engine()
        self.query_one("#sg-field", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "sg-field":
            self.query_one("#sg-folder", Input).disabled = event.value != "folder"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "sg-apply":
            self.action_apply()
        else:
            super().on_button_pressed(event)

    # -- the field ---------------------------------------------------------------------------

    def field(self) -> list[Path]:
        """The opponents' files for the chosen field; InputError saying why there are none."""
        from armybuilder.core.filesets import expand_paths

        kind = self.query_one("#sg-field", Select).value
        if kind == "samples":
            return [Path(str(p)) for _, p in sorted(self.system.source.samples())]
        if kind == "recent":
            store = getattr(self.app, "store", None)
            recent = [Path(r.path) for r in (store.recent() if store is not None else []) if r.system == self.system.id]
            if not recent:
                raise InputError.at(f"no recent list of {self.system.name}: open a few, or choose another field")
            return recent
        raw = self.query_one("#sg-folder", Input).value.strip() or "."
        target = workspace.confine(raw) if workspace.active() else Path(raw).expanduser()
        if not target.exists():
            raise InputError.at("no such folder or file", target)
        return [p for p in expand_paths([str(target)]) if p.is_file()]

    # -- the run -----------------------------------------------------------------------------

    def action_run(self) -> None:
        if self.running or not self.system.engine_ready():
            return
        try:
            games, seed, workers = self._counts(MAX_GAMES, workspace.max_workers(256))
            field = self.field()
        except (ValueError, InputError) as exc:
            self._message(str(exc), error=True)
            return
        self._set_running(True)
        self.query_one("#sg-apply", Button).disabled = True
        self.query_one("#sg-table", DataTable).clear()
        self.query_one("#sg-units", Static).update("")
        self._message("finding the legal edits of the list…")
        self.run_suggestions(field, games, seed, workers)

    @work(thread=True, exclusive=True, group="suggest")
    def run_suggestions(self, field: list[Path], games: int, seed: int, workers: int) -> None:
        def compute() -> SuggestRun:
            base = ListFile(self.path, None, self.system, self.army)
            return run_suggest(base, field, games, seed, LocalRunner(workers), progress=self._suggest_progress,
                               cancelled=self._cancel.is_set)

        self._report(compute, "the suggestion run failed", expected=(InputError, SuggestCancelled))

    def _suggest_progress(self, where: Progress) -> None:
        """From the worker thread: the bar counts the games planned, the message says the race."""
        total, done, words = max(where.planned, where.done), where.done, where.words()

        def show() -> None:
            self.query_one("#sg-progress", ProgressBar).update(total=total, progress=done)
            if not self._cancel.is_set():
                self._message(f"{words}; {done:,} of {total:,} games")

        self.app.call_from_thread(show)

    def _show(self, run: SuggestRun) -> None:
        self.run = run
        step = run.steps[0]
        self.shown = [s for s in step.suggestions if s.confirmed]
        table = self.query_one("#sg-table", DataTable)
        table.clear()
        for rank, s in enumerate(self.shown, start=1):
            c = s.standing.confirmed
            assert c is not None
            table.add_row(str(rank), f"{c.mean:+.1%} ({c.low:+.1%} to {c.high:+.1%})", f"{c.base_rate:.1%} → {c.rate:.1%}",
                          _cost(s.neighbour.cost, run.unit), f"{c.games:,}", safe_text(s.neighbour.edit.words))
        said = (f"{plural(step.candidates, 'legal edit')} raced against {plural(len(run.opponents), 'opponent')}, {run.played:,} games; "
                f"each figure rests on {run.games:,} paired games played after the race")
        if self.shown:
            self._message(f"{said}. Enter or a applies the highlighted edit.")
            self.query_one("#sg-apply", Button).disabled = self.on_apply is None
            table.focus()
            self._show_units(0)
        else:
            best = step.suggestions[0] if step.suggestions else None
            hint = (f" (best: {best.neighbour.edit.words}, {best.figures.mean:+.1%}, interval {best.figures.low:+.1%} to "
                    f"{best.figures.high:+.1%})") if best else ""
            self._message(f"{said}. No edit's gain is shown above zero{hint}: more games can show a smaller one.")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "sg-table":
            self._show_units(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "sg-table":
            self.action_apply()

    def _show_units(self, row: int) -> None:
        """The highlighted edit in full, and the units whose figures moved most with it (survival,
        points taken a game)."""
        if self.run is None or not 0 <= row < len(self.shown):
            return
        step = self.run.steps[0]
        chosen = self.shown[row]
        text = Text(f"Suggestion {row + 1}: {chosen.neighbour.edit.words}\n", style="bold")  # whole: the table cuts it
        for u in unit_changes(step.base_units, chosen.units)[:3]:
            before = "—" if u["survived_before"] is None else f"survives {u['survived_before']:.0%}, takes {u['eliminated_before']:.1f}"
            after = "—" if u["survived_after"] is None else f"survives {u['survived_after']:.0%}, takes {u['eliminated_after']:.1f}"
            text.append(f"{u['unit']}: {before} → {after} {self.run.unit} a game\n")
        self.query_one("#sg-units", Static).update(safe_text(text, lines=True))

    def action_apply(self) -> None:
        """Hand the highlighted suggestion to the editor (one undoable edit) and go back to it."""
        if self.running or not self.shown or self.on_apply is None:
            return
        row = self.query_one("#sg-table", DataTable).cursor_row
        if not 0 <= row < len(self.shown):
            return
        chosen = self.shown[row].neighbour.edit
        self.app.pop_screen()
        self.on_apply(self.army, chosen)


def _cost(x: float, unit: str) -> str:
    return f"{x:+g} {unit}" if x else f"±0 {unit}"

