"""Defaults of the GameSystem protocol and the shared helpers the bundled systems stand on."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.core.editing import apply_list_edit, need, parse_path
from armybuilder.core.registry import get_system
from armybuilder.core.rng import Uniforms
from armybuilder.core.system import GameSystem, PackagedSystem


def _concrete(base: type) -> type:
    """A subclass of ``base`` whose abstract methods exist (and are never called here)."""
    stubs = {name: (lambda self, *a, **k: None) for name in getattr(base, "__abstractmethods__", ())}
    return type(f"Bare{base.__name__}", (base,), {"id": "bare", "name": "Bare", **stubs})


def test_a_system_without_unit_odds_says_so():
    system = _concrete(GameSystem)()
    assert not system.has_unit_odds()
    assert system.odds_units(None, None) == []
    with pytest.raises(NotImplementedError):
        system.unit_odds_params(None, None, 0, None, 0)


def test_a_system_without_an_exact_fray_says_so():
    """The odds screen's Fray tab asks has_fray_odds(); a system that wrote no fray_odds
    (the toy system, Morpheus, Rattle and Rend) answers no, and its defaults offer nothing."""
    system = _concrete(GameSystem)()
    assert not system.has_fray_odds()
    assert system.fray_units(None, None) == []
    with pytest.raises(NotImplementedError):
        system.fray_odds(None, None, 0, None, 0, True)
    assert get_system("ragnarok2").has_fray_odds()
    assert not get_system("morpheus-ragnarok").has_fray_odds() and not get_system("rattle-and-rend").has_fray_odds()


def test_a_packaged_system_without_engine_modules_has_no_engine():
    system = _concrete(PackagedSystem)()
    assert not system.has_unit_odds()
    assert not system.engine_ready()
    assert tuple(system.odds_parameters()) == ()
    with pytest.raises(NotImplementedError):
        system.play_game(None, None, None, np.random.default_rng(0))


@pytest.mark.parametrize("system_id", ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"])  # the bundled ones: all have odds
def test_bundled_systems_offer_unit_odds_and_a_default_list(system_id):
    system = get_system(system_id)
    cat = system.catalogue()
    assert system.has_unit_odds()
    army = system.new_list(cat, name="Named")
    assert army.name == "Named" and army.catalogue == cat.version
    assert army.format == system.default_format(cat).id
    assert [f.id for f in system.formats(cat)] == [f.id for f in cat.data.formats]


@given(st.lists(st.tuples(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), st.none() | st.integers(0, 999)), max_size=4))
def test_parse_path_reads_back_what_was_written(parts):
    path = ".".join(name if index is None else f"{name}[{index}]" for name, index in parts)
    assert parse_path(path) == parts


def test_need_and_list_edits_refuse_unusable_arguments():
    with pytest.raises(ValueError, match="'name' is needed"):
        need({"name": ""}, "name")
    system = get_system("rattle-and-rend")
    cat = system.catalogue()
    army = system.new_list(cat)
    with pytest.raises(ValueError, match="no format 'nope'"):
        apply_list_edit(army.model_copy(deep=True), cat, "set-format", {"format": "nope"})
    renamed = army.model_copy(deep=True)
    assert apply_list_edit(renamed, cat, "rename-list", {"name": "Bold"}) and renamed.name == "Bold"
    assert not apply_list_edit(renamed, cat, "add-group", {})


def test_uniforms_follow_the_generator_block_by_block():
    expected = np.random.default_rng(7).random(12).tolist()
    dice = Uniforms(np.random.default_rng(7), block=4)  # two refills for ten draws
    assert [dice.u() for _ in range(10)] == expected[:10]
    assert dice.chance(expected[10] + 1e-12) and not dice.chance(expected[11])
    assert Uniforms(np.random.default_rng(7)).pick(["a", "b", "c"]) == ["a", "b", "c"][int(expected[0] * 3)]
