"""Editor helpers every game system's ``editing`` module shares.

The systems' edits are pure functions over list paths (``units[2].members[0]``) and
argument dicts filled in by the UI.  Parsing those paths, asking for a required
argument and the list-level edits (rename, notes, format) are the same in every
game, so they live here once and each system keeps only its own edits.
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalogue
from .organiser import apply_organiser
from .paths import parse_path
from .system import ArmyListBase, Choice, EditAction, Param

__all__ = ["parse_path", "need", "rename_action", "notes_action", "organiser_action", "format_action", "list_actions", "point_limit", "apply_list_edit"]


def need(args: dict[str, Any], name: str) -> Any:
    """The argument ``name``; a user-readable ``ValueError`` when it is missing or blank."""
    if name not in args or args[name] in (None, ""):
        raise ValueError(f"'{name}' is needed for this edit")
    return args[name]


# --------------------------------------------------------------------------- list-level edits


def rename_action(army: ArmyListBase, what: str, name_label: str) -> EditAction:
    """"Rename the <what>", asking for the new name (``name_label``)."""
    return EditAction("rename-list", f"Rename the {what}", (Param("name", name_label, "text", default=army.name),), "list", kind="rename")


def notes_action(army: ArmyListBase, what: str) -> EditAction:
    """"Edit the <what> notes"."""
    return EditAction("edit-notes", f"Edit the {what} notes", (Param("notes", "Notes", "text", default=army.notes),), "list", kind="notes")


def organiser_action(army: ArmyListBase) -> EditAction:
    """"Tournament details": player, team, event, date, round (core/organiser.py); all optional."""
    date = army.date.isoformat() if army.date else ""
    return EditAction(
        "set-organiser",
        "Tournament details (player, team, event, date, round)",
        (
            Param("player", "Player", "text", default=army.player),
            Param("team", "Team", "text", default=army.team),
            Param("event", "Event", "text", default=army.event),
            Param("date", "Date (YYYY-MM-DD, empty: none)", "text", default=date),
            Param("round", "Round (1-99, empty: none)", "text", default=str(army.round or "")),
        ),
        "list",
    )


def format_choices(cat: Catalogue[Any]) -> tuple[Choice, ...]:
    """The catalogue's formats, with their limit as the detail."""
    return tuple(Choice(f.id, f.name, f"{f.limit} {f.unit}") for f in cat.data.formats)


def format_action(cat: Catalogue[Any], current: str | None = None, limit: int | None = None) -> EditAction:
    """"Change the format or the point limit": a catalogue format, and optionally the
    player's own limit (1250 A.P.) in place of the format's; the form starts on the
    list's current values."""
    param = Param("format", "Format", "choice", format_choices(cat), default=current)
    own = Param(
        "limit", "Point limit of your own (empty: the format's)", "int", default=limit, minimum=1, maximum=1_000_000,
        help="any whole number above 0; the format's other rules stay",
    )
    return EditAction("set-format", "Change the format or the point limit", (param, own), "list", kind="change")


def list_actions(
    army: ArmyListBase, cat: Catalogue[Any], what: str, name_label: str, notes_of: str | None = None, *, before_format: tuple[EditAction, ...] = ()
) -> list[EditAction]:
    """The list-level edits every system offers at the list's root, in the editor's order:
    rename (``what``, asking for ``name_label``), notes (of ``notes_of``, else of ``what``),
    tournament details, the system's own list-wide edits (``before_format``), then the format
    and point limit; :func:`apply_list_edit` applies them."""
    return [
        rename_action(army, what, name_label),
        notes_action(army, notes_of or what),
        organiser_action(army),
        *before_format,
        format_action(cat, army.format, army.limit),
    ]


def point_limit(raw: Any) -> int | None:
    """A point limit typed by the player: None when left empty, else a whole number above 0."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise ValueError(f"the point limit must be a whole number, not '{raw}'") from None
    if not 0 < value <= 1_000_000:
        raise ValueError(f"the point limit must be between 1 and 1000000, not {value}")
    return value


def apply_list_edit(new: ArmyListBase, cat: Catalogue[Any], action: str, args: dict[str, Any]) -> bool:
    """Apply a list-level edit (rename-list, edit-notes, set-format) to ``new`` in place.

    Returns False when ``action`` is none of them, so the system's own edits run;
    the selection stays where it was after any of them.
    """
    if action == "rename-list":
        new.name = str(need(args, "name"))
        return True
    if action == "edit-notes":
        new.notes = str(args.get("notes") or "")
        return True
    if action == "set-organiser":
        apply_organiser(new, args)
        return True
    if action == "set-format":
        fmt = need(args, "format")
        entry = cat.get("formats", fmt)
        if entry is None:
            raise ValueError(f"no format '{fmt}' in the catalogue")
        limit = point_limit(args.get("limit"))
        new.format = fmt
        new.limit = None if limit == entry.limit else limit
        return True
    return False
