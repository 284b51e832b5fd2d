"""One place that makes text safe to show: control characters become visible escapes.

A list file is data from anybody (an organiser validates lists players send in).  Its
ids, names and notes end up in terminal output, TUI widgets, JSON and rosters; a raw
ESC, BEL or C1 control there lets the file talk to the terminal instead of the reader
(OSC 52 sets the clipboard, CSI clears the screen or moves the cursor, OSC 0 renames
the window).  Every such character is therefore shown as a literal escape (``\\x1b``,
``\\u009b``) - never removed, so the reader sees that something odd is in the file.

Bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the Unicode line
and paragraph separators are escaped too: they reorder or break what is displayed
without being visible themselves.

The file itself is never changed: this is applied when text is *shown*, so a save
writes exactly what the user wrote.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates, line/paragraph
#: separators, and the byte-order mark / zero-width no-break space.
_OTHERS = "\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff"
_UNSAFE_RE = re.compile(f"[\x00-\x1f{_OTHERS}]")
_UNSAFE_KEEP_LINES_RE = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")

#: Outside strings JSON is ASCII punctuation, so escaping these anywhere in a dump only
#: touches string contents (C0 controls the json module escapes already).
_JSON_UNSAFE_RE = re.compile(f"[{_OTHERS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def visible(text: object) -> str:
    """``text`` with every control character shown as an escape; one line, always."""
    return _UNSAFE_RE.sub(_escape, str(text))


def visible_lines(text: object) -> str:
    """Like :func:`visible` but keeps line feeds and tabs (for multi-line output we format)."""
    return _UNSAFE_KEEP_LINES_RE.sub(_escape, str(text))


def has_unsafe(text: str) -> bool:
    """True if ``text`` holds a character :func:`visible` would escape."""
    return _UNSAFE_RE.search(text) is not None


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def safe_json(value: Any, **options: Any) -> str:
    """``json.dumps`` whose text holds no raw control character.

    Unlike :func:`visible` this keeps the data exact: a JSON reader gets the very
    string the file holds (``\\u009b`` is JSON for U+009B), while a terminal showing the
    dump sees only printable characters.
    """
    return _JSON_UNSAFE_RE.sub(_json_escape, json.dumps(value, **options))


__all__ = ["has_unsafe", "safe_json", "visible", "visible_lines"]
