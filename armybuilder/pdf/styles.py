"""Fonts, colours, paper sizes, paragraph styles and text escaping for every PDF.

One place decides how armybuilder's printed matter looks, so the roster, the
reference sheets and the cards read as one publication.  The font is DejaVu Sans,
shipped inside the package (``fonts/``, licence in ``fonts/LICENSE.txt``) and
embedded into each PDF: the PDF base fonts only cover Latin-1, and names such as
"Tir-Nâ-Bor", "Воин" or "Ἀχιλλεύς" must print.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import TableStyle

from ..core.sanitize import INVISIBLE_FORMAT

FONT = "ArmyBuilderSans"
FONT_BOLD = "ArmyBuilderSans-Bold"
FONT_ITALIC = "ArmyBuilderSans-Oblique"
FONT_FALLBACK = "ArmyBuilderFallback"  # Droid Sans Fallback: CJK, used per character

_FONT_FILES = {
    FONT: "DejaVuSans.ttf",
    FONT_BOLD: "DejaVuSans-Bold.ttf",
    FONT_ITALIC: "DejaVuSans-Oblique.ttf",
}

PAPERS: dict[str, tuple[float, float]] = {"A4": A4, "LETTER": LETTER}

# A restrained palette: dark ink, one accent, and signal colours kept for legality.
INK = colors.HexColor("#1d1d1f")
MUTED = colors.HexColor("#5f6368")
ACCENT = colors.HexColor("#7a1f1f")  # deep red-brown, the "publisher" colour
ACCENT_LIGHT = colors.HexColor("#f3e9e4")
RULE = colors.HexColor("#b9a89f")
ZEBRA = colors.HexColor("#f7f4f2")
HEADER_FILL = colors.HexColor("#3a3431")
ERROR = colors.HexColor("#c0141b")
ERROR_FILL = colors.HexColor("#fde8e8")
WARNING = colors.HexColor("#9a6400")
WARNING_FILL = colors.HexColor("#fff4dc")
OK = colors.HexColor("#1e6b34")
OK_FILL = colors.HexColor("#e6f4ea")
PROVISIONAL = colors.HexColor("#6a3d9a")
PROVISIONAL_FILL = colors.HexColor("#f1eaf8")

#: card band colours by Card.kind; anything else uses the accent
KIND_COLOURS: dict[str, colors.Color] = {
    "profile": colors.HexColor("#7a1f1f"),
    "tactic": colors.HexColor("#1f4e7a"),
    "communion": colors.HexColor("#8a6d1d"),
    "miracle": colors.HexColor("#b0822a"),
    "ritual": colors.HexColor("#4b2a7a"),
    "spell": colors.HexColor("#4b2a7a"),
    "equipment": colors.HexColor("#3d5a3a"),
}


#: band colours for card kinds the table above does not know (e.g. other systems' kinds)
PALETTE: tuple[colors.Color, ...] = (
    colors.HexColor("#7a1f1f"),
    colors.HexColor("#1f4e7a"),
    colors.HexColor("#3d5a3a"),
    colors.HexColor("#4b2a7a"),
    colors.HexColor("#8a4b12"),
    colors.HexColor("#1d5e5e"),
    colors.HexColor("#5a3d2b"),
    colors.HexColor("#6b2a52"),
)


def paper_size(paper: str) -> tuple[float, float]:
    """Page size for "A4" or "Letter" (case-insensitive); a clear error otherwise."""
    try:
        return PAPERS[paper.upper()]
    except KeyError:
        raise ValueError(f"unknown paper size {paper!r} (choose A4 or Letter)") from None


@cache
def register_fonts() -> None:
    """Register the bundled TTFs once per process (ReportLab keeps a global registry)."""
    folder = resources.files("armybuilder.pdf") / "fonts"
    for name, filename in _FONT_FILES.items():
        with resources.as_file(folder / filename) as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC, boldItalic=FONT_BOLD)


# --------------------------------------------------------------------------- escaping

#: what a print shows as an escape (``\x07``, ``\u202e``) instead of the character itself, as
#: every other output does (core/sanitize.py): controls, bidi overrides, invisible marks
_CONTROL = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{INVISIBLE_FORMAT}\ufeff\ufffe\uffff]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def show_controls(text: str) -> str:
    """``text`` with every control character written as a visible escape (never dropped:
    the reader of a roster must see that a name holds something odd)."""
    return _CONTROL.sub(_shown, text)


# --------------------------------------------------------------------------- glyph coverage


@cache
def _covered(font: str) -> frozenset[int]:
    """Code points a registered font has a glyph for."""
    register_fonts()
    if font == FONT_FALLBACK:
        _register_fallback()
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


@cache
def _register_fallback() -> None:
    """Load the 4 MB fallback font only when a text needs it (most lists never do)."""
    with resources.as_file(resources.files("armybuilder.pdf") / "fonts" / "DroidSansFallbackFull.ttf") as path:
        pdfmetrics.registerFont(TTFont(FONT_FALLBACK, str(path)))


#: characters met since the last :func:`take_unprintable` that no bundled font can draw
_UNPRINTABLE: dict[str, None] = {}


def take_unprintable() -> list[str]:
    """The characters no bundled font has (emoji, rare scripts) met since the last call.

    The exporters print them in the PDF as ``[U+1F600]`` and the command line names
    them in a warning: a silent empty box would let a wrong name go unnoticed.
    """
    out = list(_UNPRINTABLE)
    _UNPRINTABLE.clear()
    return out


def _ascii_safe(s: str) -> str:
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "<br/>")


def _glyph_runs(s: str) -> list[tuple[str, str]]:
    """Split ``s`` into (font, text) runs: "" for the main font, FONT_FALLBACK, or "?" for none."""
    main = _covered(FONT)
    runs: list[tuple[str, str]] = []
    for ch in s:
        cp = ord(ch)
        if cp in main or ch in "\n\r\t" or 0xFE00 <= cp <= 0xFE0F or cp == 0x200D:
            kind = ""  # variation selectors and joiners: invisible either way
        elif cp in _covered(FONT_FALLBACK):
            kind = FONT_FALLBACK
        else:
            kind = "?"
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + ch)
        else:
            runs.append((kind, ch))
    return runs


def esc(text: object) -> str:
    """Make any user or catalogue text safe for ReportLab Paragraph markup.

    ``&``, ``<`` and ``>`` become entities so a unit called ``<b>Bob & co</b>``
    prints literally; control characters (which would corrupt the PDF text
    operators or the parser) are shown as escapes (``\\x07``), like every other output
    shows them; line breaks become ``<br/>``.
    Characters DejaVu Sans lacks are set in the fallback font (CJK); those no
    bundled font has (emoji) print as ``[U+1F600]`` and are remembered for the
    warning of :func:`take_unprintable`.
    """
    s = show_controls(str(text))
    if s.isascii():
        return _ascii_safe(s)
    out = []
    for kind, run in _glyph_runs(s):
        if kind == "":
            out.append(_ascii_safe(run))
        elif kind == FONT_FALLBACK:
            out.append(f'<font name="{FONT_FALLBACK}">{_ascii_safe(run)}</font>')
        else:
            for ch in run:
                _UNPRINTABLE[ch] = None
            out.append("".join(f"[U+{ord(ch):04X}]" for ch in run))
    return "".join(out)


#: longest text one ReportLab Paragraph holds (see :func:`chunks`): about a page of body text
CHUNK = 3000


def chunks(text: str) -> list[str]:
    """``text`` cut into pieces of at most :data:`CHUNK` characters, for one Paragraph each.

    Why: ReportLab re-breaks the whole rest of a paragraph at every page it spans and
    measures an unbroken word character by character at each of those breaks, so one
    800,000-character word took minutes (the time grew with the square of its length).
    Pieces of bounded size make the work linear.  A piece ends after a space when the
    last third of its window has one, so ordinary prose is never cut inside a word;
    a run without any space is cut at the window (it has to break somewhere).
    """
    if len(text) <= CHUNK:
        return [text]
    out: list[str] = []
    start, n = 0, len(text)
    while start < n:
        end = min(start + CHUNK, n)
        if end < n:
            cut = max(text.rfind(" ", start + CHUNK * 2 // 3, end), text.rfind("\n", start + CHUNK * 2 // 3, end))
            if cut > start:
                end = cut + 1
        out.append(text[start:end])
        start = end
    return out


def clean(text: object) -> str:
    """Control characters shown as escapes, nothing else changed (document metadata is Unicode)."""
    return show_controls(str(text).replace("\n", " "))


def unprintable_warning() -> str:
    """A warning naming the characters no bundled font can print, or "" (see take_unprintable)."""
    chars = take_unprintable()
    if not chars:
        return ""
    named = ", ".join(f"U+{ord(c):04X}" + (f" ({c})" if c.isprintable() else "") for c in chars[:20])
    more = f" and {len(chars) - 20} more" if len(chars) > 20 else ""
    return f"warning: {len(chars)} character{'s' * (len(chars) != 1)} cannot be printed with the bundled fonts and appear as [U+XXXX] codes: {named}{more}"


def plain(text: object) -> str:
    """Text for canvas.drawString (no markup parsing): control characters go, and characters
    no bundled font has become ``[U+XXXX]``; draw it with :func:`draw_string`."""
    s = show_controls(str(text).replace("\n", " "))
    if s.isascii():
        return s
    main = _covered(FONT)
    if all(ord(ch) in main for ch in s):
        return s
    fallback = _covered(FONT_FALLBACK)
    for ch in s:
        if ord(ch) not in main and ord(ch) not in fallback:
            _UNPRINTABLE[ch] = None
    return "".join(ch if ord(ch) in main or ord(ch) in fallback else f"[U+{ord(ch):04X}]" for ch in s)


def draw_string(canv, x: float, y: float, text: str, font: str, size: float) -> None:
    """canvas.drawString for a :func:`plain` text, switching to the fallback font per character."""
    if text.isascii():
        canv.setFont(font, size)
        canv.drawString(x, y, text)
        return
    for kind, run in _glyph_runs(text):
        name = FONT_FALLBACK if kind == FONT_FALLBACK else font
        canv.setFont(name, size)
        canv.drawString(x, y, run)
        x += pdfmetrics.stringWidth(run, name, size)


# --------------------------------------------------------------------------- styles


class Styles:
    """Paragraph styles at one base size; cards build smaller sets of the same family."""

    def __init__(self, base: float = 9.0):
        register_fonts()
        self.base = base
        lead = base * 1.28
        self.body = ParagraphStyle(
            "body", fontName=FONT, fontSize=base, leading=lead, textColor=INK, alignment=TA_LEFT, spaceAfter=base * 0.45
        )
        self.note = ParagraphStyle("note", parent=self.body, fontName=FONT_ITALIC, textColor=MUTED)
        self.warning = ParagraphStyle("warning", parent=self.body, textColor=WARNING)
        self.error = ParagraphStyle("error", parent=self.body, textColor=ERROR, fontName=FONT_BOLD)
        self.provisional = ParagraphStyle("provisional", parent=self.body, textColor=PROVISIONAL)
        self.title = ParagraphStyle(
            "title", parent=self.body, fontName=FONT_BOLD, fontSize=base * 2.4, leading=base * 2.8, textColor=ACCENT, spaceAfter=2
        )
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, fontName=FONT_ITALIC, fontSize=base * 1.05, textColor=MUTED)
        self.h1 = ParagraphStyle(
            "h1",
            parent=self.body,
            fontName=FONT_BOLD,
            fontSize=base * 1.45,
            leading=base * 1.75,
            textColor=ACCENT,
            spaceBefore=base * 1.1,
            spaceAfter=base * 0.35,
            keepWithNext=1,
        )
        self.h2 = ParagraphStyle(
            "h2",
            parent=self.body,
            fontName=FONT_BOLD,
            fontSize=base * 1.08,
            leading=base * 1.35,
            textColor=INK,
            spaceBefore=base * 0.7,
            spaceAfter=base * 0.25,
            keepWithNext=1,
        )
        self.h3 = ParagraphStyle("h3", parent=self.h2, fontSize=base, spaceBefore=base * 0.5)
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=base * 0.86, leading=base * 1.06, spaceAfter=0)
        self.cell_bold = ParagraphStyle("cell_bold", parent=self.cell, fontName=FONT_BOLD)
        self.cell_head = ParagraphStyle(
            "cell_head", parent=self.cell, fontName=FONT_BOLD, textColor=colors.white, fontSize=base * 0.8, leading=base * 0.98
        )
        self.cell_centre = ParagraphStyle("cell_centre", parent=self.cell, alignment=TA_CENTER)
        self.cell_head_centre = ParagraphStyle("cell_head_centre", parent=self.cell_head, alignment=TA_CENTER)
        self.key = ParagraphStyle("key", parent=self.cell, fontName=FONT_BOLD, textColor=MUTED)
        self.small = ParagraphStyle("small", parent=self.body, fontSize=base * 0.78, leading=base * 0.95, spaceAfter=0)
        self.banner = ParagraphStyle("banner", parent=self.body, fontName=FONT_BOLD, fontSize=base * 1.35, leading=base * 1.65, spaceAfter=0)
        self.fingerprint = ParagraphStyle(
            "fingerprint", parent=self.body, fontName=FONT_BOLD, fontSize=base * 1.9, leading=base * 2.2, alignment=TA_CENTER, spaceAfter=0, textColor=INK
        )
        self.fingerprint_label = ParagraphStyle(
            "fingerprint_label", parent=self.small, alignment=TA_CENTER, textColor=MUTED, fontName=FONT_BOLD
        )

    def paragraph_style(self, name: str) -> ParagraphStyle:
        return {"body": self.body, "note": self.note, "warning": self.warning, "error": self.error, "provisional": self.provisional}.get(
            name, self.body
        )


def table_style(commands: list) -> TableStyle:
    """A TableStyle whose cells use the bundled font.

    ReportLab's tables set their cell font (Helvetica by default) even around
    Paragraph cells, which would put a non-embedded base font into every PDF.
    """
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), *commands])


MARGIN = 15 * mm
FOOTER_GAP = 4 * mm  # the content ends this far above the bottom margin; the footer sits in between
