"""The catalogue parse cache: authentic files only, exact models, build-time schema keys."""

from __future__ import annotations

import enum
import json
import marshal
import os

import pytest
from pydantic import BaseModel

from armybuilder.core import catalog_cache
from armybuilder.core.catalog import CatalogueSource
from armybuilder.core.construct import construct
from armybuilder.core.registry import KNOWN_SYSTEMS, get_system


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(folder))
    return folder


def _same(a, b, where="data", fields_set=True):
    """Equal values of the same types all the way down (1 == 1.0 and 'x' == Enum.x are not enough).

    ``fields_set``: also the fields each model was given (equal when both come from
    the same dump; a catalogue resolved from YAML leaves defaulted fields out).
    """
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, BaseModel):
        if fields_set:
            assert a.model_fields_set == b.model_fields_set, where
        assert list(vars(a)) == list(vars(b)), f"{where}: field order"  # repr, iteration
        for name in type(a).model_fields:
            _same(getattr(a, name), getattr(b, name), f"{where}.{name}", fields_set)
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]", fields_set)
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same(key, next(k for k in b if k == key), f"{where} key {key!r}", fields_set)
            _same(a[key], b[key], f"{where}[{key!r}]", fields_set)
    elif isinstance(a, (set, frozenset)):
        assert a == b, where
    else:
        assert a == b or (a != a and b != b), where
        if isinstance(a, enum.Enum):
            assert a is b, where


@pytest.mark.parametrize("system_id", list(KNOWN_SYSTEMS))
def test_constructed_catalogue_is_the_validated_one(system_id):
    system = get_system(system_id)
    for version in system.source.versions():
        raw = system.catalogue(version.version).raw
        dumped = json.loads(json.dumps(raw))
        _same(construct(system.catalog_model, dumped), system.catalog_model.model_validate(dumped))


@pytest.mark.parametrize("system_id", list(KNOWN_SYSTEMS))
def test_every_cached_version_loads_as_the_validated_one(system_id, cache_dir):
    """Through the cache (the models adopt the decoded dicts): the same objects (types,
    field order, fields set), dumps and raw data as validating the dump, for every version."""
    system = get_system(system_id)
    for version in system.source.versions():
        built = _fresh_source(system_id).resolve(version.version)  # from the files, then cached
        loaded = _fresh_source(system_id).resolve(version.version)  # from the cache
        validated = system.catalog_model.model_validate(json.loads(json.dumps(built.raw)))
        _same(loaded.data, validated)
        assert loaded.data.model_dump() == validated.model_dump()
        assert loaded.data.model_dump(mode="json", by_alias=True) == validated.model_dump(mode="json", by_alias=True)
        assert loaded.raw == built.raw == validated.model_dump(mode="json", by_alias=True)
        assert loaded.hash == built.hash and loaded.history == built.history


def test_models_sharing_their_fields_set_stay_independent(cache_dir):
    """Models built from a full dump share one set of field names (construct's doc):
    assigning, copying and updating one leaves the others, and that set, as they were."""
    _fresh_source("ragnarok2").resolve()
    data = _fresh_source("ragnarok2").resolve().data
    first, second = data.profiles[0], data.profiles[1]
    names = set(type(first).model_fields)
    assert first.model_fields_set == second.model_fields_set == names
    second_name = second.name
    first.name = "Renamed"
    copied = second.model_copy(update={"cost": second.cost + 1})
    deep = second.model_copy(deep=True)
    assert second.name == second_name and second.cost + 1 == copied.cost
    assert first.model_fields_set == second.model_fields_set == copied.model_fields_set == names
    assert deep == second and deep.model_fields_set == names
    assert copied.model_fields_set is not second.model_fields_set


@pytest.mark.parametrize("system_id", list(KNOWN_SYSTEMS))
def test_schema_fingerprint_a_system_declares_matches_its_model(system_id):
    system = get_system(system_id)
    model = system.catalog_model
    computed = catalog_cache.computed_schema_fingerprint(model)
    if system.schema_fingerprint is None:
        # a system that declares none (the tests' toy one): fingerprinted at run time
        assert catalog_cache.schema_fingerprint(model) == computed
        assert system.source.schema is None
        return
    assert system.schema_fingerprint == computed, (
        f"the catalogue schema of {system_id} changed: set schema_fingerprint = {computed!r} "
        f"in {type(system).__module__}.{type(system).__name__}"
    )
    assert system.source.schema == computed


def _fresh_source(system_id):
    """A new source of the system's catalogue (nothing remembered in-process), as
    ``system.source`` makes it (its plain mirror named)."""
    system = get_system(system_id)
    model = system.catalog_model
    plain = f"{system.plain_module}.{model.__name__}" if system.plain_module else None
    return CatalogueSource(system.id, model, system.catalogue_folder, plain, system.schema_fingerprint)


def test_a_cached_catalogue_loads_without_parsing_yaml(cache_dir, monkeypatch):
    first = _fresh_source("ragnarok2").resolve()
    assert any(cache_dir.glob("ragnarok2-index-*.json")) and any(cache_dir.glob(f"ragnarok2-1.*{catalog_cache.MARSHAL_SUFFIX}"))
    from armybuilder.core import yamlio

    def refuse(*args, **kwargs):
        raise AssertionError("the cached catalogue was parsed again")

    monkeypatch.setattr(yamlio, "parse_text", refuse)
    monkeypatch.setattr(type(first.data), "model_validate", refuse)
    again = _fresh_source("ragnarok2").resolve()
    _same(again.data, first.data, fields_set=False)
    assert again.raw == first.raw and again.hash == first.hash
    assert again.history == first.history


def test_an_edited_cache_file_is_never_trusted(cache_dir):
    genuine = _fresh_source("rattle-and-rend").resolve()
    paths = sorted(cache_dir.glob(f"rattle-and-rend-*{catalog_cache.MARSHAL_SUFFIX}"))
    assert [p.name.endswith("-fields" + catalog_cache.MARSHAL_SUFFIX) for p in paths] == [True, False]
    for path in paths:  # the dump by field name (models), then by alias (raw, plain mirrors)
        data = path.read_bytes()
        tag, payload = data.split(b"\n", 1)
        doc = marshal.loads(payload)
        doc["hash"] = "0" * 16
        dump = doc["fields"] if "fields" in doc else doc["raw"]
        first_list = next(k for k, v in dump.items() if isinstance(v, list) and v and isinstance(v[0], dict))
        dump[first_list][0]["name"] = "Forged entry"
        # a well-formed entry with the old tag: edited
        path.write_bytes(tag + b"\n" + marshal.dumps(doc))
        for plain in (False, True):
            reloaded = _fresh_source("rattle-and-rend").resolve(plain=plain)
            assert reloaded.hash == genuine.hash
            assert getattr(reloaded.data, first_list)[0].name != "Forged entry"
            assert reloaded.raw[first_list][0]["name"] != "Forged entry"
        assert catalog_cache.read(path.name)["hash"] == genuine.hash  # rebuilt

    # the index (manifest and errata) is checked the same way
    (index,) = cache_dir.glob("rattle-and-rend-index-*.json")
    tag, payload = index.read_bytes().split(b"\n", 1)
    forged = json.loads(payload)
    forged["manifest"]["name"] = "Forged catalogue"
    index.write_bytes(tag + b"\n" + json.dumps(forged).encode())
    assert _fresh_source("rattle-and-rend").manifest.name != "Forged catalogue"


def test_a_cache_tagged_with_another_key_is_ignored(cache_dir):
    genuine = _fresh_source("morpheus-ragnarok").resolve()
    (cache_dir / "cache-key").write_bytes(b"k" * 32)  # another key: every old tag fails
    paths = [*cache_dir.glob("morpheus-ragnarok-*.json"), *cache_dir.glob("morpheus-ragnarok-*.bin")]
    assert len(paths) >= 2
    for path in paths:
        assert catalog_cache.read(path.name) is None
    assert _fresh_source("morpheus-ragnarok").resolve().hash == genuine.hash


def test_the_key_is_private_to_the_user(cache_dir):
    _fresh_source("morpheus-ragnarok").resolve()
    assert (cache_dir / "cache-key").stat().st_mode & 0o077 == 0


def test_a_cached_index_is_the_validated_one(cache_dir):
    first = _fresh_source("ragnarok2")
    manifest, errata = first.manifest, first.errata  # read from the files, then cached
    again = _fresh_source("ragnarok2")
    assert again.manifest == manifest and again.errata == errata
    assert [type(op) for _, e in again.errata for op in e.operations] == [type(op) for _, e in errata for op in e.operations]


def test_a_sound_verdict_is_remembered_and_a_failing_version_is_checked_every_time(cache_dir, monkeypatch):
    from armybuilder.core import catalog_checks
    from armybuilder.core.errors import InputError, Problem

    source = _fresh_source("ragnarok2")
    version = source.latest
    source.require_sound(version)
    assert list(cache_dir.glob(f"ragnarok2-{version}-*-sound-*.json"))
    writes = []
    with monkeypatch.context() as patched:  # (undoing the whole monkeypatch would drop cache_dir)
        patched.setattr(catalog_cache, "write", lambda *args: writes.append(args))
        for _ in range(3):  # a batch asks for every file: the verdict is written once, not each time
            source.require_sound(version)
            _fresh_source("ragnarok2").require_sound(version)
    assert writes == []

    def refuse(*args, **kwargs):
        raise AssertionError("a version found sound was checked again")

    with monkeypatch.context() as patched:
        patched.setattr(catalog_checks, "resolved_problems", refuse)
        _fresh_source("ragnarok2").require_sound(version)  # the verdict is read, not recomputed

    # an edited verdict is not believed: the checks run again (and here find a problem)
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(cache_dir))
    for path in cache_dir.glob("ragnarok2-*-sound-*.json"):
        tag, payload = path.read_bytes().split(b"\n", 1)
        path.write_bytes(tag + b"\n" + payload.replace(b"}", b" }"))
    problem = Problem("forged problem", "catalog/ragnarok2/x.yaml", 1, 1)
    monkeypatch.setattr(catalog_checks, "resolved_problems", lambda *a: [problem])
    for _ in range(2):  # refused each time: a failing verdict is never cached
        with pytest.raises(InputError, match="fails its checks"):
            _fresh_source("ragnarok2").require_sound(version)


def test_a_lazy_module_is_not_imported_by_the_class_that_holds_it():
    import abc
    import sys

    from armybuilder.core.lazy import lazy_module

    name = "armybuilder.systems.ragnarok2.importer"  # never needed by these tests before this one
    sys.modules.pop(name, None)

    class Holder(abc.ABC):  # class creation probes __set_name__ and __isabstractmethod__
        module = lazy_module(name)

        @abc.abstractmethod
        def method(self) -> None: ...

    assert name not in sys.modules
    assert callable(Holder.module.convert)
    assert name in sys.modules


def _copied_source(tmp_path, system_id="rattle-and-rend"):
    import shutil

    from armybuilder.core.catalog import catalog_root

    folder = tmp_path / "catalog" / system_id
    if not folder.exists():
        shutil.copytree(catalog_root() / system_id, folder)
    return CatalogueSource(system_id, get_system(system_id).catalog_model, folder)


def test_the_source_key_is_remembered_while_the_files_stay_the_same(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(catalog_cache, "RACY_SECONDS", -60.0)  # the copies are seconds old
    genuine = _copied_source(tmp_path).resolve()
    assert list(cache_dir.glob("rattle-and-rend-sources-*.json"))

    def refuse(self):
        raise AssertionError("the catalogue files were read again")

    monkeypatch.setattr(CatalogueSource, "files", refuse)
    again = _copied_source(tmp_path).resolve()
    assert again.hash == genuine.hash and again.data == genuine.data


def test_an_edit_keeping_size_and_times_is_still_seen(cache_dir, tmp_path, monkeypatch):
    """A file edited in place to the same size, its modification time put back: the change
    time moved (no program can set it), so the key is computed from the contents again."""
    monkeypatch.setattr(catalog_cache, "RACY_SECONDS", -60.0)
    assert _copied_source(tmp_path).resolve().data.actions[0].name == "Sprint"
    path = tmp_path / "catalog" / "rattle-and-rend" / "actions.yaml"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b"name: Sprint", b"name: Spront", 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert _copied_source(tmp_path).resolve().data.actions[0].name == "Spront"
    (tmp_path / "catalog" / "rattle-and-rend" / "extra.yaml").write_text("{}\n")  # a file added
    path.write_bytes(path.read_bytes().replace(b"name: Spront", b"name: Sprunt", 1))
    assert _copied_source(tmp_path).resolve().data.actions[0].name == "Sprunt"


def test_a_recent_edit_is_not_remembered(cache_dir, tmp_path):
    """Files changed in the last seconds (as a fresh copy is) are hashed every time."""
    _copied_source(tmp_path).resolve()
    assert not list(cache_dir.glob("rattle-and-rend-sources-*.json"))


def test_a_forged_remembered_key_is_ignored(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(catalog_cache, "RACY_SECONDS", -60.0)
    genuine = _copied_source(tmp_path).resolve()
    (memo,) = cache_dir.glob("rattle-and-rend-sources-*.json")
    tag, payload = memo.read_bytes().split(b"\n", 1)
    forged = json.loads(payload)
    forged["key"] = "0" * 24
    memo.write_bytes(tag + b"\n" + json.dumps(forged).encode())
    again = _copied_source(tmp_path)
    assert again._source_key() != "0" * 24
    assert again.resolve().hash == genuine.hash


def test_the_dump_by_alias_is_read_only_when_asked_for(cache_dir):
    """A cached catalogue's models come from the dump by field name; ``raw`` (the dump by
    alias) is read on first use, and made from the models if its entry is gone."""
    genuine = _fresh_source("ragnarok2").resolve()
    loaded = _fresh_source("ragnarok2").resolve()
    assert "raw" not in vars(loaded)  # not read yet
    (by_alias,) = [p for p in cache_dir.glob(f"ragnarok2-*{catalog_cache.MARSHAL_SUFFIX}") if "-fields" not in p.name]
    by_alias.unlink()  # the dump by alias only: the dump by field name stays
    assert list(cache_dir.glob(f"ragnarok2-*-fields{catalog_cache.MARSHAL_SUFFIX}"))
    assert loaded.raw == genuine.raw
    assert any(p["str"] for p in loaded.raw["profiles"])  # keyed by alias


def test_a_catalogue_still_pickles(cache_dir):
    """Built from the files or from the cache, models or plain mirrors: a catalogue pickles
    (its dump read on first use included) and comes back equal."""
    import pickle

    for _ in range(2):  # from the files, then from the cache
        for plain in (False, True):
            cat = _fresh_source("rattle-and-rend").resolve(plain=plain)
            back = pickle.loads(pickle.dumps(cat))
            assert back == cat and back.raw == cat.raw
