"""Saving a user's file: atomic where possible, never losing what someone else wrote.

A save must not leave half a list on disk after a crash, and must not quietly undo
what happened to the file meanwhile.  Hence:

* the bytes go to a temporary file beside the target, are fsynced and renamed over
  it (POSIX rename is atomic: a reader sees the old file or the new one);
* a symlink is followed: its *target* is saved, the link stays a link;
* the temporary file is read back before the rename: a full disk or a short write
  fails the save with the old file in place;
* a file with several hard links, or owned by someone else, is rewritten in place
  (a rename would split the links or make the saver its owner), guarded by a safety
  copy so that no failure, ``kill -9`` included, leaves it half written
  (:mod:`.inplace`); mode, and owner and group where the OS lets us, are carried over
  to the renamed file;
* a FIFO, device or socket where the file was is refused at once, never opened for
  a blocking read;
* a file the user may not write is refused, even in a folder he may write (a rename
  there would replace somebody else's read-only file);
* ``expected`` - the hash of the content the caller read - makes the save refuse
  (:class:`SaveConflict`) when the file changed since: another program, another
  editor, a ``git pull`` wrote it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import InputError
from .inplace import failure_reason, recover, write_in_place


def _umask() -> int:
    """The process umask (reading it means setting it; put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class SaveConflict(InputError):
    """The file on disk is not the one the caller read: saving would lose those changes."""


def content_digest(data: bytes) -> str:
    """The hash saves compare (content, not mtime: a copy with the same mtime still differs)."""
    return hashlib.sha256(data).hexdigest()


def save_target(path: str | Path) -> Path:
    """Where saving ``path`` writes: a symlink's final target, so the link stays a link."""
    p = Path(path)
    try:
        return Path(os.path.realpath(p)) if p.is_symlink() else p
    except OSError:
        return p


def _current_digest(target: Path) -> str | None:
    """The digest of the file now at ``target`` (None if there is none).  Opened without
    blocking and checked to be a regular file: a FIFO put in its place must not hang a
    save (the editor would freeze), a device must not be read without end."""
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError.at(f"cannot read the file before saving ({exc.strerror or exc})", target) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError.at("not a regular file (a pipe, a device or a socket is there now): refusing to save over it", target)
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        return digest.hexdigest()
    except OSError as exc:
        raise InputError.at(f"cannot read the file before saving ({exc.strerror or exc})", target) from None
    finally:
        os.close(fd)


def check_unchanged(path: str | Path, expected: str | None) -> None:
    """Raise :class:`SaveConflict` if the file's content is no longer ``expected``."""
    if expected is None:
        return
    target = save_target(path)
    now = _current_digest(target)
    if now == expected:
        return
    if now is None:
        raise SaveConflict.at("the file was deleted or moved since it was opened; not saved", path)
    raise SaveConflict.at(
        "the file changed on disk since it was opened (another program or editor saved it); not saved",
        path,
    )


def _write_by_rename(target: Path, data: bytes, info: os.stat_result | None) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError.at(f"cannot write here ({exc.strerror or exc})", target) from None
    try:
        with os.fdopen(fd, "w+b") as handle:
            handle.write(data)
            handle.flush()
            if info is None:  # mkstemp creates 0600; a new file gets the user's usual permissions
                os.fchmod(handle.fileno(), 0o666 & ~_umask())
            else:
                os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
                with contextlib.suppress(OSError):  # keep the group (and owner, as root)
                    os.fchown(handle.fileno(), info.st_uid, info.st_gid)
            os.fsync(handle.fileno())
            handle.seek(0)
            if handle.read() != data:  # a short write the OS did not report: never renamed
                raise OSError(0, "the new file did not read back as written")
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def atomic_write_bytes(path: str | Path, data: bytes, expected: str | None = None) -> None:
    """Save ``data`` to ``path`` (see the module docstring for what is kept and refused).

    ``expected``: the :func:`content_digest` of what the caller read; when given and the
    file now holds something else, nothing is written and :class:`SaveConflict` raised.
    """
    shown = Path(path)
    target = save_target(shown)
    recover(target)  # a save killed half way over this file: its old bytes back first
    check_unchanged(target, expected)
    try:
        info = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError.at(f"cannot save the file ({exc.strerror or exc})", shown) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError.at("not a regular file: refusing to save over it", shown)
    if info is not None and (not os.access(target, os.W_OK) or not info.st_mode & 0o222):
        # checked by mode too: root may write anything, yet a file marked read-only
        # is meant to stay as it is
        raise InputError.at("the file is read-only (write permission is off): not saved", shown)
    shared = info is not None and (info.st_nlink > 1 or (hasattr(os, "geteuid") and info.st_uid != os.geteuid()))
    try:
        if shared:
            write_in_place(target, data)
        else:
            _write_by_rename(target, data, info)
    except OSError as exc:
        raise InputError.at(f"not saved: {failure_reason(exc)}; the file is unchanged", shown) from None


def atomic_write_text(path: str | Path, text: str, expected: str | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), expected)
