"""The players: two policies can play each other, and the line player beats the classic one."""

from __future__ import annotations

import numpy as np
import pytest

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.line_ai import LinePolicy
from armybuilder.systems.ragnarok2.engine.policy import Policy


@pytest.mark.parametrize("sample", ["acheron-undead-host", "akkylannie-griffin-crusade", "tir-na-bor-plains-guard"])
def test_line_player_beats_the_classic_player_in_mirror_matches(sample):
    """Issue 11, Deliver 3: at least 60 % of the decided games, each list playing both sides."""
    system = get_system("ragnarok2")
    assert sample in sample_names(system)
    army = load_sample(system, sample)
    cat = system.catalogue_for(army)
    line = classic = 0
    for seed in range(25):
        for line_side in (0, 1):
            policies = (LinePolicy(), Policy()) if line_side == 0 else (Policy(), LinePolicy())
            record = Battle(cat, army, army, np.random.default_rng(500 + seed), policies=policies).play()
            if record.winner == line_side:
                line += 1
            elif record.winner is not None:
                classic += 1
    assert line + classic >= 10
    assert line / (line + classic) >= 0.6


def test_a_line_unit_does_not_charge_alone_into_a_gang_up(tmp_path):
    """Early in the game a unit that would face more enemies than friends at its target's spot,
    for an exchange not worth the risk, closes in with the line instead of charging."""
    from r2engine_data import build_catalogue

    from armybuilder.systems.ragnarok2.army import R2List, Troops, Unit

    cat = build_catalogue(tmp_path)

    def army(people, *units):
        return R2List(catalogue="1.0.0", format="1000-ap", name="t", people=people,
                      units=[Unit(troops=Troops(profile=p, count=n)) for p, n in units])  # fmt: skip

    bt = Battle(cat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), np.random.default_rng(0))
    bt.round = 1
    bt.update_leadership()
    me = bt.sides[0][0]
    for e in bt.sides[1]:
        e.pos = me.pos + 12
    foes = list(bt.sides[1])
    spots = sorted(e.pos for e in foes)
    assert bt.choose_order(me, foes, spots) == "assault"  # the classic player charges
    assert LinePolicy().choose_order(bt, me, foes, spots) == "progress"  # the line player waits
