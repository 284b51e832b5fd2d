"""The playtest screen's battle map: the widget's drawing on a hand-made table, and the Map tab
driven with Textual's Pilot (a playtest of two bundled samples, stepping, a system without one)."""

from __future__ import annotations

from screen_host import Host
from textual.app import App, ComposeResult
from textual.widgets import Input, Static
from tui_other_system import other_system

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.core.shapes import BattleMap, MapFrame, MapPiece, MapUnit
from armybuilder.tui.screens.help import help_text
from armybuilder.tui.screens.playtest import PlaytestScreen
from armybuilder.tui.widgets.battle_map import (
    BattleMapView,
    Grid,
    MapCanvas,
    facing_arrow,
    legend_text,
    render_table,
    track_units,
)


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y1), (x1, y1), (x1, y0), (x0, y0))


def _unit(side: int, name: str, x0: float, y0: float, x1: float, y1: float, fighters: int = 5, **kw) -> MapUnit:
    box = _box(x0, y0, x1, y1)
    return MapUnit(side, name, (box[0], box[1], box[2], box[3]), (0.0, 1.0 if side == 0 else -1.0), fighters, **kw)


# A 60 × 40 cm table: 30 × 10 cells give 2 cm a column and 4 cm a row (a cell twice as tall).
GAME = BattleMap(
    "Test field",
    60.0,
    40.0,
    ((0.0, 8.0), (32.0, 40.0)),
    (
        MapPiece("Tower", _box(28.0, 16.0, 32.0, 24.0), height=10.0, impassable=True),
        MapPiece("Ford", _box(50.0, 16.0, 56.0, 20.0), height=0.5, impassable=False),
    ),
    (
        MapFrame(0, "deployment", (_unit(0, "Spearmen", 10.0, 0.0, 16.0, 4.0), _unit(0, "Spearmen", 40.0, 0.0, 46.0, 4.0), _unit(1, "Wolves", 20.0, 36.0, 26.0, 40.0))),
        MapFrame(1, "activation phase", (_unit(0, "Spearmen", 10.0, 12.0, 16.0, 16.0), _unit(0, "Spearmen", 40.0, 8.0, 46.0, 12.0), _unit(1, "Wolves", 20.0, 16.5, 20.6, 17.0, engaged=True))),
        MapFrame(1, "combat phase", (_unit(0, "Spearmen", 40.0, 8.0, 46.0, 12.0, fighters=2, state="rout"), _unit(1, "Wolves", 20.0, 16.5, 20.6, 17.0))),
    ),
    ("Lions", "Pack"),
)


def _cell(text: str, col: int, row: int) -> str:
    return text.splitlines()[row][col]


def test_the_grid_keeps_the_table_proportions_in_cells_twice_as_tall_as_wide():
    assert Grid.fit(60.0, 40.0, 30, 10) == Grid(30, 10, 2.0, 4.0)
    wide = Grid.fit(180.0, 120.0, 200, 20)  # the height limits: 20 rows of 12 cm... 3 cm a column
    assert (wide.rows, wide.cols) == (20, 60)
    tall = Grid.fit(180.0, 120.0, 50, 40)  # the width limits
    assert tall.cols == 50 and tall.rows == 17
    assert Grid(30, 10, 2.0, 4.0).cell_of(0.5, 0.5) == (0, 9)  # the first list's edge is the bottom row
    assert Grid(30, 10, 2.0, 4.0).cell_of(59.9, 39.9) == (29, 0)


def test_units_scenery_and_zones_land_in_their_cells():
    plain = render_table(GAME, GAME.frames[0], ["1", "2", "a"], 30, 10).plain
    rows = plain.splitlines()
    assert len(rows) == 10 and all(len(r) == 30 for r in rows)
    assert rows[9][5:8] == "111" and rows[9][20:23] == "222"  # x 10–16 and 40–46 cm, y 0–4 cm
    assert rows[0][10:13] == "aaa"  # the opponent's unit at the far edge, y 36–40 cm
    assert _cell(plain, 4, 9) == " " and _cell(plain, 8, 9) == " "  # the first zone around it, blank
    assert _cell(plain, 0, 5) == "·"  # the open table between the zones
    assert {_cell(plain, c, r) for c in (14, 15) for r in (4, 5)} == {"█"}  # the tower: blocks, hides
    assert _cell(plain, 26, 5) == "░"  # the ford: crossable, low
    assert "1" not in "".join(rows[:9]) and plain.count("a") == 3


def test_a_unit_smaller_than_a_cell_still_shows_and_units_move_between_frames():
    before = render_table(GAME, GAME.frames[0], ["1", "2", "a"], 30, 10).plain
    after = render_table(GAME, GAME.frames[1], ["1", "2", "a"], 30, 10).plain
    assert after != before
    assert after.splitlines()[6][5:8] == "111"  # y 12–16 cm: the row of 12–16
    assert _cell(after, 10, 5) == "a"  # 0.6 × 0.5 cm: its middle cell (x 20.3 → 10, y 16.75 → row 5)
    assert after.count("a") == 1


def test_units_keep_their_label_when_one_of_a_name_is_removed():
    roster, per_frame = track_units(GAME)
    assert roster == [(0, "Spearmen"), (0, "Spearmen"), (1, "Wolves")]
    assert per_frame == [[0, 1, 2], [0, 1, 2], [1, 2]]  # the second Spearmen survive: still "2"
    legend = legend_text(GAME, 2, roster, per_frame, 30).plain
    assert "1  Spearmen" in legend and "removed" in legend.split("\n")[1]
    assert "2↑ Spearmen" in legend and legend.split("\n")[2].endswith("2 rout")
    assert "Tower, 10 cm high" in legend and "Ford, 0.5 cm high" in legend
    assert facing_arrow((0.0, 1.0)) == "↑" and facing_arrow((-1.0, 0.0)) == "←" and facing_arrow((0.7, -0.7)) == "↘"


def test_names_with_markup_and_control_characters_are_shown_as_they_are():
    game = BattleMap(
        "[red]t[/]", 60.0, 40.0, ((0.0, 8.0), (32.0, 40.0)), (MapPiece("[b]rock\x1b[2J", _box(0, 20, 4, 24)),),
        (MapFrame(0, "deployment", (_unit(0, "[bold]x[/]", 10.0, 0.0, 16.0, 4.0),), ("[i]said[/i]",)),),
        ("[blink]A[/]", "B"),
    )  # fmt: skip
    roster, per_frame = track_units(game)
    legend = legend_text(game, 0, roster, per_frame, 40).plain
    assert "[bold]x[/]" in legend and "[blink]A[/]" in legend and "[i]said[/i]" in legend
    assert "\x1b" not in legend and "[b]rock\\x1b[2J" in legend


class _MapApp(App):
    def compose(self) -> ComposeResult:
        yield BattleMapView(id="map")


async def test_the_widget_steps_and_holds_its_bounds():
    app = _MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(BattleMapView)
        view.show(GAME)
        view.focus()
        await pilot.pause()
        caption = app.query_one("#map-caption", Static)
        assert str(caption.render()).startswith("Deployment — before round 1 of 1 (frame 1 of 3)")
        await pilot.press("left")
        assert view.frame == 0
        await pilot.press("right")
        await pilot.pause()
        assert str(caption.render()).startswith("Round 1 of 1 — activation phase (frame 2 of 3)")
        await pilot.press("end", "right")
        await pilot.pause()
        assert view.frame == 2 and "combat phase" in str(caption.render())
        await pilot.press("home")
        assert view.frame == 0


def _r2_pair():
    system = get_system("ragnarok2")
    names = sample_names(system)
    army, other = load_sample(system, names[0]), load_sample(system, names[1])
    return system, army, other, names[1]


async def _play(screen: PlaytestScreen, pilot, opponent: str | None = None, games: int = 2) -> None:
    if opponent is not None:
        from textual.widgets import Select

        screen.query_one("#pt-opponent", Select).value = opponent
    screen.query_one("#pt-games", Input).value = str(games)
    screen.query_one("#pt-workers", Input).value = "1"
    await pilot.press("ctrl+r")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _drawn(screen: PlaytestScreen) -> str:
    return screen.query_one(MapCanvas).render().plain


async def test_the_map_tab_shows_the_first_game_of_a_playtest_and_steps_through_it():
    system, army, _, opponent = _r2_pair()
    screen = PlaytestScreen(system, army, system.catalogue_for(army))
    async with Host(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "ctrl+t" in pilot.app.screen.active_bindings
        await _play(screen, pilot, opponent)
        game = screen.summary.map
        assert game is not None and len(game.frames) > 3 and game.frames[-1].round >= 1
        await pilot.press("ctrl+t")
        await pilot.pause()
        view = screen.query_one(BattleMapView)
        assert view.has_focus and screen.has_class("-map")
        assert not screen.query_one("#pt-form").display  # the form folds away for the map
        caption = screen.query_one("#map-caption", Static)
        rounds = game.frames[-1].round
        assert str(caption.render()).startswith(f"Deployment — before round 1 of {rounds}")
        first = _drawn(screen)
        labels = view.labels_of(0)
        assert labels[0] == "1" and first.count("1") >= 1
        moved = next(k for k, f in enumerate(game.frames) if [u.outline for u in f.units] != [u.outline for u in game.frames[0].units])
        for _ in range(moved):
            await pilot.press("right")
        await pilot.pause()
        assert str(caption.render()).startswith(f"Round {game.frames[moved].round} of {rounds} — {game.frames[moved].caption}")
        assert _drawn(screen) != first
        grid = Grid.fit(game.width, game.depth, *screen.query_one(MapCanvas).size)
        for unit, label in zip(game.frames[moved].units, view.labels_of(moved), strict=True):
            if unit.side == 0:  # each of the first list's units drawn at its place (its middle's cell,
                xs, ys = zip(*unit.outline, strict=True)  # unless a bigger unit covers it)
                col, row = grid.cell_of(sum(xs) / 4, sum(ys) / 4)
                assert label in _drawn(screen).splitlines()[row][max(0, col - 3) : col + 4] or unit.engaged
        await pilot.press("end")
        await pilot.pause()
        assert view.frame == len(game.frames) - 1 and "(frame" in str(caption.render())
        await pilot.press("right")
        assert view.frame == len(game.frames) - 1
        await pilot.press("home", "left")
        await pilot.pause()
        assert view.frame == 0 and _drawn(screen) == first
        await pilot.press("ctrl+t")  # back to the results, the form shown again
        await pilot.pause()
        assert screen.query_one("#pt-form").display and not screen.has_class("-map")


async def test_a_unit_named_with_markup_is_shown_literally_on_the_map():
    system, army, _, opponent = _r2_pair()
    army = army.model_copy(deep=True)
    army.units[0].name = "[bold]x[/]"
    screen = PlaytestScreen(system, army, system.catalogue_for(army))
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _play(screen, pilot, opponent, games=1)
        await pilot.press("ctrl+t")
        await pilot.pause()
        legend = str(screen.query_one("#map-legend", Static).render())
        assert "[bold]x[/]" in legend


async def test_a_system_without_a_table_shows_no_map_and_no_key_for_it():
    system, samples = other_system("rattle-and-rend")
    army = load_sample(system, samples[0][0].removesuffix(".yaml"))
    screen = PlaytestScreen(system, army, system.catalogue_for(army))
    assert not system.table_layouts(system.catalogue_for(army))
    async with Host(screen).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _play(screen, pilot, games=2)
        assert screen.summary is not None and screen.summary.map is None
        assert not screen.query(BattleMapView) and not screen.query("#pt-tabs")
        assert "ctrl+t" not in pilot.app.screen.active_bindings
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert screen.query_one("#pt-form").display and "wins" in str(screen.query_one("#pt-summary", Static).render())


def test_the_help_lists_the_map_keys():
    class _Keys:
        BINDINGS: list = []

        @staticmethod
        def get_key_display(binding):
            return binding.key

    text = help_text(_Keys())
    assert "Playtest map" in text and "the next frame" in text and "the first frame: the deployment" in text


def test_a_small_unit_in_contact_with_a_big_one_keeps_a_cell():
    big = _unit(0, "Wall of spears", 10.0, 10.0, 30.0, 18.0)
    hero = _unit(1, "Hero", 19.8, 13.0, 20.2, 13.4, engaged=True)  # inside the big unit's block
    game = BattleMap("t", 60.0, 40.0, (), (), (MapFrame(1, "combat phase", (big, hero)),))
    plain = render_table(game, game.frames[0], ["1", "a"], 30, 10).plain
    assert plain.count("a") == 1 and plain.count("1") >= 10
