"""Morpheus pickers offer only what the validator accepts (one source: legality.py), and say
why the rest is missing."""

from __future__ import annotations

import pytest

from armybuilder.core.findings import Severity
from armybuilder.systems.morpheus import SYSTEM
from armybuilder.systems.morpheus.army import Warrior


def _errors(army, cat) -> set[str]:
    return {f.rule for f in SYSTEM.validate(army, cat) if f.severity is Severity.ERROR}


def _pickers(army, cat):
    paths = ["", "god_powers"] + [f"warriors[{i}]" for i in range(len(army.warriors))]
    for path in paths:
        for action in SYSTEM.actions(army, cat, path):
            if action.id not in ("add-warrior", "add-equipment", "add-god-power", "set-type"):
                continue
            for param in action.params:
                for choice in param.choices:
                    yield path, action, param, choice


@pytest.mark.parametrize("full", [False, True], ids=["legal", "full"])
def test_every_offered_choice_keeps_the_clan_free_of_new_errors(full, me_base, me_cat):
    clan = me_base.model_copy(deep=True)
    if full:  # 12 models: the clan is full
        clan.warriors += [Warrior(type="bondi") for _ in range(4)]
    before = _errors(clan, me_cat)
    offered = refused = 0
    for path, action, param, choice in _pickers(clan, me_cat):
        if choice.refused:
            refused += 1
            continue
        offered += 1
        after, _ = SYSTEM.apply(clan, me_cat, path, action.id, {param.name: choice.value})
        new = _errors(after, me_cat) - before
        assert not new, f"{action.id} {choice.value} at {path} was offered but gives {new}"
    assert offered and refused


def test_refused_choices_say_why_and_would_be_flagged(me_base, me_cat):
    clan = me_base
    before = _errors(clan, me_cat)
    reasons = {}
    for path, action, param, choice in _pickers(clan, me_cat):
        if not choice.refused:
            continue
        reasons.setdefault(action.id, choice.refused)
        if "Glory left" in choice.refused:
            continue  # over the limit: the limit rule flags the total, checked below
        try:
            after, _ = SYSTEM.apply(clan, me_cat, path, action.id, {param.name: choice.value})
        except ValueError:
            continue  # the edit itself refuses it
        assert _errors(after, me_cat) - before, f"{choice.value} at {path} refused ({choice.refused}) yet legal"
    assert "Jarl" in reasons["add-warrior"]
    assert "chosen already" in reasons["add-god-power"]
    assert "at most" in reasons["add-equipment"] or "shield" in reasons["add-equipment"]


def test_show_all_greys_the_illegal_ones_in_the_form(me_base, me_cat):
    from armybuilder.tui.screens.modals import choice_options

    clan = me_base
    action = next(a for a in SYSTEM.actions(clan, me_cat, "") if a.id == "add-warrior")
    (param,) = action.params
    legal = choice_options(param, show_all=False)
    every = choice_options(param, show_all=True)
    assert len(legal) < len(every) == len(param.choices)
    jarl = next(text for text, i in every if param.choices[i].value == "jarl")
    assert "not allowed" in jarl.plain and "Jarl" in jarl.plain
