"""Every Rattle and Rend warband-building rule, each broken alone on an otherwise legal warband."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_checks import rule_helpers

from armybuilder.core.findings import Severity
from armybuilder.systems.rattle_and_rend.army import Group, RRList, breakdown, counted_groups
from armybuilder.systems.rattle_and_rend.rules import run_rules

errors, only_error = rule_helpers(run_rules)


def test_base_warband_is_legal(base, cat):
    assert run_rules(base, cat) == []
    assert breakdown(base, cat).total == 12
    assert counted_groups(base, cat) == 6


def test_point_limit(base, cat):
    base.groups[3].type = "heavy"  # skirmishers (2) -> heavy (3)
    base.groups[3].heavy_trait = "flyer"
    base.groups[2].type = "fighters"  # keep 4 line points
    f = only_error(base, cat, "rattle-and-rend.points.limit")
    assert f.message == "the warband costs 13 points; the limit is 12 points: remove 1 point of groups"


def test_unspent_points_are_a_warning(base, cat):
    del base.groups[6]
    found = run_rules(base, cat)
    assert [(f.rule, f.severity) for f in found] == [("rattle-and-rend.points.unspent", Severity.WARNING)]
    assert "11 of 12 points: 1 point is unspent" in found[0].message


def _heavy_pairs(*attached: int) -> RRList:
    groups = [
        Group(type="heavy", heavy_trait="colossal"),
        Group(type="fighters"),
        Group(type="fighters"),
    ]
    groups += [Group(type="champion", champion_action="banishment", attached_to=t) for t in attached]
    return RRList(catalogue="1.0.0", format="12-points", traits=["elites", "zealots"], drive="frenzy", groups=groups)


def test_too_few_groups_counts_attached_champions_with_their_group(cat):
    army = _heavy_pairs(1, 2)  # 9 points in 5 entries, 3 groups
    f = only_error(army, cat, "rattle-and-rend.groups.count")
    assert "has 3 groups (5 entries; attached Champions count with their group); it needs 4 to 8: add 1" in f.message
    army.groups[-1].attached_to = None  # the second Champion stands alone: 4 groups
    assert errors(army, cat) == []
    assert counted_groups(army, cat) == 4


def test_too_many_groups(cat):
    army = RRList(
        catalogue="1.0.0",
        format="12-points",
        traits=["elites", "zealots"],
        drive="frenzy",
        groups=[Group(type="fighters"), Group(type="fighters")]
        + [Group(type="champion", champion_action="banishment") for _ in range(4)]
        + [Group(type="ward", warding_reaction="rally") for _ in range(3)],
    )
    assert breakdown(army, cat).total == 11
    f = only_error(army, cat, "rattle-and-rend.groups.count")
    assert "has 9 groups; it may have 4 to 8: remove 1" in f.message


def test_line_points(base, cat):
    base.groups[2].type = "heavy"  # shooters -> heavy: 2 line points left, 13 points
    base.groups[2].heavy_trait = "flyer"
    base.groups[3].type = "champion"  # skirmishers -> champion: 12 points
    base.groups[3].champion_action = "distant-doom"
    f = only_error(base, cat, "rattle-and-rend.groups.line-points")
    assert "2 points are spent on Fighters, Shooters, Skirmishers; at least 4 are needed: add 2" in f.message


@pytest.mark.parametrize(
    ("traits", "expected"),
    [
        (["elites"], "has 1 distinct warband trait; it needs exactly 2: add 1"),
        ([], "has 0 distinct warband traits; it needs exactly 2: add 2"),
        (["elites", "zealots", "raiders"], "has 3 distinct warband traits; it needs exactly 2: remove 1"),
    ],
)
def test_trait_count(base, cat, traits, expected):
    base.traits = traits
    f = only_error(base, cat, "rattle-and-rend.traits.count")
    assert expected in f.message


def test_traits_must_differ(base, cat):
    base.traits = ["elites", "elites"]
    found = errors(base, cat)
    assert {f.rule for f in found} == {"rattle-and-rend.traits.distinct", "rattle-and-rend.traits.count"}
    distinct = next(f for f in found if f.rule == "rattle-and-rend.traits.distinct")
    assert distinct.where == "traits[1]" and "'elites' is chosen twice" in distinct.message


def test_drive_required(base, cat):
    base.drive = None
    f = only_error(base, cat, "rattle-and-rend.drive.required")
    assert "no drive; it needs exactly 1" in f.message and "Frenzy" in f.message


@pytest.mark.parametrize(
    ("index", "field", "rule", "words"),
    [
        (1, "champion_action", "rattle-and-rend.champion.action", "no champion action; a Champion takes exactly 1"),
        (4, "heavy_trait", "rattle-and-rend.heavy.trait", "no heavy trait; a Heavy takes exactly 1"),
        (5, "warding_reaction", "rattle-and-rend.ward.reaction", "no warding reaction; a Ward takes exactly 1"),
    ],
)
def test_secondary_trait_required(base, cat, index, field, rule, words):
    setattr(base.groups[index], field, None)
    f = only_error(base, cat, rule)
    assert words in f.message and f.where == f"groups[{index}]"


def test_secondary_trait_on_wrong_type(base, cat):
    base.groups[2].heavy_trait = "flyer"  # on Shooters
    f = only_error(base, cat, "rattle-and-rend.group.option-not-allowed")
    assert "has a heavy trait ('flyer'), but only Heavys take one" in f.message
    assert f.where == "groups[2].heavy_trait"


def test_warding_reaction_must_be_a_warding_one(base, cat):
    base.groups[5].warding_reaction = "countercharge"  # a standard reaction, not a warding one
    f = only_error(base, cat, "rattle-and-rend.catalogue.missing-entry")
    assert "warding reaction 'countercharge' is not a warding reaction; choose one of: defiance, vengeance" in f.message


@pytest.mark.parametrize(
    ("mutate", "where", "expected"),
    [
        (lambda a: setattr(a.groups[0], "type", "knights"), "groups[0].type", "group type 'knights' does not exist in catalogue 1.0.0"),
        (lambda a: setattr(a.groups[1], "champion_action", "fireball"), "groups[1].champion_action", "champion action 'fireball' does not exist"),
        (lambda a: setattr(a.groups[4], "heavy_trait", "armoured"), "groups[4].heavy_trait", "heavy trait 'armoured' does not exist"),
        (lambda a: a.traits.__setitem__(1, "pirates"), "traits[1]", "warband trait 'pirates' does not exist"),
        (lambda a: setattr(a, "drive", "greed"), "drive", "drive 'greed' does not exist"),
    ],
)
def test_unknown_ids(base, cat, mutate, where, expected):
    mutate(base)
    found = [f for f in errors(base, cat) if f.rule == "rattle-and-rend.catalogue.missing-entry"]
    assert len(found) == 1 and found[0].where == where and expected in found[0].message


def test_unknown_format(base, cat):
    base.format = "24-points"
    f = only_error(base, cat, "rattle-and-rend.format.unknown")
    assert "format '24-points' does not exist (known: 12-points)" in f.message


def test_only_champions_attach(base, cat):
    base.groups[3].attached_to = 2  # skirmishers onto shooters
    f = only_error(base, cat, "rattle-and-rend.attachment.source")
    assert "only Champions may be attached" in f.message and f.where == "groups[3].attached_to"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (5, "is attached to group 6 (Ward); a Champion may join only Heavy, Fighters, Shooters, Skirmishers"),
        (6, "is attached to group 7, itself"),
        (9, "is attached to group 10, but the warband has 7 groups"),
    ],
)
def test_attachment_target(base, cat, target, expected):
    base.groups[6].attached_to = target
    found = errors(base, cat)
    assert [f.rule for f in found] == ["rattle-and-rend.attachment.target"], found
    assert expected in found[0].message


def test_champion_cannot_join_a_champion(base, cat):
    base.groups[6].attached_to = 1
    f = only_error(base, cat, "rattle-and-rend.attachment.target")
    assert "is attached to group 2 (Champion); a Champion may join only Heavy" in f.message


def test_one_champion_per_group(base, cat):
    base.groups[6].attached_to = 0
    f = only_error(base, cat, "rattle-and-rend.attachment.one-per-group")
    assert "has 2 Champions attached (groups 2, 7); a group takes 1: detach 1" in f.message


def test_transport_capacity(cat):
    throng = RRList(
        catalogue="1.0.0",
        format="12-points",
        traits=["death-defiers", "raiders"],
        drive="discipline",
        groups=[
            Group(type="champion", champion_action="spot-weakness", transported_by=5),
            Group(type="fighters", transported_by=5),
            Group(type="fighters"),
            Group(type="fighters"),
            Group(type="fighters"),
            Group(type="heavy", heavy_trait="transport"),
        ],
    )
    f = only_error(throng, cat, "rattle-and-rend.transport.capacity")
    assert "carries 3 points; it holds 2: take 1 point out" in f.message
    throng.traits = ["death-defiers", "riders"]  # Riders: a Transport Heavy holds 4
    assert errors(throng, cat) == []


def test_transport_needs_a_carrier(base, cat):
    base.groups[2].transported_by = 4  # a Colossal Heavy of a warband without Riders
    f = only_error(base, cat, "rattle-and-rend.transport.carrier")
    assert "which carries nothing" in f.message
    base.traits = ["elites", "riders"]  # Riders: every Heavy carries 2 points
    assert errors(base, cat) == []


def test_heavy_cannot_ride(cat):
    army = RRList(
        catalogue="1.0.0",
        format="12-points",
        traits=["riders", "zealots"],
        drive="frenzy",
        groups=[
            Group(type="heavy", heavy_trait="transport"),
            Group(type="heavy", heavy_trait="colossal", transported_by=0),
            Group(type="fighters"),
            Group(type="shooters"),
            Group(type="champion", champion_action="banishment"),
            Group(type="ward", warding_reaction="rally"),
        ],
    )
    f = only_error(army, cat, "rattle-and-rend.transport.cargo")
    assert "is a Heavy and cannot be carried" in f.message


def test_attached_champion_with_a_transport_of_its_own(cat):
    """Seed (Group Attachments): a Champion attached to a group acts with it as a single entity,
    so it cannot ride in a Transport on its own; its group may."""
    army = RRList(
        catalogue="1.0.0",
        format="12-points",
        traits=["death-defiers", "riders"],
        drive="discipline",
        groups=[
            Group(type="champion", champion_action="spot-weakness", attached_to=1, transported_by=5),
            Group(type="fighters"),
            Group(type="fighters"),
            Group(type="fighters"),
            Group(type="fighters"),
            Group(type="heavy", heavy_trait="transport"),
        ],
    )
    f = only_error(army, cat, "rattle-and-rend.transport.attached")
    assert f.where == "groups[0].transported_by"
    assert "is attached to" in f.message and "remove its own transport" in f.message
    army.groups[0].transported_by = None
    army.groups[1].transported_by = 5  # the group rides, its Champion with it (3 of the 4 points)
    assert errors(army, cat) == []


@pytest.mark.parametrize("name", ["vampire-court", "dwarven-throng", "ogrekin-hunting-party"])
def test_seed_example_warbands_are_legal(system, name):
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import decode_text, parse_text

    item = dict(system.source.samples())[f"{name}.yaml"]
    lf = list_from_doc(parse_text(decode_text(item.read_bytes(), name), name), name, None)
    cat = system.catalogue_for(lf.army)
    assert run_rules(lf.army, cat) == []
    assert breakdown(lf.army, cat).total == 12


def test_vampire_court_has_nine_entries_and_eight_groups(system):
    item = dict(system.source.samples())["vampire-court.yaml"]
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import decode_text, parse_text

    lf = list_from_doc(parse_text(decode_text(item.read_bytes(), "v"), "v"), "v", None)
    assert len(lf.army.groups) == 9
    assert counted_groups(lf.army, system.catalogue()) == 8


group_strategy = st.builds(
    Group,
    type=st.sampled_from(["champion", "heavy", "fighters", "shooters", "skirmishers", "ward", "nonsense"]),
    champion_action=st.one_of(st.none(), st.sampled_from(["banishment", "sprint", "x"])),
    heavy_trait=st.one_of(st.none(), st.sampled_from(["transport", "flyer", "x"])),
    warding_reaction=st.one_of(st.none(), st.sampled_from(["rally", "evade", "x"])),
    attached_to=st.one_of(st.none(), st.integers(0, 12)),
    transported_by=st.one_of(st.none(), st.integers(0, 12)),
)


@settings(max_examples=150, deadline=None)
@given(
    groups=st.lists(group_strategy, max_size=12),
    traits=st.lists(st.sampled_from(["elites", "riders", "zealots", "nope"]), max_size=4),
    drive=st.one_of(st.none(), st.sampled_from(["frenzy", "nope"])),
)
def test_rules_never_raise_on_any_warband(cat, groups, traits, drive):
    army = RRList(catalogue="1.0.0", format="12-points", traits=traits, drive=drive, groups=groups)
    found = run_rules(army, cat)
    assert not any(f.rule == "rattle-and-rend.internal" for f in found), found
    assert breakdown(army, cat).total == sum(
        {"champion": 1, "ward": 1, "heavy": 3}.get(g.type, 0 if g.type == "nonsense" else 2) for g in groups
    )


def test_names_and_the_seeds_spellings_are_read_as_ids(system, cat):
    """RR-D3: a hand-written warband may use names or the seed's misspellings."""
    from armybuilder.core.lists import parse_list

    text = """
system: rattle-and-rend
catalogue: 1.0.0
format: 12-points
traits: [Tactitians, Ressurectionists]
drive: Frenzy
groups:
  - {type: Fighters}
  - {type: Champion, champion_action: Spot Weakness, attached_to: 0}
  - {type: shooters}
  - {type: skirmishers}
  - {type: Heavy, heavy_trait: Colossal}
  - {type: ward, warding_reaction: Defiance}
  - {type: champion, champion_action: scheming-plot}
"""
    army = parse_list(text, "aliases").army
    found = run_rules(army, cat)
    assert [f for f in found if f.severity is not Severity.INFO] == []
    read = {f.where: f.message for f in found if f.rule == "rattle-and-rend.catalogue.alias"}
    assert read["traits[0]"] == "'Tactitians' is read as 'tacticians' (a name or the seed's spelling; RR-D3)"
    assert "groups[1].champion_action" in read and "groups[4].heavy_trait" in read
    assert system.points(army, cat).total == 12
    assert all(item.ok for item in system.status(army, cat))


@pytest.mark.parametrize(
    ("index", "field", "values", "rule", "words"),
    [
        (1, "champion_action", ["spot-weakness", "banishment"], "rattle-and-rend.champion.action",
         "has 2 champion actions (spot-weakness, banishment); a Champion takes exactly 1: remove 1"),
        (4, "heavy_trait", ["colossal", "flyer", "transport"], "rattle-and-rend.heavy.trait",
         "has 3 heavy traits (colossal, flyer, transport); a Heavy takes exactly 1: remove 2"),
        (5, "warding_reaction", ["defiance", "rally"], "rattle-and-rend.ward.reaction",
         "has 2 warding reactions (defiance, rally); a Ward takes exactly 1: remove 1"),
    ],
)
def test_several_choices_where_one_is_taken(base, cat, index, field, values, rule, words):
    setattr(base.groups[index], field, values)
    f = only_error(base, cat, rule)
    assert words in f.message and f.where == f"groups[{index}].{field}"
    setattr(base.groups[index], field, values[:1])  # a list of one is that one choice
    assert errors(base, cat) == []


def test_one_drive_only(base, cat, system):
    base.drive = ["frenzy", "discipline"]
    f = only_error(base, cat, "rattle-and-rend.drive.count")
    assert "has 2 drives (frenzy, discipline); it takes exactly 1: remove 1" in f.message
    assert system.points(base, cat).total == 12  # everything else still reads the warband
    roster = system.roster(base, cat, "X")
    assert not roster.legal and dict(roster.blocks[0].items)["Drive"] == "Frenzy"


def test_attachment_and_transport_by_name(cat, system):
    """As the seed writes it: "Champion (Spot Weakness) Attached to Fighters"."""
    from armybuilder.core.lists import parse_list

    text = """
system: rattle-and-rend
catalogue: 1.0.0
format: 12-points
traits: [death-defiers, riders]
drive: discipline
groups:
  - {type: champion, champion_action: spot-weakness, attached_to: Hearth guard}
  - {type: fighters, label: Hearth guard}
  - {type: fighters, transported_by: Heavy}
  - {type: heavy, heavy_trait: transport}
  - {type: shooters}
  - {type: ward, warding_reaction: rally}
  - {type: champion, champion_action: banishment, attached_to: Shooters}
"""
    army = parse_list(text, "names").army
    assert run_rules(army, cat) == []
    assert system.outline(army, cat)[0].children[0].children[0].path == "groups[0]"
    army.groups[6].attached_to = "Fighters"  # two Fighters groups: which one?
    f = only_error(army, cat, "rattle-and-rend.attachment.target")
    assert "names 'Fighters' in attached_to, but 2 groups are called 'Fighters'" in f.message
    army.groups[6].attached_to = "Trolls"
    f = only_error(army, cat, "rattle-and-rend.attachment.target")
    assert "no group is called 'Trolls'" in f.message
