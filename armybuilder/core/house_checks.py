"""``armybuilder catalog check DIR``: what a house catalogue must satisfy, at file:line:column.

A player writes a house catalogue by hand from their cards, so the check says everything
it finds in one run (not only the first problem), each at its place:

* errors: YAML that cannot be read, fields the schema refuses (``file:line:column:
  field.path: message``), a manifest without a proper id or system, ids that are not
  lower-case words joined by hyphens, an id used twice, an id the bundled catalogue has
  already (in any of its versions), references to nothing (a profile's people, rank or
  abilities), negative costs, errata that are not newer than the base or fail to apply,
  and what a house catalogue cannot change (tables, formats, rules decisions);
* warnings: costs and characteristics outside the range of the bundled entries of the same
  collection (a typo such as ``att: 55`` for ``5``), the skeleton's example entries left
  in, texts with control characters, names too long to print, a catalogue adding nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError, Problem
from .fingerprint import content_hash
from .house import (
    CLOSED_COLLECTIONS,
    MAX_ID,
    HouseSource,
    contributions,
    is_collection,
    open_folder,
    valid_id,
)
from .sanitize import INVISIBLE_FORMAT

if TYPE_CHECKING:
    from .system import GameSystem

#: a name longer than this is cut on cards and the roster's columns
LONG_NAME = 60
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE_FORMAT}]")
_INDEX = re.compile(r"^([A-Za-z0-9_]+)\[(\d+)\]")
_ENTRY = re.compile(r"^([A-Za-z0-9_-]+)\[([^\]]+)\]")


@dataclass(frozen=True)
class Issue:
    severity: str  # "error" or "warning"
    problem: Problem

    def __str__(self) -> str:
        return f"{self.severity}: {self.problem}"


@dataclass
class Report:
    """What ``catalog check DIR`` found: the catalogue (when it could be read) and the issues."""

    folder: Path
    source: HouseSource | None
    issues: list[Issue]

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "warning"]


def check_folder(folder: Path, system: GameSystem[Any, Any] | None = None) -> Report:
    """Every problem of the house catalogue in ``folder`` (see the module's doc)."""
    issues: list[Issue] = []
    try:
        from .registry import get_system

        source = open_folder(system, folder, get_system)
    except InputError as exc:
        return Report(folder, None, [Issue("error", p) for p in exc.problems])
    from .registry import get_system

    system = system or get_system(source.system)
    checker = _Checker(system, source, issues)
    checker.run()
    return Report(folder, source, issues)


class _Checker:
    def __init__(self, system: GameSystem[Any, Any], source: HouseSource, issues: list[Issue]) -> None:
        self.system, self.source, self.issues = system, source, issues
        self.docs: dict[str, Any] = {}  # rel → parsed document (round trip: positions)
        self.written: dict[tuple[str, str], tuple[str, int | None]] = {}  # ids as the data files write them
        self.said: set[tuple[Any, ...]] = set()  # problems of resolved versions already reported

    def error(self, message: str, rel: str = "", line: int | None = None, column: int | None = None, field: str | None = None) -> None:
        self.issues.append(Issue("error", Problem(message, self.source.label(rel) if rel else self.source.label(), line, column, field)))

    def warning(self, message: str, rel: str = "", line: int | None = None, column: int | None = None, field: str | None = None) -> None:
        self.issues.append(Issue("warning", Problem(message, self.source.label(rel) if rel else self.source.label(), line, column, field)))

    # -- the steps ---------------------------------------------------------------

    def run(self) -> None:
        if not self._files_read():
            return
        if not self._manifest_sound():
            return
        schema_ok = self._data_files_sound() & self._errata_sound()
        if not schema_ok:
            return  # the data cannot be resolved: what follows would only repeat it
        # the latest version first; an earlier one adds only what it does not share with it
        for version in reversed([v.version for v in self.source.versions()]):
            try:
                cat = self.source.resolve(version)
            except InputError as exc:  # an erratum that does not apply
                self.issues += [Issue("error", p) for p in exc.problems]
                continue
            self._resolved(version, cat.raw, last=version == self.source.latest)

    def _files_read(self) -> bool:
        for rel, data in self.source.files():
            try:
                self.docs[rel] = self.source._parse(rel, data)
            except InputError as exc:
                self.issues += [Issue("error", p) for p in exc.problems]
        return not self.errors_so_far()

    def errors_so_far(self) -> bool:
        return any(i.severity == "error" for i in self.issues)

    def _manifest_sound(self) -> bool:
        from pydantic import ValidationError

        from .catalog_models import Manifest
        from .fastyaml import locate, validation_problems
        from .registry import system_ids

        doc = self.docs.get("catalogue.yaml")
        try:
            manifest = Manifest.model_validate(doc)
        except ValidationError as exc:
            self.issues += [Issue("error", p) for p in validation_problems(exc, doc, self.source.label("catalogue.yaml"))]
            return False
        if not valid_id(manifest.id):
            line, col = locate(doc, ["id"])
            self.error(f"'{manifest.id}' is not an id: lower-case letters and digits in words joined by hyphens, "
                       f"at most {MAX_ID} characters (e.g. wolfen-of-yllia)", "catalogue.yaml", line, col, "id")
        if manifest.id in system_ids() or manifest.id == self.system.source.manifest.id:
            line, col = locate(doc, ["id"])
            self.error(f"'{manifest.id}' is a bundled catalogue's id: a house catalogue needs its own", "catalogue.yaml", line, col, "id")
        for problem in self._text_problems(doc, "catalogue.yaml", []):
            self.issues.append(problem)
        return not self.errors_so_far()

    def _data_files_sound(self) -> bool:
        from pydantic import ValidationError

        from .fastyaml import locate, validation_problems

        model = self.system.source.model
        ok = True
        data_files = [rel for rel, _ in self.source.data_files()]
        if not data_files:
            self.warning("no data file yet: write the entries in a .yaml file beside catalogue.yaml")
        for rel in data_files:
            doc = self.docs.get(rel)
            if doc is None:
                self.error("this data file holds no data (empty, or comments only)", rel, 1, 1)
                ok = False
                continue
            try:
                model.model_validate(doc)
            except ValidationError as exc:
                self.issues += [Issue("error", _named(p, doc)) for p in validation_problems(exc, doc, self.source.label(rel))]
                ok = False
            if not isinstance(doc, dict):
                continue
            defaults = self._defaults()
            for key, value in doc.items():
                line, col = locate(doc, [key])
                if key in CLOSED_COLLECTIONS:
                    self.error(f"a house catalogue cannot add {key}: they stay the bundled catalogue's", rel, line, col, str(key))
                elif key in defaults and not isinstance(defaults[key], list) and value not in (None, {}, []):
                    self.error(f"a house catalogue only adds entries; '{key}' is the bundled catalogue's "
                               "(rules tables and settings cannot be changed here)", rel, line, col, str(key))
                elif isinstance(value, list) and value and isinstance(value[0], dict):
                    self._ids_of(rel, doc, str(key), value)
            self.issues += self._text_problems(doc, rel, [])
        return ok

    def _errata_sound(self) -> bool:
        from .catalog_checks import static_problems

        try:
            problems = static_problems(self.source)
        except InputError as exc:  # an erratum the schema refuses
            self.issues += [Issue("error", p) for p in exc.problems]
            return False
        self.issues += [Issue("error", p) for p in problems]
        return not problems

    def _defaults(self) -> dict[str, Any]:
        if not hasattr(self, "_default_values"):
            self._default_values: dict[str, Any] = self.system.source.model().model_dump(mode="json", by_alias=True)
        return self._default_values

    def _ids_of(self, rel: str, doc: Any, key: str, entries: list[Any]) -> None:
        """Ids as written: their shape, used twice, or the bundled catalogue's (said even
        when the schema refuses something else, so one run lists every mistake)."""
        from .fastyaml import locate

        bundled = self._bundled_ids()
        for index, entry in enumerate(entries):
            entry_id = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(entry_id, str):
                continue
            line, col = locate(doc, [key, index, "id"])
            field = f"{key}[{index}].id"
            if not valid_id(entry_id):
                self.error(f"'{entry_id}' is not an id: lower-case letters and digits in words joined by hyphens, "
                           f"at most {MAX_ID} characters", rel, line, col, field)
            earlier = self.written.get((key, entry_id))
            if earlier is not None:
                self.error(f"id '{entry_id}' is used twice in {key} (also at {self.source.label(earlier[0])}:{earlier[1]})", rel, line, col, field)
            else:
                self.written[(key, entry_id)] = (rel, line)
            found = bundled.get((key, entry_id))
            if found:
                self.error(f"the bundled {self.system.name} catalogue has {key} '{entry_id}' already (version {found}): "
                           "a house catalogue adds entries under ids of its own", rel, line, col, field)

    def _text_problems(self, doc: Any, rel: str, loc: list[str | int]) -> Iterator[Issue]:
        """Control characters in any text, and names too long to print whole (warnings)."""
        from .fastyaml import locate

        if isinstance(doc, dict):
            for key, value in doc.items():
                yield from self._text_problems(value, rel, [*loc, key])
                if key == "name" and isinstance(value, str) and len(value) > LONG_NAME:
                    line, col = locate(self.docs.get(rel), [*loc, key])
                    yield Issue("warning", Problem(f"a name of {len(value)} characters is cut on cards and in the roster's "
                                                   f"columns (keep it under {LONG_NAME})", self.source.label(rel), line, col, _dotted(loc + [key])))
        elif isinstance(doc, list):
            for index, value in enumerate(doc):
                yield from self._text_problems(value, rel, [*loc, index])
        elif isinstance(doc, str) and _CONTROL.search(doc):
            line, col = locate(self.docs.get(rel), loc)
            yield Issue("warning", Problem("this text holds control characters (they are shown escaped, as \\x1b)",
                                           self.source.label(rel), line, col, _dotted(loc)))

    # -- one resolved version --------------------------------------------------------

    def _resolved(self, version: str, raw: dict[str, Any], last: bool) -> None:
        added = contributions(raw)
        where = self._where()
        label_of = version if len(self.source.versions()) > 1 else ""

        def at(collection: str, entry_id: str, sub: list[str | int] | None = None) -> tuple[str, int | None, int | None]:
            found = where.get((collection, entry_id))
            if found is None:
                return "", None, None
            rel, index = found
            from .fastyaml import locate

            line, col = locate(self.docs.get(rel), [collection, index, *(sub or [])])
            return rel, line, col

        def say(kind: str, message: str, collection: str, entry_id: str, sub: list[str | int] | None = None) -> None:
            rel, line, col = at(collection, entry_id, sub)
            field = f"{collection}[{entry_id}]" + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in sub or [])
            if (rel, line, col, field, message) in self.said:
                return  # said for a later version already
            self.said.add((rel, line, col, field, message))
            text = f"{message} (version {label_of})" if label_of and not last else message
            (self.error if kind == "error" else self.warning)(text, rel, line, col, field)

        if last and not added:
            self.warning("this house catalogue adds no entries yet")
        # ids an erratum adds (the data files' own were checked as written): used twice,
        # or the bundled catalogue's in any of its versions
        ambiguous = False
        for collection, entries in added.items():
            counts: dict[str, int] = defaultdict(int)
            for entry in entries:
                counts[str(entry["id"])] += 1
            for entry_id, count in counts.items():
                if count > 1:
                    ambiguous = True
                    if (collection, entry_id) not in self.written:
                        say("error", f"id '{entry_id}' is used by {count} entries of {collection}", collection, entry_id)
        bundled = self._bundled_ids()
        for collection, entries in added.items():
            for entry in entries:
                entry_id = str(entry["id"])
                found = bundled.get((collection, entry_id))
                if found:
                    ambiguous = True
                    if (collection, entry_id) not in self.written:
                        say("error", f"the bundled {self.system.name} catalogue has {collection} '{entry_id}' already "
                                     f"(version {found}): a house catalogue adds entries under ids of its own", collection, entry_id)
        if ambiguous:
            return  # merged data would be ambiguous: the ids are said, the rest waits for them
        # references to nothing, read from the merged catalogue (bundled + this house)
        from .house import HouseData, combine

        data = HouseData(self.source.id, self.source.name, version, content_hash(raw), str(self.source.path), added)
        try:
            merged = combine(self.system, self.system.source.latest, [data], strict=False)
        except InputError as exc:
            self.issues += [Issue("error", p) for p in exc.problems]
            return
        mine = data.keys()
        for ref_where, collection, ref in merged.data.references():
            match = _ENTRY.match(ref_where)
            if match is None or (match[1], match[2]) not in mine:
                continue
            if merged.get(collection, ref) is None:
                sub = ref_where[match.end():].lstrip(".")
                loc: list[str | int] | None = [sub] if sub and "[" not in sub else None
                written = self._entry_doc(match[1], match[2])
                if loc is not None and isinstance(written, dict) and isinstance(written.get(sub), list):
                    items = [str(v).partition("/")[0] for v in written[sub]]
                    if ref in items:  # the very item of the list
                        loc.append(items.index(ref))
                say("error", f"refers to unknown {collection} id '{ref}' (neither the bundled catalogue nor this one has it)",
                    match[1], match[2], loc)
        from .catalog_checks import negative_costs

        for collection, entry_id, path, value in negative_costs(added):
            say("error", f"negative cost {value:g} ({path})", collection, entry_id)
        if last:
            self._ranges(added, say)
            for collection, entries in added.items():
                for entry in entries:
                    if "example" in str(entry["id"]).split("-"):
                        say("warning", "still the skeleton's example entry: give it the card's id, name and figures, or delete it",
                            collection, str(entry["id"]))

    def _entry_doc(self, collection: str, entry_id: str) -> Any:
        """The entry as a data file writes it (None when an erratum added it)."""
        found = self._where().get((collection, entry_id))
        if found is None:
            return None
        doc = self.docs.get(found[0])
        return doc[collection][found[1]] if isinstance(doc, dict) else None

    def _where(self) -> dict[tuple[str, str], tuple[str, int]]:
        """(collection, id) → (data file, index in it), for positions."""
        out: dict[tuple[str, str], tuple[str, int]] = {}
        for rel, _ in self.source.data_files():
            doc = self.docs.get(rel)
            if isinstance(doc, dict):
                for key, value in doc.items():
                    if isinstance(value, list):
                        for index, entry in enumerate(value):
                            if isinstance(entry, dict) and "id" in entry:
                                out.setdefault((str(key), str(entry["id"])), (rel, index))
        return out

    def _bundled_ids(self) -> dict[tuple[str, str], str]:
        if hasattr(self, "_bundled"):
            return self._bundled
        out: dict[tuple[str, str], str] = {}
        self._bundled: dict[tuple[str, str], str] = out
        source = self.system.source
        for info in source.versions():
            raw = self.system.catalogue(info.version).raw
            for key, value in raw.items():
                if is_collection(value):
                    for entry in value:
                        out.setdefault((key, str(entry["id"])), info.version)
        return out

    def _ranges(self, added: dict[str, list[dict[str, Any]]], say: Any) -> None:
        """Numbers outside what the bundled entries of the collection hold (warnings)."""
        bundled = self.system.catalogue().raw
        for collection, entries in added.items():
            spans = _spans(bundled.get(collection) or [])
            if not spans:
                continue
            for entry in entries:
                for loc, value in _numbers(entry, []):
                    key = _shape(loc)
                    span = spans.get(key)
                    if span is None or span[0] <= value <= span[1]:
                        continue
                    say("warning", f"{key} {value:g} is outside the range of the bundled {collection} ({span[0]:g} to {span[1]:g}): "
                                   "check it against the card", collection, str(entry["id"]), loc)


def _numbers(value: Any, loc: list[str | int]) -> Iterator[tuple[list[str | int], float]]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from _numbers(sub, [*loc, str(key)])
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield from _numbers(sub, [*loc, index])
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield loc, float(value)


def _shape(loc: list[str | int]) -> str:
    """``['options', 2, 'cost']`` → ``options.cost``: a field whatever the item."""
    return ".".join(str(p) for p in loc if not isinstance(p, int))


def _spans(entries: list[Any]) -> dict[str, tuple[float, float]]:
    found: dict[str, tuple[float, float]] = {}
    for entry in entries:
        for loc, value in _numbers(entry, []):
            key = _shape(loc)
            low, high = found.get(key, (value, value))
            found[key] = (min(low, value), max(high, value))
    return found


def _dotted(loc: list[str | int]) -> str:
    from .errors import format_loc

    return format_loc(loc)


def _named(problem: Problem, doc: Any) -> Problem:
    """``profiles[3].att`` → ``profiles[3] (yllia-howler).att``: the entry a player knows."""
    field = problem.field or ""
    match = _INDEX.match(field)
    if match is None or not isinstance(doc, dict):
        return problem
    entries = doc.get(match[1])
    index = int(match[2])
    if isinstance(entries, list) and index < len(entries) and isinstance(entries[index], dict):
        entry_id = entries[index].get("id")
        if isinstance(entry_id, str) and valid_id(entry_id):
            from dataclasses import replace

            return replace(problem, field=f"{match[0]} ({entry_id}){field[match.end():]}")
    return problem
