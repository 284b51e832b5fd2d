"""Hostile files and arguments: refused at once with a position in plain words, exit 2."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from armybuilder.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"
TEXT = SAMPLE.read_text(encoding="utf-8")


def _run(capsys, argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    return code, out + err


# --------------------------------------------------------------------------- not regular files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    started = time.monotonic()
    code, text = _run(capsys, ["validate", fifo])
    assert code == 2 and "named pipe" in text and "pipe.yaml" in text
    assert time.monotonic() - started < 5  # never waits for a writer


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("command", [["validate"], ["fingerprint"], ["export", "--text"], ["list", "upgrade"]])
def test_a_device_or_a_link_to_one_is_refused(tmp_path, capsys, command):
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    for target in ("/dev/zero", link):
        argv = [*command[:2], target] if command[0] == "list" else [command[0], target, *command[1:]]
        code, text = _run(capsys, argv)
        assert code == 2 and "character device" in text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_bad_file_in_a_folder_does_not_stop_the_others(tmp_path, capsys):
    (tmp_path / "a-good.yaml").write_text(TEXT, encoding="utf-8")
    os.mkfifo(tmp_path / "b-pipe.yaml")
    (tmp_path / "c-zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "d-good.yaml").write_text(TEXT, encoding="utf-8")
    code, text = _run(capsys, ["validate", tmp_path, "--format", "json"])
    assert code == 2
    payload = json.loads(text)
    assert [f.get("valid") for f in payload["files"]] == [True, False, False, True]
    assert payload["summary"] == {"lists": 4, "legal": 2, "invalid": 0, "unreadable": 2}


# --------------------------------------------------------------------------- plain-word positions


POSITIONED = {
    "count: -_": (TEXT.replace("count: 12", "count: -_"), r"23:\d+: units\[0\]\.troops\.count: '-_' is not a valid number or date"),
    "huge integer": (TEXT.replace("count: 12", "count: " + "9" * 100_000), r"23:\d+: units\[0\]\.troops\.count: a number with 100000 digits"),
    "raw ESC": (TEXT.replace("name: Paladins", "name: Pal\x1bdins"), r"30:14: the character U\+001B is not allowed"),
    "non-string key": ("system: ragnarok2\n1: x\n", r"2:1: \[1\]: Keys should be strings"),
    "deep flow": ("a: " + "[" * 5000 + "]" * 5000 + "\n", r"1:\d+: values are nested more than 48 levels"),
    "deep blocks": ("".join(" " * i + "k:\n" for i in range(600)), r"\d+:\d+: values are nested more than 48 levels"),
    "deep dashes": ("- " * 3000 + "x\n", r"1:\d+: values are nested more than 48 levels"),
    "deep mappings": ("a: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n", r"1:\d+: values are nested more than 48 levels"),
}


@pytest.mark.parametrize("case", sorted(POSITIONED))
def test_errors_name_line_and_column_in_plain_words(tmp_path, capsys, case):
    text, expected = POSITIONED[case]
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    started = time.process_time()
    code, shown = _run(capsys, ["validate", path])
    assert code == 2
    assert re.search(r"bad\.yaml:" + expected, shown), shown
    assert "position" not in shown and "sys.set_int_max_str_digits" not in shown and "string index" not in shown
    assert time.process_time() - started < 5  # deep nesting is found by a scan, not by RecursionError


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_read(tmp_path, capsys, encoding):
    path = tmp_path / "wide.yaml"
    data = TEXT.encode(encoding)
    if not encoding.endswith(("16", "32")):  # the -be codecs write no mark: add it
        data = "\ufeff".encode(encoding) + data
    path.write_bytes(data)
    code, shown = _run(capsys, ["validate", path])
    assert code == 0 and "LEGAL" in shown


# --------------------------------------------------------------------------- format version


@pytest.mark.parametrize("version", ["99", "-3", "10000000000000000000000000000000000", "'1'", "true", "1.0"])
def test_an_unknown_list_format_version_is_refused(tmp_path, capsys, version):
    path = tmp_path / "v.yaml"
    path.write_text(TEXT.replace("armybuilder: 1", f"armybuilder: {version}"), encoding="utf-8")
    before = path.read_bytes()
    for argv in (["validate", path], ["list", "upgrade", path], ["fingerprint", path]):
        code, shown = _run(capsys, argv)
        assert code == 2
        assert re.search(r"v\.yaml:15:14: armybuilder: list file format version .* is not supported "
                         r"\(this armybuilder reads version 1\)", shown), shown
    assert path.read_bytes() == before  # list upgrade never rewrote it


# --------------------------------------------------------------------------- count arguments


@pytest.mark.parametrize(
    "extra, flag",
    [
        (["--games", "1000000000000"], "--games"),
        (["--games", "0"], "--games"),
        (["--seed", "-1"], "--seed"),
        (["--seed", "1" + "0" * 400], "--seed"),
        (["--workers", "0"], "--workers"),
        (["--workers", "100000"], "--workers"),
    ],
)
def test_playtest_counts_are_range_checked_first(capsys, extra, flag):
    # the list does not even exist: the range is checked before anything is loaded
    code, shown = _run(capsys, ["playtest", "no-such-list.yaml", "--vs", "alahan-lions", *extra])
    assert code == 2 and f"{flag} must be between" in shown


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "ragnarok2", "--attack", "-5", "--defense", "3", "--strength", "3", "--resistance", "3", "--dice", "4"],
        ["odds", "ragnarok2", "--attack", "3", "--defense", "3", "--strength", "3", "--resistance", "3", "--dice", "4", "--attack-shift", "999999999"],
        ["odds", "morpheus-ragnarok", "--attack", "3", "--defense", "3", "--strength", "3", "--resistance", "3", "--attack-bonus", "-999999999"],
        ["odds", "morpheus-ragnarok", "--attack", "-1", "--defense", "3", "--strength", "3", "--resistance", "3"],
        ["odds", "rattle-and-rend", "--bonus", "99999999999"],
    ],
)
def test_odds_values_are_range_checked(capsys, argv):
    code, shown = _run(capsys, argv)
    assert code == 2 and "must be between" in shown
