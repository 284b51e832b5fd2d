"""Assertions the three systems' rule tests share (each rule broken alone on a legal list).

Imported by basename (``from rule_checks import rule_helpers``); the root conftest
puts tests/ on ``sys.path``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from armybuilder.core.findings import Finding, Severity

RunRules = Callable[[Any, Any], list[Finding]]


def rule_helpers(run_rules: RunRules) -> tuple[Callable[..., list[Finding]], Callable[..., Finding]]:
    """``(errors, only_error)`` for one system's ``run_rules``.

    ``errors(army, cat)`` lists the error findings; ``only_error(army, cat, rule)``
    asserts that ``rule`` is the one error and returns its finding (the assertion
    message lists every error found, so a failing test says what fired instead).
    """

    def errors(army: Any, cat: Any) -> list[Finding]:
        return [f for f in run_rules(army, cat) if f.severity is Severity.ERROR]

    def only_error(army: Any, cat: Any, rule: str) -> Finding:
        found = errors(army, cat)
        assert [f.rule for f in found] == [rule], [f"{f.rule}: {f.message}" for f in found]
        return found[0]

    return errors, only_error
