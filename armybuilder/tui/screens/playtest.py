"""The playtest screen: many simulated games against a sample opponent, with honest statistics.

Generic over game systems (``GameSystem.play_game`` through
:func:`armybuilder.core.playtest.run_playtest`).  The games run in a thread worker
(the engine is pure Python; with more than one worker process the work leaves
this process anyway), report progress after every chunk and stop at the next
chunk when cancelled.  Results: wins, draws and losses, the win rate with its
Wilson 95 % interval, mean rounds, a histogram of the score margin per game and
per-unit statistics.

For a system whose games are played on a table (``GameSystem.table_layouts``), the first game
is played once more, recorded and narrated (``run_playtest(replay=True, log=True)``: one game,
cheap), and a Map tab beside the results shows it on its table, frame by frame
(:class:`~armybuilder.tui.widgets.battle_map.BattleMapView`); ``ctrl+t`` goes there and back.
A system without a table has no tab and no key for it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    ProgressBar,
    Select,
    Static,
    TabbedContent,
    TabPane,
)

from armybuilder.core.catalog import Catalogue
from armybuilder.core.checks import plural
from armybuilder.core.playtest import (
    PlaytestSummary,
    histogram,
    load_sample,
    run_playtest,
    sample_titles,
)
from armybuilder.core.system import ArmyListBase, GameSystem
from armybuilder.tui import prefs, workspace

from ..cut import cut_words
from ..safe_text import safe_text
from ..widgets.battle_map import BattleMapView
from .engine_run import EngineRunScreen

SELF = "\x00self"
MAX_GAMES = 1_000_000


def start_process_support() -> None:
    """Start multiprocessing's resource tracker with a real stderr, before a process pool.

    Inside a running Textual app ``sys.stderr`` is Textual's print capture, whose
    ``fileno()`` is -1; the tracker, started lazily by the first process pool, passes
    that number to the child and the pool dies with "bad value(s) in fds_to_keep".
    Starting it here, from the event loop's thread, with stderr pointed at /dev/null
    (its rare warnings must not scribble over the screen) avoids that; once running,
    the tracker is reused by every later pool.
    """
    from multiprocessing import resource_tracker

    with open(os.devnull, "w", encoding="utf-8") as quiet, contextlib.redirect_stderr(quiet):
        resource_tracker.ensure_running()


def _cut(name: str, width: int) -> str:
    """``name`` in ``width`` cells, whole words and a "…" rather than silently cut."""
    return cut_words(name, max(1, width))


def summary_text(
    summary: PlaytestSummary,
    unit: str = "points",
    width: int = 80,
    sides: tuple[str, str] = ("your list", "the opponent"),
    scenario_names: Mapping[str, str] | None = None,
) -> Text:
    """W/D/L, win rate with its interval, mean rounds, then one table per side.

    ``sides`` names both lists with their points ("Lions, 996 A.P."); the tables fit
    ``width`` cells: the name column takes what the two numbers leave.
    """
    low, high = summary.interval
    text = Text(no_wrap=True, overflow="ellipsis")
    head = "Cancelled after " if summary.cancelled else ""
    text.append(f"{head}{plural(summary.games, 'game')} (seed {summary.seed})\n", style="bold")
    text.append(_cut(f"{sides[0]}  vs  {sides[1]}", width) + "\n")
    text.append(f"wins {summary.wins}   draws {summary.draws}   losses {summary.losses}\n")
    text.append(_cut(f"win rate {summary.win_rate:.1%}  (95 % interval {low:.1%}–{high:.1%}, Wilson; a draw counts half)", width) + "\n")
    if summary.scenarios:  # a system that draws its scenario per game: each one's own figure
        names = scenario_names or {}
        label_width = max(len(names.get(n, n)) for n in summary.scenarios)
        for name, played in summary.scenarios.items():
            s_low, s_high = played.interval
            row = f"  {names.get(name, name):<{label_width}} {played.games:>5} {'game ' if played.games == 1 else 'games'}  {played.win_rate:6.1%} ({s_low:.0%}–{s_high:.0%})"
            text.append(_cut(row, width) + "\n")
    text.append(f"mean rounds {summary.mean_rounds:.2f}\n")
    name_width = max(12, min(48, width - 26))
    for side, title in ((0, f"Your units ({sides[0]})"), (1, f"Opponent's units ({sides[1]})")):
        units = [u for u in summary.units if u.side == side]
        if not units:
            continue
        text.append(f"\n{_cut(title, width - 2)}\n", style="bold")
        text.append(f"{'unit':<{name_width}} {'survives':>8} {'foes/game':>14}\n", style="dim")
        for u in units:
            text.append(f"{_cut(u.name, name_width):<{name_width}} {u.survival_rate:8.0%} {u.mean_eliminated:14.1f}\n")
    text.append("\n" + _cut(f"foes/game: enemy {unit} the unit eliminated or routed per game, on average", width) + "\n", style="dim")
    return safe_text(text, lines=True)


def histogram_text(values: Iterable[float] | Mapping[float, int], unit: str = "points", width: int = 30, bins: int = 10) -> Text:
    """Bars of the score margin (my score minus the opponent's) per game."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"Score margin per game ({unit}, yours − theirs)\n", style="bold")
    rows = histogram(values, bins)
    if not rows:
        return text
    top = max(c for _, _, c in rows) or 1
    for low, high, count in rows:
        filled = round(count / top * width)
        style = "green" if low >= 0 else "red" if high <= 0 else "yellow"
        text.append(f"{low:6.0f}…{high:<6.0f} ", style="dim")
        text.append("█" * filled, style=style)
        text.append(f" {count}\n")
    return text


class PlaytestScreen(EngineRunScreen):
    """Choose an opponent, a number of games and a seed; run; read the statistics."""

    PREFIX = "pt"
    CANCELLING = "cancelling after the current chunk…"
    BINDINGS = [
        Binding("ctrl+t", "show_tab('pt-tab-map')", "Map", id="playtest.map",
                tooltip="playtest: the Map tab, the first game on its table (games with a table); again: the results"),
        Binding("ctrl+t", "show_tab('pt-tab-results')", "Results", id="playtest.results", tooltip="back to the results"),
    ]
    DEFAULT_CSS = """
    PlaytestScreen { layout: vertical; }
    PlaytestScreen #pt-tabs { height: 1fr; }
    PlaytestScreen #pt-tabs ContentSwitcher { height: 1fr; }
    PlaytestScreen #pt-tabs TabPane { height: 1fr; padding: 0; }
    PlaytestScreen #pt-form { height: auto; }
    PlaytestScreen.-map #pt-form { display: none; }
    PlaytestScreen #pt-top { height: auto; }
    PlaytestScreen .pt-row { height: auto; }
    PlaytestScreen .pt-row { margin-bottom: 1; }
    PlaytestScreen .pt-row Label { width: auto; padding: 0 1 0 1; }
    PlaytestScreen .pt-row Button { margin-left: 1; }
    PlaytestScreen .pt-row Input { width: 12; }
    PlaytestScreen .pt-row Select { width: 1fr; }
    PlaytestScreen #pt-progress { height: auto; margin: 0 1; }
    PlaytestScreen #pt-results { height: 1fr; }
    PlaytestScreen .pt-panel { width: 1fr; height: auto; padding: 0 1; text-wrap: nowrap; }
    PlaytestScreen #pt-message { height: auto; }
    """

    def __init__(self, system: GameSystem, army: ArmyListBase, catalogue: Catalogue) -> None:
        super().__init__(system, army, catalogue)
        self.summary: PlaytestSummary | None = None
        self.opponent: ArmyListBase | None = None
        self.has_table = self._has_table()

    def _has_table(self) -> bool:
        """Whether the system's games are played on a table it can draw (it has table layouts)."""
        try:
            return bool(self.system.table_layouts(self.cat))
        except Exception:  # noqa: BLE001 - a system that cannot say has no map to offer
            return False

    def compose(self) -> ComposeResult:
        with Vertical(id="pt-top"):
            yield Static(safe_text(Text(f"Playtest — {self.system.name}: {self.army.name}", style="bold")))
            yield from self._form()
        if self.has_table:
            with TabbedContent(id="pt-tabs"):
                with TabPane("Results", id="pt-tab-results"):
                    yield from self._results()
                with TabPane("Map", id="pt-tab-map"):
                    yield BattleMapView(empty="Run a playtest (ctrl+r): its first game is drawn here on its table.", id="pt-map")
        else:
            yield from self._results()
        yield Footer()

    def _results(self) -> ComposeResult:
        with VerticalScroll(id="pt-results"):
            yield Static("", id="pt-summary", classes="pt-panel")
            yield Static("", id="pt-histogram", classes="pt-panel")

    def _form(self) -> ComposeResult:
        """Opponent, counts, Run and Cancel, progress and message (hidden while the map is shown)."""
        with Vertical(id="pt-form"):
            with Horizontal(classes="pt-row"):
                yield Label("Opponent")
                yield Select(self._opponent_choices(), id="pt-opponent", allow_blank=False, value=self._default_opponent(), compact=True)
            with Horizontal(classes="pt-row"):
                yield Label("Games")
                saved = self._remembered()
                yield Input(str(saved.get("games", 1000)), id="pt-games", type="integer", compact=True)
                yield Label("Seed")
                yield Input(str(saved.get("seed", 1)), id="pt-seed", type="integer", compact=True)
                yield Label("Workers")
                yield Input(str(saved.get("workers", min(2, os.cpu_count() or 1))), id="pt-workers", type="integer", compact=True)
            with Horizontal(classes="pt-row"):
                yield Button("Run (ctrl+r)", id="pt-run", variant="primary", compact=True)
                yield Button("Cancel", id="pt-cancel", disabled=True, compact=True)
            yield ProgressBar(id="pt-progress", show_eta=True)
            yield Static("", id="pt-message")

    def on_mount(self) -> None:
        self._check_engine()

    # -- the map tab (systems with a table) ----------------------------------------------

    def _tab(self) -> str:
        if not self.has_table or not self.is_mounted:
            return ""
        return str(self.query_one("#pt-tabs", TabbedContent).active)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ctrl+t offers the map on the Results tab and the results on the Map tab; a system
        without a table has neither."""
        if action == "show_tab":
            return self.has_table and bool(parameters) and parameters[0] != self._tab()
        return True

    def action_show_tab(self, tab: str) -> None:
        """ctrl+t: the Map tab (the map takes the focus, for its keys) or back to the Results."""
        if self.has_table:
            self.query_one("#pt-tabs", TabbedContent).active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        on_map = event.pane is not None and event.pane.id == "pt-tab-map"
        self.set_class(on_map, "-map")  # the form folds away: the map takes the screen's height
        if on_map:
            self.query_one(BattleMapView).focus()
        self.refresh_bindings()

    # -- choices -------------------------------------------------------------------------

    def _opponent_choices(self) -> list[tuple[str, str]]:
        choices = []
        try:
            choices = [(f"sample: {title}", name) for name, title in sample_titles(self.system)]
        except Exception:  # noqa: BLE001
            pass
        return choices + [("this list (mirror match)", SELF)]

    def _default_opponent(self) -> str:
        choices = self._opponent_choices()
        return choices[0][1]

    def _prefs_root(self):
        store = getattr(self.app, "store", None)
        return getattr(store, "root", None)

    def _remembered(self) -> dict[str, int]:
        """Games, seed and workers as last run (so Workers=1 stays 1 on the next visit)."""
        raw = prefs.get("playtest", {}, self._prefs_root())
        out: dict[str, int] = {}
        if isinstance(raw, dict):
            for key in ("games", "seed", "workers"):
                if isinstance(raw.get(key), int) and raw[key] >= 0:
                    out[key] = raw[key]
        return out

    def _remember(self, **values: int) -> None:
        prefs.put("playtest", values, self._prefs_root())

    # -- running -------------------------------------------------------------------------

    def action_run(self) -> None:
        if self.running or not self.system.engine_ready():
            return
        if self._tab() == "pt-tab-map":  # the form and its progress are on the Results tab
            self.action_show_tab("pt-tab-results")
        try:
            games = self._int("#pt-games", "Games", 1, MAX_GAMES)
            seed = self._int("#pt-seed", "Seed", 0, 2**63 - 1)
            workers = self._int("#pt-workers", "Workers", 1, workspace.max_workers(64))
            value = self.query_one("#pt-opponent", Select).value
            opponent = self.army if value == SELF else load_sample(self.system, str(value))
        except (ValueError, KeyError) as exc:
            self._message(str(exc), error=True)
            return
        except Exception as exc:  # noqa: BLE001 - a broken sample file
            self._message(f"cannot load the opponent: {exc}", error=True)
            return
        if workers > 1:
            try:
                start_process_support()
            except OSError as exc:
                self._message(f"cannot start worker processes ({exc}); set Workers to 1", error=True)
                return
        self._remember(games=games, seed=seed, workers=workers)
        self.opponent = opponent
        self._set_running(True)
        bar = self.query_one("#pt-progress", ProgressBar)
        bar.update(total=games, progress=0)
        self._message(f"running {plural(games, 'game')}…")
        self.run_games(opponent, games, seed, workers)

    @work(thread=True, exclusive=True, group="playtest")
    def run_games(self, opponent: ArmyListBase, games: int, seed: int, workers: int) -> None:
        self._report(
            lambda: run_playtest(
                self.army, opponent, games, seed, workers, self._progress, cancelled=self._cancel.is_set,
                log=self.has_table, replay=self.has_table,  # the first game once more, for the map
            ),
            "the simulation failed",
        )

    def _show(self, summary: PlaytestSummary) -> None:
        self.summary = summary
        fmt = self.system.format_of(self.army, self.cat)
        unit = fmt.unit if fmt is not None else "points"
        self._message("cancelled" if summary.cancelled else "done")
        width = max(40, self.size.width - 4)
        names = {c.value: c.label for c in self.system.scenarios(self.cat)}
        self.query_one("#pt-summary", Static).update(summary_text(summary, unit, width, self._sides(), names))
        bars = max(10, min(40, width - 24))
        self.query_one("#pt-histogram", Static).update(histogram_text(summary.margins, unit, bars))
        if self.has_table:
            self.query_one(BattleMapView).show(summary.map)

    def _sides(self) -> tuple[str, str]:
        """Both lists by name and points ("Lions, 996/1000 A.P.")."""
        out = []
        for army in (self.army, self.opponent or self.army):
            try:
                points = self.system.points(army, self.system.catalogue_for(army))
                out.append(f"{army.name}, {points.total:g}/{points.limit} {points.unit}")
            except Exception:  # noqa: BLE001 - a name is enough when points cannot be read
                out.append(army.name)
        return out[0], out[1]
