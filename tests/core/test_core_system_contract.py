"""The shared system tests: what every registered game system must do, the toy one included.

Parametrised over the registry (tests/conftest.py adds the toy system ``toy-pit``),
so a fourth system is held to the same contract with no edit here.  A system that
cannot load fails these tests; nothing is skipped.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from armybuilder.core.findings import Severity, is_legal
from armybuilder.core.lists import list_fingerprint, list_from_doc, load_list, new_list_file
from armybuilder.core.paths import ListPath
from armybuilder.core.registry import all_systems, get_system, system_ids
from armybuilder.core.system import EditAction, OutlineNode
from armybuilder.core.yamlio import decode_text, parse_text

IDS = system_ids()


def _samples(system_id: str):
    system = get_system(system_id)
    samples = system.source.samples()
    assert samples, f"{system_id} bundles no sample list"
    out = []
    for rel, item in samples:
        text = decode_text(item.read_bytes(), rel)
        out.append(list_from_doc(parse_text(text, rel), rel, None))
    return system, out


def _paths(nodes: tuple[OutlineNode, ...] | list[OutlineNode]) -> list[str]:
    out: list[str] = []
    for n in nodes:
        out += [n.path, *_paths(n.children)]
    return out


def _args(action: EditAction) -> dict[str, Any] | None:
    args: dict[str, Any] = {}
    for p in action.params:
        if p.kind == "choice":
            if not p.choices:
                return None
            args[p.name] = p.choices[0].value
        elif p.kind in ("int", "float"):
            args[p.name] = p.default if p.default is not None else (p.minimum or 1)
        elif p.kind == "bool":
            args[p.name] = not p.default
        else:
            args[p.name] = "Renamed"
    return args


def test_the_registry_holds_the_toy_system_registered_in_one_line():
    assert "toy-pit" in IDS and [s.id for s in all_systems()] == IDS


@pytest.mark.parametrize("system_id", IDS)
def test_catalogue_versions_resolve_and_check_clean(system_id):
    system = get_system(system_id)
    versions = [v.version for v in system.source.versions()]
    assert versions and system.source.latest == versions[-1]
    for version in versions:
        assert system.source.check(version) == []
    cat = system.catalogue()
    assert system.formats(cat) and system.default_format(cat) in system.formats(cat)
    assert system.factions(cat)


@pytest.mark.parametrize("system_id", IDS)
def test_protocol_fields_name_real_list_fields(system_id):
    system = get_system(system_id)
    cat = system.catalogue()
    if system.faction_field is None:
        return
    assert system.faction_field in system.list_model.model_fields
    for choice in system.factions(cat):
        army = system.new_list(cat, faction=choice.value)
        assert system.faction_of(army) == choice.value
        assert system.faction_name(army, cat) == choice.label
        assert system.summary(army, cat).faction == choice.label
    if system.faction_facet is not None:
        labels = {e.facets.get(system.faction_facet) for e in system.browse(cat)}
        assert labels & {c.label for c in system.factions(cat)}, "the faction facet must carry faction labels"


@pytest.mark.parametrize("system_id", IDS)
def test_samples_validate_with_findings_that_point_into_the_list(system_id):
    system, lists = _samples(system_id)
    for lf in lists:
        cat = system.catalogue_for(lf.army)
        findings = system.findings(lf.army, cat)
        assert not [f for f in findings if f.rule.endswith(".internal")], findings
        for f in findings:
            assert f.rule.startswith(f"{system_id}.") and f.message
            path = ListPath.parse(f.where)  # every finding's place is a list path
            if path:
                assert path.steps[0].name in system.list_model.model_fields, f
                assert lf.line_of(path) is not None, f"no line for {f.where} in {lf.label}"
        points = system.points(lf.army, cat)
        assert points.limit == system.format_of(lf.army, cat).limit
        assert system.status(lf.army, cat)


@pytest.mark.parametrize("system_id", IDS)
def test_every_offered_edit_applies_or_refuses_and_selects_a_real_place(system_id):
    system, lists = _samples(system_id)
    army = lists[0].army
    cat = system.catalogue_for(army)
    applied = 0
    for path in ["", *_paths(system.outline(army, cat))]:
        ListPath.parse(path)
        for action in system.actions(army, cat, path):
            assert action.kind in ("add", "remove", "rename", "notes", "change")
            args = _args(action)
            if args is None:
                continue
            try:
                new, select = system.apply(army, cat, path, action.id, args)
            except ValueError:
                continue
            applied += 1
            assert new is not army and type(new) is type(army)
            system.list_model.model_validate(new.model_dump())
            ListPath.parse(select)
            if select:
                assert select in ["", *_paths(system.outline(new, cat))] or ListPath.parse(select).parent, select
    assert applied, "no offered edit could be applied"


@pytest.mark.parametrize("system_id", IDS)
def test_the_editor_keys_find_their_edits_by_kind(system_id):
    system, lists = _samples(system_id)
    army = lists[0].army
    cat = system.catalogue_for(army)
    at_root = {a.kind for a in system.actions(army, cat, "")}
    assert {"add", "rename", "notes"} <= at_root
    removable = [p for p in _paths(system.outline(army, cat)) if any(a.kind == "remove" for a in system.actions(army, cat, p))]
    assert removable, "some place of a sample must offer a remove edit (the delete key)"


@pytest.mark.parametrize("system_id", IDS)
def test_a_new_list_saves_loads_and_keeps_its_fingerprint(system_id, tmp_path):
    system = get_system(system_id)
    cat = system.catalogue()
    faction = system.factions(cat)[-1].value
    army = system.new_list(cat, faction=faction, name="Fresh")
    target = tmp_path / "fresh.yaml"
    new_list_file(army).save(target)
    again = load_list(target)
    assert again.army == army and again.system is system
    assert list_fingerprint(again.army, cat) == list_fingerprint(army, cat)
    found = system.validate(army, cat)
    assert all(f.severity in (Severity.ERROR, Severity.WARNING, Severity.INFO) for f in found)
    assert not [f for f in found if f.rule.endswith(".internal")]


@pytest.mark.parametrize("system_id", IDS)
def test_roster_and_cards_print_the_list(system_id):
    from armybuilder.pdf.roster import render_roster

    system, lists = _samples(system_id)
    lf = lists[0]
    cat = system.catalogue_for(lf.army)
    fp = list_fingerprint(lf.army, cat)
    roster = system.roster(lf.army, cat, fp)
    assert roster.summary == system.summary(lf.army, cat)
    assert roster.legal == is_legal(system.validate(lf.army, cat))
    pdf = render_roster(roster, system.cards(lf.army, cat))
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    flat = " ".join(text.split())
    assert fp in flat and lf.army.name in flat
    assert " · ".join(roster.summary.parts()) in flat  # the title line: system · faction · format


ENGINES = [s.id for s in all_systems() if s.engine_ready()]


@pytest.mark.parametrize("system_id", ENGINES)
def test_a_simulated_game_depends_only_on_the_injected_generator(system_id):
    """One source of randomness: the generator the playtest runner seeds (game i = child i)."""
    import numpy as np

    system, lists = _samples(system_id)
    army = lists[0].army
    cat = system.catalogue_for(army)
    first = system.play_game(cat, army, army, np.random.default_rng(5), log=True)
    again = system.play_game(cat, army, army, np.random.default_rng(5), log=True)
    assert (first.winner, first.rounds, first.scores, first.log) == (again.winner, again.rounds, again.scores, again.log)
    others = {tuple(system.play_game(cat, army, army, np.random.default_rng(seed), log=True).log) for seed in range(6, 12)}
    assert len(others | {tuple(first.log)}) > 1, "different seeds should play different games"


@pytest.mark.parametrize("system_id", ENGINES)
def test_engines_draw_from_no_global_random_state(system_id):
    import importlib.util
    from pathlib import Path

    system = get_system(system_id)
    for name in (n for n in (system.game_module, system.odds_module) if n):
        # The module's .py file, also when the module runs compiled (a .so beside it has no
        # source, and a compiled module's own __file__ may not name its folder): by its package.
        package, _, module = name.rpartition(".")
        folder = Path(importlib.util.find_spec(package).submodule_search_locations[0])
        source = (folder / f"{module}.py").read_text(encoding="utf-8")
        assert "import random" not in source and "np.random.seed" not in source and "default_rng(" not in source, name


POLICY_ENGINES = [s.id for s in all_systems() if s.engine_ready() and s.policies()]


@pytest.mark.parametrize("system_id", POLICY_ENGINES)
def test_any_two_policies_play_each_other(system_id):
    """The engine protocol (core/engine.py): the players are apart from the rules, so every
    ordered pair of an engine's policies plays a whole game, replayed the same from its seed."""
    import itertools

    import numpy as np

    system, lists = _samples(system_id)
    first, second = lists[0].army, lists[-1].army
    cat = system.catalogue_for(first)
    names = system.policies()
    for pair in itertools.product(names, repeat=2):
        record = system.play_game(cat, first, second, np.random.default_rng(3), True, policies=pair)
        again = system.play_game(cat, first, second, np.random.default_rng(3), True, policies=pair)
        assert record.log == again.log and record.winner in (0, 1, None), pair
        assert {u.side for u in record.units} == {0, 1} and len(record.scores) == 2
        assert all(isinstance(k, str) and n > 0 for side in record.used for k, n in side.items())


SCENARIO_ENGINES = [s.id for s in all_systems() if s.engine_ready() and s.scenarios(s.catalogue())]


@pytest.mark.parametrize("system_id", SCENARIO_ENGINES)
def test_a_scenario_can_be_fixed_and_is_reported(system_id):
    """playtest --scenario: a fixed scenario is played and recorded; otherwise each game draws
    one of the system's scenarios and the record says which."""
    import numpy as np

    system, lists = _samples(system_id)
    army = lists[0].army
    cat = system.catalogue_for(army)
    known = [c.value for c in system.scenarios(cat)]
    for scenario in known:
        assert system.play_game(cat, army, army, np.random.default_rng(1), scenario=scenario).scenario == scenario
    drawn = {system.play_game(cat, army, army, np.random.default_rng(seed)).scenario for seed in range(12)}
    assert drawn <= set(known) and len(drawn) > 1


@pytest.mark.parametrize("system_id", [s.id for s in all_systems() if s.has_unit_odds()])
def test_odds_modules_name_their_calculator_odds(system_id):
    import importlib

    system = get_system(system_id)
    module = importlib.import_module(system.odds_module)
    assert callable(module.odds) and tuple(module.PARAMETERS) == tuple(system.odds_parameters())
    cat = system.catalogue()
    defaults = {p.name: p.default for p in system.odds_parameters() if p.default is not None}
    try:
        result = system.odds(cat, defaults)
    except ValueError:
        return  # some calculators need more than the defaults; the CLI tests cover them
    assert result.lines and result.payload
