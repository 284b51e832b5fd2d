"""Hostile and broken YAML: clear errors with positions, never a traceback or a crash."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.core.errors import InputError
from armybuilder.core.yamlio import dump_document, load_document, merge_into, parse_text, to_plain

BOMB = """a: &a [x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
"""


def error_of(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        parse_text(text, "list.yaml")
    return info.value


def test_python_tag_is_refused_with_its_position():
    err = error_of("name: ok\nunits: !!python/object/apply:os.system ['echo hi']\n")
    assert err.first.line == 2 and err.first.column == 8
    assert "!!python/object/apply:os.system" in err.first.message


def test_custom_tags_are_refused():
    assert "not allowed" in error_of("a: !secret 3\n").first.message


def test_alias_bomb_is_refused_before_expansion():
    err = error_of(BOMB)
    assert "aliases" in err.first.message
    assert err.first.line is not None


def test_a_few_aliases_are_fine():
    doc = parse_text("base: &b {count: 3}\nother: *b\n", "x.yaml")
    assert to_plain(doc)["other"] == {"count": 3}


def test_deep_nesting_is_refused():
    assert "nested" in error_of("[" * 3000 + "]" * 3000).first.message
    assert "nested" in error_of("a:\n" + "".join("  " * i + "- \n" for i in range(1, 80))).first.message


def test_syntax_error_names_line_and_column():
    err = error_of("system: ragnarok2\nunits: [1, 2\nname: x\n")
    assert err.first.path == "list.yaml"
    assert err.first.line == 3
    assert "syntax" in err.first.message


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_bytes(b"system: ragnarok2\n\x00\x01\x02garbage")
    with pytest.raises(InputError) as info:
        load_document(path)
    assert "binary" in info.value.first.message and info.value.first.line == 2
    assert path.read_bytes().startswith(b"system")  # untouched


def test_invalid_utf8_is_refused(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(InputError) as info:
        load_document(path)
    assert "UTF-8" in info.value.first.message and info.value.first.line == 1


def test_huge_file_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    with pytest.raises(InputError) as info:
        load_document(path)
    assert "50.0 MiB" in info.value.first.message


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_document(tmp_path / "nope.yaml")
    with pytest.raises(InputError, match="folder"):
        load_document(tmp_path)


def test_merge_keeps_comments_of_untouched_items():
    doc = parse_text(
        "# my army\nname: Lions  # the best\nunits:\n  - a: 1  # first\n  - a: 2  # second\n  - a: 3  # third\n",
        "x.yaml",
    )
    merge_into(doc, {"name": "Lions", "units": [{"a": 2}, {"a": 3}, {"a": 4}]})
    text = dump_document(doc)
    assert "# my army" in text and "# the best" in text
    assert "a: 2  # second" in text and "a: 3  # third" in text
    assert "# first" not in text
    assert to_plain(parse_text(text, "x.yaml")) == {"name": "Lions", "units": [{"a": 2}, {"a": 3}, {"a": 4}]}


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(string.printable, max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=8), plain_values, max_size=5))
def test_merge_then_dump_round_trips(value):
    doc = parse_text("seed: 1\n", "x.yaml")
    merge_into(doc, value)
    assert to_plain(parse_text(dump_document(doc), "x.yaml")) == value


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_loads_or_fails_cleanly(text):
    try:
        parse_text(text, "fuzz.yaml")
    except InputError as exc:
        assert str(exc)


@pytest.mark.parametrize("text", ["a\x85b", "a\u2028b", "a\u2029b", "end\x85"])
def test_unicode_line_breaks_survive_a_save(text):
    from ruamel.yaml.comments import CommentedMap

    doc = CommentedMap(name=text, notes=[text])
    back = parse_text(dump_document(doc), "x.yaml")
    assert back["name"] == text and back["notes"] == [text]


@pytest.mark.parametrize("text", ["-_", "a: -_", "- [-_]"])
def test_values_ruamel_cannot_construct_fail_cleanly(text):
    with pytest.raises(InputError):
        parse_text(text, "f.yaml")
