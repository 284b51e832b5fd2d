"""Plumbing every system's list rules share: the context rules read, and common checks.

Each game system's ``rules`` module registers small rule functions on a
:class:`~armybuilder.core.findings.RuleBook`; they all receive a context holding
the list, its catalogue and look-ups computed once per validation.  The parts of
that context and the checks that read the same in every game live here once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .findings import Finding, Severity

if TYPE_CHECKING:
    from .catalog import CatalogModel, Catalogue


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "unit")`` → "1 unit"; ``plural(3, "war staff", "war staffs")``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def a_or_an(noun: str) -> str:
    """``a_or_an("Atgeir")`` → "an Atgeir", ``a_or_an("spear")`` → "a spear" (by the first
    letter; "unit", "unique" and "one" sound like a consonant)."""
    lower = noun.lower()
    vowel = lower[:1] in "aeiou" and not lower.startswith(("uni", "use", "one", "eu"))
    return ("an " if vowel else "a ") + noun


A = TypeVar("A")
"""The list model a context holds."""
CM = TypeVar("CM", bound="CatalogModel")
"""The catalogue model."""
F = TypeVar("F")
"""The catalogue's format entry type."""


def list_format(army: Any, cat: Catalogue[Any]) -> Any:
    """The list's format entry with the list's own point limit, when it sets one.

    The one reading of "which limit applies": rules, status, rosters and pickers all
    ask here, so a list at 1250 A.P. is checked, shown and printed at 1250.
    """
    found = cat.get("formats", getattr(army, "format", ""))
    limit = getattr(army, "limit", None)
    if found is not None and limit is not None and limit != found.limit:
        found = found.model_copy(update={"limit": limit})
    return found


@dataclass
class ListContext(Generic[A, CM, F]):
    """What a rule reads: the list and the catalogue it is pinned to, with cached look-ups.

    A system subclasses it (as a dataclass) with its types, e.g.
    ``Context(ListContext[R2List, R2Catalog, R2Format])``, and adds its own look-ups.
    """

    army: A
    cat: Catalogue[CM]

    @functools.cached_property
    def data(self) -> CM:
        """The catalogue's typed model (the system's catalogue class)."""
        return self.cat.data

    @functools.cached_property
    def format(self) -> F | None:
        """The list's format entry, or None when the catalogue has no such format."""
        found: F | None = list_format(self.army, self.cat)
        return found

    @functools.cached_property
    def format_limit(self) -> int | None:
        """The limit of the list's format as the catalogue states it (the list's own ``limit``
        aside), or None when the format is unknown."""
        found = self.cat.get("formats", getattr(self.army, "format", ""))
        return None if found is None else int(found.limit)


def unknown_format(ctx: ListContext[Any, Any, Any], rule_id: str, source: str) -> Iterator[Finding]:
    """An error when the list names a format its catalogue does not have, listing the known ones.

    The one "unknown format" rule: every system registers it under its own id and source.
    """
    if ctx.format is None:
        known = ", ".join(f.id for f in ctx.data.formats) or "none"
        yield Finding(
            rule_id,
            Severity.ERROR,
            f"format '{ctx.army.format}' does not exist (known: {known}); choose one",
            "format",
            source,
        )


def own_limit_note(limit: float, format_limit: float, unit: str) -> str:
    """The status words of a list whose own limit differs from its format's:
    "limit set by the list: 1250 A.P. (format 1000 A.P.)". Every print and ``validate``
    show exactly these words, so an organiser never reads such a list as legal for the format."""
    return f"limit set by the list: {_number(limit)} {unit} (format {_number(format_limit)} {unit})"


def _number(value: float) -> float | int:
    """A whole number without ".0" (messages say "1040 A.P.", never "1040.0 A.P.")."""
    return int(value) if float(value).is_integer() else value


def _amount(n: float, unit: str) -> str:
    """``1 point`` but ``2 points``; currencies that do not inflect (A.P., Glory) stay as they are."""
    return f"{n} point" if unit == "points" and n == 1 else f"{n} {unit}"


@dataclass(frozen=True)
class PointLimit:
    """The points-limit rule every game has, configured per system.

    ``subject`` is how the rule names the list ("the army", "the warband"), ``unit``
    its currency, ``remove`` what to take out; ``unspent_rule`` (optional) adds a
    warning for points left unspent in a list that has begun; ``own_limit_rule`` the
    warning of a list that sets its own limit (:meth:`own_limit`).
    """

    rule: str
    subject: str
    unit: str
    source: str
    where: str = ""
    remove: str = ""
    unspent_rule: str | None = None
    own_limit_rule: str | None = None

    def own_limit(self, limit: int | None, format_limit: int | None) -> Iterator[Finding]:
        """A warning when the list's own ``limit`` is not its format's: legal under it is not
        legal for the format, and whoever reads the list must be told (rule ``own_limit_rule``)."""
        if self.own_limit_rule is None or limit is None or format_limit is None or limit == format_limit:
            return
        yield Finding(
            self.own_limit_rule,
            Severity.WARNING,
            f"{own_limit_note(limit, format_limit, self.unit)}: {self.subject} is checked at {limit} {self.unit}; "
            f"at an event played at the format's limit it must keep to {format_limit} {self.unit}",
            "limit",
            self.source,
        )

    def check(self, total: float, limit: int | None, started: bool = True) -> Iterator[Finding]:
        """Findings for a list costing ``total`` under ``limit`` (None: the format is unknown)."""
        if limit is None:
            return
        if total > limit:
            over, total = _number(total - limit), _number(total)
            what = f"{_amount(over, self.unit)} {self.remove}".rstrip()
            yield Finding(
                self.rule,
                Severity.ERROR,
                f"{self.subject} costs {total} {self.unit}; the limit is {limit} {self.unit}: remove {what}",
                self.where,
                self.source,
                army_wide=True,
            )
        elif total < limit and started and self.unspent_rule is not None:
            total = _number(total)
            left = limit - total
            yield Finding(
                self.unspent_rule,
                Severity.WARNING,
                f"{self.subject} costs {total} of {limit} {self.unit}: {_amount(left, self.unit)} {'is' if left == 1 else 'are'} unspent",
                self.where,
                self.source,
            )


@dataclass(frozen=True)
class Share:
    """A "at most N % of the limit on X" rule (Characters, war machines...), configured per system."""

    rule: str
    label: str  # what is counted, as a message names it: "Characters", "war machines"
    unit: str
    source: str
    where: str = ""

    @staticmethod
    def allowed(percent: int, limit: int) -> int:
        """What may be spent: ``percent`` % of ``limit``, rounded down (the status bar reads it too)."""
        return limit * percent // 100

    def check(self, spent: float, percent: int, limit: int | None) -> Iterator[Finding]:
        """An error when ``spent`` is over ``percent`` % of ``limit`` (rounded down)."""
        if limit is None:
            return
        allowed = self.allowed(percent, limit)
        if spent > allowed:
            spent = _number(spent)
            yield Finding(
                self.rule,
                Severity.ERROR,
                f"{self.label} cost {spent} {self.unit}, more than {percent} % of {limit} {self.unit} "
                f"({allowed} {self.unit}): remove {spent - allowed} {self.unit} of {self.label}",
                self.where,
                self.source,
                army_wide=True,
            )
