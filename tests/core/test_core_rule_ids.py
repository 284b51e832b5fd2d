"""Rule ids are written once and checked: every id a rules module can report is registered.

Two checks: a scan of each registered system's rules module for rule-id literals (so
a branch no sample reaches is covered too), and the RuleBook's own check at run time
(a finding whose id its rule did not declare becomes an internal warning).
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

from armybuilder.core.findings import Finding, RuleBook, Severity
from armybuilder.core.registry import get_system, system_ids


def _book_and_source(system_id: str) -> tuple[RuleBook, str]:
    system = get_system(system_id)
    module = getattr(system, "rules_module", None)
    if module is None:
        pytest.fail(f"{system_id} has no rules_module to scan")
    module = importlib.import_module(module.__name__)
    return module.book, inspect.getsource(module)


def _literal_ids(system_id: str, source: str) -> set[str]:
    """Rule ids spelled in the source: "<id>.x.y" or f"{SYSTEM...}.x.y" (the module's id constant)."""
    plain = set(re.findall(rf'"({re.escape(system_id)}\.[a-z0-9.-]+)"', source))
    templated = {f"{system_id}.{tail}" for tail in re.findall(r'f"\{SYSTEM(?:_ID)?\}\.([a-z0-9.-]+)"', source)}
    return plain | templated


@pytest.mark.parametrize("system_id", system_ids())
def test_every_rule_id_in_the_rules_module_is_registered(system_id):
    book, source = _book_and_source(system_id)
    spelled = _literal_ids(system_id, source)
    assert spelled, "the scan found no rule ids: the pattern no longer matches this module"
    assert spelled - book.ids == set(), "ids reported but never registered on the RuleBook"


@pytest.mark.parametrize("system_id", system_ids())
def test_the_samples_report_only_registered_ids_and_no_internal_finding(system_id):
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import decode_text, parse_text

    system = get_system(system_id)
    book, _ = _book_and_source(system_id)
    for rel, item in system.source.samples():
        lf = list_from_doc(parse_text(decode_text(item.read_bytes(), rel), rel), rel, None)
        for f in system.validate(lf.army, system.catalogue_for(lf.army)):
            assert f.rule in book.ids and f.rule != book.internal_id, (rel, f)


def test_an_undeclared_id_and_a_crash_become_internal_warnings():
    book = RuleBook("demo")

    @book.rule("demo.one", also=("demo.two",))
    def fine(n: int):
        yield Finding("demo.one", Severity.ERROR, "one")
        yield Finding("demo.two", Severity.INFO, "two")

    @book.rule("demo.three")
    def wrong(n: int):
        yield Finding("demo.thre", Severity.ERROR, "a typo in the id")

    @book.rule("demo.four")
    def lazy_crash(n: int):
        yield Finding("demo.four", Severity.INFO, "before the crash")
        raise RuntimeError("boom")

    found = book.run(1)
    rules = [f.rule for f in found]
    assert rules.count("demo.internal") == 2 and "demo.one" in rules and "demo.two" in rules
    messages = " ".join(f.message for f in found if f.rule == "demo.internal")
    assert "demo.three reported 'demo.thre'" in messages and "demo.four could not run" in messages and "boom" in messages
    assert book.ids == {"demo.one", "demo.two", "demo.three", "demo.four", "demo.internal"}
    with pytest.raises(ValueError, match="does not start with 'demo.'"):
        book.rule("other.x")
