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
    #: the list as a whole breaks the rule (points limit, shares): ``where`` then only says
    #: where a fix could start (the editor jumps there); prints do not pin it on that unit
    army_wide: bool = False

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


@dataclass(frozen=True)
class Rule:
    """A registered rule: its id, every id its findings may carry, and the function."""

    id: str
    ids: frozenset[str]
    fn: RuleFunction


@dataclass
class RuleBook:
    """An ordered set of rules of one game system.

    A rule declares the ids of the findings it reports once, at registration:
    its own id plus ``also`` (a rule that reports two things, such as the points
    limit and unspent points).  :meth:`run` checks every finding against them, so a
    finding whose id was never registered shows up as an internal warning instead
    of slipping into reports; :attr:`ids` is what the tests and documentation read.
    """

    system: str
    rules: list[Rule] = field(default_factory=list)

    def rule(self, rule_id: str, *, also: Iterable[str] = ()) -> Callable[[RuleFunction], RuleFunction]:
        ids = frozenset((rule_id, *also))
        for declared in ids:
            if not declared.startswith(f"{self.system}."):
                raise ValueError(f"rule id '{declared}' does not start with '{self.system}.'")

        def register(fn: RuleFunction) -> RuleFunction:
            self.rules.append(Rule(rule_id, ids, fn))
            return fn

        return register

    @property
    def ids(self) -> frozenset[str]:
        """Every rule id this book's findings can carry (its internal id included)."""
        return frozenset(i for r in self.rules for i in r.ids) | {self.internal_id}

    @property
    def internal_id(self) -> str:
        return f"{self.system}.internal"

    def run(self, *args: Any, **kwargs: Any) -> list[Finding]:
        """Every rule on the same arguments, each inside the crash guard, findings sorted."""
        findings: list[Finding] = []
        for rule in self.rules:
            try:
                found = list(rule.fn(*args, **kwargs))  # consumed here: a lazy rule's crash is caught too
            except Exception as exc:  # noqa: BLE001 - a rule bug must not hide other findings
                findings.append(
                    Finding(
                        self.internal_id,
                        Severity.WARNING,
                        f"the check {rule.id} could not run on this list ({type(exc).__name__}: {exc}); "
                        "please report it",
                    )
                )
                continue
            for f in found:
                if f.rule not in rule.ids:
                    findings.append(
                        Finding(
                            self.internal_id,
                            Severity.WARNING,
                            f"the check {rule.id} reported '{f.rule}', an id it did not declare; please report it",
                        )
                    )
            findings.extend(found)
        return sort_findings(findings)


_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: _ORDER[f.severity])


def errors(findings: Iterable[Finding]) -> Iterator[Finding]:
    return (f for f in findings if f.severity is Severity.ERROR)


def is_legal(findings: Iterable[Finding]) -> bool:
    return not any(True for _ in errors(findings))
