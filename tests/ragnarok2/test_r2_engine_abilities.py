"""Every ability and mystic skill of the seeds with a game effect is a named hook with a test."""

from __future__ import annotations

import numpy as np
import pytest
from r2engine_data import build_catalogue
from r2engine_data import engine_army as army
from r2native import pure_engine_only
from r2table import face_off, stand

from armybuilder.systems.ragnarok2.engine import battle as b
from armybuilder.systems.ragnarok2.engine import combat as combat_module
from armybuilder.systems.ragnarok2.engine.abilities import (
    HOOKS,
    SEED_ABILITIES,
    SEED_MYSTIC_SKILLS,
    traits_of,
)
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.chance import Dice
from armybuilder.systems.ragnarok2.engine.dice import die_successes
from armybuilder.systems.ragnarok2.engine.fray import unit_key
from armybuilder.systems.ragnarok2.engine.odds import contest_columns


@pytest.fixture(scope="module")
def ecat(tmp_path_factory):
    return build_catalogue(tmp_path_factory.mktemp("r2abilities"))




def duel(ecat, left=("warrior", 10), right=("warrior", 10), seed=0) -> Battle:
    bt = Battle(ecat, army("beasts", left), army("beasts", right), np.random.default_rng(seed), table="open")
    bt.dice = Dice(np.random.default_rng(seed))  # the fight's own dice, whatever deployment rolled
    bt.update_leadership()
    x, y = bt.sides[0][0], bt.sides[1][0]
    x.engaged, y.engaged = {0}, {0}
    return bt


def give(unit, *abilities: str) -> None:
    for g in unit.groups:
        g.traits = traits_of(abilities)
    unit.__post_init__()  # recompute the unit-wide flags


def strike(bt, x, y, extra_round=0) -> int:
    """One side's attacks of the troops of *x* on the troops of *y* (their combat in a fray of two)."""
    x.engaged.add(y.index)
    y.engaged.add(x.index)
    fighters = bt.build_contact(sorted((x, y), key=lambda u: (u.side, u.index)))
    kx, ky = unit_key(x.side, x.index), unit_key(y.side, y.index)
    key = (kx, 0, ky, 0) if kx < ky else (ky, 0, kx, 0)
    wounds: dict = {}
    bt.exchange((x, 0, kx), (y, 0, ky), key, fighters, wounds, {kx: False, ky: False}, extra_round)
    return wounds.get((kx, ky), 0)


def in_contact(bt, x, y) -> int:
    x.engaged.add(y.index)
    y.engaged.add(x.index)
    fighters = bt.build_contact(sorted((x, y), key=lambda u: (u.side, u.index)))
    return sum(1 for f in fighters[unit_key(x.side, x.index)] if f.touches)


@pytest.fixture
def cdf_calls(monkeypatch):
    """Records every contest roll the engine samples: (difference, dice, shift, reroll)."""
    calls = []
    real = b.contest_cdf

    def spy(table, difference, dice, shift, reroll=""):
        calls.append((difference, dice, shift, reroll))
        return real(table, difference, dice, shift, reroll)

    monkeypatch.setattr(combat_module, "contest_cdf", spy)
    return calls


# Expected trait of each hook (ability string -> (field, value)).
EXPECTED = {
    "war-fury": ("extra_exchanges", 1),
    "born-killer": ("born_killer", True),
    "brutish-charge": ("brutish_charge", True),
    "brutal": ("attack_reroll", "ones"),
    "bravery": ("morale_no_auto_fail", True),
    "righteous": ("auto_morale", True),
    "fanaticism": ("fanaticism", True),
    "hard-boiled": ("wound_shift_against", -1),
    "master-strike/2": ("master_strike", 2),
    "sequence": ("sequence", 1),
    "counter-attack": ("counter_attack_face", 1),
    "fierce": ("fierce", True),
    "possessed": ("possessed", True),
    "implacable/2": ("implacable", 2),
    "survival-instinct": ("survival_face", 6),
    "regeneration/4": ("regeneration", 4),
    "reinforcement": ("reinforcement", True),
    "concentration/2": ("concentration", 2),
    "mutagenic/1": ("mutagenic", 1),
    "assault-fire": ("assault_fire", True),
    "living-dead": ("dis_zero", True),
    "leadership/15": ("leadership", 15),
    "scout": ("scout", True),
    "consciousness": ("consciousness", True),
    "spirit-of/light": ("spirit_of", frozenset({"light"})),
    "exalted": ("exalted", True),
    "focus": ("focus", True),
    "illuminated": ("illuminated", True),
    "warrior-mage": ("warrior_mage", True),
    "warrior-monk": ("warrior_monk", True),
    "insensitive/5": ("insensitive", 5),
    "arcane-mastery": ("arcane_mastery", True),
    "recuperation/2": ("recuperation", 2),
    "piety/3": ("piety", 3),
    "thaumaturge": ("thaumaturge", True),
    "devotion/2": ("devotion", 2),
    "martyr/2": ("martyr", 2),
    "loyal/2": ("loyal", 2),
    "iconoclast": ("iconoclast", True),
}


def test_every_seed_ability_and_mystic_skill_has_a_hook():
    for ability in SEED_ABILITIES + SEED_MYSTIC_SKILLS:
        assert ability in HOOKS, ability
        assert HOOKS[ability].summary and HOOKS[ability].source
    assert {a.partition("/")[0] for a in EXPECTED} == set(SEED_ABILITIES + SEED_MYSTIC_SKILLS) | {"war-fury"}


@pytest.mark.parametrize("ability", sorted(EXPECTED))
def test_hook_sets_its_trait(ability):
    name, value = EXPECTED[ability]
    traits = traits_of([ability])
    assert getattr(traits, name) == value
    assert ability.partition("/")[0] in traits.handled and not traits.unhandled


def test_unknown_abilities_are_reported_not_ignored():
    t = traits_of(["war-fury", "made-up-thing/3"])
    assert t.unhandled == {"made-up-thing"} and t.extra_exchanges == 1
    assert traits_of(["spirit-of-light"]).spirit_of == {"light"}
    assert traits_of(["immunity/fear"]).fear_immune


def test_brutal_rerolls_first_ones_on_attacks(ecat, cdf_calls):
    col = contest_columns(ecat)[4]  # 3+
    base, brutal = die_successes(col), die_successes(col.with_reroll("ones"))
    assert brutal.mean() == pytest.approx(base.mean() * 7 / 6)
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(x, "brutal")
    strike(bt, x, y)
    assert cdf_calls[0][3] == "ones" and cdf_calls[-1][3] == ""  # attacks only, not the Wound roll
    assert x.power(charging=True) == 2 * x.count  # +1 Power per fighter on a charge


def test_hard_boiled_wound_rolls_read_one_column_left(ecat, cdf_calls):
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(y, "hard-boiled")
    for seed in range(30):
        bt.dice = b.Dice(np.random.default_rng(seed))
        strike(bt, x, y)
    wound_calls = [c for c in cdf_calls if c[1] != 10]  # the attack roll has 10 dice
    assert wound_calls and all(c[2] == -1 for c in wound_calls)
    assert y.power(charged=True) == 2 * y.count


def test_master_strike_left_column_and_stronger_wounds(ecat, cdf_calls):
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(x, "master-strike/2")
    for seed in range(20):
        bt.dice = b.Dice(np.random.default_rng(seed))
        strike(bt, x, y)
    attack_calls = [c for c in cdf_calls if c[2] == -1]
    wound_calls = [c for c in cdf_calls if c[2] == 0]
    assert attack_calls and all(c[0] == 0 for c in attack_calls)  # ATT 3 - DEF 3, one column left
    assert wound_calls and all(c[0] == 3 + 3 + 2 - 3 for c in wound_calls)  # STR + ATT + X - RES


def test_sequence_trades_att_for_dice(ecat, cdf_calls):
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    for g in x.groups:
        g.base = dict(g.base, att=6)
        g.profile = g.profile.model_copy(update={"att": 6})
    give(x, "sequence/2")
    n = in_contact(bt, x, y)
    strike(bt, x, y)
    assert cdf_calls[0][:2] == (6 - 2 - 3, n * 3)  # 1 + 2 dice each


def test_survival_instinct_cancels_a_sixth_of_the_wound_rolls(ecat):
    bt = duel(ecat)
    y = bt.sides[1][0]
    give(y, "survival-instinct")
    kept = sum(bt.survival_thinning(y, 60) for _ in range(200))
    assert abs(kept / (200 * 60) - 5 / 6) < 0.02
    give(y)
    assert bt.survival_thinning(y, 60) == 60


def test_regeneration_brings_fighters_back_at_maintenance(ecat):
    back = 0
    for seed in range(300):
        bt = duel(ecat, seed=seed)
        y = bt.sides[1][0]
        give(y, "regeneration/4")
        bt.deal(bt.sides[0][0], y, 1, in_contact=5, scattered=True)
        bt.maintenance()
        back += y.count == 10
    assert abs(back / 300 - 0.5) < 0.1  # 1d6 >= 4


def test_fierce_fighters_strike_back_then_leave_at_maintenance(ecat, cdf_calls):
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(y, "fierce")
    bt.deal(x, y, 3, in_contact=5, scattered=True)
    assert y.count == 7 and y.troops.fierce_left == 3
    cdf_calls.clear()
    strike(bt, y, x)
    assert any(c[0] == 0 - 3 and c[1] == 3 for c in cdf_calls)  # three fallen strike with ATT 0
    bt.maintenance()
    assert y.troops.fierce_left == 0 and y.count == 7


def test_possessed_with_several_wound_levels_gains_att_and_str(ecat, cdf_calls):
    bt = duel(ecat, right=("marauder", 1))
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(y, "possessed")
    y.troops.damage = 1
    strike(bt, y, x)
    assert cdf_calls[0][0] == 3 + 1 - 3  # marauder ATT 3 + 1 Wound level lost - DEF 3


@pure_engine_only
def test_counter_attack_gives_dice_for_natural_ones(ecat, monkeypatch):
    got = []
    monkeypatch.setattr(Battle, "counter_attack", lambda self, d, dg, a, ag, dice, fx: got.append(dice))
    monkeypatch.setattr(Battle, "deal", lambda self, *a, **k: 0)  # keep the defenders standing
    bt = duel(ecat, left=("warrior", 30))
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(y, "counter-attack")
    for seed in range(60):
        bt.dice = b.Dice(np.random.default_rng(seed))
        y.groups[0].count = 10
        y.recount()
        strike(bt, x, y)
    assert got and abs(np.mean(got) - 21 / 6) < 0.5  # 21 attack dice in contact, one in six shows 1


@pure_engine_only
def test_implacable_fights_again_after_a_loss(ecat, monkeypatch):
    """Seed (Implacable fighters): after pushing on, new combats with all dice, no charge bonus,
    no morale roll; X times a round. The push-on combats are resolved with charge=False."""
    combats = []
    real = Battle.resolve_combats

    def spy(self, fighters, wounds, charge=True):
        combats.append(charge)
        return real(self, fighters, wounds, charge)

    monkeypatch.setattr(Battle, "resolve_combats", spy)
    bt = duel(ecat, left=("warrior", 20))
    give(bt.sides[0][0], "implacable/2")
    give(bt.sides[1][0], "righteous")  # holds its ground, so the implacable fighters find it again
    bt.combat()
    assert combats[0] is True and 1 <= combats.count(False) <= 2


@pure_engine_only
def test_implacable_needs_a_loss_not_only_a_wound(ecat, monkeypatch):
    """Seed (Implacable/X): the new combat follows when the fighter "causes at least one loss".
    Against opponents of many Wound levels, combats that wound without removing anyone start no
    Implacable combat; combats that remove an opponent do (when both are still in contact)."""
    seen = {"wounded only": 0, "loss": 0, "again after a loss": 0}
    real = Battle.resolve_combats

    for seed in range(80):
        bt = duel(ecat, left=("warrior", 20), right=("warrior", 4), seed=seed)
        x, y = bt.sides[0][0], bt.sides[1][0]
        give(x, "implacable/1")
        give(y, "righteous")  # holds its ground, so the Implacable fighters find it again
        for g in y.groups:
            g.wound_levels = 3
        fray: dict = {}
        calls: list[bool] = []

        def spy(self, fighters, wounds, charge=True, fray=fray, calls=calls, y=y):
            out = real(self, fighters, wounds, charge)
            if not calls:  # the fray's own combats
                fray["wounds"] = wounds.get((unit_key(0, 0), unit_key(1, 0)), 0)
                fray["losses"] = 4 - y.count
            calls.append(charge)
            return out

        monkeypatch.setattr(Battle, "resolve_combats", spy)
        bt.combat()
        again = calls.count(False)
        if fray["wounds"] and not fray["losses"]:
            seen["wounded only"] += 1
            assert again == 0, f"seed {seed}: Wounds without a loss started an Implacable combat"
        elif fray["losses"]:
            seen["loss"] += 1
            seen["again after a loss"] += again > 0
    assert seen["wounded only"] >= 3 and seen["again after a loss"] >= 3, seen


def test_assault_fire_shoots_before_the_charge(ecat):
    bt = Battle(ecat, army("griffin", ("fusilier", 10)), army("beasts", ("warrior", 10)), np.random.default_rng(1), table="open", log=True)
    bt.update_leadership()
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(x, "assault-fire")
    face_off(bt, x, y, 15)
    bt.resolve_assault(x, y, "charge")
    assert any("assault fire" in line and "difficulty 7" in line for line in bt.lines)


def test_fanaticism_second_try_routs_without_fleeing(ecat):
    kept = 0
    for seed in range(300):
        bt = duel(ecat, seed=seed)
        x, y = bt.sides[0][0], bt.sides[1][0]
        give(y, "fanaticism")
        pos = (y.x, y.y)
        bt.morale(x, y)
        if y.state == "rout" and (y.x, y.y) == pos and y.count == 10:
            kept += 1
    assert kept > 0


def test_born_killer_skips_courage_against_lower_fear(ecat):
    bt = Battle(ecat, army("beasts", ("tyrant", 2)), army("beasts", ("marauder", 4)), np.random.default_rng(0), table="open")
    tyrants, marauders = bt.sides[0][0], bt.sides[1][0]
    assert not bt.needs_courage_test(tyrants, marauders)  # FEAR 7 > 5 anyway
    assert bt.needs_courage_test(marauders, tyrants)
    give(marauders, "born-killer")
    marauders.groups[0].profile = marauders.groups[0].profile.model_copy(update={"fear": 7})
    assert not bt.needs_courage_test(marauders, tyrants)


@pure_engine_only
def test_bravery_and_born_killer_ignore_natural_ones_on_morale(ecat, monkeypatch):
    """Seed (Bravery): a 1 is not an automatic failure on morale rolls and can be re-rolled;
    (Born killer): a 1 is not an automatic failure on morale rolls."""
    from armybuilder.systems.ragnarok2.engine import outcome as outcome_module
    from armybuilder.systems.ragnarok2.engine.fray import test_distribution

    seen = []
    real = outcome_module.test_distribution
    monkeypatch.setattr(outcome_module, "test_distribution", lambda *a: seen.append(a[3:]) or real(*a))
    bt = duel(ecat)
    x, y = bt.sides[0][0], bt.sides[1][0]
    bt.morale(x, y)
    y.state = "valiant"
    give(y, "bravery")
    bt.morale(x, y)
    y.state = "valiant"
    give(y, "born-killer")
    bt.morale(x, y)
    assert seen == [(True, False), (False, True), (False, False)]
    # COU 3 against 8: 5 or more; a first 1 re-rolled adds a sixth of the single-die chance.
    plain = test_distribution(3, 8, 1, False, False)[0][0]
    assert test_distribution(3, 8, 1, False, True)[0][0] == pytest.approx(plain * 7 / 6)


@pytest.mark.parametrize("ability", ["righteous", "living-dead"])
def test_righteous_and_living_dead_pass_morale_and_ignore_fear(ecat, ability):
    bt = duel(ecat, left=("marauder", 10))
    x, y = bt.sides[0][0], bt.sides[1][0]
    give(y, ability)
    for _ in range(50):
        bt.morale(x, y)
    assert y.state == "valiant"
    assert not bt.needs_courage_test(y, x)


def test_living_dead_dis_is_zero_for_tests(ecat):
    bt = Battle(ecat, army("beasts", ("puppet", 10)), army("beasts", ("warrior", 10)), np.random.default_rng(0), table="open")
    bt.update_leadership()
    assert bt.sides[0][0].dis_value == 0


def test_leadership_aura_shares_cou_and_dis(ecat):
    bt = Battle(ecat, army("beasts", ("warrior", 10, "chief"), ("warrior", 10), ("warrior", 10)), army("beasts", ("warrior", 5)), np.random.default_rng(0), table="open")
    near, far = bt.sides[0][1], bt.sides[0][2]
    stand(bt, far, 90, 80)  # 60 cm before the chief's unit, beyond its 15 cm aura
    bt.update_leadership()
    assert bt.sides[0][0].commander_x == 15
    assert near.cou_value == 5 and near.best_of == 1  # chief COU 5; no Commander-in-Chief named
    assert far.cou_value == 5 and far.dis_value == 3


def test_scouts_deploy_forward_and_hidden(ecat):
    """Seed (Scout): a unit of Scouts deploys anywhere (R2-T2: up to 20 cm ahead of its zone) and
    stays hidden, no target for a shot or an assault, until an enemy ends a move within 10 cm."""
    bt = Battle(ecat, army("beasts", ("warrior", 10)), army("beasts", ("warrior", 10)), np.random.default_rng(0), table="open")
    normal = bt.sides[0][0].y
    from armybuilder.systems.ragnarok2.engine import abilities

    abilities._traits_cached.cache_clear()
    b.SIDE_TEMPLATES.clear()
    prof = ecat.get("profiles", "warrior")
    original = list(prof.abilities)
    try:
        prof.abilities.append("scout")
        bt = Battle(ecat, army("beasts", ("warrior", 10)), army("beasts", ("warrior", 10)), np.random.default_rng(0), table="open")
        scouts, foe = bt.sides[0][0], bt.sides[1][0]
        assert scouts.y == normal + 20 and scouts.hidden
        face_off(bt, scouts, foe, 15)
        assert not bt.assault_options(foe)  # hidden: no assault on it
        stand(bt, foe, foe.x, foe.y)  # (foe at 15 cm: not yet within 10 cm)
        bt.spot_scouts(foe)
        assert scouts.hidden
        face_off(bt, scouts, foe, 8)
        bt.spot_scouts(foe)  # an enemy ends its activation 8 cm away: spotted
        assert not scouts.hidden and bt.assault_options(foe)
    finally:
        prof.abilities[:] = original
        abilities._traits_cached.cache_clear()
        b.SIDE_TEMPLATES.clear()
