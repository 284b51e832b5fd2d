"""Rewriting a file's own bytes (kept for files with other links or owners) without ever
leaving it half written.

A file with several hard links, or owned by someone else, cannot be saved by writing a
new file and renaming it over the old one: the rename would split the links or make the
saver its owner.  Its own inode must be rewritten, which no system call does atomically.
So the rewrite is guarded:

1. the old bytes go to a *safety copy* beside the file (``.NAME.armybuilder-save``:
   a header with both contents' digests and the file's identity, then the old bytes),
   written by rename, synced and read back: a full disk stops the save here, the file
   untouched;
2. the file's blocks for the new length are reserved (``posix_fallocate``), so writing
   the new bytes cannot run out of space half way (on a copy-on-write file system the
   reservation is all it can promise); a refusal restores the length and stops;
3. the new bytes are written, the file cut to their length, synced and read back;
   any failure there writes the old bytes back from memory (their blocks are reserved)
   and says the file is unchanged;
4. the safety copy is removed.

A process killed during step 3 (``kill -9``, a power cut) leaves the safety copy; the
next reader of the file (:func:`recover`, called by every reader of list files and by
the next save) finds it, sees from the digests whether the file is whole (the old or
the new bytes: the copy is dropped) or torn (the old bytes are written back), and goes
on with a whole file.  An advisory lock on the file during steps 2-4 keeps a reader of
the same machine from "recovering" a save that is still under way.

Standard library only: the findings cache reads list files without importing more.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import time
from pathlib import Path

from .errors import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".armybuilder-save"
#: The header of a safety copy is one JSON line; a longer one is not ours.
_HEADER_LIMIT = 4096
#: A safety copy larger than this is not read back (list files are capped far below).
_COPY_LIMIT = 64 * 1024 * 1024
#: How long a reader waits for a save under way on the same file before reading anyway.
_LOCK_WAIT = 2.0


def safety_copy_path(target: Path) -> Path:
    """Where the safety copy of ``target`` is kept while it is rewritten in place."""
    return target.with_name(f".{target.name}{SUFFIX}")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    """``data`` from offset 0, then the file cut to its length, then synced."""
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _write_copy(copy: Path, header: dict[str, object], old: bytes) -> None:
    """The safety copy, written beside the file by rename and read back: raises OSError."""
    import tempfile  # only a save needs it; every reader imports this module

    payload = json.dumps(header, sort_keys=True).encode("ascii") + b"\n" + old
    fd, tmp = tempfile.mkstemp(prefix=f"{copy.name}.", suffix=".tmp", dir=copy.parent)
    try:
        with os.fdopen(fd, "w+b") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
            if _read_all(handle.fileno()) != payload:
                raise OSError(0, "the safety copy did not read back as written")
        os.replace(tmp, copy)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(copy.parent)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _reserve(fd: int, old_size: int, new_size: int) -> None:
    """Reserve the blocks of a longer content before writing it; on failure the file keeps
    its length (a partial reservation is cut back) and OSError is raised."""
    if new_size <= old_size or not hasattr(os, "posix_fallocate"):
        return  # without it a failed write is still undone: the old bytes fit their own blocks
    try:
        os.posix_fallocate(fd, 0, new_size)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, old_size)
        if exc.errno in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
            return  # the file system cannot reserve: the write may still fail, and is undone
        raise


def _lock(fd: int, wait: float) -> bool:
    """An exclusive advisory lock on the open file, waiting up to ``wait`` seconds."""
    if fcntl is None:
        return True
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        except OSError:
            return True  # a file system without locks: nothing to wait for


#: What a failed write's errno means to the person saving.
_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file would exceed the size this process may write",
}


def failure_reason(exc: OSError) -> str:
    """Why a write failed, in the words of someone saving a file."""
    return _REASONS.get(exc.errno or 0) or exc.strerror or str(exc)


def _space_error(exc: OSError, target: Path, extra: str) -> InputError:
    return InputError.at(f"not saved: {failure_reason(exc)}; {extra}", target)


def write_in_place(target: Path, data: bytes) -> None:
    """Rewrite ``target``'s own bytes with ``data`` (see the module docstring).

    Raises InputError, the file then holding its old bytes; a folder where no safety copy
    can be written is refused before anything is touched (save under another name)."""
    recover(target)
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags)
    try:
        _lock(fd, _LOCK_WAIT)  # before the copy exists: a reader never takes this save for a dead one
        info = os.fstat(fd)
        old = _read_all(fd)
        copy = safety_copy_path(target)
        header = {"old": _digest(old), "new": _digest(data), "size": len(old), "dev": info.st_dev, "ino": info.st_ino}
        try:
            _write_copy(copy, header, old)
        except OSError as exc:
            raise _space_error(
                exc, target,
                f"a safety copy of the file could not be written beside it ({copy.name}); "
                "the file is unchanged: save the list under another name",
            ) from None
        try:
            _reserve(fd, len(old), len(data))
        except OSError as exc:
            copy.unlink(missing_ok=True)
            raise _space_error(exc, target, f"{len(data) - len(old):,} more bytes were needed; the file is unchanged") from None
        try:
            _write_all(fd, data)
            if _read_all(fd) != data:
                raise OSError(0, "the file did not read back as written")
        except OSError as exc:
            _write_all(fd, old)  # the old length's blocks are still reserved
            copy.unlink(missing_ok=True)
            raise _space_error(exc, target, "the file is unchanged") from None
        copy.unlink(missing_ok=True)
        _sync_folder(target.parent)
    finally:
        os.close(fd)  # releases the lock


def _read_copy(copy: Path) -> tuple[dict[str, object], bytes] | None:
    """The header and old bytes of a safety copy, or None if it is not one of ours."""
    try:
        fd = os.open(copy, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000 == 0o100000) or info.st_size > _COPY_LIMIT:
            return None
        payload = _read_all(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    head, newline, old = payload.partition(b"\n")
    if not newline or len(head) > _HEADER_LIMIT:
        return None
    try:
        header = json.loads(head)
    except ValueError:
        return None
    if not isinstance(header, dict) or header.get("old") != _digest(old):
        return None  # torn or not ours: nothing it says can be trusted
    return header, old


def recover(path: str | Path) -> bool:
    """Finish what a save killed while rewriting ``path`` in place left; True if it had to
    write the old bytes back.  A safety copy that is not ours, or describes another file
    than the one now at ``path``, is left alone and ignored."""
    target = Path(path)
    copy = safety_copy_path(target)
    if not os.path.lexists(copy):
        return False
    found = _read_copy(copy)
    if found is None:
        return False
    header, old = found
    try:
        fd = os.open(target, os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != (header.get("dev"), header.get("ino")) or info.st_mode & 0o170000 != 0o100000:
            return False
        if not _lock(fd, _LOCK_WAIT):
            return False  # a save is under way on this file: it will finish or fail itself
        if not os.path.lexists(copy):
            return False  # that save finished while we waited
        now = _digest(_read_all(fd))
        restored = now not in (header.get("old"), header.get("new"))
        if restored:
            _write_all(fd, old)
        copy.unlink(missing_ok=True)
        _sync_folder(target.parent)
        return restored
    except OSError:
        return False
    finally:
        os.close(fd)


__all__ = ["SUFFIX", "failure_reason", "recover", "safety_copy_path", "write_in_place"]
