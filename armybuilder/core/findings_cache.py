"""Remembered answers of the read-only commands (``validate``, ``fingerprint``).

Checking a list takes a fraction of a millisecond; starting the process that checks
it takes the rest: importing pydantic, the YAML parser and a game system costs about
ten bare interpreter starts.  Linters face the same and keep a cache of their
findings per file (ruff, mypy); so does armybuilder.  A command's answer for one file
(what it prints about it and how it counts towards the exit code) is stored in the
authenticated cache store of :mod:`armybuilder.core.catalog_cache`, and a later run
that would compute the same answer prints the stored one without importing pydantic,
a YAML parser or any game system.

An answer is only reused when nothing it was computed from can have changed.  Its
key is a digest of:

* the sha256 of the file's bytes, the path as the user wrote it (it is part of every
  message) and, for a relative path, the current folder;
* the command (each command stores its own answers);
* the *world*: the package version, the Python version, the catalogue files of every
  bundled system (catalogues, errata, samples), the files of the folders searched for
  house catalogues (:mod:`.house_paths`), armybuilder's own code (everything but
  the TUI and PDF packages, which ``validate`` never runs) and the YAML and pydantic
  libraries, plus the environment variables that change how lists are checked.  The
  catalogue files are hashed (a user may edit and save one at once); code files are
  named by their size, modification and change times and inode, which is how Python
  itself decides whether a module's bytecode is stale, and a code file changed in the
  last two seconds turns the cache off for that run (git's rule for "racily clean"
  files: the file system's clock is coarse).

So editing the list, a catalogue or errata file, a rules module or upgrading a
library each give another key: the next run misses and checks again.  A stored entry
whose HMAC tag does not verify (edited, truncated) is ignored like a missing one.

The cache is off with ``--no-cache`` or ``ARMYBUILDER_NO_CACHE=1`` (which turn every
cache off, the catalogue's too), with ``ARMYBUILDER_NO_CACHE=answers`` (this one only), with
``ARMYBUILDER_DEBUG`` (which wants the traceback of an internal error, never a stored
message), when a game system outside the bundled table is registered (its code and
catalogue are not covered by the key), and when the cache folder cannot be written
(every write fails quietly and every run is then a miss).  Answers are appended to
:data:`BUCKETS` files (a batch writes each once); a file past :data:`BUCKET_LIMIT` keeps
its newest answers only (about 20,000 answers in all): the oldest written go first.

This module uses the standard library only: a hit must not pay for what it avoids.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

from armybuilder import __version__

from . import catalog_cache

#: The folder of the cache store holding the answers.
FOLDER = "findings"
#: Turns the cache off (any value but "" and "0"): every cache, see catalog_cache.
NO_CACHE_ENV = catalog_cache.NO_CACHE_ENV
#: Files larger than this are never hashed (the list loader refuses them anyway).
MAX_FILE = 8 * 1024 * 1024
#: Environment variables that change what checking a list answers or prints.
_ENV_IN_KEY = ("PYDANTIC_DISABLE_PLUGINS", "ARMYBUILDER_SYSTEMS")
#: Libraries whose behaviour shows in the answers (their messages and positions).
_LIBRARIES = ("pydantic", "pydantic_core", "yaml", "_yaml", "ruamel", "platformdirs")
#: Subpackages of armybuilder that validate never imports (import-linter keeps the core
#: and the systems apart from them).
_NOT_CHECKING = frozenset({"tui", "pdf", "__pycache__"})

_world: str | None = None


def disabled_by_environment() -> bool:
    """True when the user (or a debugging session) turned the cache off."""
    return (catalog_cache.disabled() or os.environ.get(NO_CACHE_ENV) == catalog_cache.ANSWERS_ONLY
            or bool(os.environ.get("ARMYBUILDER_DEBUG")))


#: A code file changed this recently may still change within the same timestamp tick (the
#: file system's clock is coarse), so its signature proves nothing yet: like git's "racily
#: clean" files, the cache stays off until it is older.
RACY_NS = 2_000_000_000


class _Racy(Exception):
    """A signed file was modified too recently for its signature to be trusted."""


def _signature(digest: Any, path: str, now_ns: int) -> None:
    """Name a code file by its size, modification and change times and inode (no read)."""
    try:
        st = os.stat(path)
    except OSError:
        digest.update(f"{path}\0missing\n".encode("utf-8", "surrogateescape"))
        return
    if now_ns - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS:
        raise _Racy(path)
    digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\n".encode("utf-8", "surrogateescape"))


def _files(root: str, suffixes: tuple[str, ...], skip: frozenset[str] = frozenset()) -> list[str]:
    """Every file of ``root`` ending in one of ``suffixes``, in a stable order."""
    found: list[str] = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in skip and not d.startswith("."))
        found.extend(os.path.join(folder, name) for name in sorted(names) if name.endswith(suffixes))
    return found


def _catalogue_folder(package: Path) -> str:
    """The bundled catalogue's folder (a package in the wheel, ``catalog/`` in a checkout)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("armybuilder.catalog")
        if spec is not None and spec.submodule_search_locations:
            return list(spec.submodule_search_locations)[0]
    except (ImportError, ValueError):
        pass
    return str(package.parent / "catalog")


def _library_files(digest: Any, now_ns: int) -> None:
    """Sign the libraries' entry files: an upgrade or reinstall rewrites them."""
    import importlib.machinery

    for name in _LIBRARIES:
        spec = importlib.machinery.PathFinder.find_spec(name)
        if spec is None:
            digest.update(f"{name}\0absent\n".encode("utf-8", "surrogateescape"))
        elif spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
            _signature(digest, spec.origin, now_ns)
        if name == "ruamel" and spec is not None:  # a namespace package: the library is ruamel.yaml
            for location in spec.submodule_search_locations or ():
                _signature(digest, os.path.join(location, "yaml", "__init__.py"), now_ns)


def world_digest(package: Path, catalogue: str) -> str | None:
    """The digest of the code in ``package`` and the catalogue files in ``catalogue``
    (their bytes: the catalogue is data a user may edit and save at once), with the
    libraries, versions and environment; None while a code file is too fresh to sign."""
    import time

    from .registry import KNOWN_SYSTEMS

    now_ns = time.time_ns()
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0{sys.implementation.cache_tag}\0".encode("utf-8", "surrogateescape"))
    digest.update(repr(sorted(KNOWN_SYSTEMS.items())).encode("utf-8", "surrogateescape"))
    for name in _ENV_IN_KEY:
        digest.update(f"{name}={os.environ.get(name)!r}\n".encode("utf-8", "surrogateescape"))
    try:
        for path in _files(str(package), (".py",), _NOT_CHECKING):
            _signature(digest, path, now_ns)
        _library_files(digest, now_ns)
    except _Racy:
        return None
    for path in _files(catalogue, (".yaml", ".yml", ".py")):
        try:
            with open(path, "rb") as handle:
                digest.update(f"{os.path.relpath(path, catalogue)}\0".encode("utf-8", "surrogateescape") + hashlib.sha256(handle.read()).digest())
        except OSError:
            digest.update(f"{path}\0unreadable\n".encode("utf-8", "surrogateescape"))
    _house_files(digest)
    return digest.hexdigest()


#: House catalogue files past this many leave the cache off (a folder of everything)
MAX_HOUSE_FILES = 2000


def _house_files(digest: Any) -> None:
    """The house catalogues a list may use (:mod:`.house`): every file of the folders
    searched, by path and bytes, so adding, changing or removing one gives another key."""
    from .house_paths import search_folders

    count = 0
    for root in search_folders():
        digest.update(f"house\0{root}\n".encode("utf-8", "surrogateescape"))
        if not os.path.isdir(root):
            continue
        for path in _files(str(root), (".yaml",)):
            count += 1
            if count > MAX_HOUSE_FILES:
                digest.update(os.urandom(16))  # too many to vouch for: this run's key is its own
                return
            data = file_bytes(Path(path))  # regular files only: a FIFO is never opened
            digest.update(f"{path}\0".encode("utf-8", "surrogateescape") + (hashlib.sha256(data).digest() if data is not None else b"unreadable\n"))


def world_key() -> str | None:
    """The digest of everything but the file that an answer depends on; None: no cache."""
    global _world
    if _world is not None:
        return _world
    from .registry import BUNDLED_SYSTEMS, KNOWN_SYSTEMS

    if KNOWN_SYSTEMS != BUNDLED_SYSTEMS:
        return None  # a system from elsewhere: its files are not in the key
    import armybuilder

    package = Path(armybuilder.__file__).resolve().parent
    _world = world_digest(package, _catalogue_folder(package))
    return _world


def file_bytes(path: Path) -> bytes | None:
    """The bytes of a regular file of sane size, else None (no answer is cached for it:
    a pipe must not be read twice, a missing file is reported by the command)."""
    from .inplace import recover

    recover(path)  # a file a killed save left torn is answered for its whole bytes
    return catalog_cache.read_file(path, MAX_FILE)  # regular, bounded, never a blocking open


def entry_key(command: str, path: Path, data: bytes) -> str | None:
    """The key of one command's answer for one file's bytes; None when caching is off."""
    world = world_key()
    if world is None:
        return None
    try:
        where = str(path) if path.is_absolute() else f"{os.getcwd()}\0{path}"
    except OSError:  # the current folder was removed
        return None
    # surrogateescape: a file name that is not UTF-8 keeps its own bytes in the key
    digest = hashlib.sha256(f"{command}\0{world}\0{where}\0".encode("utf-8", "surrogateescape"))
    digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:40]


#: Answers live in this many append-only files, chosen by the key's first hex digit: a
#: batch of a thousand answers costs a few appends instead of a thousand file writes.
BUCKETS = 16
#: A bucket file growing past this is rewritten with its newest answers only (answers
#: take 1-2 KB: about 20,000 are kept over all buckets).
BUCKET_LIMIT = 2 * 1024 * 1024
#: A bucket file larger than this is not read (a run's appends may pass the limit a little).
BUCKET_READ_LIMIT = 4 * BUCKET_LIMIT
_TAG = 64  # hex digits of a record's HMAC-SHA256 tag
_KEY = 40  # hex digits of an answer's key

#: Buckets read in this process: name -> [bytes, {key: (tag, payload)} once indexed,
#: look-ups so far]. A lone look-up searches the bytes from the end (fast: no parsing); a
#: batch's many look-ups index the bucket once.
_read_buckets: dict[str, list[Any]] = {}
#: Look-ups in one bucket searched directly before the bucket is indexed.
_SEARCHES = 8


def _bucket(key: str) -> str:
    return f"{FOLDER}/{key[:1]}.log"


def _records(data: bytes) -> dict[bytes, tuple[bytes, bytes]]:
    """The records of a bucket file, by key, the last written winning (a record that was
    torn by a crash, or is not one at all, has no key of the right shape or fails its tag
    later: it is only ever a miss)."""
    found: dict[bytes, tuple[bytes, bytes]] = {}
    for line in data.split(b"\n"):
        if len(line) > _TAG + _KEY + 2 and line[_TAG : _TAG + 1] == b" " and line[_TAG + _KEY + 1 : _TAG + _KEY + 2] == b" ":
            found[line[_TAG + 1 : _TAG + _KEY + 1]] = (line[:_TAG], line[_TAG + _KEY + 2 :])
    return found


def _search(data: bytes, key: bytes) -> tuple[bytes, bytes] | None:
    """The last record of ``key`` in a bucket's bytes (as :func:`_records` would find it)."""
    needle = b" " + key + b" "
    end = len(data)
    while (at := data.rfind(needle, 0, end)) >= 0:
        start = at - _TAG
        if start == 0 or (start > 0 and data[start - 1 : start] == b"\n"):
            stop = data.find(b"\n", at)
            line = data[start : stop if stop >= 0 else len(data)]
            if len(line) > _TAG + _KEY + 2:
                return line[:_TAG], line[_TAG + _KEY + 2 :]
        end = at + len(needle) - 1  # the key may be text inside another answer: look further back
    return None


def _record_tag(secret: bytes, key: bytes, payload: bytes) -> bytes:
    """A record's tag: over this store's name, the answer's key and the answer."""
    return catalog_cache.tag(secret, FOLDER, key.decode("ascii", "replace"), payload)


def lookup(key: str) -> Any | None:
    """The stored answer under ``key`` if present and authentic (its record's HMAC tag,
    over the key and the answer, verifies under the cache's key)."""
    import hmac
    import json

    folder = catalog_cache.cache_folder()
    if folder is None or len(key) != _KEY:
        return None
    secret = catalog_cache.secret(folder, create=False)
    if secret is None:
        return None
    name = _bucket(key)
    bucket = _read_buckets.get(name)
    if bucket is None:
        data = catalog_cache.read_file(folder / name, BUCKET_READ_LIMIT) or b""
        bucket = _read_buckets[name] = [data, None, 0]
    raw = key.encode("ascii", "replace")
    bucket[2] += 1
    if bucket[1] is None and bucket[2] > _SEARCHES:
        bucket[1] = _records(bucket[0])
    record = bucket[1].get(raw) if bucket[1] is not None else _search(bucket[0], raw)
    if record is None:
        return None
    tag, payload = record
    if not hmac.compare_digest(tag, _record_tag(secret, key.encode("ascii"), payload)):
        return None  # edited, torn or written with another key: never trusted
    try:
        return json.loads(payload)
    except ValueError:
        return None


def _payload(value: Any) -> bytes | None:
    import json

    try:
        try:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (a file name that is not UTF-8): escaped
            return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    except (TypeError, ValueError):  # not JSON-able
        return None


def store_answers(answers: list[tuple[str, Any]]) -> None:
    """Store many answers (``(key, value)``) with one append per bucket file.

    Each answer is one line, ``tag key json``, written with a single ``write`` to a file
    opened for appending: concurrent writers' lines do not interleave, and a line torn by
    a crash fails its tag (JSON escapes every line break, so a line is one record). The
    caller vouches that each answer was computed from the bytes its key names. Failures
    only cost speed later.
    """
    folder = catalog_cache.cache_folder()
    if folder is None or not answers:
        return
    secret = catalog_cache.secret(folder, create=True)
    if secret is None:
        return
    lines: dict[str, list[bytes]] = {}
    for key, value in answers:
        payload = _payload(value)
        if payload is None or len(key) != _KEY or not key.isascii():
            continue
        raw = key.encode("ascii")
        lines.setdefault(_bucket(key), []).append(_record_tag(secret, raw, payload) + b" " + raw + b" " + payload + b"\n")
    for name, chunk in lines.items():
        _read_buckets.pop(name, None)
        _append(folder / name, b"".join(chunk))


def _append(path: Path, data: bytes) -> None:
    """Append ``data`` in one write; a bucket grown past its limit is compacted."""
    # without blocking: a FIFO in the bucket's place fails to open (no reader) or is refused
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        try:
            fd = os.open(path, flags, 0o600)
        except FileNotFoundError:  # the first answer of this cache folder
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, flags, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return
            written = os.write(fd, data)
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if written == len(data) and size > BUCKET_LIMIT:
            _compact(path)
    except OSError:
        pass


def _compact(path: Path, limit: int | None = None) -> None:
    """Rewrite a bucket with its newest answers only, within nine tenths of ``limit``
    (written beside it, then renamed over it: a reader sees the old or the new file).
    An answer appended by another process meanwhile may be lost: a later miss, no more."""
    keep = (BUCKET_LIMIT if limit is None else limit) * 9 // 10
    try:
        records = _records(catalog_cache.read_file(path, BUCKET_READ_LIMIT) or b"")
        kept: list[bytes] = []
        size = 0
        for raw, (tag, payload) in reversed(list(records.items())):  # newest last in the file
            line = tag + b" " + raw + b" " + payload + b"\n"
            if size + len(line) > keep:
                break
            kept.append(line)
            size += len(line)
        tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
        fd = catalog_cache.create_exclusive(tmp)
        with os.fdopen(fd, "wb") as handle:
            handle.write(b"".join(reversed(kept)))
        tmp.replace(path)
    except OSError:
        pass
    _read_buckets.pop(f"{FOLDER}/{path.name}", None)


def store(key: str, path: Path, data: bytes, value: Any) -> None:
    """Store ``value`` under ``key``, unless the file changed while it was being checked
    (the answer would then describe other bytes than the key's)."""
    if file_bytes(path) != data:
        return
    store_answers([(key, value)])


def evict() -> None:
    """Remove the answers of the earlier layout (one JSON file per answer), if any: they
    are never read again. Bounding the buckets is :func:`_append`'s job."""
    root = catalog_cache.cache_folder()
    if root is None:
        return
    folder = root / FOLDER
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".json")]
    except OSError:
        return
    for name in names:
        try:
            os.unlink(folder / name)
        except OSError:
            pass


def _reset_for_tests() -> None:
    """Forget the world key and buckets read in this process (tests change the world)."""
    global _world
    _world = None
    _read_buckets.clear()
