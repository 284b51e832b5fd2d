"""The credibility checks of any system with a cut copy (armybuilder.core.credibility)."""

from __future__ import annotations

from armybuilder.core.credibility import Credibility, credibility
from armybuilder.core.playtest import UnitStats, load_sample
from armybuilder.core.registry import get_system


def test_cut_copies_remove_about_a_fifth_and_keep_lists_whole():
    rr = get_system("rattle-and-rend")
    throng = load_sample(rr, "dwarven-throng")  # its last group is the Transport, carrying group 4
    cat = rr.catalogue_for(throng)
    cut = rr.cut_copy(throng, cat)
    assert rr.points(cut, cat).total == 9  # the Heavy (3 of 12): the dearest group within a point of a fifth
    assert all(g.transported_by is None for g in cut.groups)  # its passenger starts on the board
    ogres = load_sample(rr, "ogrekin-hunting-party")  # a Champion attached to group 2 (Fighters)
    cut = rr.cut_copy(ogres, cat)
    attached = [g for g in cut.groups if g.attached_to is not None]
    assert attached and all(cut.groups[g.attached_to].type == "fighters" for g in attached)  # renumbered
    me = get_system("morpheus-ragnarok")
    wolves = load_sample(me, "wolves-of-the-fjord")
    cat = me.catalogue_for(wolves)
    full, cut = me.points(wolves, cat).total, me.points(me.cut_copy(wolves, cat), cat).total
    assert 0.15 <= 1 - cut / full <= 0.25 and any(w.jarl for w in me.cut_copy(wolves, cat).warriors)


def test_credibility_plays_the_mirrors_the_cuts_and_the_matrix():
    result = credibility(get_system("morpheus-ragnarok"), games=12, mirror_games=12)
    assert result.names == ["ravens-of-hrafnsey", "wolves-of-the-fjord"] and result.unit == "Glory"
    assert set(result.cut) == set(result.names) and all(0 <= r <= 1 for row in result.matrix.values() for r in row.values())
    lines = result.lines()
    assert lines[0].startswith("Ragnarok (Morpheus Engine) credibility (12 games a pairing")
    assert sum(line.strip().startswith("mirror") for line in lines) == 2


def test_a_lopsided_pairing_is_printed_with_its_units():
    result = Credibility("Game", "points", 10, ["a", "b"], 10)
    result.matrix = {"a": {"a": 0.5, "b": 0.95}, "b": {"a": 0.05, "b": 0.5}}
    result.cut = {"a": 0.8, "b": 0.4}
    result.cut_points = {"a": (12, 9), "b": (12, 9)}
    result.lopsided[("a", "b")] = [UnitStats(0, "1. Heavy", 3, games=10, survived=9, eliminated_points=20)]
    text = "\n".join(result.lines())
    assert "a vs b: 95.0 %, outside 10–90 %" in text and "1. Heavy" in text and "90.0 %" in text
    assert "BELOW 65 %" in text and result.mirrors_ok()
