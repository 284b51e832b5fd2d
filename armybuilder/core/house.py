"""House catalogues: data a player writes (or imports) for a people the bundled catalogue lacks.

A house catalogue is a folder shaped like a bundled one (``catalogue.yaml``, data files,
``errata/<version>.yaml``), validated with the same schema, with its own id, versions and
content hash.  It only *adds* entries to the collections of its system's catalogue
(profiles, abilities, miracles, warriors, equipment...): it changes no bundled entry, no
table, no format.  Installed house catalogues are found in the folders named by
``--catalog DIR`` / :data:`PATH_ENV` and in the user's data folder (:func:`user_folder`).

A list that uses one pins it (``house: [{id, version, hash}]``) beside its bundled
``catalogue`` version.  :func:`pinned_catalogue` gives the catalogue such a list is
judged against: the bundled version with the house entries merged in, its
:attr:`~.catalog.Catalogue.houses` saying what was found (:class:`HouseUse`), and a hash
that covers the house data (so the fingerprint does).  A house catalogue that is missing,
lacks the pinned version, has changed since the pin or cannot be read leaves the list as
it is: every selection stays, the list's own findings say which entries are unknown, and
:func:`house_findings` says why.

A house catalogue is untrusted input: its files are read as list files are (regular files
only, bounded in size, number and folder depth, safe YAML), and its resolved data is only
ever cached through the authenticated store of :mod:`.catalog_cache`.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import catalog_cache
from .catalog import Catalogue, CatalogueSource, mirror
from .errors import InputError
from .fingerprint import content_hash
from .house_paths import DATA_ENV as DATA_ENV  # re-exported: the names a caller expects here
from .house_paths import PATH_ENV as PATH_ENV
from .house_paths import search_folders

if TYPE_CHECKING:
    from collections.abc import Callable

    from .system import GameSystem

    #: a system id -> its GameSystem (:func:`armybuilder.core.registry.get_system`)
    SystemLookup = Callable[[str], GameSystem[Any, Any]]

#: A house catalogue's id: lower-case words joined by hyphens, as every catalogue id.
ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_ID = 60
#: Bounds of one house catalogue folder (every file is also parsed with yamlio's limits).
#: The round-trip parser reads about a hundred kilobytes a second: the bundled Rag'Narok 2
#: catalogue (nine peoples) is 400 KB in files of at most 50 KB, so a file of 256 KiB and a
#: folder of 1 MiB hold more than any people's cards while a check stays within seconds.
MAX_FILES = 200
MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 1024 * 1024
MAX_DEPTH = 4
#: Collections a house catalogue may not add to: tournament formats and the project's
#: rules decisions stay the bundled catalogue's.
CLOSED_COLLECTIONS = frozenset({"formats", "decisions"})


def valid_id(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_ID and ID_PATTERN.fullmatch(text) is not None


# --------------------------------------------------------------------------- where they live


def _candidates(root: Path) -> list[Path]:
    """``root`` itself when it is a house catalogue, else its subfolders that are."""
    try:
        if (root / "catalogue.yaml").is_file():
            return [root]
        with os.scandir(root) as entries:
            found = sorted(Path(e.path) for e in entries if not e.name.startswith(".") and e.is_dir())
    except OSError:
        return []
    return [f for f in found if (f / "catalogue.yaml").is_file()][:MAX_FILES]


# --------------------------------------------------------------------------- one folder


def read_folder(folder: Path) -> list[tuple[str, bytes]]:
    """Every ``*.yaml`` file of a house catalogue folder: (relative path, bytes).

    Bounded as list files are: regular files only (:func:`.textfile.read_bytes` refuses a
    FIFO or a device), each and all together within a size, at most :data:`MAX_FILES`
    files, folders no deeper than :data:`MAX_DEPTH`; linked folders are not followed (no
    loop), a linked file only when it stays inside the folder (a catalogue someone sent
    never reads, copies or quotes a file of the reader's), hidden files are skipped."""
    from .textfile import read_bytes

    out: list[tuple[str, bytes]] = []
    total = 0
    try:
        inside = folder.resolve()
    except (OSError, RuntimeError):
        inside = folder.absolute()

    def walk(path: Path, prefix: str, depth: int) -> None:
        nonlocal total
        try:
            with os.scandir(path) as it:
                entries = sorted(it, key=lambda e: e.name)
        except NotADirectoryError:
            raise InputError.at("not a folder (a house catalogue is a folder holding catalogue.yaml)", path) from None
        except FileNotFoundError:
            raise InputError.at("no such folder", path) from None
        except OSError as exc:
            raise InputError.at(f"cannot read the folder ({exc.strerror or exc})", path) from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_DEPTH:
                    raise InputError.at(f"folders nested more than {MAX_DEPTH} deep are refused", Path(entry.path))
                walk(Path(entry.path), rel + "/", depth + 1)
            elif entry.name.endswith(".yaml"):
                if entry.is_symlink() and not _stays_inside(Path(entry.path), inside):
                    raise InputError.at("a link to a file outside the catalogue's folder: refused (copy the file into the folder)",
                                        Path(entry.path))
                if len(out) >= MAX_FILES:
                    raise InputError.at(f"more than {MAX_FILES} files: refused", folder)
                data = read_bytes(entry.path, MAX_FILE_BYTES)
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    raise InputError.at(f"the files add up to more than {MAX_TOTAL_BYTES // 1_048_576} MiB: refused "
                                       f"(the whole bundled catalogue is under half of that)", folder)
                out.append((rel, data))

    walk(folder, "", 0)
    return out


def _stays_inside(link: Path, folder: Path) -> bool:
    try:
        return link.resolve().is_relative_to(folder)
    except (OSError, RuntimeError):  # a loop of links
        return False


class HouseSource(CatalogueSource[Any]):
    """A house catalogue folder, read and resolved as a bundled catalogue is (versions,
    errata, validation with the system's schema, the authenticated parse cache), its
    files read within bounds and its problems named by the folder's own path."""

    def __init__(
        self, system: GameSystem[Any, Any], folder: Path, files: list[tuple[str, bytes]] | None = None, house_id: str = ""
    ):
        source = system.source
        super().__init__(system.id, source.model_name, folder, source.plain_name, source.schema)
        self.system_name = system.name
        self.path = folder
        #: the id its catalogue.yaml writes, read without validating it: a catalogue whose
        #: manifest the schema refuses is still found (and said unusable), never in the way
        #: of another one
        self.house_id = house_id
        if files is not None:
            self._files = files

    def label(self, rel: str = "") -> str:
        return str(self.path / rel) if rel else str(self.path)

    def files(self) -> list[tuple[str, bytes]]:
        if self._files is None:
            self._files = read_folder(self.path)
        return self._files

    def samples(self) -> list[tuple[str, Any]]:
        return []

    def _source_key(self) -> str:
        if self._key is None:  # small folders: keyed by their contents, read once
            self._key = catalog_cache.source_key(f"house-{self.system}", self.schema, lambda: self.model, self.files())
        return self._key

    @property
    def id(self) -> str:
        return str(self.manifest.id)

    @property
    def name(self) -> str:
        return str(self.manifest.name)

    def data(self, version: str) -> HouseData:
        """The house entries at ``version`` (validated, from the authenticated cache when
        it holds them): what :func:`combine` merges."""
        if not valid_id(self.id):
            raise InputError.at(f"'{self.id}' is not a house catalogue id (lower-case words joined by hyphens)", self.label("catalogue.yaml"))
        cat = self.resolve(version, plain=self.plain_name is not None)
        added = contributions(cat.raw)
        for collection, entries in added.items():
            seen: set[str] = set()
            for entry in entries:
                entry_id = entry["id"]
                if not valid_id(entry_id):
                    raise InputError.at(f"{collection} id {str(entry_id)[:80]!r} is not an id (lower-case words joined by hyphens)", self.label())
                if entry_id in seen:
                    raise InputError.at(f"{collection} id '{entry_id}' is used twice", self.label())
                seen.add(entry_id)
        return HouseData(self.id, self.name, version, cat.hash, str(self.path), added)


def _peek(folder: Path) -> tuple[str, str, list[tuple[str, bytes]]] | None:
    """(id, system, files) of a folder that looks like a house catalogue, without
    validating it (``catalog check`` does that); None when it cannot be read."""
    from .fastyaml import parse_text
    from .textfile import decode_text

    try:
        files = read_folder(folder)
        manifest = dict(files).get("catalogue.yaml")
        if manifest is None:
            return None
        doc = parse_text(decode_text(manifest, str(folder / "catalogue.yaml")), str(folder / "catalogue.yaml"))
    except InputError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("id"), str) or not isinstance(doc.get("system"), str):
        return None
    return doc["id"], doc["system"], files


#: folder → (identity of its files, what _peek found): discovery re-reads a folder only
#: when a file in it changed (the editor asks for its catalogue at every keystroke)
_peeked: dict[Path, tuple[Any, tuple[str, str, list[tuple[str, bytes]]] | None]] = {}
_sources: dict[tuple[str, Path, Any], HouseSource] = {}


def _state(folder: Path) -> Any:
    """The identities (inode, size, times) of a folder's files, to know whether it changed."""
    found: list[Any] = []

    def walk(path: Path, depth: int) -> None:
        try:
            with os.scandir(path) as it:
                for entry in it:
                    st = entry.stat(follow_symlinks=True) if not entry.is_dir(follow_symlinks=False) else None
                    if st is not None:
                        found.append((entry.path, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
                    elif depth < MAX_DEPTH:
                        walk(Path(entry.path), depth + 1)
                    if len(found) > MAX_FILES + 10:
                        return
        except OSError:
            found.append((str(path), "unreadable"))

    walk(folder, 0)
    return tuple(sorted(found, key=repr))


def installed(
    system: GameSystem[Any, Any] | None = None, *, known: Iterable[str] = (), lookup: SystemLookup | None = None
) -> list[HouseSource]:
    """The house catalogues found, one per id: the first in :func:`search_folders` order
    wins, as PATH does.  Those of ``system`` when given; otherwise those of every system id
    in ``known``, each system asked of ``lookup`` (the registry's, passed by its callers:
    house catalogues sit below the registry, which imports the systems that use them)."""
    out: list[HouseSource] = []
    seen: set[str] = set()
    known = {system.id} if system is not None else set(known)
    for root in search_folders():
        for folder in _candidates(root):
            state = _state(folder)
            cached = _peeked.get(folder)
            if cached is None or cached[0] != state:
                cached = (state, _peek(folder))
                _peeked[folder] = cached
            peeked = cached[1]
            if peeked is None:
                continue
            house_id, system_id, files = peeked
            if house_id in seen or system_id not in known or (system is not None and system_id != system.id):
                continue
            seen.add(house_id)
            key = (system_id, folder, state)
            source = _sources.get(key)
            if source is None:
                owner = system if system is not None else lookup(system_id) if lookup is not None else None
                if owner is None:
                    continue
                source = _sources[key] = HouseSource(owner, folder, files, house_id)
            out.append(source)
    return out


def find(system: GameSystem[Any, Any], house_id: str) -> HouseSource | None:
    return next((s for s in installed(system) if s.house_id == house_id), None)


def open_folder(system: GameSystem[Any, Any] | None, folder: Path, lookup: SystemLookup | None = None) -> HouseSource:
    """The house catalogue in ``folder`` (any folder, installed or not); InputError when it
    is not one, or is one for another system than ``system``.  Without ``system``, the one
    its manifest names, asked of ``lookup`` (the registry's :func:`get_system`)."""
    files = read_folder(folder)
    if "catalogue.yaml" not in dict(files):
        raise InputError.at("no catalogue.yaml here: a house catalogue is a folder holding one (see 'armybuilder catalog new')", folder)
    peeked = _peek(folder)
    system_id = peeked[1] if peeked is not None else None
    if system is None:
        if system_id is None:
            raise InputError.at("catalogue.yaml does not say which game system it is for ('system: ragnarok2', ...)", folder / "catalogue.yaml")
        if lookup is None:
            raise InputError.at(f"which game system is this house catalogue for? (it says '{system_id}')", folder / "catalogue.yaml")
        system = lookup(system_id)
    elif system_id is not None and system_id != system.id:
        raise InputError.at(f"this is a house catalogue for {system_id}, not {system.id}", folder / "catalogue.yaml")
    return HouseSource(system, folder, files, peeked[0] if peeked is not None else "")


# --------------------------------------------------------------------------- merging


def is_collection(value: Any) -> bool:
    """A list of entries with ids (profiles, warriors...), the only thing a house adds to."""
    return isinstance(value, list) and bool(value) and all(isinstance(e, dict) and "id" in e for e in value)


def contributions(raw: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The entries a house catalogue's resolved data adds, by collection (its other fields,
    tables and notes, are not merged: ``catalog check`` refuses them when they are set)."""
    return {k: v for k, v in raw.items() if k not in CLOSED_COLLECTIONS and is_collection(v)}


@dataclass(frozen=True)
class HouseData:
    """One house catalogue at one version: its entries by collection, resolved and validated."""

    id: str
    name: str
    version: str
    hash: str
    folder: str
    entries: dict[str, list[dict[str, Any]]]

    def keys(self) -> frozenset[tuple[str, str]]:
        return frozenset((c, str(e["id"])) for c, es in self.entries.items() for e in es)

    def portable(self) -> dict[str, Any]:
        """As plain JSON values, to travel to a worker (:func:`from_portable` checks it)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_portable(cls, system: GameSystem[Any, Any], value: dict[str, Any]) -> HouseData:
        """The house data another process sent: validated with the system's schema and
        its hash checked, so what is merged is what the sender resolved."""
        from pydantic import ValidationError

        entries = value.get("entries")
        if not isinstance(entries, dict):
            raise ValueError("house data without entries")
        try:
            model = system.source.model.model_validate(entries)
        except ValidationError as exc:
            raise ValueError(f"house data {value.get('id')!r} does not fit the schema: {exc.errors()[0]['msg']}") from None
        added = contributions(model.model_dump(mode="json", by_alias=True))
        if content_hash(added) != content_hash(entries):  # what validating fills in or changes
            raise ValueError(f"house data {value.get('id')!r} is not a full dump of its entries")
        return cls(str(value["id"]), str(value["name"]), str(value["version"]), str(value["hash"]), str(value["folder"]), added)


@dataclass(frozen=True)
class HouseUse:
    """What a catalogue says of one house catalogue a list pinned.

    ``status``: ``ok`` (found, the pinned version and hash), ``changed`` (the pinned
    version is there with other data: used, and said), ``missing`` (not installed),
    ``no-version`` (installed without the pinned version), ``unusable`` (cannot be read,
    or clashes with the bundled data; ``detail`` says why)."""

    id: str
    version: str
    pinned_hash: str
    status: str
    name: str = ""
    hash: str = ""  # of the data found ("" when none was used)
    folder: str = ""
    detail: str = ""
    latest: str = ""  # the newest installed version
    entries: frozenset[tuple[str, str]] = frozenset()
    #: the data merged (for another process: :func:`portable_houses`)
    data: HouseData | None = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def used(self) -> bool:
        return self.status in ("ok", "changed")

    def words(self) -> str:
        """``uses house catalogue wolfen-of-yllia 1.2.0`` (and what is wrong with it)."""
        text = f"uses house catalogue {self.id} {self.version}"
        return text + {
            "ok": "",
            "changed": " (changed since the list was pinned to it)",
            "missing": " (not installed here)",
            "no-version": " (that version is not installed here)",
            "unusable": " (cannot be used here)",
        }.get(self.status, "")

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "version": self.version, "hash": self.hash or None, "pinned_hash": self.pinned_hash,
            "status": self.status, "name": self.name, "latest": self.latest or None, "detail": self.detail or None,
        }


def combine(
    system: GameSystem[Any, Any], version: str, datas: Sequence[HouseData], *, plain: bool = False,
    uses: Sequence[HouseUse] = (), strict: bool = True,
) -> Catalogue[Any]:
    """The bundled catalogue at ``version`` with the entries of ``datas`` merged in.

    The bundled entries come first, then each house's in order.  An id a house adds that
    the bundled catalogue (or an earlier house) has already raises InputError: the data
    would be ambiguous; so does (``strict``) a house entry referring to nothing (a rank,
    an ability...), which the rules and engines would meet unprepared.  ``uses`` are
    recorded on the result (:attr:`Catalogue.houses`); its hash covers the bundled hash and
    every house's id, version and hash (or status)."""
    uses = tuple(uses) or tuple(HouseUse(d.id, d.version, d.hash, "ok", d.name, d.hash, d.folder, entries=d.keys(), data=d) for d in datas)
    base = system.catalogue(version, plain=plain)
    digest = content_hash({"catalogue": base.hash, "house": [[u.id, u.version, u.hash or u.status] for u in uses]})
    # what is merged, by content (never by what a caller says it is): the memo's and the
    # cache's key
    merged_key = content_hash([[d.id, d.entries] for d in datas])
    said = tuple((u.id, u.version, u.pinned_hash, u.status, u.hash, u.detail, u.latest) for u in uses)
    key = (system.id, version, plain, base.hash, digest, merged_key, said, strict)
    known = _combined.get(key)
    if known is not None:
        return known
    merged = dict(base.raw)
    owners: dict[tuple[str, str], str] = {}
    for data in datas:
        for collection, entries in data.entries.items():
            present = {str(e.get("id")) for e in merged.get(collection) or () if isinstance(e, dict)}
            for entry in entries:
                entry_id = str(entry["id"])
                if entry_id in present:
                    by = owners.get((collection, entry_id), f"the bundled {system.name} catalogue {version}")
                    raise InputError.at(
                        f"house catalogue {data.id} {data.version} adds {collection} '{entry_id}', which {by} has already",
                        data.folder,
                    )
                owners[(collection, entry_id)] = f"house catalogue {data.id}"
                present.add(entry_id)
            merged[collection] = [*(merged.get(collection) or []), *entries]
    data_model = _merged_data(system, merged, plain, f"{base.hash}-{merged_key}")
    if strict:
        _refuse_dangling(data_model, merged, datas)
    catalogue: Catalogue[Any] = Catalogue(
        id=base.id, system=base.system, name=base.name, version=version, hash=digest, data=data_model,
        load_raw=_Raw(merged), history=base.history, houses=uses,
    )
    _combined[key] = catalogue
    return catalogue


_combined: dict[tuple[Any, ...], Catalogue[Any]] = {}
_ENTRY = re.compile(r"^([A-Za-z0-9_-]+)\[([^\]]+)\]")


def _refuse_dangling(data: Any, merged: dict[str, Any], datas: Sequence[HouseData]) -> None:
    """InputError (at the house's folder) for the first reference of a house entry to nothing."""
    owner = {key: d for d in datas for key in d.keys()}
    present = {(k, str(e["id"])) for k, v in merged.items() if is_collection(v) for e in v}
    for where, collection, ref in data.references():
        match = _ENTRY.match(where)
        house = owner.get((match[1], match[2])) if match else None
        if house is not None and (collection, ref) not in present:
            raise InputError.at(f"{where} refers to unknown {collection} id '{ref}'", house.folder)


class _Raw:
    """The merged dump by alias (``Catalogue.load_raw``; picklable, as a catalogue is)."""

    __slots__ = ("raw",)

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __call__(self) -> dict[str, Any]:
        return self.raw


def _merged_data(system: GameSystem[Any, Any], merged: dict[str, Any], plain: bool, digest: str) -> Any:
    """The catalogue model (or plain mirror) of the merged dump (``digest``: the bundled
    data's hash and the merged house entries' content hash, the cache entry's name).

    Both halves are full dumps of validated models (the bundled catalogue's and each
    house's, entries concatenated collection by collection), so the plain mirror is
    built from it as from any authentic dump.  The pydantic models are validated once
    and their dump by field name cached (authenticated) for the next process."""
    source = system.source
    if plain and source.plain_name is not None:
        import importlib

        module, _, name = str(source.plain_name).rpartition(".")
        return mirror(getattr(importlib.import_module(module), name), merged)
    name = f"{system.id}-house-{digest}-{source._source_key()}-fields{catalog_cache.MARSHAL_SUFFIX}"
    cached = catalog_cache.read(name)
    if isinstance(cached, dict) and cached.get("hash") == digest and isinstance(cached.get("fields"), dict):
        from .construct import NotConstructible, adopt

        try:
            return adopt(source.model, cached["fields"], by_alias=False)
        except NotConstructible:
            pass
    from pydantic import ValidationError

    from .yamlio import validation_problems

    try:
        data = source.model.model_validate(merged)
    except ValidationError as exc:  # cannot happen for two valid dumps; said, never hidden
        raise InputError(validation_problems(exc, None, f"{system.id} with house catalogues")) from None
    catalog_cache.write(name, {"fields": data.model_dump(mode="json"), "hash": digest})
    return data


# --------------------------------------------------------------------------- pins


def pin_of(source: HouseSource, version: str | None = None) -> dict[str, str]:
    """The pin a list writes for ``source`` at ``version`` (the latest by default)."""
    version = version or source.latest
    return {"id": source.id, "version": version, "hash": source.resolve(version).hash}


def pin_fields(pin: Any) -> tuple[str, str, str]:
    if isinstance(pin, dict):
        return str(pin.get("id", "")), str(pin.get("version", "")), str(pin.get("hash", ""))
    return str(pin.id), str(pin.version), str(pin.hash)


def open_pins(system: GameSystem[Any, Any], pins: Iterable[Any]) -> tuple[list[HouseData], list[HouseUse]]:
    """The house data of each pin that can be used, and a :class:`HouseUse` for every pin
    (one per id: the first pin of an id wins)."""
    datas: list[HouseData] = []
    uses: list[HouseUse] = []
    seen: set[str] = set()
    for pin in pins:
        house_id, version, pinned = pin_fields(pin)
        if house_id in seen:
            continue
        seen.add(house_id)
        source = find(system, house_id) if valid_id(house_id) else None
        if source is None:
            uses.append(HouseUse(house_id, version, pinned, "missing"))
            continue
        try:
            versions = [v.version for v in source.versions()]
            latest = versions[-1]
            if version not in versions:
                uses.append(HouseUse(house_id, version, pinned, "no-version", source.name, folder=str(source.path),
                                     detail=f"installed: {', '.join(versions)}", latest=latest))
                continue
            data = source.data(version)
        except InputError as exc:
            uses.append(HouseUse(house_id, version, pinned, "unusable", folder=str(source.path), detail=str(exc.first)))
            continue
        status = "ok" if data.hash == pinned else "changed"
        uses.append(HouseUse(house_id, version, pinned, status, data.name, data.hash, data.folder, latest=latest, entries=data.keys(), data=data))
        datas.append(data)
    return datas, uses


def game_catalogue(
    system: GameSystem[Any, Any], version: str, pins: Iterable[Any], *, plain: bool = False
) -> Catalogue[Any]:
    """The bundled catalogue at ``version`` with the pinned house catalogues that can be
    used merged in; the others are recorded as such (never an exception for a missing or
    changed one: the list keeps its selections and says so).  A house whose entries clash
    with the bundled data (or another house's) is recorded ``unusable``."""
    datas, uses = open_pins(system, pins)
    while True:
        try:
            return combine(system, version, datas, plain=plain, uses=uses)
        except InputError as exc:  # one house clashes: leave it out, say why, merge the rest
            bad = next((d for d in datas if d.folder == exc.first.path), None)
            if bad is None:
                raise
            datas = [d for d in datas if d is not bad]
            uses = [
                dataclasses.replace(u, status="unusable", hash="", entries=frozenset(), detail=exc.first.message, data=None)
                if u.id == bad.id else u
                for u in uses
            ]


def pinned_catalogue(system: GameSystem[Any, Any], army: Any, *, plain: bool = False) -> Catalogue[Any]:
    """The catalogue a list is judged against: its bundled version plus its house catalogues."""
    return game_catalogue(system, army.catalogue, list(getattr(army, "house", ()) or ()), plain=plain)


def pins_of(*armies: Any) -> list[Any]:
    """Every house pin of ``armies``, one per id (the first list's first): one game's data."""
    out: list[Any] = []
    seen: set[str] = set()
    for army in armies:
        for pin in getattr(army, "house", ()) or ():
            house_id = pin_fields(pin)[0]
            if house_id not in seen:
                seen.add(house_id)
                out.append(pin)
    return out


def house_of(cat: Catalogue[Any], collection: str, entry_id: str) -> HouseUse | None:
    """The house catalogue that added this entry to ``cat``, or None (bundled data)."""
    return next((u for u in cat.houses if (collection, entry_id) in u.entries), None)
