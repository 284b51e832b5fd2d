"""The keys table of docs/editor.md is the one the bindings write (armybuilder.tui.keys_doc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.tui.keys_doc import BEGIN, END, keys_markdown, replace_block

PAGE = Path(__file__).resolve().parents[2] / "docs" / "editor.md"


def test_the_editor_page_lists_the_keys_the_bindings_define():
    page = PAGE.read_text(encoding="utf-8")
    assert replace_block(page, keys_markdown()) == page, "run: python -m armybuilder.tui.keys_doc --write docs/editor.md"


def test_the_table_names_each_place_and_its_keys():
    table = keys_markdown()
    for place in ("**Everywhere**", "**List tree (middle)**", "**Odds screen (o)**", "**Menus and edit forms**"):
        assert place in table
    assert "| `^s` | save" in table and "| `[` | the first unit" in table and "| `^f` |" in table


def test_a_page_without_the_markers_is_refused():
    with pytest.raises(ValueError, match="no keys block"):
        replace_block("# The editor\n", "| key |\n")
    assert replace_block(f"a\n{BEGIN}\nold\n{END}\nb\n", "new\n") == f"a\n{BEGIN}\n\nnew\n\n{END}\nb\n"
