"""Legal neighbours: every suggestion is a list the validator accepts, in all three systems."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.core.findings import errors
from armybuilder.core.lists import load_list, parse_list
from armybuilder.core.registry import get_system
from armybuilder.core.shapes import EditAction, Param
from armybuilder.core.system import Choice
from armybuilder.suggest.neighbours import argument_sets, neighbours, places
from armybuilder.suggest.report import list_yaml

SYSTEMS = ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"]


def _samples(system_id):
    return [path for _, path in sorted(get_system(system_id).source.samples())]


@pytest.mark.parametrize("system_id", SYSTEMS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_suggestion_is_illegal(system_id, data):
    """A sample, a random walk of legal one-step edits, then every neighbour at a random
    place: each, written to a list file and read back as ``validate`` reads it, has no
    error and keeps the list's format and point limit."""
    system = get_system(system_id)
    base = load_list(data.draw(st.sampled_from(_samples(system_id)), label="sample"))
    cat = system.catalogue_for(base.army)
    army = base.army
    for _ in range(data.draw(st.integers(0, 1), label="walk")):
        where = data.draw(st.sampled_from([p for p, _ in places(system.outline(army, cat))]), label="walk place")
        found = neighbours(system, army, cat, at=[where])
        if found:
            army = data.draw(st.sampled_from(found), label="walk edit").army
    where = data.draw(st.sampled_from(["", *(p for p, _ in places(system.outline(army, cat)))]), label="place")
    for n in neighbours(system, army, cat, at=[where]):
        back = parse_list(list_yaml(base, n.army), "suggestion")
        assert not list(errors(system.findings(back.army))), n.edit.words
        assert (back.army.format, getattr(back.army, "limit", None)) == (base.army.format, getattr(base.army, "limit", None))
        assert back.army.model_dump() == n.army.model_dump()


def test_neighbours_are_distinct_and_change_the_list():
    system = get_system("morpheus-ragnarok")
    lf = load_list(_samples("morpheus-ragnarok")[0])
    found = neighbours(system, lf.army)
    assert found
    dumps = [n.army.model_dump() for n in found]
    assert lf.army.model_dump() not in dumps
    assert len({repr(d) for d in dumps}) == len(dumps)
    assert not any(n.edit.action in {"set-label", "rename-list", "edit-notes", "set-format", "set-organiser"} for n in found)
    for n in found:  # the cost is the points the edit adds or frees
        assert n.cost == pytest.approx(n.points - system.points(lf.army, system.catalogue_for(lf.army)).total)


def test_a_filled_form_changes_one_field_at_a_time():
    """Changing both traits of a warband is two steps: the form's second field keeps its value
    while the first changes, and the other way round; an empty field takes every value."""
    choices = tuple(Choice(v, v.upper()) for v in "abc")
    two = EditAction("set-traits", "Choose", (Param("first", "First", "choice", choices, default="a"),
                                                Param("second", "Second", "choice", choices, default="b")))
    sets = [dict(args) for args, _ in argument_sets(two)]
    assert all(s["first"] == "a" or s["second"] == "b" for s in sets)
    assert {"first": "c", "second": "b"} in sets and {"first": "a", "second": "c"} in sets
    add = EditAction("add-unit", "Add", (Param("profile", "Troops", "choice", choices),
                                         Param("count", "Number", "int", default=5, minimum=1, maximum=6)))
    sets = [dict(args) for args, _ in argument_sets(add)]
    assert {s["profile"] for s in sets} == {"a", "b", "c"}
    assert {s["count"] for s in sets} == {1, 3, 4, 5, 6}  # around the default, the minimum, within bounds
    refused = EditAction("x", "X", (Param("p", "P", "choice", (Choice("a", "A"), Choice("b", "B", refused="no room"))),))
    assert [dict(a) for a, _ in argument_sets(refused)] == [{"p": "a"}]
