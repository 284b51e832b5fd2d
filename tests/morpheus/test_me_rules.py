"""Every war-clan rule (ME-D2), each broken alone on an otherwise legal clan."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rule_checks import rule_helpers

from armybuilder.core.catalog import CatalogueSource, catalog_root
from armybuilder.core.findings import Severity
from armybuilder.systems.morpheus import SYSTEM
from armybuilder.systems.morpheus.army import GodPowerPick, WarClan, Warrior, breakdown
from armybuilder.systems.morpheus.catalog import MECatalog
from armybuilder.systems.morpheus.rules import run_rules

P = "morpheus-ragnarok"


errors, only_error = rule_helpers(run_rules)


def test_base_clan_is_legal(me_base, me_cat):
    assert run_rules(me_base, me_cat) == []
    assert breakdown(me_base, me_cat).total == 185 + 4 * 65 + 90 + 70 + 60 == 665


def test_glory_limit(me_base, me_cat):
    me_base.warriors[6].equipment = ["heavy-armor", "ulfbert", "yew-bow"]  # +110 -> 775
    me_base.warriors[7].equipment = ["heavy-armor", "ulfbert"]  # +80 -> 855
    f = only_error(me_base, me_cat, f"{P}.glory.limit")
    assert f.message == "the war clan costs 855 Glory; the limit is 800 Glory: remove 55 Glory of warriors or equipment"


def test_too_few_models(me_base, me_cat):
    del me_base.warriors[1:3]
    f = only_error(me_base, me_cat, f"{P}.clan.size")
    assert "6 models, at least 7 are needed: add 1" in f.message


def test_too_many_models(me_base, me_cat):
    for w in me_base.warriors[1:5]:
        w.equipment = []  # 665 - 100 Glory, so that 5 more Bondi stay within 800
    me_base.warriors += [Warrior(type="bondi") for _ in range(5)]
    assert breakdown(me_base, me_cat).total == 765
    f = only_error(me_base, me_cat, f"{P}.clan.size")
    assert "13 models, at most 12 are allowed: remove 1" in f.message


def test_no_jarl(me_base, me_cat):
    me_base.warriors[0] = Warrior(type="huskarl")
    f = only_error(me_base, me_cat, f"{P}.jarl.count")
    assert "0 Jarls, exactly 1 is needed" in f.message


def test_two_jarls(me_base, me_cat):
    me_base.warriors[7] = Warrior(type="jarl", jarl=True)
    me_base.warriors[6] = Warrior(type="bondi")
    found = errors(me_base, me_cat)
    # two Jarl profiles break the Jarl count and the reference's "at most 1 Jarl" entry limit
    assert {f.rule for f in found} == {f"{P}.jarl.count", f"{P}.clan.type-limit"}
    count = next(f for f in found if f.rule == f"{P}.jarl.count")
    assert "2 Jarls" in count.message and "exactly 1 is allowed" in count.message
    assert count.where == "warriors[7]"


def test_jarl_flag_on_a_warrior_that_is_not_a_jarl(me_base, me_cat):
    me_base.warriors[0].jarl = False
    me_base.warriors[0].type = "huskarl"
    me_base.warriors[5].jarl = True
    f = only_error(me_base, me_cat, f"{P}.jarl.profile")
    assert "Huskarl is marked as the clan's Jarl" in f.message and f.where == "warriors[5]"


def test_jarl_profile_not_marked(me_base, me_cat):
    me_base.warriors[0].jarl = False
    found = errors(me_base, me_cat)
    assert {f.rule for f in found} == {f"{P}.jarl.count", f"{P}.jarl.profile"}


def test_two_armours(me_base, me_cat):
    me_base.warriors[1].equipment.append("heavy-armor")
    f = only_error(me_base, me_cat, f"{P}.gear.armour")
    assert "carries 2 armours, at most 1 allowed: remove 1" in f.message and f.where == "warriors[1].equipment"


def test_two_shields(me_base, me_cat):
    me_base.warriors[2].equipment.append("shield")
    f = only_error(me_base, me_cat, f"{P}.gear.shield")
    assert "carries 2 shields, at most 1 allowed: remove 1" in f.message


def test_four_weapons(me_base, me_cat):
    me_base.warriors[6].equipment = ["spear", "club-dagger", "sling", "throwing-dagger"]
    f = only_error(me_base, me_cat, f"{P}.gear.weapons")
    assert "carries 4 weapons, at most 3 allowed: remove 1" in f.message


def test_a_no_shield_weapon_may_be_carried_with_a_shield(me_base, me_cat):
    """ME-D3: "no shield when in use" limits use, not carrying: the list is legal, and the
    editor offers the weapon to a warrior with a shield (the engine drops the shield's bonus
    while he fights with it)."""
    from armybuilder.systems.morpheus.legality import equipment_refusal

    me_base.warriors[5].equipment = ["scale-chain-armor", "shield", "great-weapon"]
    findings = SYSTEM.validate(me_base, me_cat)
    assert not [f for f in findings if f.severity is Severity.ERROR], findings
    assert f"{P}.gear.no-shield" not in {f.rule for f in findings}
    me_base.warriors[5].equipment = ["scale-chain-armor", "shield"]
    assert equipment_refusal(me_base, me_cat, me_base.warriors[5], "great-weapon") == ""


@pytest.fixture(scope="module")
def items_cat(tmp_path_factory):
    """The real catalogue plus six 'other items' (the reference data has none yet)."""
    folder = tmp_path_factory.mktemp("me-cat") / P
    shutil.copytree(Path(str(catalog_root() / P)), folder)
    items = "\n".join(f"  - {{id: charm-{i}, name: Charm {i}, cost: 1}}" for i in range(6))
    (folder / "test-items.yaml").write_text(f"items:\n{items}\n", encoding="utf-8")
    return CatalogueSource(P, MECatalog, folder).resolve("1.0.0")


def test_six_other_items(me_base, items_cat):
    me_base.warriors[7].equipment = [f"charm-{i}" for i in range(6)]
    f = only_error(me_base, items_cat, f"{P}.gear.items")
    assert "carries 6 other items, at most 5 allowed: remove 1" in f.message
    me_base.warriors[7].equipment.pop()
    assert errors(me_base, items_cat) == []


def test_unknown_ids(me_base, me_cat):
    me_base.warriors[3].type = "troll"
    me_base.warriors[4].equipment.append("laser-sword")
    me_base.god_powers.append(GodPowerPick(power="odins-eye"))
    found = errors(me_base, me_cat)
    assert {f.rule for f in found} == {f"{P}.catalogue.missing-entry"}
    assert {f.where for f in found} == {"warriors[3].type", "warriors[4].equipment[3]", "god_powers[1]"}
    assert any("warrior type 'troll' does not exist in catalogue 1.0.0" in f.message for f in found)


def test_unknown_format(me_base, me_cat):
    me_base.format = "2000-glory"
    f = only_error(me_base, me_cat, f"{P}.format.unknown")
    assert "format '2000-glory' does not exist (known: 800-glory)" in f.message


def test_too_many_god_powers(me_base, me_cat):
    me_base.god_powers += [GodPowerPick(power=p) for p in ("battle-dance", "fly-true", "wanderlust")]
    f = only_error(me_base, me_cat, f"{P}.godspark.count")
    assert "4 God powers, at most 3 allowed: remove 1" in f.message


def test_duplicate_god_power(me_base, me_cat):
    me_base.god_powers.append(GodPowerPick(power="touch-of-life"))
    f = only_error(me_base, me_cat, f"{P}.godspark.duplicate")
    assert "Touch of Life is chosen twice (entries 1 and 2)" in f.message


def test_half_built_clans_never_raise(me_cat):
    for army in (
        WarClan(catalogue="1.0.0", format="800-glory"),
        WarClan(catalogue="1.0.0", format="nope", warriors=[Warrior(type="x", jarl=True, equipment=["y", "shield"])]),
    ):
        found = SYSTEM.validate(army, me_cat)
        assert all(not f.rule.endswith(".internal") for f in found)
        assert found


def test_findings_name_lines_of_the_file(tmp_path):
    from armybuilder.core.lists import load_list

    text = (Path(str(catalog_root() / P / "samples" / "ravens-of-hrafnsey.yaml"))).read_text()
    path = tmp_path / "clan.yaml"
    path.write_text(text.replace("[scale-chain-armor, shield, spear]}   # 90\n  - {type: huskarl", "[scale-chain-armor, shield, spear, light-leathers]}\n  - {type: huskarl", 1))
    lf = load_list(path)
    found = [f for f in lf.system.validate(lf.army, lf.system.catalogue_for(lf.army)) if f.severity is Severity.ERROR]
    assert [f.rule for f in found] == [f"{P}.gear.armour"]
    assert lf.line_of(found[0].where) == 13
