"""What goes on each face of a card: sizes, the stat grid, and how a long card is split.

A card is read at the table, at arm's length: its body text is never under
:data:`SMALL` (7.5 pt), its stats never under :data:`STAT_SIZE` (9 pt).  The text is
set at the largest size of :data:`SIZES` at which it fits one face, then once more
with tighter spacing; only a card that fits none of these continues on further
faces, titled "(2/3)" and so on.  Those faces are filled so that

- a face is never left more than a quarter blank when the next paragraph could start
  there: a paragraph is cut at the end of a sentence when that fills the face to
  three quarters, else at the end of a line;
- a follow-on face holds at least three lines: lines move over from the face before
  until it does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.system import Card

from . import styles as st
from .styles import CHUNK, Styles, esc, plain, table_style

SIZES = (9.0, 8.5, 8.0, 7.5)  # body font sizes tried, largest first; never smaller (read at arm's length)
SPLIT_SIZE = 8.0  # the size of a card that continues on further faces
SMALL = 7.5  # the smallest print on a card: stat labels, kind, footer, body at its tightest
STAT_SIZE = 9.0  # a stat's value is never printed smaller
BLANK = 0.25  # the most of a face left blank when the next paragraph could start there
MIN_LINES = 3  # the fewest lines a follow-on face holds


@dataclass
class Face:
    card: Card
    size: float
    header: list[Flowable]  # title band content (drawn white on the kind colour)
    body: list[Flowable]
    band_h: float
    part: int = 1
    parts: int = 1


def card_styles(size: float) -> Styles:
    return Styles(base=size)


def title_paragraph(card: Card, styles: Styles, width: float, suffix: str = "") -> tuple[RLParagraph, float]:
    title_style = styles.h2.clone("card_title", textColor=colors.white, fontSize=styles.base * 1.4, leading=styles.base * 1.6, spaceBefore=0, spaceAfter=0, keepWithNext=0)
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


# --------------------------------------------------------------------------- stats


def stat_sizes(styles: Styles) -> tuple[float, float]:
    """(label size, value size) of the stat grid at a body size."""
    return max(styles.base * 0.9, SMALL), max(styles.base * 1.15, STAT_SIZE)


def stats_flowables(stats: tuple[tuple[str, str], ...], styles: Styles, width: float) -> list[Flowable]:
    """The stats as bands of label/value columns, as few bands as fit and balanced (11 stats:
    6 + 5, 5 stats: one band), each column as wide as its text needs; stats too long for any
    band become "label | value" lines."""
    if not stats:
        return []
    label_size, value_size = stat_sizes(styles)
    label = styles.cell_head_centre.clone("stat_label", textColor=st.MUTED, fontSize=label_size, leading=label_size * 1.15)
    value = styles.cell_centre.clone("stat_value", fontName=st.FONT_BOLD, fontSize=value_size, leading=value_size * 1.15)
    pad = 3.0
    need = [max(stringWidth(plain(k), label.fontName, label_size), stringWidth(plain(v), value.fontName, value_size)) + pad for k, v in stats]
    n = len(stats)
    for bands in range(1, n + 1):
        cols = math.ceil(n / bands)
        if cols > 6 and bands < n:  # more than six side by side do not read as a grid
            continue
        chunks = [list(range(i, min(i + cols, n))) for i in range(0, n, cols)]
        if all(sum(need[i] for i in chunk) <= width for chunk in chunks):
            break
    else:
        return [_stat_lines(stats, styles, width)]
    out: list[Flowable] = []
    for chunk in chunks:
        total = sum(need[i] for i in chunk)
        widths = [width * need[i] / total for i in chunk]
        data = [[RLParagraph(esc(stats[i][0]), label) for i in chunk], [RLParagraph(esc(stats[i][1]), value) for i in chunk]]
        table = RLTable(data, colWidths=widths, hAlign="LEFT")
        table.setStyle(
            table_style(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), st.ZEBRA),
                    ("BOX", (0, 0), (-1, -1), 0.5, st.RULE),
                    ("INNERGRID", (0, 0), (-1, -1), 0.25, st.RULE),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0.5),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0.5),
                    ("TOPPADDING", (0, 0), (-1, -1), 0.8),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.3),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        out.append(table)
    return out


def _stat_lines(stats: tuple[tuple[str, str], ...], styles: Styles, width: float) -> Flowable:
    label_size, value_size = stat_sizes(styles)
    key = styles.key.clone("stat_key", fontSize=label_size, leading=label_size * 1.2)
    val = styles.cell.clone("stat_val", fontName=st.FONT_BOLD, fontSize=value_size, leading=value_size * 1.2)
    key_w = min(max(stringWidth(plain(k), key.fontName, key.fontSize) for k, _ in stats) + 6, width * 0.4)
    data = [[RLParagraph(esc(k), key), RLParagraph(esc(v), val)] for k, v in stats]
    table = RLTable(data, colWidths=[key_w, width - key_w], hAlign="LEFT", splitByRow=1)
    table.setStyle(table_style([("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE), ("LEFTPADDING", (0, 0), (-1, -1), 1), ("RIGHTPADDING", (0, 0), (-1, -1), 1), ("TOPPADDING", (0, 0), (-1, -1), 0.8), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


# --------------------------------------------------------------------------- text


_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


def text_part(head: str, sentences: list[str], style) -> RLParagraph:
    """A card paragraph that knows its sentences (``ab_head``, ``ab_sentences``), so a split
    can fall between two of them (ReportLab's own split cuts at a line)."""
    para = RLParagraph(head + esc(" ".join(sentences)), style)
    para.ab_head, para.ab_sentences = head, sentences
    return para


def split_at_sentence(para: RLParagraph, width: float, room: float) -> tuple[RLParagraph, RLParagraph, float] | None:
    """The longest run of whole sentences of ``para`` that fits ``room``, the rest, and the
    run's height; None when not even one sentence fits (or ``para`` knows no sentences)."""
    sentences = getattr(para, "ab_sentences", None)
    if not sentences:
        return None
    for k in range(len(sentences) - 1, 0, -1):
        first = text_part(para.ab_head, sentences[:k], para.style)
        _, h = first.wrap(width, 10_000)
        if h + first.getSpaceBefore() <= room:
            return first, text_part("", sentences[k:], para.style), h
    return None


def text_parts(heading: str, body: str, style) -> list[Flowable]:
    """One card text (``heading``: bold lead-in) as paragraphs of bounded length (see
    :func:`styles.chunks`), each knowing its sentences."""
    head = f"<b>{esc(heading)}.</b> " if heading else ""
    sentences = [s for s in _SENTENCE_END.split(str(body)) if s]
    out: list[Flowable] = []
    run: list[str] = []
    size = 0
    for s in sentences or [""]:
        for piece in st.chunks(s) if len(s) > CHUNK else [s]:
            if run and size + len(piece) > CHUNK:
                out.append(text_part(head if not out else "", run, style))
                run, size = [], 0
            run.append(piece)
            size += len(piece) + 1
    out.append(text_part(head if not out else "", run, style))
    return out


def body_flowables(card: Card, styles: Styles, width: float, tight: bool = False) -> list[Flowable]:
    """The face body: subtitle, stats, texts; ``tight``: less space between paragraphs."""
    gap = 0.15 if tight else 0.4
    out: list[Flowable] = []
    text_style = styles.body.clone("card_text", spaceAfter=styles.base * gap, leading=styles.base * (1.17 if tight else 1.24))
    if card.subtitle:
        out.append(RLParagraph(esc(card.subtitle), styles.note.clone("card_sub", leading=styles.base * 1.2, spaceAfter=styles.base * gap)))
    stats = stats_flowables(card.stats, styles, width)
    for table in stats:
        out.append(table)
    if stats:
        out.append(Gap(styles.base * (0.3 if tight else 0.5)))
    for heading, body in card.text:
        out += text_parts(heading, body, text_style)
    return out


class Gap(Flowable):
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


def measure(flowables: list[Flowable], width: float) -> float:
    total = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrap(width, 10_000)
        total += h + (f.getSpaceBefore() if i else 0) + f.getSpaceAfter()
    return total


# --------------------------------------------------------------------------- splitting


def face_lines(face: list[Flowable], width: float) -> int:
    """Lines of text on a face (a stat grid counts as a full three)."""
    n = 0
    for f in face:
        if isinstance(f, KeepInFrame):  # an unsplittable block shrunk to a face: a full face
            n += MIN_LINES
            continue
        f.wrap(width, 10_000)
        if isinstance(f, RLParagraph):
            bl = getattr(f, "blPara", None)
            n += len(getattr(bl, "lines", ())) or 1
        elif not isinstance(f, Gap):
            n += MIN_LINES
    return n


def _split(f: Flowable, width: float, room: float, height: float) -> list[Flowable]:
    """``f`` cut to start in ``room`` (the rest of a face of ``height``): at a sentence end when
    that leaves at most a quarter of the face blank, else at a line end; [] to move it whole."""
    if room <= BLANK * height or not isinstance(f, RLParagraph):
        return []
    cut = split_at_sentence(f, width, room)
    if cut is not None and room - cut[2] <= BLANK * height:
        return [cut[0], cut[1]]
    parts = f.split(width, room - f.getSpaceBefore())
    return parts if len(parts) >= 2 else []


def fill_faces(flowables: list[Flowable], width: float, heights: list[float], height: float) -> list[list[Flowable]]:
    """Fill faces in turn: face *i* holds ``heights[i]`` points (``height`` past the list)."""
    faces: list[list[Flowable]] = []
    current: list[Flowable] = []

    def room_of(i: int) -> float:
        return heights[i] if i < len(heights) else height

    room = room_of(0)
    queue = list(flowables)
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
        if isinstance(f, Gap):  # a gap at a face end is dropped
            continue
        parts = _split(f, width, room, room_of(len(faces)))
        if parts:
            current.append(parts[0])
            queue[0:0] = parts[1:]
        elif current:
            queue.insert(0, f)
        else:  # alone on an empty face and still too big (an unsplittable block): shrink it
            current.append(KeepInFrame(width, room, [f], mode="shrink"))
        faces.append(current)
        current, room = [], room_of(len(faces))
    if current or not faces:
        faces.append(current)
    return faces


def split_body(flowables: list[Flowable], width: float, height: float, build) -> list[list[Flowable]]:
    """``flowables`` over faces of ``height``; then, while the last face holds fewer than
    :data:`MIN_LINES` lines, the face before gives it lines (it stays at least three
    quarters full).  ``build()`` makes the flowables afresh (a split consumes them)."""
    faces = fill_faces(flowables, width, [], height)
    if len(faces) < 2:
        return faces
    lines = face_lines(faces[-1], width)
    shrink = 0.0
    step = max(getattr(f.style, "leading", 10.0) for f in flowables if isinstance(f, RLParagraph)) if any(isinstance(f, RLParagraph) for f in flowables) else 10.0
    while lines < MIN_LINES and shrink + step <= BLANK * height:
        shrink += step
        heights = [height] * (len(faces) - 2) + [height - shrink]
        again = fill_faces(build(), width, heights, height)
        if len(again) != len(faces):
            break
        faces, lines = again, face_lines(again[-1], width)
    return faces
