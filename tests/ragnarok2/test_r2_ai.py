"""The players: two policies can play each other, and the line player beats the classic one."""

from __future__ import annotations

import numpy as np
import pytest

from armybuilder.core.playtest import load_sample, sample_names
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.line_ai import LinePolicy, PreviousLinePolicy
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


def _army(people, *units):
    from armybuilder.systems.ragnarok2.army import R2List, Troops, Unit

    return R2List(catalogue="1.0.0", format="1000-ap", name="t", people=people,
                  units=[Unit(troops=Troops(profile=p, count=n)) for p, n in units])  # fmt: skip


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    from r2engine_data import build_catalogue

    return build_catalogue(tmp_path_factory.mktemp("ai"))


@pytest.mark.parametrize("game_round", [1, 3, 6])
def test_a_line_unit_does_not_charge_alone_into_a_gang_up_in_any_round(ecat, game_round):
    """A unit that would face more enemies than friends at its target's spot, for an exchange
    not worth the risk, closes in with the line instead of charging, in every round (it was
    only in round 1) and whatever its side's posture."""
    bt = Battle(ecat, _army("griffin", ("conscript", 5)), _army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), np.random.default_rng(0))
    bt.round = game_round
    bt.update_leadership()
    me = bt.sides[0][0]
    for e in bt.sides[1]:
        e.pos = me.pos + 12
    foes = list(bt.sides[1])
    spots = sorted(e.pos for e in foes)
    assert bt.choose_order(me, foes, spots) == "assault"  # the classic player charges
    line = LinePolicy()
    assert line.gang_up(bt, me, foes[0])
    assert line.choose_order(bt, me, foes, spots) == "progress"  # the line player waits
    bt.scores[1] = 200.0  # losing badly: the side attacks, but still not alone into three units
    bt.round_memo.clear()
    assert line.attacking(bt, 0)
    assert line.choose_order(bt, me, foes, spots) == "progress"


def test_a_charge_with_friends_able_to_join_is_not_a_gang_up(ecat):
    bt = Battle(ecat, _army("griffin", ("conscript", 5), ("conscript", 5), ("conscript", 5)), _army("beasts", ("warrior", 5), ("warrior", 5)), np.random.default_rng(0))
    bt.update_leadership()
    for f in bt.sides[0]:
        f.pos = 40.0
    for e in bt.sides[1]:
        e.pos = 52.0
    line = LinePolicy()
    assert line.outnumbered(bt, bt.sides[0][0], bt.sides[1][0]) == (1, 2)
    assert not line.gang_up(bt, bt.sides[0][0], bt.sides[1][0])


def test_the_stronger_side_attacks_and_the_weaker_holds(ecat):
    """Posture: the side whose standing army is worth at least the enemy's attacks; the other
    holds (unless out-shot or losing)."""
    bt = Battle(ecat, _army("beasts", ("warrior", 12), ("warrior", 12)), _army("beasts", ("warrior", 9), ("warrior", 9)), np.random.default_rng(0))
    bt.update_leadership()
    line = LinePolicy()
    assert line.attacking(bt, 0) and not line.attacking(bt, 1)
    bt.round_memo.clear()
    bt.scores[0] = 60.0  # side 1 lost 60 of its 240 A.P. and destroyed nothing: it is losing
    assert line.attacking(bt, 1)


def test_progress_stops_out_of_reach_or_where_it_can_charge(ecat):
    """No run to a spot just short of an enemy (where the enemy charges first): a holding unit
    stops out of the enemy's charge reach; an attacking one out of reach when its own reach
    lets it charge from there next round, else where it can charge next round."""
    bt = Battle(ecat, _army("beasts", ("warrior", 12), ("marauder", 3)), _army("beasts", ("warrior", 9)), np.random.default_rng(0))
    bt.update_leadership()
    warriors, marauders = bt.sides[0]
    foe = bt.sides[1][0]  # MOV 10: charges 20 cm
    line = LinePolicy()
    assert line.attacking(bt, 0) and not line.attacking(bt, 1)
    assert line.stop_short(bt, marauders, foe, 60.0) == 21.0  # MOV 15: charges 30 cm from 21
    assert line.stop_short(bt, warriors, foe, 60.0) == 20.0  # MOV 10 as the foe: its own reach
    assert line.stop_short(bt, foe, warriors, 60.0) == 21.0  # holding: out of reach
    assert Policy().stop_short(bt, warriors, foe, 60.0) == 1.0  # the classic player runs at it


def test_supports_keep_the_pace_of_the_line(ecat):
    """A unit under Progress may lead its line by a few centimetres, the line being where its
    friends will stand after their own Run this round: it neither creeps nor runs ahead alone."""
    bt = Battle(ecat, _army("beasts", ("warrior", 5), ("warrior", 5), ("warrior", 5)), _army("beasts", ("warrior", 5)), np.random.default_rng(0))
    bt.update_leadership()
    me, a, c = bt.sides[0]
    for f in bt.sides[0]:
        f.order, f.pos = "progress", 20.0
    line = LinePolicy()
    assert line.advance_limit(bt, me) == 26.0  # the friends can Run 20 cm: the line will be at 40
    a.activated = c.activated = True  # they moved (or chose not to): the line stands where they are
    assert line.advance_limit(bt, me) == 6.0


def _scored_by_rule(bt, unit, foes, reach):
    """Every foe in reach with its exchange score as the rule reads it: (-score, index, foe)."""
    from armybuilder.systems.ragnarok2.engine.policy import _score

    scored = []
    for e in foes:
        if not e.alive or e.state == "gone" or abs(e.pos - unit.pos) > reach:
            continue
        mine, theirs = bt._exchange_values(unit, e)
        gain = mine - theirs + (e.points if e.state == "rout" else 0) + (0.25 * e.points if e.engaged else 0)
        scored.append((-_score(gain), e.index, e))
    return scored


def _eager_target(line, bt, unit, foes, reach):
    """The line player's charge target as its rule reads (every foe in reach scored and weighed
    for a gang-up, then the best safe exchange, ties by balance and index): the reference the
    lazy choice must match."""
    scored = _scored_by_rule(bt, unit, foes, reach)
    if not scored:
        return None
    scored.sort(key=lambda s: (s[0], s[1]))
    safe = [s for s in scored if not line.gang_up(bt, unit, s[2])] or scored
    tied = [s for s in safe if s[0] == safe[0][0]]
    return min(tied, key=lambda s: (line._balance(bt, unit, s[2]), s[1]))[2]


def _eager_order_target(line, bt, unit, foes, reach, weighed):
    """The target an order is given for as the rule reads, weighed in full: every foe in reach
    scored, the safe ones among the *weighed* best exchanges (None: all of them) with those equal
    to the best safe one, ties by balance and index; None when there is none."""
    scored = _scored_by_rule(bt, unit, foes, reach)
    scored.sort(key=lambda s: (s[0], s[1]))
    first = [s for s in scored[:weighed] if not line.gang_up(bt, unit, s[2])]
    if not first:
        return None
    tied = [s for s in scored if s[0] == first[0][0] and not line.gang_up(bt, unit, s[2])]
    return min(tied, key=lambda s: (line._balance(bt, unit, s[2]), s[1]))[2]


@pytest.mark.parametrize("policy, weighed", [(PreviousLinePolicy, None), (LinePolicy, 2)])
def test_the_line_players_lazy_choices_match_its_rule(ecat, policy, weighed):
    """The line player weighs gang-ups only until its choice is known, and skips them when no
    foe in reach is worth charging: on random boards its target and order are those of the
    rule weighed in full, for every unit of both sides. (The previous player's order weighs
    every target for a gang-up; the default one only the two best exchanges.)"""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    # (twin units: equal exchanges, so ties are broken by the balance of joiners, then the index)
    first = _army("griffin", ("conscript", 8), ("conscript", 5), ("fusilier", 6), ("conscript", 8))
    second = _army("beasts", ("brute", 6), ("puppet", 15), ("brute", 6), ("tyrant", 1), ("brontops", 2))

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(st.floats(20.0, 100.0, allow_nan=False), min_size=9, max_size=9),
        st.lists(st.sampled_from(["valiant", "valiant", "disorganized", "rout"]), min_size=9, max_size=9),
        st.integers(0, 400),
    )
    def check(spots, states, scores):
        bt = Battle(ecat, first, second, np.random.default_rng(0))
        bt.update_leadership()
        units = bt.sides[0] + bt.sides[1]
        for u, pos, state in zip(units, spots, states, strict=True):
            u.pos, u.state = pos, state
        bt.scores[1] = float(scores)
        line = policy()
        for unit in units:
            if unit.state == "rout":
                continue
            foes = [e for e in bt.sides[1 - unit.side] if e.alive]
            reach = unit.mov * 2.0
            expected = _eager_target(line, bt, unit, foes, reach)
            assert line.charge_target(bt, unit, foes, reach) is expected
            order = bt.choose_order(unit, foes, sorted(e.pos for e in foes))
            if order in ("assault", "reaction", "progress") and (order == "assault" or line.attacking(bt, unit.side)):
                chosen = _eager_order_target(line, bt, unit, foes, unit.mov * 2.0, weighed)
                charge = chosen is not None and line.worth_charging(bt, unit, chosen)
                order = "assault" if charge else "progress"
            assert line.choose_order(bt, unit, foes, sorted(e.pos for e in foes)) == order

    check()
