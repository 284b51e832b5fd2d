"""The players on the table: two policies play each other; the field player beats the line player
and fights as a player does (lines that charge together, cavalry that charges what it reaches,
marksmen that find a lane); the line player keeps its habits, pinned by a recorded baseline."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from r2table import aside, face_off, stand

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.field_ai import FieldPolicy, fray_value
from armybuilder.systems.ragnarok2.engine.line_ai import LinePolicy

BASELINE = Path(__file__).with_name("line_player_baseline.json")


# 40 games a sample (20 seeds, each list on both sides), about 5 s of CPU each: a player's
# strength only shows over many games.


@pytest.mark.games
@pytest.mark.parametrize(
    "sample",
    ["acheron-undead-host", "akkylannie-griffin-crusade", "alahan-lions", "tir-na-bor-plains-guard"],
)
def test_the_field_player_beats_the_line_player_in_mirror_matches(sample):
    """Issue 33, Deliver 5: at least 60 % of the decided games, each list playing both sides."""
    system = get_system("ragnarok2")
    assert sample in sample_names(system)
    army = load_sample(system, sample)
    cat = system.catalogue_for(army)
    field = line = 0
    for seed in range(20):
        for field_side in (0, 1):
            policies = (FieldPolicy(), LinePolicy()) if field_side == 0 else (LinePolicy(), FieldPolicy())
            record = Battle(cat, army, army, np.random.default_rng(700 + seed), policies=policies).play()
            if record.winner == field_side:
                field += 1
            elif record.winner is not None:
                line += 1
    assert field + line >= 10
    assert field / (field + line) >= 0.6, (field, line)


def _army(people, *units):
    from armybuilder.systems.ragnarok2.army import R2List, Troops, Unit

    return R2List(catalogue="1.0.0", format="1000-ap", name="t", people=people,
                  units=[Unit(troops=Troops(profile=p, count=n)) for p, n in units])  # fmt: skip


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    from r2engine_data import build_catalogue

    return build_catalogue(tmp_path_factory.mktemp("ai"))


def battle(ecat, first, second, policy=None) -> Battle:
    bt = Battle(ecat, first, second, np.random.default_rng(0), table="open", policies=None if policy is None else (policy, policy))
    bt.update_leadership()
    return bt


# -- the line player ------------------------------------------------------------------------


@pytest.mark.parametrize("game_round", [1, 3, 6])
def test_a_line_unit_does_not_charge_alone_into_a_gang_up_in_any_round(ecat, game_round):
    """A unit that would face more enemies than friends at its target (enemies within their
    MOV × 2 of it, edge to edge), for an exchange not worth the risk, closes in with the line
    instead of charging, in every round and whatever its side's posture."""
    bt = battle(ecat, _army("griffin", ("conscript", 5)), _army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), LinePolicy())
    bt.round = game_round
    me = bt.sides[0][0]
    stand(bt, me, 90, 40)
    for k, e in enumerate(bt.sides[1]):
        stand(bt, e, 72 + 18 * k, 52)  # three units side by side, 12 cm before it
    foes = list(bt.sides[1])
    assert bt.choose_order(me, foes) == "assault"  # the classic player charges
    line = LinePolicy()
    assert line.gang_up(bt, me, foes[1])
    assert line.choose_order(bt, me, foes) == "progress"  # the line player waits
    bt.scores[1] = 200.0  # losing badly: the side attacks, but still not alone into three units
    bt.round_memo.clear()
    assert line.attacking(bt, 0)
    assert line.choose_order(bt, me, foes) == "progress"


def test_a_charge_with_friends_able_to_join_is_not_a_gang_up(ecat):
    bt = battle(ecat, _army("griffin", ("conscript", 5), ("conscript", 5), ("conscript", 5)), _army("beasts", ("warrior", 5), ("warrior", 5)))
    for k, f in enumerate(bt.sides[0]):
        stand(bt, f, 70 + 15 * k, 40)
    for k, e in enumerate(bt.sides[1]):
        stand(bt, e, 80 + 20 * k, 52)
    line = LinePolicy()
    assert line.outnumbered(bt, bt.sides[0][0], bt.sides[1][0]) == (1, 2)
    assert not line.gang_up(bt, bt.sides[0][0], bt.sides[1][0])


def test_the_stronger_side_attacks_and_the_weaker_holds(ecat):
    """Posture: the side whose standing army is worth at least the enemy's attacks; the other
    holds (unless out-shot or losing)."""
    bt = battle(ecat, _army("beasts", ("warrior", 12), ("warrior", 12)), _army("beasts", ("warrior", 9), ("warrior", 9)))
    line = LinePolicy()
    assert line.attacking(bt, 0) and not line.attacking(bt, 1)
    bt.round_memo.clear()
    bt.scores[0] = 60.0  # side 1 lost 60 of its 240 A.P. and destroyed nothing: it is losing
    assert line.attacking(bt, 1)


def test_progress_stops_out_of_reach_or_where_it_can_charge(ecat):
    """No run to a spot just short of an enemy (where the enemy charges first): a holding unit
    stops out of the enemy's charge reach; an attacking one out of reach when its own reach
    lets it charge from there next round, else where it can charge next round."""
    bt = battle(ecat, _army("beasts", ("warrior", 12), ("marauder", 3)), _army("beasts", ("warrior", 9)))
    warriors, marauders = bt.sides[0]
    foe = bt.sides[1][0]  # MOV 10: charges 20 cm
    line = LinePolicy()
    assert line.attacking(bt, 0) and not line.attacking(bt, 1)
    assert line.stop_short(bt, marauders, foe, 60.0) == 21.0  # MOV 15: charges 30 cm from 21
    assert line.stop_short(bt, warriors, foe, 60.0) == 20.0  # MOV 10 as the foe: its own reach
    assert line.stop_short(bt, foe, warriors, 60.0) == 21.0  # holding: out of reach


def test_supports_keep_the_pace_of_the_line(ecat):
    """A unit under Progress may lead its line by a few centimetres toward the enemy's edge, the
    line being where its friends will stand after their own Run this round."""
    bt = battle(ecat, _army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), _army("beasts", ("warrior", 5)))
    me, a, c = bt.sides[0]
    for k, f in enumerate(bt.sides[0]):
        f.order = "progress"
        stand(bt, f, 60 + 25 * k, 20)
    line = LinePolicy()
    assert line.advance_limit(bt, me) == 26.0  # the friends can Run 20 cm: the line will be at 40
    a.activated = c.activated = True  # they moved (or chose not to): the line stands where they are
    assert line.advance_limit(bt, me) == 6.0


def _boards(seed: int, ecat, first, second):
    """A random board: both armies somewhere on the open table, some units shaken."""
    rng = np.random.default_rng(seed)
    bt = battle(ecat, first, second)
    for u in bt.sides[0] + bt.sides[1]:
        stand(bt, u, float(rng.uniform(20, 160)), float(rng.uniform(25, 60) if u.side == 0 else rng.uniform(60, 95)))
        u.state = str(rng.choice(["valiant", "valiant", "valiant", "disorganized", "rout"]))
    bt.scores[1] = float(rng.integers(0, 300))
    return bt


def _line_choices(ecat) -> list:
    first = _army("griffin", ("conscript", 8), ("conscript", 5), ("fusilier", 6), ("conscript", 8))
    second = _army("beasts", ("brute", 6), ("puppet", 15), ("brute", 6), ("tyrant", 1), ("brontops", 2))
    out = []
    for seed in range(40):
        bt = _boards(seed, ecat, first, second)
        line = LinePolicy()
        for u in bt.sides[0] + bt.sides[1]:
            if u.state == "rout":
                continue
            foes = [e for e in bt.sides[1 - u.side] if e.alive]
            target = line.assault_target(bt, u, bt.assault_options(u))
            out.append([seed, u.side, u.index, line.choose_order(bt, u, foes), None if target is None else target.foe.index])
    return out


def test_the_line_player_plays_as_recorded(ecat):
    """The line player's orders and charge targets on 40 random boards, as recorded in
    ``line_player_baseline.json`` (it is the yardstick of the field player: a change to it is a
    deliberate commit; rewrite with R2_WRITE_BASELINE=1)."""
    found = _line_choices(ecat)
    if os.environ.get("R2_WRITE_BASELINE"):
        BASELINE.write_text(json.dumps(found) + "\n", encoding="utf-8")
    assert found == json.loads(BASELINE.read_text(encoding="utf-8"))


# -- the field player -------------------------------------------------------------------------


def test_fray_value_reads_the_charge_and_the_rout(ecat):
    """The field player's yardstick: a charge at no less Power is worth more than being charged
    (the first strike), and a fray against a unit that cannot rout is worth less."""
    bt = battle(ecat, _army("beasts", ("warrior", 10)), _army("beasts", ("warrior", 10)))
    a, b = bt.sides[0][0], bt.sides[1][0]
    assert fray_value(bt, a, b, True) > fray_value(bt, a, b, False)
    bt2 = battle(ecat, _army("beasts", ("warrior", 10)), _army("beasts", ("puppet", 10)))
    assert bt2.sides[1][0].all_have("auto_morale")
    assert fray_value(bt2, bt2.sides[0][0], bt2.sides[1][0], True) < fray_value(bt, a, b, True) + 1e-9


def test_units_ordered_to_the_same_target_charge_together(ecat):
    """A charge the line player would not make alone (more enemies than friends can join) is
    made when a friend was ordered to assault the same target this round."""
    bt = battle(ecat, _army("griffin", ("conscript", 5), ("conscript", 5)), _army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), FieldPolicy())
    me, friend = bt.sides[0]
    stand(bt, me, 60, 40)
    stand(bt, friend, 10, 16)  # far behind: it cannot join by itself
    for k, e in enumerate(bt.sides[1]):
        stand(bt, e, 54 + 18 * k, 52)
    field = FieldPolicy()
    target = bt.sides[1][0]
    enemies, friends = field.joiners(bt, me, target)
    assert len(enemies) > friends
    field.planned(bt, 0)[friend.index] = target.index  # the friend was ordered to assault it
    assert field.joiners(bt, me, target)[1] == friends + 1


def test_cavalry_charges_what_it_reaches_under_fire(ecat):
    """Fast units do not wait under fire: in reach of a target with an exchange near even, they
    charge."""
    bt = battle(ecat, _army("beasts", ("brontops", 3)), _army("griffin", ("fusilier", 8), ("conscript", 8)), FieldPolicy())
    riders = bt.sides[0][0]
    fusiliers, conscripts = bt.sides[1]
    face_off(bt, riders, fusiliers, 25)
    stand(bt, conscripts, 130, 100)
    field = FieldPolicy()
    assert riders.mov >= 15 and field.under_fire(bt, riders)
    assert field.choose_order(bt, riders, list(bt.sides[1])) == "assault"


def test_a_marksman_unit_marches_out_of_a_friends_lane(ecat):
    """Marksmen whose target in range hides behind a friend of theirs step sideways along the line."""
    bt = battle(ecat, _army("griffin", ("fusilier", 8), ("conscript", 10)), _army("beasts", ("warrior", 10)), FieldPolicy())
    fusiliers, conscripts = bt.sides[0]
    foe = bt.sides[1][0]
    stand(bt, fusiliers, 90, 30)
    stand(bt, conscripts, 90, 40)  # right before them, as wide: the lane is shut
    stand(bt, foe, 90, 70)
    field = FieldPolicy()
    assert not bt.shooting_candidates(fusiliers, bt.shooters(fusiliers))
    move = field.support_move(bt, fusiliers)
    assert move is not None and abs(move[0] - 90) >= fusiliers.mov - 1e-6 and move[1] == 30  # sideways


def test_a_threatened_unit_that_cannot_answer_takes_a_reaction(ecat):
    bt = battle(ecat, _army("beasts", ("warrior", 4)), _army("beasts", ("brute", 10)), FieldPolicy())
    me, brutes = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, me, brutes, 15)
    aside(bt, me, brutes)
    field = FieldPolicy()
    assert fray_value(bt, brutes, me, True) > 0.0
    assert field.choose_order(bt, me, [brutes]) == "reaction"


# -- deployment -----------------------------------------------------------------------------


def test_the_loser_of_the_deployment_roll_deploys_first_and_the_other_sees_it(ecat):
    """Decision R2-T8: a die each (ties again), the lower deploys first; the log says so and
    the second player is asked for its line with the first army standing on the table."""
    seen = []

    class Watching(FieldPolicy):
        def deployment(self, b, side):
            seen.append((side, [(u.x, u.y) for u in b.sides[1 - side]], list(b.deployed)))
            return super().deployment(b, side)

    army = _army("beasts", ("warrior", 5), ("brute", 6))
    for seed in range(6):
        seen.clear()
        bt = Battle(
            ecat,
            army,
            army,
            np.random.default_rng(seed),
            log=True,
            table="open",
            policies=(Watching(), Watching()),
        )
        roll = next(line for line in bt.lines if line.startswith("deployment roll"))
        first = int(roll.split("side ")[-2][0]) - 1
        assert bt.deployed == [first, 1 - first]
        assert [s for s, _, _ in seen] == [first, 1 - first]
        assert seen[0][2] == [] and seen[1][2] == [first]
        assert seen[1][1] == [(u.x, u.y) for u in bt.sides[first]]  # the first army, as it stands


def test_deploying_second_the_field_player_keeps_its_weak_unit_from_the_enemys_best(ecat):
    """The second player orders its line against the enemy's: the conscripts stand across from
    the enemy's puppets, not from its brutes, whatever the classic order (strongest in the middle)."""
    enemy = _army("beasts", ("brute", 12), ("puppet", 15))
    mine = _army("griffin", ("conscript", 10), ("asadar", 8))
    bt = Battle(
        ecat,
        enemy,
        mine,
        np.random.default_rng(0),
        table="open",
        policies=(FieldPolicy(), FieldPolicy()),
    )
    for brutes_x, puppets_x in ((60.0, 120.0), (120.0, 60.0)):
        brutes, puppets = bt.sides[0]
        stand(bt, brutes, brutes_x, 20.0)
        stand(bt, puppets, puppets_x, 20.0)
        bt.deployed = [0]
        bt.place_army(1, FieldPolicy().deployment(bt, 1))
        conscripts = bt.sides[1][0]
        assert abs(conscripts.x - puppets_x) < abs(conscripts.x - brutes_x)
