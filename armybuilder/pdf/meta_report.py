"""The meta matrix report: the heat map of win rates (PDF page and PNG), and the PDF.

One drawing, two surfaces: :func:`draw_figure` lays the figure out on a small
painter interface (rectangles and text, y growing downwards, in points), and a
ReportLab painter and a Pillow painter render it.  So the PDF an organiser
prints and the PNG they post to the club's chat show the same figure.

The figure: rows ranked by the list's mean win rate against the field (best on
top), numbered by rank, with a short label that tells lists sharing a prefix
apart; in an every-list-against-every-list matrix the columns follow the same
order.  Cell (row, column) is the row list's win rate playing first against the
column list (a draw counts half), on a colour-blind-safe blue–orange ramp, with
its number when the cell is large enough to read it.  Lines mark the tiers (lists
clearly weaker than their tier's first list start the next).  Right of each row:
the list's mean against the field with its Wilson 95 % interval.

The cells are 12 to 30 points; a field too large for a landscape A4 page at 12
points gets a larger page, up to :data:`MAX_PAGE` points a side, beyond which the
cells shrink and carry colour only.  The PDF's later pages (``meta_pages``) hold
the standings with the legend (name, player, file), and why each list wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.meta.analysis import tiers
from armybuilder.meta.matrix import MetaMatrix
from armybuilder.meta.palette import INK, RGB, rate_colour, text_colour

MUTED: RGB = (95, 99, 104)
SELF: RGB = (250, 250, 250)
TIER_LINE: RGB = (29, 29, 31)

MIN_CELL = 12.0  # points: below this the page grows instead of the cells shrinking...
MAX_CELL = 30.0
MAX_PAGE = 2880.0  # ...up to 40 inches a side; larger fields shrink the cells
NUMBER_CELL = 11.0  # a cell at least this large carries its number
LABEL_CELL = 6.0  # columns at least this wide carry their label, else a number every few
#: the PNG's longest side at most this many pixels (2 pixels a point when it fits)
MAX_PNG_PIXELS = 5000


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}"


class Painter(Protocol):
    def rect(self, x: float, y: float, w: float, h: float, fill: RGB) -> None: ...
    def text(self, x: float, y: float, s: str, size: float, colour: RGB = INK, bold: bool = False, anchor: str = "start") -> None: ...
    def vtext(self, x: float, y: float, s: str, size: float, colour: RGB = INK) -> None:
        """Text read bottom-up, its start at (x, y) (y is the bottom end)."""
    def width(self, s: str, size: float, bold: bool = False) -> float: ...


@dataclass
class Layout:
    """Where everything goes, in points from the top-left corner."""

    page_w: float
    page_h: float
    tight_w: float  # the figure's own size (the PNG's), the page may be larger
    tight_h: float
    cell: float
    font: float  # labels
    number_font: float  # numbers in the cells (0: none)
    left: float  # x of the first column
    top: float  # y of the first row
    label_w: float
    header_h: float
    mean_w: float
    column_labels: bool  # vertical labels over the columns, else numbers every few columns


MARGIN = 28.0
TIER_W = 20.0  # the tier numbers' column, left of the row labels
TITLE_H = 58.0
LEGEND_H = 34.0


def explain(matrix: MetaMatrix) -> tuple[str, str]:
    return (
        "cell: win rate (%) of the row list playing first against the column list, a draw counting half; "
        "orange below 50 %, blue above; right: mean against the field (95 % Wilson interval)",
        "rows ranked, numbered by rank" + (" (so are the columns)" if matrix.square else "")
        + "; lines between tiers: a tier starts at the first list clearly weaker than the tier's first (interval wholly below, 5 points behind)",
    )


def _row_label(rank: int, short: str) -> str:
    return f"{rank}. {short}"


def _column_label(number: int, short: str) -> str:
    return f"{number} {short}"


def layout(matrix: MetaMatrix, measure: Painter, page: tuple[float, float] = (842.0, 595.0)) -> Layout:
    """Cells as large as the page allows (MIN_CELL to MAX_CELL), the page larger when they would
    shrink below MIN_CELL, up to MAX_PAGE a side; then the cells shrink."""
    rows, cols = len(matrix.rows), len(matrix.cols)
    labels = [_row_label(k + 1, x.short_label) for k, x in enumerate(matrix.rows)]
    col_labels = [_column_label(k + 1, x.short_label) for k, x in enumerate(matrix.cols)]

    def sizes(cell: float) -> tuple[float, float, float, float, bool]:
        font = min(8.0, max(3.0, cell * 0.7))
        label_w = max(measure.width(x, font) for x in labels) + 6 + TIER_W
        vertical = cell >= LABEL_CELL
        header_h = (max(measure.width(x, font) for x in col_labels) if vertical else font * 1.3) + 8
        mean_w = measure.width("100 %  (100–100)", font, bold=True) + 10
        return font, label_w, header_h, mean_w, vertical

    def fit(w: float, h: float) -> float:
        font, label_w, header_h, mean_w, _ = sizes(MIN_CELL)
        return min((w - 2 * MARGIN - label_w - mean_w) / cols, (h - 2 * MARGIN - TITLE_H - header_h - LEGEND_H) / rows)

    cell = min(MAX_CELL, fit(*page))
    if cell < MIN_CELL:
        cell = max(MIN_CELL, cell)
        _, label_w, header_h, mean_w, _ = sizes(cell)
        need_w = 2 * MARGIN + label_w + mean_w + cell * cols
        need_h = 2 * MARGIN + TITLE_H + header_h + LEGEND_H + cell * rows
        if max(need_w, need_h) > MAX_PAGE:
            # shrink to the largest page; a few rounds settle the label sizes, which follow the cell
            for _ in range(4):
                font, label_w, header_h, mean_w, _ = sizes(cell)
                cell = max(1.0, min((MAX_PAGE - 2 * MARGIN - label_w - mean_w) / cols,
                                    (MAX_PAGE - 2 * MARGIN - TITLE_H - header_h - LEGEND_H) / rows))
    font, label_w, header_h, mean_w, vertical = sizes(cell)
    texts = explain(matrix)
    text_w = max(measure.width(_subtitle(matrix), 8.5), *(measure.width(t, 7.5) for t in texts))
    tight_w = max(2 * MARGIN + label_w + mean_w + cell * cols, 2 * MARGIN + text_w)
    tight_h = 2 * MARGIN + TITLE_H + header_h + LEGEND_H + cell * rows
    page_w, page_h = max(page[0], tight_w), max(page[1], tight_h)
    # "100" (three digits of about 0.64 em) inside the cell with a point to spare on each side
    number_font = min(8.0, cell * 0.45, (cell - 2.5) / (3 * 0.64)) if cell >= NUMBER_CELL else 0.0
    return Layout(page_w, page_h, tight_w, tight_h, cell, font, number_font, MARGIN + label_w,
                  MARGIN + TITLE_H + header_h, label_w, header_h, mean_w, vertical)


def _subtitle(matrix: MetaMatrix) -> str:
    against = "every list against every list" if matrix.square else f"{len(matrix.rows)} lists against a field of {len(matrix.cols)}"
    status = "" if matrix.complete else "  — INCOMPLETE: some pairings have fewer games (run again with --resume)"
    return f"{against}: {len(matrix.cells):,} pairings × {matrix.games:,} game{'s' if matrix.games != 1 else ''}, seed {matrix.seed}{status}"


def _system_name(system_id: str) -> str:
    from armybuilder.core.registry import get_system

    return get_system(system_id).name


def draw_figure(p: Painter, matrix: MetaMatrix, g: Layout) -> None:
    standings = matrix.standings()
    tier_of = tiers(standings)
    order = [s.index for s in standings]
    col_order = order if matrix.square else list(range(len(matrix.cols)))
    number_of = {s.index: s.rank for s in standings} if matrix.square else {j: j + 1 for j in col_order}
    p.text(MARGIN, MARGIN + 14, f"Meta matrix — {_system_name(matrix.system)}, catalogue {matrix.catalogue}", 15, bold=True)
    p.text(MARGIN, MARGIN + 30, _subtitle(matrix), 8.5, MUTED)
    for k, line in enumerate(explain(matrix)):
        p.text(MARGIN, MARGIN + 41 + 10 * k, line, 7.5, MUTED)
    c, f = g.cell, g.font
    # column headings: the label read upwards, or a number every few columns
    every = 1 if g.column_labels else max(1, math.ceil(f * 2.2 / c))
    for col, j in enumerate(col_order):
        x = g.left + col * c + c / 2
        if g.column_labels:
            p.vtext(x + f * 0.35, g.top - 4, _column_label(number_of[j], matrix.cols[j].short_label), f, INK)
        elif col % every == 0:
            p.text(x, g.top - 4, str(number_of[j]), f, INK, anchor="middle")
    right = g.left + len(col_order) * c
    for row, s in enumerate(standings):
        i = s.index
        y = g.top + row * c
        base = y + c / 2 + f * 0.35
        if row == 0 or tier_of[row] != tier_of[row - 1]:
            p.text(MARGIN, base, f"T{tier_of[row]}", f, MUTED, bold=True)
        p.text(g.left - 4, base, _row_label(s.rank, matrix.rows[i].short_label), f, INK, anchor="end")
        for col, j in enumerate(col_order):
            t = matrix.cell(i, j)
            x = g.left + col * c
            if t is None:  # a list against itself
                p.rect(x, y, c, c, SELF)
                continue
            fill = rate_colour(t.rate)
            gap = 0.5 if c >= 4 else 0.0
            p.rect(x + gap, y + gap, c - 2 * gap, c - 2 * gap, fill)
            if g.number_font:
                p.text(x + c / 2, y + c / 2 + g.number_font * 0.35, _pct(t.rate), g.number_font, text_colour(fill), anchor="middle")
        low, high = s.tally.interval
        p.text(right + 8, base, f"{_pct(s.tally.rate)} %  ({low * 100:.0f}–{high * 100:.0f})", f, INK, bold=True)
    # tier lines across the rows (and down the columns of a square matrix)
    width = max(0.6, min(1.5, c / 10))
    for row in range(1, len(standings)):
        if tier_of[row] != tier_of[row - 1]:
            p.rect(MARGIN, g.top + row * c - width / 2, right - MARGIN, width, TIER_LINE)
            if matrix.square:
                p.rect(g.left + row * c - width / 2, g.top, width, c * len(standings), TIER_LINE)
    # the colour scale
    y = g.top + len(order) * c + 12
    for k in range(11):
        p.rect(g.left + k * 22, y, 22, 9, rate_colour(k / 10))
        if k % 5 == 0:
            p.text(g.left + k * 22 + 11, y + 19, f"{k * 10} %", 7, MUTED, anchor="middle")
    note = "" if g.number_font else "cells too small for their numbers: the JSON, CSV and HTML page have them; "
    if matrix.left_out:
        note += f"{len(matrix.left_out)} list(s) left out (illegal or unreadable): see the standings pages or the JSON"
    if note:
        p.text(g.left + 11 * 22 + 16, y + 8, note.rstrip("; "), 7.5, MUTED)


# --------------------------------------------------------------------------- PDF


class _PdfPainter:
    def __init__(self, canvas, page_h: float) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        from . import styles as st

        st.register_fonts()
        self.c, self.h, self._sw = canvas, page_h, stringWidth
        self.fonts = (st.FONT, st.FONT_BOLD)
        self._fill: RGB | None = None  # the canvas's state, so a large field's cells repeat no operator
        self._font_now: tuple[str, float] | None = None

    def _font(self, bold: bool) -> str:
        return self.fonts[1] if bold else self.fonts[0]

    def _set_fill(self, fill: RGB) -> None:
        if fill != self._fill:
            self._fill = fill
            self.c.setFillColorRGB(*(v / 255 for v in fill))

    def _set_font(self, font: str, size: float) -> None:
        if (font, size) != self._font_now:
            self._font_now = (font, size)
            self.c.setFont(font, size)

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB) -> None:
        self._set_fill(fill)
        self.c.rect(x, self.h - y - h, w, h, stroke=0, fill=1)

    def text(self, x: float, y: float, s: str, size: float, colour: RGB = INK, bold: bool = False, anchor: str = "start") -> None:
        from .styles import plain

        self._set_fill(colour)
        self._set_font(self._font(bold), size)
        draw = {"start": self.c.drawString, "middle": self.c.drawCentredString, "end": self.c.drawRightString}[anchor]
        draw(x, self.h - y, plain(s))

    def vtext(self, x: float, y: float, s: str, size: float, colour: RGB = INK) -> None:
        from .styles import plain

        self.c.saveState()
        self.c.setFillColorRGB(*(v / 255 for v in colour))
        self.c.setFont(self.fonts[0], size)
        self.c.translate(x, self.h - y)
        self.c.rotate(90)
        self.c.drawString(0, 0, plain(s))
        self.c.restoreState()
        self._fill = self._font_now = None  # restoreState brought the earlier ones back

    def width(self, s: str, size: float, bold: bool = False) -> float:
        return self._sw(s, self._font(bold), size)


def write_meta_pdf(matrix: MetaMatrix, out: Path) -> None:
    """Page 1: the heat map (landscape, larger when needed); then the standings with the
    legend and why each list wins (landscape A4, long tables split across pages)."""
    import io

    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import (
        BaseDocTemplate,
        Frame,
        NextPageTemplate,
        PageBreak,
        PageTemplate,
        Spacer,
    )

    from .meta_pages import body_story

    buffer = io.BytesIO()
    g = layout(matrix, _PdfPainter(Canvas(io.BytesIO()), 0))
    body = landscape(A4)

    def heat_map(canvas, doc) -> None:
        draw_figure(_PdfPainter(canvas, g.page_h), matrix, g)

    def footer(canvas, doc) -> None:
        from .styles import FONT

        canvas.setFont(FONT, 7)
        canvas.setFillColorRGB(*(v / 255 for v in MUTED))
        canvas.drawRightString(body[0] - MARGIN, MARGIN / 2, f"meta matrix, seed {matrix.seed} — page {doc.page}")

    doc = BaseDocTemplate(buffer, pagesize=body, invariant=1, title=f"Meta matrix — {_system_name(matrix.system)}",
                          author="armybuilder", leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN)
    doc.addPageTemplates([
        PageTemplate("heatmap", [Frame(0, 0, g.page_w, g.page_h, id="figure")], onPage=heat_map, pagesize=(g.page_w, g.page_h)),
        PageTemplate("body", [Frame(MARGIN, MARGIN, body[0] - 2 * MARGIN, body[1] - 2 * MARGIN, id="body")], onPage=footer,
                     pagesize=body),
    ])
    doc.build([Spacer(1, 1), NextPageTemplate("body"), PageBreak(), *body_story(matrix, body[0] - 2 * MARGIN)])
    atomic_write_bytes(out, buffer.getvalue())


# --------------------------------------------------------------------------- PNG


class _PngPainter:
    def __init__(self, scale: float) -> None:
        from PIL import ImageFont

        self.scale = scale
        folder = resources.files("armybuilder.pdf") / "fonts"
        self._files = {False: folder / "DejaVuSans.ttf", True: folder / "DejaVuSans-Bold.ttf"}
        self._cache: dict[tuple[bool, int], ImageFont.FreeTypeFont] = {}
        self._masks: dict[tuple[str, int, bool, str], tuple[Any, int, int]] = {}  # the cells' numbers, drawn once each
        self.image: Any = None  # a PIL image and its drawing context, from start()
        self.draw: Any = None

    def font(self, size: float, bold: bool = False):
        from PIL import ImageFont

        key = (bold, max(1, round(size * self.scale)))
        if key not in self._cache:
            with resources.as_file(self._files[bold]) as path:
                self._cache[key] = ImageFont.truetype(str(path), key[1])
        return self._cache[key]

    def start(self, w: float, h: float) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", (round(w * self.scale), round(h * self.scale)), (255, 255, 255))
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB) -> None:
        s = self.scale
        self.draw.rectangle([round(x * s), round(y * s), round((x + w) * s) - 1, round((y + h) * s) - 1], fill=fill)

    def text(self, x: float, y: float, s: str, size: float, colour: RGB = INK, bold: bool = False, anchor: str = "start") -> None:
        a = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
        font = self.font(size, bold)
        if len(s) > 4:  # a label: drawn once anyway
            self.draw.text((x * self.scale, y * self.scale), s, fill=colour, font=font, anchor=a)
            return
        key = (s, font.size, bold, a)
        if key not in self._masks:
            from PIL import Image, ImageDraw

            left, top, right, bottom = font.getbbox(s, anchor=a)
            mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
            ImageDraw.Draw(mask).text((-left, -top), s, fill=255, font=font, anchor=a)
            self._masks[key] = (mask, left, top)
        mask, left, top = self._masks[key]
        self.image.paste(colour, (round(x * self.scale) + left, round(y * self.scale) + top), mask)

    def vtext(self, x: float, y: float, s: str, size: float, colour: RGB = INK) -> None:
        from PIL import Image, ImageDraw

        font = self.font(size)
        left, top, right, bottom = font.getbbox(s, anchor="ls")
        strip = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(strip).text((-left, -top), s, fill=255, font=font, anchor="ls")
        turned = strip.rotate(90, expand=True)
        # the baseline ends up at x; the text's start at y, growing upwards
        px, py = round(x * self.scale + top), round(y * self.scale - turned.height - left)
        self.image.paste(Image.new("RGB", turned.size, colour), (px, py), turned)

    def width(self, s: str, size: float, bold: bool = False) -> float:
        return self.font(size, bold).getlength(s) / self.scale


def write_meta_png(matrix: MetaMatrix, out: Path, scale: float = 2.0) -> None:
    """The heat map as a PNG (2 pixels per point: sharp on a phone, small enough to share;
    a large field's fewer, so the longest side stays under MAX_PNG_PIXELS)."""
    import io

    g = layout(matrix, _PngPainter(scale))
    scale = min(scale, MAX_PNG_PIXELS / max(g.tight_w, g.tight_h))
    painter = _PngPainter(scale)
    g = layout(matrix, painter)
    painter.start(g.tight_w, g.tight_h)
    draw_figure(painter, matrix, g)
    buffer = io.BytesIO()
    # optimize squeezes a few per cent more at many times the time: worth it for a small image only
    painter.image.save(buffer, format="PNG", optimize=painter.image.width * painter.image.height < 2_000_000)
    atomic_write_bytes(out, buffer.getvalue())
