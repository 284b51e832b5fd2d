"""Rag'Narok 2 combat rules of the battle engine, with the seed's worked examples."""

from __future__ import annotations

import numpy as np
import pytest
from r2engine_data import build_catalogue
from r2native import pure_engine_only
from r2table import face_off, stand

from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit
from armybuilder.systems.ragnarok2.engine import battle as b
from armybuilder.systems.ragnarok2.engine import combat as combat_module
from armybuilder.systems.ragnarok2.engine.battle import (
    Battle,
    aim_difficulty,
    allocate_wounds,
    balance_of_power,
    combat_dice,
    row_value,
    wound_levels,
)
from armybuilder.systems.ragnarok2.engine.combat import engage
from armybuilder.systems.ragnarok2.engine.dice import die_successes, score_faces
from armybuilder.systems.ragnarok2.engine.odds import combat_odds, contest_columns


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2engine"))


def army(people: str, *units, tactics=(), rituals=(), communions=()) -> R2List:
    built = []
    for spec in units:
        profile, count, *members = spec
        built.append(
            Unit(
                troops=Troops(profile=profile, count=count) if count else None,
                members=[Member(profile=m, commander_in_chief=(m in ("templar", "chief"))) for m in members],
            )
        )
    return R2List(
        catalogue="1.0.0", format="1000-ap", name="t", people=people, units=built,
        tactics=list(tactics), rituals=list(rituals), communions=list(communions),
    )  # fmt: skip


def battle(ecat, first, second, seed=0) -> Battle:
    return Battle(ecat, first, second, np.random.default_rng(seed), table="open")


def test_combat_dice_and_wound_levels(ecat):
    get = lambda pid: ecat.get("profiles", pid)  # noqa: E731
    assert combat_dice(get("conscript")) == 1
    assert combat_dice(get("brontops")) == 2  # Large and worth 60 A.P.
    assert combat_dice(get("tyrant")) == 1  # Large but worth 45 A.P.
    assert combat_dice(get("templar")) == 2  # a Character
    assert combat_dice(get("tyrant"), cost=50) == 2
    data = ecat.data
    assert [wound_levels(data, get(p)) for p in ("conscript", "marauder", "templar")] == [1, 2, 4]


def test_contest_table_is_read_from_the_catalogue(ecat):
    cols = contest_columns(ecat)
    assert [c.notation for c in cols] == ["6*", "6", "5+", "4+", "3+", "2+", "2+/5", "2+/4", "2+/3"]


def test_worked_example_conscripts_against_morbid_puppets(ecat):
    """Six conscripts (ATT 2) attack puppets (DEF 0): column 2+; seven Wound rolls are possible."""
    result = combat_odds(ecat, {"attack": 2, "defense": 0, "strength": 3, "resistance": 2, "dice": 6})
    attacks = result.payload["attacks"]
    assert attacks["column"] == "+2..+3"
    col = contest_columns(ecat)[5]
    # The seed's dice read on the catalogue's column: 1, 3, 4, 5, 6, 6; the sixes re-roll 1 and 6;
    # that 6 re-rolls a 3: seven Wound rolls.
    assert score_faces(col, [1, 3, 4, 5, 6, 6] + [1, 6] + [3]) == 7
    assert attacks["mean"] == pytest.approx(6 * die_successes(col).mean())
    assert sum(attacks["pmf"][7:]) > 0.0


def test_worked_example_tyrant_of_vile_tis(ecat):
    """STR 11 vs RES 6: column +4/+7 (2+/5); 2 and 5 then a re-rolled 2 make three Wounds."""
    result = combat_odds(ecat, {"attack": 5, "defense": 3, "strength": 11, "resistance": 6, "dice": 2})
    assert result.payload["wounds"]["column"] == "+4..+7"
    col = contest_columns(ecat)[6]
    assert col.notation == "2+/5"
    assert score_faces(col, [2, 5, 2]) == 3


def test_worked_example_asadars_wound_allocation(ecat):
    """Four Wounds on four marauders of Vile-Tis (2 Wound levels): two eliminated, not four wounded."""
    bt = battle(ecat, army("griffin", ("asadar", 6)), army("beasts", ("marauder", 4)))
    marauders = bt.sides[1][0]
    assert marauders.troops.wound_levels == 2
    killed = bt.deal(bt.sides[0][0], marauders, 4, in_contact=4, scattered=True)
    assert killed == 2 and marauders.count == 2 and marauders.troops.damage == 0
    assert bt.scores[0] == 2 * 30


def test_wounds_finish_the_wounded_first_and_surplus_close_vs_scattered(ecat):
    bt = battle(ecat, army("griffin", ("asadar", 6)), army("beasts", ("marauder", 4)))
    g = bt.sides[1][0].troops
    killed, _, lost = allocate_wounds([g], 3, in_contact=4, scattered=True)
    assert killed == 1 and g.damage == 1 and lost == 0
    killed, _, lost = allocate_wounds([g], 1, in_contact=4, scattered=True)
    assert killed == 1 and g.damage == 0  # the wounded one is finished first
    # Surplus Wounds: against a close unit only the fighters in contact can fall.
    conscripts = battle(ecat, army("griffin", ("conscript", 12)), army("beasts", ("warrior", 12))).sides[0][0]
    killed, _, lost = allocate_wounds(conscripts.groups, 8, in_contact=5, scattered=False)
    assert (killed, lost) == (5, 3)
    warriors = battle(ecat, army("griffin", ("conscript", 12)), army("beasts", ("warrior", 12))).sides[1][0]
    killed, _, lost = allocate_wounds(warriors.groups, 8, in_contact=5, scattered=True)
    assert (killed, lost) == (8, 0)


def test_worked_example_balance_of_power(ecat):
    """16 conscripts (16) against 5 brontops riders (10): 1 to 1; 20 conscripts: 2 to 1."""
    bt = battle(ecat, army("griffin", ("conscript", 16), ("conscript", 20)), army("beasts", ("brontops", 5)))
    c16, c20 = bt.sides[0]
    riders = bt.sides[1][0]
    assert (c16.power(), c20.power(), riders.power()) == (16, 20, 10)
    assert balance_of_power(c16.power(), riders.power()) == 1
    assert balance_of_power(c20.power(), riders.power()) == 2
    assert balance_of_power(riders.power(), c20.power()) == -2
    assert balance_of_power(10, 31) == -3 and balance_of_power(100, 1) == 3
    # A close unit doubles its Power when it charges or is charged.
    assert c16.power(charging=True) == 32 and riders.power(charged=True) == 10


def test_outcome_of_the_fray_row_and_one_row_lower_for_frightening_winner(ecat):
    rows = ecat.data.tables.outcome_of_fray
    assert [row_value(rows, r) for r in (3, 2, 1, -2, -3)] == [4, 6, 8, 10, 12]
    assert row_value(rows, 1, lower=1) == 10 and row_value(rows, -3, lower=1) == 12
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 10), ("marauder", 5)))
    conscripts = bt.sides[0][0]
    warriors, marauders = bt.sides[1]
    assert bt.morale_difficulty(warriors, conscripts) == 8  # 10 vs 10, nobody frightening
    assert bt.morale_difficulty(marauders, conscripts) == 10  # frightening winner: one row lower
    assert bt.morale_difficulty(conscripts, marauders) == 8  # a frightening loser reads normally


def test_fear_test_uses_balance_of_power_modifier(ecat):
    bt = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("brontops", 5)))
    conscripts, riders = bt.sides[0][0], bt.sides[1][0]
    bt.update_leadership()
    assert bt.needs_courage_test(conscripts, riders) and not bt.needs_courage_test(riders, conscripts)
    # Riders (10, charged) against conscripts (5, close and charging: doubled to 10): 1 to 1, modifier 0:
    # COU 4 - FEAR 6 = -2, column 4+: success on 4, 5, 6.
    rng_hits = [bt.courage_test(conscripts, riders, True) for _ in range(1)]
    assert rng_hits  # runs
    from armybuilder.systems.ragnarok2.engine.dice import fear_test_success

    assert fear_test_success(contest_columns(ecat), 4 - 6) == pytest.approx(0.5)
    hits = 0
    for seed in range(2000):
        bt2 = battle(ecat, army("griffin", ("conscript", 5)), army("beasts", ("brontops", 5)), seed)
        bt2.update_leadership()
        bt2.sides[0][0].best_of = 1
        hits += bt2.courage_test(bt2.sides[0][0], bt2.sides[1][0], True)
    assert abs(hits / 2000 - 0.5) < 0.05
    # Immunity: after a success the same FEAR is passed automatically.
    conscripts.immune_fear = 6
    assert bt.courage_test(conscripts, riders, True)


def test_aim_difficulty_by_band_and_modifiers(ecat):
    data = ecat.data
    assert [aim_difficulty(data, band, "medium") for band in ("short", "medium", "long")] == [4, 7, 10]
    assert aim_difficulty(data, "medium", "large") == 6
    assert aim_difficulty(data, "medium", "colossal", moved=True, partial=True) == 7


def test_worked_example_fusiliers_volleys(ecat):
    """A Support order on fusiliers with a Darkness hunter: each kind of marksman rolls its volley."""
    bt = battle(ecat, army("griffin", ("fusilier", 10, "hunter")), army("beasts", ("warrior", 20)))
    bt.logging = True
    shooters, target = bt.sides[0][0], bt.sides[1][0]
    face_off(bt, shooters, target, 15)  # short range for the arquebuses, medium for the pistol
    bt.update_leadership()
    shooters.order = "support"
    bt.activate(shooters)
    volleys = [line for line in bt.lines if "shoots" in line]
    assert len(volleys) == 2
    assert "Griffin fusilier" in volleys[0] and "short range" in volleys[0] and "difficulty 4" in volleys[0]
    assert "Darkness hunter" in volleys[1] and "medium range" in volleys[1] and "difficulty 7" in volleys[1]
    assert target.count < 20
    # Crossbowmen example: three Wounds but only two visible targets -> two eliminated, one lost.
    victims = battle(ecat, army("griffin", ("fusilier", 9)), army("beasts", ("warrior", 10))).sides[1][0]
    assert allocate_wounds(victims.groups, 3, in_contact=2, scattered=False)[::2] == (2, 1)


def test_shooting_losses_of_half_force_a_morale_test(ecat):
    routed = 0
    for seed in range(200):
        bt = battle(ecat, army("griffin", ("fusilier", 10)), army("beasts", ("warrior", 4)), seed)
        bt.update_leadership()
        target = bt.sides[1][0]
        for g in target.groups:
            g.count = 2
        target.recount()
        bt.shooting_morale(target, 4)
        routed += target.state == "rout"
    from armybuilder.systems.ragnarok2.engine.dice import test_success_probability

    p_fail = 1 - test_success_probability(5, 8)  # COU 5, difficulty 8 (scattered: no DIS)
    assert abs(routed / 200 - p_fail) < 0.12


def test_a_charge_at_no_less_power_gives_the_bonus_and_loosens_a_close_unit(ecat):
    """Seed (Assault (Charge)): a successful charge gives +3 on the Initiative tests "if the
    Power of the assailing unit is higher or equal to the Power of the assailed unit" (the
    specific rule; the Initiative test section repeats the +3 without it). Seed (Orientation at
    the end of a move): "A unit in close formation changes to scattered formation during an
    assault"."""
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 12), ("warrior", 3)))
    conscripts = bt.sides[0][0]
    big = bt.sides[1][0]
    bt.update_leadership()
    assert conscripts.close
    face_off(bt, conscripts, big, 5)
    bt.resolve_assault(conscripts, big, "charge")
    assert conscripts.charged and big.index in conscripts.engaged
    assert not conscripts.close and conscripts.current_formation == "scattered"
    assert conscripts.charge_bonus == (conscripts.power(True) >= big.power(False, True))
    bt2 = battle(ecat, army("beasts", ("warrior", 5)), army("beasts", ("warrior", 12)))
    bt2.update_leadership()
    weak, strong = bt2.sides[0][0], bt2.sides[1][0]
    face_off(bt2, weak, strong, 5)
    assert weak.power(True) < strong.power(False, True)
    bt2.resolve_assault(weak, strong, "charge")  # 5 warriors charge 12: in contact, but no bonus
    assert weak.charged and not weak.charge_bonus
    bt3 = battle(ecat, army("beasts", ("warrior", 12)), army("beasts", ("warrior", 12)))
    bt3.update_leadership()
    face_off(bt3, bt3.sides[0][0], bt3.sides[1][0], 5)
    bt3.resolve_assault(bt3.sides[0][0], bt3.sides[1][0], "charge")  # equal Power: the bonus
    assert bt3.sides[0][0].charged and bt3.sides[0][0].charge_bonus


def test_charge_bonus_adds_three_to_initiative(ecat, monkeypatch):
    seen = []
    real = b.opposed_chance

    def spy(a, c, ties):
        seen.append((a, c))
        return real(a, c, ties)

    monkeypatch.setattr(combat_module, "opposed_chance", spy)
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 10)))
    x, y = bt.sides[0][0], bt.sides[1][0]
    x.charged = x.charge_bonus = True
    x.engaged, y.engaged = {0}, {0}
    bt.fray(x, y)
    assert seen[0] == (2 + 3, 3)
    seen.clear()
    bt.fray(x, y, implacable=True)  # a push-on combat: no charge bonus (seed: Implacable fighters)
    assert seen[0] == (2, 3)


@pure_engine_only
def test_extra_exchanges_only_for_fighters_with_them(ecat, monkeypatch):
    """Seed (Extra exchanges): only the fighters with an extra exchange attack, one die each,
    and only those that used a die in the combat and are still in contact."""
    calls = []
    real = Battle.exchange

    def spy(self, striker, target, key, fighters, wounds, lowered, extra_round):
        out = real(self, striker, target, key, fighters, wounds, lowered, extra_round)
        calls.append((striker[0].name, extra_round, out))
        return out

    monkeypatch.setattr(Battle, "exchange", spy)
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 10)))
    x, y = bt.sides[0][0], bt.sides[1][0]
    x.round_effects["war-fury"] = 1  # e.g. Igneous galvanisation
    x.engaged, y.engaged = {0}, {0}
    bt.fray(x, y)
    assert [c for c in calls if not c[1]] and [c[0] for c in calls if c[1]] == [x.name]


def test_lost_fray_routs_kills_those_in_contact_and_flees(ecat):
    fled = 0
    for seed in range(40):
        bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("marauder", 6)), seed)
        bt.update_leadership()
        loser, winner = bt.sides[0][0], bt.sides[1][0]
        face_off(bt, loser, winner, 0)
        engage(loser, winner, 0, 0)
        before = loser.count
        start_y = loser.y
        fighters = bt.build_contact([loser, winner])
        touching = sum(1 for f in fighters[0] if f.touches)
        bt.morale(winner, loser, fighters)
        if loser.state in ("rout", "gone"):
            fled += 1
            assert loser.count <= before - min(before, touching) or loser.state == "gone"
            assert not loser.engaged
            if loser.state == "rout":
                assert loser.y < start_y - 10  # fled towards its edge
    assert fled > 0


def test_the_ais_expected_damage_follows_losses_in_this_game_only(ecat):
    """The AI's memo of expected damage is shared by the games of a playtest while a unit is whole;
    losses (even ones that empty no group) must renew it, and never leak into the next game."""
    first, second = army("griffin", ("conscript", 10)), army("beasts", ("brute", 6))
    bt = battle(ecat, first, second)
    u, foe = bt.sides[0][0], bt.sides[1][0]
    whole = bt.expected_damage(u, foe)
    assert whole > 0
    assert bt.deal(foe, u, 4, in_contact=u.count, scattered=True) == 4  # 4 of 10 fall, the group lives
    assert bt.expected_damage(u, foe) == pytest.approx(whole * 6 / 10)
    nxt = battle(ecat, first, second, seed=1)  # the next game of the playtest starts whole again
    assert nxt.expected_damage(nxt.sides[0][0], nxt.sides[1][0]) == pytest.approx(whole)


def test_flight_off_the_table_eliminates(ecat):
    bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 10)))
    u = bt.sides[0][0]
    u.state = "rout"
    stand(bt, u, 90, 6)
    bt.flee(u)
    assert u.state == "gone" and bt.scores[1] == 80


def test_rallying_uses_the_best_of_courage_and_discipline(ecat):
    rallied = 0
    for seed in range(400):
        bt = battle(ecat, army("griffin", ("conscript", 10)), army("beasts", ("warrior", 10)), seed)
        bt.update_leadership()
        u = bt.sides[0][0]
        u.best_of = 1
        u.state = "rout"
        bt.rally()
        rallied += u.state == "valiant"
    from armybuilder.systems.ragnarok2.engine.dice import test_success_probability

    assert abs(rallied / 400 - test_success_probability(4, 8)) < 0.08


def test_tactical_roll_reads_the_table_by_rank_and_routed_cic_fails(ecat):
    first = army("griffin", ("conscript", 10, "templar"))
    bt = battle(ecat, first, army("beasts", ("warrior", 10, "chief")))
    bt.update_leadership()
    points = bt.tactical_roll()
    assert all(p >= 0 for p in points)
    # Living legend (category 4) never gets fewer than 3 points; the chief (category 2) at least 1.
    assert points[0] >= 3 and points[1] >= 1
    bt.sides[0][0].state = "rout"
    assert bt.tactical_roll()[0] == 3  # automatic failure: the "Failure" row, column 4


def test_tactics_cons_only_for_rank_one_units(ecat):
    bt = battle(ecat, army("griffin", ("conscript", 10, "templar"), ("asadar", 6), tactics=["brutality"]), army("beasts", ("warrior", 10)))
    bt.update_leadership()
    for u in bt.sides[0]:
        u.order = "assault"
    bt.buy_and_give_tactics([4, 0])
    holders = [u for u in bt.sides[0] if u.tactic_name]
    assert len(holders) == 1
    u = holders[0]
    assert u.tactic.get("attack_shift") == 1
    assert ("defense" in u.tactic) == (u.rank_category == 1)


def _reference_allocation(groups, wounds, in_contact, scattered):
    """The plain greedy of the seed, one fighter at a time (reference for the fast paths)."""
    killed, reach = 0, in_contact
    while wounds > 0:
        live = [g for g in groups if g["count"] > 0]
        if not live or (reach <= 0 and not scattered):
            break
        g = min(live, key=lambda g: (g["wl"] - g["damage"], g["character"]))
        need = g["wl"] - g["damage"]
        if wounds >= need:
            wounds -= need
            g["count"] -= 1
            g["damage"] = 0
            killed += 1
            reach -= 1
        else:
            g["damage"] += wounds
            wounds = 0
    return killed, wounds


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(1, 4), st.integers(0, 3), st.booleans()), min_size=1, max_size=3),
    st.integers(0, 40),
    st.integers(0, 12),
    st.booleans(),
)
def test_wound_allocation_fast_paths_match_the_plain_greedy(ecat, specs, wounds, in_contact, scattered):
    profile = ecat.get("profiles", "conscript")
    from armybuilder.systems.ragnarok2.engine.abilities import traits_of

    groups = [
        b.Group(profile, count, wl, 1, character, 10, 1, traits_of(()), damage=min(damage, wl - 1))
        for count, wl, damage, character in specs
    ]
    ref = [{"count": g.count, "wl": g.wound_levels, "damage": g.damage if g.count else 0, "character": g.character} for g in groups]
    for g, r in zip(groups, ref, strict=True):
        g.damage = r["damage"]
    killed, per_group, lost = allocate_wounds(groups, wounds, in_contact, scattered)
    ref_killed, ref_lost = _reference_allocation(ref, wounds, in_contact, scattered)
    assert (killed, lost) == (ref_killed, ref_lost)
    assert [g.count for g in groups] == [r["count"] for r in ref]
    assert [g.damage for g in groups] == [r["damage"] for r in ref]
    assert sum(n for _, n in per_group) == killed
