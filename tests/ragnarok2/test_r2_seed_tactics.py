"""Tactics as their cards are written (seed: Strategic phase, Attribution of the tactics and
Tactical deck; the bundled catalogue's cards, R2-D9 and R2-T7), played with the bundled
samples on an open table: a condition is checked when the tactic is given, a drawback is
applied, and tactical points go to units that will use what they buy."""

from __future__ import annotations

import numpy as np
import pytest
from r2table import aside, face_off

from armybuilder.core.playtest import load_sample
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.ai import answers_enemy_mystics
from armybuilder.systems.ragnarok2.engine.battle import Battle
from armybuilder.systems.ragnarok2.engine.field_ai import FieldPolicy


@pytest.fixture(scope="module")
def lists():
    system = get_system("ragnarok2")
    dwarves, griffins = load_sample(system, "tir-na-bor-plains-guard"), load_sample(system, "akkylannie-griffin-crusade")
    return system.catalogue_for(dwarves), dwarves, griffins


def battle(lists, seed: int = 0) -> Battle:
    cat, dwarves, griffins = lists
    return Battle(cat, dwarves, griffins, np.random.default_rng(seed), log=True, table="open")


def unit(bt: Battle, side: int, name: str):
    return next(u for u in bt.sides[side] if u.name == name)


def holding(bt: Battle, side: int, tactic: str) -> list[str]:
    return [u.name for u in bt.sides[side] if u.tactic_name == tactic]


def give(bt: Battle, u, tactic_id: str) -> None:
    """Hand *u* the tactic as the engine would (its cons too when its troops are of rank I)."""
    for entry in bt._deck(u.side):
        if entry[0].id == tactic_id:
            u.tactic, u.tactic_name = (entry[4] if u.rank_category == 1 else entry[3]), entry[0].name
            return
    raise AssertionError(tactic_id)


def only(bt: Battle, side: int, tactic_id: str) -> None:
    """The side's deck holds this one tactic (the game's own copy of the side's facts)."""
    bt.info[side] = info = dict(bt.info[side])
    info["merged_deck"] = [e for e in bt._deck(side) if e[0].id == tactic_id]
    info["deck_ids"] = 1


def test_brutality_is_given_only_under_an_assault_order(lists):
    """Seed: "Condition: Needs to be fulfilled by the unit when the tactic is attributed";
    Brutality's card: "A unit of at least three fighters that received an Assault order"."""
    bt = battle(lists)
    bt.update_leadership()
    only(bt, 0, "brutality")
    for u in bt.sides[0]:
        u.order = "progress"
    bt.buy_and_give_tactics([20, 0])
    assert holding(bt, 0, "Brutality") == []  # nobody assaults: nobody may take it
    for u in bt.sides[0]:
        u.tactic, u.tactic_name = {}, ""
    unit(bt, 0, "Veterans of the plains").order = "assault"
    bt.buy_and_give_tactics([20, 0])
    assert holding(bt, 0, "Brutality") == ["Veterans of the plains"]


def test_brutality_needs_three_fighters(lists):
    """Brutality's card: "at least three fighters"; the Bombardiers are two."""
    bt = battle(lists)
    only(bt, 0, "brutality")
    for u in bt.sides[0]:
        u.order = "progress"
    bombardiers = unit(bt, 0, "Bombardiers")
    bombardiers.order = "assault"
    assert bombardiers.count == 2
    brutality = next(t for t in bt.info[0]["deck"] if t.id == "brutality")
    assert not bt.tactic_fits(brutality, bombardiers)
    bt.buy_and_give_tactics([20, 0])
    assert holding(bt, 0, "Brutality") == []


def test_unfailing_wall_forbids_a_rank_one_unit_to_charge_and_to_run(lists):
    """Seed (Tactical deck): "Cons: Penalty or effect inflicted to the unit. Only rank I units
    suffer the cons." Unfailing wall's card: "the unit may neither run nor charge this round".
    The conscripts (Regular, rank I) 12 cm from the dwarves see them and could charge; with the
    wall they cannot, and told to run they march their MOV."""
    bt = battle(lists)
    conscripts, soldiers = unit(bt, 1, "Conscripts of the Griffin"), unit(bt, 0, "Soldiers of the plains")
    aside(bt, conscripts, soldiers)
    face_off(bt, soldiers, conscripts, 12.0)
    assert [o.kind for o in bt.assault_options(conscripts) if o.foe is soldiers] == ["charge"]
    give(bt, conscripts, "unfailing-wall")
    assert conscripts.rank_category == 1 and conscripts.tactic.get("no_charge") == 1
    assert bt.assault_options(conscripts) == []  # seen and reachable: a charge or nothing
    stand_back = (conscripts.x, conscripts.y + 1.0)
    conscripts.place(stand_back[0], stand_back[1], 0.0, 1.0)  # facing away: its own edge ahead
    bt.moved(conscripts)
    done = bt.move_unit(conscripts, conscripts.x, 118.0, True, 0.0, "Progress")
    assert done == pytest.approx(conscripts.mov)  # a March, not a Run of MOV x 2
    assert any("(Progress, March)" in line for line in bt.lines)


def test_unfailing_wall_spares_a_unit_above_rank_one(lists):
    """Only rank I units suffer the cons: the templar brothers (rank 2) with the wall still charge."""
    bt = battle(lists)
    brothers, soldiers = unit(bt, 1, "Templar brothers"), unit(bt, 0, "Soldiers of the plains")
    aside(bt, brothers, soldiers)
    face_off(bt, soldiers, brothers, 12.0)
    give(bt, brothers, "unfailing-wall")
    assert brothers.rank_category > 1 and "no_charge" not in brothers.tactic
    assert [o.kind for o in bt.assault_options(brothers) if o.foe is soldiers] == ["charge"]


def test_unfailing_wall_forbids_a_counter_charge(lists):
    """A counter-charge "has the same effects as a charge" (seed: Reaction (Counter-charge)): a
    rank I unit behind an Unfailing wall cannot counter-charge; its Reaction comes to nothing."""
    bt = battle(lists)
    conscripts, soldiers = unit(bt, 1, "Conscripts of the Griffin"), unit(bt, 0, "Soldiers of the plains")
    aside(bt, conscripts, soldiers)
    face_off(bt, soldiers, conscripts, 12.0)
    give(bt, conscripts, "unfailing-wall")
    conscripts.order = "reaction"
    assert bt.react(conscripts, soldiers, "charge") == ""
    assert any("cannot use against this assault" in line for line in bt.lines)


def test_tactical_points_buy_unfailing_wall_for_a_unit_that_will_use_it(lists):
    """Tactics go to units that will use them: the wall (defence, Courage) is worth nothing to a
    rank I unit set to charge (its drawback forbids the charge) and little to one that moves
    (no Run); it goes to a rank I unit already fighting in a fray."""
    bt = battle(lists)
    bt.update_leadership()
    conscripts, spearmen = unit(bt, 1, "Conscripts of the Griffin"), unit(bt, 1, "Spearmen")
    for u in bt.sides[1]:
        u.order = "support"
    conscripts.order, spearmen.order = "assault", "progress"
    for u in bt.sides[1]:
        if u not in (conscripts, spearmen):
            u.order = ""
    bt.buy_and_give_tactics([0, 20])
    assert conscripts.tactic_name != "Unfailing wall" and spearmen.tactic_name != "Unfailing wall"
    # The conscripts now fight in a fray (engaged, fighting on): the wall is theirs.
    soldiers = unit(bt, 0, "Soldiers of the plains")
    aside(bt, conscripts, soldiers)
    face_off(bt, soldiers, conscripts, 0.0)
    conscripts.engaged.add(soldiers.index)
    soldiers.engaged.add(conscripts.index)
    for u in bt.sides[1]:
        u.tactic, u.tactic_name = {}, ""
    bt.buy_and_give_tactics([0, 20])
    assert conscripts.tactic_name == "Unfailing wall"


def test_the_forge_guardians_do_not_wait_all_game_to_censure(lists):
    """Mystics seed (Reaction (Censure)): "If the sum of T.F. points spent for censuring
    corresponds to the sum spent on the divination, the miracle or communion has no effect."
    The Forge guardians' 3 T.F. never match the chaplains' Divine Hospice (fervor 10): a
    Reaction to censure it is an order spent on nothing, so they march (and fight) instead."""
    bt = battle(lists)
    guardians = unit(bt, 0, "Forge guardians")
    foes = [e for e in bt.sides[1] if e.alive]
    assert 0 < guardians.faith < bt.info[1]["min_fervor"]
    assert not answers_enemy_mystics(bt.info, guardians, foes)
    assert FieldPolicy().choose_order(bt, guardians, foes) != "reaction"
    chaplains = unit(bt, 1, "Chaplains of the Temple")
    chaplains.faith = guardians.faith = bt.info[1]["min_fervor"]  # a call the guardians can match
    assert answers_enemy_mystics(bt.info, guardians, foes)


def test_over_a_whole_game_the_forge_guardians_fight(lists):
    """The game of the playtest's first seed: the guardians take other orders than Reaction and
    come to blows (they spent every round waiting before)."""
    from armybuilder.core.playtest import game_rngs

    cat, dwarves, griffins = lists
    log = Battle(cat, dwarves, griffins, game_rngs(1, 0, 1)[0], log=True).play().log
    orders = [line for line in log if line.startswith("side 1 orders")]
    assert any("Forge guardians Reaction" not in line for line in orders)
    assert any(line.startswith("fray:") and "Forge guardians" in line for line in log)


def test_change_of_plans_reveals_another_order_when_the_unit_is_activated(lists):
    """Change of plans' card (R2-D9): "When the unit is activated its player may reveal it with
    any other order instead of the one it was given." The Praetorian guard, ordered to
    Progress, finds the Bombardiers 8 cm before it when it is activated: with the card it is
    revealed under an Assault order and charges them; without it, it keeps its Progress."""
    outcomes = {}
    for with_card in (False, True):
        bt = battle(lists)
        bt.update_leadership()
        guard, bombardiers = unit(bt, 1, "Praetorian guard"), unit(bt, 0, "Bombardiers")
        aside(bt, guard, bombardiers)
        face_off(bt, bombardiers, guard, 8.0)
        guard.order = "progress"
        if with_card:
            give(bt, guard, "change-of-plans")
            assert guard.tactic.get("change_order") == 1
        bt.activate(guard)
        outcomes[with_card] = (guard.order, bombardiers.index in guard.engaged)
        changed = [line for line in bt.lines if "Change of plans" in line]
        assert changed == (["Praetorian guard changes its plans (Change of plans): an Assault order instead of a Progress order"] if with_card else [])
    assert outcomes == {False: ("progress", False), True: ("assault", True)}
