"""The meta report at tournament scale: 120 lists from a synthetic results file, read back as
an organiser reads it (PDF text, the HTML page through a parser), labels, tiers and colours."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from PIL import Image
from pypdf import PdfReader
from synthetic_meta import synthetic_setup, write_results

from armybuilder.meta.analysis import profiles, tiers
from armybuilder.meta.labels import path_labels, short_labels
from armybuilder.meta.palette import rate_colour, text_colour
from armybuilder.meta.report import write_outputs
from armybuilder.meta.run import RunState, run_meta
from armybuilder.meta.runners import LocalRunner
from armybuilder.pdf.meta_report import MAX_PNG_PIXELS

LISTS = 120
GAMES = 10


class NoRunner(LocalRunner):
    def run(self, context, tasks, *args, **kwargs):
        assert not tasks, "every game is in the results file: nothing may be played"


@pytest.fixture(scope="module")
def field(tmp_path_factory):
    """120 lists, every ordered pairing read back from a synthetic results file, every output written."""
    folder = tmp_path_factory.mktemp("report")
    setup = synthetic_setup(LISTS)
    write_results(setup, GAMES, 1, folder / "m.results.jsonl")
    state = RunState()
    matrix = run_meta(setup, GAMES, 1, NoRunner(1), folder / "m.results.jsonl", resume=True, state=state)
    assert state.played == 0 and matrix.complete and len(matrix.cells) == LISTS * (LISTS - 1)
    written = write_outputs(matrix, folder / "m")
    assert not written.failed, written.failed
    return matrix, folder


def test_every_output_of_a_120_list_field(field):
    matrix, folder = field
    reader = PdfReader(folder / "m.pdf")
    first = reader.pages[0]
    assert float(first.mediabox.width) <= 2880 and float(first.mediabox.height) <= 2880
    assert len(reader.pages) > 10  # the standings and the profiles went on over many pages
    heat_map = first.extract_text()
    standings = "\n".join(page.extract_text() for page in reader.pages[1:5])
    for item in matrix.rows:  # every list by its distinct short label on the heat map, its player in the legend
        assert item.short_label in heat_map, item.short_label
        assert item.player in standings
    assert "Standings against the field" in standings and "Why each list wins" in standings
    last = reader.pages[-1].extract_text()
    assert f"{LISTS}. {matrix.rows[profiles(matrix)[-1].index].label}" in last  # the last list's profile made it in
    image = Image.open(folder / "m.png")
    assert max(image.size) <= MAX_PNG_PIXELS
    assert (folder / "m.csv").read_text().count("\n") == LISTS * (LISTS - 1) + 1


def test_standings_fit_the_page_with_thousands_separators(field):
    matrix, folder = field
    reader = PdfReader(folder / "m.pdf")
    standings = reader.pages[1].extract_text()
    assert "Standings against the field" in standings
    best = profiles(matrix)[0].tally
    assert f"{best.games:,}" in standings and "," in f"{best.games:,}"
    for page in reader.pages[1:]:
        assert float(page.mediabox.width) == pytest.approx(841.89, abs=0.1)  # landscape A4, never a grown page


class Page(HTMLParser):
    """Tables (their headings and rows of cells), scripts, ids and links of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self.scripts: list[tuple[dict, str]] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self._cell: dict | None = None
        self._script: dict | None = None
        self._stack: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "table":
            self._stack.append({"class": a.get("class", ""), "head": [], "rows": []})
        elif tag == "tr" and self._stack:
            self._stack[-1]["rows"].append([])
        elif tag in ("td", "th") and self._stack:
            self._cell = {"tag": tag, "attrs": a, "text": ""}
        elif tag == "script":
            self._script = a
            self.scripts.append((a, ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._stack:
            self._stack[-1]["rows"][-1].append(self._cell)
            self._cell = None
        elif tag == "table" and self._stack:
            self.tables.append(self._stack.pop())
        elif tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data
        if self._script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)


def test_the_html_page_sorts_in_a_browser_without_downloading_anything(field):
    matrix, folder = field
    page = Page()
    page.feed((folder / "m.html").read_text(encoding="utf-8"))
    assert all("src" not in attrs for attrs, _ in page.scripts)  # the sorter is inline
    assert any("sortBy" in text and "data-value" in text for _, text in page.scripts)
    assert "http://" not in (folder / "m.html").read_text() and "https://" not in (folder / "m.html").read_text()
    sortable = [t for t in page.tables if "sortable" in t["class"]]
    standings = sortable[0]
    head, *rows = standings["rows"]
    assert [c["text"] for c in head][:6] == ["#", "tier", "list", "name", "player", "file"]
    assert len(rows) == LISTS and all(len(r) == len(head) for r in rows)
    for cell, heading in zip(rows[0], head, strict=True):  # numeric columns sort by value, not by text
        if heading["attrs"].get("data-type") == "num":
            float(cell["attrs"]["data-value"])
    assert {r[2]["text"] for r in rows} == {x.label for x in matrix.rows}
    # every list has its profile: best and worst matchups with the replay command, and its units
    assert len(sortable) == 1 + 3 * LISTS
    for link in page.links:
        if link.startswith("#"):
            assert link[1:] in page.ids
    assert "--seed" in page.tables[-1]["rows"][1][-1]["text"] or any("--seed" in c["text"] for t in sortable[1:3] for r in t["rows"] for c in r)


def test_names_from_files_are_escaped_in_the_html(tmp_path):
    from armybuilder.meta.html_report import render_html

    setup = synthetic_setup(4)
    setup.rows[0].army = setup.rows[0].army.model_copy(update={"player": "<script>alert(1)</script> & co"})
    write_results(setup, 2, 1, tmp_path / "r.jsonl")
    matrix = run_meta(setup, 2, 1, NoRunner(1), tmp_path / "r.jsonl", resume=True)
    text = render_html(matrix)
    assert "<script>alert(1)</script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in text


def test_one_game_a_pairing_is_said_in_the_singular(tmp_path):
    from armybuilder.meta.html_report import render_html
    from armybuilder.pdf.meta_report import _subtitle

    setup = synthetic_setup(3)
    write_results(setup, 1, 1, tmp_path / "r.jsonl")
    matrix = run_meta(setup, 1, 1, NoRunner(1), tmp_path / "r.jsonl", resume=True)
    assert "6 pairings × 1 game, seed 1" in render_html(matrix)
    assert "6 pairings × 1 game, seed 1" in _subtitle(matrix)


def test_short_labels_tell_lists_sharing_a_prefix_apart():
    labels = [f"akkylannie-griffin-crusade-v{k:02d}" for k in range(1, 40)] + ["akkylannie-griffin-crusade", "alahan-lions"]
    short = short_labels(labels)
    assert len(set(short)) == len(short)
    assert all(len(s) <= 28 for s in short)
    assert short[6].endswith("-v07") and short[-1] == "alahan-lions"
    same_tail = ["a-very-long-common-beginning-x-final", "a-very-long-common-beginning-y-final"]
    assert len(set(short_labels(same_tail))) == 2
    assert path_labels(["club/a/list.yaml", "club/b/list.yaml", "club/other.yaml"]) == ["a/list", "b/list", "other"]
    assert path_labels(["x.yaml", "x.yml"]) == ["x", "x (2)"]


def test_tiers_start_at_a_list_clearly_weaker_than_the_tiers_first():
    from armybuilder.meta.tally import Standing, Tally

    def standing(rank, wins, games=1000):
        t = Tally()
        t.add(wins, 0, games - wins)
        return Standing(rank, rank, t)

    # 80 % and 78 %: intervals overlap; 70 %: wholly below 80 %'s and 10 points behind; 69 %: with 70 %
    assert tiers([standing(1, 800), standing(2, 780), standing(3, 700), standing(4, 690)]) == [1, 1, 2, 2]
    # a huge sample: 50.0 % and 49.0 % are told apart by their intervals but not 5 points apart: one tier
    assert tiers([standing(1, 500_000, 1_000_000), standing(2, 490_000, 1_000_000)]) == [1, 1]


def _deuteranope(colour):
    """What a deuteranope sees (Machado, Oliveira and Fernandes 2009, severity 1), in linear RGB."""
    def linear(v):
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour)
    m = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
    return tuple(row[0] * r + row[1] * g + row[2] * b for row in m)


def test_the_palette_keeps_winning_and_losing_apart_for_colour_blind_readers():
    for rate in (0.05, 0.2, 0.35):
        low, high = _deuteranope(rate_colour(rate)), _deuteranope(rate_colour(1 - rate))
        assert sum((x - y) ** 2 for x, y in zip(low, high, strict=True)) ** 0.5 > 0.1, rate
    # a red/green ramp of the same lightness does not pass the same test
    red, green = _deuteranope((192, 20, 27)), _deuteranope((30, 107, 52))
    assert sum((x - y) ** 2 for x, y in zip(red, green, strict=True)) ** 0.5 < 0.1
    assert text_colour(rate_colour(0.0)) == (255, 255, 255) and text_colour(rate_colour(0.5)) != (255, 255, 255)
