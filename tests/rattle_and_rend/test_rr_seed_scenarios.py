"""Scenarios from the seed's text (rattle-and-rend-alpha02), one rule each, on hand-placed groups
with scripted dice and scripted players: the rules the playtests were found to break, and the
narrated log a player checks them with."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from armybuilder.core.lists import parse_list
from armybuilder.core.rng import Uniforms
from armybuilder.systems.rattle_and_rend.army import Group, RRList
from armybuilder.systems.rattle_and_rend.engine.board import Piece
from armybuilder.systems.rattle_and_rend.engine.game import Action, Game, IllegalOrder, Order
from armybuilder.systems.rattle_and_rend.engine.policy import Policy

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "rattle-and-rend" / "samples"


def sample(name):
    return parse_list((SAMPLES / f"{name}.yaml").read_text(), name).army


def warband(*groups: Group, traits=("elites", "zealots"), name="Band") -> RRList:
    return RRList(catalogue="1.0.0", format="12-points", name=name, traits=list(traits), drive="frenzy", groups=list(groups))


class Faces(Uniforms):
    """The game's dice scripted: each d20 shows the next face of the list (then 10s)."""

    def __init__(self, faces):
        super().__init__(np.random.default_rng(0))
        self.faces = list(faces)

    def die(self, sides):
        return self.faces.pop(0) if self.faces else 10


class Player(Policy):
    """A scripted player: the orders given, in turn, then passes; declares every reaction offered
    (the first), never refuses."""

    def __init__(self, orders=(), react=True):
        super().__init__()
        self.orders = list(orders)
        self.reacts = react

    def act(self, g, side):
        return self.orders.pop(0) if self.orders else None

    def react(self, g, side, ctx, offers):
        return offers[0] if self.reacts else None

    def push(self, g, by, u):
        return None


def game(cat, a, b, faces=(), players=(None, None)):
    g = Game(cat, a, b, np.random.default_rng(0), True, None, (players[0] or Player(), players[1] or Player()))
    for i, u in enumerate(g.units):
        u.state = "board" if u.carrier is None else "carried"
        u.x, u.y = 30.0 + 48 * (i % 8), (40.0 if u.side == 0 else 360.0)
    for s in g.sides:
        s.total = s.momentum = sum(u.points for u in s.units)
    g.round = 1
    g.dice = Faces(faces)
    return g


def of(g, side, kind):
    return [u for u in g.sides[side].units if u.gtype == kind]


def test_a_colossal_heavy_charges_up_to_three_groups(cat):
    """Heavy Traits, Colossal: "may make FURY CHECKS against up to three enemy GROUPS within its
    REACH", when attacking: a Charge as well as a Stand and Fight."""
    ogres = warband(Group(type="heavy", heavy_trait="colossal"), Group(type="fighters"), Group(type="shooters"), Group(type="skirmishers"))
    foes = warband(*[Group(type="fighters") for _ in range(4)], name="Foes")
    g = game(cat, ogres, foes, faces=[1] * 12, players=(None, Player(react=False)))
    heavy = of(g, 0, "heavy")[0]
    heavy.x, heavy.y = 200.0, 150.0
    for k, e in enumerate(of(g, 1, "fighters")[:3]):
        e.x, e.y = 150.0 + 50 * k, 250.0  # three enemies within S of where the charge ends
    target = of(g, 1, "fighters")[1]
    g.perform(Action(g.sides[0], heavy, "Charge", attack=True), Order("Charge", heavy, target))
    attacks = [line for line in g.lines if f"{heavy.name} attacks " in line]
    assert len(attacks) == 3 and all("after a charge" in line for line in attacks)
    assert g.used[0].get("colossal") == 1


def test_sneak_thieves_give_a_feint_from_beyond_s_a_penalty(cat):
    """Sneak-Thieves: "Enemies have a penalty when targeting your non-HEAVY GROUPS from longer than
    S RANGE with ... FEINT ACTIONS" (a penalty: one d20)."""
    skirmishers = warband(Group(type="skirmishers"), Group(type="fighters"), Group(type="shooters"), Group(type="fighters"))
    thieves = warband(Group(type="fighters"), Group(type="fighters"), Group(type="shooters"), Group(type="skirmishers"),
                      traits=("sneak-thieves", "elites"), name="Thieves")  # fmt: skip
    g = game(cat, skirmishers, thieves, faces=[3, 3, 3])
    u, e = of(g, 0, "skirmishers")[0], of(g, 1, "fighters")[0]
    u.x, u.y, e.x, e.y = 200.0, 100.0, 200.0, 220.0  # 120 mm: beyond S (80), within the Skirmishers' RNG S? no: M
    u.rng = "M"
    g.perform(Action(g.sides[0], u, "Feint"), Order("Feint", u, e))
    assert any(f"{u.name}: Guile 10+ on 1d20 (penalty)" in line for line in g.lines)
    e.x, e.y = 200.0, 160.0  # 60 mm: within S, no penalty
    g.perform(Action(g.sides[0], u, "Feint"), Order("Feint", u, e))
    assert any(f"{u.name}: Guile 10+ on 2d20:" in line for line in g.lines)


def test_swarmers_attack_before_any_reaction(cat):
    """Swarmers: the other groups in base contact with the target attack at a penalty; "Resolve
    these additional swarmer attacks before any REACTIONS"."""
    swarm = warband(Group(type="fighters"), Group(type="fighters"), Group(type="shooters"), Group(type="skirmishers"),
                    traits=("swarmers", "elites"), name="Swarm")  # fmt: skip
    foes = warband(*[Group(type="fighters") for _ in range(4)], name="Foes")
    g = game(cat, swarm, foes, faces=[1] * 12)
    a, b = of(g, 0, "fighters")
    t = of(g, 1, "fighters")[0]
    t.x, t.y = 200.0, 200.0
    a.x, a.y = 160.0, 200.0  # both in base contact with the target (radii 20)
    b.x, b.y = 240.0, 200.0
    g.perform(Action(g.sides[0], a, "Stand and Fight", attack=True), Order("Stand and Fight", a, t))
    text = "\n".join(g.lines)
    assert f"{b.name} swarms {t.name}" in text and "declares Countercharge" in text
    assert text.index(f"{b.name} swarms") < text.index("declares Countercharge")
    # the swarmer's penalty cancels the melee bonus of a friend (the attacker) touching the target
    # (Elites: Fury 11 - 2): two dice, as the seed's "both cancel" says
    assert f"  {b.name}: Fury 9+ on 2d20:" in text


def test_soothsayers_replace_one_die_once_a_turn_all_round(cat):
    """Soothsayers: the number "may be declared the result of any CHECK ... for the rest of the
    ROUND"; "only once per turn": once in each turn, the number kept until the round ends."""
    court = sample("vampire-court")  # Soothsayers, Poisoners
    g = game(cat, court, sample("dwarven-throng"), faces=[1, 1, 1, 1, 1, 1])
    side = g.sides[0]
    side.soothsayer = 20
    u = side.units[3]  # the Fighters (Fury 11+)
    assert g.check(u, "Fury", 11, important=True) == 1  # a 1 and a 1: the number turns one into a 20
    assert g.check(u, "Fury", 11, important=True) == 0  # the same turn: not again
    g.turn_counter += 1
    assert g.check(u, "Fury", 11, important=True) == 1  # the next turn: again
    assert sum("Soothsayers declare a 20" in line for line in g.lines) == 2 and g.used[0]["soothsayers"] == 2


def test_an_ambush_comes_in_on_a_legal_spot_or_not_at_all(cat):
    """Ambushers: deploy "anywhere on the board not within S RANGE of an enemy" (never in blocking
    or hazardous terrain, nor on another base); with no such spot there is no ambush."""
    ogres = sample("ogrekin-hunting-party")  # Ambushers
    g = game(cat, ogres, sample("dwarven-throng"))
    u = of(g, 0, "shooters")[0]
    u.state = "reserve"
    t = of(g, 1, "fighters")[0]
    t.x, t.y = 200.0, 200.0
    g.pieces = [Piece("hazardous", 200.0, 200.0 + 105.0, 30.0), Piece("blocking", 200.0 - 105.0, 200.0, 30.0)]
    spot = g.ambush_spot(u, t)
    assert spot is not None and g.ambush_spot_ok(u, *spot)
    assert all(np.hypot(spot[0] - e.x, spot[1] - e.y) > 80 for e in g.sides[1].units if e.state == "board")
    g.pieces = [Piece("hazardous", 200.0, 200.0, 400.0)]  # the whole board hazardous
    assert g.ambush_spot(u, t) is None
    assert g.legal(g.sides[0], Order("Ambush", u, t, point=(200.0, 40.0)))  # refused


def test_the_default_player_ambushes_only_where_its_charge_reaches(cat):
    """Ambushers: the group is given an action "as if already present in that location" - for the
    default player, a Charge from a spot beyond S of an enemy. It comes in where that charge
    reaches its target, and stays off the board when no charge from a legal spot would."""
    from armybuilder.systems.rattle_and_rend.engine.ai import ScoringPolicy

    ogres = sample("ogrekin-hunting-party")  # Ambushers
    g = game(cat, ogres, sample("dwarven-throng"), faces=[20, 20] + [1] * 10)
    side = g.sides[0]
    u = of(g, 0, "fighters")[0]
    u.state = "reserve"
    for e in g.sides[1].units:
        e.x, e.y = 60.0 + 45 * (e.uid % 8), 330.0
    t = of(g, 1, "fighters")[0]
    t.x, t.y = 200.0, 200.0
    policy = ScoringPolicy()
    ambushes = [o for _, o in policy.options(g, side) if o.name == "Ambush"]
    assert len(ambushes) == 1 and ambushes[0].unit is u and ambushes[0].point is not None
    order = ambushes[0]
    assert g.ambush_spot_ok(u, *order.point) and not g.legal(side, order)
    g.perform(Action(side, u, "Ambush", attack=True), order)
    assert u.state == "board" and g.within(u, order.target, u.rng)
    assert not any("ends short" in line for line in g.lines)
    # every enemy deep inside blocking terrain: a legal spot exists, no charge from it reaches
    u.state = "reserve"
    g.pieces = [Piece("blocking", e.x, e.y, 95.0) for e in g.sides[1].units if e.state == "board"]
    g.terrain_obstacles.clear()
    assert g.ambush_spot(u, t) is not None
    assert not [o for _, o in policy.options(g, side) if o.name == "Ambush"]


def test_an_illegal_order_is_refused_by_the_rules(cat):
    g = game(cat, sample("dwarven-throng"), sample("vampire-court"), players=(Player(), None))
    fighters = of(g, 0, "fighters")[0]
    far = g.sides[1].units[3]
    assert "not in range" in g.legal(g.sides[0], Order("Stand and Fight", fighters, far))
    g.policies[0].orders = [Order("Stand and Fight", fighters, far)]
    with pytest.raises(IllegalOrder):
        g.turn(g.sides[0])


def test_tied_bids_spend_momentum_in_the_log(cat):
    """Initiative: "If both players bid the same amount ... both players discard those points and
    bid again"; the log says so, with the momentum left."""

    class Bidder(Player):
        def __init__(self, bids):
            super().__init__()
            self.bids = list(bids)

        def bid(self, g, side, top):
            return self.bids.pop(0)

    g = game(cat, sample("dwarven-throng"), sample("vampire-court"), players=(Bidder([2, 1]), Bidder([2, 3])))
    assert g.initiative() == 1
    text = "\n".join(g.lines)
    assert "initiative bids tie at 2: both spend it (10 / 10 left) and bid again" in text
    assert "wins and pays 3 (7 left)" in text


def test_a_mirror_names_whose_group_acts_on_every_line(cat):
    army = sample("dwarven-throng")
    record = Game(cat, army, army, np.random.default_rng(3), True).play()
    names = [u.name for u in record.units]
    assert len(set(names)) == len(names)  # no two groups share a name
    assert all(n.endswith(("[1]", "[2]")) for n in names)
    assert record.log[0].startswith("R0 player A: Dwarven Throng [")


def test_countercharge_that_cannot_reach_is_told(cat):
    """Countercharge: the Fighters "meet the enemy halfway"; when the attacker stays out of their
    range the log says the countercharge does not reach."""
    shooters = warband(Group(type="shooters"), Group(type="fighters"), Group(type="shooters"), Group(type="skirmishers"))
    foes = warband(*[Group(type="fighters") for _ in range(4)], name="Foes")
    g = game(cat, shooters, foes, faces=[1] * 10)
    s, t = of(g, 0, "shooters")[0], of(g, 1, "fighters")[0]
    s.x, s.y, t.x, t.y = 200.0, 100.0, 200.0, 250.0  # 150 mm: in the Shooters' M; far beyond the Fighters' S move
    g.perform(Action(g.sides[0], s, "Stand and Fight", attack=True), Order("Stand and Fight", s, t))
    assert any(f"{t.name}'s countercharge does not reach {s.name}" in line for line in g.lines)


def test_banished_group_returns_on_its_sides_first_turn(cat):
    """Banishment: the target "returns to play during your enemy's first TURN the following ROUND
    ... Your enemy will adjust their TOTAL MOMENTUM": it is missing from the next initiative's total."""
    court = sample("vampire-court")  # a Banishment Champion
    g = game(cat, court, sample("dwarven-throng"), faces=[20, 15, 15])  # Guile 12+ on 1d20: 20; then Will 13+
    champion = next(u for u in g.sides[0].units if u.champion_action == "banishment")
    heavy = of(g, 1, "heavy")[0]
    heavy.x, heavy.y = champion.x, champion.y + champion.radius + heavy.radius  # in base contact: within B
    g.perform(Action(g.sides[0], champion, "Banishment"), Order("Banishment", champion, heavy))
    assert heavy.state == "banished" and g.sides[1].total == 9
    g.round = 2
    g.initiative()
    assert g.sides[1].total == 9 and g.sides[1].momentum <= 9  # still away at the initiative
    g.first_turn(g.sides[1])
    assert heavy.state == "board" and g.sides[1].total == 12
    assert any(f"{heavy.name} returns from banishment" in line for line in g.lines)


def test_the_end_of_a_scored_scenario_is_told(cat):
    g = game(cat, sample("dwarven-throng"), sample("ogrekin-hunting-party"))
    g.scenario, g.scenario_rounds, g.round = "conquest", 4, 4
    for u in g.units:
        u.x = 50.0 if u.side == 0 else 350.0
    g.sides[0].units[0].x = 150.0
    g.end_of_round()
    assert g.finished and g.winner == 0
    assert any("Conquest after 4 rounds: points per zone" in line and "zones won" in line for line in g.lines)
