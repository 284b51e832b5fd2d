"""The meta report's pages after the heat map: standings with the legend, and why each list wins.

Flowables for a landscape A4 frame.  Every table repeats its heading row and
splits across pages, so a field of any size fits.  Cells are single lines cut to
their column's width (an ellipsis, never a word broken across two lines); numbers
carry thousands separators and their columns are sized for eight digits.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from os.path import commonpath
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from armybuilder.meta.analysis import ListProfile, Matchup, profiles
from armybuilder.meta.matrix import MetaMatrix
from armybuilder.meta.tally import Tally, UnitFigures

from .styles import FONT, FONT_BOLD, HEADER_FILL, ZEBRA, Styles, esc, plain, table_style

SIZE = 7.0  # the tables' font size
PAD = 3.0  # a cell's padding on each side
ELLIPSIS = "…"


def fit(text: str, width: float, size: float = SIZE, bold: bool = False, cut: str = "middle") -> str:
    """*text* on one line of at most *width* points: whole, or cut with an ellipsis in the
    middle (a name's start and its last words, "v12", both tell lists apart), at the
    start (``cut="start"``: a path's file name matters most) or at the end."""
    font = FONT_BOLD if bold else FONT
    text = plain(text)
    if stringWidth(text, font, size) <= width:
        return text

    def shortened(keep: int) -> str:
        if cut == "start":
            return ELLIPSIS + text[len(text) - keep :]
        if cut == "end":
            return text[:keep] + ELLIPSIS
        tail = keep // 2
        return text[: keep - tail].rstrip() + ELLIPSIS + text[len(text) - tail :].lstrip()

    low, high = 0, len(text)
    while low < high:  # the most characters that fit
        mid = (low + high + 1) // 2
        if stringWidth(shortened(mid), font, size) <= width:
            low = mid
        else:
            high = mid - 1
    return shortened(low) if low else ELLIPSIS


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.1%}"


def _interval(t: Tally) -> str:
    low, high = t.interval
    return f"{low:.1%} – {high:.1%}"


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+,.1f}"


def _rounds(t: Tally) -> str:
    return "–" if t.mean_rounds is None else f"{t.mean_rounds:.2f}"


def _table(header: Sequence[str], rows: list[list[str]], widths: Sequence[float], numeric: Sequence[int],
           extra: list[tuple[Any, ...]] | None = None, paths: Sequence[int] = ()) -> Table:
    """A one-line-a-cell table: every text cut to its column (paths at their start), the heading
    repeated on every page."""
    cells = [[fit(h, w - 2 * PAD, bold=True, cut="end") for h, w in zip(header, widths, strict=True)]]
    cells += [[fit(v, w - 2 * PAD, cut="start" if k in paths else "middle") for k, (v, w) in enumerate(zip(row, widths, strict=True))]
              for row in rows]
    style = [
        ("FONTSIZE", (0, 0), (-1, -1), SIZE), ("LEADING", (0, 0), (-1, -1), SIZE * 1.2),
        ("FONTNAME", (0, 0), (-1, 0), FONT_BOLD), ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL), ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        *[("ALIGN", (k, 0), (k, -1), "RIGHT") for k in numeric], *(extra or []),
    ]
    return Table(cells, colWidths=list(widths), repeatRows=1, style=table_style(style), hAlign="LEFT")


def _scaled(widths: Sequence[float], width: float) -> list[float]:
    total = sum(widths)
    return [w * width / total for w in widths] if total > width else list(widths)


def common_folder(paths: Sequence[str]) -> str:
    """The folder every path is in ("" when they share none), shown once above the legend."""
    try:
        folder = commonpath([str(Path(p).parent) for p in paths]) if paths else ""
    except ValueError:  # absolute and relative paths mixed
        return ""
    return "" if folder in (".", "") else folder


def _file(path: str, folder: str) -> str:
    return str(Path(path).relative_to(folder)) if folder and Path(path).is_relative_to(folder) else path


def _tally_cells(t: Tally) -> list[str]:
    return [_pct(t.rate), _interval(t), f"{t.games:,}", f"{t.wins:,}", f"{t.draws:,}", f"{t.losses:,}", _signed(t.mean_margin), _rounds(t)]


TALLY_HEADER = ["win rate", "95 % interval", "games", "W", "D", "L", "margin", "rounds"]
TALLY_WIDTHS = [40, 66, 48, 44, 40, 44, 40, 34]


def standings_table(matrix: MetaMatrix, ps: list[ListProfile], width: float) -> Table:
    folder = common_folder([x.path for x in matrix.rows])
    header = ["#", "tier", "list", "name", "player", "file", *TALLY_HEADER]
    widths = _scaled([22, 22, 112, 112, 62, 108, *TALLY_WIDTHS], width)
    rows, extra = [], []
    for k, p in enumerate(ps):
        item = matrix.rows[p.index]
        rows.append([str(p.rank), str(p.tier), _label(item, widths[2]), item.name, item.player, _file(item.path, folder),
                     *_tally_cells(p.tally)])
        if k and p.tier != ps[k - 1].tier:
            extra.append(("LINEABOVE", (0, k + 1), (-1, k + 1), 1.0, colors.black))
    return _table(header, rows, widths, numeric=[0, 1, *range(6, 14)], extra=extra, paths=[5])


def _label(item: Any, width: float) -> str:
    """The list's label, or its short label (distinct too) when the label is too wide."""
    return item.label if stringWidth(plain(item.label), FONT, SIZE) <= width - 2 * PAD else item.short_label


def field_table(matrix: MetaMatrix, width: float) -> Table:
    """The columns of a matrix against a field: number, label, name, player, file."""
    folder = common_folder([x.path for x in matrix.cols])
    widths = _scaled([28, 160, 160, 100, 200], width)
    rows = [[str(j + 1), _label(x, widths[1]), x.name, x.player, _file(x.path, folder)] for j, x in enumerate(matrix.cols)]
    return _table(["#", "list", "name", "player", "file"], rows, widths, numeric=[0], paths=[4])


def _matchup_rows(matrix: MetaMatrix, kind: str, items: list[Matchup], rank_of: dict[int, int]) -> list[list[str]]:
    out = []
    for m in items:
        other = matrix.cols[m.opponent]
        number = rank_of.get(m.opponent) if matrix.square else m.opponent + 1
        out.append([kind, f"{number}. {other.short_label}", _pct(m.tally.rate), f"{m.tally.games:,}", _signed(m.tally.mean_margin),
                    str(m.replay_seed)])
    return out


def _units_rows(units: list[UnitFigures]) -> list[list[str]]:
    return [[u.name, f"{u.points:,g}", _pct(u.survival_rate), f"{u.mean_eliminated:,.1f}",
             "–" if u.eliminated_per_100 is None else f"{u.eliminated_per_100:,.1f}"] for u in units]


def profile_block(matrix: MetaMatrix, p: ListProfile, rank_of: dict[int, int], styles: Styles, width: float) -> Flowable:
    item = matrix.rows[p.index]
    t = p.tally
    head = f"{p.rank}. {item.label} — {item.name}" + (f" ({item.player})" if item.player else "")
    facts = (f"tier {p.tier} · win rate {_pct(t.rate)} (95 % interval {_interval(t)}) · {t.games:,} games "
             f"({t.wins:,} / {t.draws:,} / {t.losses:,}) · mean margin {_signed(t.mean_margin)} {matrix.score_unit} · "
             f"mean rounds {_rounds(t)}")
    left_w = min(362.0, width * 0.47)
    matchups = _table(["", "opponent", "win rate", "games", "margin", "replay seed"],
                      _matchup_rows(matrix, "best", p.best(), rank_of) + _matchup_rows(matrix, "worst", p.worst(), rank_of),
                      _scaled([26, 146, 40, 38, 34, 78], left_w), numeric=[2, 3, 4, 5])
    unit = matrix.score_unit
    units = _table(["unit", unit, "survived", f"{unit} elim./game", f"per 100 {unit}"], _units_rows(p.units),
                   _scaled([190, 36, 46, 70, 62], width - left_w - 12), numeric=[1, 2, 3, 4])
    side = Table([[matchups, units]], colWidths=[left_w + 12, width - left_w - 12],
                 style=table_style([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                    ("RIGHTPADDING", (0, 0), (-1, -1), 0)]), hAlign="LEFT")
    return KeepTogether([Paragraph(esc(fit(head, width, 9.5, bold=True)), styles.h3),
                         Paragraph(esc(fit(facts, width, 7.5, cut="end")), styles.small),
                         Paragraph(esc(fit(f"file: {item.path}", width, 7.5, cut="start")), styles.small), Spacer(1, 3), side, Spacer(1, 6)])


def body_story(matrix: MetaMatrix, width: float) -> list[Flowable]:
    styles = Styles(8.5)
    ps = profiles(matrix)
    rank_of = {p.index: p.rank for p in ps}
    folder = common_folder([x.path for x in matrix.rows])
    story: list[Flowable] = [
        Paragraph("Standings against the field", styles.h1),
        Paragraph(esc("Every game a list played counts (in a square matrix both as first and as second list); a draw counts half. "
                      "The numbers are the heat map's row numbers; a line separates the tiers. Margin: the list's score minus "
                      f"its opponent's, in {matrix.score_unit}, a game." + (f" Files in {folder}/." if folder else "")), styles.note),
        standings_table(matrix, ps, width),
    ]
    if not matrix.square:
        story += [Paragraph("The field (the heat map's columns)", styles.h1), field_table(matrix, width)]
    if matrix.left_out:
        story += [Paragraph("Left out", styles.h1)]
        story += [Paragraph(esc(f"{x.path}: {x.reason}"), styles.body) for x in matrix.left_out]
    example = ps[0].best()[0].replay if ps and ps[0].matchups else ["armybuilder", "playtest", "LIST", "--vs", "OPPONENT", "--seed", "SEED", "--games", "1", "--log"]
    story += [
        Paragraph("Why each list wins", styles.h1),
        Paragraph(esc("Per list: its best and worst matchups (both seats pooled) and its units over every game it played: how often "
                      f"each survived, the {matrix.score_unit} of enemies it eliminated or routed a game, and that per 100 {matrix.score_unit} "
                      "it costs. A matchup's replay seed narrates the first game of the list playing first against that opponent, "
                      f"roll for roll: {shlex.join(example)} (the seed of any cell is in the JSON, CSV and HTML page)."), styles.note),
    ]
    story += [profile_block(matrix, p, rank_of, styles, width) for p in ps]
    return story
