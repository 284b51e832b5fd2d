"""Versioned catalogues: merging files, applying errata, hashes, diffs and positions."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pydantic import Field
from synthetic_r2 import CATALOGUE, ERRATA_1_1_0, legal_army

from armybuilder.cli import main
from armybuilder.core import registry
from armybuilder.core.catalog import CatalogModel, CatalogueSource, Strict, diff
from armybuilder.core.errors import InputError
from armybuilder.core.lists import new_list_file


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

# --------------------------------------------------------------------------- catalog check
# Every problem at its file and line; validate refuses an unsound catalogue.

def _check(tmp_path, version="1.2.0"):
    return CatalogueSource("tiny", TinyCatalog, tmp_path).check(version)


def test_a_clean_catalogue_has_no_problems(tiny, tmp_path):
    assert _check(tmp_path) == []


def test_duplicate_ids_name_every_place(tiny, tmp_path):
    write(tmp_path, "d.yaml", "# more items\nitems:\n  - {id: lance, name: Lance, cost: 1}\n  - {id: sword, name: Again, cost: 1}\n")
    (problem,) = _check(tmp_path)
    assert "duplicate id 'sword'" in problem.message
    assert (problem.path, problem.line) == ("catalog/tiny/a.yaml", 2)
    assert "catalog/tiny/d.yaml:4" in problem.message


def test_dangling_reference_names_the_entry_that_holds_it(tiny, tmp_path):
    write(tmp_path, "d.yaml", "items:\n  - {id: lance, name: Lance, cost: 1}\n  - {id: pike, name: Pike, cost: 1, tags: ['@nothing']}\n")
    (problem,) = _check(tmp_path)
    assert "unknown items id 'nothing'" in problem.message
    assert (problem.path, problem.line, problem.field) == ("catalog/tiny/d.yaml", 3, "items[pike].tags")


def test_negative_cost_is_flagged_where_it_was_set(tiny, tmp_path):
    write(tmp_path, "d.yaml", "items:\n  - {id: lance, name: Lance, cost: -4}\n")
    write(tmp_path, "errata/1.3.0.yaml", "version: 1.3.0\ndate: x\nsummary: s\nsource: t\noperations:\n"
          "  - {op: set, path: 'items[axe].cost', value: -1}\n")
    problems = {p.message: p for p in _check(tmp_path, "1.3.0")}
    lance = problems["negative cost -4 (cost)"]
    assert (lance.path, lance.line) == ("catalog/tiny/d.yaml", 2)
    axe = problems["negative cost -1 (cost)"]
    assert (axe.path, axe.line) == ("catalog/tiny/errata/1.3.0.yaml", 6)


def test_erratum_older_than_the_base_and_duplicated_errata(tiny, tmp_path):
    write(tmp_path, "errata/0.9.0.yaml", "version: 0.9.0\ndate: x\nsummary: s\nsource: t\noperations: []\n")
    write(tmp_path, "errata/z-again.yaml", "# a copy\nversion: 1.2.0\ndate: x\nsummary: s\nsource: t\noperations: []\n")
    problems = _check(tmp_path, "1.0.0")
    older = next(p for p in problems if "not newer than the base" in p.message)
    assert (older.path, older.line) == ("catalog/tiny/errata/0.9.0.yaml", 1)
    twice = next(p for p in problems if "declared twice" in p.message)
    assert (twice.path, twice.line) == ("catalog/tiny/errata/z-again.yaml", 2)  # the copy is blamed
    assert "catalog/tiny/errata/1.2.0.yaml" in twice.message


def test_an_emptied_data_file_is_flagged(tiny, tmp_path):
    write(tmp_path, "b/c.yaml", "# emptied by mistake\n\n")
    for version in ("1.1.0", "1.2.0"):  # their operations address what the file held
        write(tmp_path, f"errata/{version}.yaml", f"version: {version}\ndate: x\nsummary: s\nsource: t\noperations: []\n")
    problems = _check(tmp_path)
    assert [(p.path, p.line) for p in problems if "holds no data" in p.message] == [("catalog/tiny/b/c.yaml", 1)]


def test_bad_versions_and_file_collisions_name_file_and_line(tiny, tmp_path):
    write(tmp_path, "errata/1.1.0.yaml", "version: one\ndate: x\nsummary: s\nsource: t\noperations: []\n")
    with pytest.raises(InputError) as info:
        CatalogueSource("tiny", TinyCatalog, tmp_path).versions()
    assert (info.value.first.path, info.value.first.line) == ("catalog/tiny/errata/1.1.0.yaml", 1)
    write(tmp_path, "catalogue.yaml", "id: tiny\nsystem: tiny\nname: Tiny\nversion: '1.0'\ndate: x\nsummary: base\n")
    with pytest.raises(InputError) as info:
        CatalogueSource("tiny", TinyCatalog, tmp_path).versions()
    assert (info.value.first.path, info.value.first.line) == ("catalog/tiny/catalogue.yaml", 4)


def test_failing_erratum_operation_names_its_line(tiny, tmp_path):
    write(tmp_path, "errata/1.1.0.yaml", "version: 1.1.0\ndate: x\nsummary: s\nsource: t\noperations:\n"
          "  - {op: rename, path: 'items[shield]', name: Buckler}\n  - {op: set, path: 'items[nothing].cost', value: 1}\n")
    with pytest.raises(InputError) as info:
        CatalogueSource("tiny", TinyCatalog, tmp_path).resolve("1.1.0")
    assert (info.value.first.path, info.value.first.line) == ("catalog/tiny/errata/1.1.0.yaml", 7)


@pytest.fixture
def broken_r2(tmp_path, monkeypatch):
    """The synthetic Rag'Narok 2 catalogue with a negative cost, registered as 'ragnarok2'."""
    from armybuilder.systems.ragnarok2 import Ragnarok2
    from armybuilder.systems.ragnarok2.catalog import R2Catalog

    folder = tmp_path / "r2"
    for rel, text in {**CATALOGUE, "errata/1.1.0.yaml": ERRATA_1_1_0}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).replace("cost: 55", "cost: -55"), encoding="utf-8")
    system = Ragnarok2()
    system.__dict__["source"] = CatalogueSource("ragnarok2", R2Catalog, folder)
    monkeypatch.setitem(registry._loaded, "ragnarok2", system)
    return system


@pytest.mark.parametrize("command", [["validate"], ["fingerprint"], ["export", "--text"]])
def test_no_list_is_judged_against_a_catalogue_failing_its_checks(broken_r2, tmp_path, capsys, command):
    path = tmp_path / "list.yaml"
    new_list_file(legal_army()).save(path)
    assert main([command[0], str(path), *command[1:]]) == 2
    out, err = capsys.readouterr()
    assert "fails its checks" in out + err and "armybuilder catalog check ragnarok2" in out + err
    assert main(["catalog", "check", "ragnarok2"]) == 1
    out, _ = capsys.readouterr()
    assert "negative cost -55" in out and "catalog/ragnarok2/" in out


def test_a_copied_erratum_is_blamed_on_the_copy_even_when_it_breaks_resolution(tiny, tmp_path):
    write(tmp_path, "errata/z-copy.yaml", (tmp_path / "errata/1.2.0.yaml").read_text(encoding="utf-8"))
    problems = _check(tmp_path, "1.2.0")
    twice = problems[0]
    assert "declared twice" in twice.message and twice.path == "catalog/tiny/errata/z-copy.yaml" and twice.line == 1
    # the failing operation that follows from it is still reported, with its file and line
    assert any("operation" in p.message and p.line for p in problems[1:])
