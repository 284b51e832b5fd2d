"""Pit Fighters' crew rules: the core's shared rules, configured, plus two of its own."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from armybuilder.core.checks import ListContext, PointLimit, Share, unknown_format
from armybuilder.core.findings import Finding, RuleBook, Severity

from .model import PitCat, PitFormat, PitList, fighter_type, totals

SYSTEM = "toy-pit"
book = RuleBook(SYSTEM)
POINT_LIMIT = PointLimit(f"{SYSTEM}.points.limit", "the crew", "coins", "toy rules", "fighters", "of fighters", own_limit_rule=f"{SYSTEM}.points.own-limit")
LEADER_SHARE = Share(f"{SYSTEM}.points.leaders", "leaders", "coins", "toy rules")


@dataclass
class Context(ListContext):
    army: PitList
    cat: PitCat

    @functools.cached_property
    def fmt(self) -> PitFormat | None:
        found: PitFormat | None = self.format
        return found

    @functools.cached_property
    def totals(self) -> tuple[int, int]:
        return totals(self.army, self.cat)


@book.rule(f"{SYSTEM}.format.unknown")
def format_known(ctx: Context) -> Iterator[Finding]:
    return unknown_format(ctx, f"{SYSTEM}.format.unknown", "toy rules")


@book.rule(f"{SYSTEM}.catalogue.missing-entry")
def missing(ctx: Context) -> Iterator[Finding]:
    if ctx.cat.get("crews", ctx.army.crew) is None:
        yield Finding(f"{SYSTEM}.catalogue.missing-entry", Severity.ERROR, f"crew '{ctx.army.crew}' does not exist", "crew", "toy rules")
    for i, f in enumerate(ctx.army.fighters):
        if fighter_type(ctx.cat, f) is None:
            yield Finding(
                f"{SYSTEM}.catalogue.missing-entry",
                Severity.ERROR,
                f"fighter type '{f.type}' does not exist in catalogue {ctx.cat.version}; change or remove it",
                f"fighters[{i}].type",
                "toy rules",
            )


@book.rule(POINT_LIMIT.rule, also=(f"{SYSTEM}.points.own-limit",))
def point_limit(ctx: Context) -> Iterator[Finding]:
    yield from POINT_LIMIT.own_limit(ctx.army.limit, ctx.format_limit)
    yield from POINT_LIMIT.check(ctx.totals[0], ctx.fmt.limit if ctx.fmt else None)


@book.rule(LEADER_SHARE.rule)
def leader_share(ctx: Context) -> Iterator[Finding]:
    fmt = ctx.fmt
    return LEADER_SHARE.check(ctx.totals[1], fmt.leader_share if fmt else 0, fmt.limit if fmt else None)


@book.rule(f"{SYSTEM}.crew.mixed")
def one_crew(ctx: Context) -> Iterator[Finding]:
    for i, f in enumerate(ctx.army.fighters):
        t = fighter_type(ctx.cat, f)
        if t is not None and t.crew != ctx.army.crew:
            yield Finding(
                f"{SYSTEM}.crew.mixed",
                Severity.ERROR,
                f"fighter {i + 1} ({t.name}) belongs to another crew ({t.crew}); remove it",
                f"fighters[{i}]",
                "toy rules",
            )


def run_rules(army: PitList, cat: PitCat) -> list[Finding]:
    return book.run(Context(army, cat))
