"""Layout shared by the roster and the sheets: document, footer, neutral blocks → flowables.

The game systems hand over neutral blocks (``core.system``: Heading, Paragraph,
KeyValues, Table); this module turns them into ReportLab flowables that split across
pages instead of failing: every cell is a wrapping Paragraph, tables repeat their
header row and may split inside a row (``splitInRow``), long words break
(``splitLongWords``), and every piece of text goes through :func:`styles.esc`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Spacer,
)
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.system import Block, Heading, KeyValues, Paragraph, Table

from . import styles as st
from .styles import Styles, esc, plain, table_style

# --------------------------------------------------------------------------- document

#: the page footer's print size and its baseline above the page's lower edge: 8 mm keeps the
#: footer clear of what printers cannot print, on card pages too
FOOTER_SIZE = 8.0
FOOTER_BASE = 8 * mm


def numbered_canvas(
    footer_left: str, footer_right: str, status: str = "", status_colour: colors.Color | None = None, continued: str = ""
) -> type[rl_canvas.Canvas]:
    """A canvas class that draws "page N of M" footers once the page count is known.

    Pages are kept until :meth:`save`, then each gets its footer; this is the usual
    ReportLab recipe and avoids building the document twice.  ``status`` (e.g.
    "NOT LEGAL") is printed at the start of every footer, in red unless
    ``status_colour`` says otherwise: pages get separated, and a page of an illegal
    list must say so on its own.  ``continued``, when given, heads every page after the
    first (a second page of a summary says what it continues).
    """

    class NumberedCanvas(rl_canvas.Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            st.register_fonts()
            # no Helvetica anywhere: the page's initial font is the bundled one too
            kwargs["initialFontName"] = kwargs.get("initialFontName") or st.FONT
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []
            self.ab_cards_page = False

        def showPage(self) -> None:  # noqa: N802 - ReportLab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()
            self.ab_cards_page = False

        def save(self) -> None:
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                self._draw_footer(total)
                super().showPage()
            super().save()

        def _draw_footer(self, total: int) -> None:
            width, _ = self._pagesize
            cards = bool(getattr(self, "ab_cards_page", False))
            base = FOOTER_BASE  # clear of the edge printers do not print (card pages too)
            margin = st.MARGIN
            size = FOOTER_SIZE
            self.saveState()
            if not cards:
                self.setStrokeColor(st.RULE)
                self.setLineWidth(0.5)
                self.line(margin, base + 3.6 * mm, width - margin, base + 3.6 * mm)
            # right: page and fingerprint; left: status, then whose list (cut first when long)
            page = f"Page {self._pageNumber} of {total}"
            right_w = stringWidth(page, st.FONT, size)
            if footer_right:
                self.setFont(st.FONT_BOLD, size)
                self.setFillColor(st.INK)
                shown = fit_text(footer_right, st.FONT_BOLD, size, width / 2 - margin)
                self.drawRightString(width - margin, base, shown)
                right_w += stringWidth(shown, st.FONT_BOLD, size) + 4 * mm
            self.setFillColor(st.MUTED)
            self.setFont(st.FONT, size)
            self.drawRightString(width - margin - (right_w - stringWidth(page, st.FONT, size)), base, page)
            side = width - 2 * margin - right_w - 5 * mm
            left = margin
            if status:
                self.setFont(st.FONT_BOLD, size)
                self.setFillColor(status_colour or st.ERROR)
                self.drawString(left, base, status)
                left += stringWidth(status, st.FONT_BOLD, size) + 2 * mm
                side -= stringWidth(status, st.FONT_BOLD, size) + 2 * mm
            self.setFillColor(st.MUTED)
            st.draw_string(self, left, base, fit_text(footer_left, st.FONT, size, max(side, 10)), st.FONT, size)
            if continued and self._pageNumber > 1 and not cards:
                _, height = self._pagesize
                self.setFillColor(st.INK)
                top = height - st.MARGIN + 3 * mm
                st.draw_string(self, margin, top, fit_text(continued, st.FONT_BOLD, size, width - 2 * margin), st.FONT_BOLD, size)
            self.restoreState()

    return NumberedCanvas


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` points on one line."""
    st.register_fonts()  # callable before any document is built (the font must be known to measure)
    text = plain(text[:2000])  # nothing longer fits on one printed line; measuring more costs seconds
    if stringWidth(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid] + "…", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def make_doc(out: Path | BinaryIO, page_size: tuple[float, float], *, title: str, subject: str) -> BaseDocTemplate:
    """A deterministic document (``invariant=1``) with a body template and a cards template."""
    width, height = page_size
    doc = BaseDocTemplate(
        out if not isinstance(out, (str, Path)) else str(out),
        pagesize=page_size,
        leftMargin=st.MARGIN,
        rightMargin=st.MARGIN,
        topMargin=st.MARGIN,
        bottomMargin=st.MARGIN + st.FOOTER_GAP,
        title=st.clean(title),
        author="armybuilder",
        subject=st.clean(subject),
        creator="armybuilder",
        producer="armybuilder (ReportLab)",
        invariant=1,
    )
    body = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    full = Frame(0, 0, width, height, id="full", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="body", frames=[body], pagesize=page_size), PageTemplate(id="cards", frames=[full], pagesize=page_size)])
    return doc


# --------------------------------------------------------------------------- text


class Para(RLParagraph):
    """A Paragraph that remembers its line breaks for the last width it was wrapped at.

    ReportLab wraps every cell of a table again at each page the table is split
    over, and line breaking is the costly part; the result depends only on the width,
    so re-wrapping at the same width reuses it.  Together with :func:`styles.chunks`
    this keeps printing linear in the length of the text.
    """

    _ab_wrapped: tuple[float, float, float] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        memo = self._ab_wrapped
        if memo is not None and memo[0] == availWidth and "blPara" in self.__dict__:
            self.width, self.height = memo[1], memo[2]
            return memo[1], memo[2]
        w, h = super().wrap(availWidth, availHeight)
        self._ab_wrapped = (availWidth, w, h)
        return w, h


def paras(text: object, style, prefix: str = "") -> list[Flowable]:
    """``text`` (plain, escaped here) as one Paragraph, or several for a very long text.

    ``prefix`` is markup put before the first piece (a bold heading, a tag).  See
    :func:`styles.chunks` for why long texts become several paragraphs: it keeps
    line breaking linear in the text's length.  Pieces after the first have no space
    before them and all but the last none after, so they read as one paragraph.
    """
    pieces = st.chunks(str(text))
    if len(pieces) == 1:
        return [Para(prefix + esc(pieces[0]), style)]
    inner = style.clone(style.name + "_piece", spaceBefore=0, spaceAfter=0)
    last = style.clone(style.name + "_last", spaceBefore=0)
    first = style.clone(style.name + "_first", spaceAfter=0)
    out: list[Flowable] = []
    for i, piece in enumerate(pieces):
        s = first if i == 0 else (last if i == len(pieces) - 1 else inner)
        out.append(Para((prefix if i == 0 else "") + esc(piece), s))
    return out


def cell(text: object, style, prefix: str = "") -> Flowable | list[Flowable]:
    """A table cell's content: one Paragraph, or a list of them for a very long text."""
    out = paras(text, style, prefix)
    return out[0] if len(out) == 1 else out


# --------------------------------------------------------------------------- small flowables


class RuledHeading(Para):
    """A section heading with an accent rule under it."""

    def draw(self) -> None:
        super().draw()
        self.canv.saveState()
        self.canv.setStrokeColor(st.ACCENT)
        self.canv.setLineWidth(1.1)
        self.canv.line(0, -2.2, self.width, -2.2)
        self.canv.restoreState()

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        w, h = super().wrap(availWidth, availHeight)
        return w, h + 3


class IfRoom(Flowable):
    """Flowables printed only where they fit in what is left of the current page, else left
    out: for a note the reader finds elsewhere too (the roster's pointer to the glossary
    cards), which must never take a sheet of paper for itself."""

    def __init__(self, flowables: list[Flowable]) -> None:
        super().__init__()
        self.flowables = flowables
        self.fits = False

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        needed = sum(f.getSpaceBefore() + f.wrap(availWidth, availHeight)[1] + f.getSpaceAfter() for f in self.flowables)
        self.fits = needed <= availHeight
        self.width, self.height = availWidth, needed if self.fits else 0
        return self.width, self.height

    def draw(self) -> None:
        if not self.fits:
            return
        y = self.height
        for f in self.flowables:
            y -= f.getSpaceBefore()
            y -= f.wrap(self.width, self.height)[1]
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


def tag(label: str, colour: colors.Color) -> str:
    """Inline coloured tag markup, e.g. a PROVISIONAL badge inside a paragraph or cell."""
    return f'<font color="{colour.hexval()}"><b>{esc(label)}</b></font>'


def boxed(rows: list[list[Any]], width: float, *, border: colors.Color, fill: colors.Color, border_width: float = 1.2, header_fill: colors.Color | None = None, col_widths: Sequence[float] | None = None) -> RLTable:
    """A framed box made of table rows, so that a long box splits across pages by rows."""
    table = RLTable(rows, colWidths=list(col_widths) if col_widths else [width], repeatRows=1 if header_fill else 0, splitByRow=1, splitInRow=1, hAlign="LEFT")
    style = [
        ("FONTNAME", (0, 0), (-1, -1), st.FONT),  # for plain-string cells (spans)
        ("BOX", (0, 0), (-1, -1), border_width, border),
        ("BACKGROUND", (0, 0), (-1, -1), fill),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 6),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if header_fill is not None:
        style.append(("BACKGROUND", (0, 0), (-1, 0), header_fill))
    table.setStyle(table_style(style))
    return table


# --------------------------------------------------------------------------- column widths


def _text_widths(text: str, font: str, size: float) -> tuple[float, float]:
    """(width of the whole text on one line, width of its longest word)."""
    s = plain(text)
    whole = max((stringWidth(line, font, size) for line in s.split("\n")), default=0.0)
    longest = max((stringWidth(word, font, size) for word in s.split()), default=0.0)
    return whole, longest


def column_widths(columns: Sequence[str], rows: Sequence[Sequence[str]], total: float, styles: Styles, relative: Sequence[float] | None = None) -> list[float]:
    """Column widths summing to ``total`` that avoid breaking short words where possible.

    Every column gets at least the width of its longest word (capped, since a
    300-character word must break anyway); what is left goes to the columns in
    proportion to their natural width, or to the system's relative widths when given.
    """
    n = len(columns)
    if n == 0:
        return []
    pad = 6.0
    cell, head = styles.cell, styles.cell_head
    natural = [0.0] * n
    minimum = [0.0] * n
    for i, name in enumerate(columns):
        whole, longest = _text_widths(name, head.fontName, head.fontSize)
        natural[i], minimum[i] = whole + pad, longest + pad
    bold = styles.cell_bold
    for row in rows:
        for i in range(n):
            text = row[i] if i < len(row) else ""
            # the first column is set in bold when there are more than two (table_flowables)
            font = bold.fontName if i == 0 and n > 2 else cell.fontName
            whole, longest = _text_widths(text, font, cell.fontSize)
            natural[i] = max(natural[i], min(whole, total) + pad)
            minimum[i] = max(minimum[i], longest + pad)
    cap = max(total * 0.3, total / n)
    # never narrower than the padding plus a few characters (a zero-width cell never ends)
    floor = min(pad + 3 * cell.fontSize, total / n)
    minimum = [max(min(m, cap), floor) for m in minimum]
    natural = [max(nat, floor) for nat in natural]
    if sum(minimum) > total:  # too many columns: shrink evenly, words will break
        scale = total / sum(minimum)
        return [m * scale for m in minimum]
    if relative and len(relative) == n and sum(relative) > 0:
        widths = [total * r / sum(relative) for r in relative]
    else:
        slack = total - sum(minimum)
        extra = [max(nat - m, 0.0) for nat, m in zip(natural, minimum, strict=True)]
        if sum(extra) <= slack:  # everything fits on one line: share the rest evenly-ish
            widths = [m + e for m, e in zip(minimum, extra, strict=True)]
            rest = total - sum(widths)
            widths = [w + rest * w / sum(widths) for w in widths]
            return widths
        # narrow columns (labels, numbers) keep their text on one line when that leaves
        # the wide columns at least their minimum; the wide ones share the rest
        narrow = {i for i in range(n) if natural[i] <= total * 0.22}
        base = [natural[i] if i in narrow else minimum[i] for i in range(n)]
        if narrow and len(narrow) < n and sum(base) <= total:
            minimum = base
            slack = total - sum(minimum)
            extra = [0.0 if i in narrow else max(natural[i] - minimum[i], 0.0) for i in range(n)]
        widths = [m + slack * e / sum(extra) for m, e in zip(minimum, extra, strict=True)]
    # raise the columns under their minimum, taking from the columns with room to spare
    for _ in range(n):
        short = [i for i in range(n) if widths[i] < minimum[i] - 0.01]
        if not short:
            break
        need = sum(minimum[i] - widths[i] for i in short)
        spare = {i: widths[i] - minimum[i] for i in range(n) if i not in short and widths[i] > minimum[i]}
        room = sum(spare.values())
        if room <= 0:
            break
        take = min(need, room)
        for i in short:
            widths[i] = minimum[i] if take >= need else widths[i] + (minimum[i] - widths[i]) * take / need
        for i, s in spare.items():
            widths[i] -= take * s / room
    return widths


# --------------------------------------------------------------------------- blocks


def _is_compact(values: Iterable[str]) -> bool:
    vals = [v for v in values if v.strip()]
    return bool(vals) and all(len(v) <= 7 for v in vals)


#: a cell longer than this many characters may be taller than a page: its row may split
IN_ROW_SPLIT = 1500


def table_flowables(block: Table, styles: Styles, width: float) -> list[Flowable]:
    """A neutral Table as a title, a styled splittable table and its note."""
    out: list[Flowable] = []
    title = esc(block.title) if block.title else ""
    if block.provisional:
        title = (title + "  " if title else "") + tag("PROVISIONAL", st.PROVISIONAL)
    if title:
        out.append(RLParagraph(title, styles.h3))
    columns = tuple(block.columns)
    n = max([len(columns), *(len(r) for r in block.rows)]) if (columns or block.rows) else 0
    if n == 0:
        return out
    columns = columns + ("",) * (n - len(columns))
    rows = [tuple(r) + ("",) * (n - len(r)) for r in block.rows]
    most = max(2, int(width // (6 + 3 * styles.cell.fontSize)))
    if n > most:  # too many columns for the page: print them in bands, first column repeated
        out = out[:0]
        rel = block.widths if block.widths and len(block.widths) == n else None
        for k, start in enumerate(range(1, n, most - 1)):
            keep = [0, *range(start, min(start + most - 1, n))]
            part = Table(
                tuple(columns[i] for i in keep),
                tuple(tuple(r[i] for i in keep) for r in rows),
                title=(block.title + (" (continued)" if k else "")) if block.title else "",
                note=block.note if start + most - 1 >= n else "",
                provisional=block.provisional,
                widths=tuple(rel[i] for i in keep) if rel else None,
            )
            out += table_flowables(part, styles, width)
        return out
    widths = column_widths(columns, rows, width, styles, block.widths)
    centred = [i > 0 and _is_compact(r[i] for r in rows) for i in range(n)]
    data: list[list[Any]] = [
        [RLParagraph(esc(c), styles.cell_head_centre if centred[i] else styles.cell_head) for i, c in enumerate(columns)]
    ]
    for row in rows:
        data.append([cell(v, styles.cell_bold if i == 0 and n > 2 else (styles.cell_centre if centred[i] else styles.cell)) for i, v in enumerate(row)])
    if not rows:
        data.append([RLParagraph("—", styles.cell) for _ in range(n)])
    note_rows: list[tuple] = []
    long_note = len(block.note) > IN_ROW_SPLIT
    if block.note and not long_note:
        # the note is the table's last row, kept on the page of the row above it: a note
        # alone at the top of the next page would not say what it belongs to
        note_style = styles.cell.clone("table_note", fontName=st.FONT_ITALIC, textColor=st.PROVISIONAL if block.provisional else st.MUTED)
        note = paras(block.note, note_style)
        data.append([note] + [""] * (n - 1))
        last = len(data) - 1
        note_rows = [("SPAN", (0, last), (-1, last)), ("NOSPLIT", (0, last - 1), (-1, last)), ("BACKGROUND", (0, last), (-1, last), colors.white), ("LINEABOVE", (0, last), (-1, last), 0.5, st.RULE)]
    border = st.PROVISIONAL if block.provisional else st.RULE
    # rows split across pages only when one may be taller than a page (a huge text):
    # otherwise a row, and a note with the row above it, always print whole
    in_row = int(any(len(v) > IN_ROW_SPLIT for r in rows for v in r))
    table = RLTable(data, colWidths=widths, repeatRows=1, splitByRow=1, splitInRow=in_row, hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("BACKGROUND", (0, 0), (-1, 0), st.PROVISIONAL if block.provisional else st.HEADER_FILL),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, st.ZEBRA]),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("BOX", (0, 0), (-1, -1), 0.8 if block.provisional else 0.5, border),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                *note_rows,
            ]
        )
    )
    out.append(table)
    if long_note:  # a note that may be taller than a page follows the table as paragraphs
        note_style = styles.provisional if block.provisional else styles.note
        out += paras(block.note, note_style.clone("table_note", spaceBefore=2))
    out.append(Spacer(1, styles.base * 0.5))
    return out


#: words a system puts into a value that breaks a limit (core.organiser.total_text, shares)
ALARMS = ("OVER THE LIMIT", "OVER the cap", "true total is unknown")


def _alarming(value: str) -> bool:
    return any(a in value for a in ALARMS)


def _is_total(key: str) -> bool:
    return key.strip().lower().startswith("total")


def key_values_flowable(block: KeyValues, styles: Styles, width: float) -> Flowable:
    """Key/value pairs as a light two-column table (four columns when the pairs are short).

    A "Total…" pair is set in bold on its own shaded line, like the bottom line of
    an invoice: it is what an organiser checks first.
    """
    items = [(str(k), str(v)) for k, v in block.items]
    if not items:
        return Spacer(1, 0)
    key_w = min(max(stringWidth(plain(k), styles.key.fontName, styles.key.fontSize) for k, _ in items) + 10, width * 0.3)
    total_key = styles.key.clone("total_key", textColor=st.INK, fontSize=styles.base, leading=styles.base * 1.25)
    total_val = styles.cell_bold.clone("total_val", fontSize=styles.base, leading=styles.base * 1.25)
    short = all(len(k) + len(v) <= 40 for k, v in items) and len(items) >= 4 and not any(_is_total(k) for k, _ in items)
    rows: list[list[tuple[str, str]]] = [items[i : i + 2] for i in range(0, len(items), 2)] if short else [[kv] for kv in items]
    per_row = 2 if short else 1
    data = []
    emphasis: list[tuple] = []
    for r, pairs in enumerate(rows):
        pairs = pairs + [("", "")] * (per_row - len(pairs))
        total = any(_is_total(k) for k, _ in pairs)
        if total:
            emphasis += [("LINEABOVE", (0, r), (-1, r), 1.0, st.INK), ("BACKGROUND", (0, r), (-1, r), st.ACCENT_LIGHT)]
        alarm = styles.cell_bold.clone("alarm", textColor=st.ERROR)
        data.append(
            [x for k, v in pairs for x in (cell(k, total_key if total else styles.key), cell(v, alarm if _alarming(v) else (total_val if total else styles.cell)))]
        )
    widths = [key_w, (width - 2 * key_w) / 2] * 2 if short else [key_w, width - key_w]
    table = RLTable(data, colWidths=widths, splitByRow=1, splitInRow=1, hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                *emphasis,
            ]
        )
    )
    return table


def paragraph_flowable(block: Paragraph, styles: Styles) -> list[Flowable]:
    if block.style == "provisional":
        style = styles.provisional.clone("provisional_box", backColor=st.PROVISIONAL_FILL, borderPadding=(3, 4, 3, 4), spaceBefore=4, spaceAfter=7)
        return paras(block.text, style, tag("PROVISIONAL", st.PROVISIONAL) + " — ")
    if block.style == "warning":
        style = styles.warning.clone("warning_box", backColor=st.WARNING_FILL, borderPadding=(3, 4, 3, 4), spaceBefore=4, spaceAfter=7)
        return paras(block.text, style, "⚠ ")
    if block.style == "error":
        style = styles.error.clone("error_box", backColor=st.ERROR_FILL, borderPadding=(3, 4, 3, 4), spaceBefore=4, spaceAfter=7)
        return paras(block.text, style, "✖ ")
    return paras(block.text, styles.paragraph_style(block.style))


def heading_flowable(block: Heading, styles: Styles) -> list[Flowable]:
    if block.level <= 1:
        pieces = paras(block.text, styles.h1)
        pieces[-1] = RuledHeading(pieces[-1].text, pieces[-1].style)  # the rule goes under the last line
        return pieces
    if block.level == 2:
        style = styles.h2.clone("h2_bar", backColor=st.ACCENT_LIGHT, borderPadding=(2, 3, 2, 3), spaceBefore=styles.base * 1.0, spaceAfter=styles.base * 0.55)
        return paras(block.text, style)
    return paras(block.text, styles.h3)


#: a first item up to this tall moves to the next page with its heading
KEEP_LIMIT = 300.0
#: room a heading asks for below it when its first item is taller (a few table rows)
KEEP_ROOM = 70.0


#: paragraph styles that say something about the heading above them (a unit's errors): they
#: stay with the heading and move on with it to the block they introduce
_LEAD_STYLES = ("error", "warning")


def blocks_to_flowables(blocks: Iterable[Block], styles: Styles, width: float) -> list[Flowable]:
    """Lay out neutral blocks; a heading stays with what follows it (through the error and
    warning lines under it, down to the first table or text of its own)."""
    out: list[Flowable] = []
    pending: list[Flowable] = []
    for block in blocks:
        if isinstance(block, Heading):
            pending += heading_flowable(block, styles)
            continue
        if pending and isinstance(block, Paragraph) and block.style in _LEAD_STYLES:
            pending += paragraph_flowable(block, styles)
            continue
        if isinstance(block, Paragraph):
            items: list[Flowable] = paragraph_flowable(block, styles)
        elif isinstance(block, KeyValues):
            items = [key_values_flowable(block, styles, width), Spacer(1, styles.base * 0.5)]
        elif isinstance(block, Table):
            items = table_flowables(block, styles, width)
        else:  # an unknown block type from a newer system: print its text rather than fail
            items = [RLParagraph(esc(str(block)), styles.body)]
        if not items:  # e.g. a table without columns or rows: nothing to print
            continue
        if pending:
            # a heading never stays alone at a page foot: it moves with the first item when
            # that is small enough to move, else it asks for room for itself and a few lines
            first = items[0]
            _, first_h = first.wrap(width, 10_000)
            if first_h <= KEEP_LIMIT:
                out.append(KeepTogether([*pending, first]))
            else:
                heads = sum(h.wrap(width, 10_000)[1] + h.getSpaceBefore() + h.getSpaceAfter() for h in pending)
                out += [CondPageBreak(heads + KEEP_ROOM), *pending, first]
            out.extend(items[1:])
            pending = []
        else:
            out.extend(items)
    out.extend(pending)
    return out
