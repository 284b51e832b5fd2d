"""The roster PDF a player hands to the organiser and the opponent.

First page: list name and the fingerprint in a box (the organiser types it back
into ``armybuilder fingerprint``), the header facts, then legality: a green
"LEGAL" line, or a red box listing every finding that nobody can miss.  Then the
system's blocks (units, members, counts, costs, characteristics, totals) and the
glossary of abilities.  Optional cards follow on their own pages.  Every page
footer repeats page number and fingerprint, since pages get separated.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Spacer
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.core.findings import Finding, Severity
from armybuilder.core.paths import place_words
from armybuilder.core.summary import occasion_text
from armybuilder.core.system import Card, Roster

from . import styles as st
from .cards import card_flowables
from .layout import (
    blocks_to_flowables,
    boxed,
    cell,
    column_widths,
    make_doc,
    numbered_canvas,
    paras,
    tag,
)
from .styles import Styles, esc, paper_size, table_style

_SEVERITY = {
    Severity.ERROR: ("ERROR", st.ERROR),
    Severity.WARNING: ("WARNING", st.WARNING),
    Severity.INFO: ("INFO", st.MUTED),
}


def _header_value(roster: Roster, *keys: str) -> str:
    wanted = {k.lower() for k in keys}
    return next((v for k, v in roster.header if k.lower() in wanted), "")


def roster_fingerprint(roster: Roster) -> str:
    return roster.fingerprint or _header_value(roster, "fingerprint")


#: longest title printed in the (unsplittable) title box; a longer one follows in full below
TITLE_CAP = 160


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _fingerprint_style(fp: str, styles: Styles, width: float):
    """The big fingerprint style, shrunk until the code fits on one line of the box."""
    style = styles.fingerprint
    size = style.fontSize
    while size > 7 and stringWidth(fp, style.fontName, size) > width:
        size -= 0.5
    return style.clone("fingerprint_fit", fontSize=size, leading=size * 1.18)


def _title_block(roster: Roster, styles: Styles, width: float) -> Flowable:
    """List name and subtitle on the left, the fingerprint in a framed box on the right."""
    fp = roster_fingerprint(roster)
    fp_w = 62 * mm
    # system, faction and format as the protocol names them (Roster.summary)
    subtitle = " · ".join(roster.summary.parts() if roster.summary is not None else (_header_value(roster, "system"),))
    left = [RLParagraph(esc(_cap(roster.title or "Unnamed list", TITLE_CAP)), styles.title)]
    if subtitle:
        left.append(RLParagraph(esc(_cap(subtitle, TITLE_CAP)), styles.subtitle))
    right = [
        RLParagraph("FINGERPRINT", styles.fingerprint_label),
        RLParagraph(esc(fp or "—"), _fingerprint_style(fp or "—", styles, fp_w - 14)),
        RLParagraph("check with: armybuilder fingerprint LIST", styles.small.clone("fp_hint", alignment=1, textColor=st.MUTED, fontSize=styles.base * 0.62, leading=styles.base * 0.8)),
    ]
    table = RLTable([[left, right]], colWidths=[width - fp_w, fp_w], hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (1, 0), (1, 0), 1.6, st.ACCENT),
                ("BACKGROUND", (1, 0), (1, 0), st.ACCENT_LIGHT),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("TOPPADDING", (1, 0), (1, 0), 5),
                ("BOTTOMPADDING", (1, 0), (1, 0), 6),
                ("LINEBELOW", (0, 0), (0, 0), 2, st.ACCENT),
            ]
        )
    )
    return table


def _header_grid(roster: Roster, styles: Styles, width: float) -> Flowable | None:
    items = [(k, v) for k, v in roster.header if k.lower() != "fingerprint"]
    if not items:
        return None
    key_w = min(max(len(k) for k, _ in items) * styles.base * 0.62 + 10, width * 0.2)
    half = width / 2 - key_w
    data = []
    for i in range(0, len(items), 2):
        pair = items[i : i + 2] + [("", "")] * (2 - len(items[i : i + 2]))
        data.append([x for k, v in pair for x in (cell(k, styles.key), cell(v, styles.cell))])
    table = RLTable(data, colWidths=[key_w, half, key_w, half], hAlign="LEFT", splitByRow=1, splitInRow=1)
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ]
        )
    )
    return table


def _finding_rows(findings: list[Finding], styles: Styles) -> list[list[RLParagraph]]:
    rows = []
    for f in findings:
        label, colour = _SEVERITY.get(f.severity, ("NOTE", st.MUTED))
        details = [f"rule {f.rule}"]
        if f.where and not f.army_wide:
            details.append(f"at {place_words(f.where)}")
        if f.line is not None:
            details.append(f"line {f.line}")
        if f.source:
            details.append(f"source {f.source}")
        detail = RLParagraph(f'<font size="{styles.base * 0.72:.1f}" color="{st.MUTED.hexval()}">{esc(", ".join(details))}</font>', styles.cell)
        rows.append([RLParagraph(tag(label, colour), styles.cell), [*paras(f.message, styles.cell), detail]])
    return rows


def _legality(roster: Roster, styles: Styles, width: float) -> list[Flowable]:
    """Red box with every finding when illegal; green line (and any warnings) otherwise."""
    findings = list(roster.findings)
    errors = sum(f.severity == Severity.ERROR for f in findings)
    warnings = sum(f.severity == Severity.WARNING for f in findings)
    sev_w = 20 * mm
    out: list[Flowable] = []
    own = f" The {esc(roster.limit_note)}." if roster.limit_note else ""
    if not roster.legal:
        counts = f"{errors} error{'s' * (errors != 1)}" + (f", {warnings} warning{'s' * (warnings != 1)}" if warnings else "")
        head = RLParagraph(
            f"✖ NOT LEGAL — {counts}. This list breaks the rules below and cannot be played as it stands.{own}",
            styles.banner.clone("illegal", textColor=colors.white),
        )
        rows: list[list[object]] = [[head, ""]]
        rows += _finding_rows(findings, styles) or [[RLParagraph(tag("ERROR", st.ERROR), styles.cell), RLParagraph("the system reported the list illegal without a finding", styles.cell)]]
        box = boxed(rows, width, border=st.ERROR, fill=st.ERROR_FILL, border_width=2.2, header_fill=st.ERROR, col_widths=[sev_w, width - sev_w])
        box.setStyle(table_style([("SPAN", (0, 0), (1, 0)), ("LINEBELOW", (0, 1), (-1, -1), 0.3, st.ERROR)]))
        out.append(box)
    elif roster.limit_note:  # legal under its own limit only: never printed as simply legal
        head = RLParagraph(
            f"⚠ LEGAL only at the list's own limit — {esc(roster.limit_note)}. It is not checked against its format's limit.",
            styles.banner.clone("own_limit", textColor=st.WARNING),
        )
        rows = [[head, ""]]
        rows += _finding_rows(findings, styles)
        box = boxed(rows, width, border=st.WARNING, fill=st.WARNING_FILL, border_width=2.2, col_widths=[sev_w, width - sev_w])
        box.setStyle(table_style([("SPAN", (0, 0), (1, 0))]))
        out.append(box)
    else:
        extra = f" ({warnings} warning{'s' * (warnings != 1)} below)" if warnings else ""
        head = RLParagraph(f"✔ LEGAL — no rule is broken{extra}.", styles.banner.clone("legal", textColor=st.OK))
        rows = [[head, ""]]
        rows += _finding_rows(findings, styles)
        box = boxed(rows, width, border=st.WARNING if warnings else st.OK, fill=st.WARNING_FILL if warnings else st.OK_FILL, border_width=1.2, col_widths=[sev_w, width - sev_w])
        box.setStyle(table_style([("SPAN", (0, 0), (1, 0))]))
        out.append(box)
    out.append(Spacer(1, 4 * mm))
    return out


def _glossary(roster: Roster, styles: Styles, width: float, on_cards: bool = False) -> list[Flowable]:
    """The glossary page; with cards, a pointer to the glossary faces instead (each rule is
    explained once per export)."""
    if not roster.glossary:
        return []
    from .layout import IfRoom, RuledHeading

    if on_cards:  # the glossary faces say it too: the pointer never starts a page of its own
        names = ", ".join(t for t, _ in roster.glossary)
        return [IfRoom([RuledHeading("Glossary", styles.h1), *paras(f"The rules of {names} are on the glossary cards, after the other cards.", styles.body)])]

    terms = [(str(t), str(x)) for t, x in roster.glossary]
    widths = column_widths(("Term", "Text"), terms, width, styles)
    term_w = min(max(widths[0], width * 0.18), width * 0.3)
    data = [[cell(t, styles.cell_bold), cell(x, styles.cell)] for t, x in terms]
    table = RLTable(data, colWidths=[term_w, width - term_w], splitByRow=1, splitInRow=1, hAlign="LEFT")
    table.setStyle(
        table_style(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, st.RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 2.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return [RuledHeading("Glossary", styles.h1), table]


def glossary_cards(roster: Roster) -> list[Card]:
    """The roster's glossary as a card (continued over as many faces as it needs): the cards
    name abilities, and this is where each one's rule is written, once."""
    if not roster.glossary:
        return []
    return [Card("Glossary", "glossary", "The rules the other cards name", (), tuple((str(t), str(x)) for t, x in roster.glossary), roster_fingerprint(roster))]


def roster_story(roster: Roster, styles: Styles, width: float, on_cards: bool = False) -> list[Flowable]:
    story: list[Flowable] = [_title_block(roster, styles, width), Spacer(1, 3 * mm)]
    # legality comes right under the title, so it starts on page 1 whatever follows
    story += _legality(roster, styles, width)
    if len(roster.title) > TITLE_CAP:  # the box shows the start; the whole name prints here
        story += paras(roster.title, styles.body, "<b>Full name:</b> ")
    grid = _header_grid(roster, styles, width)
    if grid is not None:
        story += [grid, Spacer(1, 4 * mm)]
    story += blocks_to_flowables(roster.blocks, styles, width)
    story += _glossary(roster, styles, width, on_cards)
    return story


def render_roster(roster: Roster, cards: list[Card] | None = None, paper: str = "A4") -> bytes:
    """The roster PDF (and, when ``cards`` is given, its cards) as bytes.

    The bytes depend only on the arguments (``invariant=1``), so two exports of the
    same list are identical and can be compared or cached.
    """
    st.take_unprintable()  # the warning names what this document could not print
    size = paper_size(paper)
    styles = Styles()
    fp = roster_fingerprint(roster)
    system = _header_value(roster, "system", "game")
    buffer = io.BytesIO()
    doc = make_doc(buffer, size, title=roster.title or "Roster", subject=f"{system} roster, fingerprint {fp}".strip())
    story = roster_story(roster, styles, doc.width, on_cards=bool(cards))
    if cards:
        story += [NextPageTemplate("cards"), PageBreak()]
        story += card_flowables([*cards, *glossary_cards(roster)], size)
    # loose pages say whose they are: player, event and round first, then the list
    footer_left = " · ".join(x for x in (occasion_text(roster), roster.title, system) if x)
    status, colour = footer_status(roster.legal, roster.limit_note)
    doc.build(story, canvasmaker=numbered_canvas(footer_left, f"Fingerprint {fp}" if fp else "", status, colour))
    return buffer.getvalue()


def footer_status(legal: bool, limit_note: str) -> tuple[str, colors.Color | None]:
    """What every page's footer says of the list's legality (nothing when simply legal)."""
    if not legal:
        return "✖ NOT LEGAL", st.ERROR
    if limit_note:
        return "⚠ OWN LIMIT", st.WARNING
    return "", None


def write_roster(roster: Roster, cards: list[Card] | None, out: Path, paper: str = "A4") -> None:
    """Write the roster PDF at ``out`` atomically: a failed export never leaves half a file."""
    atomic_write_bytes(out, render_roster(roster, cards, paper))
