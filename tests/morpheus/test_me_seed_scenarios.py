"""Scenarios from the seed (morpheus-ragnarok-page3) and the decisions (ME-D1, ME-D3): the game
defects found in the playtests, one rule each, and the narrated log a player checks them with."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from armybuilder.core.catalog import catalog_root
from armybuilder.core.lists import load_list
from armybuilder.core.playtest import game_rngs
from armybuilder.systems.morpheus import SYSTEM
from armybuilder.systems.morpheus.engine import battle as B
from armybuilder.systems.morpheus.engine.fighters import Terrain

SAMPLES = {p.stem: p for p in Path(str(catalog_root() / "morpheus-ragnarok" / "samples")).glob("*.yaml")}


def clans():
    return {name: load_list(path).army for name, path in SAMPLES.items()}


def logged_games(me_cat, n=40, seed=11):
    c = clans()
    a, b = c["ravens-of-hrafnsey"], c["wolves-of-the-fjord"]
    return [SYSTEM.play_game(me_cat, a, b, rng, True) for rng in game_rngs(seed, 0, n)]


def test_a_removed_model_never_acts_again(me_cat):
    """A model reduced to 0 HP is removed from play [Attacks: Remove Models]: it neither activates
    nor directs a friend (Tactician) afterwards; played over 40 narrated games."""
    removals = 0
    for record in logged_games(me_cat):
        gone: set[str] = set()
        for line in record.log:
            if m := re.match(r"\s+(.+) is removed \(", line):
                gone.add(m.group(1))
                removals += 1
                continue
            acting = re.match(r"(.+) activates \(", line) or re.match(r"\s+(.+) directs ", line)
            if acting:
                assert acting.group(1) not in gone, line
    assert removals > 100


def test_moves_go_round_a_magma_pool(me_cat):
    """Magma Pool: Hazardous (2) and Fire (3) to "any model entering or moving through" it: a
    model's own move goes round it (an ordinary move; a Charge, which must take the shortest way,
    is not made through it)."""
    c = clans()
    battle = B.Battle(me_cat, c["ravens-of-hrafnsey"], c["wolves-of-the-fjord"], np.random.default_rng(0), True)
    pool = Terrain("magma pool", 20.0, 20.0, 2.5, frozenset({"difficult", "hazardous"}), 2, 3, 0)
    battle.terrain = [pool]
    battle.index_terrain()
    f = battle.sides[0][1]
    for other in battle.sides[0][2:] + battle.sides[1]:
        battle.place(other, 40.0 + other.index, 40.0 + other.side)
    battle.place(f, 14.0, 20.0)
    assert battle.crosses_hazard(f, 26.0, 20.0)
    travelled = battle.move_towards(f, 26.0, 20.0, 8.0, 0.0)
    assert travelled > 0 and f.fire is None and f.hp == f.hp_max
    assert np.hypot(f.x - pool.x, f.y - pool.y) >= pool.r  # outside it
    # over whole games, no model walks into the pool on its own
    for record in logged_games(me_cat, 20, seed=5):
        assert not any("ST 2 hit (magma pool)" in line for line in record.log)


def test_a_no_shield_weapon_in_hand_drops_the_shield_against_overwhelm(me_cat):
    """ME-D3: while he fights with a weapon marked "no shield when in use", his shield gives him
    nothing (here: its +2 Size against Overwhelm); with another weapon it counts as usual."""
    c = clans()
    battle = B.Battle(me_cat, c["ravens-of-hrafnsey"], c["wolves-of-the-fjord"], np.random.default_rng(0))
    skald = battle.sides[1][3]  # a Skald with a shield and a spear
    a, b = battle.sides[0][4], battle.sides[0][5]  # two Bondi (Size 2 each? as the profile says)
    for other in battle.everyone:
        battle.place(other, 40.0 + 2 * other.index, 40.0 + 3 * other.side)
    battle.place(skald, 20.0, 20.0)
    battle.place(a, 18.8, 20.0)
    battle.place(b, 21.2, 20.0)
    assert skald.shield
    with_shield = battle.overwhelm(a, skald)
    great = next(w for w in battle.sides[1][1].weapons if w.no_shield)  # a Berserker's great weapon
    skald.in_hand = great
    without = battle.overwhelm(a, skald)
    assert (with_shield, without) == (0, 1)  # 2 + 2 Bondi against Size 2 + 2 (shield); against 2 alone


def test_every_roll_is_told_with_its_numbers(me_cat):
    """The log shows each roll: X versus Y, the 2d6 and the target number (ME-D1), and a failed
    damage roll too."""
    record = logged_games(me_cat, 4, seed=3)[0]
    text = "\n".join(record.log)
    hits = re.findall(r"(MA|RA) vs DF \((-?\d+) vs (-?\d+)\): (\d+) against (-?\d+), (success|failure)", text)
    assert hits
    for _, x, y, natural, tn, result in hits:
        assert int(tn) == 7 - (int(x) - int(y)) and 2 <= int(natural) <= 12
        assert (result == "success") == (int(natural) >= int(tn))
    assert "no damage" in "\n".join(line for r in logged_games(me_cat, 6, seed=4) for line in r.log)


def test_a_mirror_names_whose_model_acts(me_cat):
    c = clans()
    ravens = c["ravens-of-hrafnsey"]
    record = SYSTEM.play_game(me_cat, ravens, ravens, np.random.default_rng(2), True)
    names = [u.name for u in record.units]
    assert len(set(names)) == len(names) and all(n.endswith(("[clan 1]", "[clan 2]")) for n in names)


def test_two_policies_play_and_god_powers_are_counted(me_cat):
    c = clans()
    a, b = c["ravens-of-hrafnsey"], c["wolves-of-the-fjord"]
    record = SYSTEM.play_game(me_cat, a, b, np.random.default_rng(1), True, policies=("warlord", "brawler"))
    assert record.winner in (0, 1, None)
    powers = {p.power for p in a.god_powers}
    assert not (set(record.used[1]) & {p.power for p in b.god_powers})  # the brawler calls no power
    assert set(SYSTEM.policies()) == {"warlord", "brawler"} and SYSTEM.policies()[0] == "warlord"
    used = set()
    for rng in game_rngs(2, 0, 12):
        used |= set(SYSTEM.play_game(me_cat, a, b, rng).used[0])
    assert used & powers


def _wolves_against_ravens(me_cat):
    """The Wolves (side 0) with their three God powers and a Berserker 8" from a Ravens Bondi,
    every other model far off; the Wolves hold 6 Godspark (two Rounds' income)."""
    c = clans()
    battle = B.Battle(me_cat, c["wolves-of-the-fjord"], c["ravens-of-hrafnsey"], np.random.default_rng(0))
    berserker, bondi = battle.sides[0][1], battle.sides[1][4]
    for other in battle.everyone:
        battle.place(other, 4.0 + 2 * other.index, 44.0 if other.side else 2.0)
    battle.place(berserker, 20.0, 20.0)
    battle.place(bondi, 28.0, 20.0)
    battle.godspark[0] = 6
    return battle, berserker, bondi


def test_battle_dance_is_called_before_a_charge_it_pays_for(me_cat):
    """Battle Dance grants Bullrush (a Charge costs 1 AP) and Heavy Charge (another +1 ST and +1
    DR on the Charge): called for 1 AP before a Charge, it leaves the same AP for the attacks as a
    Charge without it and adds the Heavy Charge. The default player calls it, then charges."""
    battle, berserker, bondi = _wolves_against_ravens(me_cat)
    policy = battle.policies[0]
    battle.start_activation(berserker)
    berserker.ap_left = 3
    row = berserker.d2
    act = policy.step(battle, berserker, [], min(row))
    assert act.kind == "power" and act.power is not None and act.power.id == "battle-dance"
    assert battle.perform(berserker, act, [], min(row))
    assert battle.godspark[0] == 0 and berserker.ap_left == 2
    assert "bullrush" in berserker.temp and "heavy-charge" in berserker.temp
    follow = policy.step(battle, berserker, [], min(berserker.d2))
    assert follow.kind == "close" and follow.target is bondi
    # the same Berserker already in contact: 3 AP of attacks are worth more than Battle Dance's
    # Charge bonus, which an engaged model cannot use, so the power is kept
    battle, berserker, bondi = _wolves_against_ravens(me_cat)
    battle.place(bondi, 21.2, 20.0)
    battle.start_activation(berserker)
    berserker.ap_left = 3
    engaged = battle.engaged_with(berserker, min(berserker.d2))
    assert engaged == [bondi]
    act = battle.policies[0].step(battle, berserker, engaged, min(berserker.d2))
    assert act.kind != "power"


def test_shock_is_worth_more_on_a_foe_still_to_activate(me_cat):
    """Shock costs the target 1 AP, 1 ST and 1 SP for the rest of the Round: the AP only if the
    target has yet to activate. The default player weighs it so."""
    from armybuilder.systems.morpheus.engine.ai import status_worth

    battle, berserker, bondi = _wolves_against_ravens(me_cat)
    bondi.activated = False
    waiting = status_worth(battle, berserker, bondi, "shock/1")
    bondi.activated = True
    done = status_worth(battle, berserker, bondi, "shock/1")
    assert waiting > done > 0.0


def test_the_wolves_call_their_god_powers(me_cat):
    """The Wolves gather 3 Godspark a Round, enough for a power from the second Round: with Battle
    Dance before their Charges they spend it in most games."""
    c = clans()
    wolves = c["wolves-of-the-fjord"]
    powers = {p.power for p in wolves.god_powers}
    games = [SYSTEM.play_game(me_cat, wolves, c["ravens-of-hrafnsey"], rng) for rng in game_rngs(8, 0, 10)]
    assert sum(bool(set(r.used[0]) & powers) for r in games) >= 7
