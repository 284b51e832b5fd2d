"""Versioned catalogues: merging files, applying errata, hashes, diffs and positions."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field

from armybuilder.core.catalog import CatalogModel, CatalogueSource, Strict, diff
from armybuilder.core.errors import InputError


class Item(Strict):
    id: str
    name: str
    cost: int
    tags: list[str] = Field(default_factory=list)


class Table(Strict):
    cells: list[int] = Field(default_factory=list)


class TinyCatalog(CatalogModel):
    items: list[Item] = Field(default_factory=list)
    table: Table | None = None

    def references(self):
        for item in self.items:
            for tag in item.tags:
                if tag.startswith("@"):
                    yield f"items[{item.id}].tags", "items", tag[1:]


def write(folder: Path, rel: str, text: str) -> None:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def tiny(tmp_path):
    write(tmp_path, "catalogue.yaml", "id: tiny\nsystem: tiny\nname: Tiny\nversion: 1.0.0\ndate: '2026-01-01'\nsummary: base\n")
    write(tmp_path, "a.yaml", "items:\n  - {id: sword, name: Sword, cost: 5}\n  - {id: shield, name: Shield, cost: 3}\n")
    write(tmp_path, "b/c.yaml", "items:\n  - {id: bow, name: Bow, cost: 7, tags: ['@sword']}\ntable: {cells: [1, 2, 3]}\n")
    write(
        tmp_path,
        "errata/1.1.0.yaml",
        "version: 1.1.0\ndate: '2026-02-01'\nsummary: first fixes\nsource: test\noperations:\n"
        "  - {op: set, path: 'items[sword].cost', value: 6}\n"
        "  - {op: rename, path: 'items[shield]', name: Buckler}\n"
        "  - {op: set, path: 'table.cells[1]', value: 20}\n",
    )
    write(
        tmp_path,
        "errata/1.2.0.yaml",
        "version: 1.2.0\ndate: '2026-03-01'\nsummary: retire the bow\nsource: test\noperations:\n"
        "  - {op: remove, path: 'items[bow]'}\n"
        "  - {op: add, path: items, value: {id: axe, name: Axe, cost: 8}}\n"
        "  - {op: add-item, path: 'items[axe].tags', value: heavy}\n",
    )
    return CatalogueSource("tiny", TinyCatalog, tmp_path)


def test_versions_in_order(tiny):
    assert [v.version for v in tiny.versions()] == ["1.0.0", "1.1.0", "1.2.0"]
    assert tiny.latest == "1.2.0"


def test_each_version_resolves_with_its_errata(tiny):
    base, mid, last = (tiny.resolve(v) for v in ("1.0.0", "1.1.0", "1.2.0"))
    assert base.get("items", "sword").cost == 5 and mid.get("items", "sword").cost == 6
    assert mid.get("items", "shield").name == "Buckler"
    assert mid.data.table.cells == [1, 20, 3]
    assert last.get("items", "bow") is None and last.get("items", "axe").tags == ["heavy"]
    assert base.get("items", "bow") is not None  # old versions stay loadable
    assert len({base.hash, mid.hash, last.hash}) == 3


def test_hash_is_stable_across_loads(tiny, tmp_path):
    again = CatalogueSource("tiny", TinyCatalog, tmp_path)
    assert again.resolve("1.1.0").hash == tiny.resolve("1.1.0").hash


def test_diff_lists_entry_changes(tiny):
    changes = diff(tiny.resolve("1.0.0").raw, tiny.resolve("1.2.0").raw)
    described = {c.describe() for c in changes}
    assert "items sword: cost 5 → 6" in described
    assert "items bow: removed" in described and "items axe: added" in described


def test_schema_error_names_file_line_column_and_field(tmp_path, tiny):
    write(tmp_path, "a.yaml", "items:\n  - {id: sword, name: Sword, cost: 5}\n  - id: shield\n    name: Shield\n    cost: lots\n")
    source = CatalogueSource("tiny", TinyCatalog, tmp_path)
    with pytest.raises(InputError) as info:
        source.resolve("1.0.0")
    problem = info.value.first
    assert problem.path.endswith("a.yaml") and problem.line == 5 and problem.field == "items[1].cost"


def test_unknown_field_is_an_error(tmp_path, tiny):
    write(tmp_path, "a.yaml", "items:\n  - {id: sword, name: Sword, cost: 5, colour: red}\n")
    with pytest.raises(InputError, match="unknown field"):
        CatalogueSource("tiny", TinyCatalog, tmp_path).resolve("1.0.0")


def test_broken_erratum_names_its_operation(tmp_path, tiny):
    write(tmp_path, "errata/1.1.0.yaml", "version: 1.1.0\ndate: x\nsummary: s\nsource: t\noperations:\n  - {op: set, path: 'items[nothing].cost', value: 1}\n")
    with pytest.raises(InputError, match="operation 1"):
        CatalogueSource("tiny", TinyCatalog, tmp_path).resolve("1.1.0")


def test_check_finds_duplicates_and_dangling_references(tmp_path, tiny):
    write(tmp_path, "d.yaml", "items:\n  - {id: sword, name: Again, cost: 1}\n  - {id: lance, name: Lance, cost: 1, tags: ['@nothing']}\n")
    problems = CatalogueSource("tiny", TinyCatalog, tmp_path).check("1.0.0")
    messages = " / ".join(p.message for p in problems)
    assert "duplicate id 'sword'" in messages and "unknown items id 'nothing'" in messages


def test_unknown_version(tiny):
    with pytest.raises(InputError, match="no version 9.9.9"):
        tiny.resolve("9.9.9")
