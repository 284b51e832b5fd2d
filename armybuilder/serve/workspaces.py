"""One workspace folder per browser, and the list files uploaded into it.

A browser is known by a random key in a long-lived cookie, given on its first visit; its
folder is named by a hash of that key (a folder listing on the host reveals no key). Every
tab of that browser works in the same folder, so a list saved in one tab opens in another,
and a list saved today is there tomorrow; another browser, another player, has another folder.

An upload is a list file from the player's device: stored under its own name (made safe;
never over an existing file), checked as the editor would open it, and reported.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

COOKIE = "armybuilder-workspace"
KEY = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
KEEP_DAYS = 400  # the cookie's life: a browser finds its folder for about a year after its last visit

UPLOAD_LIMIT = 1024 * 1024
"""Largest list file accepted (the bundled samples are a few KB)."""


def size_text(size: int) -> str:
    """A size as the page and the messages say it (``1 MB``, ``512 KB``)."""
    return f"{size >> 20} MB" if size >= 1 << 20 and size % (1 << 20) == 0 else f"{size // 1024} KB"


TOO_LARGE = f"the file is larger than {size_text(UPLOAD_LIMIT)}; a list file is a few KB"

WORKSPACE_LIMIT = 64 * 1024 * 1024
"""What the files of one workspace may add up to before uploads are refused."""

NAME_BYTES = 150  # of a stored name's stem in UTF-8: well within any file system's 255


class Workspaces:
    """The folder holding every browser's workspace."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.root = root.resolve()

    def key_of(self, request: web.Request) -> str | None:
        key = request.cookies.get(COOKIE)
        return key if key is not None and KEY.fullmatch(key) else None

    def folder_of(self, request: web.Request) -> Path | None:
        key = self.key_of(request)
        return self.folder(key) if key is not None else None

    def folder(self, key: str) -> Path:
        return self.root / hashlib.sha256(key.encode("ascii")).hexdigest()[:32]

    def welcome(self, request: web.Request, response: web.StreamResponse) -> Path:
        """The request's workspace folder, made; a browser without one is given a key."""
        key = self.key_of(request)
        if key is None:
            key = secrets.token_urlsafe(32)
        response.set_cookie(
            COOKIE, key, max_age=KEEP_DAYS * 86400, httponly=True, samesite="Strict", path="/", secure=request.secure
        )
        folder = self.folder(key)
        folder.mkdir(exist_ok=True, mode=0o700)
        return folder


@dataclass(frozen=True)
class Upload:
    name: str  # as stored, relative to the workspace
    message: str  # what the page shows: what the list is, or why it will not open


def _name_character(char: str) -> str:
    """Letters, digits and marks of any script, and ``. _ -``, stay; anything else (controls,
    bidirectional and other invisible format characters, spaces, symbols, separators)
    becomes ``-``."""
    if char in "._-" or unicodedata.category(char)[0] in "LNM":
        return char
    return "-"


def safe_name(given: str | None) -> str:
    """A file name that is only a name: no folders, no leading dot, nothing invisible or
    misleading, a list's suffix; a player's own script kept (``Légion-du-nord.yaml``)."""
    from urllib.parse import unquote

    base = unquote(given or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = unicodedata.normalize("NFC", base)
    stem, dot, suffix = base.rpartition(".")
    if not dot or suffix.lower() not in ("yaml", "yml"):
        stem = base
    stem = re.sub(r"-{2,}", "-", "".join(map(_name_character, stem))).strip("-.")
    while len(stem.encode("utf-8")) > NAME_BYTES:
        stem = stem[:-1]
    stem = stem.rstrip("-.") or "uploaded-list"
    return f"{stem}.yaml"


def workspace_size(folder: Path) -> int:
    total = 0
    for here, _dirs, files in os.walk(folder):  # links are not followed
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(here, name)).st_size
    return total


def store_upload(folder: Path, given_name: str | None, data: bytes) -> str:
    """Write ``data`` into ``folder`` under a new name (never over a file); that name."""
    if len(data) > UPLOAD_LIMIT:
        raise ValueError(TOO_LARGE)
    if workspace_size(folder) + len(data) > WORKSPACE_LIMIT:
        raise ValueError(f"your workspace holds {size_text(WORKSPACE_LIMIT)} of files already")
    name = safe_name(given_name)
    stem = name[: -len(".yaml")]
    fd, tmp = tempfile.mkstemp(prefix=".upload.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        for n in range(1, 1000):
            candidate = name if n == 1 else f"{stem}-{n}.yaml"
            try:
                os.link(tmp, folder / candidate)  # fails on any existing name, a link included
            except FileExistsError:
                continue
            return candidate
        raise ValueError("too many files of that name in your workspace")
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def describe_upload(name: str, data: bytes) -> str:
    """What the editor will make of the file: its list and game, or why it will not open."""
    from armybuilder.core.errors import InputError
    from armybuilder.core.lists import parse_list
    from armybuilder.core.sanitize import visible, visible_lines
    from armybuilder.core.yamlio import decode_text

    try:
        lf = parse_list(decode_text(data, name), name)
        lf.system.catalogue_for(lf.army)
    except InputError as exc:
        return "stored, but the editor will not open it: " + visible_lines(str(exc))
    except Exception as exc:  # noqa: BLE001 - said to the player, never a server error
        return f"stored, but the editor will not open it: {visible(type(exc).__name__)}: {visible(str(exc))}"
    return f"{visible(lf.army.name)} ({visible(lf.system.name)}): open it with 'Open a file…' on the home screen"
