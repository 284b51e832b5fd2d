"""Properties: rules never raise on any list, and point counting adds up."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.core.findings import Severity
from armybuilder.core.paths import ListPath
from armybuilder.systems.ragnarok2.army import Member, R2List, Troops, Unit, breakdown, unit_cost
from armybuilder.systems.ragnarok2.rules import book, run_rules

PROFILE_IDS = ["spearman", "knight", "captain", "musician", "bearer", "hero", "mage", "priest", "golem", "wolf", "nobody"]

members = st.builds(
    Member,
    profile=st.sampled_from(PROFILE_IDS),
    leader=st.booleans(),
    commander_in_chief=st.booleans(),
    army_standard=st.booleans(),
    familiars=st.integers(0, 4),
    miracles=st.lists(st.sampled_from(["blessing", "no-fervor", "ghost"]), max_size=2),
    options=st.lists(st.sampled_from(["x"]), max_size=1),
)
units = st.builds(
    Unit,
    troops=st.none() | st.builds(Troops, profile=st.sampled_from(PROFILE_IDS), count=st.integers(0, 40), leader=st.booleans()),
    members=st.lists(members, max_size=4),
)
lists = st.builds(
    R2List,
    catalogue=st.just("1.0.0"),
    format=st.sampled_from(["1000-ap", "nope"]),
    people=st.sampled_from(["lions", "wolves", "elves"]),
    units=st.lists(units, max_size=8),
    tactics=st.lists(st.sampled_from(["wall", "elite-only", "ghost"]), max_size=3),
    communions=st.lists(st.sampled_from(["grace", "dark-gift", "ghost"]), max_size=3),
    rituals=st.lists(st.sampled_from(["column", "terror", "ghost"]), max_size=3),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(army=lists)
def test_rules_never_raise_and_never_report_internal_errors(cat, army):
    findings = run_rules(army, cat)
    assert not [f for f in findings if f.rule.endswith(".internal")], findings
    for f in findings:
        assert f.rule in book.ids and f.message, f
        path = ListPath.parse(f.where)  # each finding points at a real place of the list
        if path:
            assert path.steps[0].name in R2List.model_fields, f
            if path.steps[0].index is not None:
                assert ListPath(path.steps[:1]).resolve(army) is not None, f  # the item exists
    rules = {f.rule for f in findings if f.severity is Severity.ERROR}
    assert ("ragnarok2.format.unknown" in rules) == (army.format == "nope")
    if not rules:  # a legal list keeps to the limit of its format
        assert breakdown(army, cat).total <= 1000 and army.units


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(army=lists, extra=units)
def test_adding_a_unit_adds_exactly_its_cost(cat, army, extra):
    before = breakdown(army, cat).total
    army.units.append(extra)
    assert breakdown(army, cat).total == before + unit_cost(cat, extra)
