"""The engine protocol every battle engine follows (armybuilder.core.engine, core.rng) and the
playtest's figures that rest on it: per-scenario results and the options a side used."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.core.engine import (
    cdf_of,
    expectation,
    is_distribution,
    merged,
    sample,
    uniform_die,
)
from armybuilder.core.playtest import summarise
from armybuilder.core.rng import Uniforms
from armybuilder.core.shapes import GameRecord, UnitRecord


def test_a_chance_step_is_sampled_by_its_cdf_in_order():
    step = [(0.25, "fail"), (0.5, "success"), (0.25, "critical")]
    assert is_distribution(step) and not is_distribution([(0.5, 1), (0.6, 2)])
    assert [sample(step, u) for u in (0.0, 0.2499, 0.25, 0.7499, 0.75, 0.9999999)] == [
        "fail", "fail", "success", "success", "critical", "critical",
    ]  # fmt: skip
    assert cdf_of(step) == (0.25, 0.75, 1.0)
    assert expectation(step, {"fail": 0, "success": 1, "critical": 2}.__getitem__) == 1.0
    assert merged([(0.5, 1), (0.25, 2), (0.25, 1)]) == [(0.75, 1), (0.25, 2)]
    assert uniform_die(6)[0] == (1 / 6, 1) and is_distribution(uniform_die(20))


@given(st.floats(0.0, 1.0, exclude_max=True))
def test_the_uniforms_sample_a_step_as_the_function_does(u):
    step = uniform_die(20)

    class One(Uniforms):
        def u(self) -> float:  # one uniform, scripted
            return u

    face = One(np.random.default_rng(0)).sample(step)
    assert face == sample(step, u) and abs(face - (u * 20 + 1)) <= 1 + 1e-9  # the face whose slice holds u


def test_uniforms_dice_and_draws_read_the_one_buffer_in_order():
    expected = np.random.default_rng(3).random(8).tolist()
    dice = Uniforms(np.random.default_rng(3), block=3)
    assert dice.die(20) == int(expected[0] * 20) + 1
    assert dice.below(6) == int(expected[1] * 6)
    assert dice.from_cdf((0.2, 0.7, 1.0)) == sum(expected[2] >= c for c in (0.2, 0.7))
    assert dice.binomial(3, 0.5) == sum(x < 0.5 for x in expected[3:6])
    assert dice.u() == expected[6]


def test_playtest_counts_each_scenario_and_the_options_used():
    def game(winner, scenario, used=({}, {})):
        return GameRecord(winner, 4, (1.0, 0.0), [UnitRecord(0, "A", 2, True, 1.0)], scenario=scenario, used=used)

    s = summarise(
        [
            game(0, "duel", ({"banishment": 2}, {})),
            game(1, "duel"),
            game(None, "conquest", ({"banishment": 1}, {"vengeance": 1})),
            game(0, "conquest"),
        ],
        seed=1,
    )
    assert list(s.scenarios) == ["duel", "conquest"]
    assert (s.scenarios["duel"].wins, s.scenarios["duel"].losses, s.scenarios["conquest"].draws) == (1, 1, 1)
    assert s.scenarios["conquest"].win_rate == pytest.approx(0.75)
    assert s.used == ({"banishment": 2}, {"vengeance": 1})  # games in which each was used
    payload = s.as_json()
    assert payload["scenarios"]["duel"]["win_rate"] == 0.5 and payload["options_used"]["list"] == {"banishment": 2}


def test_the_collector_is_paused_for_a_game_and_never_left_off():
    import gc

    from armybuilder.core.engine import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # a game inside a game (or in another thread): still off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    try:
        with collector_paused():
            raise ValueError("a game that fails")
    except ValueError:
        pass
    assert gc.isenabled()
    gc.disable()  # paused by someone else: left as it was
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_list_keys_are_worked_out_once_while_held() -> None:
    """Inside lists_held a held list's key is the one of the run's start (the run promised not
    to change the list); another list, or any list outside, is dumped afresh each time."""
    from armybuilder.core.engine import list_key, lists_held

    class Dumped:
        def __init__(self, text: str) -> None:
            self.text, self.dumps = text, 0

        def model_dump_json(self) -> str:
            self.dumps += 1
            return self.text

    held, other = Dumped("held"), Dumped("other")
    with lists_held(held):
        assert [list_key(held) for _ in range(3)] == ["held"] * 3
        assert held.dumps == 1
        assert list_key(other) == "other" and list_key(other) == "other"
        assert other.dumps == 2
    held.text = "edited"
    assert list_key(held) == "edited" and held.dumps == 2
