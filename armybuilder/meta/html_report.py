"""The meta matrix as one HTML page: standings and every list's profile, sortable in a browser.

One self-contained file beside the PDF: its style and a small table sorter are
inline (nothing is fetched when it opens, nothing downloaded when it is written),
the heat map is the PNG written beside it.  Click a column heading (or focus it
and press Enter) to sort by it; again to reverse.  Numbers sort by their value
(``data-value``), not by their text.

Every string that came from a list file is escaped twice over: control characters
made visible (:func:`armybuilder.core.sanitize.visible`), then HTML-escaped.
"""

from __future__ import annotations

import html
import shlex
from pathlib import Path

from armybuilder.core.atomic import atomic_write_text
from armybuilder.core.sanitize import visible

from .analysis import ListProfile, Matchup, profiles
from .matrix import MetaMatrix
from .tally import Tally, UnitFigures

#: fields up to this many lists also get the whole matrix as a table (larger: the CSV has it)
MATRIX_TABLE_MAX = 150

SORTER = """
(function () {
  function key(cell, numeric) {
    var v = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
    if (!numeric) return v.toLowerCase();
    var n = parseFloat(v);
    return isNaN(n) ? -Infinity : n;
  }
  function sortBy(th) {
    var table = th.closest("table"), body = table.tBodies[0];
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-type") === "num";
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[index], numeric), y = key(b.cells[index], numeric);
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable th").forEach(function (th) {
    th.tabIndex = 0;
    th.title = "sort by this column";
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(th); }
    });
  });
})();
"""

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.muted { color: #5f6368; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { padding: 0.2em 0.5em; border-bottom: 1px solid #e3e3e3; text-align: left; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; background: #f2f2f2; position: sticky; top: 0; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
section.list { border-top: 2px solid #ccc; margin-top: 1.2em; }
code { font-size: 0.85em; background: #f5f5f5; padding: 0 0.2em; }
table.matrix td { text-align: center; padding: 0.1em 0.25em; font-size: 0.8em; border: 1px solid #fff; }
img.heatmap { max-width: 100%; height: auto; border: 1px solid #ddd; }
"""


def _text(value: object) -> str:
    return html.escape(visible(value))


def _num(value: float | None, shown: str) -> str:
    data = "" if value is None else f' data-value="{value:.6g}"'
    return f'<td class="num"{data}>{html.escape(shown)}</td>'


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.1%}"


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+,.1f}"


def _head(*columns: tuple[str, bool]) -> str:
    cells = "".join(f'<th{" class=num data-type=num" if numeric else ""}>{html.escape(name)}</th>' for name, numeric in columns)
    return f"<thead><tr>{cells}</tr></thead>"


def _tally_cells(t: Tally) -> str:
    low, high = t.interval
    return (_num(t.rate, _pct(t.rate)) + _num(low, f"{low:.1%} – {high:.1%}") + _num(t.games, f"{t.games:,}")
            + _num(t.wins, f"{t.wins:,}") + _num(t.draws, f"{t.draws:,}") + _num(t.losses, f"{t.losses:,}")
            + _num(t.mean_margin, _signed(t.mean_margin)) + _num(t.mean_rounds, "–" if t.mean_rounds is None else f"{t.mean_rounds:.2f}"))


TALLY_HEAD = (("win rate", True), ("95 % interval", True), ("games", True), ("W", True), ("D", True), ("L", True),
              ("mean margin", True), ("mean rounds", True))


def _standings(matrix: MetaMatrix, ps: list[ListProfile]) -> str:
    rows = []
    for p in ps:
        item = matrix.rows[p.index]
        rows.append(
            f'<tr>{_num(p.rank, str(p.rank))}{_num(p.tier, str(p.tier))}'
            f'<td><a href="#list-{p.index}">{_text(item.label)}</a></td><td>{_text(item.name)}</td>'
            f'<td>{_text(item.player)}</td><td>{_text(item.path)}</td>{_tally_cells(p.tally)}</tr>'
        )
    head = _head(("#", True), ("tier", True), ("list", False), ("name", False), ("player", False), ("file", False), *TALLY_HEAD)
    return f'<table class="sortable" id="standings">{head}<tbody>{"".join(rows)}</tbody></table>'


def _matchups(matrix: MetaMatrix, title: str, items: list[Matchup]) -> str:
    rows = []
    for m in items:
        other = matrix.cols[m.opponent]
        low, high = m.tally.interval
        rows.append(
            f'<tr><td><a href="#list-{m.opponent}">{_text(other.label)}</a></td>{_num(m.tally.rate, _pct(m.tally.rate))}'
            f'{_num(low, f"{low:.1%} – {high:.1%}")}{_num(m.tally.games, f"{m.tally.games:,}")}'
            f'{_num(m.tally.mean_margin, _signed(m.tally.mean_margin))}'
            f'<td><code>{_text(shlex.join(m.replay))}</code></td></tr>'
        )
    head = _head((title, False), ("win rate", True), ("95 % interval", True), ("games", True), ("mean margin", True),
                 ("its first game, narrated", False))
    return f'<table class="sortable">{head}<tbody>{"".join(rows)}</tbody></table>'


def _units(units: list[UnitFigures], score_unit: str) -> str:
    rows = []
    for u in units:
        per = u.eliminated_per_100
        rows.append(
            f"<tr><td>{_text(u.name)}</td>{_num(u.points, f'{u.points:,g}')}{_num(u.survival_rate, _pct(u.survival_rate))}"
            f"{_num(u.mean_eliminated, f'{u.mean_eliminated:,.1f}')}{_num(per, '–' if per is None else f'{per:,.1f}')}</tr>"
        )
    head = _head(("unit", False), (score_unit, True), ("survived", True), (f"{score_unit} eliminated a game", True),
                 (f"per 100 {score_unit} of cost", True))
    return f'<table class="sortable">{head}<tbody>{"".join(rows)}</tbody></table>'


def _profile(matrix: MetaMatrix, p: ListProfile) -> str:
    item = matrix.rows[p.index]
    t = p.tally
    low, high = t.interval
    facts = [f"tier {p.tier}", f"win rate {_pct(t.rate)} (95 % interval {low:.1%} – {high:.1%})", f"{t.games:,} games",
             f"mean margin {_signed(t.mean_margin)} {matrix.score_unit}",
             f"mean rounds {'–' if t.mean_rounds is None else f'{t.mean_rounds:.2f}'}"]
    who = f"{_text(item.name)}" + (f" — {_text(item.player)}" if item.player else "")
    return (
        f'<section class="list" id="list-{p.index}"><h3>{p.rank}. {_text(item.label)}</h3>'
        f'<p>{who} — <span class="muted">{_text(item.path)}</span><br>{html.escape(", ".join(facts))}</p>'
        f'{_matchups(matrix, "best matchups", p.best())}{_matchups(matrix, "worst matchups", p.worst())}'
        f'{_units(p.units, matrix.score_unit)}</section>'
    )


def _matrix_table(matrix: MetaMatrix, ps: list[ListProfile]) -> str:
    from armybuilder.meta.palette import rate_colour, text_colour

    order = [p.index for p in ps]
    cols = order if matrix.square else list(range(len(matrix.cols)))
    rank_of = {p.index: p.rank for p in ps}
    head = "".join(f'<th title="{_text(matrix.cols[j].label)}">{rank_of[j] if matrix.square else j + 1}</th>' for j in cols)
    rows = []
    for i in order:
        cells = []
        for j in cols:
            t = matrix.cell(i, j)
            if t is None:
                cells.append("<td></td>")
                continue
            bg, fg = rate_colour(t.rate), text_colour(rate_colour(t.rate))
            cells.append(f'<td style="background:#{bg[0]:02x}{bg[1]:02x}{bg[2]:02x};color:#{fg[0]:02x}{fg[1]:02x}{fg[2]:02x}" '
                         f'title="{_text(matrix.rows[i].label)} against {_text(matrix.cols[j].label)}: {_pct(t.rate)}, '
                         f'{t.games:,} games, replay seed {matrix.pairing_seed(i, j)}">'
                         f'{"–" if t.rate is None else round(t.rate * 100)}</td>')
        rows.append(f'<tr><th>{rank_of[i]}. {_text(matrix.rows[i].short_label)}</th>{"".join(cells)}</tr>')
    return f'<table class="matrix"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def render_html(matrix: MetaMatrix, heatmap: str | None = None, system_name: str | None = None) -> str:
    """The page: title, heat map, standings, every list's profile, the lists left out."""
    ps = profiles(matrix)
    against = "every list against every list" if matrix.square else f"{len(matrix.rows)} lists against a field of {len(matrix.cols)}"
    status = "" if matrix.complete else " — INCOMPLETE: some pairings have fewer games (run again with --resume)"
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Meta matrix — {_text(system_name or matrix.system)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Meta matrix — {_text(system_name or matrix.system)}, catalogue {_text(matrix.catalogue)}</h1>",
        f'<p class="muted">{html.escape(against)}: {len(matrix.cells):,} pairings × {matrix.games:,} game{"s" if matrix.games != 1 else ""}, seed {matrix.seed}{html.escape(status)}. '
        "A draw counts half; a list's figures pool every game it played (in a square matrix as first and as second list). "
        "Click a column heading to sort.</p>",
    ]
    if heatmap:
        parts.append(f'<p><a href="{html.escape(heatmap)}"><img class="heatmap" src="{html.escape(heatmap)}" '
                     'alt="the heat map of win rates, rows and columns ranked by strength"></a></p>')
    parts += ["<h2>Standings</h2>", _standings(matrix, ps)]
    if len(matrix.rows) <= MATRIX_TABLE_MAX and len(matrix.cols) <= MATRIX_TABLE_MAX:
        parts += ["<h2>Matrix</h2>", '<p class="muted">Row list playing first against the column list, win rate in %; '
                  "hover a cell for its games and replay seed.</p>", _matrix_table(matrix, ps)]
    parts += ["<h2>Why each list wins</h2>",
              '<p class="muted">Per list: its best and worst matchups (each with the command that narrates its first game, '
              f"roll for roll), and its units over every game it played: how often each survived and the {html.escape(matrix.score_unit)} "
              "of enemies it eliminated or routed a game.</p>"]
    parts += [_profile(matrix, p) for p in ps]
    if matrix.left_out:
        parts.append("<h2>Left out</h2><ul>" + "".join(f"<li>{_text(x.path)}: {_text(x.reason)}</li>" for x in matrix.left_out) + "</ul>")
    parts.append(f"<script>{SORTER}</script></body></html>\n")
    return "\n".join(parts)


def write_meta_html(matrix: MetaMatrix, out: Path, heatmap: Path | None = None, system_name: str | None = None) -> None:
    atomic_write_text(out, render_html(matrix, heatmap.name if heatmap else None, system_name))
