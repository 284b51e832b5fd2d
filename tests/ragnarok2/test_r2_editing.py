"""Editor operations: every edit goes through actions()/apply() and returns a new list."""

from __future__ import annotations

import pytest

from armybuilder.core.findings import Severity
from armybuilder.systems.ragnarok2 import SYSTEM
from armybuilder.systems.ragnarok2.rules import run_rules


def act(army, cat, path, action, **args):
    offered = {a.id for a in SYSTEM.actions(army, cat, path)}
    assert action in offered, f"{action} not offered at {path!r}: {sorted(offered)}"
    new, selected = SYSTEM.apply(army, cat, path, action, args)
    assert new is not army
    return new, selected


def test_build_a_legal_list_from_nothing(cat):
    army = SYSTEM.new_list(cat, faction="lions", name="From nothing")
    army, sel = act(army, cat, "", "add-unit", profile="spearman", count=10)
    army, sel = act(army, cat, sel, "add-member", profile="captain")
    army, _ = act(army, cat, sel, "set-commander-in-chief")
    army, _ = act(army, cat, sel, "toggle-leader")
    army, sel = act(army, cat, "units", "add-unit", profile="spearman", count=6)
    army, sel = act(army, cat, "units", "add-unit", profile="knight", count=3)
    army, _ = act(army, cat, "", "add-tactics", id="wall")
    found = [f for f in run_rules(army, cat) if f.severity is Severity.ERROR]
    assert found == []
    assert SYSTEM.points(army, cat).total == 100 + 40 + 60 + 90


def test_original_list_is_untouched(cat, legal):
    before = legal.model_dump()
    act(legal, cat, "units[0]", "set-count", count=12)
    assert legal.model_dump() == before


def test_duplicate_does_not_copy_army_wide_marks(cat, legal):
    army, sel = act(legal, cat, "units[0]", "duplicate-unit")
    assert sel == "units[1]"
    assert sum(m.commander_in_chief for u in army.units for m in u.members) == 1


def test_move_and_remove(cat, legal):
    army, sel = act(legal, cat, "units[2]", "move-up")
    assert sel == "units[1]" and army.units[1].troops.profile == "knight"
    army, sel = act(army, cat, "units[1]", "remove-unit")
    assert len(army.units) == 2


def test_bad_arguments_raise_value_error(cat, legal):
    with pytest.raises(ValueError, match="between 0 and 99"):
        SYSTEM.apply(legal, cat, "units[0]", "set-count", {"count": 500})
    with pytest.raises(ValueError, match="no profile"):
        SYSTEM.apply(legal, cat, "", "add-unit", {"profile": "dragon", "count": 1})
    with pytest.raises(ValueError, match="choose a unit"):
        SYSTEM.apply(legal, cat, "units[9]", "set-count", {"count": 3})


def test_outline_paths_match_finding_paths(cat, legal):
    nodes = SYSTEM.outline(legal, cat)
    paths = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        paths.add(node.path)
        stack.extend(node.children)
    assert {"units[0]", "units[0].troops", "units[0].members[2]", "tactics[0]"} <= paths


def test_browse_and_detail(cat):
    entries = SYSTEM.browse(cat)
    hero = next(e for e in entries if e.ref.id == "hero")
    assert hero.facets["people"] == "Lions" and "character" in hero.facets["role"]
    detail = SYSTEM.detail(cat, hero.ref)
    assert detail.cost == "120 A.P." and ("MOV", "10") in detail.stats
    assert any(title.startswith("Leadership/20") for title, _ in detail.sections)


def test_no_edit_is_offered_twice_at_any_place(cat, legal):
    paths = [""]
    stack = list(SYSTEM.outline(legal, cat))
    while stack:
        node = stack.pop()
        paths.append(node.path)
        stack.extend(node.children)
    for path in paths:
        ids = [a.id for a in SYSTEM.actions(legal, cat, path)]
        assert len(ids) == len(set(ids)), (path, ids)
