"""The catalogue parse cache: resolved catalogues kept as authenticated files.

Resolving a catalogue means parsing a few dozen YAML files, validating them and
applying errata: a few hundred milliseconds.  The result is cached in the user's
cache folder, per (system, version, sources): the dump by alias (``raw``, which the
plain mirrors read) and the dump by field name (whose dicts the pydantic models adopt,
:func:`armybuilder.core.construct.adopt`), both in marshal's format, plus an index
holding the manifest and errata (JSON) and, per catalogue folder, the sources' key
remembered against the files' identities (:func:`remembered_source_key`).  A command
thus reads one file and builds the models instead of validating them again.

A cache file is untrusted input like any other file: something else may have
written it, or a person may have edited it.  Each file therefore starts with an
HMAC-SHA256 tag under a random key kept beside it (created with mode 0600 on first
use), computed over the entry's *name* (which holds its cache key: system, version,
sources) and its content (:func:`entry_tag`); a file whose tag does not match is
ignored and rebuilt, so an edited cache is never believed, nor an entry copied under
another entry's name (1.0.0's catalogue under 1.1.0's name).  The key proves the file
was written by armybuilder for this user, which is what allows skipping validation.

A cache file is opened only when it is a regular file within :data:`MAX_ENTRY` bytes
(:func:`read_file`: never a FIFO, which would hang, nor a device, which would never
end): a cache folder holding anything at all only costs the speed.  ``--no-cache`` and
``ARMYBUILDER_NO_CACHE=1`` turn every cache off (:func:`disabled`, :func:`bypassed`):
nothing is read from the folder or written to it (``ARMYBUILDER_NO_CACHE=answers``
only the remembered answers of :mod:`.findings_cache`).

The cache key covers the catalogue files, the package version and a fingerprint of
the catalogue schema.  Generating a pydantic JSON schema costs ~10 ms, so the
fingerprints of the bundled models are fixed here at build time; a test recomputes
them, so a changed model cannot keep its old fingerprint.  A model not listed here
(a new system) has its fingerprint computed at run time.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import json
import marshal
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from armybuilder import __version__

_KEY_FILE = "cache-key"
_KEY_LIMIT = 1024  # a key file is 32 random bytes
_TAG_SIZE = 64  # hex digits of an HMAC-SHA256 tag


def computed_schema_fingerprint(model: type) -> str:
    """The fingerprint of a model's JSON schema (generates the schema: slow)."""
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    return hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()


def schema_fingerprint(model: type, known: str | None = None) -> str:
    """The fingerprint a system declares for its catalogue model (``GameSystem.schema_fingerprint``,
    fixed when the model is written, so a start never generates the schema), or the computed one."""
    return known if known is not None else computed_schema_fingerprint(model)


#: Turns every cache off (any value but "", "0" and :data:`ANSWERS_ONLY`).
NO_CACHE_ENV = "ARMYBUILDER_NO_CACHE"
#: The value of :data:`NO_CACHE_ENV` that turns off only the remembered answers of
#: ``validate`` and ``fingerprint`` (every list checked again against the cached
#: catalogue: what a list never seen costs, as ``bench`` measures it).
ANSWERS_ONLY = "answers"
#: Set by :func:`bypassed` (``--no-cache``): every cache off for this process and its workers.
_bypassed = False


def disabled() -> bool:
    """True when the caches are off (``ARMYBUILDER_NO_CACHE``, or ``--no-cache`` running)."""
    return _bypassed or os.environ.get(NO_CACHE_ENV, "") not in ("", "0", ANSWERS_ONLY)


@contextmanager
def bypassed(on: bool = True) -> Iterator[None]:
    """Every cache off while the block runs (``--no-cache``): answers computed afresh."""
    global _bypassed
    was = _bypassed
    _bypassed = was or on
    try:
        yield
    finally:
        _bypassed = was


#: The largest cache file ever read (a resolved catalogue is a few hundred kilobytes).
MAX_ENTRY = 32 * 1024 * 1024


def read_file(path: Path, limit: int = MAX_ENTRY) -> bytes | None:
    """The bytes of a cache file if it is a regular file of at most ``limit`` bytes, else
    None.  Opened without blocking and checked on the open descriptor, so a FIFO, a device
    or a socket put in the cache folder (or a symlink to one) is never waited on or read
    without end, and the read stops at ``limit`` whatever the file claims."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


#: The folder :func:`preparing` writes to instead of the user's cache.
_preparing: Path | None = None

#: Names the folder of the catalogues prepared at install (see :func:`prepared_folder`);
#: empty: none.
PREPARED_ENV = "ARMYBUILDER_PREPARED_DIR"


def cache_folder() -> Path | None:
    """The user's cache folder for armybuilder (``ARMYBUILDER_CACHE_DIR`` overrides it);
    None while the caches are off (:func:`disabled`).  While :func:`preparing` runs, the
    folder being prepared."""
    if disabled():
        return None
    if _preparing is not None:
        return _preparing
    override = os.environ.get("ARMYBUILDER_CACHE_DIR")
    if override:
        return Path(override)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("armybuilder"))
    except Exception:  # noqa: BLE001 - no cache is fine
        return None


def prepared_folder() -> Path | None:
    """The install's own cache folder, which ``python -m armybuilder.core.prepare`` fills at
    setup: ``share/armybuilder/prepared`` under the environment's prefix (the virtual
    environment of ``./scripts/run``), or ``ARMYBUILDER_PREPARED_DIR`` (empty: none).

    :func:`read` looks there for what the user's cache lacks, so a new user (or a user cache
    emptied) starts as fast as a warm start.  Its entries are tagged like the user's under a
    key kept beside them; whoever can write that folder can write the installed code too, so
    the tag asks no more trust than the program itself.  Nothing but :func:`preparing`
    writes there."""
    if disabled():
        return None
    override = os.environ.get(PREPARED_ENV)
    if override is not None:
        return Path(override) if override else None
    return Path(sys.prefix) / "share" / "armybuilder" / "prepared"


@contextmanager
def preparing(folder: Path) -> Iterator[None]:
    """Every cache read and write of the block goes to ``folder`` (the install's prepared
    cache being filled), not to the user's cache."""
    global _preparing
    was = _preparing
    _preparing = folder
    try:
        yield
    finally:
        _preparing = was


#: The key last read from each folder, with the identity of its file (inode, size, times):
#: a batch reads and writes a thousand entries, and one stat is cheaper than a read.
_keys: dict[Path, tuple[tuple[int, int, int, int], bytes]] = {}


def _key(folder: Path, create: bool) -> bytes | None:
    """The folder's HMAC key; created (0600, atomically) when missing and ``create``."""
    path = folder / _KEY_FILE
    try:
        st = os.stat(path)
        identity = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        known = _keys.get(folder)
        if known is not None and known[0] == identity:
            return known[1]
        key = read_file(path, _KEY_LIMIT) or b""
        if len(key) >= 32:
            _keys[folder] = (identity, key)
            return key
    except OSError:
        pass
    if not create:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        key = os.urandom(32)
        tmp = folder / f".{_KEY_FILE}.{os.getpid()}.tmp"
        fd = create_exclusive(tmp)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        try:  # another process may have created one meanwhile: keep the first
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
        key = read_file(path, _KEY_LIMIT) or b""
        return key if len(key) >= 32 else None
    except OSError:
        return None


def create_exclusive(path: Path) -> int:
    """A new file for writing at ``path`` (mode 0600), whatever was there removed first and
    the file created exclusively: a FIFO planted under a temporary name is never opened."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)


def tag(key: bytes, domain: str, name: str, payload: bytes) -> bytes:
    """The hex HMAC-SHA256 tag of one cache entry: its store (``domain``: each store tags
    its own kind of entry), its ``name`` (which holds its cache key) and its ``payload``,
    each length-prefixed, so no entry verifies under another name or in another store."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in (domain.encode("utf-8"), name.encode("utf-8", "surrogateescape"), payload):
        mac.update(len(part).to_bytes(8, "big"))
        mac.update(part)
    return mac.hexdigest().encode("ascii")


def entry_tag(key: bytes, name: str, payload: bytes) -> bytes:
    """The tag of the entry ``name`` of this store (see :func:`tag`)."""
    return tag(key, "entry", name, payload)


def secret(folder: Path, create: bool) -> bytes | None:
    """The HMAC key of a cache folder (for stores that keep their own records)."""
    return _key(folder, create)


#: The suffix of entries kept in marshal's format (see :func:`write`): the format may
#: change with the Python version, so the version is part of the name.
MARSHAL_SUFFIX = f".{sys.implementation.cache_tag}-m{marshal.version}.bin"


def read(name: str) -> Any | None:
    """The value cached under ``name``, or None if missing, broken or not authentic.

    Looked for in the user's cache, then in the install's prepared one
    (:func:`prepared_folder`).  JSON, or marshal's format for a name ending in
    :data:`MARSHAL_SUFFIX` (read back
    three times faster than JSON: the resolved catalogue, a third of a megabyte, is read
    by every command that checks a list; marshal is only ever given bytes whose tag
    verified, which this code wrote)."""
    folder = cache_folder()
    if folder is None:
        return None
    found = _read_in(folder, name)
    if found is None and _preparing is None:
        prepared = prepared_folder()
        if prepared is not None and prepared != folder:
            found = _read_in(prepared, name)
    return found


def _read_in(folder: Path, name: str) -> Any | None:
    """The value of the entry ``name`` of one cache folder (see :func:`read`)."""
    key = _key(folder, create=False)
    if key is None:
        return None
    data = read_file(folder / name)
    if data is None:
        return None  # missing, not a regular file, or too large
    found, newline, payload = data[:_TAG_SIZE], data[_TAG_SIZE : _TAG_SIZE + 1], data[_TAG_SIZE + 1 :]
    if newline != b"\n" or not hmac.compare_digest(found, entry_tag(key, name, payload)):
        return None  # edited, truncated, copied from another name or keyed otherwise: never trusted
    try:
        if name.endswith(MARSHAL_SUFFIX):
            return marshal.loads(payload)
        return json.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None


def _strings_shared(value: Any, seen: dict[str, str]) -> Any:
    """``value`` with equal strings made one object: marshal then writes a repeated string
    once and refers back to it, and reading it back builds each string once (a catalogue
    repeats ids, kinds and sources hundreds of times)."""
    if isinstance(value, str):
        return seen.setdefault(value, value)
    if isinstance(value, dict):
        return {seen.setdefault(k, k) if isinstance(k, str) else k: _strings_shared(v, seen) for k, v in value.items()}
    if isinstance(value, list):
        return [_strings_shared(v, seen) for v in value]
    return value


def write(name: str, value: Any) -> None:
    """Cache ``value`` (JSON-able) under ``name`` (which may name a subfolder: ``a/b.json``)
    atomically (written beside it, then renamed over it); failures only cost speed later.
    A name ending in :data:`MARSHAL_SUFFIX` is written in marshal's format."""
    folder = cache_folder()
    if folder is None:
        return
    key = _key(folder, create=True)
    if key is None:
        return
    try:
        if name.endswith(MARSHAL_SUFFIX):
            payload = marshal.dumps(_strings_shared(value, {}))
        else:
            try:
                payload = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate (a file name that is not UTF-8): escaped
                payload = json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    except (TypeError, ValueError):  # not JSON-able (or not marshal-able)
        return
    target = folder / name
    tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
    data = entry_tag(key, name, payload) + b"\n" + payload
    try:
        try:
            fd = create_exclusive(tmp)
        except FileNotFoundError:  # the subfolder's first file
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = create_exclusive(tmp)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        tmp.replace(target)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a cached catalogue is read and rebuilt.

    Reading one creates some twelve thousand containers (dicts, lists, models) and none
    becomes garbage; the collector would walk them a dozen times as they are made (and
    sometimes every object of the process: a full collection), about a sixth of the load.
    It is turned back on only if it was on: the editor keeps it off while it starts."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def code_digest(modules: list[str]) -> str:
    """A short digest of the source files of ``modules`` (found, not imported): a cached
    verdict computed by that code is not believed once the code changes, even within a
    package version."""
    import importlib.util

    digest = hashlib.sha256()
    for name in modules:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin:
                digest.update(Path(spec.origin).read_bytes())
        except (ImportError, ValueError, OSError):
            pass
    return digest.hexdigest()[:12]


def _fingerprint(known: str | None, model: Callable[[], type]) -> str:
    return known if known is not None else computed_schema_fingerprint(model())


def _content_key(system: str, fingerprint: str, files: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    digest.update(f"{system}\0{__version__}\0{fingerprint}\0".encode("utf-8", "surrogateescape"))
    for rel, data in files:
        digest.update(rel.encode("utf-8", "surrogateescape"))
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:24]


def source_key(system: str, schema: str | None, model: Callable[[], type], files: list[tuple[str, bytes]]) -> str:
    """A short key for one system's catalogue sources, its schema and this package version.

    ``schema`` is the fingerprint the system declares for its catalogue model; ``model``
    gives the class, asked (importing it, and pydantic) only when it declares none."""
    return _content_key(system, _fingerprint(schema, model), files)


#: A file changed this recently is not vouched for by its identity: a second write within
#: the same tick of the file system's clock would leave size and times as they were.
RACY_SECONDS = 2.0

#: (inode, size, mtime_ns, ctime_ns) of a file: any write changes ctime, which no one can set
Identity = tuple[int, int, int, int]


def remembered_source_key(
    system: str,
    schema: str | None,
    model: Callable[[], type],
    folder: Path,
    identities: list[tuple[str, Identity]],
    files: Callable[[], list[tuple[str, bytes]]],
) -> str:
    """:func:`source_key` of a folder's files, remembered against their identities.

    Hashing every catalogue file (a third of a megabyte, read and hashed) was a tenth of
    loading a cached catalogue.  The key computed from the contents is kept in the cache
    with the identity (inode, size, modification and change times, as Python's bytecode
    cache and git's index judge a file) of every file it was computed from, the folder,
    the package version and the schema; while all of them are the same, the key is read
    back instead of computed.  A write to a file changes its change time (the kernel sets
    it; no program can set it back), an added, removed or replaced file changes the list,
    so any change computes the key from the contents again.  Files changed in the last
    :data:`RACY_SECONDS` are not remembered (a second write in the same clock tick)."""
    fingerprint = _fingerprint(schema, model)
    digest = hashlib.sha256(f"{system}\0{__version__}\0{fingerprint}\0{folder}\0".encode("utf-8", "surrogateescape"))
    for rel, identity in identities:
        digest.update(f"{rel}\0{identity}\0".encode("utf-8", "surrogateescape"))
    identity_key = digest.hexdigest()
    name = f"{system}-sources-{hashlib.sha256(str(folder).encode('utf-8', 'surrogateescape')).hexdigest()[:12]}.json"
    remembered = read(name)
    if isinstance(remembered, dict) and remembered.get("identity") == identity_key:
        key = remembered.get("key")
        if isinstance(key, str):
            return key
    key = _content_key(system, fingerprint, files())
    settled = time.time_ns() - int(RACY_SECONDS * 1e9)
    if all(max(identity[2], identity[3]) < settled for _, identity in identities):
        write(name, {"identity": identity_key, "key": key})
    return key
