"""Morpheus legality predicates shared by the validator and the editor's pickers.

Each function answers "why may this not be added?" with a sentence, or "" when it may.
The rules (rules.py) read the same limits and sentences; the editor (editing.py) hides
a choice that has a reason, or greys it out with that reason when the player asks to
see all. So a picker never offers what the validator then rejects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from armybuilder.core.checks import plural

from .counting import breakdown, counts, equipment_kind, fmt_of, warrior_type

if TYPE_CHECKING:  # the predicates read the models or their plain mirrors alike
    from .army import WarClan, Warrior
    from .catalog import MECat, MEFormat, WarriorType

KIND_WORDS = {
    "armour": ("armour", "armours"),
    "shields": ("shield", "shields"),
    "weapons": ("weapon", "weapons"),
    "items": ("other item", "other items"),
}


def gear_limit(fmt: MEFormat, kind: str) -> int:
    """How many pieces of ``kind`` one warrior may carry (ME-D2, data of the format)."""
    return {"armour": fmt.max_armour, "shields": fmt.max_shields, "weapons": fmt.max_weapons, "items": fmt.max_items}[kind]


def glory_left(army: WarClan, cat: MECat) -> int | None:
    fmt = fmt_of(army, cat)
    return None if fmt is None else fmt.limit - breakdown(army, cat).total


def budget_refusal(cost: int, left: int | None) -> str:
    if left is not None and cost > left:
        return f"costs {cost} Glory; only {max(left, 0)} Glory left under the limit"
    return ""


def warrior_refusal(army: WarClan, cat: MECat, t: WarriorType, replacing: int | None = None) -> str:
    """Why a warrior of type ``t`` may not join (or, with ``replacing``, take the place of
    warrior ``replacing``): a full clan, the type's limit, the Jarl's place, the Glory left."""
    fmt = fmt_of(army, cat)
    others = [w for i, w in enumerate(army.warriors) if i != replacing]
    if fmt is not None and replacing is None and len(army.warriors) >= fmt.max_models:
        return f"the war clan is full ({plural(fmt.max_models, 'model')} at most)"
    if t.max_per_clan is not None:
        same = sum(1 for w in others if w.type == t.id)
        if same >= t.max_per_clan:
            return f"the war clan has {plural(same, t.name + ' warrior')} already, at most {t.max_per_clan} allowed"
    jarls = fmt.jarls if fmt is not None else 1
    if t.jarl:
        led = sum(1 for w in others if (wt := warrior_type(cat, w.type)) is not None and wt.jarl)
        if led >= jarls:
            return f"the war clan has its Jarl already ({jarls} allowed)"
    elif replacing is not None and army.warriors[replacing].jarl:
        return "this warrior is the clan's Jarl: only a Jarl warrior type can take its place"
    left = glory_left(army, cat)
    if left is not None and replacing is not None:
        old = warrior_type(cat, army.warriors[replacing].type)
        left += old.cost if old is not None else 0
    return budget_refusal(t.cost, left)


def equipment_refusal(army: WarClan, cat: MECat, w: Warrior, item_id: str) -> str:
    """Why ``w`` may not take the piece ``item_id``: its kind's limit or the Glory left. A weapon
    marked "no shield when in use" may be carried with a shield (ME-D3: it limits use)."""
    kind = equipment_kind(cat, item_id)
    if kind is None:
        return f"no equipment '{item_id}' in the catalogue"
    fmt = fmt_of(army, cat)
    if fmt is not None:
        limit = gear_limit(fmt, kind)
        n = counts(cat, w)[kind]
        if n >= limit:
            one, many = KIND_WORDS[kind]
            return f"the warrior carries {plural(n, one, many)} already, at most {limit} allowed"
    item = cat.get(kind, item_id)
    if item is None:
        return f"no equipment '{item_id}' in the catalogue"
    return budget_refusal(item.cost, glory_left(army, cat))


def power_refusal(army: WarClan, cat: MECat, power_id: str) -> str:
    """Why the God power ``power_id`` may not be chosen: chosen already, or the clan has its count."""
    if any(p.power == power_id for p in army.god_powers):
        return "chosen already"
    fmt = fmt_of(army, cat)
    if fmt is not None and len(army.god_powers) >= fmt.max_god_powers:
        return f"the war clan has {plural(len(army.god_powers), 'God power')} already, at most {fmt.max_god_powers} allowed"
    return ""
