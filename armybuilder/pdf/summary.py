"""The tournament summary as a PDF (``armybuilder export LIST --summary``).

Same content as :func:`armybuilder.core.summary.render_summary_text`: title and
fingerprint, the facts an organiser checks (player, event, round, catalogue,
program), the status and, for an illegal list, every rule it breaks in words; what
the organiser must count for this game (groups, Aspect budget, Glory, shares); one
row per unit with its cost; the army-wide choices and the total.

It is read at arm's length: nothing is printed under :data:`MIN_SIZE` points.  A list
of up to about forty units fits one page; a longer one continues on a second page
whose unit table repeats its header, with the closing total kept whole on the last
page.  The page footer names the player, the event and the round, so a loose page
still says whose it is.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Spacer
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.core.summary import Summary

from . import styles as st
from .layout import make_doc, numbered_canvas, paras
from .roster import footer_status
from .styles import Styles, esc, paper_size, table_style

#: the smallest print of the summary, in points (table cells, labels, notes)
MIN_SIZE = 8.0
#: the sizes tried for the cells, largest first: a short list is printed large
SIZES = (10.5, 9.5, 8.5, MIN_SIZE)


class SummaryStyles:
    """The summary's styles: cells and labels at ``size``, never under :data:`MIN_SIZE`."""

    def __init__(self, size: float = MIN_SIZE) -> None:
        size = max(size, MIN_SIZE)
        base = Styles(base=size + 1)
        self.base = base
        lead = size * 1.2
        self.cell = base.cell.clone("s_cell", fontSize=size, leading=lead)
        self.cell_bold = self.cell.clone("s_cell_bold", fontName=st.FONT_BOLD)
        self.cell_right = self.cell.clone("s_cell_right", alignment=2)
        self.head = self.cell.clone("s_head", fontName=st.FONT_BOLD, textColor=colors.white)
        self.head_right = self.head.clone("s_head_right", alignment=2)
        self.key = self.cell.clone("s_key", fontName=st.FONT_BOLD, textColor=st.MUTED)
        self.flagged = self.cell.clone("s_flagged", textColor=st.ERROR)
        self.flagged_right = self.flagged.clone("s_flagged_right", alignment=2)
        self.size = size
        self.title = base.title.clone("s_title", fontSize=size * 1.85, leading=size * 2.2, spaceAfter=0)
        self.fingerprint = base.banner.clone("s_fp", fontSize=min(size * 1.5, 13.0), leading=min(size * 1.5, 13.0) * 1.2, alignment=2)
        self.body = base.body.clone("s_body", fontSize=size + 1, leading=(size + 1) * 1.22, spaceAfter=1)
        self.error = self.body.clone("s_error", textColor=st.ERROR, leftIndent=10, firstLineIndent=-10, spaceAfter=1.5)


def _header(summary: Summary, s: SummaryStyles, width: float) -> Flowable:
    """Title on the left, the fingerprint on the right of the same line."""
    code = f"Fingerprint {summary.fingerprint or '-'}"
    fp_w = min(stringWidth(code, s.fingerprint.fontName, s.fingerprint.fontSize) + 12, width * 0.5)
    left = paras(summary.title or "Unnamed list", s.title)
    right = RLParagraph(esc(code), s.fingerprint)
    table = RLTable([[left, right]], colWidths=[width - fp_w, fp_w], hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("LINEBELOW", (0, 0), (-1, -1), 1.5, st.ACCENT),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table


def _pairs(items: list[tuple[str, str]], s: SummaryStyles, width: float) -> Flowable:
    """Label/value pairs two to a line, the labels as wide as the widest needs (one line)."""
    key_w = min(max((stringWidth(k, s.key.fontName, s.key.fontSize) for k, _ in items), default=0.0) + 12, width * 0.22)
    data = []
    for i in range(0, len(items), 2):
        pair = items[i : i + 2] + [("", "")] * (2 - len(items[i : i + 2]))
        data.append([x for k, v in pair for x in (RLParagraph(esc(k), s.key), RLParagraph(esc(v), s.cell))])
    half = width / 2 - key_w
    table = RLTable(data or [[""]], colWidths=[key_w, half, key_w, half] if data else [width], hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def _status(summary: Summary, s: SummaryStyles) -> list[Flowable]:
    """The status line (green, amber under the list's own limit, red when illegal) and,
    for an illegal list, every rule it breaks in words."""
    if not summary.legal:
        colour, fill, mark = st.ERROR, st.ERROR_FILL, "✖ "
    elif summary.limit_note:
        colour, fill, mark = st.WARNING, st.WARNING_FILL, "⚠ "
    else:
        colour, fill, mark = st.OK, st.OK_FILL, "✔ "
    style = s.base.banner.clone("s_status", textColor=colour, backColor=fill, borderPadding=(2, 4, 2, 4), fontSize=s.size * 1.3, leading=s.size * 1.6, spaceAfter=2)
    out: list[Flowable] = [RLParagraph(mark + esc(summary.status) + " · Total " + esc(summary.total), style)]
    if summary.breaks:
        out.append(RLParagraph("<b>Rules broken:</b>", s.body.clone("s_broken", textColor=st.ERROR, spaceBefore=2)))
        for broken in summary.breaks:
            out += paras(broken, s.error, "✖ ")
    return out


def _units(summary: Summary, s: SummaryStyles, width: float) -> RLTable:
    head = [RLParagraph("#", s.head), RLParagraph(esc(summary.unit_word), s.head), RLParagraph("Cost", s.head_right)]
    rows: list[list[object]] = [head]
    for line in summary.lines:
        style, right = (s.flagged, s.flagged_right) if line.flagged else (s.cell, s.cell_right)
        rows.append([RLParagraph(("✖" if line.flagged else "") + esc(line.number), style), paras(line.text, style), RLParagraph(esc(line.cost), right)])
    if not summary.lines:
        rows.append(["", RLParagraph(f"no {esc(summary.unit_word.lower())}", s.cell), ""])
    number_w, cost_w = 8 * mm, 19 * mm
    table = RLTable(rows, colWidths=[number_w, width - number_w - cost_w, cost_w], repeatRows=1, splitByRow=1, hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("BACKGROUND", (0, 0), (-1, 0), st.HEADER_FILL),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, st.ZEBRA]),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("BOX", (0, 0), (-1, -1), 0.5, st.RULE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 0.6),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
            ]
        )
    )
    return table


def summary_story(summary: Summary, width: float, size: float = MIN_SIZE) -> list[Flowable]:
    s = SummaryStyles(size)
    story: list[Flowable] = [_header(summary, s, width), Spacer(1, 1.5 * mm), _pairs(list(summary.facts), s, width), Spacer(1, 2 * mm)]
    story += _status(summary, s)
    if summary.checks:
        story += [Spacer(1, 1 * mm), _pairs(list(summary.checks), s, width)]
    story += [Spacer(1, 2 * mm), _units(summary, s, width), Spacer(1, 1.5 * mm)]
    closing: list[Flowable] = []
    for key, value in summary.extras:
        closing += paras(value, s.body, f"<b>{esc(key)}:</b> ")
    closing.append(RLParagraph(f"<b>Total:</b> {esc(summary.total)}", s.body.clone("s_total", spaceBefore=2, fontSize=s.size * 1.25, leading=s.size * 1.5)))
    story.append(KeepTogether(closing))  # never a lone total at the top of a page
    return story


def _size_that_fits(summary: Summary, width: float, height: float) -> float:
    """The largest of :data:`SIZES` at which the whole summary fits one page (a short list
    is printed large, for arm's length); the smallest when none does (it then runs on)."""
    for size in SIZES[:-1]:
        story = summary_story(summary, width, size)
        flat = [x for f in story for x in (f._content if isinstance(f, KeepTogether) else [f])]
        needed = sum(f.wrap(width, height)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in flat)
        if needed <= height * 0.97:
            return size
    return SIZES[-1]


def render_summary(summary: Summary, paper: str = "A4") -> bytes:
    """The summary PDF as deterministic bytes: one page up to about forty units, then a
    second page continuing the unit table (never a smaller print)."""
    st.take_unprintable()  # the warning names what this document could not print
    size = paper_size(paper)
    buffer = io.BytesIO()
    doc = make_doc(buffer, size, title=f"{summary.title} (summary)", subject=f"tournament summary, fingerprint {summary.fingerprint}")
    status, colour = footer_status(summary.legal, summary.limit_note)
    left = " · ".join(x for x in (summary.occasion, summary.title, "summary") if x)
    doc.build(summary_story(summary, doc.width, _size_that_fits(summary, doc.width, doc.height)), canvasmaker=numbered_canvas(left, f"Fingerprint {summary.fingerprint}" if summary.fingerprint else "", status, colour, continued=f"{summary.title} · summary, continued"))
    return buffer.getvalue()


def write_summary(summary: Summary, out: Path, paper: str = "A4") -> None:
    atomic_write_bytes(out, render_summary(summary, paper))
