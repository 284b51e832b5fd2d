"""What lists, commands and the editor are told about house catalogues (:mod:`.house`):
the findings of a list's pins, the marks on house entries in the editor's browser and
detail, the factions a new list may take, the pins ``list upgrade`` moves to, and the one
catalogue a game between two lists is played with (also in another process)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .catalog import Catalogue, parse_version
from .errors import InputError
from .findings import Finding, Severity
from .house import (
    HouseData,
    HouseSource,
    HouseUse,
    combine,
    find,
    game_catalogue,
    house_of,
    installed,
    pin_fields,
    pin_of,
    pins_of,
)
from .house_paths import user_folder

if TYPE_CHECKING:
    from .system import Choice, GameSystem


def offering(system: GameSystem[Any, Any], faction: str) -> list[HouseSource]:
    """The installed house catalogues that make ``faction`` playable when the bundled
    catalogue does not (a people whose profiles only a house catalogue has)."""
    bundled = system.catalogue()
    if faction in {c.value for c in system.factions(bundled)}:
        return []
    out = []
    for source in installed(system):
        try:
            cat = combine(system, bundled.version, [source.data(source.latest)])
        except InputError:
            continue
        if faction in {c.value for c in system.factions(cat)}:
            out.append(source)
    return out


def shared_catalogue(system: GameSystem[Any, Any], version: str, armies: Sequence[Any]) -> Catalogue[Any]:
    """The one catalogue the games between ``armies`` are played with: ``version`` and every
    house catalogue the lists use.  InputError when one cannot be used (missing, or its ids
    clash with another's): a game with unknown fighters is not played."""
    cat = game_catalogue(system, version, pins_of(*armies))
    wrong = [u for u in cat.houses if not u.used]
    if wrong:
        raise InputError.at("the games need every house catalogue the lists use: " + "; ".join(
            f"{u.id} {u.version}: {u.detail or u.status}" for u in wrong))
    return cat


def portable_houses(cat: Catalogue[Any]) -> list[dict[str, Any]]:
    """The house data merged into ``cat``, for a worker process (:func:`from_portable`)."""
    return [u.data.portable() for u in cat.houses if u.data is not None]


def from_portable(system: GameSystem[Any, Any], version: str, houses: Sequence[dict[str, Any]]) -> Catalogue[Any]:
    """In a worker: the catalogue :func:`portable_houses` described (each house validated)."""
    if not houses:
        return system.catalogue(version)
    return combine(system, version, [HouseData.from_portable(system, h) for h in houses])


def faction_choices(system: GameSystem[Any, Any]) -> list[Choice]:
    """The factions a new list may take: the bundled ones, then, for each installed house
    catalogue, the factions it makes playable or adds to (value ``faction@house-id``,
    labelled with the house catalogue: see :func:`new_list_catalogue`)."""
    from .records import Choice

    bundled = system.catalogue()
    plain = system.factions(bundled)
    details = {c.value: c.detail for c in plain}
    out = list(plain)
    for source in installed(system):
        try:
            cat = combine(system, bundled.version, [source.data(source.latest)])
        except InputError:
            continue  # 'catalog list' and 'catalog check' say why
        for choice in system.factions(cat):
            if details.get(choice.value) != choice.detail:  # new, or with more to choose from
                out.append(Choice(f"{choice.value}@{source.id}", f"{choice.label} — house catalogue {source.id} {source.latest}", choice.detail))
    return out


def new_list_catalogue(system: GameSystem[Any, Any], faction: str | None) -> tuple[str | None, list[dict[str, str]], Catalogue[Any]]:
    """(faction, house pins, catalogue) of a new list for a :func:`faction_choices` value."""
    if faction is None or "@" not in faction:
        return faction, [], system.catalogue()
    faction, _, house_id = faction.partition("@")
    source = find(system, house_id)
    if source is None:
        raise InputError.at(f"house catalogue {house_id} is not installed")
    pins = [pin_of(source)]
    return faction, pins, game_catalogue(system, system.source.latest, pins)


#: the browser facet saying where an entry comes from, when a list uses house data
DATA_FACET = "data"


def mark_entries(entries: list[Any], cat: Catalogue[Any]) -> list[Any]:
    """The editor's browser entries, each saying whether it is house data (facet
    ``data: house wolfen-of-yllia`` or ``data: bundled``), so a player sees, and can
    filter, which entries the bundled catalogue does not have."""
    if not cat.houses:
        return entries
    out = []
    for entry in entries:
        use = house_of(cat, entry.ref.collection, entry.ref.id)
        mark = f"house {use.id}" if use is not None else "bundled"
        out.append(dataclasses.replace(entry, facets={**entry.facets, DATA_FACET: mark}, search=f"{entry.search} {mark}".strip()))
    return out


def mark_actions(actions: list[Any], cat: Catalogue[Any]) -> list[Any]:
    """The edits offered at a place, their choices of house entries marked (``house · …``
    before the choice's detail), as the browser marks them."""
    ids = {entry_id for use in cat.houses for _, entry_id in use.entries}
    if not ids:
        return actions
    out = []
    for action in actions:
        params = tuple(
            dataclasses.replace(p, choices=tuple(
                dataclasses.replace(c, detail=f"house · {c.detail}" if c.detail else "house") if isinstance(c.value, str) and c.value in ids else c
                for c in p.choices
            )) if p.kind == "choice" and p.choices else p
            for p in action.params
        )
        out.append(dataclasses.replace(action, params=params) if params != action.params else action)
    return out


def mark_detail(detail: Any, cat: Catalogue[Any], collection: str, entry_id: str) -> Any:
    """A detail whose entry comes from a house catalogue says so first."""
    use = house_of(cat, collection, entry_id)
    if use is None:
        return detail
    said = f"house catalogue {use.id} {use.version} ({use.name})"
    return dataclasses.replace(detail, subtitle=f"{said} · {detail.subtitle}" if detail.subtitle else said)


# --------------------------------------------------------------------------- what a list is told


def house_findings(system: GameSystem[Any, Any], army: Any, cat: Catalogue[Any]) -> list[Finding]:
    """One finding per house catalogue the list pins: which one it uses (information an
    organiser needs), or why it cannot (an error: its entries are unknown here)."""
    pins = list(getattr(army, "house", ()) or ())
    if not pins:
        return []
    by_id = {u.id: u for u in cat.houses}
    rule = f"{system.id}.catalogue.house"
    out: list[Finding] = []
    for index, pin in enumerate(pins):
        house_id, version, pinned = pin_fields(pin)
        use = by_id.get(house_id)
        if use is None:
            use = HouseUse(house_id, version, pinned, "missing")
        where = f"house[{index}]"
        shown = f"house catalogue {house_id} {version}"
        if use.status == "ok":
            text = (f"{use.words()} ({use.name}): data a player wrote, not in the bundled catalogue; "
                    "an organiser checks the list with the catalogue's folder (armybuilder --catalog DIR validate LIST)")
            if use.latest and use.latest != version and parse_version(use.latest) > parse_version(version):
                text += f". Version {use.latest} is installed: 'armybuilder list upgrade' (in the editor: u) moves the list to it"
            out.append(Finding(rule, Severity.INFO, text, where, "house catalogue"))
        elif use.status == "changed":
            out.append(Finding(rule, Severity.ERROR, (
                f"{shown} has changed since the list was pinned to it (hash {use.pinned_hash} then, {use.hash} now): "
                "the list is checked against the data found, and its fingerprint differs from one printed before. "
                "Ask for the catalogue the list was built with, or pin this one: 'armybuilder list upgrade' (in the editor: u)"
            ), where, "house catalogue"))
        elif use.status == "missing":
            out.append(Finding(rule, Severity.ERROR, (
                f"{shown} is not installed here: the entries it adds are unknown, the list keeps them. "
                f"Put its folder in {user_folder()} or name it with 'armybuilder --catalog DIR'"
            ), where, "house catalogue"))
        elif use.status == "no-version":
            out.append(Finding(rule, Severity.ERROR, (
                f"{shown} is not installed here ({use.detail}): the entries it adds are unknown, the list keeps them. "
                "Ask for that version, or move the list: 'armybuilder list upgrade' (in the editor: u)"
            ), where, "house catalogue"))
        else:
            out.append(Finding(rule, Severity.ERROR, (
                f"{shown} cannot be used: {use.detail}. Its entries are unknown, the list keeps them; "
                f"'armybuilder catalog check {use.folder or 'DIR'}' says what to fix"
            ), where, "house catalogue"))
    return out


def uses_text(cat: Catalogue[Any]) -> str:
    """``uses house catalogue wolfen-of-yllia 1.2.0`` for each house of ``cat``, joined."""
    return "; ".join(u.words() for u in cat.houses)


def latest_pins(system: GameSystem[Any, Any], army: Any, moves: dict[str, str | None] | None = None) -> list[dict[str, str]]:
    """The list's house pins moved to the installed latest version (or the version
    ``moves`` names for an id; a new id adds that house catalogue), hashes as found now.

    Raises InputError for a house catalogue that is not installed or lacks the version."""
    moves = dict(moves or {})
    out: list[dict[str, str]] = []
    ids = [pin_fields(p)[0] for p in getattr(army, "house", ()) or ()]
    for house_id in ids + [i for i in moves if i not in ids]:
        source = find(system, house_id)
        if source is None:
            raise InputError.at(f"house catalogue {house_id} is not installed (installed: {', '.join(s.house_id for s in installed(system)) or 'none'})")
        version = moves.get(house_id) or source.latest
        if not source.has_version(version):
            raise InputError.at(f"house catalogue {house_id} has no version {version} (installed: {', '.join(v.version for v in source.versions())})")
        out.append(pin_of(source, version))
    return out
