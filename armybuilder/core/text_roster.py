"""The plain-text roster: compact, forum- and organiser-friendly, ending with the fingerprint.

Built from the same neutral :class:`~armybuilder.core.system.Roster` as the PDF, so
the two never disagree.  Unit tables are reduced to what organisers read — count,
name and cost of each line — and the characteristics stay in the PDF.  The last
line always reads ``Fingerprint: XXXX-XXXX-XXXX`` so ``armybuilder fingerprint``
can check a pasted roster against its file.
"""

from __future__ import annotations

from .findings import Severity
from .sanitize import one_line
from .summary import finding_words, status_text
from .system import Heading, KeyValues, Paragraph, Roster, Table

#: column headings that hold a model count or a cost, in any of the three systems
_COUNT = {"n", "#", "count", "qty", "quantity", "models", "nb", "number", "x"}
_COST = {"a.p.", "ap", "points", "pts", "cost", "glory", "pts.", "value", "price"}
_SKIP_HEADER = {"fingerprint"}
_WIDTH = 72


def _clean(text: object) -> str:
    """One line of text: line breaks become spaces, other controls visible escapes (sanitize)."""
    return one_line(text)


def _find(columns: tuple[str, ...], names: set[str]) -> int | None:
    for i, c in enumerate(columns):
        if c.strip().lower() in names:
            return i
    return None


def _described(cols: tuple[str, ...], cells: list[str]) -> str:
    """``Name — COL value; COL: a longer value`` for a row without count or cost."""
    parts = []
    for i, value in enumerate(cells[1:], start=1):
        if not value or value == "-":
            continue
        label = _clean(cols[i]) if i < len(cols) else ""
        if not label:
            parts.append(value)
        else:
            parts.append(f"{label} {value}" if len(value) <= 16 else f"{label}: {value}")
    # a sentence's final full stop would read ".;" before the next part
    parts = [p[:-1] if p.endswith(".") and i < len(parts) - 1 else p for i, p in enumerate(parts)]
    return cells[0] + (" — " + "; ".join(parts) if parts else "")


def _cost_words(cost: str, unit: str) -> str:
    """"1 point", "2 points" for a column headed Pts or Points; other units as they are."""
    if unit.strip().lower() in {"pts", "pts.", "points", "point"}:
        return f"{cost} point" + ("" if cost == "1" else "s")
    return f"{cost} {unit}"


def _table_lines(table: Table) -> list[str]:
    lines: list[str] = []
    if table.title:
        lines.append(_clean(table.title) + (" [provisional]" if table.provisional else "") + ":")
    cols = tuple(table.columns)
    count_i, cost_i = _find(cols, _COUNT), _find(cols, _COST)
    for row in table.rows:
        cells = [_clean(c) for c in row]
        if not cells:
            continue
        if count_i is not None or cost_i is not None:
            first, _, more = str(row[0]).partition("\n")  # a second line: what the fighter carries
            name = _clean(first) + (f" [{_clean(more)}]" if more.strip() else "")
            count = cells[count_i] if count_i is not None and count_i < len(cells) else ""
            cost = cells[cost_i] if cost_i is not None and cost_i < len(cells) else ""
            prefix = f"{count}× " if count and count not in {"1", "-"} else ""
            unit = cols[cost_i] if cost_i is not None else ""
            suffix = f" — {_cost_words(cost, unit)}".rstrip() if cost and cost != "-" else ""
            if cost.lower() == "missing":
                suffix = " — missing from the catalogue (cost unknown)"
            lines.append(f"  - {prefix}{name}{suffix}")
        else:
            lines.append("  - " + _described(cols, cells))
    if table.provisional and not table.title and "provisional" not in table.note.lower():
        lines.append("  (provisional)")
    if table.note:
        lines.append(f"  ({_clean(table.note)})")
    return lines


def render_text(roster: Roster) -> str:
    """The roster as plain text; pure (no I/O), deterministic, last line = fingerprint."""
    fp = roster.fingerprint or next((v for k, v in roster.header if k.lower() == "fingerprint"), "")
    title = _clean(roster.title) or "Unnamed list"
    lines = [title, "=" * min(max(len(title), 8), _WIDTH)]
    for key, value in roster.header:
        if key.lower() not in _SKIP_HEADER:
            lines.append(f"{_clean(key)}: {_clean(value)}")
    lines.append(f"Status: {status_text(roster)}")
    for block in roster.blocks:
        if isinstance(block, Heading):
            text = _clean(block.text)
            if block.level <= 1:
                lines += ["", f"== {text} =="]
            else:
                lines += ["", text]
        elif isinstance(block, Paragraph):
            mark = {"provisional": "[provisional] ", "warning": "! ", "error": "!! "}.get(block.style, "")
            lines.append(mark + _clean(block.text))
        elif isinstance(block, KeyValues):
            lines.append("")
            lines += [f"{_clean(k)}: {_clean(v)}" for k, v in block.items]
        elif isinstance(block, Table):
            lines += _table_lines(block)
    shown = [f for f in roster.findings if not roster.legal or f.severity != Severity.INFO]
    if shown:
        lines += ["", "== Findings =="]
        for f in shown:
            line = f" [line {f.line}]" if f.line is not None else ""
            lines.append(f"  {str(f.severity).upper()}: {_clean(finding_words(f))}{line}")
    lines += ["", f"Fingerprint: {fp or '-'}"]
    return "\n".join(lines) + "\n"
