"""The seed's worked examples of line of sight, replayed on the table (seed: Line of sight,
Charges and Shooting; R2-D10): the azure hunters behind a hedge who see only Shaka Morkhäi,
and the nine crossbowmen whose three Wounds eliminate the two mountaineers a ruin leaves in
sight, the third Wound lost."""

from __future__ import annotations

import numpy as np
import pytest
from r2engine_data import build_catalogue, engine_army
from r2table import ManyWounds, stand, table_with

from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.sight import aims


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("seed-space"))


# A Medium Size hedge (4 cm high: Normal Size scenery, R2-D10) across the table at y = 60.
HEDGE = {"name": "hedge", "kind": "hedge", "width": 40, "depth": 1, "height": 4, "impassable": False, "x": 90, "y": 60}


def hedge_battle(ecat, with_shaka: bool) -> Battle:
    """Azure hunters (Medium, marksmen) at y 45 facing amok slayers (Medium) at y 63, led by
    Shaka Morkhäi (Large) or not, the hedge between them."""
    slayers = ("warrior", 9, "warlord") if with_shaka else ("warrior", 9)
    bt = Battle(ecat, engine_army("griffin", ("fusilier", 10)), engine_army("beasts", slayers), np.random.default_rng(0),
                log=True, table=table_with(ecat, HEDGE, name="worked example"))  # fmt: skip
    hunters, unit = bt.sides[0][0], bt.sides[1][0]
    stand(bt, hunters, 90, 45)
    stand(bt, unit, 90, 63)
    return bt


def test_the_hunters_see_shaka_over_the_hedge_but_not_the_slayers(ecat):
    """"The azure hunters cannot see the amok slayers. But they can see Shaka Morkhäi. The
    azure hunters can then charge the amok slayers unit.\""""
    bt = hedge_battle(ecat, with_shaka=True)
    hunters, slayers = bt.sides[0][0], bt.sides[1][0]
    troops = slayers.groups.index(slayers.troops)
    shaka = next(i for i, g in enumerate(slayers.groups) if g.profile.name == "Shaka Morkhai")
    assert not aims(bt, hunters, 0, slayers, troops)  # no hunter sees a slayer
    assert aims(bt, hunters, 0, slayers, shaka)  # Shaka, Large, stands above the Medium hedge
    assert bt.sees(hunters, slayers)  # one member sees one member
    assert [(o.foe, o.kind) for o in bt.assault_options(hunters)] == [(slayers, "charge")]


def test_without_shaka_the_slayers_can_only_be_engaged(ecat):
    """The same hedge without a Large fighter behind it: no line of sight, so no Charge; an
    Engagement needs only the field of view (R2-D10) and goes round the hedge."""
    bt = hedge_battle(ecat, with_shaka=False)
    hunters, slayers = bt.sides[0][0], bt.sides[1][0]
    assert not bt.sees(hunters, slayers)
    assert [(o.foe, o.kind) for o in bt.assault_options(hunters)] == [(slayers, "engagement")]
    stand(bt, hunters, 90, 45, facing=(0.0, -1.0))
    assert bt.assault_options(hunters) == []  # outside the 180° field of view: no assault at all


def test_the_hunters_can_only_target_shaka(ecat):
    """Example 1 of Shooting: "the azure hunters can only target Shaka Morkhäi"; their volleys
    take Shaka's Wounds and never a slayer."""
    bt = hedge_battle(ecat, with_shaka=True)
    hunters, slayers = bt.sides[0][0], bt.sides[1][0]
    shaka = next(g for g in slayers.groups if g.profile.name == "Shaka Morkhai")
    assert bt.target_group(slayers, hunters, hunters.groups[0]) == slayers.groups.index(shaka)
    bt.dice = ManyWounds(np.random.default_rng(0))
    bt.shoot(hunters)
    assert slayers.troops.count == 9
    assert shaka.count == 0


# A ruin (5 cm high: Normal Size) between nine crossbowmen at y 40 and ten mountaineers at y 70,
# set so that five crossbowmen see two mountaineers past it.
RUIN = {"name": "ruin", "kind": "ruin", "width": 20, "depth": 3, "height": 5, "impassable": True, "x": 85, "y": 65}


def crossbow_battle(ecat, *pieces) -> Battle:
    bt = Battle(ecat, engine_army("griffin", ("fusilier", 9)), engine_army("beasts", ("warrior", 10)), np.random.default_rng(0),
                log=True, table=table_with(ecat, *pieces, name="worked example"))  # fmt: skip
    stand(bt, bt.sides[0][0], 90, 40)
    stand(bt, bt.sides[1][0], 90, 70)
    return bt


def test_five_of_the_nine_crossbowmen_see_two_mountaineers_past_the_ruin(ecat):
    bt = crossbow_battle(ecat, RUIN)
    crossbowmen, mountaineers = bt.sides[0][0], bt.sides[1][0]
    seen = aims(bt, crossbowmen, 0, mountaineers, 0)
    assert len(seen) == 5  # only the marksmen with a line of sight shoot
    assert len({k for a in seen for k in a.seen}) == 2


def test_the_wounds_beyond_the_visible_mountaineers_are_lost(ecat):
    """"It would be enough to eliminate three, but only two are visible: the two visible targets
    are eliminated, the third Wound is lost" — over every volley of the unit, whatever band or
    difficulty (a partly visible target is shot at Aim +1 in a volley of its own)."""
    bt = crossbow_battle(ecat, RUIN)
    crossbowmen, mountaineers = bt.sides[0][0], bt.sides[1][0]
    bt.dice = ManyWounds(np.random.default_rng(0))
    bt.lines.clear()
    bt.shoot(crossbowmen)
    assert mountaineers.count == 8
    assert any("the other Wounds are lost: no other target is visible" in line for line in bt.lines)


def test_on_an_open_table_the_same_volley_takes_more(ecat):
    """The control: without the ruin every crossbowman sees, and three Wounds a volley kill more
    than two (so the cap above is the ruin's doing)."""
    bt = crossbow_battle(ecat)
    crossbowmen, mountaineers = bt.sides[0][0], bt.sides[1][0]
    assert len(aims(bt, crossbowmen, 0, mountaineers, 0)) == 9
    bt.dice = ManyWounds(np.random.default_rng(0))
    bt.shoot(crossbowmen)
    assert mountaineers.count < 8
