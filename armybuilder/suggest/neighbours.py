"""The legal neighbours of a list: every list one editor edit away that stays legal.

Nothing here knows a game system.  The edits are the ones the editor offers
(:meth:`GameSystem.actions` at every place of :meth:`GameSystem.outline`), their
parameters filled with every choice the picker would show (choices a system
refuses are skipped) and a few whole numbers around the form's default; each
edited list is kept only when the validator finds no error in it and its format
and point limit are the list's own.  Renaming, notes and the list's own settings
(format, tournament details) are not game edits and are never tried.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from armybuilder.core.findings import is_legal
from armybuilder.core.lists import list_content
from armybuilder.core.shapes import EditAction, OutlineNode, Param
from armybuilder.core.system import ArmyListBase, GameSystem

#: Edits that change no game: their kinds, and the list-level settings' ids.
SKIPPED_KINDS = frozenset({"rename", "notes"})
SKIPPED_IDS = frozenset({"set-format", "set-organiser", "rename-list", "edit-notes"})
#: At most this many argument sets are tried for one edit (a two-trait picker is 20 × 20).
MAX_ARGUMENT_SETS = 600
#: Whole numbers tried for an "int" parameter: the default and these steps around it,
#: plus the minimum (a new unit at its smallest size).
INT_STEPS = (-2, -1, 0, 1, 2)


@dataclass(frozen=True)
class Edit:
    """One editor edit: where, which action, with which arguments, said in words."""

    path: str
    action: str
    args: tuple[tuple[str, Any], ...]
    words: str

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "action": self.action, "args": dict(self.args), "words": self.words}


@dataclass(frozen=True)
class Neighbour:
    """A legal list one edit away from the base."""

    edit: Edit
    army: ArmyListBase
    key: str  # a digest of the list's content: the candidate's identity
    points: float  # its points as the system counts them
    cost: float  # its points minus the base list's


def content_key(army: ArmyListBase) -> str:
    """A digest of the canonical content (what is saved and fingerprinted)."""
    text = json.dumps(list_content(army), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def places(nodes: Sequence[OutlineNode], trail: str = "") -> Iterator[tuple[str, str]]:
    """(path, label in words) of every node of the outline, depth first."""
    for node in nodes:
        label = node.label if not trail else f"{trail} › {node.label}"
        yield node.path, label
        yield from places(node.children, label)


def _values(param: Param) -> list[tuple[Any, str]]:
    """(value, words) tried for one parameter."""
    if param.kind == "choice":
        return [(c.value, c.label) for c in param.choices if not c.refused]
    if param.kind == "bool":
        return [(True, "yes"), (False, "no")]
    if param.kind == "int":
        low = int(param.minimum) if param.minimum is not None else None
        high = int(param.maximum) if param.maximum is not None else None
        base = int(param.default) if isinstance(param.default, int | float) else (low if low is not None else 1)
        tried = [base + step for step in INT_STEPS]
        if low is not None:
            tried.append(low)
        out = []
        for v in dict.fromkeys(tried):
            if (low is None or v >= low) and (high is None or v <= high):
                out.append((v, str(v)))
        return out
    # text and float: the form's default (a label left empty, a figure as it stands)
    return [(param.default if param.default is not None else "", "")]


def argument_sets(action: EditAction) -> Iterator[tuple[tuple[tuple[str, Any], ...], str]]:
    """Every argument set of *action* one step from its form, with the chosen values in words.

    A parameter the form leaves empty (the unit to add) takes each of its values; of
    the parameters the form fills in (the list's current traits), one at a time
    changes while the others keep what the form shows: changing both traits of a
    warband is two steps, not one.
    """
    values = [_values(p) for p in action.params]
    if any(not v for v in values):
        return
    free = [i for i, p in enumerate(action.params) if p.default is None]
    filled = [i for i, p in enumerate(action.params) if p.default is not None]

    def at_default(i: int) -> list[tuple[Any, str]]:
        p = action.params[i]
        return [(p.default, next((w for v, w in values[i] if v == p.default), str(p.default)))]

    options: list[list[list[tuple[Any, str]]]] = []
    if filled:
        for varied in filled:
            options.append([values[i] if i in free or i == varied else at_default(i) for i in range(len(action.params))])
    else:
        options.append(values)
    seen: set[tuple[tuple[str, Any], ...]] = set()
    count = 0
    for per_param in options:
        for combo in itertools.product(*per_param):
            args = tuple((p.name, v) for p, (v, _) in zip(action.params, combo, strict=True))
            if args in seen:
                continue
            seen.add(args)
            count += 1
            if count > MAX_ARGUMENT_SETS:
                return
            words = ", ".join(_said(p, v, w, values[i]) for i, (p, (v, w)) in enumerate(zip(action.params, combo, strict=True))
                              if w and (p.kind == "int" or p.default is None or v != p.default))
            yield args, words


def _said(param: Param, value: Any, words: str, values: list[tuple[Any, str]]) -> str:
    """One chosen value in words; a value the form had filled in says what it was."""
    if param.default is not None and value != param.default:
        was = next((w for v, w in values if v == param.default), str(param.default))
        words = f"{was} → {words}"
    return f"{param.label.lower()} {words}" if param.kind == "int" else words


def game_edits(system: GameSystem[Any, Any], army: ArmyListBase, cat: Any, at: Sequence[str] | None = None) -> Iterator[tuple[str, str, EditAction]]:
    """(path, place in words, action) of every edit the editor offers that may change a game
    (at the places *at* only, when given: the editor's selected unit)."""
    seen: set[tuple[str, str]] = set()
    for path, label in [("", "List"), *places(system.outline(army, cat))]:
        if at is not None and path not in at:
            continue
        for action in system.actions(army, cat, path):
            if action.kind in SKIPPED_KINDS or action.id in SKIPPED_IDS or (path, action.id) in seen:
                continue
            seen.add((path, action.id))
            yield path, label, action


def _same_limit(system: GameSystem[Any, Any], base: ArmyListBase, other: ArmyListBase, cat: Any) -> bool:
    return other.format == base.format and getattr(other, "limit", None) == getattr(base, "limit", None)


def neighbours(system: GameSystem[Any, Any], army: ArmyListBase, cat: Any | None = None, at: Sequence[str] | None = None) -> list[Neighbour]:
    """The distinct legal lists one edit away from *army*, in the order the editor offers them.

    *at*: only the edits offered at these list paths ("" is the list itself).
    Two edits that give the same list (a member's "remove the unit" and the unit's
    own) count once, under the first; an edit that changes nothing is not a neighbour.
    """
    cat = cat if cat is not None else system.catalogue_for(army)
    base_points = system.points(army, cat).total
    seen = {content_key(army)}
    out: list[Neighbour] = []
    for path, place, action in game_edits(system, army, cat, at):
        for args, chosen in argument_sets(action):
            try:
                new, _ = system.apply(army, cat, path, action.id, dict(args))
            except (ValueError, LookupError, TypeError):
                continue  # the editor would refuse it with a sentence
            key = content_key(new)
            if key in seen:
                continue
            seen.add(key)
            if not _same_limit(system, army, new, cat) or not is_legal(system.findings(new, cat)):
                continue
            points = system.points(new, cat).total
            words = f"{place}: {action.label}" + (f" ({chosen})" if chosen else "") if path else action.label + (f": {chosen}" if chosen else "")
            out.append(Neighbour(Edit(path, action.id, args, words), new, key, points, points - base_points))
    return out
