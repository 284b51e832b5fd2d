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
from reportlab.platypus import Flowable

from armybuilder.core.system import Card

from . import styles as st
from .card_faces import (
    SIZES,
    SMALL,
    SPLIT_SIZE,
    Face,
    body_flowables,
    card_styles,
    measure,
    split_body,
    title_paragraph,
)
from .layout import FOOTER_BASE, FOOTER_SIZE
from .styles import Styles, plain

CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3
EDGE = 8 * mm  # nothing is printed nearer the paper's edge (printers clip there)
MARK_GAP, MARK_LEN = 1 * mm, 1.5 * mm  # cut marks: their gap from the grid and their length
MARKS = MARK_GAP + MARK_LEN
FOOTER_ROOM = FOOTER_BASE + FOOTER_SIZE * 0.4 + 1.5 * mm  # the page footer below the grid's marks
INSET = 1.6 * mm  # border drawn inside the cut line, so a slightly-off cut stays clean
PAD = 2.2 * mm  # text padding inside the border


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
    """Nine poker faces (63 × 88 mm) centred between the margins: the cut marks stay
    :data:`EDGE` from the paper's edges and clear of the page footer; on a page too small for
    them (Letter is 279 mm tall) the faces shrink a little."""
    width, height = page_size
    bottom, top = FOOTER_ROOM + MARKS, EDGE + MARKS
    scale = min(1.0, (width - 2 * (EDGE + MARKS)) / (COLS * CARD_W), (height - bottom - top) / (ROWS * CARD_H))
    w, h = CARD_W * scale, CARD_H * scale
    return Grid(w, h, (width - COLS * w) / 2, bottom + (height - bottom - top - ROWS * h) / 2)


# --------------------------------------------------------------------------- face layout


def _colour(kind: str) -> colors.Color:
    """The band colour of a kind; unknown kinds (other systems) get a stable palette colour."""
    key = kind.strip().lower()
    if key in st.KIND_COLOURS:
        return st.KIND_COLOURS[key]
    digest = hashlib.sha1(key.encode("utf-8")).digest()  # stable across runs, unlike hash()
    return st.PALETTE[digest[0] % len(st.PALETTE)]


def _footer_height(card: Card) -> float:
    """The card footer's zone above the border: its line sits this high (see _draw_face)."""
    return PAD * 0.6 + SMALL * 1.35 + 2.5 if card.footer or card.provisional else PAD * 0.6


def _frame(card: Card, styles: Styles, grid: Grid, suffix: str = "") -> tuple[float, float, float]:
    """(body width, body height, title band height) of a face at a size, as _draw_face lays it."""
    inner_w = grid.card_w - 2 * (INSET + PAD)
    _, title_h = title_paragraph(card, styles, inner_w, suffix)
    band_h = title_h + max(styles.base * 0.85, SMALL) * 1.3 + 2 * PAD * 0.6
    return inner_w, grid.card_h - 2 * INSET - band_h - PAD * 0.6 - _footer_height(card), band_h


def layout_faces(card: Card, grid: Grid) -> list[Face]:
    """The faces one card needs: one at the largest size that fits (then with tighter
    spacing at the smallest), else several at :data:`SPLIT_SIZE` (see card_faces)."""
    for size, tight in [(size, False) for size in SIZES] + [(SIZES[-1], True)]:
        styles = card_styles(size)
        inner_w, avail, band_h = _frame(card, styles, grid)
        body = body_flowables(card, styles, inner_w, tight)
        if measure(body, inner_w) <= avail:
            title, _ = title_paragraph(card, styles, inner_w)
            return [Face(card, size, [title], body, band_h)]
    styles = card_styles(SPLIT_SIZE)
    inner_w, avail, band_h = _frame(card, styles, grid, suffix=" (9/9)")
    pieces = split_body(body_flowables(card, styles, inner_w, True), inner_w, avail, lambda: body_flowables(card, styles, inner_w, True))
    faces = []
    for k, piece in enumerate(pieces, start=1):
        title, _ = title_paragraph(card, styles, inner_w, suffix=f" ({k}/{len(pieces)})")
        faces.append(Face(card, SPLIT_SIZE, [title], piece, band_h, k, len(pieces)))
    return faces


# --------------------------------------------------------------------------- drawing


def _draw_face(canv, face: Face, x: float, y: float, w: float, h: float) -> None:
    card = face.card
    colour = _colour(card.kind)
    styles = card_styles(face.size)
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
    st.draw_string(canv, bx + PAD, top - PAD * 0.6 - kind_size, _fit(kind, st.FONT_BOLD, kind_size, inner_w * 0.55), st.FONT_BOLD, kind_size)
    if card.provisional:
        label = "PROVISIONAL"
        lw = stringWidth(label, st.FONT_BOLD, kind_size) + 4
        canv.setFillColor(colors.white)
        canv.roundRect(bx + bw - PAD - lw, top - PAD * 0.6 - kind_size - 1.6, lw, kind_size + 3, 1.5, stroke=0, fill=1)
        canv.setFillColor(st.PROVISIONAL)
        canv.drawString(bx + bw - PAD - lw + 2, top - PAD * 0.6 - kind_size, label)
    ty = top - PAD * 0.6 - kind_size * 1.3
    for f in face.header:
        _, fh = f.wrap(inner_w, 10_000)
        f.drawOn(canv, bx + PAD, ty - fh)
        ty -= fh
    # body
    cy = top - band_h - PAD * 0.6
    for i, f in enumerate(face.body):
        f.canv = canv  # a KeepInFrame measures its content on the canvas
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
        foot_size = SMALL
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
    gap, length = MARK_GAP, MARK_LEN  # within the margins, clear of the paper's edge and the footer
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
