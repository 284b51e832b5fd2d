"""Morpheus Engine dice (ME-D1), exact odds, and whole simulated games."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.cli import main
from armybuilder.core.catalog import catalog_root
from armybuilder.core.lists import load_list
from armybuilder.core.playtest import game_rngs, run_playtest
from armybuilder.systems.morpheus import SYSTEM
from armybuilder.systems.morpheus.army import GodPowerPick, WarClan, Warrior, warrior_cost
from armybuilder.systems.morpheus.engine import battle as B
from armybuilder.systems.morpheus.engine.dice import (
    ME_D1,
    attack_distribution,
    damage_distribution,
    rules_from,
    success_probability,
)

SAMPLES = {p.stem: p for p in Path(str(catalog_root() / "morpheus-ragnarok" / "samples")).glob("*.yaml")}


@pytest.fixture(scope="module")
def clans():
    return {name: load_list(path).army for name, path in SAMPLES.items()}


# --------------------------------------------------------------------------- dice


def test_seed_need_a_7_to_damage_plus_one_on_10_11_12(me_cat):
    rules = rules_from(me_cat)
    assert rules.tn(3, 3) == 7
    damage = damage_distribution(rules, 7)
    assert damage.pmf[0] == pytest.approx(15 / 36)  # 2..6 fail
    assert damage.pmf[1] == pytest.approx(15 / 36)  # 7, 8, 9: 1 Damage
    assert damage.pmf[2] == pytest.approx(6 / 36)  # 10, 11, 12: +1 Damage
    assert len(damage.pmf) == 3
    lethal = damage_distribution(rules, 7, lethal=True)  # every stage: 7 → 1, 8 → 2 ... 12 → 6
    assert [round(p * 36) for p in lethal.pmf] == [15, 6, 5, 4, 3, 2, 1]
    savage = damage_distribution(rules, 7, savage=True)  # every 2 stages: 7,8 → 1; 9,10 → 2; 11,12 → 3
    assert [round(p * 36) for p in savage.pmf] == [15, 11, 7, 3]


def test_me_d1_target_numbers():
    assert ME_D1.tn(5, 2) == 4 and ME_D1.tn(2, 5) == 10
    assert success_probability(ME_D1, 7) == pytest.approx(21 / 36)
    assert success_probability(ME_D1, 2) == pytest.approx(1.0)
    assert success_probability(ME_D1, 13) == 0.0
    assert success_probability(ME_D1, -4) == pytest.approx(1.0)  # no automatic failure on 2 (ME-D1)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(-3, 8), st.integers(-3, 8), st.integers(-2, 8), st.integers(-2, 8), st.integers(1, 6),
    st.sampled_from(["normal", "savage", "lethal"]),
)  # fmt: skip
def test_distributions_sum_to_one(att, df, strength, rs, attacks, kind):
    hits, damage = attack_distribution(ME_D1, ME_D1.tn(att, df), ME_D1.tn(strength, rs), kind == "savage", kind == "lethal", attacks)
    assert math.isclose(hits.total(), 1.0, abs_tol=1e-12)
    assert math.isclose(damage.total(), 1.0, abs_tol=1e-12)
    assert hits.max_value <= attacks
    assert damage.mean() <= hits.mean() * 11 + 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(-2, 14), st.integers(1, 3))
def test_more_strength_never_hurts(tn, step):
    weaker = damage_distribution(ME_D1, tn + 1, step == 2, step == 1)
    stronger = damage_distribution(ME_D1, tn, step == 2, step == 1)
    assert stronger.mean() >= weaker.mean() - 1e-12


def test_odds_command_json(capsys):
    args = ["odds", "morpheus-ragnarok", "--attack", "3", "--defense", "3", "--strength", "3", "--resistance", "3", "--json"]
    assert main(args) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["hit"]["tn"] == 7 and payload["damage_roll"]["tn"] == 7
    assert payload["damage_roll"]["per_hit_pmf"] == pytest.approx([15 / 36, 15 / 36, 6 / 36])
    assert sum(payload["damage"]["pmf"]) == pytest.approx(1.0)
    assert payload["provisional"] == "ME-D1"


def test_odds_modifiers_and_text(me_cat):
    base = SYSTEM.odds(me_cat, {"attack": 3, "defense": 2, "strength": 2, "resistance": 3})
    charged = SYSTEM.odds(me_cat, {"attack": 3, "defense": 2, "strength": 2, "resistance": 3, "charge": True, "overwhelm": True, "attacks": 3, "hp": 2})
    assert charged.payload["damage_roll"]["tn"] == base.payload["damage_roll"]["tn"] - 2
    assert charged.payload["hit"]["tn"] == base.payload["hit"]["tn"] - 1
    assert 0 < charged.payload["removed"] < 1
    assert any("hit on" in line for line in base.lines)
    with pytest.raises(ValueError):
        SYSTEM.odds(me_cat, {"attack": 3, "defense": 2, "strength": 2, "resistance": 3, "damage": "brutal"})


# --------------------------------------------------------------------------- the engine's rolls


def duel(me_cat, clans, seed=0):
    battle = B.Battle(me_cat, clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"], np.random.default_rng(seed))
    jarl, ulf = battle.sides[0][0], battle.sides[1][0]
    battle.place(jarl, 10.0, 10.0)
    battle.place(ulf, 11.2, 10.0)  # base contact
    for f in battle.sides[0][1:] + battle.sides[1][1:]:
        battle.place(f, 40.0 + f.index, 40.0 if f.side else 45.0)
    return battle, jarl, ulf


def test_kept_distances_match_the_positions_after_a_game(me_cat, clans):
    """Battle.place() keeps each model's squared distance to every enemy (what choosing who
    activates and finding who is engaged read): after whole games they still match the
    positions, removed models are infinitely far, and engagement agrees with a full scan."""
    for seed in range(6):
        battle = B.Battle(me_cat, clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"], np.random.default_rng(seed))
        battle.play()
        assert any(f.removed for f in battle.everyone)
        for f in battle.living[0] + battle.living[1]:
            for e in battle.sides[1 - f.side]:
                want = math.inf if e.removed else (f.x - e.x) ** 2 + (f.y - e.y) ** 2
                assert f.d2[e.slot] == want
            limits = battle.engage_limits[f.side][f.index]
            scan = [e for e in battle.sides[1 - f.side] if not e.removed and not e.incapacitated
                    and (f.x - e.x) ** 2 + (f.y - e.y) ** 2 <= limits[e.slot]]  # fmt: skip
            assert battle.engaged_with(f) == scan


def test_sampled_damage_agrees_with_exact(me_cat, clans):
    battle, jarl, ulf = duel(me_cat, clans, seed=11)
    ulfbert = next(w for w in jarl.weapons if w.name == "Ulfbert")
    att, df, kind = battle.hit_value(jarl, ulf, ulfbert)
    strength = battle.strength(jarl, ulf, ulfbert, charge=False)
    assert kind == "lethal" and strength == 3 and ulf.rs == 1 + 2  # scale/chain armour adds 2
    _, exact = attack_distribution(ME_D1, ME_D1.tn(att, df), ME_D1.tn(strength, ulf.rs), lethal=True)
    n = 6000
    counts = np.zeros(16)
    for _ in range(n):
        ulf.hp = 100
        battle.resolve(jarl, ulf, ulfbert)
        counts[100 - ulf.hp] += 1
    for k, p in enumerate(exact.pmf):
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(counts[k] / n - p) <= 4.5 * sigma + 1e-9, (k, counts[k] / n, p)


def test_charge_bonus_brace_and_overwhelm(me_cat, clans):
    battle, jarl, ulf = duel(me_cat, clans)
    great = next(w for w in ulf.weapons if w.name == "Great Weapon")
    assert battle.strength(ulf, jarl, great, charge=True) == great.st + 1
    huskarl = battle.sides[0][1]
    assert huskarl.has("brace")
    assert battle.strength(ulf, huskarl, great, charge=True) == great.st  # Brace: no Charge bonus
    assert battle.overwhelm(jarl, ulf) == 0
    bondi = battle.sides[0][4]
    battle.place(bondi, 11.2, 11.2)  # engaged with Ulf too: sizes 2 + 2 > 2
    assert battle.overwhelm(jarl, ulf) == 2  # +1, and +1 more for the Jarl's Teamwork
    berserker = battle.sides[1][1]
    battle.place(berserker, 10.0, 8.8)
    assert battle.overwhelm(ulf, jarl) == 0  # the Jarl's shield: 2 + 2 is not more than 2 + 2


def test_status_effects(me_cat, clans):
    battle, jarl, ulf = duel(me_cat, clans, seed=3)
    for _ in range(30):
        battle.apply_statuses(jarl, ulf, ["knockdown/6", "shock/8", "fire/2", "ice/1", "restrain/0"], psi=False)
    assert ulf.prone and ulf.shocked and ulf.fire == 2 and ulf.ice == 1 and ulf.restrain == 0
    assert ulf.stat("ma") == ulf.ma - 1 and ulf.speed() < ulf.sp
    ulf.aid = {}
    battle.apply_statuses(jarl, ulf, ["drain/rs/3"] * 20, psi=False)
    assert ulf.drain.get("rs", 0) >= 3
    before = (ulf.x, ulf.y)
    ulf.prone = False
    for _ in range(20):
        battle.apply_statuses(jarl, ulf, ["push/8"], psi=False)
    assert math.hypot(ulf.x - before[0], ulf.y - before[1]) > 1


def test_blast_scatter_and_spray_geometry(me_cat, clans):
    battle, jarl, ulf = duel(me_cat, clans, seed=5)
    for _ in range(50):
        x, y = battle.scatter(jarl, 30.0, 10.0)
        assert math.hypot(x - 30.0, y - 10.0) <= 10.0 + 1e-9  # at most half of the 20" shot
    others = battle.sides[1][1:4]
    for i, o in enumerate(others):
        battle.place(o, 20.0 + 3 * i, 10.0 + 0.5 * (i - 1))
    battle.place(ulf, 18.0, 10.0)
    spray = B.Weapon("breath", 1, 18, False, ("spray/2",))
    line = B.Weapon("bolt", 1, 18, False, ("line",))
    blast = B.Weapon("pot", 1, 18, False, ("blast/3",))
    assert set(battle.area_targets(jarl, ulf, spray)) >= {ulf, *others}
    assert ulf in battle.area_targets(jarl, ulf, line) and others[1] in battle.area_targets(jarl, ulf, line)
    assert {ulf, others[0]} <= set(battle.area_targets(jarl, ulf, blast, 19.0, 10.0))
    far = battle.sides[1][5]
    battle.place(far, 10.0, 40.0)
    assert far not in battle.area_targets(jarl, ulf, spray)


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("first", sorted(SAMPLES))
@pytest.mark.parametrize("second", sorted(SAMPLES))
def test_samples_play_full_games(me_cat, clans, first, second):
    for seed in range(3):
        record = SYSTEM.play_game(me_cat, clans[first], clans[second], np.random.default_rng(seed), log=seed == 0)
        assert record.winner in (0, 1, None)
        assert 1 <= record.rounds <= 6
        assert len(record.units) == len(clans[first].warriors) + len(clans[second].warriors)
        removed = [sum(u.points for u in record.units if u.side == s and not u.survived) for s in (0, 1)]
        assert record.scores == (removed[1], removed[0])
        assert sum(u.eliminated_points for u in record.units) <= sum(removed) + 1e-9
        if seed == 0:
            assert record.log and record.log[-1].startswith("result:")


def test_the_share_of_the_enemy_glory_taken_decides(me_cat, clans):
    battle, jarl, ulf = duel(me_cat, clans)
    wolves = battle.sides[1]
    total = [sum(f.cost for f in battle.sides[s]) for s in (0, 1)]
    battle.remove(wolves[4], jarl, "test")  # a Bondi: its whole Glory
    wolves[1].hp = wolves[1].hp_max - 1  # a wounded Berserker: the part of its HP lost
    taken = wolves[4].cost + wolves[1].cost * 1 / wolves[1].hp_max
    assert battle.shares() == pytest.approx((100 * taken / total[1], 0.0))
    battle.remove(jarl, ulf, "test")  # the Ravens' Jarl: the Wolves' share of the Ravens' Glory
    assert battle.shares()[1] == pytest.approx(100 * jarl.cost / total[0])


def test_a_full_clan_clearly_beats_a_copy_cut_by_a_fifth(me_cat, clans):
    """Scoring by the share of each side's Glory removed: a clan that exposes less Glory
    because it is smaller does not win for that (by absolute Glory it did as well)."""
    full = clans["wolves-of-the-fjord"]
    cut = full.model_copy(deep=True)
    del cut.warriors[4]  # a Bondi (65 Glory)
    del cut.warriors[1]  # a Berserker (95): 160 of 765 Glory gone, about a fifth
    glory = [sum(warrior_cost(me_cat, w) for w in clan.warriors) for clan in (full, cut)]
    assert 0.18 <= 1 - glory[1] / glory[0] <= 0.22
    games = 300
    score = 0.0
    for rng in game_rngs(3, 0, games):
        winner = SYSTEM.play_game(me_cat, full, cut, rng).winner
        score += 1.0 if winner == 0 else 0.5 if winner is None else 0.0
    assert score / games >= 0.65


def test_games_are_reproducible_and_log_does_not_change_them(me_cat, clans):
    a, b = clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"]
    one = SYSTEM.play_game(me_cat, a, b, np.random.default_rng(42), log=True)
    two = SYSTEM.play_game(me_cat, a, b, np.random.default_rng(42), log=False)
    assert (one.winner, one.rounds, one.scores) == (two.winner, two.rounds, two.scores)
    assert one.log == SYSTEM.play_game(me_cat, a, b, np.random.default_rng(42), log=True).log


def test_same_result_with_one_and_two_workers(clans):
    a, b = clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"]
    one = run_playtest(a, b, games=6, seed=7, workers=1)
    two = run_playtest(a, b, games=6, seed=7, workers=2)
    assert one.as_json() == two.as_json()
    assert one.games == 6


def test_playtest_command(capsys):
    path = str(SAMPLES["ravens-of-hrafnsey"])
    assert main(["playtest", path, "--vs", "wolves-of-the-fjord", "--games", "4", "--seed", "1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["games"] == 4 and payload["wins"] + payload["draws"] + payload["losses"] == 4
    assert {u["side"] for u in payload["units"]} == {"list", "opponent"}
    assert main(["playtest", path, "--vs", "wolves-of-the-fjord", "--games", "2", "--seed", "1"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "(795 Glory) vs Wolves of the Fjord (765 Glory)" in head  # the system's unit, not "pts"


def test_unknown_entries_do_not_break_a_game(me_cat, clans):
    broken = clans["wolves-of-the-fjord"].model_copy(deep=True)
    broken.warriors[1].type = "troll"
    broken.warriors[2].equipment.append("laser")
    record = SYSTEM.play_game(me_cat, clans["ravens-of-hrafnsey"], broken, np.random.default_rng(0))
    assert len(record.units) == len(broken.warriors) - 1 + len(clans["ravens-of-hrafnsey"].warriors)


def test_every_god_power_can_be_used(me_cat, clans):
    for power in me_cat.data.god_powers:
        battle, jarl, ulf = duel(me_cat, clans, seed=2)
        battle.godspark[0] = 20
        jarl.ap_left = 3
        jarl.hp = 1
        battle.use_power(jarl, power, ulf if power.attack is not None and "self" not in power.attack.abilities else None)
        assert battle.godspark[0] <= 20 - power.godspark and jarl.ap_left == 2
        assert power.id in battle.powers_used[0]
    battle, jarl, ulf = duel(me_cat, clans)
    battle.godspark[0] = 20
    jarl.ap_left = 3
    battle.use_power(jarl, me_cat.get("god_powers", "stride-of-1000-leagues"))
    assert jarl.speed() == jarl.sp + 5
    battle.use_power(jarl, me_cat.get("god_powers", "thunderous-blows"))
    assert "shock/0" in battle.attack_refs(jarl, jarl.weapons[0]) or "shock/1" in battle.attack_refs(jarl, jarl.weapons[0])
    jarl.hp = 1
    battle.use_power(jarl, me_cat.get("god_powers", "touch-of-life"))
    assert jarl.hp == 2


def random_clan(cat, rng) -> WarClan:

    types = [t.id for t in cat.data.warriors if not t.jarl]
    weapons = [w.id for w in cat.data.weapons]
    warriors = [Warrior(type="jarl", jarl=True)]
    for _ in range(int(rng.integers(6, 12))):
        warriors.append(Warrior(type=str(rng.choice(types))))
    for w in warriors:
        w.equipment = [str(x) for x in rng.choice(weapons, size=int(rng.integers(0, 4)), replace=False)]
        if rng.random() < 0.6:
            w.equipment.append(str(rng.choice([a.id for a in cat.data.armour])))
        if rng.random() < 0.4:
            w.equipment.append("shield")
    powers = rng.choice([p.id for p in cat.data.god_powers], size=int(rng.integers(0, 4)), replace=False)
    return WarClan(catalogue="1.0.0", format="800-glory", warriors=warriors, god_powers=[GodPowerPick(power=str(p)) for p in powers])


@pytest.mark.parametrize("seed", range(12))
def test_random_clans_play_without_error(me_cat, seed):
    rng = np.random.default_rng(1000 + seed)
    a, b = random_clan(me_cat, rng), random_clan(me_cat, rng)
    record = SYSTEM.play_game(me_cat, a, b, np.random.default_rng(seed), log=True)
    assert record.winner in (0, 1, None) and 1 <= record.rounds <= 6
    assert record.scores[0] >= 0 and record.scores[1] >= 0


def test_warrior_against_warrior_odds(me_cat, clans):
    ravens, wolves = clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"]
    units = SYSTEM.odds_units(ravens, me_cat)
    assert [c.value for c in units] == list(range(len(ravens.warriors)))
    params = SYSTEM.unit_odds_params(me_cat, ravens, 0, wolves, 1)  # Ulfbert Jarl against a Berserker
    assert params == {**params, "attack": 3, "defense": 1, "strength": 3, "resistance": 2, "damage": "lethal", "hp": 2}
    back = SYSTEM.unit_odds_params(me_cat, wolves, 1, ravens, 0)  # Great Weapon, Rapid Attack, into heavy armour
    assert back["attacks"] == 3 and back["resistance"] == 1 + 3 and back["strength"] == 3
    result = SYSTEM.odds(me_cat, params)
    assert 0 < result.payload["removed"] < 1


def test_a_fresh_fighter_copies_every_field_with_its_own_game_state(me_cat, clans):
    """Fighter.fresh() names every field by hand (for speed): a field added without its line
    there would be missing, or shared with the template, in play."""
    from dataclasses import fields

    battle = B.Battle(me_cat, clans["ravens-of-hrafnsey"], clans["wolves-of-the-fjord"], np.random.default_rng(1))
    battle.play()
    for template in battle.everyone:
        copy = template.fresh()
        for field in fields(B.Fighter):
            mine, theirs = getattr(copy, field.name), getattr(template, field.name)
            if field.name in ("focus", "aid", "drain", "temp", "next_attack", "next_melee", "used_weapons"):
                assert mine == type(theirs)() and mine is not theirs, field.name  # the game's own, empty
            elif field.name == "d2":
                assert mine == theirs and mine is not theirs
            else:
                assert mine == theirs, field.name
