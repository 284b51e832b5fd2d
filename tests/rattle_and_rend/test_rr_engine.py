"""Rattle and Rend engine: exact check and attack odds, sampling, whole games, reproducibility."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.lists import parse_list
from armybuilder.core.playtest import run_playtest
from armybuilder.systems.rattle_and_rend.army import Group, RRList
from armybuilder.systems.rattle_and_rend.engine.dice import (
    BREAK,
    CRITICAL,
    DEFY,
    FAIL,
    MISS,
    STAND,
    SUCCESS,
    attack,
    check_probabilities,
    dice_count,
    outcome_of,
)
from armybuilder.systems.rattle_and_rend.engine.game import Game, play_game

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "catalog" / "rattle-and-rend" / "samples"
NAMES = ("vampire-court", "dwarven-throng", "ogrekin-hunting-party")
#: the reactions a side declares (Reversal is answered, not declared)
REACTIONS = {"intimidate", "detonate", "suppression", "evade", "follow", "pursuit", "countercharge", "regroup",
             "confusion", "sacrifice", "defiance", "vengeance", "rally"}


def sample(name):
    return parse_list((SAMPLES / f"{name}.yaml").read_text(), name).army


def enumerate_check(stat: int, dice: int) -> list[float]:
    """Independent computation: every face combination of ``dice`` d20s, counted."""
    counts = [0, 0, 0]
    for faces in itertools.product(range(1, 21), repeat=dice):
        counts[outcome_of(list(faces), stat)] += 1
    total = 20**dice
    return [c / total for c in counts]


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("stat", [1, 2, 8, 10, 11, 13, 16, 20, 21])
def test_check_matches_enumeration(stat, dice):
    assert np.allclose(check_probabilities(stat, dice), enumerate_check(stat, dice), atol=1e-12)


def test_seed_statements():
    # "Rolling high means lower stats are better"; one die never criticals.
    assert check_probabilities(10, 2)[FAIL] < check_probabilities(13, 2)[FAIL]
    assert check_probabilities(11, 1)[CRITICAL] == 0.0
    # Standard checks roll 2d20, penalties 1d20, bonuses 3d20, both together cancel.
    assert (dice_count(0, 0), dice_count(0, 3), dice_count(2, 0), dice_count(1, 3)) == (2, 1, 3, 2)
    # Fighters (Fury 11+) at 2d20: one die in two hits, so a critical needs both: 1/4.
    assert check_probabilities(11, 2) == pytest.approx((0.25, 0.5, 0.25))


@settings(max_examples=60, deadline=None)
@given(stat=st.integers(1, 21), dice=st.integers(1, 3))
def test_check_distribution_sums_to_one_and_bonus_helps(stat, dice):
    probs = check_probabilities(stat, dice)
    assert sum(probs) == pytest.approx(1.0)
    assert min(probs) >= 0
    if dice < 3:
        assert check_probabilities(stat, dice + 1)[FAIL] <= probs[FAIL] + 1e-15


@settings(max_examples=80, deadline=None)
@given(
    fury=st.integers(1, 21),
    will=st.integers(1, 21),
    fd=st.integers(1, 3),
    wd=st.integers(1, 3),
    poisoned=st.booleans(),
)
def test_attack_distribution_sums_to_one_and_matches_composition(fury, will, fd, wd, poisoned):
    cd = max(1, wd - 1) if wd != 3 else 2  # a penalty on a critical: 3 -> 2 (cancels a bonus), 2 -> 1
    dist = attack(fury, fd, will, wd, cd, poisoned, 1)
    pmf = [float(dist.pmf[k]) if k < len(dist.pmf) else 0.0 for k in range(4)]
    assert sum(pmf) == pytest.approx(1.0)
    f = enumerate_check(fury, fd)
    w1, w2 = enumerate_check(will, wd), enumerate_check(will, cd)
    if poisoned:
        r = enumerate_check(will, 1)
        w1 = [w1[0] + w1[2] * r[0], w1[1] + w1[2] * r[1], w1[2] * r[2]]
        w2 = [w2[0] + w2[2] * r[0], w2[1] + w2[2] * r[1], w2[2] * r[2]]
    expected = [f[0], f[1] * w1[2] + f[2] * w2[2], f[1] * w1[1] + f[2] * w2[1], f[1] * w1[0] + f[2] * w2[0]]
    assert np.allclose(pmf, expected, atol=1e-12)


def test_sampled_frequencies_agree_with_exact():
    rng = np.random.default_rng(7)
    n = 200_000
    fury, will = 11, 13
    faces = rng.integers(1, 21, size=(n, 2))
    hits = (faces >= fury).sum(axis=1)
    fury_result = np.where(hits >= 2, CRITICAL, np.where(hits == 1, SUCCESS, FAIL))
    will_faces = rng.integers(1, 21, size=(n, 2))
    will_faces[fury_result == CRITICAL, 1] = 0  # a penalty: one die only
    will_hits = (will_faces >= will).sum(axis=1)
    outcome = np.where(
        fury_result == FAIL, MISS, np.where(will_hits >= 2, DEFY, np.where(will_hits == 1, STAND, BREAK))
    )
    freq = np.bincount(outcome, minlength=4) / n
    exact = attack(fury, 2, will, 2, 1).pmf
    sd = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(freq - exact) < 5 * sd + 1e-9)


def test_odds_command_json(system, cat):
    result = system.odds(cat, {"mode": "attack", "attacker": "fighters", "target": "shooters"})
    outcome = result.payload["outcome"]
    # Fury 11+ on 2d20 against Will 13+: break = 1/2 * 0.36 + 1/4 * 0.6
    assert outcome["break"] == pytest.approx(0.33)
    assert outcome["defy"] == pytest.approx(0.08)
    assert sum(outcome[k] for k in ("miss", "defy", "stand_firm", "break")) == pytest.approx(1.0) == sum(outcome["pmf"])
    out = subprocess.run(
        [sys.executable, "-m", "armybuilder", "odds", "rattle-and-rend", "--mode", "check", "--stat", "12", "--penalty", "1", "--json"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["dice"] == 1 and payload["success"] == pytest.approx(0.45) and payload["critical"] == 0.0


@pytest.mark.parametrize(("first", "second"), list(itertools.product(NAMES, NAMES)))
def test_sample_warbands_play_whole_games(cat, first, second):
    for seed in range(3):
        record = play_game(cat, sample(first), sample(second), np.random.default_rng(seed))
        assert record.winner in (0, 1, None)
        assert record.rounds >= 1
        assert {u.side for u in record.units} == {0, 1}
        for side in (0, 1):  # a side's score is the points its groups removed
            assert record.scores[side] == sum(u.eliminated_points for u in record.units if u.side == side)


def test_every_scenario_and_deployment_is_played(cat):
    seen_scenarios, seen_deployments = set(), set()
    a, b = sample("vampire-court"), sample("dwarven-throng")
    for seed in range(60):
        game = Game(cat, a, b, np.random.default_rng(seed), False)
        record = game.play()
        seen_scenarios.add(game.scenario)
        seen_deployments.add(game.deployment)
        assert record.winner in (0, 1, None)
    assert seen_scenarios == {s.id for s in cat.data.scenarios}
    assert seen_deployments == {d.id for d in cat.data.deployments}


def test_same_seed_same_game(cat):
    a, b = sample("ogrekin-hunting-party"), sample("vampire-court")
    one = play_game(cat, a, b, np.random.default_rng(11), log=True)
    two = play_game(cat, a, b, np.random.default_rng(11), log=True)
    assert one.log == two.log and one.winner == two.winner
    assert any("attacks" in line for line in one.log)


def test_playtest_reproducible_across_worker_counts():
    a, b = sample("vampire-court"), sample("dwarven-throng")
    one = run_playtest(a, b, games=12, seed=5, workers=1)
    two = run_playtest(a, b, games=12, seed=5, workers=2)
    assert one.as_json() == two.as_json()
    assert one.wins + one.draws + one.losses == 12


def test_playtest_command(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "armybuilder", "playtest", str(SAMPLES / "dwarven-throng.yaml"), "--vs", "ogrekin-hunting-party",
         "--games", "6", "--seed", "3", "--workers", "1", "--json"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["games"] == 6 and payload["wins"] + payload["draws"] + payload["losses"] == 6
    assert {u["side"] for u in payload["units"]} == {"list", "opponent"}


def _variant(i: int, cat) -> RRList:
    """A legal warband using the i-th warband traits, champion actions, heavy trait and warding reaction."""
    traits = [t.id for t in cat.data.warband_traits]
    wards = [r.id for r in cat.data.reactions if r.kind == "warding"]
    champions = [a.id for a in cat.data.actions if a.kind == "champion"]
    heavies = [h.id for h in cat.data.heavy_traits]
    first, second = traits[i % len(traits)], traits[(i * 7 + 3) % len(traits)]
    if first == second:
        second = traits[(i + 1) % len(traits)]
    heavy = heavies[i % len(heavies)]
    return RRList(
        catalogue="1.0.0",
        format="12-points",
        name=f"variant {i}",
        traits=[first, second],
        drive="frenzy",
        groups=[
            Group(type="fighters"),
            Group(type="champion", champion_action=champions[i % len(champions)], attached_to=0),
            Group(type="shooters"),
            Group(type="skirmishers", transported_by=4 if heavy == "transport" else None),
            Group(type="heavy", heavy_trait=heavy),
            Group(type="ward", warding_reaction=wards[i % len(wards)]),
            Group(type="champion", champion_action=champions[(i + 3) % len(champions)]),
        ],
    )


def test_every_trait_action_and_warding_reaction_plays(cat):
    """Warbands covering every warband trait, champion action, heavy trait and warding reaction."""
    from armybuilder.systems.rattle_and_rend.rules import run_rules

    variants = [_variant(i, cat) for i in range(18)]
    covered = {t for v in variants for t in v.traits}
    assert covered == {t.id for t in cat.data.warband_traits}
    reactions = set()
    for i in range(9):
        a, b = variants[i], variants[17 - i]
        assert not [f for f in run_rules(a, cat) if f.severity == "error"]
        for seed in range(2):
            record = play_game(cat, a, b, np.random.default_rng(100 * i + seed), log=True)
            assert record.winner in (0, 1, None)
            reactions |= (set(record.used[0]) | set(record.used[1])) & REACTIONS
            assert sum(" declares " in line for line in record.log) >= sum(n for side in record.used for k, n in side.items() if k in REACTIONS)
    assert {"intimidate", "suppression", "evade", "countercharge"} <= reactions


def test_group_against_group_odds(system, cat):
    court, throng = sample("vampire-court"), sample("dwarven-throng")
    choices = system.odds_units(court, cat)
    assert [c.value for c in choices] == [0, 1, 2, 3, 5, 6, 7, 8]  # the attached Champion (4) rides with group 3
    assert choices[3].label == "4. Fighters (Champion: Crashing Wave)"
    # Court Fighters (Fury 11+, Poisoners) on Throng Fighters (Will 11+ - 2 = 9+, Death-Defiers)
    params = system.unit_odds_params(cat, court, 3, throng, 1)
    assert (params["fury"], params["will"], params["poisoners"]) == (11, 9, True)
    outcome = system.odds(cat, params).payload["outcome"]
    assert outcome["defy"] == 0.0  # Poisoners: a DEFY! is rolled again on one die, which cannot be critical
    # break = P(success) x (fail on 2d20 + DEFY! then fail on 1d20) + P(critical) x fail on 1d20
    assert outcome["break"] == pytest.approx(0.5 * (0.16 + 0.36 * 0.4) + 0.25 * 0.4)
    # the Throng's Fighters on the Court's Fighters, whose attached Champion gives a Will bonus
    back = system.unit_odds_params(cat, throng, 1, court, 3)
    assert back["will_bonus"] == 1
    exact = attack(11, 2, 11, 3, 2).pmf
    got = system.odds(cat, back).payload["outcome"]["pmf"]
    assert np.allclose(got, exact)
    # a Ward never attacks
    ward = system.unit_odds_params(cat, court, 7, throng, 1)
    assert system.odds(cat, ward).payload["outcome"]["miss"] == 1.0


@pytest.mark.parametrize(("stat", "bonus", "penalty"), [(11, 0, 0), (13, 1, 0), (8, 0, 2), (16, 2, 1)])
def test_simulator_rolls_agree_with_exact(cat, stat, bonus, penalty):
    """The simulator's own dice (drawn from the injected generator) follow the exact distribution."""
    game = Game(cat, sample("vampire-court"), sample("dwarven-throng"), np.random.default_rng(stat), False)
    side = game.sides[0]
    n = 40_000
    u = side.units[0]
    counts = np.bincount([game.check(u, "Fury", stat, bonus, penalty) for _ in range(n)], minlength=3) / n
    exact = np.array(check_probabilities(stat, dice_count(bonus, penalty)))
    sd = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(counts - exact) <= 5 * sd + 1e-12)
