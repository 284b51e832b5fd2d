"""Pit Fighters' edits: outline, actions at a place, apply, browser and detail."""

from __future__ import annotations

from typing import Any

from armybuilder.core.editing import (
    apply_list_edit,
    format_action,
    need,
    notes_action,
    rename_action,
)
from armybuilder.core.paths import ListPath, PathError
from armybuilder.core.system import (
    BrowserEntry,
    Choice,
    Detail,
    EditAction,
    EntryRef,
    OutlineNode,
    Param,
)

from .model import Fighter, PitCat, PitList, cost, fighter_type, name


def _type_choices(cat: PitCat, crew: str) -> tuple[Choice, ...]:
    return tuple(Choice(t.id, t.name, f"{t.cost} coins") for t in cat.data.fighters if t.crew == crew)


def outline(army: PitList, cat: PitCat) -> list[OutlineNode]:
    fighters = tuple(
        OutlineNode(f"fighters[{i}]", name(cat, f), "leader" if (t := fighter_type(cat, f)) and t.leader else "", cost(cat, f), EntryRef("fighters", f.type))
        for i, f in enumerate(army.fighters)
    )
    return [OutlineNode("fighters", "Fighters", f"{len(army.fighters)} fighters", None, None, fighters)]


def _fighter_index(army: PitList, path: str) -> int | None:
    try:
        item = ListPath.parse(path).item()
    except PathError:
        return None
    if item is None or item[0] != "fighters" or item[1] >= len(army.fighters):
        return None
    return item[1]


def actions(army: PitList, cat: PitCat, path: str) -> list[EditAction]:
    add = EditAction("add-fighter", "Add a fighter", (Param("type", "Fighter", "choice", _type_choices(cat, army.crew)),), "fighters")
    if not path:
        return [add, rename_action(army, "crew", "Crew name"), notes_action(army, "crew"), format_action(cat)]
    if path == "fighters":
        return [add]
    index = _fighter_index(army, path)
    if index is None:
        return []
    f = army.fighters[index]
    return [
        EditAction("set-label", "Give a name", (Param("label", "Name", "text", default=f.label),), "fighter", kind="rename"),
        EditAction("edit-fighter-notes", "Edit the fighter's notes", (Param("notes", "Notes", "text", default=f.notes),), "fighter", kind="notes"),
        EditAction("remove-fighter", "Remove the fighter", (), "fighter", destructive=True, kind="remove"),
        add,
    ]


def apply(army: PitList, cat: PitCat, path: str, action: str, args: dict[str, Any]) -> tuple[PitList, str]:
    new = army.model_copy(deep=True)
    if action == "add-fighter":
        type_id = need(args, "type")
        if cat.get("fighters", type_id) is None:
            raise ValueError(f"no fighter type '{type_id}' in the catalogue")
        new.fighters.append(Fighter(type=type_id))
        return new, f"fighters[{len(new.fighters) - 1}]"
    if apply_list_edit(new, cat, action, args):
        return new, path
    index = _fighter_index(army, path)
    if index is None:
        raise ValueError("choose a fighter first")
    if action == "set-label":
        new.fighters[index].label = str(args.get("label") or "")
        return new, path
    if action == "edit-fighter-notes":
        new.fighters[index].notes = str(args.get("notes") or "")
        return new, path
    if action == "remove-fighter":
        del new.fighters[index]
        return new, f"fighters[{min(index, len(new.fighters) - 1)}]" if new.fighters else "fighters"
    raise ValueError(f"unknown edit '{action}'")


def browse(cat: PitCat) -> list[BrowserEntry]:
    crews = {c.id: c.name for c in cat.data.crews}
    return [
        BrowserEntry(
            EntryRef("fighters", t.id),
            t.name,
            "fighter",
            f"{t.cost} coins",
            {"crew": crews.get(t.crew, t.crew), "role": "leader" if t.leader else "fighter"},
            f"{t.name} {t.crew}".lower(),
        )
        for t in cat.data.fighters
    ]


def detail(cat: PitCat, ref: EntryRef) -> Detail:
    t = cat.get(ref.collection, ref.id)
    if t is None or ref.collection != "fighters":
        return Detail(f"{ref.id} (not in catalogue {cat.version})")
    return Detail(t.name, t.crew, (("Attack", str(t.attack)), ("Guard", str(t.guard))), (("Rules", t.text),) if t.text else (), f"{t.cost} coins")
