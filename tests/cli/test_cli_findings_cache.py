"""The findings cache of ``validate`` and ``fingerprint`` (armybuilder/core/findings_cache.py).

A remembered answer must print exactly what checking prints (stdout, stderr and exit
code, byte for byte) without importing pydantic or a YAML parser, and must never be
replayed once anything it was computed from changed.  Each process here is a real
``python -m armybuilder``-like run with its own cache folder; a run is a *hit* when it
imported no pydantic (which every check needs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from armybuilder.core import findings_cache

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
SAMPLES = sorted(CATALOG.glob("*/samples/*.yaml"))
ALAHAN = CATALOG / "ragnarok2" / "samples" / "alahan-lions.yaml"

#: Runs the command line and, at exit, writes the imported modules where MODULES_OUT says.
PROBE = (
    "import atexit, json, os, sys\n"
    "atexit.register(lambda: open(os.environ['MODULES_OUT'], 'w').write(json.dumps(sorted(sys.modules))))\n"
    "from armybuilder.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


class Run:
    def __init__(self, done: subprocess.CompletedProcess[bytes], modules: list[str]):
        self.out, self.err, self.code = done.stdout, done.stderr, done.returncode
        self.modules = modules

    @property
    def result(self) -> tuple[bytes, bytes, int]:
        return self.out, self.err, self.code

    @property
    def hit(self) -> bool:
        return not any(m.split(".")[0] in ("pydantic", "pydantic_core", "yaml", "_yaml", "ruamel") for m in self.modules if m != "pydantic.plugin._loader")


def run(cache: Path, *argv: str, cwd: Path | None = None, **env: str) -> Run:
    handle, name = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    modules = Path(name)
    environment = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(cache), "MODULES_OUT": str(modules), **env}
    for name in ("ARMYBUILDER_SYSTEMS", "ARMYBUILDER_NO_CACHE", "ARMYBUILDER_DEBUG"):
        if name not in env:
            environment.pop(name, None)
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, env=environment, cwd=cwd, check=False)
    try:
        return Run(done, json.loads(modules.read_text()))
    finally:
        modules.unlink()


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One cache folder whose catalogue caches are built once for the module's runs."""
    folder = tmp_path_factory.mktemp("findings") / "cache"
    run(folder, "validate", *map(str, SAMPLES), ARMYBUILDER_NO_CACHE="answers")  # no answer stored
    return folder


@pytest.fixture
def lists(tmp_path) -> Path:
    """Every bundled sample, a list with errors and a broken YAML file, in one folder."""
    folder = tmp_path / "lists"
    folder.mkdir()
    for sample in SAMPLES:
        shutil.copy(sample, folder / f"{sample.parent.parent.name}-{sample.name}")
    text = ALAHAN.read_text(encoding="utf-8")
    (folder / "with-errors.yaml").write_text(text.replace("format: 1000-ap", "format: 500-ap"), encoding="utf-8")
    (folder / "broken.yaml").write_text(text.replace("name: Lions", "name: [Lions", 1), encoding="utf-8")
    return folder


def _replayed(cache: Path, *argv: str, cwd: Path | None = None) -> Run:
    """Run uncached, then cached twice: all three answers are identical, the last a hit."""
    reference = run(cache, *argv, "--no-cache", cwd=cwd)
    first = run(cache, *argv, cwd=cwd)
    again = run(cache, *argv, cwd=cwd)
    assert first.result == reference.result
    assert again.result == reference.result
    assert again.hit and not reference.hit
    return reference


def test_a_hit_prints_byte_for_byte_what_checking_prints(cache, lists):
    text = _replayed(cache, "validate", str(lists))
    assert text.code == 2 and b"NOT LEGAL" in text.out and b"UNREADABLE" in text.out
    assert text.out.count(b": LEGAL") == len(SAMPLES)
    as_json = _replayed(cache, "validate", str(lists), "--format", "json")
    assert json.loads(as_json.out)["summary"]["lists"] == len(SAMPLES) + 2
    broken = _replayed(cache, "validate", str(lists / "broken.yaml"))
    assert broken.code == 2 and f"{lists / 'broken.yaml'}:20:".encode() in broken.out  # positioned
    errors = _replayed(cache, "validate", str(lists / "with-errors.yaml"))
    assert errors.code == 1 and b"(line 18)" in errors.out
    for sample in SAMPLES:  # each sample alone, and its fingerprint
        assert _replayed(cache, "validate", str(sample)).code == 0
    assert _replayed(cache, "fingerprint", str(ALAHAN)).code == 0
    refused = _replayed(cache, "fingerprint", str(lists / "broken.yaml"))
    assert refused.code == 2 and refused.err.startswith(b"error: ")


def test_a_relative_path_is_replayed_as_written(cache, lists):
    _replayed(cache, "validate", "broken.yaml", "with-errors.yaml", cwd=lists)  # from the folder itself
    other = lists.parent / "elsewhere"
    other.mkdir()
    shutil.copy(lists / "broken.yaml", other / "broken.yaml")
    moved = run(cache, "validate", "broken.yaml", cwd=other)
    assert not moved.hit  # another folder: its own answer (messages may name the folder)


def test_a_file_name_that_is_not_utf8(cache, tmp_path):
    odd = os.fsdecode(b"list-\xff.yaml")
    shutil.copy(ALAHAN, tmp_path / odd)
    _replayed(cache, "validate", odd, cwd=tmp_path)


def test_changed_bytes_are_checked_again(cache, tmp_path):
    target = tmp_path / "list.yaml"
    shutil.copy(ALAHAN, target)
    legal = run(cache, "validate", str(target))
    assert run(cache, "validate", str(target)).hit
    target.write_text(ALAHAN.read_text(encoding="utf-8").replace("format: 1000-ap", "format: 2000-ap"), encoding="utf-8")
    changed = run(cache, "validate", str(target))  # same size, same second: the bytes decide
    assert not changed.hit and b"/2000 A.P." in changed.out and changed.out != legal.out
    shutil.copy(ALAHAN, target)
    assert run(cache, "validate", str(target)).result == legal.result


def _buckets(cache: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (cache / "findings").glob("*.log")}


def test_an_edited_cache_entry_is_not_believed(cache, tmp_path):
    target = tmp_path / "list.yaml"
    target.write_text(ALAHAN.read_text(encoding="utf-8").replace("format: 1000-ap", "format: 500-ap"), encoding="utf-8")
    before = _buckets(cache)
    truth = run(cache, "validate", str(target))
    assert truth.code == 1
    after = _buckets(cache)
    (name,) = [name for name, data in after.items() if data != before.get(name)]
    old = before.get(name, b"")
    assert after[name].startswith(old)  # appended
    record = after[name][len(old):]
    forged = record.replace(b'"invalid"', b'"legal"').replace(b"NOT LEGAL", b"LEGAL")
    assert forged != record
    (cache / "findings" / name).write_bytes(old + forged)  # the tag no longer matches
    again = run(cache, "validate", str(target))
    assert not again.hit and again.result == truth.result
    assert run(cache, "validate", str(target)).hit  # stored again by the recomputing run


def test_a_torn_record_is_a_miss_and_others_survive(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path))
    findings_cache._reset_for_tests()
    keys = [f"{i:x}" * 40 for i in range(3)]
    findings_cache.store_answers([(key, ["answer", i]) for i, key in enumerate(keys)])
    findings_cache._reset_for_tests()
    assert [findings_cache.lookup(key) for key in keys] == [["answer", 0], ["answer", 1], ["answer", 2]]
    bucket = tmp_path / findings_cache.FOLDER / "1.log"
    bucket.write_bytes(bucket.read_bytes()[:-5])  # a crash in the middle of the write
    findings_cache._reset_for_tests()
    assert findings_cache.lookup(keys[1]) is None
    assert findings_cache.lookup(keys[0]) == ["answer", 0] and findings_cache.lookup("3" * 40) is None
    findings_cache._reset_for_tests()


def test_no_cache_flag_and_environment_variable(cache, tmp_path):
    target = tmp_path / "list.yaml"
    shutil.copy(ALAHAN, target)
    target.write_bytes(target.read_bytes() + b"# a fresh file\n")
    assert not run(cache, "validate", str(target), ARMYBUILDER_NO_CACHE="1").hit
    assert not run(cache, "validate", str(target), ARMYBUILDER_NO_CACHE="1").hit  # nothing stored
    assert not run(cache, "validate", "--no-cache", str(target)).hit
    assert not run(cache, "validate", str(target), ARMYBUILDER_NO_CACHE="answers").hit
    run(cache, "validate", str(target))
    assert run(cache, "validate", str(target)).hit
    assert not run(cache, "validate", str(target), ARMYBUILDER_NO_CACHE="1").hit
    assert not run(cache, "validate", str(target), ARMYBUILDER_DEBUG="1").hit


def test_an_unwritable_cache_folder_only_costs_speed(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cache = blocker / "cache"  # cannot be created, even by root
    first = run(cache, "validate", str(ALAHAN))
    second = run(cache, "validate", str(ALAHAN))
    assert first.code == 0 and first.err == b"" and second.result == first.result and not second.hit


def test_the_world_key_follows_code_catalogue_errata_and_libraries(tmp_path, monkeypatch):
    """The key of everything but the list changes with a rules module, a catalogue or an
    errata file (even when the edit keeps its size), and is withheld while code is fresh."""
    package = tmp_path / "armybuilder"
    shutil.copytree(Path(findings_cache.__file__).parents[1], package, ignore=shutil.ignore_patterns("__pycache__"))
    catalogue = tmp_path / "catalog"
    shutil.copytree(CATALOG, catalogue)
    monkeypatch.setattr(findings_cache, "RACY_NS", 0)  # the copies are brand new
    base = findings_cache.world_digest(package, str(catalogue))
    assert base is not None and findings_cache.world_digest(package, str(catalogue)) == base

    errata = sorted((catalogue / "ragnarok2" / "errata").rglob("*.yaml"))[0]
    text = errata.read_text(encoding="utf-8")
    errata.write_text(text.replace("1", "2", 1), encoding="utf-8")  # same size
    assert findings_cache.world_digest(package, str(catalogue)) not in (None, base)
    errata.write_text(text, encoding="utf-8")
    assert findings_cache.world_digest(package, str(catalogue)) == base

    data = catalogue / "ragnarok2" / "peoples.yaml"
    data.write_bytes(data.read_bytes() + b"\n")
    assert findings_cache.world_digest(package, str(catalogue)) != base
    data.write_bytes(data.read_bytes()[:-1])

    rules = package / "systems" / "ragnarok2" / "rules.py"
    rules.write_bytes(rules.read_bytes() + b"# changed\n")
    changed = findings_cache.world_digest(package, str(catalogue))
    assert changed not in (None, base)
    monkeypatch.setattr(findings_cache, "RACY_NS", 2_000_000_000)
    assert findings_cache.world_digest(package, str(catalogue)) is None  # too fresh to sign
    monkeypatch.setattr(findings_cache, "RACY_NS", 0)

    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "1")
    assert findings_cache.world_digest(package, str(catalogue)) not in (None, changed)


def test_only_the_bundled_systems_are_cached(monkeypatch):
    from armybuilder.core import registry

    findings_cache._reset_for_tests()
    monkeypatch.setattr(registry, "KNOWN_SYSTEMS", {**registry.BUNDLED_SYSTEMS, "toy-pit": "toysystem"})
    assert findings_cache.world_key() is None
    findings_cache._reset_for_tests()


def test_the_oldest_answers_are_evicted_beyond_the_bound(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path))
    findings_cache._reset_for_tests()
    keys = [f"a{i:039x}" for i in range(40)]  # one bucket
    one = len(b"x" * 64 + b" " + keys[0].encode() + b" " + b'["answer","00"]' + b"\n")
    monkeypatch.setattr(findings_cache, "BUCKET_LIMIT", one * 20)
    for i, key in enumerate(keys):
        findings_cache.store_answers([(key, ["answer", f"{i:02d}"])])
    findings_cache._reset_for_tests()
    kept = [i for i, key in enumerate(keys) if findings_cache.lookup(key) is not None]
    assert 10 <= len(kept) <= 20 and kept == list(range(40 - len(kept), 40))  # the newest, within the bound
    assert (tmp_path / findings_cache.FOLDER / "a.log").stat().st_size <= one * 20
    (tmp_path / findings_cache.FOLDER / "old-layout.json").write_text("[1]")
    findings_cache.evict()  # answers of the earlier layout are removed
    assert sorted(p.name for p in (tmp_path / findings_cache.FOLDER).iterdir()) == ["a.log"]
    findings_cache._reset_for_tests()


def test_a_key_written_inside_another_answer_is_not_a_record(tmp_path, monkeypatch):
    """A lone look-up searches the bucket's bytes: a key quoted in an answer's text (a
    file name may hold anything) must not be taken for that key's record."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path))
    findings_cache._reset_for_tests()
    quoted, stored = "b" * 40, "b" + "c" * 39
    findings_cache.store_answers([(stored, ["first", f"x {quoted} y {stored} z"])])
    findings_cache.store_answers([("b" + "d" * 39, ["second", f"{stored} "])])
    for lookups in (1, findings_cache._SEARCHES + 1):  # searched, then indexed
        findings_cache._reset_for_tests()
        for _ in range(lookups):
            assert findings_cache.lookup(quoted) is None
        assert findings_cache.lookup(stored) == ["first", f"x {quoted} y {stored} z"]
    findings_cache._reset_for_tests()
