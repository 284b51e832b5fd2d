"""One place that makes text safe to show: control characters become visible escapes.

A list file is data from anybody (an organiser validates lists players send in).  Its
ids, names and notes end up in terminal output, TUI widgets, JSON and rosters; a raw
ESC, BEL or C1 control there lets the file talk to the terminal instead of the reader
(OSC 52 sets the clipboard, CSI clears the screen or moves the cursor, OSC 0 renames
the window).  Every such character is therefore shown as a literal escape (``\\x1b``,
``\\u009b``) - never removed, so the reader sees that something odd is in the file.

Bidirectional controls (U+061C, U+200E-F, U+202A-U+202E, U+2066-U+2069) and the Unicode line
and paragraph separators are escaped too: they reorder or break what is displayed
without being visible themselves.

The file itself is never changed: this is applied when text is *shown*, so a save
writes exactly what the user wrote.

One module, one rule per kind of output:

* a terminal line (the CLI's ``_out``/``_err``, a log line, a progress line):
  :func:`visible` - one line, always: a line feed, carriage return or tab from a file
  shows as ``\\x0a``, so a name cannot start a line of its own and forge output;
* text the program lays out in several lines (a roster, a report): each field through
  :func:`visible`, the program's own line feeds kept (:func:`visible_lines` is the net);
* JSON: :func:`safe_json` - exact data, no raw control character in the text;
* CSV: :func:`csv_text` - every text cell made visible and quoted, and a cell a
  spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``) starts with an
  apostrophe, as OWASP's advice on CSV injection says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

#: C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates, line/paragraph
#: separators, the byte-order mark / zero-width no-break space, and lone surrogates (a
#: file name that is not UTF-8 holds its odd bytes as U+DC80-U+DCFF: written out they
#: would be those raw bytes, ``\x9b`` among them, or fail to encode at all).
#: The characters that reorder or break a displayed line without being seen: every Unicode
#: Bidi_Control character (the Arabic letter mark U+061C, the LRM/RLM marks, the embeddings and
#: overrides, the isolates) and the line and paragraph separators.  A regex class body, shared by
#: every module that escapes or refuses text (prints, house catalogue checks) so they agree.
INVISIBLE_FORMAT = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_OTHERS = f"\x7f-\x9f{INVISIBLE_FORMAT}\ufeff\ud800-\udfff"
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


_BREAKS_RE = re.compile(r"[\t\n\r]+")


def one_line(text: object) -> str:
    """Prose shown on one line of a layout (a roster, a summary): the writer's line breaks
    and tabs become a space, every other control a visible escape."""
    return visible(_BREAKS_RE.sub(" ", str(text))).strip()


def file_stem(text: str) -> str:
    """A name the program derives a file name from (a list's stem for its export), with
    every character :func:`visible` would escape replaced by ``_``: a file the program
    creates never carries a control character into a later ``ls`` or shell."""
    return _UNSAFE_RE.sub("_", text)


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


#: First characters with which a spreadsheet reads a cell as a formula (full-width forms
#: too: some spreadsheets fold them).  Tab and carriage return, also on OWASP's list, are
#: escaped by :func:`visible` before this is checked.
_FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")


#: a number written as text ("-163.0000"): a spreadsheet reads it as the number it is
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def csv_cell(value: object) -> str:
    """One CSV cell: numbers as they are; text visible (no line break, no control), quoted
    when it holds a comma or a quote, and a text a spreadsheet would read as a formula
    prefixed with an apostrophe and quoted."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    text = visible(value)
    formula = text.lstrip(" ")[:1] in _FORMULA_STARTS and not _PLAIN_NUMBER.fullmatch(text)
    if formula:
        text = "'" + text
    if formula or any(c in text for c in ',"') or text != text.strip(" "):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """A CSV document (one row a line, ``\\n`` ends every row) of :func:`csv_cell` cells."""
    return "".join(",".join(csv_cell(cell) for cell in row) + "\n" for row in rows)


__all__ = ["csv_cell", "csv_text", "file_stem", "has_unsafe", "one_line", "safe_json", "visible", "visible_lines"]
