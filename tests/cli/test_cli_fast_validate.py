"""The read-only fast YAML path gives the round-trip loader's answers, to the letter.

Both loaders read the hostile corpus, every bundled sample (also broken on purpose)
and generated documents; values (with their types), the position of every key,
value and item, errors and ``validate``'s findings and fingerprints must agree.
"""

from __future__ import annotations

import enum
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli_bad_input import HOSTILE

from armybuilder import cli
from armybuilder.core import fastyaml, yamlio
from armybuilder.core.catalog import catalog_root
from armybuilder.core.errors import InputError
from armybuilder.core.lists import load_list

SAMPLES = sorted(p for p in Path(str(catalog_root())).glob("*/samples/*.yaml"))

EDGE = {
    "crlf.yaml": b"system: ragnarok2\r\ncatalogue: 1.0.0\r\nformat: 1000-ap\r\nname: x\r\n",
    "bom.yaml": b"\xef\xbb\xbfsystem: ragnarok2\ncatalogue: 1.0.0\nformat: 1000-ap\n",
    "tabs.yaml": b"system: ragnarok2\nname: a\tb\ncatalogue:\t1.0.0\n",
    "yaml11.yaml": b"a: yes\nb: no\nc: on\nd: off\ne: y\nf: No\n",
    "numbers.yaml": b"a: 1_000\nb: 0x1F\nc: 012\nd: 1e3\ne: .inf\nf: -.5\ng: +5\nh: 0o17\ni: 1.\nj: -0\nk: 3.25\nl: 1:20\n",
    "dates.yaml": b"a: 2024-01-01\nb: 2024-1-1 10:00:00\nc: 2024-01-01T10:00:00Z\n",
    "nulls.yaml": b"a: ~\nb: null\nc:\nd: NULL\ne: Null\nf: ''\ng: \"~\"\n",
    "bools.yaml": b"a: true\nb: False\nc: TRUE\nd: 'true'\ne: tRue\n",
    "merge.yaml": b"base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n",
    "anchor-again.yaml": b"a: &x 1\nb: &x 2\nc: *x\n",
    "dupe.yaml": b"system: ragnarok2\nsystem: ragnarok2\n",
    "dupe-types.yaml": b"1: a\ntrue: b\n",
    "tags.yaml": b"a: !!str 5\nb: ! 5\nc: !!int '7'\n",
    "multi.yaml": b"---\na: 1\n---\nb: 2\n",
    "directive.yaml": b"%YAML 1.1\n---\na: yes\n",
    "empty.yaml": b"",
    "comments.yaml": b"# only a comment\n",
    "explicit-empty.yaml": b"---\n...\n",
    "complex-key.yaml": b"? [a, b]\n: 1\n",
    "breaks.yaml": "a: x\u2028y\nb: z\x85w\n".encode(),
    "unicode.yaml": "nâme: Tir-Nâ-Bor\nπ: [Ω, 'é', \"ü\"]\nlong: \U0001F600 ok\n".encode(),
    "control.yaml": b"a: x\x07y\n",
    "depth47.yaml": b"a: " + b"[" * 46 + b"1" + b"]" * 46 + b"\n",
    "depth48.yaml": b"a: " + b"[" * 47 + b"1" + b"]" * 47 + b"\n",
    "depth49.yaml": b"a: " + b"[" * 48 + b"1" + b"]" * 48 + b"\n",
    "block-scalars.yaml": b"a: |\n  one\n  two\nb: >-\n  folded\n  text\nc: 'it''s'\nd: \"esc\\ttab\\u00e9\"\n",
    "flow.yaml": b"a: {b: [1, {c: d}], e: 'f'}\ng: [ ]\nh: {}\n",
    "plain-multiline.yaml": b"a: this is\n  a long\n  plain scalar\nb: - not a seq\n",
    "seq-root.yaml": b"- a\n- b: c\n  d: e\n-\n  - 1\n",
    "odd-keys.yaml": b"'quoted key': 1\n\"x y\": 2\n3: three\n~: nothing\n",
    "anchors-only.yaml": b"a: &x 1\nb: 2\n",
    "unterminated.yaml": b"a: 'open\n",
    "bad-indent.yaml": b"a:\n  b: 1\n c: 2\n",
    "bad-value.yaml": b"a: -_\n",
    "colon.yaml": b"a: b: c\n",
    "empty-values.yaml": b"a:\nb:\n  c:\n  d:\ne: [x, , y]\nf: {g: , h}\ng:\n  -\n  - \n  - 1\nlast:",
    "empty-then-comment.yaml": b"a:   # nothing\n\n\nb: 1\nc:\n...\n",
    "huge-int.yaml": b"a: 123456789012345678901234567890\nb: -0.0\n",
}


def _typed(value):
    """Plain values with their types, so that 1, 1.0, True and '1' differ."""
    if isinstance(value, dict):
        return ("map", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [_typed(v) for v in value])
    if isinstance(value, bool) or value is None:
        return (type(value).__name__, value)
    for kind in (int, float, str, bytes):
        if isinstance(value, kind):
            if kind is float and value != value:
                return ("float", "nan")
            return (kind.__name__, kind(value))
    if isinstance(value, enum.Enum):
        return ("enum", value.value)
    return (type(value).__name__, repr(value))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(key, str):
                yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _read(reader, text):
    try:
        return "ok", reader(text)
    except InputError as exc:
        return "error", str(exc)


def assert_same_reading(text: str, label: str = "doc.yaml") -> bool:
    """Both loaders agree on ``text``; True when the fast path read it itself."""
    slow = _read(lambda t: yamlio.parse_text(t, label), text)
    fast = _read(lambda t: fastyaml.parse_text(t, label), text)
    assert slow[0] == fast[0], (slow, fast)
    if slow[0] == "error":
        assert slow[1] == fast[1]
        return False
    assert _typed(yamlio.to_plain(fast[1])) == _typed(yamlio.to_plain(slow[1]))
    for path in _paths(slow[1]):
        assert fastyaml.locate(fast[1], list(path)) == yamlio.locate(slow[1], list(path)), path
    return isinstance(fast[1], (fastyaml.PosMap, fastyaml.PosSeq)) or type(fast[1]) in (str, int, float, bool, type(None))


CORPUS = {**{f"hostile-{k}": v for k, v in HOSTILE.items()}, **EDGE}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_documents_read_alike(name):
    data = CORPUS[name]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return  # refused before parsing by both (decode_text), checked through validate below
    assert_same_reading(text, name)


def test_samples_take_the_fast_path_and_read_alike():
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        fastyaml._compose(text)  # raises if the sample would go round-trip
        assert assert_same_reading(text, path.name)


def _validate_both(path: Path, monkeypatch):
    fast = cli.validate_one(path)
    with monkeypatch.context() as m:
        # the round trip, and pydantic's models (no plain mirrors): today's reading in full
        m.setattr("armybuilder.core.lists.read_list", lambda path, data=None, plain=False: load_list(path))
        slow = cli.validate_one(path)
    return fast, slow


def _broken_variants(text: str) -> dict[str, str]:
    """A sample made wrong in ways that produce findings and positioned errors."""
    lines = text.splitlines(keepends=True)
    return {
        "as-is": text,
        "unknown-field": text + "colour: red\n",
        "wrong-type": text.replace("name: ", "name: [", 1).replace("\n", "]\n", 1) if "name: " in text else text + "name: [1]\n",
        "bad-catalogue": "".join(line if not line.startswith("catalogue:") else "catalogue: 9.9.9\n" for line in lines),
        "no-system": "".join(line for line in lines if not line.startswith("system:")),
        "truncated": "".join(lines[: max(1, len(lines) * 2 // 3)]),
        "counts-doubled": text.replace("count: ", "count: 9"),
        "first-unit-dropped": text.replace("- profile:", "- profil:", 1),
    }


def test_validate_gives_identical_findings_and_fingerprints(tmp_path, monkeypatch):
    files = []
    for name, data in CORPUS.items():
        path = tmp_path / name
        path.write_bytes(data)
        files.append(path)
    for sample in SAMPLES:
        for kind, text in _broken_variants(sample.read_text(encoding="utf-8")).items():
            path = tmp_path / f"{sample.parent.parent.name}-{sample.stem}-{kind}.yaml"
            path.write_text(text, encoding="utf-8")
            files.append(path)
    statuses = set()
    for path in files:
        fast, slow = _validate_both(path, monkeypatch)
        assert fast == slow, path.name
        statuses.add(fast[0])
    assert statuses == {"legal", "invalid", "unreadable"}


# --------------------------------------------------------------------------- generated

_scalar = st.one_of(
    st.sampled_from(["yes", "no", "on", "true", "False", "null", "~", "", "1_0", "0x1", "012", "1e3",
                     "1.5", "-0", "+1", "2024-01-01", "<<", "=", ".inf", ".NaN", "a b", "é", "x: y",
                     "- z", "#c", "'q'", '"d"', "1:2", "\t", "!x", "&a", "*a", "a\\u2028"]),
    st.integers(-10**20, 10**20).map(str),
    st.text(alphabet="ab -:#'\"\\é{}[],.0123456789", max_size=8),
)


@st.composite
def _documents(draw, depth=0):
    kind = draw(st.sampled_from(["map", "seq", "flow", "scalar"] if depth < 3 else ["scalar"]))
    indent = "  " * depth
    if kind == "scalar":
        return draw(_scalar)
    if kind == "flow":
        items = draw(st.lists(_scalar, max_size=4))
        return "[" + ", ".join(items) + "]"
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        child = draw(_documents(depth + 1))
        multi = "\n" in child or child.startswith(("- ", "  ")) and False
        if kind == "map":
            key = draw(st.sampled_from(["a", "b", "c", "1", "true", "'k'", "n m", "a", "é"]))
            if draw(st.booleans()) and not multi:
                lines.append(f"{indent}{key}: {child}")
            else:
                lines.append(f"{indent}{key}:\n{_indented(child, depth + 1)}")
        else:
            if draw(st.booleans()) and not multi:
                lines.append(f"{indent}- {child}")
            else:
                lines.append(f"{indent}-\n{_indented(child, depth + 1)}")
    return "\n".join(lines)


def _indented(child: str, depth: int) -> str:
    indent = "  " * depth
    return "\n".join(line if line.startswith(indent) else indent + line for line in child.split("\n"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_generated_documents_read_alike(text):
    assert_same_reading(text + "\n")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab:-[]{},'\"#&*!|>?%@ \n\t0123.é\r", max_size=40))
def test_generated_noise_reads_alike(text):
    assert_same_reading(text)


def test_limits_agree_with_the_round_trip_loader():
    assert fastyaml.LIST_FILE_LIMIT == yamlio.LIST_FILE_LIMIT
    assert fastyaml.MAX_DEPTH == yamlio.MAX_DEPTH
    assert fastyaml.MAX_EXPANDED_NODES == yamlio.MAX_EXPANDED_NODES


@pytest.mark.parametrize("text", [">\n#", "|\n#x", "plain"])
def test_a_lone_top_level_scalar_reads_as_the_round_trip_reads_it(text):
    """Found by the noise test: libyaml takes a '#' line under a top-level block scalar for a
    comment, the round trip for text; a lone scalar now goes to the round trip."""
    assert_same_reading(text)


def test_an_anchor_defined_again_reads_without_a_python_warning(tmp_path, capsys):
    """YAML lets an anchor be defined again; ruamel's warning about it must not reach the
    terminal (or a TUI screen) raw: the file reads, the alias names the latest anchor."""
    import warnings

    path = tmp_path / "again.yaml"
    path.write_bytes(EDGE["anchor-again.yaml"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = yamlio.load_document(path)
        cli.main(["validate", "--no-cache", str(path)])
    assert doc["c"] == 2
    assert not caught, [str(w.message) for w in caught]
    assert "Warning" not in capsys.readouterr().err
