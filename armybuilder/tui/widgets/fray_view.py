"""The odds panel's fray view: the exact outcome of a whole fray, both directions.

A unit of the list (by default the one under the editor's cursor) against a unit of a bundled
sample opponent, of another list file or of the list itself, with or without a charge. Both
directions are computed: my unit charging (or attacking) theirs, and theirs charging mine; at
120 columns they stand side by side, at 80 one at a time (``ctrl+t`` shows the other).

Why a worker thread: an exact fray of two big units can take seconds on a busy machine, and
the editor must stay responsive meanwhile. Each request gets a generation number; a result
that arrives for an older generation is kept in the cache (on the app's thread) but never
shown. ``ctrl+g`` (or leaving the screen) abandons the computation in progress: the thread
cannot be interrupted inside the calculator, so it finishes the direction it is on, then
stops, and its result is not shown. One fray computes at a time
(``_COMPUTE_LOCK``): an abandoned one does not race the new one for the two cores.

The view speaks to the game only through the protocol (``GameSystem.fray_units`` and
``fray_odds``); the numbers shown are read from the payload the system returns, the same
JSON as ``armybuilder odds ragnarok2 --fray``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Select, Static
from textual.worker import get_current_worker

from armybuilder.core.catalog import Catalogue
from armybuilder.core.errors import InputError
from armybuilder.core.sanitize import visible
from armybuilder.core.system import ArmyListBase, GameSystem, OddsResult

from .. import workspace
from .fray_chart import fray_text, wrapped

SELF = "\x00self"  # the opponent "this list (mirror)"
FILE = "\x00file"  # the opponent "a list file…"
WIDE = 110  # from this width both directions stand side by side

_COMPUTE_LOCK = threading.Lock()
_CACHE: OrderedDict[tuple[Any, ...], OddsResult | str] = OrderedDict()
_CACHE_SIZE = 64
_SAMPLES: dict[tuple[str, str], ArmyListBase] = {}


@dataclass
class FrayChoices:
    """What the player chose, kept per editor session so the view reopens where it was."""

    opponent: str | None = None
    file: str = ""
    theirs: int | None = None
    charge: bool = True
    mine: int | None = None
    shown: int = 0  # the direction shown when only one fits
    cursor: int | None = None  # the editor's cursor unit when the list last changed


_MEMORY: OrderedDict[str, FrayChoices] = OrderedDict()


def remembered(key: str | None) -> FrayChoices:
    """The choices kept for ``key`` (an editor session), new ones for None or a new key."""
    if key is None:
        return FrayChoices()
    if key not in _MEMORY:
        _MEMORY[key] = FrayChoices()
        while len(_MEMORY) > 32:
            _MEMORY.popitem(last=False)
    _MEMORY.move_to_end(key)
    return _MEMORY[key]


def _label(text: str) -> Text:
    """A Select label from list text: escaped, never read as markup."""
    return Text(visible(text))


def _cache_get(key: tuple[Any, ...]) -> OddsResult | str | None:
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
    return found


def _cache_put(key: tuple[Any, ...], value: OddsResult | str) -> None:
    _CACHE[key] = value
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


@dataclass(frozen=True, eq=False)
class Job:
    """One request: my unit against theirs, with or without a charge, both directions."""

    army: ArmyListBase
    mine: int
    other: ArmyListBase
    theirs: int
    charge: bool
    army_key: str
    other_key: str

    def key(self, direction: int) -> tuple[Any, ...]:
        return (self.army_key, self.mine, self.other_key, self.theirs, self.charge, direction)

    def same(self, other: Job | None) -> bool:
        return other is not None and other.key(0) == self.key(0)


def rare_words(pruned: float) -> str:
    """What the exact calculation left out, in words: outcomes too rare to matter."""
    if pruned <= 0:
        return ""
    import math

    return f" (outcomes rarer than one in a million million left out: less than one in {10 ** max(0, math.floor(-math.log10(pruned))):,} in all)"


class FrayView(Vertical):
    """Choices, a status line and the two directions of the fray (see the module's docstring)."""

    DEFAULT_CSS = """
    FrayView { height: 1fr; }
    /* one choice a row: the whole name of a sample fits its box from 80 columns */
    FrayView #fray-form { height: auto; layout: grid; grid-size: 2; grid-columns: auto 1fr; grid-gutter: 0 1; }
    FrayView #fray-form Label, FrayView #fray-file-row Label { padding: 0 0 0 1; color: $text-muted; }
    FrayView #fray-file-row { height: auto; display: none; }
    FrayView.-file #fray-file-row { display: block; }
    FrayView #fray-file-row Label { width: 10; }
    FrayView #fray-file-row Input { width: 1fr; }
    FrayView #fray-status { height: auto; padding: 0 1; color: $text-muted; }
    FrayView #fray-status.-error { color: $warning; }
    FrayView #fray-results { height: 1fr; }
    FrayView #fray-panels { height: auto; }
    FrayView .fray-panel { width: 1fr; height: auto; padding: 0 1; }
    FrayView .fray-panel.-hidden { display: none; }
    """

    def __init__(
        self,
        system: GameSystem,
        cat: Catalogue,
        army: ArmyListBase,
        *,
        memory_key: str | None = None,
        cursor_unit: int | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.system = system
        self.cat = cat
        self.army = army
        self.choices = remembered(memory_key)
        self.other: ArmyListBase | None = None
        self.other_error = ""
        self.generation = 0
        self.running: Job | None = None  # the job being computed for the current generation
        self.results: dict[int, OddsResult | str] = {}  # direction -> what is shown
        self.job: Job | None = None
        if cursor_unit is not None:
            self.choices.mine = cursor_unit  # opened with the cursor on a unit: that one
        self.choices.cursor = cursor_unit

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        mine = self._my_units()
        chosen = self.choices.mine if self.choices.mine in [v for _, v in mine] else (mine[0][1] if mine else Select.NULL)
        opponents = self._opponents()
        values = [v for _, v in opponents]
        opponent = self.choices.opponent if self.choices.opponent in values else values[0]
        self.choices.opponent = opponent
        with Container(id="fray-form"):
            yield Label("My unit")
            yield Select(mine, id="fray-mine", allow_blank=not mine, value=chosen, prompt="no unit can fight", compact=True)
            yield Label("Charge")
            yield Checkbox("the attacker charges", self.choices.charge, id="fray-charge", compact=True)
            yield Label("Opponent")
            yield Select(opponents, id="fray-opponent", allow_blank=False, value=opponent, compact=True)
            yield Label("Their unit")
            yield Select([], id="fray-theirs", allow_blank=True, prompt="choose a unit", compact=True)
        with Horizontal(id="fray-file-row"):
            yield Label("List file")
            yield Input(self.choices.file, placeholder=f"path of a {self.system.name} list, then Enter", id="fray-file", compact=True)
        yield Static("", id="fray-status")
        with VerticalScroll(id="fray-results"):
            with Horizontal(id="fray-panels"):
                yield Static("", id="fray-forward", classes="fray-panel")
                yield Static("", id="fray-backward", classes="fray-panel")

    def on_mount(self) -> None:
        self.set_class(self.choices.opponent == FILE, "-file")
        self._load_opponent(quiet=not self.choices.file)
        self._layout_panels()
        self.recompute()

    def on_resize(self) -> None:
        self._layout_panels()
        self._render_results()
        if self.running is None and self.job is not None:
            self._status_done()  # its hint depends on the width

    @property
    def wide(self) -> bool:
        return self.size.width >= WIDE

    def _layout_panels(self) -> None:
        self.set_class(self.wide, "-wide")
        forward, backward = self.query_one("#fray-forward", Static), self.query_one("#fray-backward", Static)
        forward.set_class(not self.wide and self.choices.shown != 0, "-hidden")
        backward.set_class(not self.wide and self.choices.shown != 1, "-hidden")

    def panel_width(self) -> int:
        """Cells of text one panel holds (its padding and the scroll bar left out)."""
        width = self.size.width or 80
        return max(40, (width // 2 if self.wide else width) - 4)

    # -- choices ------------------------------------------------------------------------

    def _my_units(self) -> list[tuple[Text, int]]:
        try:
            return [(_label(c.label), c.value) for c in self.system.fray_units(self.army, self.cat)]
        except Exception:  # noqa: BLE001 - a half-built list must not break the panel
            return []

    def _opponents(self) -> list[tuple[Text, str]]:
        choices: list[tuple[Text, str]] = []
        try:
            from armybuilder.core.playtest import sample_titles

            choices += [(_label(f"sample: {title}"), name) for name, title in sample_titles(self.system)]
        except Exception:  # noqa: BLE001 - no samples: the list itself and files remain
            pass
        choices += [(Text("this list (mirror)"), SELF), (Text("a list file…"), FILE)]
        return choices

    def _load_opponent(self, quiet: bool = False) -> None:
        """Read the chosen opponent and offer its units (a file is read when Enter is pressed)."""
        value = self.choices.opponent
        self.other, self.other_error = None, ""
        try:
            if value == SELF:
                self.other = self.army
            elif value == FILE:
                self.other = self._read_file(self.choices.file) if self.choices.file.strip() else None
                if self.other is None and not quiet:
                    self.other_error = f"type the path of a {self.system.name} list file, then Enter"
            elif value:
                key = (self.system.id, value)
                if key not in _SAMPLES:  # bundled data: read once a run
                    from armybuilder.core.playtest import load_sample

                    _SAMPLES[key] = load_sample(self.system, value)
                self.other = _SAMPLES[key]
        except (InputError, OSError, ValueError, KeyError, RuntimeError) as exc:  # RuntimeError: ~nobody/
            self.other_error = self._why(exc)
        units: list[tuple[Text, int]] = []
        if self.other is not None:
            try:
                units = [(_label(c.label), c.value) for c in self.system.fray_units(self.other, self.cat)]
            except Exception as exc:  # noqa: BLE001 - a strange list: said, not raised
                self.other_error = f"cannot read the opponent's units: {visible(str(exc))}"
            if not units and not self.other_error:
                self.other_error = "the opponent has no unit that can fight"
        select = self.query_one("#fray-theirs", Select)
        with self.prevent(Select.Changed):
            select.set_options(units)
            values = [v for _, v in units]
            if self.choices.theirs in values:
                select.value = self.choices.theirs
            elif values:
                select.value = values[0]
                self.choices.theirs = values[0]

    def _read_file(self, raw: str) -> ArmyListBase:
        path = workspace.confine(raw.strip()) if workspace.active() else Path(raw.strip()).expanduser()
        if not path.exists():
            raise InputError.at(f"{raw.strip()}: no such file")
        if path.is_dir():
            raise InputError.at(f"{raw.strip()}: a folder, not a list file")
        from armybuilder.core.lists import read_list

        lf = read_list(path)
        if lf.system.id != self.system.id:
            raise InputError.at(f"{raw.strip()}: a {lf.system.name} list, not {self.system.name}")
        return lf.army

    @staticmethod
    def _why(exc: BaseException) -> str:
        if isinstance(exc, KeyError) and exc.args:
            return visible(str(exc.args[0]))
        if isinstance(exc, OSError):
            return visible(f"cannot read the file: {exc.strerror or exc}")
        return visible(str(exc))

    # -- events -------------------------------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = event.value
        if event.select.id == "fray-mine":
            self.choices.mine = value if isinstance(value, int) else None
        elif event.select.id == "fray-theirs":
            self.choices.theirs = value if isinstance(value, int) else None
        elif event.select.id == "fray-opponent":
            if value == self.choices.opponent and self.is_mounted and self.other is not None:
                return  # the Select announcing its first value: nothing changed
            self.choices.opponent = str(value)
            self.choices.theirs = None
            self.set_class(value == FILE, "-file")
            self._load_opponent(quiet=True)
            if value == FILE:
                self.query_one("#fray-file", Input).focus()
        self.recompute()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self.choices.charge = event.value
        self.recompute()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "fray-file":
            return
        event.stop()
        self.choices.file = event.value
        self.choices.theirs = None
        self._load_opponent()
        self.recompute()

    # -- the list changed ------------------------------------------------------------------

    def set_army(self, army: ArmyListBase, cursor_unit: int | None = None) -> None:
        """The list was edited: offer its units again and compute on it."""
        self.army = army
        if cursor_unit is not None and cursor_unit != self.choices.cursor:
            self.choices.mine = cursor_unit
            self.choices.cursor = cursor_unit
        units = self._my_units()
        values = [v for _, v in units]
        select = self.query_one("#fray-mine", Select)
        with self.prevent(Select.Changed):
            select.set_options(units)
            if self.choices.mine in values:
                select.value = self.choices.mine
            elif values:
                select.value = self.choices.mine = values[0]
        if self.choices.opponent == SELF:
            self._load_opponent()
        self.recompute()

    # -- computing -------------------------------------------------------------------------

    def current_job(self) -> Job | None:
        mine = self.query_one("#fray-mine", Select).value
        theirs = self.query_one("#fray-theirs", Select).value
        if self.other is None or not isinstance(mine, int) or not isinstance(theirs, int):
            return None
        return Job(
            self.army, mine, self.other, theirs, self.choices.charge,
            self.army.model_dump_json(), self.other.model_dump_json(),
        )  # fmt: skip

    @property
    def computing(self) -> bool:
        return self.running is not None

    def recompute(self, force: bool = False) -> None:
        """Show the fray for the current choices: from the cache, else in a worker thread."""
        job = self.current_job()
        if job is None:
            self.generation += 1
            self.running = self.job = None
            self.results = {}
            if self.other_error:
                self._status(self.other_error, error=True)
            elif not self._my_units():
                self._status("this list has no unit that can fight yet: add one in the editor", error=True)
            else:
                self._status("choose a unit of each side")
            self._render_results()
            self._bindings_changed()
            return
        if not force and job.same(self.running):
            return  # already being computed
        if not force and job.same(self.job) and not self.running and len(self.results) == 2:
            return  # already shown
        self.generation += 1
        self.job = job
        if force:
            for direction in (0, 1):
                _CACHE.pop(job.key(direction), None)
        self.results = {d: r for d in (0, 1) if (r := _cache_get(job.key(d))) is not None}
        pending = [d for d in self._order() if d not in self.results]
        if not pending:
            self.running = None
            self._status_done()
        else:
            self.running = job
            self._status("computing the exact fray…  (ctrl+g: cancel)")
            self._compute(self.generation, job, pending)
        self._render_results()
        self._bindings_changed()

    def _bindings_changed(self) -> None:
        """The footer offers ctrl+g only while computing."""
        if self.is_attached:
            self.screen.refresh_bindings()

    def _order(self) -> list[int]:
        """The direction on screen first."""
        return [self.choices.shown, 1 - self.choices.shown]

    @work(thread=True, group="fray", exit_on_error=False)
    def _compute(self, generation: int, job: Job, directions: list[int]) -> None:
        """Not ``exclusive``: a superseded worker sees its generation is old and stops before
        its next direction (Textual's cancel would only set the same flag, and would make
        ``wait_for_complete`` raise for a worker that simply lost interest)."""
        worker = get_current_worker()
        for direction in directions:
            with _COMPUTE_LOCK:
                if worker.is_cancelled or generation != self.generation:
                    return
                result = self._one(job, direction)
            try:
                self.app.call_from_thread(self._deliver, generation, job, direction, result)
            except RuntimeError:  # the app is closing
                return

    def _one(self, job: Job, direction: int) -> OddsResult | str:
        """One direction, or the reason it cannot be computed (words, never a traceback)."""
        try:
            if direction == 0:
                return self.system.fray_odds(self.cat, job.army, job.mine, job.other, job.theirs, job.charge)
            return self.system.fray_odds(self.cat, job.other, job.theirs, job.army, job.mine, job.charge)
        except (ValueError, KeyError, IndexError, NotImplementedError) as exc:
            return visible(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must not crash the editor
            return visible(f"the fray could not be computed ({type(exc).__name__}: {exc})")

    def _deliver(self, generation: int, job: Job, direction: int, result: OddsResult | str) -> None:
        """On the app's thread: keep the result, show it if it is still wanted."""
        _cache_put(job.key(direction), result)
        if generation != self.generation or not self.is_attached:
            return  # outdated: the choices or the list changed meanwhile
        self.results[direction] = result
        if len(self.results) == 2:
            self.running = None
            self._status_done()
            self._bindings_changed()
        self._render_results()

    def cancel(self) -> bool:
        """Abandon the computation in progress; False when there was none."""
        if self.running is None:
            return False
        self.generation += 1
        self.running = None
        self._status("cancelled: change a choice, or ctrl+r to compute again", error=True)
        self._render_results()
        self._bindings_changed()
        return True

    def flip(self) -> None:
        """Show the other direction (when only one fits)."""
        self.choices.shown = 1 - self.choices.shown
        self._layout_panels()
        self._render_results()
        if not self.running and self.job is not None:
            self._status_done()

    # -- showing ----------------------------------------------------------------------------

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#fray-status", Static)
        status.update(Text(text, no_wrap=False))
        status.set_class(error, "-error")

    def _status_done(self) -> None:
        refused = [r for r in self.results.values() if isinstance(r, str)]
        if refused:
            self._status("the exact fray cannot answer this pairing (the reason is below)", error=True)
            return
        pruned = max((float(r.payload.get("pruned_mass", 0.0)) for r in self.results.values() if isinstance(r, OddsResult)), default=0.0)
        hint = "" if self.wide else "  ctrl+t: the other direction"
        self._status(f"exact result{rare_words(pruned)}.{hint}")

    def titles(self, job: Job) -> tuple[str, str]:
        mine = self._unit_name(self.army, job.mine)
        theirs = self._unit_name(job.other, job.theirs)
        if job.charge:  # a unit's name may be singular or plural: no verb agrees with both
            return f"Charge: your {mine} against their {theirs}", f"Charge: their {theirs} against your {mine}"
        return f"Your {mine} against their {theirs} (no charge; ties: yours)", f"Their {theirs} against your {mine} (no charge; ties: theirs)"

    def _unit_name(self, army: ArmyListBase, unit: int) -> str:
        try:
            return next((c.label for c in self.system.fray_units(army, self.cat) if c.value == unit), f"unit {unit + 1}")
        except Exception:  # noqa: BLE001
            return f"unit {unit + 1}"

    def _render_results(self) -> None:
        if not self.is_mounted:
            return
        job = self.job
        width = self.panel_width()
        titles = self.titles(job) if job is not None else ("", "")
        for direction, selector in ((0, "#fray-forward"), (1, "#fray-backward")):
            panel = self.query_one(selector, Static)
            result = self.results.get(direction) if job is not None else None
            title = wrapped(visible(titles[direction]), width)
            if job is None:
                panel.update("")
            elif result is None:
                panel.update(Text.assemble((title, "bold"), "\n", ("computing…", "dim")))
            elif isinstance(result, str):
                panel.update(Text.assemble((title, "bold"), "\n", (result, "yellow")))
            else:
                panel.update(fray_text(result.payload, titles[direction], "attacker" if direction == 0 else "defender", width))

    def shown_payload(self, direction: int) -> dict[str, Any] | None:
        """The payload on screen for one direction (tests compare it with the system's)."""
        result = self.results.get(direction)
        return result.payload if isinstance(result, OddsResult) else None
