"""Versioned catalogues: a base version plus ordered errata, resolved on demand.

A system's catalogue folder holds ``catalogue.yaml`` (its manifest), data files
(every other ``*.yaml`` outside ``errata/`` and ``samples/``), ``errata/*.yaml`` (one
erratum each) and ``samples/*.yaml`` (bundled army lists).  The catalogue at
version V is the merged data files with every erratum up to V applied in version
order.  Errata are data, not code, so old versions stay loadable forever and a
list pinned to 1.0.0 keeps meaning what it meant when it was built.

Errata operations address values with a small path language::

    profiles[skull-warrior].cost          the "cost" of the entry whose id is skull-warrior
    tables.contest.columns[3].success     index 3 of a list
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from . import catalog_cache
from .catalog_base import CatalogMethods as CatalogMethods
from .catalog_base import parse_version as parse_version
from .errors import InputError, Problem
from .fingerprint import content_hash

if TYPE_CHECKING:  # pydantic is imported only where a catalogue is built or checked
    from pydantic import BaseModel

    from .catalog_models import VERSION_PATTERN as VERSION_PATTERN
    from .catalog_models import CatalogModel as CatalogModel
    from .catalog_models import Decision as Decision
    from .catalog_models import Erratum as Erratum
    from .catalog_models import Manifest as Manifest
    from .catalog_models import Operation as Operation
    from .catalog_models import Strict as Strict

# The YAML and schema machinery (ruamel, validation errors with positions) is imported
# only when a catalogue is built from its files; a cached catalogue needs neither.


_MODELS = frozenset({"Strict", "Decision", "CatalogModel", "Manifest", "Operation", "Erratum", "VERSION_PATTERN"})


def __getattr__(name: str) -> Any:
    """The pydantic models of :mod:`.catalog_models`, imported on first use (PEP 562):
    a cached catalogue and a plain list are read without pydantic."""
    if name in _MODELS:
        from . import catalog_models

        return getattr(catalog_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


C = TypeVar("C", bound="CatalogModel")
M = TypeVar("M", bound="BaseModel")


@dataclass(frozen=True)
class VersionInfo:
    version: str
    date: str
    summary: str
    source: str = ""
    provisional: bool = False


@dataclass(frozen=True)
class Catalogue(Generic[C]):
    """One resolved version of one system's catalogue."""

    id: str
    system: str
    name: str
    version: str
    hash: str
    data: C
    #: gives the resolved data as plain JSON values (the dump the models were built from)
    load_raw: Callable[[], dict[str, Any]] = field(repr=False, compare=False)
    history: tuple[VersionInfo, ...] = ()
    #: the house catalogues merged into this one (:mod:`.house`: ``HouseUse`` records), in
    #: the list's order; empty for the bundled catalogue alone
    houses: tuple[Any, ...] = field(default=(), compare=False)

    @functools.cached_property
    def raw(self) -> dict[str, Any]:
        """The resolved data as plain JSON values (``model_dump(mode="json", by_alias=True)``).

        Read on first use: a cached catalogue's models are built out of the dicts its cache
        decodes to (:func:`.construct.adopt`), and only ``catalog show``, ``diff``, checks and
        upgrades need the dump as well; they decode the authentic bytes again (~1 ms)."""
        return self.load_raw()

    @functools.cached_property
    def index(self) -> dict[str, dict[str, Any]]:
        """collection name → id → entry model, for O(1) look-ups by rules and UI."""
        out: dict[str, dict[str, Any]] = {}
        for name in type(self.data).model_fields:
            value = getattr(self.data, name)
            if isinstance(value, list) and value and hasattr(value[0], "id"):
                out[name] = {entry.id: entry for entry in value}
        return out

    def get(self, collection: str, entry_id: object) -> Any | None:
        """The entry ``entry_id`` of ``collection``; None when there is none (or the id is not
        a string: a hand-written list may hold a number or a list where an id belongs)."""
        if not isinstance(entry_id, str):
            return None
        return self.index.get(collection, {}).get(entry_id)


# --------------------------------------------------------------------------- paths

_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[[^\]]+\])*)")


def _parse_path(path: str) -> list[str | int | tuple[str]]:
    """'a.b[x][2]' → ['a', 'b', ('x',), 2]; a tuple selects a list entry by id."""
    parts: list[str | int | tuple[str]] = []
    for chunk in path.split("."):
        match = _SEGMENT.fullmatch(chunk)
        if not match:
            raise ValueError(f"bad path segment '{chunk}'")
        parts.append(match[1])
        for selector in re.findall(r"\[([^\]]+)\]", match[2]):
            parts.append(int(selector) if selector.lstrip("-").isdigit() else (selector,))
    return parts


def _step(container: Any, part: str | int | tuple[str]) -> Any:
    if isinstance(part, tuple):
        if not isinstance(container, list):
            raise KeyError(f"[{part[0]}] needs a list")
        for item in container:
            if isinstance(item, dict) and item.get("id") == part[0]:
                return item
        raise KeyError(f"no entry with id '{part[0]}'")
    if isinstance(part, int):
        if not isinstance(container, list) or not -len(container) <= part < len(container):
            raise KeyError(f"no item {part}")
        return container[part]
    if not isinstance(container, dict) or part not in container:
        raise KeyError(f"no field '{part}'")
    return container[part]


def _resolve_parent(data: Any, path: str) -> tuple[Any, str | int | tuple[str]]:
    parts = _parse_path(path)
    node = data
    for part in parts[:-1]:
        node = _step(node, part)
    return node, parts[-1]


def apply_operation(data: dict[str, Any], op: Operation) -> None:
    """Apply one erratum operation to plain resolved data, in place."""
    parent, last = _resolve_parent(data, op.path)
    if op.op == "set":
        if isinstance(last, str) and isinstance(parent, dict):
            parent[last] = op.value
        else:
            target = _step(parent, last)
            index = parent.index(target)
            parent[index] = op.value
    elif op.op == "add":
        target = _step(parent, last)
        if not isinstance(target, list):
            raise KeyError("'add' needs a list")
        new_id = op.value.get("id") if isinstance(op.value, dict) else None
        if new_id is not None and any(isinstance(e, dict) and e.get("id") == new_id for e in target):
            raise KeyError(f"an entry with id '{new_id}' exists already")
        target.append(op.value)
    elif op.op == "remove":
        target = _step(parent, last)
        if isinstance(parent, dict):
            del parent[last]
        else:
            parent.remove(target)
    elif op.op == "rename":
        target = _step(parent, last)
        if not isinstance(target, dict) or not op.name:
            raise KeyError("'rename' needs an entry and a name")
        target["name"] = op.name
    elif op.op in ("add-item", "remove-item"):
        if isinstance(parent, dict) and isinstance(last, str) and last not in parent:
            parent[last] = []  # a defaulted list field the entry did not spell out
        target = _step(parent, last)
        if not isinstance(target, list):
            raise KeyError(f"'{op.op}' needs a list")
        if op.op == "add-item":
            if op.value in target:
                raise KeyError(f"{op.value!r} is there already")
            target.append(op.value)
        else:
            if op.value not in target:
                raise KeyError(f"{op.value!r} is not there")
            target.remove(op.value)


# --------------------------------------------------------------------------- sources


def catalog_root() -> Traversable:
    """The packaged catalogue (``catalog/`` in a checkout, mapped into the wheel).

    A folder on disk is returned as a plain ``Path`` (a Traversable) found from the package's
    spec: ``resources.files()`` would import zipfile and the resource readers (~5 ms) into every
    command that loads a catalogue."""
    try:
        spec = importlib.util.find_spec("armybuilder.catalog")
        if spec is not None and spec.submodule_search_locations:
            folder = Path(next(iter(spec.submodule_search_locations)))
            if folder.is_dir():
                return folder
        return resources.files("armybuilder.catalog")
    except (ModuleNotFoundError, ValueError):  # running from a checkout without installation
        return Path(__file__).resolve().parents[2] / "catalog"


def _walk(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for child in sorted(folder.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            yield from _walk(child, rel + "/")
        elif child.name.endswith(".yaml"):
            yield rel, child


def _identities(folder: Path, prefix: str = "") -> Iterator[tuple[str, catalog_cache.Identity]]:
    """The files :func:`_walk` lists, in its order, each with its identity (one stat each)."""
    with os.scandir(folder) as entries:
        ordered = sorted(entries, key=lambda entry: entry.name)
    for entry in ordered:
        rel = f"{prefix}{entry.name}"
        if entry.is_dir():
            yield from _identities(Path(entry.path), rel + "/")
        elif entry.name.endswith(".yaml"):
            st = entry.stat()
            yield rel, (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _folder_identities(folder: Traversable) -> tuple[Path, list[tuple[str, catalog_cache.Identity]]] | None:
    """A folder on disk with its files' identities; None for another kind of folder (a
    zip's), or when one cannot be read (the files are then read, and any error is theirs)."""
    if not isinstance(folder, Path):
        return None
    try:
        return folder, list(_identities(folder))
    except OSError:
        return None


def _merge_file(merged: dict[str, Any], plain: dict[str, Any], rel: str, doc: Any = None) -> None:
    from .fastyaml import locate

    for key, value in plain.items():
        if key not in merged:
            merged[key] = value
        elif isinstance(merged[key], list) and isinstance(value, list):
            merged[key].extend(value)
        elif isinstance(merged[key], dict) and isinstance(value, dict):
            for sub, sub_value in value.items():
                if sub in merged[key]:
                    line, col = locate(doc, [key, sub])
                    raise InputError.at(f"'{key}.{sub}' is defined in two files", rel, line, col)
                merged[key][sub] = sub_value
        else:
            line, col = locate(doc, [key])
            raise InputError.at(f"'{key}' is defined in two files", rel, line, col)


def mirror(plain: Any, values: Any) -> Any:
    """The plain mirror ``plain`` of a model, from the model's own authenticated full dump.

    Anything else (a field missing or unknown: a cache of another model) raises
    ``ValueError`` and the caller rebuilds from the files.
    """
    if not isinstance(values, dict) or set(values) != {f.key for f in plain.fields}:
        raise ValueError(f"not a dump of {plain.__name__}")
    return plain.from_dump(values)


def _imported(dotted: str) -> Any:
    import importlib

    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


class _Given:
    """The dump by alias of a catalogue, at hand (``Catalogue.load_raw``; picklable, as a
    catalogue is)."""

    __slots__ = ("raw",)

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __call__(self) -> dict[str, Any]:
        return self.raw


class _CachedDump:
    """The dump by alias of a catalogue whose models came from the cache: read from its
    entry when first asked for; if that entry is gone or not authentic, the models' own
    dump (which builds their serializer: slower, the same values)."""

    __slots__ = ("name", "digest", "data")

    def __init__(self, name: str, digest: str, data: Any) -> None:
        self.name, self.digest, self.data = name, digest, data

    def __call__(self) -> dict[str, Any]:
        again = catalog_cache.read(self.name)
        if isinstance(again, dict) and again.get("hash") == self.digest and isinstance(again.get("raw"), dict):
            raw: dict[str, Any] = again["raw"]
            return raw
        dumped: dict[str, Any] = self.data.model_dump(mode="json", by_alias=True)
        return dumped


class CatalogueSource(Generic[C]):
    """The versions of one system's catalogue, loaded from a folder of YAML files.

    ``model`` is the catalogue's pydantic model or its dotted name (imported when a
    catalogue is first built or checked); ``plain`` the dotted name of its plain mirror
    (:mod:`armybuilder.core.plain`), with which :meth:`resolve` reads a cached version
    without pydantic (``plain=True``).
    """

    def __init__(
        self, system: str, model: type[C] | str, folder: Traversable | None = None, plain: str | None = None,
        schema: str | None = None,
    ):
        self.system = system
        #: the fingerprint of the model's JSON schema the system declares (None: computed)
        self.schema = schema
        if isinstance(model, str):
            self.model_name = model
        else:
            self.model_name = f"{model.__module__}.{model.__qualname__}"
            self.__dict__["model"] = model
        self.plain_name = plain
        self.folder = folder if folder is not None else catalog_root() / system
        self._files: list[tuple[str, bytes]] | None = None
        self._parsed: dict[str, tuple[bytes, Any]] = {}
        self._resolved: dict[str, Catalogue[C]] = {}
        self._resolved_plain: dict[str, Catalogue[Any]] = {}
        self._checked: dict[str, list[Problem]] = {}
        self._key: str | None = None

    def label(self, rel: str = "") -> str:
        """How a problem names the folder, or the file ``rel`` in it (``catalog/<system>/…``
        for a bundled catalogue; a house catalogue names its own folder)."""
        return f"catalog/{self.system}/{rel}" if rel else f"catalog/{self.system}"

    @functools.cached_property
    def model(self) -> type[C]:
        """The catalogue's pydantic model (imports pydantic)."""
        model: type[C] = _imported(self.model_name)
        return model

    # -- raw files ----------------------------------------------------------

    def files(self) -> list[tuple[str, bytes]]:
        if self._files is None:
            self._files = [(rel, item.read_bytes()) for rel, item in _walk(self.folder)]
        return self._files

    def data_files(self) -> list[tuple[str, bytes]]:
        return [
            (rel, data)
            for rel, data in self.files()
            if rel != "catalogue.yaml" and not rel.startswith(("errata/", "samples/"))
        ]

    def _parse(self, rel: str, data: bytes) -> Any:
        """The file's values with their positions, parsed once per process: resolving two
        versions and checking them read every file three times or more, and parsing is
        nearly all of what a catalogue costs without its cache (``--no-cache``).  libyaml's
        parser where its reading is certain (:mod:`.fastyaml`), the round-trip one otherwise.
        The documents are only read, never changed."""
        known = self._parsed.get(rel)
        if known is not None and known[0] == data:
            return known[1]
        from .fastyaml import parse_text
        from .yamlio import CATALOGUE_FILE_LIMIT, decode_text

        label = self.label(rel)
        if len(data) > CATALOGUE_FILE_LIMIT:
            raise InputError.at("catalogue file too large", label)
        doc = parse_text(decode_text(data, label), label)
        self._parsed[rel] = (data, doc)
        return doc

    @property
    def manifest(self) -> Manifest:
        return self._index[0]

    @property
    def errata(self) -> list[tuple[str, Erratum]]:
        return self._index[1]

    @functools.cached_property
    def _index(self) -> tuple[Manifest, list[tuple[str, Erratum]]]:
        """Manifest and errata (as plain mirrors: read-only records), from the parse cache
        when it holds this source's."""
        from . import plain_catalog

        name = f"{self.system}-index-{self._source_key()}.json"
        cached = catalog_cache.read(name)
        if not isinstance(cached, dict):
            manifest = self._read_manifest()
            errata = self._read_errata()
            cached = {
                "manifest": manifest.model_dump(mode="json", by_alias=True),
                "errata": [[rel, e.model_dump(mode="json", by_alias=True)] for rel, e in errata],
            }
            catalog_cache.write(name, cached)
        try:
            # Authentic (the cache's tag) and validated when written: rebuilt without
            # validating again (importing pydantic and building the validators cost more
            # than the rest of a `validate`).
            return (
                mirror(plain_catalog.Manifest, cached["manifest"]),
                [(rel, mirror(plain_catalog.Erratum, e)) for rel, e in cached["errata"]],
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # a cache this version does not understand: rebuild it
        manifest = self._read_manifest()
        errata = self._read_errata()
        return (
            plain_catalog.Manifest.from_dump(manifest.model_dump(mode="json", by_alias=True)),
            [(rel, plain_catalog.Erratum.from_dump(e.model_dump(mode="json", by_alias=True))) for rel, e in errata],
        )

    def _read_manifest(self) -> Manifest:
        from .catalog_models import Manifest

        for rel, data in self.files():
            if rel == "catalogue.yaml":
                manifest: Manifest = self._validate(Manifest, rel, self._parse(rel, data))
                return manifest
        raise InputError.at(f"the catalogue of {self.system} has no catalogue.yaml", self.system)

    def _read_errata(self) -> list[tuple[str, Erratum]]:
        from .catalog_models import Erratum

        found = []
        for rel, data in self.files():
            if rel.startswith("errata/"):
                found.append((rel, self._validate(Erratum, rel, self._parse(rel, data))))
        found.sort(key=lambda pair: parse_version(pair[1].version))
        return found

    def samples(self) -> list[tuple[str, Traversable]]:
        samples = self.folder / "samples"
        if not samples.is_dir():
            return []
        return [(rel, item) for rel, item in _walk(samples)]

    def _validate(self, model: type[BaseModel], rel: str, doc: Any) -> Any:
        from pydantic import ValidationError

        from .fastyaml import validation_problems

        label = self.label(rel)
        try:
            return model.model_validate(doc)
        except ValidationError as exc:
            raise InputError(validation_problems(exc, doc, label)) from None

    # -- versions -----------------------------------------------------------

    def versions(self) -> list[VersionInfo]:
        base = self.manifest
        out = [VersionInfo(base.version, base.date, base.summary, "base")]
        out += [
            VersionInfo(e.version, e.date, e.summary, e.source, e.provisional) for _, e in self.errata
        ]
        return out

    @property
    def latest(self) -> str:
        return self.versions()[-1].version

    def has_version(self, version: str) -> bool:
        return any(v.version == version for v in self.versions())

    # -- resolution ---------------------------------------------------------

    def _source_key(self) -> str:
        if self._key is None:
            found = _folder_identities(self.folder)
            if found is None:
                self._key = catalog_cache.source_key(self.system, self.schema, lambda: self.model, self.files())
            else:
                self._key = catalog_cache.remembered_source_key(
                    self.system, self.schema, lambda: self.model, found[0], found[1], self.files
                )
        return self._key

    def _line_in(self, rel: str, loc: list[str | int]) -> int | None:
        """The line of ``loc`` in source file ``rel`` (read again: only on an error path)."""
        from .fastyaml import locate

        try:
            line, _ = locate(self._parse(rel, dict(self.files())[rel]), loc)
        except (InputError, KeyError):
            return None
        return line

    def _merged_base(self) -> dict[str, Any]:
        from .yamlio import to_plain

        merged: dict[str, Any] = {}
        for rel, data in self.data_files():
            doc = self._parse(rel, data)
            if doc is None:
                continue
            self._validate(self.model, rel, doc)  # positions for errors in this file
            _merge_file(merged, to_plain(doc), self.label(rel), doc)
        return merged

    def _resolve_raw(self, version: str) -> dict[str, Any]:
        target = parse_version(version)
        if not self.has_version(version):
            known = ", ".join(v.version for v in self.versions())
            raise InputError.at(
                f"the {self.system} catalogue has no version {version} (known: {known})"
            )
        from pydantic import ValidationError

        from .yamlio import validation_problems

        data = self._merged_base()
        try:  # spell out every default so that errata can address any field
            data = self.model.model_validate(data).model_dump(mode="json", by_alias=True)
        except ValidationError as exc:
            raise InputError(validation_problems(exc, None, self.label())) from None
        for rel, erratum in self.errata:
            if parse_version(erratum.version) > target:
                break
            for index, op in enumerate(erratum.operations):
                try:
                    apply_operation(data, op)
                except (KeyError, ValueError) as exc:
                    raise InputError.at(
                        f"erratum {erratum.version}, operation {index + 1} ({op.op} {op.path}): "
                        f"{exc.args[0] if exc.args else exc}",
                        self.label(rel),
                        self._line_in(rel, ["operations", index]),
                    ) from None
        return data

    def resolve(self, version: str | None = None, *, plain: bool = False) -> Catalogue[C]:
        """The catalogue at ``version`` (the latest by default).

        ``plain``: its data as the plain mirror (no pydantic when the version is cached;
        the same values, see :mod:`armybuilder.core.plain`), for a list read plainly.
        """
        version = version or self.latest
        known = self._resolved_plain if plain else self._resolved
        if version in known:
            return known[version]
        if plain and self.plain_name is None:
            raise ValueError(f"the {self.system} catalogue has no plain mirror")
        # two entries: the dump by alias (``raw``, what the plain mirrors read) and the dump
        # by field name (the models' own dicts, which they adopt as they are)
        base = f"{self.system}-{version}-{self._source_key()}"
        raw_name, fields_name = base + catalog_cache.MARSHAL_SUFFIX, base + "-fields" + catalog_cache.MARSHAL_SUFFIX
        data: Any = None
        load_raw: Callable[[], dict[str, Any]] | None = None
        digest = ""
        with catalog_cache.collector_paused():
            cached = catalog_cache.read(raw_name if plain else fields_name) if self.has_version(version) else None
            if isinstance(cached, dict):
                try:  # authentic: written by resolve() below from a validated model
                    data, digest, load_raw = self._data_from_cache(raw_name, cached, plain)
                except (KeyError, TypeError, ValueError, AttributeError):
                    data = load_raw = None
        if data is None or load_raw is None:
            from pydantic import ValidationError

            from .yamlio import validation_problems

            resolved = self._resolve_raw(version)
            try:
                data = self.model.model_validate(resolved)
            except ValidationError as exc:
                problems = validation_problems(exc, None, f"{self.label()} @ {version}")
                raise InputError(problems) from None
            raw: dict[str, Any] = data.model_dump(mode="json", by_alias=True)
            digest = content_hash(raw)
            catalog_cache.write(raw_name, {"raw": raw, "hash": digest})
            catalog_cache.write(fields_name, {"fields": data.model_dump(mode="json"), "hash": digest})
            if plain:
                data = mirror(_imported(str(self.plain_name)), raw)
            load_raw = _Given(raw)
        history = tuple(v for v in self.versions() if parse_version(v.version) <= parse_version(version))
        catalogue = Catalogue(
            id=self.manifest.id,
            system=self.system,
            name=self.manifest.name,
            version=version,
            hash=digest,
            data=data,
            load_raw=load_raw,
            history=history,
        )
        known[version] = catalogue
        return catalogue

    def _data_from_cache(
        self, raw_name: str, cached: dict[str, Any], plain: bool
    ) -> tuple[Any, str, Callable[[], dict[str, Any]]]:
        """The catalogue model (or its plain mirror), its hash and the source of its dump
        by alias, from an authentic cache entry: the dump by alias ``raw_name`` for a plain
        mirror, else the dump by field name, whose dicts the models are built out of (the
        dump by alias is then read when it is asked for)."""
        digest = cached["hash"]
        if not isinstance(digest, str):
            raise ValueError("not a cached catalogue")
        if plain:
            raw = cached["raw"]
            return mirror(_imported(str(self.plain_name)), raw), digest, _Given(raw)
        from .construct import NotConstructible, adopt

        try:
            data = adopt(self.model, cached["fields"], by_alias=False)
        except NotConstructible as exc:
            raise ValueError(str(exc)) from None

        return data, digest, _CachedDump(raw_name, digest, data)

    # -- checks -------------------------------------------------------------

    def check(self, version: str | None = None) -> list[Problem]:
        """Every problem of the catalogue at ``version``, each at its file and line.

        See :mod:`.catalog_checks`; errors that stop a version from being built at
        all (broken YAML, a failing erratum operation) raise InputError instead.
        """
        from .catalog_checks import resolved_problems, static_problems

        version = version or self.latest
        if version not in self._checked:
            static = static_problems(self)
            try:
                resolved = resolved_problems(self, version)
            except InputError as exc:
                if not static:
                    raise
                resolved = exc.problems  # e.g. a duplicated erratum's operation failing
            self._checked[version] = static + resolved
        return self._checked[version]

    def _sound_name(self, version: str) -> str:
        """The cache name of the verdict "``version`` passes its checks".

        Keyed by the sources (as the resolved catalogue) and by the code that checks
        them: the checks module and the catalogue model's module (``references()``).
        """
        digest = catalog_cache.code_digest(["armybuilder.core.catalog_checks", self.model_name.rpartition(".")[0]])
        return f"{self.system}-{version}-{self._source_key()}-sound-{digest}.json"

    def require_sound(self, version: str) -> None:
        """Refuse to judge lists against a catalogue version that fails its checks.

        Checking walks the whole resolved catalogue (~20 ms); a version found sound is
        remembered in the authenticated cache, so a later process only reads that verdict.
        A version with problems is never cached: it is checked, and refused, every time.
        """
        if version not in self._checked and self.has_version(version):
            if catalog_cache.read(self._sound_name(version)) == {"sound": version}:
                self._checked[version] = []
                return
            if not self.check(version):  # checked in this process for the first time
                catalog_cache.write(self._sound_name(version), {"sound": version})
        found = self.check(version)
        if found:
            raise InputError.at(
                f"the {self.system} catalogue {version} fails its checks ({len(found)} problems; "
                f"first: {found[0]}); run 'armybuilder catalog check {self.system}' - "
                "no list is judged against it",
            )


# --------------------------------------------------------------------------- diff


@dataclass(frozen=True)
class Change:
    collection: str
    entry: str
    kind: Literal["added", "removed", "changed"]
    field: str = ""
    old: Any = None
    new: Any = None

    def describe(self) -> str:
        if self.kind == "changed":
            return f"{self.collection} {self.entry}: {self.field} {self.old!r} → {self.new!r}"
        return f"{self.collection} {self.entry}: {self.kind}"


def _field_changes(collection: str, entry: str, old: Any, new: Any, prefix: str = "") -> Iterable[Change]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            sub = f"{prefix}.{key}" if prefix else key
            if key not in new:
                yield Change(collection, entry, "changed", sub, old[key], None)
            elif key not in old:
                yield Change(collection, entry, "changed", sub, None, new[key])
            elif old[key] != new[key]:
                yield from _field_changes(collection, entry, old[key], new[key], sub)
    elif old != new:
        yield Change(collection, entry, "changed", prefix, old, new)


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Entry-level differences between two resolved catalogues (raw data)."""
    changes: list[Change] = []
    for name in list(old) + [k for k in new if k not in old]:
        a, b = old.get(name), new.get(name)
        if a == b:
            continue
        a_ids = _by_id(a)
        b_ids = _by_id(b)
        if a_ids is not None and b_ids is not None:
            for entry_id, entry in a_ids.items():
                if entry_id not in b_ids:
                    changes.append(Change(name, entry_id, "removed"))
                elif entry != b_ids[entry_id]:
                    changes.extend(_field_changes(name, entry_id, entry, b_ids[entry_id]))
            for entry_id in b_ids:
                if entry_id not in a_ids:
                    changes.append(Change(name, entry_id, "added"))
        else:
            changes.extend(_field_changes(name, "", a, b))
    return changes


def _by_id(value: Any) -> dict[str, Any] | None:
    if isinstance(value, list) and all(isinstance(e, dict) and "id" in e for e in value):
        return {e["id"]: e for e in value}
    if value is None:
        return {}
    return None
