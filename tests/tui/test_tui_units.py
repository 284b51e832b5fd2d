"""Small pure pieces of the TUI: search, paths, storage, bundled-file guard."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from armybuilder.core.system import BrowserEntry, EntryRef
from armybuilder.tui.app import _is_bundled
from armybuilder.tui.screens.editor import ancestors
from armybuilder.tui.storage import Store, process_start
from armybuilder.tui.widgets.panels import filter_entries, parse_query


def entry(name: str, **facets: str) -> BrowserEntry:
    return BrowserEntry(EntryRef("profiles", name.lower()), name, "profile", "", facets, " ".join([name, *facets.values()]).lower())


ENTRIES = [
    entry("Spearman", people="Lions", rank="Regular", role="troop"),
    entry("Knight", people="Lions", rank="Elite", role="troop"),
    entry("Wolf chief", people="Wolves", rank="Veteran", role="commander, leader"),
    BrowserEntry(EntryRef("tactics", "wall"), "Wall", "tactic", "", {"people": ""}, "wall tactic"),
]


def names(found) -> list[str]:
    return [e.name for e in found]


def test_search_words_and_facets():
    assert names(filter_entries(ENTRIES, "", {})) == ["Spearman", "Knight", "Wolf chief", "Wall"]
    assert names(filter_entries(ENTRIES, "KNI", {})) == ["Knight"]
    assert names(filter_entries(ENTRIES, "rank:elite", {})) == ["Knight"]
    assert names(filter_entries(ENTRIES, "role:leader", {})) == ["Wolf chief"]
    assert names(filter_entries(ENTRIES, "/spear", {})) == ["Spearman"]
    # a chosen facet hides other values but never entries that have no value for it
    assert names(filter_entries(ENTRIES, "", {"people": "Lions"})) == ["Spearman", "Knight", "Wall"]
    assert parse_query("rank:elite big  axe") == (["big", "axe"], {"rank": "elite"})


@given(st.text(max_size=30))
def test_search_never_fails_and_only_narrows(query):
    found = filter_entries(ENTRIES, query, {})
    assert set(names(found)) <= set(names(ENTRIES))


def test_ancestors_of_a_list_path():
    assert ancestors("units[1].members[0]") == ["units[1].members[0]", "units[1].members", "units[1]", "units", ""]
    assert ancestors("") == [""]


def test_recent_lists_skip_missing_files_and_survive_garbage(tmp_path):
    store = Store(tmp_path / "data")
    kept = tmp_path / "a.yaml"
    kept.write_text("x", encoding="utf-8")
    gone = tmp_path / "b.yaml"
    gone.write_text("x", encoding="utf-8")
    store.remember(gone, "B", "ragnarok2")
    store.remember(kept, "A", "ragnarok2")
    gone.unlink()
    assert [r.name for r in store.recent()] == ["A"]
    store.recent_file.write_text("{not json", encoding="utf-8")
    assert store.recent() == []


def test_recovery_copies_of_live_editors_are_not_offered(tmp_path):
    store = Store(tmp_path / "data")
    key = Store.recovery_key(tmp_path / "l.yaml", "s")
    store.write_recovery(key, "text", tmp_path / "l.yaml", "L", "ragnarok2")
    assert [r.key for r in store.recoveries()] == [key]  # this process counts as gone
    meta = store.recovery_dir / f"{key}.json"
    data = json.loads(meta.read_text())
    data.update(pid=1, started=process_start(1))
    meta.write_text(json.dumps(data), encoding="utf-8")
    assert store.recoveries() == []  # pid 1 is alive: another editor owns it
    assert [r.key for r in store.recoveries(include_live=True)] == [key]
    if process_start(1) is not None:
        # the pid was given to another program after the editor died: the copy is orphaned
        data.update(started=process_start(1) + 1)
        meta.write_text(json.dumps(data), encoding="utf-8")
        assert [r.key for r in store.recoveries()] == [key]
    store.discard_recovery(key)
    assert store.recoveries(include_live=True) == []


def test_bundled_samples_are_recognised(tmp_path):
    from armybuilder.core.catalog import catalog_root

    assert _is_bundled(Path(str(catalog_root())) / "ragnarok2" / "samples" / "x.yaml")
    assert not _is_bundled(tmp_path / "x.yaml")


def test_edit_command_reports_a_broken_list_before_taking_the_terminal(tmp_path, capsys):
    from armybuilder.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("system: ragnarok2\ncatalogue: [oops\n", encoding="utf-8")
    assert main(["edit", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "error" in err
    assert main(["edit", str(tmp_path / "missing.yaml")]) == 2
