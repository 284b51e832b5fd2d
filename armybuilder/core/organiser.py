"""Tournament fields of a list (player, team, event, date, round) and the facts a print adds.

An organiser needs to know whose list a roster is, for which event and round, and
which program and catalogue produced it.  The fields are optional and validated
(one line of text, a real date, a round from 1 to 99).  They describe the occasion,
not the army: the fingerprint leaves them out (``ORGANISER_FIELDS``), so a list keeps
its fingerprint from one round to the next.

Every system's roster calls :func:`roster_facts` for the header lines, so the PDF
roster, the text roster and the one-page summary show the same facts.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import Catalogue

#: list fields that say where and by whom a list is played; not part of the fingerprint
ORGANISER_FIELDS = ("player", "team", "event", "date", "round")

def program_version() -> str:
    from armybuilder import __version__

    return f"armybuilder {__version__}"


def catalogue_fact(cat: Catalogue[Any]) -> str:
    """``1.0.0 (hash …)``, and ``— an older version: the latest is 1.1.0`` when it is not the latest.

    The registry lookup is lazy: core modules must not import the systems at start-up.
    """
    text = f"{cat.version} (hash {bundled_hash(cat)})"
    latest = latest_version(cat)
    if latest and latest != cat.version:
        text += f" — pinned to an older version; the latest is {latest}"
    return text


def bundled_hash(cat: Catalogue[Any]) -> str:
    """The hash ``catalog versions`` shows for the bundled version: a catalogue with house
    catalogues merged in has its own (which the fingerprint covers); the facts name both."""
    if not getattr(cat, "houses", ()):
        return cat.hash
    try:
        from .registry import get_system

        return get_system(cat.system).catalogue(cat.version).hash
    except Exception:  # noqa: BLE001 - a test catalogue outside the registry
        return cat.hash


def latest_version(cat: Catalogue[Any]) -> str:
    try:
        from .registry import get_system

        return get_system(cat.system).source.latest
    except Exception:  # noqa: BLE001 - a test catalogue outside the registry has no "latest"
        return ""


def organiser_facts(army: Any) -> tuple[tuple[str, str], ...]:
    """(label, value) for each organiser field the list fills in, in a fixed order."""
    out: list[tuple[str, str]] = []
    for key in ORGANISER_FIELDS:
        value = getattr(army, key, None)
        if value in (None, ""):
            continue
        out.append((key.capitalize(), value.isoformat() if isinstance(value, dt.date) else str(value)))
    return tuple(out)


def roster_facts(army: Any, cat: Catalogue[Any]) -> tuple[tuple[str, str], ...]:
    """The header lines every roster ends with: organiser fields, catalogue, the house
    catalogues the list uses (an organiser must see data the bundled catalogue lacks), program."""
    return (*organiser_facts(army), ("Catalogue", catalogue_fact(cat)), *house_facts(cat), ("Program", program_version()))


#: the label of a house catalogue's line on every print (the summary keeps it too)
HOUSE_FACT = "House data"


def house_facts(cat: Catalogue[Any]) -> tuple[tuple[str, str], ...]:
    """``House data: uses house catalogue wolfen-of-yllia 1.2.0 (hash …), not in the bundled
    catalogue`` for each house catalogue of ``cat`` (:mod:`.house`)."""
    out = []
    for use in getattr(cat, "houses", ()):
        text = use.words()
        if use.hash:
            text += f" (hash {use.hash})"
        out.append((HOUSE_FACT, text + ": a player's data, not in the bundled catalogue"))
    return tuple(out)


# --------------------------------------------------------------------------- marks on a roster

_INDEX = re.compile(r"^([a-z_]+)\[(\d+)\]")


def errors_by_index(findings: Any, collection: str) -> dict[int, list[str]]:
    """Error messages per entry of ``collection`` (``units``, ``groups``, ``warriors``).

    A finding's ``where`` (``units[2].members[0]``) says which unit breaks a rule, so
    the roster can mark the unit where it stands, not only in the box on page 1.
    """
    out: dict[int, list[str]] = {}
    for f in findings:
        if str(getattr(f, "severity", "")) != "error" or getattr(f, "army_wide", False):
            continue  # an army-wide error is the list's, not the unit's a fix could start at
        match = _INDEX.match(getattr(f, "where", "") or "")
        if match and match[1] == collection:
            out.setdefault(int(match[2]), []).append(f.message)
    return out


def total_text(total: float, limit: float, unit: str, *, missing: int = 0) -> str:
    """``980 / 1000 A.P.``, marked when over the limit or when missing entries were not costed."""
    text = f"{total:g} / {limit:g} {unit}".rstrip()
    if limit and total > limit:
        text += f" — OVER THE LIMIT by {total - limit:g}"
    if missing:
        text += f" — {missing} missing profile{'s' * (missing != 1)} not costed: the true total is unknown"
    return text


def apply_organiser(army: Any, args: dict[str, Any]) -> None:
    """Set the organiser fields from an edit form's texts, with the list file's own checks.

    Raises ``ValueError`` with a plain message (the editor shows it) on a bad value.
    """
    from .list_model import one_line

    values: dict[str, Any] = {}
    for key in ("player", "team", "event"):
        text = str(args.get(key) or "")
        if len(text) > 120:
            raise ValueError(f"{key}: at most 120 characters")
        values[key] = one_line(text) if text else ""
    date = str(args.get("date") or "").strip()
    try:
        values["date"] = dt.date.fromisoformat(date) if date else None
    except ValueError:
        raise ValueError(f"date: '{date}' is not a date written YYYY-MM-DD") from None
    round_text = str(args.get("round") or "").strip()
    if round_text and not (round_text.isdigit() and 1 <= int(round_text) <= 99):
        raise ValueError(f"round: '{round_text}' is not a number from 1 to 99")
    values["round"] = int(round_text) if round_text else None
    for key, value in values.items():
        setattr(army, key, value)
