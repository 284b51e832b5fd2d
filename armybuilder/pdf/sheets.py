"""Reference sheets of a game system: its tables, rules summaries and provisional marks.

Whatever the system, a :class:`~armybuilder.core.system.Sheets` is a title and
neutral blocks; tables repeat their header row on every page they span, and
provisional content carries a visible PROVISIONAL mark (see ``layout``).
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer
from reportlab.platypus import Paragraph as RLParagraph

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.core.system import Paragraph as Para
from armybuilder.core.system import Sheets, Table

from . import styles as st
from .layout import blocks_to_flowables, make_doc, numbered_canvas
from .styles import Styles, esc, paper_size


def sheets_story(sheets: Sheets, styles: Styles, width: float) -> list[Flowable]:
    story: list[Flowable] = [RLParagraph(esc(sheets.title or "Reference sheets"), styles.title.clone("sheet_title", fontSize=styles.base * 2.0, leading=styles.base * 2.4))]
    provisional = any((isinstance(b, Table) and b.provisional) or (isinstance(b, Para) and b.style == "provisional") for b in sheets.blocks)
    if provisional:
        story.append(
            RLParagraph(
                f'Content marked <font color="{st.PROVISIONAL.hexval()}"><b>PROVISIONAL</b></font> is the project\'s '
                "reading where the source is incomplete; check it against your rulebook.",
                styles.note,
            )
        )
    story.append(Spacer(1, 3 * mm))
    story += blocks_to_flowables(sheets.blocks, styles, width)
    return story


def render_sheets(sheets: Sheets, paper: str = "A4") -> bytes:
    """The reference sheets as deterministic PDF bytes (``invariant=1``)."""
    st.take_unprintable()  # the warning names what this document could not print
    size = paper_size(paper)
    styles = Styles()
    buffer = io.BytesIO()
    doc = make_doc(buffer, size, title=sheets.title or "Reference sheets", subject="armybuilder reference sheets")
    story = sheets_story(sheets, styles, doc.width)
    doc.build(story, canvasmaker=numbered_canvas(sheets.title, "armybuilder"))
    return buffer.getvalue()


def write_sheets(sheets: Sheets, out: Path, paper: str = "A4") -> None:
    """Write the reference sheets PDF at ``out`` atomically."""
    atomic_write_bytes(out, render_sheets(sheets, paper))
