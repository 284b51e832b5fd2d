"""Every choice a menu or a picker offers is legal: applying it leaves no new error of the
rules it answers to (issue 28, Deliver 3).

Lists are grown from empty by random edits, offered or not (so half-built and illegal
lists are reached too); then, at every place of the list, every edit the system offers
there (not refused) is applied with each value its pickers offer (not refused), and the
errors of the rules that edit answers to must not grow.  The editor hides what a
``refused`` reason names, or greys it out with that reason: the reason comes from the
same legality functions the validator calls, which is what this checks.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.core.findings import Severity
from armybuilder.core.registry import get_system

R2 = "ragnarok2"
RR = "rattle-and-rend"
ME = "morpheus-ragnarok"

# edit id → the rules whose errors its offered choices may never add
GUARDS: dict[str, dict[str, set[str]]] = {
    R2: {
        "add-member": {f"{R2}.unit.{r}" for r in ("one-people", "one-troop-profile", "troop-mystic", "slots", "rank-category", "unique-character")}
        | {f"{R2}.points.limit"},
        "toggle-leader": {f"{R2}.unit.leader", f"{R2}.unit.rank-category"},
        "toggle-troop-leader": {f"{R2}.unit.leader", f"{R2}.unit.rank-category"},
        "set-commander-in-chief": {f"{R2}.command.commander-in-chief"},
        "toggle-army-standard": {f"{R2}.command.army-standard"},
        "set-familiars": {f"{R2}.mystics.familiars"},
        "toggle-miracle": {f"{R2}.mystics.miracle-holder", f"{R2}.mystics.litany-budget"},
        "add-communions": {f"{R2}.mystics.communion-cult", f"{R2}.mystics.litany-budget", f"{R2}.mystics.duplicates"},
        "add-rituals": {f"{R2}.mystics.ritual-element", f"{R2}.mystics.duplicates", f"{R2}.points.limit"},
        "add-tactics": {f"{R2}.tactics.duplicates"},
        "set-troops": {f"{R2}.unit.rank-category", f"{R2}.points.limit"},
        "set-people": {f"{R2}.unit.one-people"},
        "duplicate-unit": set(),
    },
    RR: {
        "add-group": {f"{RR}.points.limit", f"{RR}.heavy.trait", f"{RR}.ward.reaction", f"{RR}.champion.action"},
        "add-trait": {f"{RR}.traits.distinct"},
        "set-type": {f"{RR}.points.limit", f"{RR}.heavy.trait", f"{RR}.ward.reaction", f"{RR}.champion.action"},
        "attach": {f"{RR}.attachment.target", f"{RR}.attachment.one-per-group", f"{RR}.transport.capacity"},
        "set-transport": {f"{RR}.transport.carrier", f"{RR}.transport.cargo", f"{RR}.transport.capacity"},
        "duplicate-group": {f"{RR}.points.limit"},
    },
    ME: {
        "add-warrior": {f"{ME}.points.limit", f"{ME}.clan.type-limit", f"{ME}.jarl.count", f"{ME}.jarl.profile"},
        "set-type": {f"{ME}.points.limit", f"{ME}.clan.type-limit", f"{ME}.jarl.count", f"{ME}.jarl.profile"},
        "duplicate-warrior": {f"{ME}.points.limit", f"{ME}.clan.type-limit", f"{ME}.jarl.count", f"{ME}.jarl.profile"},
        "set-jarl": {f"{ME}.jarl.profile"},
        "add-equipment": {f"{ME}.points.limit", f"{ME}.gear.no-shield"} | {f"{ME}.gear.{k}" for k in ("armour", "shield", "weapons", "items")},
        "add-god-power": {f"{ME}.godspark.count", f"{ME}.godspark.duplicate"},
    },
}
# the point limit of a list grown at random is often passed: edits then add nothing that costs
GUARDS[R2]["duplicate-unit"] = {f"{R2}.unit.unique-character"}


def _errors(system: Any, army: Any, cat: Any) -> Counter[tuple[str, str]]:
    """The list's errors as (rule, message with its numbers blanked): a new message is a new
    error, even when an error of the same rule was there before ("no Commander-in-Chief" →
    "X is not a commander"), while a count that only moves ("3 Jarls" → "2 Jarls") is not."""
    return Counter((f.rule, re.sub(r"\d+", "#", f.message)) for f in system.validate(army, cat) if f.severity is Severity.ERROR)


def _places(system: Any, army: Any, cat: Any) -> list[str]:
    out = [""]
    stack = list(system.outline(army, cat))
    while stack:
        node = stack.pop()
        out.append(node.path)
        stack.extend(node.children)
    return out


def _args(action: Any, pick: Any, offered_only: bool) -> dict[str, Any] | None:
    """Values for every parameter of ``action``: a choice drawn by ``pick`` among the offered
    ones (or among all), the default of any other field (None: nothing offered to choose)."""
    args: dict[str, Any] = {}
    for p in action.params:
        if p.kind == "choice":
            choices = [c for c in p.choices if not (offered_only and c.refused)]
            if not choices:
                return None
            args[p.name] = pick(choices).value
        elif p.kind == "int":
            low = int(p.minimum) if p.minimum is not None else 0
            high = int(p.maximum) if p.maximum is not None else 20
            args[p.name] = pick(list(range(low, min(high, low + 6) + 1))) if not offered_only else (p.default if p.default is not None else low)
        else:
            args[p.name] = p.default if p.default not in (None, "") else "x"
    return args


@pytest.mark.parametrize("system_id", [R2, RR, ME])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_offered_choice_leaves_no_new_error_of_its_rules(system_id, data):
    system = get_system(system_id)
    cat = system.catalogue()
    factions = system.factions(cat)
    faction = data.draw(st.sampled_from([c.value for c in factions])) if factions else None
    army = system.new_list(cat, faction=faction)

    def draw(items: list[Any]) -> Any:
        return data.draw(st.sampled_from(items))

    # grow the list: random edits, the offered ones mostly, any of them sometimes
    for _ in range(data.draw(st.integers(3, 14))):
        place = draw(_places(system, army, cat))
        actions = [a for a in system.actions(army, cat, place) if not a.destructive]
        if not actions:
            continue
        action = draw(actions)
        args = _args(action, draw, offered_only=data.draw(st.booleans()))
        if args is None:
            continue
        try:
            army, _ = system.apply(army, cat, place, action.id, args)
        except ValueError:
            continue

    before = _errors(system, army, cat)
    guards = GUARDS[system_id]
    for place in _places(system, army, cat):
        for action in system.actions(army, cat, place):
            rules = guards.get(action.id)
            if rules is None or action.refused:
                continue
            choice_params = [p for p in action.params if p.kind == "choice"]
            values: list[dict[str, Any]] = []
            if not choice_params:
                values = [_args(action, lambda items: items[0], offered_only=True) or {}]
            else:
                first = choice_params[0]
                offered = [c for c in first.choices if not c.refused]
                for c in offered[:12]:  # every offered value of the first picker (at most 12)
                    rest = _args(action, lambda items: items[0], offered_only=True)
                    if rest is None:
                        break
                    values.append({**rest, first.name: c.value})
            for args in values:
                try:
                    after_army, _ = system.apply(army, cat, place, action.id, args)
                except ValueError:
                    continue
                after = _errors(system, after_army, cat)
                grown = {rule for (rule, message), n in after.items() if rule in rules and n > before[(rule, message)]}
                assert not grown, (
                    f"{action.label} at {place or 'the list'} with {args} was offered but adds errors of {grown}: "
                    f"{[f.message for f in system.validate(after_army, cat) if f.rule in grown]}"
                )
