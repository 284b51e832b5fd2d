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

import re
import textwrap
from dataclasses import dataclass
from typing import Any

from .findings import Severity
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


#: header facts worth a line on the summary (the others stay on the full roster)
_FACTS = ("system", "people", "format", "player", "team", "event", "date", "round", "catalogue", "house data", "program")


def status_text(roster: Roster) -> str:
    errors = sum(f.severity == Severity.ERROR for f in roster.findings)
    warnings = sum(f.severity == Severity.WARNING for f in roster.findings)
    if roster.legal:
        return "LEGAL" + (f" ({warnings} warning{'s' * (warnings != 1)})" if warnings else "")
    return f"NOT LEGAL ({errors} error{'s' * (errors != 1)})"


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
    )


def _clean(text: object) -> str:
    return re.sub(r"[\x00-\x1f\x7f-\x9f]+", " ", str(text)).strip()


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [first.rstrip()]


def render_summary_text(summary: Summary) -> str:
    """The summary as plain text, no line over 80 columns, last line the fingerprint."""
    title = _clean(summary.title) or "Unnamed list"
    out = _wrap(title, "", "")
    out.append("=" * min(max(len(title), 8), WIDTH))
    facts = [f"{_clean(k)}: {_clean(v)}" for k, v in summary.facts]
    for fact in facts:
        out += _wrap(fact, "", "  ")
    out += _wrap(f"Status: {summary.status}", "", "  ")
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
