"""The table: geometry, the catalogue's table data and decisions, bundled and user layouts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.errors import InputError
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine import geometry as geo
from armybuilder.systems.ragnarok2.engine.battlefield import battlefield_for, scenery_rank
from armybuilder.systems.ragnarok2.layouts import layout_names, layout_spec


@pytest.fixture(scope="module")
def cat():
    return get_system("ragnarok2").catalogue()


# -- geometry ---------------------------------------------------------------------------


def test_distances_are_measured_edge_to_edge():
    a = geo.box_from_front(50.0, 20.0, 0.0, 1.0, 10.0, 5.0)  # front edge at y = 20, 10 wide, 5 deep
    b = geo.box_from_front(50.0, 50.0, 0.0, -1.0, 10.0, 5.0)  # facing it, front edge at y = 50
    assert geo.box_gap(a, b) == pytest.approx(30.0)
    c = geo.box_from_front(70.0, 50.0, 0.0, -1.0, 10.0, 5.0)  # 10 cm to the right as well
    assert geo.box_gap(a, c) == pytest.approx(math.hypot(10.0, 30.0))
    touching = geo.box_from_front(50.0, 20.0, 0.0, -1.0, 10.0, 5.0)
    assert geo.box_gap(a, touching) == 0.0 and not geo.boxes_overlap(a, touching)


@settings(max_examples=200, deadline=None)
@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 360), st.floats(0, 360))
def test_box_gap_is_the_least_distance_between_the_boxes(dx, dy, ta, tb):
    """Against a dense sampling of both outlines."""
    a = geo.Box(0.0, 0.0, math.sin(math.radians(ta)), math.cos(math.radians(ta)), 6.0, 3.0)
    b = geo.Box(dx, dy, math.sin(math.radians(tb)), math.cos(math.radians(tb)), 4.0, 2.0)

    def outline(box):
        pts = box.corners()
        for i in range(4):
            (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % 4]
            for k in range(41):
                yield x0 + (x1 - x0) * k / 40, y0 + (y1 - y0) * k / 40

    if geo.boxes_overlap(a, b):
        assert geo.box_gap(a, b) == 0.0
        return
    sampled = min(math.hypot(x - u, y - v) for x, y in outline(a) for u, v in outline(b))
    assert geo.box_gap(a, b) <= sampled + 1e-9
    assert geo.box_gap(a, b) >= sampled - 0.31  # the sampling's step


def test_a_segment_crosses_a_box_or_misses_it():
    wall = geo.Box(50.0, 50.0, 0.0, 1.0, 10.0, 1.0)  # 20 wide, 2 deep, across the y axis
    assert geo.segment_hits_box(50.0, 30.0, 50.0, 70.0, wall)
    assert not geo.segment_hits_box(65.0, 30.0, 65.0, 70.0, wall)
    assert geo.segment_box_entry(50.0, 30.0, 50.0, 70.0, wall) == pytest.approx(19.0 / 40.0)


def test_a_moving_box_stops_where_it_would_touch_another():
    mover = geo.box_from_front(50.0, 20.0, 0.0, 1.0, 10.0, 5.0)
    rock = geo.Box(50.0, 40.0, 0.0, 1.0, 4.0, 4.0)  # its near edge at y = 36
    assert geo.sweep_time(mover, 0.0, 30.0, rock) == pytest.approx(16.0 / 30.0)
    assert geo.sweep_time(mover, 30.0, 0.0, rock) == 2.0  # a move sideways misses it


def test_the_field_of_view_is_the_half_plane_before_the_front():
    unit = geo.box_from_front(50.0, 20.0, 0.0, 1.0, 10.0, 5.0)
    assert geo.in_front(90.0, 20.5, unit)  # far to the side, but ahead of the front's line
    assert not geo.in_front(50.0, 19.0, unit)


# -- the catalogue's table and layouts ------------------------------------------------------


def test_the_table_decisions_are_in_the_catalogue(cat):
    ids = {d.id for d in cat.data.decisions}
    assert {"R2-D10", "R2-T1", "R2-T2", "R2-T3", "R2-T4", "R2-T5", "R2-T6", "R2-T7"} <= ids
    table = cat.data.tables.battlefield
    assert (table.width, table.depth, table.deployment_depth) == (180.0, 120.0, 20.0)
    assert {b.id for b in table.bases} == {"infantry", "cavalry", "creature", "large-creature"}
    kinds = {k.id for k in table.scenery}
    for lay in cat.data.layouts:  # every bundled piece is of a kind the table knows
        assert all(p.kind in kinds for p in lay.pieces) and all(s.kind in kinds for s in lay.scatter)
    assert [n for n, _ in layout_names(cat)] == ["open", "standard", "dense"]


@pytest.mark.parametrize("height, rank", [(0.5, 0), (2, 1), (3, 2), (5.9, 2), (6, 3), (9, 4), (12, 5), (15, 6)])
def test_scenery_takes_its_size_from_its_height(height, rank):
    """R2-D10 after the FAQ, section IV: under 1 cm ignored, 1-3 Small, 3-6 Normal..."""
    assert scenery_rank(height) == rank


def test_a_standard_table_is_placed_afresh_for_each_game_from_its_seed(cat):
    spec = layout_spec(cat)  # the default
    assert spec["name"] == "standard" and len(spec["scatter"]) == 6
    one = battlefield_for(spec, np.random.default_rng(1))
    again = battlefield_for(spec, np.random.default_rng(1))
    other = battlefield_for(spec, np.random.default_rng(2))
    assert [p.describe() for p in one.pieces] == [p.describe() for p in again.pieces]
    assert [p.describe() for p in one.pieces] != [p.describe() for p in other.pieces]


@pytest.mark.parametrize("seed", range(20))
def test_scattered_pieces_keep_off_the_zones_and_apart(cat, seed):
    spec = layout_spec(cat, "dense")
    field = battlefield_for(spec, np.random.default_rng(seed))
    assert len(field.pieces) >= 7  # a crowded table gets most of its nine pieces
    for p in field.pieces:
        x0, y0, x1, y1 = p.bounds
        assert 0.0 <= x0 and x1 <= 180.0 and y0 >= 35.0 and y1 <= 85.0  # the no man's land
        for q in field.pieces:
            if q is not p:
                assert geo.box_gap(p.box, q.box) >= spec["gap"] - 1e-6


def test_an_open_field_has_no_scenery_and_is_shared(cat):
    spec = layout_spec(cat, "open")
    assert battlefield_for(spec, np.random.default_rng(1)) is battlefield_for(spec, np.random.default_rng(2))
    assert battlefield_for(spec, None).pieces == []


def test_a_players_layout_file(cat, tmp_path):
    path = tmp_path / "crossing.yaml"
    path.write_text(
        "name: River crossing\n"
        "pieces:\n"
        "  - {kind: building, x: 90, y: 60, angle: 30}\n"
        "  - {name: Mill pond, x: 140, y: 62, width: 20, depth: 12, height: 0.5}\n"
        "scatter:\n"
        "  - {kind: rock, count: 2}\n",
        encoding="utf-8",
    )
    spec = layout_spec(cat, str(path))
    assert spec["title"] == "River crossing" and spec["source"] == f"file {path}"
    field = battlefield_for(spec, np.random.default_rng(4))
    assert [p.name for p in field.pieces][:2] == ["Building", "Mill pond"] and len(field.pieces) == 4
    assert field.pieces[1].rank == 0  # a pond under 1 cm high blocks no sight


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("pieces:\n  - {kind: tower, x: 90, y: 60}\n", ":2:12:", "unknown kind of scenery 'tower'"),
        ("pieces:\n  - {kind: ruin, x: 300, y: 60}\n", ":2:5:", "off the 180 × 120 cm table"),
        ("pieces:\n  - {kind: ruin, x: 90, y: 10}\n", ":2:5:", "deployment zone"),
        ("pieces:\n  - {x: 90, y: 60, width: 4}\n", ":2:5:", "needs its width, depth and height"),
        ("pieces:\n  - {kind: ruin, x: 90}\n", ":2:5:", "y"),
        ("width: 20\n", ":1:8:", "must be 60 to 400 cm"),
        ("scatter:\n  - {kind: ruin, count: 99}\n", ":2:", "count"),
        ("- 1\n- 2\n", ":1:1:", "a layout file is a mapping"),
        ("pieces: [\n", ":", ""),
    ],
)
def test_a_bad_layout_file_is_told_where(cat, tmp_path, text, where, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        layout_spec(cat, str(path))
    message = str(caught.value)
    assert f"{path}{where}" in message and words in message


def test_an_unknown_layout_name_lists_the_bundled_ones(cat):
    with pytest.raises(InputError, match="open, standard"):
        layout_spec(cat, "moonscape")


def test_an_older_catalogue_plays_on_the_latest_tables(cat):
    old = get_system("ragnarok2").catalogue("1.1.0")
    assert old.data.tables.battlefield is None
    assert layout_spec(old, "dense") == layout_spec(cat, "dense")
