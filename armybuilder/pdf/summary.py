"""The one-page tournament summary as a PDF (``armybuilder export LIST --summary``).

Same content as :func:`armybuilder.core.summary.render_summary_text`: title and
fingerprint, the facts an organiser checks (player, event, round, catalogue,
program), the status, one row per unit with its cost, the army-wide choices and the
total.  It is meant to stay on one page: the unit table is set at 8 pt, which fits
about 45 one-line units on A4; a longer list is shrunk to the page (never below
5.5 pt), and only a list too long even for that continues on a second page.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, Spacer
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.core.summary import Summary

from . import styles as st
from .layout import make_doc, numbered_canvas, paras
from .styles import Styles, esc, paper_size, table_style

MIN_SCALE = 5.5 / 8


def _facts(summary: Summary, styles: Styles, width: float) -> Flowable:
    items = list(summary.facts)
    key_w = 22 * mm
    data = []
    for i in range(0, len(items), 2):
        pair = items[i : i + 2] + [("", "")] * (2 - len(items[i : i + 2]))
        data.append([x for k, v in pair for x in (RLParagraph(esc(k), styles.key), RLParagraph(esc(v), styles.cell))])
    half = width / 2 - key_w
    table = RLTable(data or [[""]], colWidths=[key_w, half, key_w, half] if data else [width], hAlign="LEFT")
    table.setStyle(table_style([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE), ("LEFTPADDING", (0, 0), (-1, -1), 2), ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
    return table


def _units(summary: Summary, styles: Styles, width: float) -> Flowable:
    head = [RLParagraph("#", styles.cell_head), RLParagraph(esc(summary.unit_word), styles.cell_head), RLParagraph("Cost", styles.cell_head)]
    flagged = styles.cell.clone("flagged", textColor=st.ERROR)
    rows: list[list[object]] = [head]
    for line in summary.lines:
        style = flagged if line.flagged else styles.cell
        rows.append([RLParagraph(("✖ " if line.flagged else "") + esc(line.number), style), paras(line.text, style), RLParagraph(esc(line.cost), style)])
    if not summary.lines:
        rows.append(["", RLParagraph(f"no {esc(summary.unit_word.lower())}", styles.note), ""])
    number_w, cost_w = 9 * mm, 24 * mm
    table = RLTable(rows, colWidths=[number_w, width - number_w - cost_w, cost_w], repeatRows=1, splitByRow=1, hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("BACKGROUND", (0, 0), (-1, 0), st.HEADER_FILL),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, st.ZEBRA]),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("BOX", (0, 0), (-1, -1), 0.5, st.RULE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 2.5),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def summary_story(summary: Summary, styles: Styles, width: float) -> list[Flowable]:
    title = styles.title.clone("summary_title", fontSize=styles.base * 2.0, leading=styles.base * 2.35)
    colour = st.OK if summary.legal else st.ERROR
    fill = st.OK_FILL if summary.legal else st.ERROR_FILL
    status = styles.banner.clone("summary_status", textColor=colour, backColor=fill, borderPadding=(2, 4, 2, 4), fontSize=styles.base * 1.15, leading=styles.base * 1.4)
    fp = styles.banner.clone("summary_fp", alignment=2)
    story: list[Flowable] = [
        *paras(summary.title or "Unnamed list", title),
        RLParagraph(f"Fingerprint {esc(summary.fingerprint or '-')}", fp),
        Spacer(1, 2 * mm),
        _facts(summary, styles, width),
        Spacer(1, 2.5 * mm),
        RLParagraph(("✔ " if summary.legal else "✖ ") + esc(summary.status) + " · Total " + esc(summary.total), status),
        Spacer(1, 3 * mm),
        _units(summary, styles, width),
        Spacer(1, 2.5 * mm),
    ]
    for key, value in summary.extras:
        story += paras(value, styles.body.clone("extra", spaceAfter=1), f"<b>{esc(key)}:</b> ")
    story.append(RLParagraph(f"<b>Total:</b> {esc(summary.total)}", styles.body.clone("summary_total", spaceBefore=3)))
    return story


def render_summary(summary: Summary, paper: str = "A4") -> bytes:
    """The summary PDF as deterministic bytes, on one page whenever the shrink allows."""
    st.take_unprintable()  # the warning names what this document could not print
    size = paper_size(paper)
    buffer = io.BytesIO()
    doc = make_doc(buffer, size, title=f"{summary.title} (summary)", subject=f"tournament summary, fingerprint {summary.fingerprint}")
    story = summary_story(summary, Styles(base=8.0), doc.width)
    # one page: shrink the whole story to the frame when it is a little too long; a list
    # so long that it would go under MIN_SCALE is left to run on (readable beats one page)
    needed = sum(f.wrap(doc.width, doc.height)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in story)
    if doc.height < needed <= doc.height / MIN_SCALE:
        story = [KeepInFrame(doc.width, doc.height, summary_story(summary, Styles(base=8.0), doc.width), mode="shrink")]
    status = "" if summary.legal else "✖ NOT LEGAL"
    doc.build(story, canvasmaker=numbered_canvas(f"{summary.title} · summary", f"Fingerprint {summary.fingerprint}" if summary.fingerprint else "", status))
    return buffer.getvalue()


def write_summary(summary: Summary, out: Path, paper: str = "A4") -> None:
    atomic_write_bytes(out, render_summary(summary, paper))
