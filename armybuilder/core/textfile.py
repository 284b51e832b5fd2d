"""Reading a user's text file: regular files only, bounded, decoded with positions.

Free of any YAML library so that every reader (the round-trip loader in
:mod:`.yamlio`, a read-only fast path, the catalogue) shares one set of refusals:
a FIFO, device or socket is refused at once (never waited on, never read without
end), the size is bounded while reading, and text that is not UTF-8 (or UTF-16/32
with a byte-order mark) is refused with the line and column of the first bad byte.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import InputError
from .inplace import recover

#: The largest list file read.  A whole army is a few kilobytes (a 2,000 A.P. Rag'Narok 2
#: list with notes: 6 KB); a file over this is refused before any parsing, with its size:
#: reading it round trip (the editor, ``meta``) would take seconds per hundred kilobytes.
LIST_FILE_LIMIT = 256 * 1024


def _size(n: int) -> str:
    """A file size as people read it: ``300 KiB``, ``4.9 MiB``."""
    return f"{n / 1_048_576:.1f} MiB" if n >= 1_048_576 else f"{n / 1024:.0f} KiB" if n >= 1024 else f"{n} bytes"


def line_col_of_text(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _line_col_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


#: Byte-order marks of the encodings read besides UTF-8 (UTF-32 first: its LE mark
#: begins with UTF-16's).  Without a mark a file must be UTF-8.
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)


def decode_text(data: bytes, path: str) -> str:
    """Decode UTF-8 (or UTF-16/32 with a byte-order mark), refusing binary data with a position."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise InputError.at(
                    f"this {name} text file holds an invalid byte sequence (at byte {exc.start + len(bom)})", path
                ) from None
            if "\x00" in text:
                line, col = line_col_of_text(text, text.index("\x00"))
                raise InputError.at(f"this {name} file holds a NUL character: not a text file", path, line, col)
            return text
    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _line_col_of_offset(data, nul)
        raise InputError.at("this is not a text file (it holds binary data)", path, line, col)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _line_col_of_offset(data, exc.start)
        raise InputError.at(
            "this is not a UTF-8 text file (invalid byte sequence)", path, line, col
        ) from None
    return text


_KINDS = (
    (stat.S_ISDIR, "this is a folder, not a file"),
    (stat.S_ISFIFO, "this is a named pipe (FIFO), not a regular file"),
    (stat.S_ISCHR, "this is a character device, not a regular file"),
    (stat.S_ISBLK, "this is a block device, not a regular file"),
    (stat.S_ISSOCK, "this is a socket, not a regular file"),
)


def read_bytes(path: str | Path, limit: int = LIST_FILE_LIMIT) -> bytes:
    """The bytes of a user's regular file, at most ``limit`` of them, or InputError.

    Opened without blocking and checked with ``fstat`` on the open descriptor, so a
    FIFO (which would block forever), a device (``/dev/zero`` never ends) or a socket
    is refused at once, and a file swapped after the check cannot slip through; the
    read itself stops after ``limit`` bytes whatever the file claims its size is.
    """
    p = Path(path)
    recover(p)  # a save killed while rewriting this file in place: its old bytes back first
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags)
    except IsADirectoryError:
        raise InputError.at("this is a folder, not a file", p) from None
    except FileNotFoundError:
        raise InputError.at("no such file", p) from None
    except PermissionError:
        raise InputError.at("permission denied", p) from None
    except OSError as exc:
        raise InputError.at(f"cannot read the file ({exc.strerror or exc})", p) from None
    try:
        info = os.fstat(fd)
        for test, message in _KINDS:
            if test(info.st_mode):
                raise InputError.at(message, p)
        if info.st_size > limit:
            raise InputError.at(f"the file is {_size(info.st_size)}; files over {_size(limit)} are refused", p)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise InputError.at(f"cannot read the file ({exc.strerror or exc})", p) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError.at(f"the file grew past {_size(limit)} while being read; refused", p)
    return data


def read_text(path: str | Path, limit: int = LIST_FILE_LIMIT) -> str:
    """Read a user's text file with a size limit, turning OS errors into InputError."""
    return decode_text(read_bytes(path, limit), str(path))


__all__ = ["LIST_FILE_LIMIT", "decode_text", "read_bytes", "read_text"]
