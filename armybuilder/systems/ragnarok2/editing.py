"""Rag'Narok 2 edits as pure functions: outline, the actions allowed at a place, apply.

The TUI shows what :func:`actions` offers and calls :func:`apply`; it never knows
what a unit is.  Each edit copies the list (models are treated as values), so the
editor's undo stack is just a list of snapshots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from armybuilder.core.checks import list_format, plural
from armybuilder.core.editing import apply_list_edit, list_actions, need, parse_path
from armybuilder.core.shapes import BrowserEntry, Detail, EditAction, OutlineNode, Param
from armybuilder.core.system import Choice, EntryRef

from .army import (
    Member,
    R2List,
    Troops,
    Unit,
    breakdown,
    effective,
    member_cost,
    profile,
    slot_of,
    unit_cost,
)
from .catalog import Profile, R2Cat
from .health import wound_level_reasons, wound_levels
from .legality import (
    army_elements,
    army_faithful,
    army_standard_refusal,
    budget_refusal,
    commander_refusal,
    communion_refusal,
    familiar_refusal,
    is_independent_profile,
    leader_refusal,
    litany_budget,
    litany_refusal,
    lore_word,
    member_refusal,
    miracle_refusal,
    people_name,
    rank_refusal,
    ritual_refusal,
    unit_people,
)
from .rules import unit_category


def profile_label(p: Profile | None, fallback: str) -> str:
    return p.name if p is not None else f"{fallback} (missing from catalogue)"


def unit_title(cat: R2Cat, unit: Unit, index: int) -> str:
    if unit.name:
        return unit.name
    if unit.troops:
        return profile_label(profile(cat, unit.troops.profile), unit.troops.profile)
    if unit.members:
        return profile_label(profile(cat, unit.members[0].profile), unit.members[0].profile)
    return f"Unit {index + 1}"


SCHEME_LABEL = {"army-corps": "army corps", "shock-troops": "shock troops", "support": "support"}


def member_tags(m: Member, p: Profile | None) -> str:
    tags = []
    if p is not None:
        tags.append(slot_of(p).replace("-", " "))
    if m.leader:
        tags.append("leader")
    if m.commander_in_chief:
        tags.append("Commander-in-Chief")
    if m.army_standard:
        tags.append("army standard")
    if m.familiars:
        tags.append(f"{m.familiars} familiar{'s' if m.familiars > 1 else ''}")
    if m.miracles:
        tags.append(f"{len(m.miracles)} miracle{'s' if len(m.miracles) > 1 else ''}")
    return ", ".join(tags)


def outline(army: R2List, cat: R2Cat) -> list[OutlineNode]:
    units = []
    for ui, unit in enumerate(army.units):
        children = []
        if unit.troops is not None:
            p = profile(cat, unit.troops.profile)
            detail = "troops" + (", leader" if unit.troops.leader else "")
            if unit.troops.options:
                names = {o.id: o.name for o in (p.options if p else [])}
                detail += ", " + ", ".join(names.get(o, o) for o in unit.troops.options)
            children.append(
                OutlineNode(
                    f"units[{ui}].troops",
                    f"{unit.troops.count} × {profile_label(p, unit.troops.profile)}",
                    detail,
                    (p.cost if p else 0) * unit.troops.count,
                    EntryRef("profiles", unit.troops.profile),
                )
            )
        for mi, m in enumerate(unit.members):
            p = profile(cat, m.profile)
            label = profile_label(p, m.profile) + (f" “{m.label}”" if m.label else "")
            children.append(
                OutlineNode(
                    f"units[{ui}].members[{mi}]",
                    label,
                    member_tags(m, p),
                    member_cost(cat, m),
                    EntryRef("profiles", m.profile),
                )
            )
        category = unit_category(cat, unit)
        detail = f"{SCHEME_LABEL.get(category or '', 'no category')}, {plural(effective(unit), 'fighter')}"
        units.append(
            OutlineNode(f"units[{ui}]", unit_title(cat, unit, ui), detail, unit_cost(cat, unit), None, tuple(children))
        )

    def entries(field: str, collection: str) -> tuple[OutlineNode, ...]:
        out = []
        for i, entry_id in enumerate(getattr(army, field)):
            entry = cat.get(collection, entry_id)
            name = entry.name if entry is not None else f"{entry_id} (missing from catalogue)"
            cost = getattr(entry, "power", None) if collection == "rituals" else None
            detail = ""
            if collection == "communions" and entry is not None:
                detail = plural(entry.power, "litany point")
            if collection == "tactics" and entry is not None and entry.provisional:
                detail = "provisional"
            out.append(OutlineNode(f"{field}[{i}]", name, detail, cost, EntryRef(collection, entry_id)))
        return tuple(out)

    people = cat.get("peoples", army.people)
    return [
        OutlineNode("units", "Units", plural(len(army.units), "unit"), None, None, tuple(units)),
        OutlineNode("tactics", "Tactical deck", plural(len(army.tactics), "tactic"), None, None, entries("tactics", "tactics")),
        OutlineNode("communions", "Communions", "", None, None, entries("communions", "communions")),
        OutlineNode("rituals", "Rituals", "", None, None, entries("rituals", "rituals")),
        OutlineNode("", "List settings", f"{people.name if people else army.people}, {format_label(cat, army)}"),
    ]


# --------------------------------------------------------------------------- choices


def points_left(army: R2List, cat: R2Cat) -> int:
    """A.P. still free under the list's limit (negative when over)."""
    fmt = list_format(army, cat)
    return (fmt.limit if fmt is not None else 1000) - breakdown(army, cat).total


def role_words(roles: Sequence[str]) -> str:
    """A profile's roles as words ("character, living dead"), never as ids."""
    return ", ".join(r.replace("-", " ") for r in roles)


def rank_name(cat: R2Cat, rank_id: str) -> str:
    rank = cat.get("ranks", rank_id)
    return rank.name if rank is not None else rank_id.replace("-", " ")


def field_words(fields: Sequence[str]) -> str:
    """Field names as words ("faith rank"), for the "assigned by armybuilder" notes."""
    return ", ".join(f.replace("_", " ") for f in fields)


def _profile_choice(cat: R2Cat, p: Profile, refused: str = "", count: int = 1) -> Choice:
    cost = f"{p.cost} A.P." if count == 1 else f"{p.cost} A.P. each"
    return Choice(p.id, p.name, f"{cost}, {rank_name(cat, p.rank)}" + (f", {role_words(p.roles)}" if p.roles else ""), refused)


def troop_choices(cat: R2Cat, people: str, left: int | None = None) -> tuple[Choice, ...]:
    """Profiles that may be a unit's troops; those not affordable once are refused."""
    return tuple(
        _profile_choice(cat, p, budget_refusal(p.cost, left) if left is not None else "", count=2)
        for p in cat.data.profiles
        if p.people == people and not p.has_role("character") and not _only_independent(p)
    )


def _unit_troop_choices(cat: R2Cat, army: R2List, unit: Unit, people: str) -> tuple[Choice, ...]:
    """The troops a unit may change to, each refused when its members or the points forbid it."""
    return tuple(
        _profile_choice(cat, p, troops_refusal(cat, army, unit, p), count=2)
        for p in cat.data.profiles
        if p.people == people and not p.has_role("character") and not _only_independent(p)
    )


def _only_independent(p: Profile) -> bool:
    return any(p.has_role(r) for r in ("musician", "standard-bearer", "familiar"))


def member_choices(cat: R2Cat, army: R2List, unit: Unit) -> tuple[Choice, ...]:
    """Characters and independents of the unit's people, with the reason each may not join."""
    people = unit_people(cat, army, unit)
    left = points_left(army, cat)
    out = []
    for p in cat.data.profiles:
        if p.people != people or not is_independent_profile(p):
            continue
        why = member_refusal(cat, army, unit, p) or budget_refusal(p.cost, left)
        out.append(_profile_choice(cat, p, why))
    return tuple(out)


def miracle_choices(cat: R2Cat, holder: Profile, held: list[str], army: R2List | None = None) -> tuple[Choice, ...]:
    """Miracles the faithful may call (its cult, an Aspect it has) and the army's litany
    budget can pay (given the list), with their litany costs."""
    budget, spent = litany_budget(cat, army) if army is not None else (0, 0)
    out = []
    for m in cat.data.miracles:
        cults = f", {', '.join(lore_word(c) for c in m.cults)}" if m.cults else ""
        if m.id in held:
            why = ""
        else:
            why = miracle_refusal(holder, m) or (litany_refusal(m.budget_cost, budget, spent) if army is not None else "")
        verb = "held: choose to take it back" if m.id in held else f"{plural(m.budget_cost, 'litany point')}{cults}"
        out.append(Choice(m.id, m.name, verb, why))
    return tuple(out)


def _deck_choices(army: R2List, cat: R2Cat, field: str) -> tuple[Choice, ...]:
    data = cat.data
    taken = set(getattr(army, field))
    out = []
    if field == "tactics":
        for t in data.tactics:
            why = "already in the deck" if t.id in taken else ""
            out.append(Choice(t.id, t.name, t.condition, why))
    elif field == "communions":
        faithful = army_faithful(cat, army)
        budget, spent = litany_budget(cat, army)
        for c in data.communions:
            why = "already bought" if c.id in taken else (communion_refusal(faithful, c) or litany_refusal(c.power, budget, spent))
            out.append(Choice(c.id, c.name, f"{plural(c.power, 'litany point')}, cult {lore_word(c.cult)}, Aspect {' or '.join(c.aspects)}", why))
    else:
        elements = army_elements(cat, army)
        left = points_left(army, cat)
        for r in data.rituals:
            why = "already bought" if r.id in taken else (ritual_refusal(elements, r) or budget_refusal(r.power, left))
            out.append(Choice(r.id, r.name, f"{r.power} A.P., {r.element}", why))
    return tuple(out)


def people_choices(cat: R2Cat, army: R2List | None = None) -> tuple[Choice, ...]:
    """Peoples that have profiles in this catalogue (an army of none cannot be built); given
    the list, another people is refused while units of the list's own stand in it."""
    data = cat.data
    counts: dict[str, int] = {}
    for q in data.profiles:
        counts[q.people] = counts.get(q.people, 0) + 1
    held = {unit_people(cat, army, u) for u in army.units} if army is not None else set()
    out = []
    for people in data.peoples:
        if not counts.get(people.id):
            continue
        others = sorted(people_name(cat, h) for h in held if h != people.id)
        why = f"the list holds units of {', '.join(others)}: remove them first, or start a new list" if others else ""
        out.append(Choice(people.id, people.name, f"{people.formation} formation, {plural(counts[people.id], 'profile')}", why))
    return tuple(out)


def troops_refusal(cat: R2Cat, army: R2List, unit: Unit, p: Profile) -> str:
    """Why the troops of ``unit`` may not become ``p`` ("" when they may): the unit's
    Characters and leader must still be allowed to stand in it, the points must fit."""
    if unit.troops is not None and unit.troops.profile == p.id:
        return ""
    count = unit.troops.count if unit.troops is not None else 5
    changed = unit.model_copy(update={"troops": Troops(profile=p.id, count=count)})
    for m in unit.members:
        q = profile(cat, m.profile)
        why = rank_refusal(cat, changed, q, m.leader) if q is not None else ""
        if why:
            return why
    old = unit_cost(cat, unit)
    return budget_refusal(unit_cost(cat, changed) - old, points_left(army, cat))


def format_label(cat: R2Cat, army: R2List) -> str:
    """The list's format as a player reads it ("1000 A.P.", or the list's own limit)."""
    fmt = list_format(army, cat)
    if fmt is None:
        return f"{army.format} (not in the catalogue)"
    return f"{army.limit} A.P. (own limit)" if army.limit is not None and army.limit != fmt.limit else fmt.name


def member_role_actions(cat: R2Cat, army: R2List, unit: Unit, member: Member, p: Profile | None) -> list[EditAction]:
    """Leader, Commander-in-Chief and army standard: each offered as the rules allow it for
    this fighter (legality.py, the validator's own checks), else refused with the reason."""
    missing = "this profile is not in the catalogue"
    out = []
    if member.leader:
        out.append(EditAction("toggle-leader", "Stop leading the unit", (), "member"))
    else:
        why = leader_refusal(cat, unit, p) if p is not None else missing
        out.append(EditAction("toggle-leader", "Make leader of the unit", (), "member", refused=why))
    if not member.commander_in_chief:
        current = next(
            (q.name for u in army.units for m in u.members if m.commander_in_chief and (q := profile(cat, m.profile)) is not None),
            "",
        )
        label = "Make Commander-in-Chief" + (f" (in place of {current})" if current else "")
        why = commander_refusal(cat, army, p) if p is not None else missing
        out.append(EditAction("set-commander-in-chief", label, (), "member", refused=why))
    if member.army_standard:
        out.append(EditAction("toggle-army-standard", "No longer the army standard", (), "member"))
    else:
        why = army_standard_refusal(p) if p is not None else missing
        out.append(EditAction("toggle-army-standard", "Make the army standard", (), "member", refused=why))
    return out


TEXT = "text"


def actions(army: R2List, cat: R2Cat, path: str) -> list[EditAction]:
    parts = parse_path(path)
    add_unit = EditAction(
        "add-unit",
        "Add a unit",
        (
            Param("profile", "Troops", "choice", troop_choices(cat, army.people, points_left(army, cat))),
            Param("count", "Number of troops", "int", default=5, minimum=1, maximum=99),
        ),
        "units",
    )
    if not parts:
        set_people = EditAction(
            "set-people",
            "Change the people",
            (Param("people", "People", "choice", people_choices(cat, army), default=army.people),),
            "list",
        )
        return [
            add_unit,
            *list_actions(army, cat, "list", "List name", before_format=(set_people,)),
            *_deck_adders(army, cat),
        ]
    head, index = parts[0]
    if head == "units" and index is None:
        return [add_unit]
    if head in ("tactics", "communions", "rituals"):
        if index is None:
            return [a for a in _deck_adders(army, cat) if a.group == head]
        return [EditAction(f"remove-{head}", f"Remove from {head}", (), head, destructive=True)]
    if head != "units" or index is None or index >= len(army.units):
        return []
    unit = army.units[index]
    people = unit_people(cat, army, unit)
    unit_actions = [
        EditAction(
            "add-member",
            "Add a Character or independent",
            (Param("profile", "Fighter", "choice", member_choices(cat, army, unit)),),
            "unit",
        ),
        EditAction(
            "set-count",
            "Change the number of troops",
            (Param("count", "Number of troops", "int", default=unit.troops.count if unit.troops else 1, minimum=0, maximum=99),),
            "unit",
        ),
        EditAction("rename-unit", "Rename the unit", (Param("name", "Unit name", "text", default=unit.name),), "unit"),
        EditAction("edit-unit-notes", "Edit the unit notes", (Param("notes", "Notes", "text", default=unit.notes),), "unit"),
        EditAction(
            "set-troops",
            "Change the troops' profile",
            (Param("profile", "Troops", "choice", _unit_troop_choices(cat, army, unit, people), default=unit.troops.profile if unit.troops else None),),
            "unit",
        ),
        EditAction("duplicate-unit", "Duplicate the unit (without its Characters: each is unique)", (), "unit"),
        EditAction("move-up", "Move the unit up", (), "unit"),
        EditAction("move-down", "Move the unit down", (), "unit"),
        EditAction("remove-unit", "Remove the unit", (), "unit", destructive=True),
    ]
    if len(parts) == 1:
        return unit_actions
    sub, sub_index = parts[1]
    if sub == "troops" and unit.troops is not None:
        p = profile(cat, unit.troops.profile)
        options = tuple(Choice(o.id, o.name, f"+{o.cost} A.P. per fighter") for o in (p.options if p else []))
        if unit.troops.leader:
            lead = EditAction("toggle-troop-leader", "No trooper leads the unit", (), "troops")
        else:
            why = leader_refusal(cat, unit, p) if p is not None else "this profile is not in the catalogue"
            lead = EditAction("toggle-troop-leader", "Make a trooper the leader of the unit", (), "troops", refused=why)
        out = [unit_actions[1], lead]
        if options:
            out.append(EditAction("toggle-troop-option", "Add or remove an option", (Param("option", "Option", "choice", options),), "troops"))
        return out + [a for a in unit_actions if a.id != "set-count"]
    if sub == "members" and sub_index is not None and sub_index < len(unit.members):
        member = unit.members[sub_index]
        p = profile(cat, member.profile)
        out = [
            *member_role_actions(cat, army, unit, member, p),
            EditAction("set-label", "Give a personal name", (Param("label", "Name", "text", default=member.label),), "member"),
            EditAction("remove-member", "Remove from the unit", (), "member", destructive=True),
        ]
        if p is not None and p.has_role("magician"):
            out.append(
                EditAction(
                    "set-familiars",
                    "Set the number of familiars",
                    (Param("familiars", "Familiars", "int", default=member.familiars, minimum=0, maximum=p.initiation_rank or 5),),
                    "member",
                    refused=familiar_refusal(p),
                )
            )
        if p is not None and p.has_role("faithful"):
            out.append(
                EditAction(
                    "toggle-miracle",
                    "Give or take back a miracle",
                    (Param("miracle", "Miracle", "choice", miracle_choices(cat, p, member.miracles, army)),),
                    "member",
                )
            )
        if p is not None and p.options:
            out.append(
                EditAction(
                    "toggle-member-option",
                    "Add or remove an option",
                    (Param("option", "Option", "choice", tuple(Choice(o.id, o.name, f"+{o.cost} A.P.") for o in p.options)),),
                    "member",
                )
            )
        return out + unit_actions
    return unit_actions


def _deck_adders(army: R2List, cat: R2Cat) -> list[EditAction]:
    return [
        EditAction("add-tactics", "Add a tactic to the deck", (Param("id", "Tactic", "choice", _deck_choices(army, cat, "tactics")),), "tactics"),
        EditAction("add-communions", "Buy a communion", (Param("id", "Communion", "choice", _deck_choices(army, cat, "communions")),), "communions"),
        EditAction("add-rituals", "Buy a ritual", (Param("id", "Ritual", "choice", _deck_choices(army, cat, "rituals")),), "rituals"),
    ]


# --------------------------------------------------------------------------- apply


def _int(args: dict[str, Any], name: str, low: int = 0, high: int = 999) -> int:
    try:
        value = int(need(args, name))
    except (TypeError, ValueError):
        raise ValueError(f"'{name}' must be a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"'{name}' must be between {low} and {high}")
    return value


def _toggle(items: list[str], value: str) -> list[str]:
    return [i for i in items if i != value] if value in items else [*items, value]


def apply(army: R2List, cat: R2Cat, path: str, action: str, args: dict[str, Any]) -> tuple[R2List, str]:
    new = army.model_copy(deep=True)
    parts = parse_path(path)
    if action == "add-unit":
        pid = need(args, "profile")
        if profile(cat, pid) is None:
            raise ValueError(f"no profile '{pid}' in the catalogue")
        new.units.append(Unit(troops=Troops(profile=pid, count=_int(args, "count", 1, 99))))
        return new, f"units[{len(new.units) - 1}]"
    if apply_list_edit(new, cat, action, args):
        return new, path
    if action == "set-people":
        people = need(args, "people")
        if cat.get("peoples", people) is None:
            raise ValueError(f"no people '{people}' in the catalogue")
        new.people = people
        return new, path
    for field in ("tactics", "communions", "rituals"):
        if action == f"add-{field}":
            entry_id = need(args, "id")
            if cat.get(field, entry_id) is None:
                raise ValueError(f"no {field[:-1]} '{entry_id}' in the catalogue")
            getattr(new, field).append(entry_id)
            return new, f"{field}[{len(getattr(new, field)) - 1}]"
        if action == f"remove-{field}":
            index = parts[0][1] if parts else None
            items = getattr(new, field)
            if index is None or index >= len(items):
                raise ValueError(f"choose an entry of the {field} first")
            del items[index]
            return new, field
    if not parts or parts[0][0] != "units" or parts[0][1] is None or parts[0][1] >= len(new.units):
        raise ValueError("choose a unit first")
    ui = parts[0][1]
    unit = new.units[ui]
    member_index = parts[1][1] if len(parts) > 1 and parts[1][0] == "members" else None
    member = unit.members[member_index] if member_index is not None and member_index < len(unit.members) else None
    if action == "add-member":
        pid = need(args, "profile")
        if profile(cat, pid) is None:
            raise ValueError(f"no profile '{pid}' in the catalogue")
        unit.members.append(Member(profile=pid))
        return new, f"units[{ui}].members[{len(unit.members) - 1}]"
    if action == "set-count":
        count = _int(args, "count", 0, 99)
        if unit.troops is None:
            raise ValueError("this unit has no troops; choose its troops' profile first")
        unit.troops.count = count
        return new, path
    if action == "set-troops":
        pid = need(args, "profile")
        if profile(cat, pid) is None:
            raise ValueError(f"no profile '{pid}' in the catalogue")
        unit.troops = Troops(profile=pid, count=unit.troops.count if unit.troops else 5)
        return new, f"units[{ui}].troops"
    if action == "rename-unit":
        unit.name = str(args.get("name") or "")
        return new, f"units[{ui}]"
    if action == "edit-unit-notes":
        unit.notes = str(args.get("notes") or "")
        return new, f"units[{ui}]"
    if action == "duplicate-unit":
        new.units.insert(ui + 1, _without_unique_marks(unit.model_copy(deep=True), cat))
        return new, f"units[{ui + 1}]"
    if action in ("move-up", "move-down"):
        target = ui - 1 if action == "move-up" else ui + 1
        if not 0 <= target < len(new.units):
            return new, f"units[{ui}]"
        new.units[ui], new.units[target] = new.units[target], new.units[ui]
        return new, f"units[{target}]"
    if action == "remove-unit":
        del new.units[ui]
        return new, f"units[{min(ui, len(new.units) - 1)}]" if new.units else "units"
    if action == "toggle-troop-leader":
        if unit.troops is None:
            raise ValueError("this unit has no troops")
        unit.troops.leader = not unit.troops.leader
        if unit.troops.leader:
            for m in unit.members:
                m.leader = False
        return new, f"units[{ui}].troops"
    if action == "toggle-troop-option":
        if unit.troops is None:
            raise ValueError("this unit has no troops")
        unit.troops.options = _toggle(unit.troops.options, need(args, "option"))
        return new, f"units[{ui}].troops"
    if member is None:
        raise ValueError("choose a member of the unit first")
    where = f"units[{ui}].members[{member_index}]"
    if action == "remove-member":
        del unit.members[member_index]  # type: ignore[arg-type]
        return new, f"units[{ui}]"
    if action == "toggle-leader":
        member.leader = not member.leader
        if member.leader:
            for other in unit.members:
                if other is not member:
                    other.leader = False
            if unit.troops:
                unit.troops.leader = False
        return new, where
    if action == "set-commander-in-chief":
        for u in new.units:
            for m in u.members:
                m.commander_in_chief = False
        member.commander_in_chief = True
        return new, where
    if action == "toggle-army-standard":
        turning_on = not member.army_standard
        if turning_on:
            for u in new.units:
                for m in u.members:
                    m.army_standard = False
        member.army_standard = turning_on
        return new, where
    if action == "set-label":
        member.label = str(args.get("label") or "")
        return new, where
    if action == "set-familiars":
        member.familiars = _int(args, "familiars", 0, 20)
        return new, where
    if action == "toggle-miracle":
        mid = need(args, "miracle")
        if cat.get("miracles", mid) is None:
            raise ValueError(f"no miracle '{mid}' in the catalogue")
        member.miracles = _toggle(member.miracles, mid)
        return new, where
    if action == "toggle-member-option":
        member.options = _toggle(member.options, need(args, "option"))
        return new, where
    raise ValueError(f"unknown edit '{action}'")


def _without_unique_marks(unit: Unit, cat: R2Cat) -> Unit:
    """A duplicated unit copies neither the army-wide marks nor its Characters (unique)."""
    unit.members = [m for m in unit.members if not ((p := profile(cat, m.profile)) is not None and p.has_role("character"))]
    for m in unit.members:
        m.commander_in_chief = False
        m.army_standard = False
    return unit


# --------------------------------------------------------------------------- browse


def browse(cat: R2Cat) -> list[BrowserEntry]:
    data = cat.data
    peoples = {p.id: p.name for p in data.peoples}
    ranks = {r.id: r for r in data.ranks}
    out: list[BrowserEntry] = []
    for p in data.profiles:
        rank = ranks.get(p.rank)
        category = "character" if p.has_role("character") else (rank.scheme if rank and rank.scheme else "")
        if p.has_role("war-machine"):
            category = "support"
        facets = {
            "people": peoples.get(p.people, p.people),
            "category": SCHEME_LABEL.get(category, category),
            "rank": rank.name if rank else p.rank,
            "role": role_words(p.roles) or "troop",
        }
        out.append(
            BrowserEntry(
                EntryRef("profiles", p.id),
                p.name,
                "profile",
                f"{p.cost} A.P.",
                facets,
                " ".join([p.name, *facets.values(), *p.abilities]).lower(),
            )
        )
    for collection, kind, cost_field in (
        ("tactics", "tactic", ""),
        ("communions", "communion", "power"),
        ("miracles", "miracle", "fervor"),
        ("rituals", "ritual", "power"),
        ("abilities", "ability", ""),
    ):
        for entry in getattr(data, collection):
            cost = getattr(entry, cost_field, None) if cost_field else None
            out.append(
                BrowserEntry(
                    EntryRef(collection, entry.id),
                    entry.name,
                    kind,
                    "" if cost is None else str(cost),
                    {"people": "", "category": kind, "rank": "", "role": ""},
                    f"{entry.name} {kind}".lower(),
                )
            )
    return out


def _glossary(cat: R2Cat, ability: str) -> tuple[str, str]:
    name, _, value = ability.partition("/")
    entry = cat.get("abilities", name)
    if entry is None:
        return ability, "(no glossary entry in this catalogue version)"
    title = entry.name + (f"/{value}" if value else "")
    return title, entry.text


#: the words of a catalogue field shown as a stat, where its name alone would not say it
STAT_WORDS = {
    "min_effective": "At least fighters",
    "min_rank_category": "At least rank category",
    "scheme": "Army scheme",
    "mana": "Mana",
}


def detail(cat: R2Cat, ref: EntryRef) -> Detail:
    entry = cat.get(ref.collection, ref.id)
    if entry is None:
        return Detail(f"{ref.id}", f"not in catalogue {cat.version}", (), (("Missing", "This entry does not exist in the list's catalogue version."),))
    if ref.collection == "profiles":
        p: Profile = entry
        stats = [
            ("MOV", str(p.mov)),
            ("INI", str(p.ini)),
            ("ATT", str(p.att)),
            ("STR", str(p.str_)),
            ("DEF", str(p.def_)),
            ("RES", str(p.res)),
            ("AIM", "-" if p.aim is None else str(p.aim)),
            ("COU" if p.fear is None else "FEAR", str(p.cou if p.fear is None else p.fear) if (p.cou or p.fear) is not None else "-"),
            ("DIS", str(p.dis)),
        ]
        if p.power is not None:
            stats.append(("POW", str(p.power)))
        stats.append(("WL", str(wound_levels(cat.data.tables, p))))
        if p.aspects is not None:
            stats.append(("Aspects", f"Alt {p.aspects.alteration} / Cre {p.aspects.creation} / Des {p.aspects.destruction}"))
        rank = cat.get("ranks", p.rank)
        people = cat.get("peoples", p.people)
        sections = [("Wound levels", f"{wound_levels(cat.data.tables, p)}: " + "; ".join(wound_level_reasons(cat.data.tables, p)))]
        sections += [_glossary(cat, a) for a in p.abilities]
        if p.ranged:
            r = p.ranged
            sections.append(("Ranged weapon", f"{r.name}: STR {r.strength}, ranges {r.short}/{r.medium}/{r.long} cm"))
        for o in p.options:
            sections.append((f"Option: {o.name}", f"+{o.cost} A.P. {o.text}".strip()))
        if p.elements or p.path:
            elements = ", ".join(lore_word(e) for e in p.elements) or "-"
            sections.append(("Magic", f"Elements: {elements}; path: {lore_word(p.path)}; initiation rank {p.initiation_rank or '-'}"))
        if p.cult:
            sections.append(("Faith", f"Cult: {lore_word(p.cult)}; rank: {lore_word(p.faith_rank)}"))
        if p.assigned:
            sections.append(("Assigned by armybuilder", field_words(p.assigned) + " (CAT-D1: not in the reference data)"))
        subtitle = f"{people.name if people else p.people} · {rank.name if rank else p.rank} · {p.size}"
        if p.roles:
            subtitle += " · " + role_words(p.roles)
        return Detail(p.name, subtitle, tuple(stats), tuple(sections), f"{p.cost} A.P.")
    fields = entry.model_dump(exclude={"id", "name"})
    # bools (provisional) and empty values are not stats: "provisional True" leaked raw values
    entry_stats = tuple(
        (STAT_WORDS.get(k, k.replace("_", " ").capitalize()), SCHEME_LABEL.get(str(v), str(v)) if k == "scheme" else str(v))
        for k, v in fields.items()
        if isinstance(v, (int, str)) and not isinstance(v, bool)
        and k not in ("text", "condition", "pros", "cons", "source", "decision") and v != ""
    )
    entry_sections = tuple((k.capitalize(), str(fields[k])) for k in ("condition", "pros", "cons", "text", "source") if fields.get(k))
    if fields.get("provisional"):
        entry_sections = (("Provisional", f"Written by armybuilder ({fields.get('decision') or 'rules-decisions'}); a later catalogue may correct it."),) + entry_sections
    cost = ""
    if "power" in fields:
        cost = f"Power {fields['power']}"
    return Detail(entry.name, ref.collection.rstrip("s"), entry_stats, entry_sections, cost)
