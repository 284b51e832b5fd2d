"""Rich ``Text`` made safe to show: the core sanitiser applied with the styles kept.

Textual passes ESC and C1 characters of a label straight to the terminal, so a list
whose unit is called ``"\\x1b]0;pwned\\x07"`` would rename the terminal window, or clear
the screen.  Widgets build styled ``Text`` from user and catalogue text; this escapes
the control characters in such a ``Text`` (see :mod:`armybuilder.core.sanitize`) and
moves the style spans along with the characters they cover.
"""

from __future__ import annotations

from rich.text import Span, Text

from armybuilder.core.sanitize import has_unsafe, visible, visible_lines


def safe_text(content: Text | str, *, lines: bool = False) -> Text:
    """A copy of ``content`` without raw control characters (line feeds kept if ``lines``)."""
    escape = visible_lines if lines else visible
    if not isinstance(content, Text):  # escaped first: ``Text`` drops BEL, BS, VT, FF and CR
        return Text(escape(content))
    text = content
    plain = text.plain
    if not has_unsafe(plain):
        return text
    # new offset of every old offset (one past the end included), to move the spans
    offsets = [0] * (len(plain) + 1)
    pieces = []
    position = 0
    for index, char in enumerate(plain):
        offsets[index] = position
        piece = escape(char)
        pieces.append(piece)
        position += len(piece)
    offsets[len(plain)] = position
    out = text.copy()
    out.plain = "".join(pieces)
    out.spans = [Span(offsets[s.start], offsets[min(s.end, len(plain))], s.style) for s in text.spans]
    return out


def safe_str(value: object) -> str:
    """A plain one-line string for titles, notifications and input values."""
    return visible(value)


__all__ = ["safe_str", "safe_text"]
