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
from typing import Any

from .catalog import Catalogue
from .findings import Finding, Severity


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "unit")`` → "1 unit"; ``plural(3, "war staff", "war staffs")``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


@dataclass
class ListContext:
    """What a rule reads: the list and the catalogue it is pinned to, with cached look-ups.

    A system subclasses it (as a dataclass) to add its own look-ups.
    """

    army: Any
    cat: Catalogue

    @functools.cached_property
    def data(self) -> Any:
        """The catalogue's typed model (the system's catalogue class)."""
        return self.cat.data

    @functools.cached_property
    def format(self) -> Any:
        """The list's format entry, or None when the catalogue has no such format."""
        return self.cat.get("formats", self.army.format)


def unknown_format(ctx: ListContext, rule_id: str, source: str) -> Iterator[Finding]:
    """An error when the list names a format its catalogue does not have, listing the known ones."""
    if ctx.format is None:
        known = ", ".join(f.id for f in ctx.data.formats)
        yield Finding(
            rule_id,
            Severity.ERROR,
            f"format '{ctx.army.format}' does not exist (known: {known}); choose one",
            "format",
            source,
        )
