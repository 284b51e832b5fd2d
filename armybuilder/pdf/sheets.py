"""Reference sheets of a game system: its tables, rules summaries and provisional marks.

Whatever the system, a :class:`~armybuilder.core.system.Sheets` is a title and
neutral blocks; tables repeat their header row on every page they span, and
provisional content carries a visible PROVISIONAL mark (see ``layout``).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer
from reportlab.platypus import Paragraph as RLParagraph

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


def write_sheets(sheets: Sheets, out: Path, paper: str = "A4") -> None:
    """Write the reference sheets as a deterministic PDF (``invariant=1``) at ``out``."""
    size = paper_size(paper)
    styles = Styles()
    out = Path(out)
    doc = make_doc(out, size, title=sheets.title or "Reference sheets", subject="armybuilder reference sheets")
    story = sheets_story(sheets, styles, doc.width)
    doc.build(story, canvasmaker=numbered_canvas(sheets.title, "armybuilder"))
