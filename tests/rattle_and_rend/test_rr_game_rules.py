"""The simulator's rules, one at a time, on hand-placed groups (seed: Gameplay, Actions, Reactions)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from armybuilder.core.lists import parse_list
from armybuilder.systems.rattle_and_rend.army import Group, RRList
from armybuilder.systems.rattle_and_rend.engine.ai import ScoringPolicy
from armybuilder.systems.rattle_and_rend.engine.board import Piece
from armybuilder.systems.rattle_and_rend.engine.game import Action, Game, Order

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "rattle-and-rend" / "samples"


def sample(name):
    return parse_list((SAMPLES / f"{name}.yaml").read_text(), name).army


def warband(*groups: Group, traits=("elites", "zealots")) -> RRList:
    return RRList(catalogue="1.0.0", format="12-points", traits=list(traits), drive="frenzy", groups=list(groups))


def board(cat, a: RRList, b: RRList, seed: int = 0) -> Game:
    """A game with every group on the board, far apart, no terrain: positions are set by the test."""
    game = Game(cat, a, b, np.random.default_rng(seed), True)
    for i, u in enumerate(game.units):
        u.state = "board" if u.carrier is None else "carried"
        u.x, u.y = 40.0 + 45 * (i % 8), (40.0 if u.side == 0 else 360.0)
    for s in game.sides:
        s.total = s.momentum = sum(u.points for u in s.units)
    game.round = 1
    return game


def test_attached_champion_joins_its_group(cat):
    game = board(cat, sample("vampire-court"), sample("dwarven-throng"))
    court = game.sides[0].units
    assert len(court) == 8  # nine entries, the attached Champion rides with the Fighters
    fighters = next(u for u in court if u.gtype == "fighters")
    assert (fighters.points, fighters.attached, fighters.champion_action) == (3, True, "crashing-wave")
    assert set(fighters.reactions) == {"countercharge", "regroup"}
    assert (fighters.fury, fighters.will) == (11, 11)  # the group's stats, not the Champion's


def test_transport_starts_loaded_and_death_defiers_improve_will(cat):
    game = board(cat, sample("dwarven-throng"), sample("vampire-court"))
    throng = game.sides[0].units
    heavy = next(u for u in throng if u.gtype == "heavy")
    passengers = [u for u in throng if u.carrier is heavy]
    assert len(passengers) == 1 and passengers[0].state == "carried" and heavy.capacity == 4  # Riders
    assert heavy.mov == "M" and heavy.will == 8  # Transport: MOV M; Death-Defiers: Will 10 - 2


def test_action_costs_grow_and_no_back_to_back(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    side = game.sides[0]
    fighters = [u for u in side.units if u.gtype == "fighters" and u.state == "board"]
    u = fighters[0]
    costs = []
    for taken in range(4):
        u.actions = taken
        costs.append(game.cost_of(side, u, False))
    assert costs == [1, 2, 3, 4]  # RR-D2: 1, 2, 3 (and on)
    u.actions = 0
    side.last_actor = u
    assert not game.may_act(side, u) and game.legal(side, Order("Rest", u))  # another group must act first
    assert all(o.unit is not u for _, o in ScoringPolicy().options(game, side))
    for other in side.units:  # Last Man Standing: the only non-Ward group may act again
        if other is not u:
            other.state = "out"
    assert game.may_act(side, u) and game.legal(side, Order("Rest", u)) == ""
    assert any(o.unit is u for _, o in ScoringPolicy().options(game, side))


def test_total_momentum_is_points_in_play_and_morale_follows_six(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    throng = game.sides[0]
    for u in [u for u in throng.units if u.gtype == "fighters" and u.state == "board"][:3]:
        game.remove(u, None, None)
    assert throng.total == 6 and throng.morale_due  # 12 - 6: morale at the next initiative
    game.initiative()
    assert throng.morale_done
    assert any("warband morale" in line for line in game.lines)
    assert throng.momentum <= throng.total == sum(u.points for u in throng.units if u.state in ("board", "carried", "reserve"))


def test_breaking_transport_puts_its_passenger_down(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    throng = game.sides[0].units
    heavy = next(u for u in throng if u.gtype == "heavy")
    passenger = next(u for u in throng if u.carrier is heavy)
    game.remove(heavy, None, None)
    assert passenger.state in ("board", "out") and passenger.carrier is None
    assert any(f"  {passenger.name}: Will " in line for line in game.lines)


def test_intimidate_can_stop_an_action(cat):
    ogres = sample("ogrekin-hunting-party")
    stopped = 0
    for seed in range(30):
        game = board(cat, sample("vampire-court"), ogres, seed)
        court, ogre = game.sides
        heavy = next(u for u in ogre.units if u.gtype == "heavy")
        actor = next(u for u in court.units if u.gtype == "skirmishers")
        actor.x, actor.y, heavy.x, heavy.y = 200.0, 200.0, 200.0, 260.0  # within the Heavy's S range
        ctx = Action(court, actor, "Stand and Fight", attack=True)
        game.on_declare(ctx)
        assert ctx.reacted or ogre.momentum == 12
        stopped += ctx.cancelled
    assert 0 < stopped < 30  # Fury 8+ on 2d20 stops it about 87 % of the time when it is tried


def test_king_of_the_hill_counts_points_on_the_hill(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    game.scenario, game.scenario_rounds, game.round = "king-of-the-hill", 4, 4
    game.hill = Piece("rough", 200.0, 200.0, 50.0)
    ogre_heavy = next(u for u in game.sides[1].units if u.gtype == "heavy")
    ogre_heavy.x, ogre_heavy.y = 200.0, 200.0
    game.end_of_round()
    assert game.finished and game.winner == 1


def test_conquest_counts_zones(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    game.scenario, game.scenario_rounds, game.round = "conquest", 4, 4
    for u in game.units:
        u.x = 50.0 if u.side == 0 else 350.0  # each side holds one zone
    for u in game.sides[0].units[:1]:
        u.x = 150.0  # the Throng takes a second zone
    game.end_of_round()
    assert game.finished and game.winner == 0


def test_capture_the_flags_needs_two_flags_off_the_board(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    game.scenario = "capture-the-flags"
    game.sides[1].markers_off = 1
    game.check_victory()
    assert not game.finished
    game.sides[1].markers_off = 2
    game.check_victory()
    assert game.finished and game.winner == 1


def test_duel_ends_when_the_targets_are_gone(cat):
    game = board(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    game.scenario = "duel"
    for side in game.sides:  # each side's player names 2 points of the enemy (no Ward)
        total = 0
        for u in ScoringPolicy().duel_targets(game, side, [u for u in game.sides[1 - side.idx].units if not u.is_ward]):
            if total + u.points <= 2:
                u.duel_target, total = True, total + u.points
    targets = [u for u in game.sides[1].units if u.duel_target]
    assert sum(u.points for u in targets) <= 2 and not any(u.is_ward for u in targets)
    for u in targets:
        game.remove(u, game.sides[0].units[0], None)
    assert game.finished and game.winner == 0


def test_zealots_regain_momentum_when_groups_leave(cat):
    game = board(cat, sample("ogrekin-hunting-party"), sample("dwarven-throng"))
    ogres, throng = game.sides
    ogres.momentum = 3
    victim = next(u for u in throng.units if u.gtype == "fighters" and u.state == "board")
    game.remove(victim, ogres.units[0], None)
    assert ogres.momentum == 5  # an enemy group: +2
    game.remove(ogres.units[-1], None, None)
    assert ogres.momentum == min(ogres.total, 6)  # its own group: +1, never above the total


@pytest.mark.parametrize("seed", range(3))
def test_game_log_is_reproducible_and_ends(cat, seed):
    a, b = warband(
        Group(type="fighters"),
        Group(type="champion", champion_action="banishment", attached_to=0),
        Group(type="shooters"),
        Group(type="skirmishers"),
        Group(type="heavy", heavy_trait="flyer"),
        Group(type="ward", warding_reaction="sacrifice"),
        Group(type="champion", champion_action="distant-doom"),
        traits=("fearsome", "blessed"),
    ), sample("vampire-court")
    first = Game(cat, a, b, np.random.default_rng(seed), True).play()
    second = Game(cat, a, b, np.random.default_rng(seed), True).play()
    assert first.log == second.log and first.log[-1].startswith(f"R{first.rounds} winner:")


def test_each_game_gets_fresh_groups_and_sees_an_edited_list(cat):
    """Sides are built once per list content and copied per game: games never share a group,
    a passenger rides in its own game's Transport, and an edited list is built again."""
    army = sample("dwarven-throng")  # a group starts in its Transport
    first = Game(cat, army, sample("vampire-court"), np.random.default_rng(1), False)
    second = Game(cat, army, sample("vampire-court"), np.random.default_rng(1), False)
    assert [u.name for u in first.units] == [u.name for u in second.units]
    assert not {id(u) for u in first.units} & {id(u) for u in second.units}
    assert any(u.carrier is not None for u in first.units)
    for game in (first, second):
        for u in game.units:
            assert u.carrier is None or any(u.carrier is o for o in game.units)
    first.units[0].x = 123.0
    assert second.units[0].x != 123.0
    edited = army.model_copy(deep=True)
    edited.groups.pop()
    third = Game(cat, edited, sample("vampire-court"), np.random.default_rng(1), False)
    assert len(third.sides[0].units) < len(first.sides[0].units)
