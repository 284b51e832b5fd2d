"""Mystics: incantation/divination rolls, mana and faith recovery, rituals, communions, counters."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from r2engine_data import build_catalogue
from r2engine_data import engine_army as army
from r2table import face_off

from armybuilder.systems.ragnarok2.engine.abilities import traits_of
from armybuilder.systems.ragnarok2.engine.battle import RITUAL_EFFECTS, Battle, Dice
from armybuilder.systems.ragnarok2.engine.dice import (
    test_success_probability as success_probability,
)
from armybuilder.systems.ragnarok2.engine.mystics import (
    best_mastery,
    counter_succeeds,
    faith_recovery,
    mana_recovery,
    mystic_test_success,
    parse_range,
    roll_mystic_test,
)


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2mystics"))




@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.integers(2, 16), st.integers(1, 4), st.booleans(), st.booleans())
def test_mystic_roll_exact_against_dice(value, difficulty, dice, ones_fail, fives):
    p = mystic_test_success(value, difficulty, dice, ones_fail, fives)
    assert 0.0 <= p <= 1.0
    if ones_fail and not fives:
        assert p == pytest.approx(success_probability(value, difficulty, best_of=dice))
    assert mystic_test_success(value, difficulty, dice + 1, ones_fail, fives) >= p - 1e-12
    rng = np.random.default_rng(value * 1000 + difficulty * 10 + dice)
    d = Dice(rng)
    n = 3000
    hits = sum(roll_mystic_test(d.d6, value, difficulty, dice, ones_fail, fives) for _ in range(n))
    sd = max((p * (1 - p) / n) ** 0.5, 1e-3)
    assert abs(hits / n - p) < 5 * sd + 0.005


def test_skills_change_the_roll():
    # Spirit of X / Exalted: a natural 1 no longer fails (POW 9 against 10 needs any die).
    assert mystic_test_success(9, 10, 1, ones_fail=False) == 1.0
    assert mystic_test_success(9, 10, 1, ones_fail=True) == pytest.approx(5 / 6)
    # Focus / Illuminated: a 5 rolled again when it is not enough (POW 4 against 10 needs 6).
    assert mystic_test_success(4, 10, 1, reroll_fives=True) == pytest.approx(1 / 6 + 1 / 36)
    assert mystic_test_success(4, 9, 1, reroll_fives=True) == pytest.approx(2 / 6)  # 5 suffices


def test_best_mastery_spends_only_what_helps():
    assert best_mastery(9, 10, 5, target=0.8) == 0  # already 5/6
    assert best_mastery(9, 10, 5) == 1  # 5/6 -> 35/36 reaches 90 %
    assert 1 <= best_mastery(4, 10, 5) <= 5
    assert best_mastery(0, 40, 5) == 0  # hopeless: keep the gems


def test_mana_recovery_by_die_and_cap_and_rout():
    sixes = lambda: 6  # noqa: E731
    twos = lambda: 2  # noqa: E731
    assert mana_recovery(sixes, [4, 2], 0, 0, False) == 6
    assert mana_recovery(sixes, [4, 2], 1, 0, False) == 10  # Recuperation die goes to the POW 4 magician
    assert mana_recovery(sixes, [4, 2], 0, 11, False) == 12  # capped at twice the total POW
    assert mana_recovery(twos, [4], 0, 0, False) == 0
    assert mana_recovery(lambda: 4, [4], 0, 0, True) == 0  # -2 in rout: 4 becomes 2


def test_faith_recovery_by_members_ranks_rout_and_piety():
    assert faith_recovery(10, ["zealot"], None, False) == 12
    assert faith_recovery(10, ["devout", "avatar"], {"devout": 1, "avatar": 4}, False) == 15
    assert faith_recovery(10, ["zealot"], None, True) == 10
    assert faith_recovery(1, ["dean"], None, False, kept=3, loyal=2) == 9


def test_counter_magic_matches_the_spending():
    assert counter_succeeds(12, 12) and not counter_succeeds(12, 11)
    assert parse_range("50 cm") == 50 and parse_range("LOS") == float("inf")


def test_ritual_terror_routs_and_gems_are_spent(ecat):
    cast = 0
    for seed in range(40):
        bt = Battle(
            ecat, army("beasts", ("warrior", 5, "mage"), rituals=["terror"]), army("griffin", ("conscript", 10)),
            np.random.default_rng(seed), log=True, table="open",
        )  # fmt: skip
        bt.update_leadership()
        me, foe = bt.sides[0][0], bt.sides[1][0]
        me.mana = 20
        face_off(bt, me, foe, 20)
        bt.cast_rituals(me)
        assert me.mana < 20 - 15 + 1  # cost paid, win or lose
        if foe.state == "rout":
            cast += 1
            assert any("casts Terror" in line for line in bt.lines)
    p = mystic_test_success(4, 12, 1)
    assert cast > 0 and cast / 40 >= p - 0.1


def test_counter_magic_by_a_reaction_unit(ecat):
    bt = Battle(
        ecat, army("beasts", ("warrior", 5, "mage"), rituals=["terror"]), army("beasts", ("warrior", 5, "mage")),
        np.random.default_rng(0), log=True, table="open",
    )  # fmt: skip
    bt.update_leadership()
    me, foe = bt.sides[0][0], bt.sides[1][0]
    me.mana, foe.mana = 15, 20
    face_off(bt, me, foe, 20)
    foe.order = "reaction"
    bt.cast_rituals(me)
    assert foe.state == "valiant" and foe.mana == 5 and me.mana == 0
    assert any("countered" in line for line in bt.lines)


def test_column_of_light_wounds_fighters_under_the_template(ecat):
    killed = 0
    for seed in range(50):
        bt = Battle(ecat, army("beasts", ("warrior", 5, "mage")), army("griffin", ("conscript", 10)), np.random.default_rng(seed), table="open")
        me, foe = bt.sides[0][0], bt.sides[1][0]
        RITUAL_EFFECTS["column-of-light"].apply(bt, me, foe)
        assert foe.count >= 10 - 4
        killed += 10 - foe.count
    assert killed > 0


def test_arcane_mastery_pays_with_pow(ecat):
    bt = Battle(ecat, army("beasts", ("warrior", 5, "mage"), rituals=["terror"]), army("griffin", ("conscript", 10)), np.random.default_rng(3), table="open", log=True)
    bt.update_leadership()
    me, foe = bt.sides[0][0], bt.sides[1][0]
    mage = me.groups[1]
    mage.traits = traits_of(["arcane-mastery"])
    me.mana = 13
    face_off(bt, me, foe, 10)
    bt.cast_rituals(me)
    assert mage.magician_pow == 2 and any("arcane mastery" in line for line in bt.lines)


def test_communion_divine_grace_rerolls_failed_dice_and_censure(ecat):
    bt = Battle(
        ecat, army("griffin", ("conscript", 10, "priest"), communions=["divine-grace"]), army("beasts", ("warrior", 10)),
        np.random.default_rng(1), log=True, table="open",
    )  # fmt: skip
    bt.update_leadership()
    me = bt.sides[0][0]
    me.faith = 20
    me.order = "assault"
    called = False
    for seed in range(20):
        bt.dice = Dice(np.random.default_rng(seed))
        me.faith = 20
        bt.call_communions(me)
        called = called or me.round_effects.get("grace") == 1
    assert called
    # Censure: an enemy faithful unit under a Reaction order matches the T.F. spent.
    bt2 = Battle(
        ecat, army("griffin", ("conscript", 10, "priest"), communions=["divine-grace"]),
        army("griffin", ("conscript", 10, "priest")), np.random.default_rng(1), log=True, table="open",
    )  # fmt: skip
    bt2.update_leadership()
    me, foe = bt2.sides[0][0], bt2.sides[1][0]
    me.faith, foe.faith = 10, 30
    me.order, foe.order = "assault", "reaction"
    bt2.call_communions(me)
    assert "grace" not in me.round_effects and any("censured" in line for line in bt2.lines)
