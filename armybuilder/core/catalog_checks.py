"""``catalog check``: what a catalogue must satisfy, each problem at its file and line.

Resolving a version (merging the data files, applying errata) already refuses what
cannot be built.  These checks catch what builds but is wrong: an entry id used
twice, a reference to nothing, a negative cost, an erratum that is not newer than
the base catalogue or shares its version with another one, a data file emptied by
mistake.  ``validate`` runs them too and refuses to judge a list against a
catalogue that fails them.

Positions come from re-reading the source files round-trip, which is done only
when there is a problem to place: the usual, clean run stays cheap.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from .errors import Problem

if TYPE_CHECKING:
    from .catalog import CatalogueSource

Where = tuple[str, int | None]  # (file label, 1-based line)

_ENTRY = re.compile(r"^([A-Za-z0-9_-]+)\[([^\]]+)\]")


def _label(source: CatalogueSource[Any], rel: str) -> str:
    return source.label(rel)


def _line(doc: Any, loc: list[str | int]) -> int | None:
    from .fastyaml import locate

    line, _ = locate(doc, loc)
    return line


def static_problems(source: CatalogueSource[Any]) -> list[Problem]:
    """Problems visible in the files themselves (checked before resolving anything)."""
    from .catalog_base import parse_version

    problems: list[Problem] = []
    for rel, data in source.data_files():
        text = data.decode("utf-8", "replace")
        if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
            problems.append(Problem("this data file holds no data (empty, or comments only)", _label(source, rel), 1, 1))
    base = parse_version(source.manifest.version)
    seen: dict[str, str] = {}
    for rel, erratum in source.errata:

        def line(rel: str = rel) -> int | None:  # read again only to place a problem
            return _line(source._parse(rel, dict(source.files())[rel]), ["version"])

        if parse_version(erratum.version) <= base:
            problems.append(Problem(
                f"erratum {erratum.version} is not newer than the base catalogue {source.manifest.version}",
                _label(source, rel), line(), None, "version",
            ))
        if erratum.version in seen:
            problems.append(Problem(
                f"erratum version {erratum.version} is declared twice (also by {_label(source, seen[erratum.version])})",
                _label(source, rel), line(), None, "version",
            ))
        else:
            seen[erratum.version] = rel
    return problems


def _provenance(source: CatalogueSource[Any], version: str) -> tuple[dict[tuple[str, str], list[Where]], dict[tuple[str, str], Where]]:
    """Where each entry is defined (data files, errata ``add``), and last changed by an erratum."""
    from .catalog_base import parse_version

    defined: dict[tuple[str, str], list[Where]] = defaultdict(list)
    changed: dict[tuple[str, str], Where] = {}
    for rel, data in source.data_files():
        doc = source._parse(rel, data)
        if not isinstance(doc, dict):
            continue
        for name, value in doc.items():
            if isinstance(value, list):
                for index, entry in enumerate(value):
                    if isinstance(entry, dict) and "id" in entry:
                        defined[(str(name), str(entry["id"]))].append((_label(source, rel), _line(doc, [name, index])))
    target = parse_version(version)
    for rel, erratum in source.errata:
        if parse_version(erratum.version) > target:
            continue
        doc = source._parse(rel, dict(source.files())[rel])
        for index, op in enumerate(erratum.operations):
            where = (_label(source, rel), _line(doc, ["operations", index]))
            if op.op == "add" and isinstance(op.value, dict) and "id" in op.value:
                defined[(op.path.split(".")[0], str(op.value["id"]))].append(where)
            match = _ENTRY.match(op.path)
            if match:
                changed[(match[1], match[2])] = where
    return defined, changed


def negative_costs(raw: dict[str, Any]) -> list[tuple[str, str, str, float]]:
    """(collection, entry id, field path, value) of every negative cost in the data."""
    found = []

    def walk(collection: str, entry_id: str, value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                sub_path = f"{path}.{key}" if path else str(key)
                if "cost" in str(key).lower() and isinstance(sub, (int, float)) and not isinstance(sub, bool) and sub < 0:
                    found.append((collection, entry_id, sub_path, sub))
                else:
                    walk(collection, entry_id, sub, sub_path)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                label = item.get("id", index) if isinstance(item, dict) else index
                walk(collection, entry_id, item, f"{path}[{label}]")

    for name, value in raw.items():
        if isinstance(value, list):
            for entry in value:
                if isinstance(entry, dict) and "id" in entry:
                    walk(name, str(entry["id"]), entry, "")
    return found


def resolved_problems(source: CatalogueSource[Any], version: str) -> list[Problem]:
    """Duplicate ids, dangling references and negative costs of one resolved version."""
    catalogue = source.resolve(version)
    found: list[tuple[str, tuple[str, str], str, str | None]] = []  # (kind, entry, message, field)
    for name, value in catalogue.raw.items():
        if isinstance(value, list):
            counts: dict[str, int] = defaultdict(int)
            for entry in value:
                if isinstance(entry, dict) and "id" in entry:
                    counts[str(entry["id"])] += 1
            for entry_id, count in counts.items():
                if count > 1:
                    found.append(("duplicate", (name, entry_id), f"duplicate id '{entry_id}' in {name} ({count} entries)", name))
    for where, collection, ref in catalogue.data.references():
        if catalogue.get(collection, ref) is None:
            match = _ENTRY.match(where)
            entry = (match[1], match[2]) if match else ("", "")
            found.append(("reference", entry, f"refers to unknown {collection} id '{ref}'", where))
    for collection, entry_id, path, value in negative_costs(catalogue.raw):
        found.append(("cost", (collection, entry_id), f"negative cost {value:g} ({path})", f"{collection}[{entry_id}].{path}"))
    if not found:
        return []
    defined, changed = _provenance(source, version)
    fallback = f"{source.label()} @ {catalogue.version}"
    problems = []
    for kind, entry, message, field in found:
        places = defined.get(entry, [])
        if kind == "duplicate" and len(places) > 1:
            others = ", ".join(f"{label}:{line}" for label, line in places[1:])
            label, line = places[0]
            problems.append(Problem(f"{message}; also at {others}", label, line, None, field))
            continue
        label, line = changed[entry] if kind == "cost" and entry in changed else (places[0] if places else (fallback, None))
        problems.append(Problem(message, label, line, None, field))
    return problems


__all__ = ["resolved_problems", "static_problems"]
