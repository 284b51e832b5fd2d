"""Findings: what validation says about a list, with numbers, place and source.

A rule is a small named function.  Rules never raise on a half-built list: the
runner catches a rule that crashes and turns it into an internal finding, so one
bad rule can never hide the others from a player in the middle of editing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    rule: str  # stable id, e.g. "ragnarok2.scheme.corps-majority"
    severity: Severity
    message: str  # carries the numbers and a way to fix it
    where: str = ""  # list path, e.g. "units[2].members[0]"
    source: str = ""  # decision id or seed section
    line: int | None = None  # line in the list file, when known

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": str(self.severity),
            "message": self.message,
            "where": self.where,
            "line": self.line,
            "source": self.source,
        }


RuleFunction = Callable[..., Iterable[Finding]]


@dataclass
class RuleBook:
    """An ordered set of rules of one game system."""

    system: str
    rules: list[tuple[str, RuleFunction]] = field(default_factory=list)

    def rule(self, rule_id: str) -> Callable[[RuleFunction], RuleFunction]:
        def register(fn: RuleFunction) -> RuleFunction:
            self.rules.append((rule_id, fn))
            return fn

        return register

    def run(self, *args: Any, **kwargs: Any) -> list[Finding]:
        findings: list[Finding] = []
        for rule_id, fn in self.rules:
            try:
                findings.extend(fn(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - a rule bug must not hide other findings
                findings.append(
                    Finding(
                        f"{self.system}.internal",
                        Severity.WARNING,
                        f"the check {rule_id} could not run on this list ({type(exc).__name__}: {exc}); "
                        "please report it",
                    )
                )
        return sort_findings(findings)


_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: _ORDER[f.severity])


def errors(findings: Iterable[Finding]) -> Iterator[Finding]:
    return (f for f in findings if f.severity is Severity.ERROR)


def is_legal(findings: Iterable[Finding]) -> bool:
    return not any(True for _ in errors(findings))
