"""The odds panel: exact odds of one combat, while building a list.

Generic over game systems.  Every system with an odds calculator exposes
``odds_parameters()`` and ``odds(cat, params)``; the panel shows a form built from
those parameters.  A system that can also derive the parameters from two units
(``odds_units(army, cat)`` and ``unit_odds_params(cat, army, i, other, j)`` of the
protocol, see ``GameSystem.has_unit_odds``) gets the unit-against-unit view: one of
my units against a unit of a chosen opponent (a bundled sample or the list itself),
both directions, each with its "at least k" chart.

The payload convention read here is the one of ``armybuilder odds --json``: for
each kind of result (``attacks``, ``wounds``...) a ``pmf`` list and a ``mean``;
anything else in the payload is ignored.

A system with an exact fray (``GameSystem.has_fray_odds``) also gets the
**Fray** tab (:class:`~armybuilder.tui.widgets.fray_view.FrayView`): the exact outcome of a
whole fray between my unit and theirs, both directions; other systems' Fray tab says it does
not apply.  Opened from the editor, the screen starts on the unit under the cursor and follows
the list: when the session's list changes, both views compute again on the new list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    Select,
    Static,
    TabbedContent,
    TabPane,
)

from armybuilder.core.catalog import Catalogue
from armybuilder.core.paths import ListPath
from armybuilder.core.sanitize import visible
from armybuilder.core.system import ArmyListBase, GameSystem, OddsResult, Param

from ..widgets.fray_view import FrayView

SELF = "\x00self"  # the opponent choice "this list"
BAR = 30


def at_least_chart(title: str, pmf: list[float], mean: float | None = None, width: int = BAR) -> Text:
    """Horizontal bars of P(X >= k) for k = 1.. while it is at least 0.05 %."""
    text = Text()
    text.append(title, style="bold")
    if mean is not None:
        text.append(f"   mean {mean:.2f}")
    text.append("\n")
    tail = 1.0
    for k, p in enumerate(pmf):
        if k:
            if tail < 0.0005:
                break
            filled = round(tail * width)
            text.append(f"≥{k:<3}", style="dim")
            text.append("█" * filled, style="green")
            text.append("·" * (width - filled), style="dim")
            text.append(f" {tail:6.1%}\n")
        tail -= p
    if len(pmf) <= 1:
        text.append("no success possible\n", style="dim")
    return text


def outcome_chart(title: str, outcomes: list[tuple[str, float]], width: int = BAR) -> Text:
    """Bars of the probability of each named outcome (a Fury check: fail, success, critical)."""
    text = Text()
    text.append(title + "\n", style="bold")
    room = max(len(name) for name, _ in outcomes)
    for name, p in outcomes:
        filled = round(p * width)
        text.append(f"{name:<{room}} ", style="dim")
        text.append("█" * filled, style="green")
        text.append("·" * (width - filled), style="dim")
        text.append(f" {p:6.1%}\n")
    return text


def _outcomes(value: dict[str, Any]) -> list[tuple[str, float]] | None:
    """The named outcomes of a distribution, when its payload names each one (``{"miss": p,
    "defy": q, ..., "pmf": [p, q, ...]}``): their names in words, their probabilities."""
    pmf = value["pmf"]
    named = [(k, v) for k, v in value.items() if k not in ("pmf", "mean") and isinstance(v, float)]
    if len(named) != len(pmf) or any(abs(v - p) > 1e-9 for (_, v), p in zip(named, pmf, strict=True)):
        return None
    return [(k.replace("_", " "), v) for k, v in named]


def render_result(result: OddsResult, heading: str, width: int = BAR) -> Text:
    """Charts of every distribution of an odds payload: named outcomes each with its bar, a
    count ("attacks", "wounds") as bars of "at least k" with its mean."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(heading + "\n", style="bold underline")
    for name, value in result.payload.items():
        if isinstance(value, dict) and isinstance(value.get("pmf"), list):
            label = name.replace("_", " ").capitalize()
            if value.get("column"):
                label += f" (column {value['column']}" + (f", {value['result']}" if value.get("result") else "") + ")"
            outcomes = _outcomes(value)
            if outcomes is not None:
                out.append_text(outcome_chart(label, outcomes, width))
            else:
                out.append_text(at_least_chart(label, value["pmf"], value.get("mean"), width))
            out.append("\n")
    return out


class _Deferred(Vertical):
    """A container whose children its owner composes (the One roll tab, built when first shown)."""

    DEFAULT_CSS = "_Deferred { height: 1fr; }"

    def __init__(self, compose: Callable[[], ComposeResult], id: str | None = None) -> None:
        super().__init__(id=id)
        self._build = compose

    def compose(self) -> ComposeResult:
        yield from self._build()


class OddsScreen(Screen[None]):
    """Exact combat odds: unit against unit (both directions) or a free form."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+g", "cancel", "Cancel", tooltip="abandon the fray being computed"),
        Binding("ctrl+r", "compute", "Compute"),
        Binding("ctrl+t", "flip", "Other way", tooltip="the fray's other direction, when only one fits"),
        Binding("ctrl+f", "show_tab('tab-fray')", "Fray", tooltip="the Fray tab: the exact outcome of a whole fray"),
        Binding("ctrl+o", "show_tab('tab-roll')", "One roll", tooltip="the One roll tab: one attack's rolls, or a free form"),
    ]
    DEFAULT_CSS = """
    OddsScreen { layout: vertical; }
    OddsScreen #odds-title { height: 1; padding: 0 1; }
    OddsScreen #fray-none { padding: 1 1; }
    OddsScreen SelectCurrent #label { text-wrap: nowrap; text-overflow: ellipsis; }
    OddsScreen #odds-tabs { height: 1fr; }
    OddsScreen #odds-tabs ContentSwitcher { height: 1fr; }
    OddsScreen #odds-tabs TabPane { height: 1fr; padding: 0; }
    OddsScreen #tab-roll { layout: vertical; }
    OddsScreen #odds-top { height: auto; }
    OddsScreen .odds-row { height: auto; }
    OddsScreen .odds-row Label { width: 12; padding: 0 1 0 1; }
    OddsScreen .odds-row Select { width: 1fr; }
    OddsScreen #odds-form { height: auto; layout: grid; grid-size: 4; grid-columns: auto 1fr auto 1fr; grid-gutter: 0 1; margin-top: 1; }
    OddsScreen.-wide #odds-form { grid-size: 6; grid-columns: auto 1fr auto 1fr auto 1fr; }
    OddsScreen #odds-form Label { padding: 0 0 0 1; color: $text-muted; }
    OddsScreen #odds-form Input { width: 1fr; }
    /* a choice takes the rest of its row: the names of its options are read whole */
    OddsScreen #odds-form Select { column-span: 3; }
    OddsScreen.-wide #odds-form Select { column-span: 5; }
    OddsScreen #odds-compute { margin: 0 1; }
    OddsScreen #odds-results { height: 1fr; }
    OddsScreen #odds-panels { height: auto; layout: vertical; }
    OddsScreen.-wide #odds-panels { layout: horizontal; }
    OddsScreen .odds-panel { width: 1fr; height: auto; padding: 0 1; }
    OddsScreen #odds-message { height: auto; color: $warning; }
    """

    def __init__(self, system: GameSystem, army: ArmyListBase, catalogue: Catalogue, session: Any = None) -> None:
        """``session``: the editor's (``army``, ``selected`` cursor path, ``session_id``), so the
        screen starts on the unit under the cursor and follows the list as it is edited."""
        super().__init__()
        self.system = system
        self.session = session
        self.army = session.army if session is not None else army
        self.cat = catalogue
        self.params = list(system.odds_parameters())
        self.unit_mode = system.has_unit_odds()
        self.fray_mode = system.has_fray_odds()
        self.opponents: dict[str, ArmyListBase] = {}
        self._units_shown: tuple[Any, ...] | None = None  # the one-roll choice on screen

    def cursor_unit(self) -> int | None:
        """The index of the unit under the editor's cursor (the first indexed step of its path:
        ``units[3].members[0]`` is unit 3), None when the cursor is on no unit."""
        selected = getattr(self.session, "selected", "") if self.session is not None else ""
        try:
            path = ListPath.parse(selected or "")
        except ValueError:
            return None
        return next((step.index for step in path.steps if step.index is not None), None)

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="odds-title")
        with TabbedContent(id="odds-tabs", initial="tab-fray" if self.fray_mode else "tab-roll"):
            with TabPane("Fray", id="tab-fray"):
                if self.fray_mode:
                    memory = getattr(self.session, "session_id", None)
                    yield FrayView(self.system, self.cat, self.army, memory_key=memory, cursor_unit=self.cursor_unit(), id="fray")
                else:
                    yield Static(
                        Text(f"{self.system.name} has no exact fray. "
                             "The One roll tab gives this game's odds."),
                        id="fray-none",
                    )  # fmt: skip
            with TabPane("One roll", id="tab-roll"):
                if not self.fray_mode:
                    yield _Deferred(self._compose_roll, id="roll")
                # else composed when first shown: the screen opens on the Fray tab at half the cost
        yield Footer()

    def _title(self) -> Text:
        return Text(visible(f"Odds — {self.system.name}: {self.army.name}"), style="bold", no_wrap=True, overflow="ellipsis")

    @property
    def roll_ready(self) -> bool:
        return bool(self.query("#roll"))

    async def _show_roll(self) -> None:
        """Compose the One roll tab the first time it is shown."""
        if self.roll_ready:
            return
        await self.query_one("#tab-roll", TabPane).mount(_Deferred(self._compose_roll, id="roll"))
        self._roll_mounted()

    def _roll_mounted(self) -> None:
        if not self.params:
            self._message(f"{self.system.name} has no odds calculator yet.")
        elif self.unit_mode:
            self._refresh_their_units()

    def _compose_roll(self) -> ComposeResult:
        """The one-roll view: one unit's attacks and Wound rolls against another, or a free form."""
        with Vertical(id="odds-top"):
            yield Static("", id="odds-message")
            if self.unit_mode and self.params:
                mine = self._my_units()
                cursor = self.cursor_unit()
                chosen = cursor if cursor in [v for _, v in mine] else Select.NULL
                with Horizontal(classes="odds-row"):
                    yield Label("My unit")
                    yield Select(mine, id="odds-mine", allow_blank=True, prompt="choose a unit", value=chosen, compact=True)
                with Horizontal(classes="odds-row"):
                    yield Label("Opponent")
                    yield Select(self._opponent_choices(), id="odds-opponent", allow_blank=False, value=SELF, compact=True)
                with Horizontal(classes="odds-row"):
                    yield Label("Their unit")
                    yield Select([], id="odds-theirs", allow_blank=True, prompt="choose a unit", compact=True)
            if self.params:
                with Container(id="odds-form"):
                    # the choices first, each on a row of its own, then the numbers and yes/no boxes
                    for p in sorted(self.params, key=lambda p: p.kind != "choice"):
                        yield Label(Text(p.label), id=f"odds-l-{p.name}")  # stays when the box is filled
                        yield self._field(p)
                yield Button("Compute (ctrl+r)", id="odds-compute", variant="primary", compact=True)
        with VerticalScroll(id="odds-results"):
            with Horizontal(id="odds-panels"):
                yield Static("", id="odds-forward", classes="odds-panel")
                yield Static("", id="odds-backward", classes="odds-panel")

    def _field(self, p: Param):
        """A parameter's box as its kind asks: a choice among names, yes or no, a number."""
        wid, tip = f"odds-p-{p.name}", p.help or p.label
        if p.kind == "choice":
            options = [(Text(c.label), c.value) for c in p.choices]
            known = p.default in [c.value for c in p.choices]
            return Select(options, id=wid, prompt="any", allow_blank=not known, value=p.default if known else Select.NULL, tooltip=tip, compact=True)
        if p.kind == "bool":
            return Checkbox("yes", bool(p.default), id=wid, tooltip=tip, compact=True)
        default = "" if p.default is None else str(p.default)
        return Input(default, placeholder="a number", id=wid, tooltip=tip, compact=True, type="integer" if p.kind == "int" else "number")

    def on_resize(self, event) -> None:
        self.set_class(event.size.width >= 100, "-wide")
        self.refresh_bindings()

    def on_mount(self) -> None:
        self.set_class(self.size.width >= 100, "-wide")
        if self.session is not None:
            self.set_interval(0.5, self.follow_list)
        if self.roll_ready:
            self._roll_mounted()

    def on_screen_resume(self) -> None:
        self.follow_list()

    def follow_list(self) -> None:
        """Compute again when the editor's list is no longer the one shown (it was edited)."""
        if self.session is None or self.session.army is self.army:
            return
        self.army = self.session.army
        self.query_one("#odds-title", Static).update(self._title())  # a renamed list
        if self.fray_mode:
            self.query_one(FrayView).set_army(self.army, self.cursor_unit())
        if self.unit_mode and self.params and self.roll_ready:
            select = self.query_one("#odds-mine", Select)
            kept = select.value
            units = self._my_units()
            with self.prevent(Select.Changed):
                select.set_options(units)
                if kept in [v for _, v in units]:
                    select.value = kept
            if self.query_one("#odds-opponent", Select).value == SELF:
                self._refresh_their_units()
            self.compute_units(force=True)

    def _tab(self) -> str:
        return str(self.query_one("#odds-tabs", TabbedContent).active)

    # -- choices -----------------------------------------------------------------------

    def _my_units(self) -> list[tuple[Text, int]]:
        try:
            return [(Text(visible(c.label)), c.value) for c in self.system.odds_units(self.army, self.cat)]
        except Exception:  # noqa: BLE001 - a half-built list must not break the panel
            return []

    def _opponent_choices(self) -> list[tuple[Text, str]]:
        choices = [(Text("this list (mirror)"), SELF)]
        try:
            from armybuilder.core.playtest import sample_titles

            choices += [(Text(f"sample: {title}"), name) for name, title in sample_titles(self.system)]
        except Exception:  # noqa: BLE001
            pass
        return choices

    def opponent(self) -> ArmyListBase:
        value = self.query_one("#odds-opponent", Select).value
        if value == SELF or value is Select.NULL:
            return self.army
        name = str(value)
        if name not in self.opponents:
            from armybuilder.core.playtest import load_sample

            self.opponents[name] = load_sample(self.system, name)
        return self.opponents[name]

    def _refresh_their_units(self) -> None:
        select = self.query_one("#odds-theirs", Select)
        try:
            other = self.opponent()
            cat = self.system.catalogue_for(other) if other is not self.army else self.cat
            units = [(Text(visible(c.label)), c.value) for c in self.system.odds_units(other, cat)]
        except Exception as exc:  # noqa: BLE001
            self._message(f"cannot read the opponent: {visible(str(exc))}")
            units = []
        select.set_options(units)
        if units:
            select.value = units[0][1]

    # -- events ------------------------------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "odds-opponent":
            self._refresh_their_units()
        if event.select.id in ("odds-mine", "odds-theirs", "odds-opponent"):
            self.compute_units()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "odds-compute":
            self.action_compute()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_compute()

    def action_close(self) -> None:
        """Escape: back to the editor (a fray being computed is abandoned with the screen)."""
        self.app.pop_screen()

    def action_cancel(self) -> None:
        if self.fray_mode:
            self.query_one(FrayView).cancel()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ctrl+t (the fray's other direction) is offered on the Fray tab when only one direction
        fits, ctrl+g (cancel) only while a fray is being computed, in the place of ctrl+r (compute)
        on the Fray tab: the footer keeps room for Quit on an 80-column terminal."""
        if action == "compute":
            return not (self.fray_mode and self.is_mounted and self._tab() == "tab-fray" and self.query_one(FrayView).computing)
        if action == "flip":
            return self.fray_mode and self.is_mounted and self._tab() == "tab-fray" and not self.query_one(FrayView).wide
        if action == "cancel":
            return self.fray_mode and self.is_mounted and self.query_one(FrayView).computing
        return True

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()
        if event.pane is not None and event.pane.id == "tab-roll":
            await self._show_roll()

    def action_show_tab(self, tab: str) -> None:
        """ctrl+f / ctrl+o: the Fray or the One roll tab, from wherever the focus is."""
        self.query_one("#odds-tabs", TabbedContent).active = tab

    def action_flip(self) -> None:
        if self.fray_mode and self._tab() == "tab-fray":
            self.query_one(FrayView).flip()

    # -- computing ---------------------------------------------------------------------

    def _message(self, text: str) -> None:
        self.query_one("#odds-message", Static).update(Text(text))

    def _form_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for p in self.params:
            widget = self.query_one(f"#odds-p-{p.name}")
            if isinstance(widget, Select):
                if not widget.is_blank():
                    values[p.name] = widget.value
                continue
            if isinstance(widget, Checkbox):
                values[p.name] = widget.value
                continue
            raw = widget.value.strip() if isinstance(widget, Input) else ""
            if raw == "" and p.default is not None:
                values[p.name] = p.default
                continue
            if p.kind == "int":
                try:
                    values[p.name] = int(raw)
                except ValueError:
                    raise ValueError(f"{p.label}: a whole number is needed") from None
            elif p.kind == "float":
                try:
                    values[p.name] = float(raw)
                except ValueError:
                    raise ValueError(f"{p.label}: a number is needed") from None
            else:
                values[p.name] = raw
        return values

    def _fill_form(self, params: dict[str, Any]) -> None:
        for p in self.params:
            if p.name not in params:
                continue
            widget = self.query_one(f"#odds-p-{p.name}")
            value = params[p.name]
            if isinstance(widget, Select):
                if value in [c.value for c in p.choices]:
                    widget.value = value
                elif value is None and widget._allow_blank:
                    widget.clear()
            elif isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Input):
                widget.value = "" if value is None else str(value)

    def action_compute(self) -> None:
        """ctrl+r: the fray again in the Fray tab; the free form in the One roll tab (after a
        unit pick, the form holds my unit's attack)."""
        if self.fray_mode and self._tab() == "tab-fray":
            self.query_one(FrayView).recompute(force=True)
            return
        if not self.params or not self.roll_ready:
            return
        try:
            result = self.system.odds(self.cat, self._form_values())
        except (ValueError, NotImplementedError) as exc:
            self._message(str(exc))
            return
        self._message("")
        self.query_one("#odds-forward", Static).update(render_result(result, "Attack", self._bar()))
        self.query_one("#odds-backward", Static).update("")

    def compute_units(self, force: bool = False) -> None:
        """Both directions of my unit against theirs, exact (once per choice: the Selects
        announce their first values one by one)."""
        mine = self.query_one("#odds-mine", Select).value
        theirs = self.query_one("#odds-theirs", Select).value
        if not isinstance(mine, int) or not isinstance(theirs, int):
            return  # nothing chosen yet
        chosen = (mine, self.query_one("#odds-opponent", Select).value, theirs)
        if chosen == self._units_shown and not force:
            return
        self._units_shown = chosen
        try:
            other = self.opponent()
            forward = self.system.unit_odds_params(self.cat, self.army, mine, other, theirs)
            backward = self.system.unit_odds_params(self.cat, other, theirs, self.army, mine)
            out = self.system.odds(self.cat, forward)
            back = self.system.odds(self.cat, backward)
        except (ValueError, KeyError, IndexError, NotImplementedError) as exc:
            self._message(f"cannot compute these odds: {visible(str(exc))}")
            return
        self._message("")
        self._fill_form(forward)
        self.query_one("#odds-forward", Static).update(render_result(out, "My unit attacks", self._bar()))
        self.query_one("#odds-backward", Static).update(render_result(back, "Their unit attacks", self._bar()))

    def _bar(self) -> int:
        """Bar width so that "≥k  bars 100.0%" fits one results panel without wrapping."""
        panel = self.size.width // 2 - 4 if self.size.width >= 100 else self.size.width - 4
        return max(8, min(BAR, panel - 12))
