"""Reference cards: poker-sized faces (63 × 88 mm), nine to a page, with cut marks.

Each :class:`~armybuilder.core.system.Card` becomes one face.  Its text is laid out
at the largest of a few font sizes that fits; when even the smallest does not, the
text continues on further faces titled "(2/3)" and so on, so nothing ever overflows
the card.  Faces abut so one straight cut separates two cards; the marks sit in the
margins on the cut lines.  On Letter paper the faces shrink slightly so that three
rows still fit with room for the marks and the footer.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.system import Card

from . import styles as st
from .layout import cell, paras
from .styles import Styles, esc, plain, table_style

CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3
MIN_MARGIN_X, MIN_MARGIN_Y = 10 * mm, 12 * mm
INSET = 1.6 * mm  # border drawn inside the cut line, so a slightly-off cut stays clean
PAD = 2.2 * mm  # text padding inside the border
SIZES = (8.0, 7.5, 7.0)  # body font sizes tried, largest first; never smaller (read at arm's length)
SMALL = 6.5  # the smallest print on a card: stat labels, kind, footer


@dataclass(frozen=True)
class Grid:
    """Where the faces go on one page."""

    card_w: float
    card_h: float
    x0: float
    y0: float  # bottom-left corner of the grid

    def origin(self, index: int) -> tuple[float, float]:
        col, row = index % COLS, index // COLS
        return self.x0 + col * self.card_w, self.y0 + (ROWS - 1 - row) * self.card_h


def grid_for(page_size: tuple[float, float]) -> Grid:
    width, height = page_size
    scale = min(1.0, (width - 2 * MIN_MARGIN_X) / (COLS * CARD_W), (height - 2 * MIN_MARGIN_Y) / (ROWS * CARD_H))
    w, h = CARD_W * scale, CARD_H * scale
    return Grid(w, h, (width - COLS * w) / 2, (height - ROWS * h) / 2)


# --------------------------------------------------------------------------- face layout


@dataclass
class Face:
    card: Card
    size: float
    header: list[Flowable]  # title band content (drawn white on the kind colour)
    body: list[Flowable]
    band_h: float
    part: int = 1
    parts: int = 1


def _colour(kind: str) -> colors.Color:
    """The band colour of a kind; unknown kinds (other systems) get a stable palette colour."""
    key = kind.strip().lower()
    if key in st.KIND_COLOURS:
        return st.KIND_COLOURS[key]
    digest = hashlib.sha1(key.encode("utf-8")).digest()  # stable across runs, unlike hash()
    return st.PALETTE[digest[0] % len(st.PALETTE)]


def _card_styles(size: float) -> Styles:
    return Styles(base=size)


def _title_paragraph(card: Card, styles: Styles, width: float, suffix: str = "") -> tuple[RLParagraph, float]:
    title_style = styles.h2.clone("card_title", textColor=colors.white, fontSize=styles.base * 1.45, leading=styles.base * 1.65, spaceBefore=0, spaceAfter=0, keepWithNext=0)
    text = plain(card.title) or "Untitled"
    if len(text) > 140:  # four lines at most fit in the band; cut before measuring
        text = text[:139] + "…"
    para = RLParagraph(esc(text) + suffix, title_style)
    _, h = para.wrap(width, 10_000)
    limit = title_style.leading * 4
    if h > limit:  # an absurdly long title: keep the first lines, never the whole card
        while len(text) > 8 and h > limit:
            text = text[: int(len(text) * 0.8)]
            para = RLParagraph(esc(text.rstrip("…")) + "…" + suffix, title_style)
            _, h = para.wrap(width, 10_000)
    return para, h


def _stats_flowable(stats: tuple[tuple[str, str], ...], styles: Styles, width: float) -> Flowable | None:
    if not stats:
        return None
    small = max(styles.base * 0.85, SMALL)
    label = styles.cell_head_centre.clone("stat_label", textColor=st.MUTED, fontSize=small, leading=small * 1.15)
    value = styles.cell_centre.clone("stat_value", fontName=st.FONT_BOLD, fontSize=styles.base * 1.05, leading=styles.base * 1.2)
    n = len(stats)
    label_1pt = max(stringWidth(plain(k), label.fontName, 1) for k, _ in stats)
    value_1pt = max(stringWidth(plain(v), value.fontName, 1) for _, v in stats)
    cols = min(n, 6)
    if n > 6:  # balance the rows: 10 stats → 5 + 5
        cols = math.ceil(n / math.ceil(n / 6))
    while cols > 1:
        room = width / cols - 2.5
        if value_1pt * value.fontSize <= room and label_1pt * label.fontSize <= room:
            break
        cols -= 1
    room = width / cols - 2.5
    if (cols >= 3 or cols == n) and value_1pt * value.fontSize <= room and label_1pt * label.fontSize <= room:
        rows_needed = math.ceil(n / cols)
        cols = math.ceil(n / rows_needed)
        data: list[list[object]] = []
        style: list[tuple] = []
        for r in range(rows_needed):
            chunk = list(stats[r * cols : (r + 1) * cols])
            chunk += [("", "")] * (cols - len(chunk))
            data.append([RLParagraph(esc(k), label) for k, _ in chunk])
            data.append([RLParagraph(esc(v), value) for _, v in chunk])
            style.append(("BACKGROUND", (0, 2 * r), (-1, 2 * r), st.ZEBRA))
        table = RLTable(data, colWidths=[width / cols] * cols, hAlign="LEFT")
        style += [
            ("BOX", (0, 0), (-1, -1), 0.5, st.RULE),
            ("INNERGRID", (0, 0), (-1, -1), 0.25, st.RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), 1),
            ("RIGHTPADDING", (0, 0), (-1, -1), 1),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ]
        table.setStyle(table_style(style))
        return table
    # long values: one "label | value" line per stat
    key = styles.key.clone("stat_key", fontSize=max(styles.base * 0.85, SMALL))
    key_w = min(max(stringWidth(plain(k), key.fontName, key.fontSize) for k, _ in stats) + 6, width * 0.4)
    data = [[cell(k, key), cell(v, styles.cell)] for k, v in stats]
    table = RLTable(data, colWidths=[key_w, width - key_w], hAlign="LEFT", splitByRow=1, splitInRow=1)
    table.setStyle(
        table_style(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 1),
                ("RIGHTPADDING", (0, 0), (-1, -1), 1),
                ("TOPPADDING", (0, 0), (-1, -1), 0.8),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _body(card: Card, styles: Styles, width: float) -> list[Flowable]:
    out: list[Flowable] = []
    text_style = styles.body.clone("card_text", spaceAfter=styles.base * 0.35)
    if card.subtitle:
        out.append(RLParagraph(esc(card.subtitle), styles.note.clone("card_sub", spaceAfter=styles.base * 0.4)))
    stats = _stats_flowable(card.stats, styles, width)
    if stats is not None:
        out.append(stats)
        out.append(_Gap(styles.base * 0.5))
    for heading, body in card.text:
        head = f"<b>{esc(heading)}.</b> " if heading else ""
        out += paras(body, text_style, head)
    return out


class _Gap(Flowable):
    """Vertical space that, unlike Spacer, is dropped at a split instead of overflowing."""

    def __init__(self, height: float):
        super().__init__()
        self.height = height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return 0, min(self.height, max(availHeight, 0))

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        return []

    def draw(self) -> None:
        return None


def _footer_height(card: Card, styles: Styles) -> float:
    return max(styles.base * 0.78, SMALL) * 1.6 + 2 if card.footer or card.provisional else 0.0


def _measure(flowables: list[Flowable], width: float) -> float:
    total = 0.0
    for f in flowables:
        _, h = f.wrap(width, 10_000)
        total += h + f.getSpaceBefore() + f.getSpaceAfter()
    return total


def _split_pages(flowables: list[Flowable], width: float, height: float) -> list[list[Flowable]]:
    """Cut a too-long body into face-sized pieces (paragraphs and tables split by line/row)."""
    pages: list[list[Flowable]] = []
    queue = list(flowables)
    current: list[Flowable] = []
    room = height
    guard = 0
    while queue:
        guard += 1
        if guard > 10_000:  # defensive: never loop forever on a flowable that cannot shrink
            break
        f = queue.pop(0)
        _, h = f.wrap(width, room)
        need = h + (f.getSpaceBefore() if current else 0) + f.getSpaceAfter()
        if need <= room + 0.01:
            current.append(f)
            room -= need
            continue
        parts = f.split(width, room - (f.getSpaceBefore() if current else 0)) if room > 10 else []
        if len(parts) >= 2:
            current.append(parts[0])
            queue[0:0] = parts[1:]
            pages.append(current)
            current, room = [], height
            continue
        if current:  # start a fresh face and try again there
            queue.insert(0, f)
            pages.append(current)
            current, room = [], height
            continue
        # alone on an empty face and still too big (an unsplittable block): shrink it to fit
        current.append(KeepInFrame(width, height, [f], mode="shrink"))
        pages.append(current)
        current, room = [], height
    if current or not pages:
        pages.append(current)
    return pages


def layout_faces(card: Card, grid: Grid) -> list[Face]:
    """The faces one card needs: one at the largest size that fits, else several."""
    inner_w = grid.card_w - 2 * (INSET + PAD)
    inner_h = grid.card_h - 2 * (INSET + PAD)
    for size in SIZES:
        styles = _card_styles(size)
        title, title_h = _title_paragraph(card, styles, inner_w)
        band_h = title_h + styles.base * 1.3 + 2 * PAD * 0.7
        avail = inner_h - band_h - _footer_height(card, styles) - PAD * 0.5
        body = _body(card, styles, inner_w)
        if _measure(body, inner_w) <= avail:
            return [Face(card, size, [title], body, band_h)]
    # smallest size, split over several faces; the band carries "(k/n)"
    styles = _card_styles(SIZES[-1])
    _, title_h = _title_paragraph(card, styles, inner_w, suffix=" (9/9)")
    band_h = title_h + styles.base * 1.3 + 2 * PAD * 0.7
    avail = inner_h - band_h - _footer_height(card, styles) - PAD * 0.5
    pieces = _split_pages(_body(card, styles, inner_w), inner_w, avail)
    faces = []
    for k, piece in enumerate(pieces, start=1):
        title, _ = _title_paragraph(card, styles, inner_w, suffix=f" ({k}/{len(pieces)})")
        faces.append(Face(card, SIZES[-1], [title], piece, band_h, k, len(pieces)))
    return faces


# --------------------------------------------------------------------------- drawing


def _draw_face(canv, face: Face, x: float, y: float, w: float, h: float) -> None:
    card = face.card
    colour = _colour(card.kind)
    styles = _card_styles(face.size)
    bx, by, bw, bh = x + INSET, y + INSET, w - 2 * INSET, h - 2 * INSET
    inner_w = bw - 2 * PAD
    canv.saveState()
    canv.setFillColor(colors.white)
    canv.setStrokeColor(colour)
    canv.setLineWidth(0.9)
    canv.roundRect(bx, by, bw, bh, 2.4 * mm, stroke=1, fill=1)
    if card.provisional:  # faint diagonal watermark behind the text
        canv.saveState()
        canv.setFillColor(st.PROVISIONAL_FILL)
        canv.setFont(st.FONT_BOLD, 19)
        canv.translate(bx + bw / 2, by + bh / 2)
        canv.rotate(57)
        canv.drawCentredString(0, -6, "PROVISIONAL")
        canv.restoreState()
    # title band
    top = by + bh
    band_h = face.band_h
    path = canv.beginPath()
    r = 2.4 * mm
    path.moveTo(bx, top - band_h)
    path.lineTo(bx, top - r)
    path.arcTo(bx, top - 2 * r, bx + 2 * r, top, startAng=180, extent=-90)
    path.lineTo(bx + bw - r, top)
    path.arcTo(bx + bw - 2 * r, top - 2 * r, bx + bw, top, startAng=90, extent=-90)
    path.lineTo(bx + bw, top - band_h)
    path.close()
    canv.setFillColor(colour)
    canv.drawPath(path, stroke=0, fill=1)
    kind_size = max(styles.base * 0.85, SMALL)
    canv.setFont(st.FONT_BOLD, kind_size)
    canv.setFillColor(_tint(colour, 0.75))
    kind = plain(card.kind).upper()
    st.draw_string(canv, bx + PAD, top - PAD * 0.7 - kind_size, _fit(kind, st.FONT_BOLD, kind_size, inner_w * 0.55), st.FONT_BOLD, kind_size)
    if card.provisional:
        label = "PROVISIONAL"
        lw = stringWidth(label, st.FONT_BOLD, kind_size) + 4
        canv.setFillColor(colors.white)
        canv.roundRect(bx + bw - PAD - lw, top - PAD * 0.7 - kind_size - 1.6, lw, kind_size + 3, 1.5, stroke=0, fill=1)
        canv.setFillColor(st.PROVISIONAL)
        canv.drawString(bx + bw - PAD - lw + 2, top - PAD * 0.7 - kind_size, label)
    ty = top - PAD * 0.7 - styles.base * 1.3
    for f in face.header:
        _, fh = f.wrap(inner_w, 10_000)
        f.drawOn(canv, bx + PAD, ty - fh)
        ty -= fh
    # body
    cy = top - band_h - PAD * 0.6
    for i, f in enumerate(face.body):
        _, fh = f.wrap(inner_w, 10_000)
        if i:
            cy -= f.getSpaceBefore()
        f.drawOn(canv, bx + PAD, cy - fh)
        cy -= fh + f.getSpaceAfter()
    # footer
    if card.footer or card.provisional:
        fy = by + PAD * 0.6
        canv.setStrokeColor(st.RULE)
        canv.setLineWidth(0.3)
        foot_size = max(styles.base * 0.78, SMALL)
        canv.line(bx + PAD, fy + foot_size * 1.35, bx + bw - PAD, fy + foot_size * 1.35)
        canv.setFont(st.FONT, foot_size)
        canv.setFillColor(st.MUTED)
        foot = plain(card.footer)
        if card.provisional:
            foot = (foot + " · " if foot else "") + "provisional"
        st.draw_string(canv, bx + PAD, fy + 1, _fit(foot, st.FONT, foot_size, inner_w), st.FONT, foot_size)
    canv.restoreState()


def _tint(colour: colors.Color, amount: float) -> colors.Color:
    """``colour`` mixed with white (no transparency: it prints the same everywhere)."""
    return colors.Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def _fit(text: str, font: str, size: float, width: float) -> str:
    from .layout import fit_text

    return fit_text(text, font, size, width)


def _cut_marks(canv, grid: Grid, used: int) -> None:
    """Short marks in the margins on every cut line of the grid."""
    rows_used = math.ceil(used / COLS)
    cols_used = min(used, COLS)
    left, right = grid.x0, grid.x0 + cols_used * grid.card_w
    top = grid.y0 + ROWS * grid.card_h
    bottom = top - rows_used * grid.card_h
    gap, length = 2 * mm, 3 * mm  # clear of the footer line even on Letter (12 mm margins)
    canv.saveState()
    canv.setStrokeColor(colors.black)
    canv.setLineWidth(0.35)
    for c in range(cols_used + 1):
        x = grid.x0 + c * grid.card_w
        canv.line(x, top + gap, x, top + gap + length)
        canv.line(x, bottom - gap, x, bottom - gap - length)
    for r in range(rows_used + 1):
        yy = top - r * grid.card_h
        canv.line(left - gap, yy, left - gap - length, yy)
        canv.line(right + gap, yy, right + gap + length, yy)
    canv.restoreState()


class CardSheet(Flowable):
    """One page of up to nine faces, drawn at absolute page positions."""

    def __init__(self, faces: list[Face], grid: Grid):
        super().__init__()
        self.faces = faces
        self.grid = grid

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return availWidth, availHeight

    def draw(self) -> None:
        canv = self.canv
        ax, ay = canv.absolutePosition(0, 0)
        canv.saveState()
        canv.translate(-ax, -ay)  # work in page coordinates
        canv.ab_cards_page = True  # the footer sits lower on card pages (see layout)
        for i, face in enumerate(self.faces):
            x, y = self.grid.origin(i)
            _draw_face(canv, face, x, y, self.grid.card_w, self.grid.card_h)
        _cut_marks(canv, self.grid, len(self.faces))
        canv.restoreState()


def card_flowables(cards: list[Card], page_size: tuple[float, float]) -> list[Flowable]:
    """One :class:`CardSheet` per page of faces (to be placed in a full-page frame)."""
    grid = grid_for(page_size)
    faces = [face for card in cards for face in layout_faces(card, grid)]
    per_page = COLS * ROWS
    return [CardSheet(faces[i : i + per_page], grid) for i in range(0, len(faces), per_page)]
