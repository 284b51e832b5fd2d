"""Every Rag'Narok 2 army-building rule, each broken alone on an otherwise legal list."""

from __future__ import annotations

import pytest
from rule_checks import rule_helpers

from armybuilder.core.findings import Severity
from armybuilder.systems.ragnarok2.army import Member, Troops, Unit, breakdown
from armybuilder.systems.ragnarok2.rules import run_rules

errors, only_error = rule_helpers(run_rules)


def test_base_list_is_legal_and_reports_its_war_staff(legal, cat):
    assert errors(legal, cat) == []
    infos = [f for f in run_rules(legal, cat) if f.severity is Severity.INFO]
    assert any(f.rule == "ragnarok2.command.war-staffs" and "1 complete: +1 tactical point" in f.message for f in infos)
    assert breakdown(legal, cat).total == 490


def test_point_limit(legal, cat):
    legal.units[0].troops.count = 17
    legal.units.append(Unit(troops=Troops(profile="spearman", count=20)))
    legal.units.append(Unit(troops=Troops(profile="veteran", count=20)))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=20)))
    total = breakdown(legal, cat).total
    f = only_error(legal, cat, "ragnarok2.points.limit")
    assert f"costs {total} A.P." in f.message and f"remove {total - 1000} A.P." in f.message


def test_character_share(legal, cat):
    legal.units[0].troops.count = 20
    for profile in ("mage", "priest", "legend-bearer", "squire", "battle-mage"):
        legal.units[1].members.append(Member(profile=profile))
    legal.units[1].troops.count = 20
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    chars = breakdown(legal, cat).characters  # 120 + 60 + 50 + 90 + 30 + 70 = 420
    legal.units[2].members.append(Member(profile="hero", label="again"))
    found = [f for f in errors(legal, cat) if f.rule == "ragnarok2.points.characters"]
    assert chars == 420
    # the second hero is also a duplicate Character; the share rule must carry the numbers
    assert found and "540 A.P., more than 50 % of 1000 A.P. (500 A.P.): remove 40 A.P." in found[0].message


def test_war_machine_share_counts_artillery(legal, cat):
    legal.units.append(Unit(troops=Troops(profile="ballista", count=2)))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    f = only_error(legal, cat, "ragnarok2.points.war-machines")
    assert "260 A.P., more than 25 % of 1000 A.P. (250 A.P.): remove 10 A.P." in f.message


def test_corps_majority(legal, cat):
    legal.units.append(Unit(troops=Troops(profile="knight", count=3)))
    legal.units.append(Unit(troops=Troops(profile="ogre", count=1)))
    f = only_error(legal, cat, "ragnarok2.scheme.corps-majority")
    assert "army corps has 2 units" in f.message
    assert "shock troops (2) and support (1) have 3 together" in f.message
    assert "add 1 army-corps unit or remove 1 other unit" in f.message


@pytest.mark.parametrize(
    ("profile", "count", "expected"),
    [
        ("spearman", 3, "has 3 fighters; an army corps unit of a regiment army needs 5 to 20: add 2"),
        ("spearman", 21, "has 21 fighters; an army corps unit of a regiment army holds 5 to 20: remove 1"),
        ("knight", 2, "has 2 fighters; a shock troops unit of a regiment army needs 3 to 12: add 1"),
    ],
)
def test_unit_effective(legal, cat, profile, count, expected):
    legal.units.append(Unit(troops=Troops(profile=profile, count=count)))
    if profile == "spearman":
        legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    f = only_error(legal, cat, "ragnarok2.unit.effective")
    assert expected in f.message


def test_fifty_point_profile_may_stand_alone(legal, cat):
    legal.units.append(Unit(troops=Troops(profile="ogre", count=1)))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    assert errors(legal, cat) == []


def test_scattered_people_use_the_horde_column(legal, cat):
    army = legal.model_copy(update={"people": "wolves"}, deep=True)
    army.units = [
        Unit(troops=Troops(profile="wolf", count=3), members=[Member(profile="wolf-chief", commander_in_chief=True, leader=True)]),
    ]
    army.tactics = []
    assert errors(army, cat) == []  # 4 fighters: within 3-12 for a horde


def test_one_people_per_unit(legal, cat):
    legal.units[2].members.append(Member(profile="wolf-chief"))
    f = only_error(legal, cat, "ragnarok2.unit.one-people")
    assert "Wolf chief belongs to Wolves but unit 3 (Knight) is of Lions" in f.message
    assert f.where == "units[2].members[0]"


def test_one_troop_profile(legal, cat):
    legal.units[0].members.append(Member(profile="knight"))
    f = only_error(legal, cat, "ragnarok2.unit.one-troop-profile")
    assert "Knight is a troop profile" in f.message


def test_one_musician_per_unit(legal, cat):
    legal.units[0].members.append(Member(profile="musician"))
    f = only_error(legal, cat, "ragnarok2.unit.slots")
    assert "has 2 musicians; a unit may hold only one" in f.message and "remove 1" in f.message


def test_any_number_of_characters(legal, cat):
    legal.units[1].members += [Member(profile="squire"), Member(profile="priest")]
    assert errors(legal, cat) == []


def test_one_other_independent(legal, cat):
    legal.units[1].members += [Member(profile="golem"), Member(profile="battle-toad")]
    f = only_error(legal, cat, "ragnarok2.unit.slots")
    assert "2 other independents" in f.message


@pytest.mark.parametrize(
    ("profile", "why"),
    [
        ("musician", "musicians cannot lead"),
        ("bearer", "standard bearers cannot lead"),
        ("golem", "constructs cannot lead"),
        ("mage", "magicians (other than warrior-mages) cannot lead"),
        ("priest", "faithful (other than warrior-monks) cannot lead"),
    ],
)
def test_leader_restrictions(legal, cat, profile, why):
    legal.units[2].members.append(Member(profile=profile, leader=True))
    found = [f for f in errors(legal, cat) if f.rule == "ragnarok2.unit.leader"]
    assert len(found) == 1 and why in found[0].message


def test_warrior_mage_may_lead(legal, cat):
    legal.units[1].members.append(Member(profile="battle-mage", leader=True))
    assert errors(legal, cat) == []


def test_one_leader_per_unit(legal, cat):
    legal.units[0].troops.leader = True
    f = only_error(legal, cat, "ragnarok2.unit.leader")
    assert "has 2 leaders" in f.message


def test_battle_toad_never_leads_from_1_1_0(legal, source):
    legal.units[1].members.append(Member(profile="battle-toad", leader=True))
    assert errors(legal, source.resolve("1.0.0")) == []
    later = legal.model_copy(update={"catalogue": "1.1.0"})
    f = only_error(later, source.resolve("1.1.0"), "ragnarok2.unit.leader")
    assert "the battle toad never leads" in f.message


def test_rank_category_of_joining_leader(legal, cat):
    legal.units[2].members.append(Member(profile="sergeant", leader=True))
    f = only_error(legal, cat, "ragnarok2.unit.rank-category")
    assert "Sergeant (rank category 1) cannot join unit 3 (Knight) whose troops are of rank category 3" in f.message


def test_warrior_mage_joins_any_unit_of_its_people(legal, cat):
    legal.units[2].members.append(Member(profile="battle-mage"))
    assert errors(legal, cat) == []


def test_unique_characters(legal, cat):
    legal.units[2].members.append(Member(profile="hero"))
    found = [f.rule for f in errors(legal, cat)]
    assert found == ["ragnarok2.unit.unique-character"]


def test_exactly_one_commander_in_chief(legal, cat):
    legal.units[0].members[0].commander_in_chief = False
    f = only_error(legal, cat, "ragnarok2.command.commander-in-chief")
    assert "no Commander-in-Chief: make one of the army's 2 commanders Commander-in-Chief" in f.message
    legal.units[0].members[0].commander_in_chief = True
    legal.units[1].members[0].commander_in_chief = True
    f = only_error(legal, cat, "ragnarok2.command.commander-in-chief")
    assert "2 fighters are marked Commander-in-Chief" in f.message


def test_commander_in_chief_must_be_a_commander(legal, cat):
    legal.units[0].members[0].commander_in_chief = False
    legal.units[0].members[1].commander_in_chief = True
    f = only_error(legal, cat, "ragnarok2.command.commander-in-chief")
    assert "Musician is not a commander" in f.message


def test_commander_in_chief_of_the_army_people(legal, cat):
    legal.units[0].members[0].commander_in_chief = False
    legal.units.append(Unit(troops=Troops(profile="wolf", count=5), members=[Member(profile="wolf-chief", commander_in_chief=True)]))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    f = only_error(legal, cat, "ragnarok2.command.commander-in-chief")
    assert "Wolf chief is of Wolves, not of the army's people (Lions)" in f.message


def test_army_standard_must_be_a_living_legend_bearer(legal, cat):
    legal.units[0].members[2].army_standard = True
    f = only_error(legal, cat, "ragnarok2.command.army-standard")
    assert "only a Living-legend standard bearer" in f.message
    legal.units[0].members[2].army_standard = False
    legal.units[1].members.append(Member(profile="legend-bearer", army_standard=True))
    assert errors(legal, cat) == []


def test_familiars_up_to_initiation_rank(legal, cat):
    legal.units[1].members.append(Member(profile="mage", familiars=3))
    f = only_error(legal, cat, "ragnarok2.mystics.familiars")
    assert "has 3 familiars; its initiation rank allows 2: remove 1" in f.message


def test_litany_budget(legal, cat):
    legal.units[1].members.append(Member(profile="priest", miracles=["no-fervor"]))
    assert errors(legal, cat) == []  # 2 (no Fervor given) of 3 Aspect points
    legal.communions = ["grace"]
    f = only_error(legal, cat, "ragnarok2.mystics.litany-budget")
    assert "communions (4) and miracles (2) cost 6 litany points" in f.message
    assert "have 3 Aspect points in all: drop 3 points" in f.message


def test_miracle_held_by_a_character_faithful_of_its_cult(legal, cat):
    legal.units[1].members.append(Member(profile="priest"))
    legal.units[1].members.append(Member(profile="squire", miracles=["no-fervor"]))
    f = only_error(legal, cat, "ragnarok2.mystics.miracle-holder")
    assert "Squire cannot hold the miracle Small prayer: only a Character faithful holds miracles" in f.message


def test_communion_needs_a_faithful_of_its_cult(legal, cat):
    legal.units[1].members.append(Member(profile="priest"))
    legal.communions = ["dark-gift"]
    f = only_error(legal, cat, "ragnarok2.mystics.communion-cult")
    assert "cult Darkness, Aspect destruction" in f.message


def test_ritual_needs_a_magician_of_its_element(legal, cat):
    legal.units[1].members.append(Member(profile="mage"))
    legal.rituals = ["column"]
    assert errors(legal, cat) == []
    assert breakdown(legal, cat).rituals == 10
    legal.rituals = ["terror"]
    f = only_error(legal, cat, "ragnarok2.mystics.ritual-element")
    assert "Terror needs a magician who masters Darkness" in f.message and "master light" in f.message


def test_rituals_cost_their_power_in_points(legal, cat):
    legal.units[1].members.append(Member(profile="mage"))
    before = breakdown(legal, cat).total
    legal.rituals = ["column"]
    assert breakdown(legal, cat).total == before + 10


def test_duplicate_communion(legal, cat):
    legal.units[1].members.append(Member(profile="priest"))
    legal.units[1].members.append(Member(profile="mage"))
    legal.rituals = ["column", "column"]
    f = only_error(legal, cat, "ragnarok2.mystics.duplicates")
    assert "bought 2 times" in f.message


def test_tactical_deck_without_duplicates(legal, cat):
    legal.tactics = ["wall", "wall"]
    f = only_error(legal, cat, "ragnarok2.tactics.duplicates")
    assert "holds 'wall' 2 times" in f.message and "remove 1" in f.message


def test_unreachable_tactic_is_a_warning(legal, cat):
    legal.units[2].troops.profile = "veteran"
    legal.units[2].troops.count = 5
    legal.tactics = ["elite-only"]
    assert errors(legal, cat) == []
    warnings = [f for f in run_rules(legal, cat) if f.rule == "ragnarok2.tactics.unreachable"]
    assert warnings and warnings[0].severity is Severity.WARNING and "Elite charge" in warnings[0].message


def test_missing_entries_stay_and_are_errors(legal, source):
    legal.units.append(Unit(troops=Troops(profile="ogre", count=1)))
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))
    later = legal.model_copy(update={"catalogue": "1.1.0"})
    found = errors(later, source.resolve("1.1.0"))
    assert [f.rule for f in found] == ["ragnarok2.catalogue.missing-entry"]
    assert "profile 'ogre' does not exist in catalogue 1.1.0" in found[0].message
    assert found[0].where == "units[3].troops"


def test_unknown_option(legal, cat):
    legal.units[0].troops.options = ["golden-spurs"]
    f = only_error(legal, cat, "ragnarok2.catalogue.unknown-option")
    assert "Spearman has no option 'golden-spurs'" in f.message


def test_unknown_people_and_format(legal, cat):
    found = errors(legal.model_copy(update={"people": "elves"}), cat)
    assert {f.rule for f in found} == {"ragnarok2.catalogue.people", "ragnarok2.command.commander-in-chief"}
    assert "people 'elves' does not exist in catalogue 1.0.0" in found[0].message
    bad = legal.model_copy(update={"format": "3000-ap"})
    assert [f.rule for f in errors(bad, cat)] == ["ragnarok2.format.unknown"]


def test_empty_list_says_where_to_start(cat, legal):
    empty = legal.model_copy(update={"units": [], "tactics": []})
    rules = {f.rule for f in errors(empty, cat)}
    assert rules == {"ragnarok2.army.no-units", "ragnarok2.command.commander-in-chief"}


def test_two_character_commanders_may_not_share_a_unit(legal, r2_extra):
    """R2-D5 clarified: a commander counts against the one-commander limit, Character or not."""
    cat = r2_extra
    legal.units[1].members.append(Member(profile="lord"))  # beside the Hero: two Character commanders
    f = only_error(legal, cat, "ragnarok2.unit.slots")
    assert "unit 2 (Spearman) has 2 commanders" in f.message and f.where == "units[1].members[1]"
    legal.units[1].members[1] = Member(profile="captain")  # a Character and a plain commander: also two
    assert only_error(legal, cat, "ragnarok2.unit.slots").where == "units[1].members[1]"
    legal.units[1].members[1] = Member(profile="squire")  # a Character that commands nothing: fine
    assert errors(legal, cat) == []


def test_a_non_character_magician_never_joins_another_unit(legal, r2_extra):
    """R2-D5 clarified: magicians and faithful that are not Characters are troops."""
    cat = r2_extra
    legal.units[1].members.append(Member(profile="acolyte"))
    f = only_error(legal, cat, "ragnarok2.unit.troop-mystic")
    assert "Acolyte is a magician but not a Character" in f.message and f.where == "units[1].members[1]"
    legal.units[1].members.pop()
    legal.units.append(Unit(troops=Troops(profile="acolyte", count=5)))  # its own unit: legal
    legal.units.append(Unit(troops=Troops(profile="spearman", count=5)))  # (keeps the corps majority)
    assert errors(legal, cat) == []
