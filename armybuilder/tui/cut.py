"""Text cut to a width without cutting a word.

A name or a line that does not fit its cells loses whole words from its end, and a spaced
"…" says that something follows ("The Empire of …"): a reader never meets half a word
("Syharhal…") and takes it for another name.  Only a single word wider than the whole
room is cut inside, as the last resort.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size


def cut_words(text: str, room: int, *, inside: bool = True) -> str:
    """``text`` in at most ``room`` cells: whole, or its first whole words then " …".
    When not even its first word fits, that word is cut if ``inside``, else nothing is
    left (a detail that can go: a name must show something)."""
    if cell_len(text) <= room:
        return text
    if room <= 1:
        return "…"[:room]
    head = set_cell_size(text, room - 2)  # room for " …"
    if text[len(head)] != " ":  # the cut falls inside a word: back to the last space
        space = head.rfind(" ")
        if space <= 0:
            return set_cell_size(text, room - 1).rstrip() + "…" if inside else ""
        head = head[:space]
    return head.rstrip(" ,;:—-·") + " …"
