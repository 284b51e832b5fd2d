"""The keys table of docs/editor.md, written from the key bindings (as the help screen is).

``python -m armybuilder.tui.keys_doc`` prints the table; ``--write FILE`` replaces the part
of FILE between the two markers below with it.  tests/tui/test_tui_keys_doc.py fails when
the page and the bindings disagree, so a key added, renamed or removed shows up there.
"""

from __future__ import annotations

import sys
from pathlib import Path

BEGIN = "<!-- keys: written by `python -m armybuilder.tui.keys_doc --write docs/editor.md` -->"
END = "<!-- end of keys -->"


def keys_markdown() -> str:
    """Every place's keys as Markdown tables, one per place, in the help's order."""
    from .app import ArmyBuilderApp
    from .screens.modals import help_rows

    app = ArmyBuilderApp()  # only to show keys as the app shows them (ctrl+s → ^s); never run
    out: list[str] = []
    for title, rows in help_rows(app):
        out += [f"**{title}**", "", "| key | what it does |", "| --- | --- |"]
        for keys, what in rows:
            shown = " · ".join(f"`{k}`" for k in keys.split(" ")) if keys.strip() else ""
            out.append(f"| {shown} | {what.replace('|', '/')} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def replace_block(page: str, table: str) -> str:
    """``page`` with the text between the markers replaced by ``table``."""
    head, sep, rest = page.partition(BEGIN)
    if not sep or END not in rest:
        raise ValueError(f"the page has no keys block ({BEGIN} … {END})")
    return head + BEGIN + "\n\n" + table + "\n" + END + rest.split(END, 1)[1]


def main(argv: list[str]) -> int:
    table = keys_markdown()
    if argv[:1] == ["--write"] and len(argv) == 2:
        path = Path(argv[1])
        path.write_text(replace_block(path.read_text(encoding="utf-8"), table), encoding="utf-8")
        return 0
    sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
