"""The plain mirrors (core/plain.py): `validate` reads lists and catalogues without pydantic,
and says exactly what it said with pydantic.

- every generated mirror module is what the generator writes from today's models (so a
  mirror cannot drift from its model), and each mirror has its model's fields;
- a cached catalogue read plainly holds the values the pydantic one holds, type for type;
- ``validate`` gives identical outcomes (status, findings with their messages and lines,
  points, fingerprint, text) with the plain path on and off, over every bundled sample,
  every list file of the tests' data, the hostile corpus, broken variants of the samples,
  lists altered field by field (wrong types, values pydantic would coerce, broken
  constraints, unknown and missing fields) and generated lists;
- the shape checker refuses (hands to pydantic) everything pydantic would not take as is.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from test_cli_bad_input import HOSTILE
from test_cli_fast_validate import EDGE, _broken_variants

from armybuilder import cli_validate
from armybuilder.core import plain as plain_module
from armybuilder.core import plain_gen
from armybuilder.core.catalog import catalog_root
from armybuilder.core.fastyaml import load_document
from armybuilder.core.plain import PlainModel, Unsure, is_plain
from armybuilder.core.registry import get_system, system_ids
from armybuilder.core.system import GameSystem

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(Path(str(catalog_root())).glob("*/samples/*.yaml"))
TEST_LISTS = sorted(p for p in (ROOT / "tests").rglob("*.yaml") if "samples" in p.parts or "data" in p.parts)
PLAIN_SYSTEMS = [s for s in system_ids() if get_system(s).plain_module is not None]


# --------------------------------------------------------------------------- one source of truth


@pytest.mark.parametrize("target", sorted(plain_gen.mirrors()))
def test_every_mirror_is_what_the_generator_writes_from_the_models(target):
    assert plain_gen.path_of(target).read_text(encoding="utf-8") == plain_gen.generate(target), (
        f"{target} is stale: run `python -m armybuilder.core.plain_gen`"
    )


def _mirrors() -> list[tuple[type[PlainModel], Any]]:
    pairs = []
    for target in plain_gen.mirrors():
        module = importlib.import_module(target)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, PlainModel) and value.__module__ == target:
                pairs.append((value, plain_gen._load(value.__doc__)))
    return pairs


def test_each_mirror_has_its_models_fields_defaults_and_methods():
    pairs = _mirrors()
    assert len(pairs) > 30
    for mirror, model in pairs:
        assert list(mirror.model_fields) == list(model.model_fields), mirror
        # the fields the pydantic classes declare, in their order: an annotation on a mixin
        # would become a field and reorder them (the schema, hence the cache key, would change)
        declared: list[str] = []
        for klass in reversed(model.__mro__):
            if issubclass(klass, BaseModel) and klass is not BaseModel:
                declared += [n for n in vars(klass).get("__annotations__", {}) if n not in declared and n != "model_config"]
        assert list(model.model_fields) == declared, model
        for name, info in model.model_fields.items():
            field = mirror.model_fields[name]
            assert field.key == (info.alias or name)
            if info.is_required():
                assert field.default_value() is plain_module.REQUIRED and field.factory is None, (mirror, name)
            else:
                assert _tree(field.default_value()) == _tree(info.get_default(call_default_factory=True)), (mirror, name)
        methods = {n for klass in model.__mro__ if not klass.__module__.startswith("pydantic")
                   for n, v in vars(klass).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}
        methods -= {"model_config", "model_fields", "model_computed_fields"}
        for name in methods:
            if name.startswith("model_"):
                continue
            assert getattr(mirror, name, None) is not None, (mirror, name)


def test_every_bundled_system_has_mirrors():
    """So that validating any bundled system's list imports no pydantic."""
    from armybuilder.core.registry import BUNDLED_SYSTEMS

    assert set(BUNDLED_SYSTEMS) <= set(PLAIN_SYSTEMS)


# --------------------------------------------------------------------------- catalogues


def _tree(value: Any) -> Any:
    """A value with its types, models as (class name, fields): pydantic or plain alike."""
    if isinstance(value, PlainModel) or hasattr(type(value), "model_fields"):
        return (type(value).__name__, [(n, _tree(getattr(value, n))) for n in type(value).model_fields])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_tree(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(k, _tree(v)) for k, v in value.items()])
    return (type(value).__name__, value)


@pytest.mark.parametrize("system_id", PLAIN_SYSTEMS)
def test_a_plain_catalogue_holds_what_the_pydantic_one_holds(system_id):
    system = get_system(system_id)
    for info in system.source.versions():
        models = system.catalogue(info.version)
        plain = system.catalogue(info.version, plain=True)
        assert is_plain(plain.data) and not is_plain(models.data)
        assert (plain.id, plain.version, plain.hash, plain.history) == (models.id, models.version, models.hash, models.history)
        assert _tree(plain.data) == _tree(models.data)
        assert plain.index.keys() == models.index.keys()


# --------------------------------------------------------------------------- both paths


def _both(path: Path, monkeypatch) -> tuple[Any, Any, bool]:
    """validate's outcome of ``path`` with the plain path, and with pydantic only; and
    whether the plain path took the list."""
    taken = []
    real = GameSystem.read_plain

    def spy(self, doc):
        army = real(self, doc)
        taken.append(army is not None)
        return army

    with monkeypatch.context() as m:
        m.setattr(GameSystem, "read_plain", spy)
        plain = cli_validate.validate_one(path)
    with monkeypatch.context() as m:
        m.setattr(GameSystem, "read_plain", lambda self, doc: None)
        models = cli_validate.validate_one(path)
    return plain, models, any(taken)


def _same(path: Path, monkeypatch) -> bool:
    plain, models, taken = _both(path, monkeypatch)
    assert plain == models, path.name
    return taken


def test_samples_and_the_tests_lists_read_plainly_with_identical_answers(monkeypatch):
    assert SAMPLES and TEST_LISTS
    for path in SAMPLES:
        system = load_document(path)["system"]
        assert _same(path, monkeypatch) == (system in PLAIN_SYSTEMS), path
    for path in TEST_LISTS:
        _same(path, monkeypatch)


def test_hostile_and_broken_files_give_identical_answers(tmp_path, monkeypatch):
    files = []
    for name, data in {**HOSTILE, **EDGE}.items():
        files.append(tmp_path / f"corpus-{name}")
        files[-1].write_bytes(data)
    for sample in SAMPLES:
        for kind, text in _broken_variants(sample.read_text(encoding="utf-8")).items():
            files.append(tmp_path / f"{sample.parent.parent.name}-{sample.stem}-{kind}.yaml")
            files[-1].write_text(text, encoding="utf-8")
    statuses = set()
    for path in files:
        _same(path, monkeypatch)
        statuses.add(cli_validate.validate_one(path)[0])
    assert statuses == {"legal", "invalid", "unreadable"}


#: values pydantic would coerce or refuse, and a few it takes as they are
ODD_VALUES = ["12", 12.0, True, None, -1, 1000, 10**30, "", " x ", [], {}, ["x"], "2024-01-01", 1]


def _places(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place (path) in a loaded list."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            out += _places(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out += _places(child, (*prefix, index))
    return out


def _set(doc: Any, place: tuple, value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    node = doc
    for step in place[:-1]:
        node = node[step]
    node[place[-1]] = value
    return doc


def _altered(doc: Any) -> list[Any]:
    """The list with one place at a time set to odd values, a key added or removed."""
    out = []
    for place in _places(doc):
        for value in ODD_VALUES:
            out.append(_set(doc, place, value))
        if isinstance(place[-1], str):
            parent = _set(doc, place, None)
            node = parent
            for step in place[:-1]:
                node = node[step]
            del node[place[-1]]
            out.append(parent)
    for key, value in (("colour", "red"), ("limit", 1250), ("limit", 0), ("player", "Ann"), ("round", 3),
                       ("round", 100), ("date", "2026-11-24"), ("armybuilder", 1), ("armybuilder", 2)):
        out.append({**doc, key: value})
    return out


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s.parent.parent.name in PLAIN_SYSTEMS], ids=lambda p: p.stem)
def test_lists_altered_field_by_field_give_identical_answers(sample, tmp_path, monkeypatch):
    doc = yaml.safe_load(sample.read_text(encoding="utf-8"))
    alterations = _altered(doc)
    path = tmp_path / "list.yaml"
    taken = refused = 0
    for altered in alterations[::3] if len(alterations) > 900 else alterations:
        path.write_text(yaml.safe_dump(altered, sort_keys=False, allow_unicode=True), encoding="utf-8")
        if _same(path, monkeypatch):
            taken += 1
        else:
            refused += 1
    assert taken and refused  # both ways were exercised


# --------------------------------------------------------------------------- the checker


@pytest.mark.parametrize("system_id", PLAIN_SYSTEMS)
def test_the_checker_takes_only_what_pydantic_keeps_unchanged(system_id):
    """Whatever the checker takes, pydantic takes too, giving the same dump."""
    system = get_system(system_id)
    mirror = system.plain_list_class()
    samples = [s for s in SAMPLES if s.parent.parent.name == system_id]
    for sample in samples:
        doc = yaml.safe_load(sample.read_text(encoding="utf-8"))
        for altered in _altered(doc):
            try:
                plain = mirror.checked(altered)
            except Unsure:
                continue
            model = system.list_model.model_validate(altered)
            assert plain.model_dump(mode="json") == model.model_dump(mode="json")
            assert plain.model_dump(mode="json", exclude_defaults=True) == model.model_dump(mode="json", exclude_defaults=True)


def test_the_checker_hands_over_coercions_and_refusals():
    from armybuilder.systems.ragnarok2.plain import R2List

    base = {"system": "ragnarok2", "catalogue": "1.1.0", "format": "1000-ap", "people": "alahan"}
    assert R2List.checked(base).units == []
    for odd in (
        {"limit": 0}, {"limit": "500"}, {"limit": 500.0}, {"armybuilder": True}, {"name": 5},
        {"units": [{"troops": {"profile": "x", "count": "3"}}]}, {"units": [{"troops": {"profile": "x", "count": 1000}}]},
        {"units": [{"members": [{"profile": "x", "familiars": 21}]}]}, {"tactics": "brutality"},
        {"player": "Ann"}, {"date": "2026-01-01"}, {"round": 0}, {"colour": "red"}, {"system": "rattle-and-rend"},
    ):
        with pytest.raises(Unsure):
            R2List.checked({**base, **odd})
    without_people = dict(base)
    del without_people["people"]
    with pytest.raises(Unsure):
        R2List.checked(without_people)


# --------------------------------------------------------------------------- generated lists


def _r2_lists():
    cat = get_system("ragnarok2").catalogue()
    profiles = [p.id for p in cat.data.profiles]
    peoples = [p.id for p in cat.data.peoples]
    tactics = [t.id for t in cat.data.tactics]
    rituals = [r.id for r in cat.data.rituals]
    communions = [c.id for c in cat.data.communions]
    miracles = [m.id for m in cat.data.miracles]
    options = sorted({o.id for p in cat.data.profiles for o in p.options}) or ["x"]
    member = st.fixed_dictionaries(
        {"profile": st.sampled_from(profiles)},
        optional={"commander_in_chief": st.booleans(), "army_standard": st.booleans(), "leader": st.booleans(),
                  "familiars": st.integers(0, 3), "miracles": st.lists(st.sampled_from(miracles), max_size=2),
                  "options": st.lists(st.sampled_from(options), max_size=2), "label": st.text(max_size=5)},
    )
    troops = st.fixed_dictionaries(
        {"profile": st.sampled_from(profiles), "count": st.integers(0, 30)},
        optional={"leader": st.booleans(), "options": st.lists(st.sampled_from(options), max_size=2)},
    )
    unit = st.fixed_dictionaries({}, optional={"name": st.text(max_size=8), "troops": troops, "members": st.lists(member, max_size=3)})
    return st.fixed_dictionaries(
        {"system": st.just("ragnarok2"), "catalogue": st.sampled_from([v.version for v in get_system("ragnarok2").source.versions()]),
         "format": st.sampled_from([f.id for f in cat.data.formats] + ["no-such-format"]), "people": st.sampled_from(peoples)},
        optional={"units": st.lists(unit, max_size=5), "tactics": st.lists(st.sampled_from(tactics), max_size=3),
                  "rituals": st.lists(st.sampled_from(rituals), max_size=2),
                  "communions": st.lists(st.sampled_from(communions), max_size=2),
                  "limit": st.integers(-5, 3000), "name": st.text(max_size=10)},
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(doc=_r2_lists())
def test_generated_lists_give_identical_answers(doc, tmp_path, monkeypatch):
    path = tmp_path / "generated.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    _same(path, monkeypatch)
