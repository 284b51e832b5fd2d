"""The one-page tournament summary: who, which list, how many points, one line per unit.

Organisers already accept this shape (BattleScribe's minimal print, New Recruit's
tournament formats): the header facts, the legality, then each unit on one line with
its cost, the army-wide choices (tactics, traits, God powers) and the total.  It is
built from the system's :class:`~armybuilder.core.system.Roster` (so facts, legality
and fingerprint are the very ones of the full roster) plus the system's own
``summary_lines`` (one short line per unit).  :func:`render_summary_text` keeps every
line within 80 columns; ``armybuilder.pdf.summary`` lays the same out on one page.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from .findings import Finding, Severity
from .paths import place_words
from .sanitize import one_line
from .system import Heading, KeyValues, Roster

WIDTH = 80


@dataclass(frozen=True)
class SummaryLine:
    """One unit: its number, what it holds (names, counts, key gear) and its cost."""

    number: str
    text: str
    cost: str
    flagged: bool = False  # breaks a rule


@dataclass(frozen=True)
class Summary:
    title: str
    facts: tuple[tuple[str, str], ...]
    legal: bool
    status: str
    lines: tuple[SummaryLine, ...]
    extras: tuple[tuple[str, str], ...]  # army-wide choices: ("Tactics", "Brutality, Rallying")
    total: str
    fingerprint: str
    unit_word: str = "Units"
    #: every error in words (:func:`finding_words`): what an illegal list breaks
    breaks: tuple[str, ...] = ()
    #: what the organiser checks, as the system counts it: ("Groups", "6 of 4-8"), ...
    checks: tuple[tuple[str, str], ...] = ()
    #: player, event and round: the footer of every page (loose pages say whose they are)
    occasion: str = ""
    #: the list's own limit when it is not its format's (the status says it too)
    limit_note: str = ""


#: header facts worth a line on the summary (the others stay on the full roster)
_FACTS = ("system", "people", "format", "player", "team", "event", "date", "round", "catalogue", "house data", "program")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def status_text(roster: Roster) -> str:
    """The one legality status every print shows: "LEGAL", "LEGAL (1 warning)",
    "NOT LEGAL (2 errors, 1 warning)"; a list with its own limit is never simply legal:
    "LEGAL only at the list's own limit (1 warning) — limit set by the list: 1250 A.P.
    (format 1000 A.P.)"."""
    errors = sum(f.severity == Severity.ERROR for f in roster.findings)
    warnings = sum(f.severity == Severity.WARNING for f in roster.findings)
    counts = [_count(errors, "error")] if not roster.legal else []
    counts += [_count(warnings, "warning")] if warnings else []
    if roster.legal:
        head = "LEGAL only at the list's own limit" if roster.limit_note else "LEGAL"
    else:
        head = "NOT LEGAL"
    text = head + (f" ({', '.join(counts)})" if counts else "")
    return text + (f" — {roster.limit_note}" if roster.limit_note else "")


def finding_words(f: Finding) -> str:
    """One finding as a reader takes it in: the rule's words with its numbers, where it is
    broken (counted from 1, as prints number units) and the rule's source, e.g. "Kael is in
    the army twice; ...: remove one (unit 8, member 1; Confrontation: Characters)". An
    army-wide finding names no unit (its ``where`` only says where a fix could start)."""
    where = "" if f.army_wide else place_words(f.where)
    detail = "; ".join(x for x in (where, f.source) if x)
    return f"{f.message} ({detail})" if detail else f.message


def occasion_text(roster: Roster) -> str:
    """Player, event and round as a page footer says them ("Ann Example · Autumn Clash ·
    round 3"), from the roster's header facts; "" when the list names none."""
    facts = {k.lower(): v for k, v in roster.header}
    parts = [_cut(facts.get("player", ""), 24), _cut(facts.get("event", ""), 28), f"round {facts['round']}" if facts.get("round") else ""]
    return " · ".join(p for p in parts if p)


def _cut(text: str, most: int) -> str:
    """``text`` at most ``most`` characters, an ellipsis marking a cut (a footer has one line)."""
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _total_of(roster: Roster) -> str:
    for block in reversed(roster.blocks):
        if isinstance(block, KeyValues):
            for key, value in block.items:
                if key.strip().lower() == "total":
                    return value
    for key, value in roster.header:
        if key.lower() in {"points", "glory"}:
            return value
    return ""


def _fallback_lines(roster: Roster) -> list[SummaryLine]:
    """Units from the roster's level-2 headings, for a system without ``summary_lines``."""
    out = []
    for block in roster.blocks:
        if isinstance(block, Heading) and block.level == 2:
            number, _, text = block.text.partition(". ")
            out.append(SummaryLine(number, text or block.text, ""))
    return out


def build_summary(system: Any, army: Any, cat: Any, roster: Roster) -> Summary:
    """The summary of ``army``: roster facts and status, the system's lines per unit."""
    module = getattr(system, "sheets_module", None)
    lines_of = getattr(module, "summary_lines", None)
    if lines_of is not None:
        lines, extras, unit_word = lines_of(army, cat, roster.findings)
    else:
        lines, extras, unit_word = _fallback_lines(roster), [], "Units"
    checks_of = getattr(module, "summary_checks", None)
    checks = tuple(checks_of(army, cat)) if checks_of is not None else ()
    facts = tuple((k, v) for k, v in roster.header if k.lower() in _FACTS)
    return Summary(
        roster.title,
        facts,
        roster.legal,
        status_text(roster),
        tuple(lines),
        tuple(extras),
        _total_of(roster),
        roster.fingerprint,
        unit_word,
        breaks=tuple(finding_words(f) for f in roster.findings if f.severity == Severity.ERROR),
        checks=checks,
        occasion=occasion_text(roster),
        limit_note=roster.limit_note,
    )


def _clean(text: object) -> str:
    """One line: line breaks become spaces, every other control (bidi included) an escape."""
    return one_line(text)


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [first.rstrip()]


def render_summary_text(summary: Summary) -> str:
    """The summary as plain text, no line over 80 columns, last line the fingerprint."""
    title = _clean(summary.title) or "Unnamed list"
    out = _wrap(title, "", "  ")  # a long name's next lines indented: none starts a line of its own
    out.append("=" * min(max(len(title), 8), WIDTH))
    facts = [f"{_clean(k)}: {_clean(v)}" for k, v in summary.facts]
    for fact in facts:
        out += _wrap(fact, "", "  ")
    out += _wrap(f"Status: {summary.status}", "", "  ")
    for broken in summary.breaks:
        out += _wrap(_clean(broken), "  ! ", "    ")
    if summary.checks:
        out.append("")
        for key, value in summary.checks:
            out += _wrap(f"{_clean(key)}: {_clean(value)}", "", "  ")
    out.append("")
    numbers = max((len(_clean(line.number)) for line in summary.lines), default=1)
    for line in summary.lines:
        mark = "!" if line.flagged else " "
        head = f"{mark}{_clean(line.number):>{numbers}}. "
        # the cost stays whole on one line: no-break spaces while wrapping
        text = _clean(line.text) + (" —\u00a0" + _clean(line.cost).replace(" ", "\u00a0") if line.cost else "")
        out += [w.replace("\u00a0", " ") for w in _wrap(text, head, " " * len(head))]
    if not summary.lines:
        out.append(f"  (no {summary.unit_word.lower()})")
    if summary.extras:
        out.append("")
        for key, value in summary.extras:
            out += _wrap(f"{_clean(key)}: {_clean(value)}", "", "  ")
    out.append("")
    out += _wrap(f"Total: {_clean(summary.total)}", "", "  ")
    out.append(f"Fingerprint: {summary.fingerprint or '-'}")
    return "\n".join(out) + "\n"
