"""The fray as the seed writes it: scenarios built from the seed's text (Combat phase, Outcome of
the fray, Morale, Rout, Leadership, Rallying), one rule each, through the battle engine."""

from __future__ import annotations

import numpy as np
import pytest
from r2engine_data import build_catalogue
from r2native import pure_engine_only
from r2table import face_off, stand

from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.engine import combat as combat_module
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.fray import (
    cdf_of,
    contest_distribution,
    initiative_distribution,
    pair_touches,
    pair_widths,
    sample,
    sample_cdf,
    share_dice,
    split_front,
    unit_key,
)
from armybuilder.systems.ragnarok2.engine.fray import test_distribution as roll_distribution


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2fray"))


def army(people: str, *units) -> R2List:
    built = []
    for spec in units:
        profile, count, *members = spec
        built.append(
            Unit(
                troops=Troops(profile=profile, count=count) if count else None,
                members=[Member(profile=m, commander_in_chief=(m in ("templar", "chief"))) for m in members],
            )
        )
    return R2List(catalogue="1.0.0", format="1000-ap", name="t", people=people, units=built)


def battle(ecat, first, second, seed=0) -> Battle:
    bt = Battle(ecat, first, second, np.random.default_rng(seed), table="open")
    bt.update_leadership()
    return bt


def engage(a, b) -> None:
    a.engaged.add(b.index)
    b.engaged.add(a.index)
    a.faces.setdefault(b.index, 0)
    b.faces.setdefault(a.index, 0)


# --------------------------------------------------------------------------- chance steps


def test_chance_steps_are_distributions_that_sum_to_one(ecat):
    bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 5)))
    for dist in (
        contest_distribution(bt.table, 0, 6),
        contest_distribution(bt.table, -13, 4),
        initiative_distribution(3, 5, True),
        roll_distribution(4, 8, 2),
        roll_distribution(3, 8, 1, False, True),
    ):
        assert sum(p for p, _ in dist) == pytest.approx(1.0)
        assert all(p >= 0 for p, _ in dist)
    dist = contest_distribution(bt.table, 0, 6)
    cdf = cdf_of(dist)  # the battle samples cached CDFs: the same outcome for the same uniform
    assert all(sample(dist, u) == sample_cdf(cdf, u) for u in np.linspace(0.0, 0.999, 500))


def test_contact_model_is_symmetric_and_bounded():
    """A base touches two or three enemy bases: each side brings at most twice the other's plus one."""
    assert pair_widths(10, 3) == (7, 3)
    assert pair_widths(1, 4) == (1, 3)
    assert pair_touches(3, 3) == ((0, 0), (1, 1), (2, 2))
    assert sorted(q for p, q in pair_touches(1, 3)) == [0, 1, 2]  # a lone fighter touches them all
    assert split_front(6, 2) == [[0, 1, 2], [3, 4, 5]]
    assert split_front(1, 3) == [[0], [0], [0]]  # one fighter between three enemies


def test_a_fighter_shares_its_dice_never_rolls_them_twice():
    """Seed (Combat dice): "This number of dice is used for the resolution of the whole fray. If a
    fighter must take part in several combats, the player must share the dice"."""
    keys = [(0, 0, 1000, 0), (0, 0, 1001, 0), (0, 0, 1002, 0), (0, 0, 1003, 0)]
    assert share_dice(2, keys) == {keys[0]: 1, keys[1]: 1}  # a knight with 2 dice and 4 enemies
    assert sum(share_dice(3, keys[:2]).values()) == 3


def test_a_lone_knight_against_four_units_rolls_two_dice_in_all(ecat, monkeypatch):
    """The issue's case: a lone Large fighter worth >= 50 A.P. (two dice) engaged by four units
    rolls two attack dice over the whole fray, not two per enemy."""
    rolled = []
    real = Battle.exchange

    def spy(self, striker, target, key, fighters, wounds, lowered, extra_round):
        if striker[0].side == 0 and not extra_round:
            rolled.append(sum(f.dice.get(key, 0) for f in fighters[striker[2]] if f.alive))
        return real(self, striker, target, key, fighters, wounds, lowered, extra_round)

    monkeypatch.setattr(Battle, "exchange", spy)
    bt = battle(ecat, army("beasts", ("brontops", 1)), army("griffin", *[("conscript", 5)] * 4))
    knight = bt.sides[0][0]
    for e in bt.sides[1]:
        engage(knight, e)
    fighters = bt.build_contact([knight, *bt.sides[1]])
    mine = fighters[unit_key(0, 0)]
    assert len(mine) == 1 and sum(mine[0].dice.values()) == 2
    bt.resolve_combats(fighters, {}, charge=False)
    assert sum(rolled) <= 2


# --------------------------------------------------------------------------- fighter types


def test_a_character_fights_as_itself(ecat, monkeypatch):
    """Seed (Picking the fray and the combat): "A combat is a fight opposing one type of fighters
    to another type". The Templar (DEF 5, RES 6, INI 5, two dice) is attacked at its own DEF and
    strikes at its own ATT and INI, in its own combat, not as one of the conscripts."""
    calls = []
    real = combat_module.contest_cdf

    def spy(table, difference, dice, shift, reroll=""):
        calls.append((difference, dice))
        return real(table, difference, dice, shift, reroll)

    inis = []
    real_ini = combat_module.opposed_chance

    def ini_spy(a, b, ties):
        inis.append((a, b))
        return real_ini(a, b, ties)

    monkeypatch.setattr(combat_module, "contest_cdf", spy)
    monkeypatch.setattr(combat_module, "opposed_chance", ini_spy)
    bt = battle(ecat, army("griffin", ("conscript", 0, "templar")), army("beasts", ("warrior", 10)))
    unit, warriors = bt.sides[0][0], bt.sides[1][0]
    engage(unit, warriors)
    fighters = bt.build_contact([unit, warriors])
    templar_gi = next(i for i, g in enumerate(unit.groups) if g.profile.id == "templar")
    keys = bt.combats_of(fighters)
    assert any(k[1] == templar_gi for k in keys)  # the Templar has a combat of its own
    bt.resolve_combats(fighters, {}, charge=False)
    warrior = warriors.troops.profile
    templar = unit.groups[templar_gi].profile
    assert (templar.ini, warrior.ini) in inis  # its own Initiative test
    assert any(d == warrior.att - templar.def_ for d, _ in calls)  # attacked at DEF 5
    assert any(d == templar.att - warrior.def_ and n == 2 for d, n in calls)  # two dice at ATT 6


def test_losses_are_removed_before_the_other_side_strikes(ecat):
    """Seed (Exchange): "Once all losses have been removed, the other side rolls its attacks"."""
    bt = battle(ecat, army("beasts", ("tyrant", 5)), army("beasts", ("puppet", 5)))
    tyrants, puppets = bt.sides[0][0], bt.sides[1][0]
    engage(tyrants, puppets)
    for g in tyrants.groups:
        g.base = dict(g.base, ini=30)  # the tyrants always strike first
    fighters = bt.build_contact([tyrants, puppets])
    wounds: dict = {}
    bt.resolve_combats(fighters, wounds, charge=False)
    killed = 5 - puppets.count
    alive_in_contact = sum(1 for f in fighters[unit_key(1, 0)] if f.alive and f.touches)
    assert alive_in_contact == 5 - killed
    if puppets.count == 0:
        assert wounds.get((unit_key(1, 0), unit_key(0, 0)), 0) == 0  # nobody was left to strike back


def test_surplus_wounds_spread_on_scattered_and_are_lost_on_close(ecat):
    """Seed (Exchange): surplus Wounds spread over the type's other fighters only if the unit is
    scattered; against a close unit they are lost."""
    for people, profile, scattered in (("griffin", "conscript", False), ("beasts", "warrior", True)):
        bt = battle(ecat, army("beasts", ("tyrant", 1)), army(people, (profile, 12)))
        x, y = bt.sides[0][0], bt.sides[1][0]
        engage(x, y)
        fighters = bt.build_contact([x, y])
        touching = [f for f in fighters[unit_key(1, 0)] if f.touches]
        key = bt.combats_of(fighters)[0]
        killed = bt.wound_type(x, y, 0, 8, touching, key, fighters)
        assert killed == (8 if scattered else len(touching))


def test_initiative_per_combat_with_the_charge_bonus(ecat, monkeypatch):
    """Seed (Initiative test): each combat has its test, +3 for a unit that charged successfully."""
    inis = []
    real = combat_module.opposed_chance
    monkeypatch.setattr(combat_module, "opposed_chance", lambda a, b, t: inis.append((a, b)) or real(a, b, t))
    bt = battle(ecat, army("griffin", ("conscript", 5, "templar")), army("beasts", ("warrior", 10)))
    x, y = bt.sides[0][0], bt.sides[1][0]
    x.charged = x.charge_bonus = True
    bt.fray(x, y)
    assert (2 + 3, 3) in inis and (5 + 3, 3) in inis  # the conscripts' and the Templar's own tests


# --------------------------------------------------------------------------- outcome, morale, rout


@pure_engine_only
def test_outcome_per_pair_and_routed_units_are_never_designated(ecat, monkeypatch):
    """Seed (Outcome of the fray): one morale roll per designated pair; "Units in Rout cannot be
    designated". A unit that lost to two enemies and routs on the first roll is not designated again."""
    rolls = []
    monkeypatch.setattr(Battle, "morale", lambda self, w, lost, f=None: rolls.append(lost.name) or setattr(lost, "state", "rout"))
    bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 5), ("warrior", 5)))
    x, y1, y2 = bt.sides[0][0], bt.sides[1][0], bt.sides[1][1]
    engage(x, y1)
    engage(x, y2)
    pairs = [(unit_key(0, 0), unit_key(1, 0)), (unit_key(0, 0), unit_key(1, 1))]
    wounds = {(unit_key(1, 0), unit_key(0, 0)): 3, (unit_key(1, 1), unit_key(0, 0)): 2}
    bt.fray_outcome(pairs, wounds, bt.build_contact([x, y1, y2]))
    assert rolls == [x.name]


@pure_engine_only
def test_ties_go_to_the_winner_of_the_tactical_roll(ecat, monkeypatch):
    losers = []
    monkeypatch.setattr(Battle, "morale", lambda self, w, lost, f=None: losers.append(lost.side))
    for roll_winner in (0, 1):
        bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 5)))
        bt.winner_of_roll = roll_winner
        bt.fray_outcome([(unit_key(0, 0), unit_key(1, 0))], {(0, 1000): 2, (1000, 0): 2}, {})
    assert losers == [1, 0]


def test_morale_difficulty_by_balance_of_power_and_fear(ecat):
    """Seed (Outcome of the fray table): 1 to 1 → COU (8); 1 to 2 for the loser → 10; a
    frightening winner reads one row lower. 16 conscripts vs 5 Large (10): 1 to 1."""
    bt = battle(ecat, army("griffin", ("conscript", 16)), army("beasts", ("marauder", 5)))
    conscripts, marauders = bt.sides[0][0], bt.sides[1][0]
    assert bt.morale_difficulty(marauders, conscripts) == 10  # 1 to 1, frightening winner: one row lower
    bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("warrior", 10)))
    assert bt.morale_difficulty(bt.sides[1][0], bt.sides[0][0]) == 10  # 5 against 10: 1 to 2


def test_rout_eliminates_the_fighters_in_contact_and_the_others_flee(ecat):
    """Seed (Outcome of the fray, 3): "The fighters in contact with an enemy are immediately
    eliminated, no matter their Wound level. The others flee over MOV x 2 cm"."""
    bt = battle(ecat, army("griffin", ("conscript", 12)), army("beasts", ("warrior", 3)))
    loser, winner = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, loser, winner, 0, y=50.0)
    engage(loser, winner)
    fighters = bt.build_contact([loser, winner])
    touching = sum(1 for f in fighters[unit_key(0, 0)] if f.touches)
    bt.rout(loser, winner, fighters)
    assert loser.count == 12 - touching and loser.state == "rout"
    assert not loser.engaged and not winner.engaged
    # it flees MOV × 2 for its nearest edge, its own (the fighters turn where they stand)
    # (its front edge stayed at y = 50 as it lost fighters; turned about its middle, its new front
    # is its old rear edge, which then runs MOV × 2)
    assert loser.uy == -1.0 and loser.y == pytest.approx(50.0 - loser.depth - 2 * loser.mov, abs=0.1)


def test_routed_unit_rallies_with_a_valiant_commanders_courage(ecat):
    """Seed (Sharing the leadership; Rallying): a unit in the aura of a Valiant commander uses its
    COU and DIS; a routed unit is no exception (the commander, not the unit, must be Valiant)."""
    bt = battle(ecat, army("beasts", ("warrior", 5, "chief"), ("warrior", 5)), army("griffin", ("conscript", 5)))
    chief_unit, routed = bt.sides[0]
    routed.state = "rout"
    stand(bt, routed, chief_unit.x, chief_unit.y + 5 + routed.depth)
    bt.update_leadership()
    chief = next(g.profile for g in chief_unit.groups if g.profile.id == "chief")
    assert routed.cou_value == chief.cou and routed.dis_value == chief.dis
    chief_unit.state = "rout"  # a routed commander shares nothing
    bt.update_leadership()
    assert routed.cou_value == routed.troops.own_cou


def test_commander_in_chief_privilege_and_a_disorganized_chief(ecat):
    """Seed (The Commander-in-Chief's privilege): two dice on Courage and Discipline tests in his
    aura. Seed (Valiantness): only a Valiant unit makes the tactical roll."""
    bt = battle(ecat, army("griffin", ("conscript", 5, "templar"), ("conscript", 5)), army("beasts", ("warrior", 5)))
    cic, near = bt.sides[0]
    stand(bt, near, cic.x, cic.y + 10 + near.depth)
    bt.update_leadership()
    assert cic.best_of == 2 and near.best_of == 2
    cic.state = "disorganized"
    totals = []
    for seed in range(20):
        bt.dice = type(bt.dice)(np.random.default_rng(seed))
        points = bt.tactical_roll()
        totals.append(points[0])
    table = ecat.data.tables.tactical
    assert set(totals) == {table.rows[0].points[min(4, len(table.rows[0].points)) - 1]} or len(set(totals)) == 1
    assert not bt.temporary_cic[0]  # still there: no temporary Commander-in-Chief


def test_push_on_brings_a_free_unit_into_the_fray(ecat):
    """Seed (Push on): units free from any opponent move up to MOV; a close unit loosened by its
    assault re-forms."""
    bt = battle(ecat, army("griffin", ("conscript", 6), ("conscript", 6)), army("beasts", ("warrior", 6)))
    free, busy = bt.sides[0]
    enemy = bt.sides[1][0]
    engage(busy, enemy)
    free.loose = True
    face_off(bt, busy, enemy, 0, x=90.0, y=60.0)
    stand(bt, free, 90.0 - busy.width / 2 - free.width / 2 - 1.0, 56.0)  # beside busy, 4 cm from the enemy's front line
    bt.push_on([free, busy, enemy], {(unit_key(0, 0), unit_key(1, 0)): 1})
    assert enemy.index in free.engaged and not free.loose


def test_a_counter_charge_needs_its_charging_distance(ecat):
    """Seed (Reaction (Counter-charge)): "If the unit is not within charging distance, it is
    disorganized and the other unit charges"."""
    from armybuilder.systems.ragnarok2.engine.field_ai import FieldPolicy

    class CounterCharger(FieldPolicy):
        def reaction(self, b, unit, assailant):
            return "counter-charge"

    outcomes = set()
    for seed in range(40):
        bt = battle(ecat, army("beasts", ("brontops", 3)), army("griffin", ("conscript", 5)), seed)
        bt.policies = (bt.policies[0], CounterCharger())
        riders, conscripts = bt.sides[0][0], bt.sides[1][0]
        conscripts.order = "reaction"
        face_off(bt, riders, conscripts, 25)  # riders charge 30 cm; conscripts reach only 20 cm
        bt.assault(riders)
        assert riders.charged and not conscripts.charged  # the conscripts never charge first
        outcomes.add(conscripts.state)
    assert "disorganized" in outcomes


def test_disengagement_as_the_seed_writes_it(ecat):
    """Seed (Progress (Disengagement)): INI (8) or STR (8) less the lowest RES in contact; a
    success eliminates the fighters engaged on two sides and the rest march away; a failure
    leaves the unit unable to attack in the next combat phase."""
    away = failed = 0
    for seed in range(60):
        bt = battle(ecat, army("griffin", ("conscript", 6)), army("beasts", ("warrior", 3), ("warrior", 3)), seed)
        unit = bt.sides[0][0]
        stand(bt, unit, 90.0, 40.0)
        for k, e in enumerate(bt.sides[1]):
            engage(unit, e)
            stand(bt, e, 90.0 + (k - 0.5) * (e.width + 0.5), 40.0)  # both against its front
        before = unit.count
        bt.disengage(unit)
        if unit.engaged:
            failed += 1
            assert unit.no_attack and unit.count == before
            assert bt.fray(unit, bt.sides[1][0])[0] == 0  # no attack in the combat phase
        else:
            away += 1
            assert unit.y < 40.0 - 1 and not unit.no_attack
            assert unit.count <= before
    assert away and failed
    # Not after being charged this activation phase.
    bt = battle(ecat, army("griffin", ("conscript", 6)), army("beasts", ("warrior", 3)))
    unit = bt.sides[0][0]
    engage(unit, bt.sides[1][0])
    unit.was_charged = True
    bt.disengage(unit)
    assert unit.engaged and not unit.no_attack
