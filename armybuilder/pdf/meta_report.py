"""The meta matrix report: a heat map of win rates, as a PDF and as a PNG.

One drawing, two surfaces: :func:`draw_figure` lays the figure out on a small
painter interface (rectangles and text, y growing downwards, in points), and a
ReportLab painter and a Pillow painter render it.  So the PDF an organiser
prints and the PNG they post to the club's chat show the same figure.

The figure: rows ranked by the list's mean win rate against the field (best on
top); in an every-list-against-every-list matrix the columns follow the same
order.  Cell (row, column) is the row list's win rate playing first against the
column list (a draw counts half), red below 50 %, green above.  Right of each
row: the list's mean win rate against the field with its Wilson 95 % interval.
The PDF's second page lists the standings with names and wins/draws/losses, and
the lists left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.meta.matrix import MetaMatrix

RGB = tuple[int, int, int]
INK: RGB = (29, 29, 31)
MUTED: RGB = (95, 99, 104)
GRID: RGB = (255, 255, 255)
EMPTY: RGB = (225, 225, 225)
LOW: RGB = (192, 20, 27)
MID: RGB = (247, 245, 242)
HIGH: RGB = (30, 107, 52)

MIN_CELL = 12.0  # points: below this the page grows instead of the cells shrinking
MAX_CELL = 30.0
MAX_LABEL = 28  # characters of a list label


def rate_colour(rate: float | None) -> RGB:
    """Diverging scale: red at 0 %, near-white at 50 %, green at 100 %."""
    if rate is None:
        return EMPTY
    if rate < 0.5:
        t, a, b = rate / 0.5, LOW, MID
    else:
        t, a, b = (rate - 0.5) / 0.5, MID, HIGH
    return tuple(round(a[k] + (b[k] - a[k]) * t) for k in range(3))  # type: ignore[return-value]


def _short(text: str, limit: int = MAX_LABEL) -> str:
    text = "".join(ch for ch in text if ch.isprintable())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    font: float
    left: float  # x of the first column
    top: float  # y of the first row
    label_w: float
    header_h: float
    mean_w: float


MARGIN = 28.0
EXPLAIN = ("cell: win rate (%) of the row list playing first against the column list, a draw counting half; "
           "right: mean against the field (95 % Wilson interval); rows ranked")
TITLE_H = 46.0
LEGEND_H = 34.0


def layout(matrix: MetaMatrix, measure: Painter, page: tuple[float, float] = (842.0, 595.0)) -> Layout:
    """Cells as large as the page allows (up to MAX_CELL), the page larger when they would shrink below MIN_CELL."""
    rows, cols = len(matrix.rows), len(matrix.cols)
    font = 8.0
    label_w = max(measure.width(f"{i + 1}. {_short(x.label)}", font) for i, x in enumerate(matrix.rows)) + 6
    header_h = max(measure.width(_short(x.label), font) for x in matrix.cols) + 8
    mean_w = measure.width("100 %  (100–100)", font, bold=True) + 10
    free_w = page[0] - 2 * MARGIN - label_w - mean_w
    free_h = page[1] - 2 * MARGIN - TITLE_H - header_h - LEGEND_H
    cell = max(MIN_CELL, min(MAX_CELL, free_w / cols, free_h / rows))
    tight_w = max(2 * MARGIN + label_w + mean_w + cell * cols, 2 * MARGIN + max(measure.width(_subtitle(matrix), 8.5), measure.width(EXPLAIN, 7.5)))
    tight_h = 2 * MARGIN + TITLE_H + header_h + LEGEND_H + cell * rows
    page_w, page_h = max(page[0], tight_w), max(page[1], tight_h)
    font = min(8.0, max(5.0, cell * 0.6))
    return Layout(page_w, page_h, tight_w, tight_h, cell, font, MARGIN + label_w, MARGIN + TITLE_H + header_h, label_w, header_h, mean_w)


def _subtitle(matrix: MetaMatrix) -> str:
    against = "every list against every list" if matrix.square else f"{len(matrix.rows)} lists against a field of {len(matrix.cols)}"
    status = "" if matrix.complete else "  — INCOMPLETE: some pairings have fewer games (run again with --resume)"
    return f"{against}: {len(matrix.cells)} pairings × {matrix.games:,} game{'s' if matrix.games != 1 else ''}, seed {matrix.seed}{status}"


def _system_name(system_id: str) -> str:
    from armybuilder.core.registry import get_system

    return get_system(system_id).name


def draw_figure(p: Painter, matrix: MetaMatrix, g: Layout) -> None:
    standings = matrix.standings()
    order = [s.index for s in standings]
    col_order = order if matrix.square else list(range(len(matrix.cols)))
    p.text(MARGIN, MARGIN + 14, f"Meta matrix — {_system_name(matrix.system)}, catalogue {matrix.catalogue}", 15, bold=True)
    p.text(MARGIN, MARGIN + 30, _subtitle(matrix), 8.5, MUTED)
    p.text(MARGIN, MARGIN + 41, EXPLAIN, 7.5, MUTED)
    c, f = g.cell, g.font
    for col, j in enumerate(col_order):
        x = g.left + col * c + c / 2 + f * 0.35
        p.vtext(x, g.top - 4, _short(matrix.cols[j].label), f, INK)
    for row, s in enumerate(standings):
        i = s.index
        y = g.top + row * c
        p.text(g.left - 4, y + c / 2 + f * 0.35, f"{s.rank}. {_short(matrix.rows[i].label)}", f, INK, anchor="end")
        for col, j in enumerate(col_order):
            t = matrix.cell(i, j)
            x = g.left + col * c
            if t is None:  # a list against itself
                p.rect(x, y, c, c, (250, 250, 250))
                continue
            rate = t.rate
            p.rect(x + 0.5, y + 0.5, c - 1, c - 1, rate_colour(rate))
            if c >= 14:
                strong = rate is not None and abs(rate - 0.5) > 0.3
                p.text(x + c / 2, y + c / 2 + f * 0.35, _pct(rate), f, (255, 255, 255) if strong else INK, anchor="middle")
        low, high = s.tally.interval
        mean = f"{_pct(s.tally.rate)} %  ({low * 100:.0f}–{high * 100:.0f})"
        p.text(g.left + len(col_order) * c + 8, y + c / 2 + f * 0.35, mean, f, INK, bold=True)
    # the colour scale
    y = g.top + len(order) * c + 12
    for k in range(11):
        p.rect(g.left + k * 22, y, 22, 9, rate_colour(k / 10))
        if k % 5 == 0:
            p.text(g.left + k * 22 + 11, y + 19, f"{k * 10} %", 7, MUTED, anchor="middle")
    if matrix.left_out:
        p.text(g.left + 11 * 22 + 16, y + 8, f"{len(matrix.left_out)} list(s) left out (illegal or unreadable): see the report's second page or the JSON", 7.5, MUTED)


# --------------------------------------------------------------------------- PDF


class _PdfPainter:
    def __init__(self, canvas, page_h: float) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        from . import styles as st

        st.register_fonts()
        self.c, self.h, self._sw = canvas, page_h, stringWidth
        self.fonts = (st.FONT, st.FONT_BOLD)

    def _font(self, bold: bool) -> str:
        return self.fonts[1] if bold else self.fonts[0]

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB) -> None:
        self.c.setFillColorRGB(*(v / 255 for v in fill))
        self.c.rect(x, self.h - y - h, w, h, stroke=0, fill=1)

    def text(self, x: float, y: float, s: str, size: float, colour: RGB = INK, bold: bool = False, anchor: str = "start") -> None:
        from .styles import plain

        self.c.setFillColorRGB(*(v / 255 for v in colour))
        self.c.setFont(self._font(bold), size)
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

    def width(self, s: str, size: float, bold: bool = False) -> float:
        return self._sw(s, self._font(bold), size)


def _standings_page(canvas, matrix: MetaMatrix) -> None:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import Frame, Paragraph, Spacer, Table

    from .styles import FONT_BOLD, HEADER_FILL, ZEBRA, Styles, esc, table_style

    styles = Styles(8.5)
    canvas.setPageSize(A4)
    rows = [["#", "List", "Name", "Win rate", "95 % interval", "Games", "W / D / L"]]
    for s in matrix.standings():
        item = matrix.rows[s.index]
        low, high = s.tally.interval
        t = s.tally
        rows.append([str(s.rank), Paragraph(esc(item.label), styles.body), Paragraph(esc(item.name), styles.body),
                     "–" if t.rate is None else f"{t.rate:.1%}", f"{low:.1%} – {high:.1%}", f"{t.games:,}", f"{t.wins} / {t.draws} / {t.losses}"])
    story = [Paragraph("Standings against the field", styles.h1),
             Paragraph(esc("Every game a list played counts (in a square matrix both as first and as second list); "
                           "a draw counts half. JSON and CSV beside this report hold every pairing."), styles.note),
             Table(rows, colWidths=[22, 120, 140, 50, 80, 45, 70], repeatRows=1, style=table_style([
                 ("FONTSIZE", (0, 0), (-1, -1), 8), ("FONTNAME", (0, 0), (-1, 0), FONT_BOLD),
                 ("TEXTCOLOR", (0, 0), (-1, 0), colors.white), ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
                 ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))]
    if matrix.left_out:
        story += [Spacer(1, 10), Paragraph("Left out", styles.h1)]
        story += [Paragraph(esc(f"{x.path}: {x.reason}"), styles.body) for x in matrix.left_out]
    width, height = A4
    frame = Frame(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    while story:
        frame.addFromList(story, canvas)
        canvas.showPage()
        canvas.setPageSize(A4)
        frame = Frame(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)


def write_meta_pdf(matrix: MetaMatrix, out: Path) -> None:
    """Page 1: the heat map (landscape, larger when needed); then the standings."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    probe = _PdfPainter(Canvas(io.BytesIO()), 0)
    g = layout(matrix, probe)
    canvas = Canvas(buffer, pagesize=(g.page_w, g.page_h), invariant=1)
    canvas.setTitle(f"Meta matrix — {matrix.system}")
    canvas.setAuthor("armybuilder")
    draw_figure(_PdfPainter(canvas, g.page_h), matrix, g)
    canvas.showPage()
    _standings_page(canvas, matrix)
    canvas.save()
    atomic_write_bytes(out, buffer.getvalue())


# --------------------------------------------------------------------------- PNG


class _PngPainter:
    def __init__(self, scale: float) -> None:
        from PIL import ImageFont

        self.scale = scale
        folder = resources.files("armybuilder.pdf") / "fonts"
        self._files = {False: folder / "DejaVuSans.ttf", True: folder / "DejaVuSans-Bold.ttf"}
        self._cache: dict[tuple[bool, int], ImageFont.FreeTypeFont] = {}
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
        self.draw.text((x * self.scale, y * self.scale), s, fill=colour, font=self.font(size, bold), anchor=a)

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
    """The heat map as a PNG (2 pixels per point: sharp on a phone, small enough to share)."""
    import io

    painter = _PngPainter(scale)
    g = layout(matrix, painter)
    painter.start(g.tight_w, g.tight_h)
    draw_figure(painter, matrix, g)
    buffer = io.BytesIO()
    painter.image.save(buffer, format="PNG", optimize=True)
    atomic_write_bytes(out, buffer.getvalue())
