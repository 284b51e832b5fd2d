"""Bounds wherever a user can ask for work, and the smaller refusals of hostile lists: each
answered at once, in words, with the position where there is one."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from armybuilder.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples"
LIONS = SAMPLES / "alahan-lions.yaml"


def _run(capsys, *argv: str) -> tuple[int, str, str, float]:
    started = time.monotonic()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return code, out, err, time.monotonic() - started


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [("--workers", "100000", "--workers must be between 1 and 256"), ("--workers", "0", "--workers must be between 1"),
     ("--games", str(10**11), "--games must be between 1 and 10000000"), ("--games", "0", "--games must be between 1"),
     ("--seed", "-1", "--seed must be between 0"), ("--task-games", str(10**11), "--task-games must be between 1")],
)
def test_meta_counts_are_capped_like_playtest(tmp_path, capsys, option, value, words):
    code, out, err, _ = _run(capsys, "meta", str(SAMPLES), option, value, "-o", str(tmp_path / "m.pdf"))
    assert code == 2 and words in err and out == ""
    assert not list(tmp_path.iterdir())


def test_meta_reports_fifos_devices_and_missing_files_one_by_one(tmp_path, capsys):
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("alahan-lions.yaml", "acheron-undead-host.yaml"):
        shutil.copy(SAMPLES / name, folder / name)
    os.mkfifo(folder / "pipe.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    code, out, err, _ = _run(capsys, "meta", str(folder), str(tmp_path / "typo.yaml"), "--games", "2", "--workers", "1",
                             "-o", str(tmp_path / "out" / "m.pdf"))
    assert code == 1, err  # played, with files left out
    assert "pipe.yaml: unreadable" in err and "named pipe (FIFO)" in err
    assert "zero.yaml: unreadable" in err and "character device" in err
    assert "typo.yaml: unreadable" in err and "no such file" in err
    assert "2 pairings" in out


def _unit_of(count: int, tmp_path: Path) -> Path:
    path = tmp_path / f"unit-{count}.yaml"
    path.write_text(LIONS.read_text(encoding="utf-8").replace("count: 12, leader: true}", f"count: {count}, leader: true}}"), encoding="utf-8")
    return path


def test_a_fray_of_a_unit_larger_than_the_rules_allow_is_refused_at_once(tmp_path, capsys):
    huge = _unit_of(999, tmp_path)
    code, out, err, seconds = _run(capsys, "odds", "ragnarok2", "--fray", f"{huge}:1", "--vs", f"{huge}:1")
    assert code == 2 and out == ""
    assert "has 1002 fighters; the army scheme allows at most 20 in a unit" in err
    assert seconds < 30  # not minutes of enumeration
    code, out, _, _ = _run(capsys, "odds", "ragnarok2", "--fray", f"{LIONS}:1", "--vs", f"{LIONS}:2")
    assert code == 0 and "exact" in out  # a legal unit still gets its odds


def test_a_huge_list_is_refused_by_its_size_before_parsing(tmp_path, capsys):
    text = LIONS.read_text(encoding="utf-8")
    head, _, _ = text.partition("units:")
    unit = "  - name: Guards {i}\n    troops: {{profile: alahan-guard-of-alahan, count: 12, leader: true}}\n"
    path = tmp_path / "army-of-millions.yaml"
    path.write_text(head + "units:\n" + "".join(unit.format(i=i) for i in range(71_000)), encoding="utf-8")
    assert path.stat().st_size > 4_000_000
    for argv in (["validate", str(path)], ["export", "--text", str(path)], ["fingerprint", str(path)],
                 ["meta", str(path), str(LIONS), "--games", "2", "--workers", "1", "-o", str(tmp_path / "m.pdf")]):
        code, out, err, seconds = _run(capsys, *argv)
        assert code == 2, argv
        assert "MiB; files over 256 KiB are refused" in out + err and "alias" not in out + err
        assert seconds < 20, argv


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    path = tmp_path / name
    text = LIONS.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_true_is_not_a_count_and_binary_is_not_a_name(tmp_path, capsys):
    booly = _variant(tmp_path, "booly.yaml", "count: 12, leader: true}", "count: true, leader: true}")
    code, out, _, _ = _run(capsys, "validate", str(booly))
    assert code == 2 and "booly.yaml:23:54: units[0].troops.count: a number is needed here, not true or false" in out
    binary = _variant(tmp_path, "binary.yaml", "name: Lions of the dawn", "name: !!binary SGVsbG8=")
    code, out, _, _ = _run(capsys, "validate", str(binary))
    line = LIONS.read_text(encoding="utf-8").splitlines().index("name: Lions of the dawn") + 1
    assert code == 2 and f"binary.yaml:{line}:7: the YAML tag !!binary is not allowed" in out
    code, out, _, _ = _run(capsys, "validate", "--format", "json", str(booly))
    assert "not true or false" in json.loads(out)["files"][0]["error"]


def test_a_duplicate_key_error_quotes_a_bounded_excerpt(tmp_path, capsys):
    path = _variant(tmp_path, "dup.yaml", "name: Lions of the dawn", f"name: \"{'y' * 100_000}\"\nname: \"{'z' * 100_000}\"")
    code, out, _, _ = _run(capsys, "validate", str(path))
    assert code == 2 and "found duplicate key" in out and "(100,000 characters)" in out
    assert len(out) < 2000


@pytest.mark.parametrize("date", ["2024-02-30", "2024-13-45"])
def test_an_invalid_date_names_its_field(tmp_path, capsys, date):
    path = _variant(tmp_path, "date.yaml", "people: alahan", f"people: alahan\ndate: {date}")
    code, out, _, _ = _run(capsys, "validate", str(path))
    line = path.read_text(encoding="utf-8").splitlines().index(f"date: {date}") + 1
    assert code == 2 and f"date.yaml:{line}:7: date: '{date}' is not a valid date" in out


@pytest.mark.parametrize(("value", "given"), [("[1, 2]", "a list"), ("{day: 1}", "a mapping"), ("noon", "'noon'")])
def test_a_date_of_another_kind_is_said_in_the_file_formats_words(tmp_path, capsys, value, given):
    path = _variant(tmp_path, "date.yaml", "people: alahan", f"people: alahan\ndate: {value}")
    code, out, _, _ = _run(capsys, "validate", str(path))
    line = path.read_text(encoding="utf-8").splitlines().index(f"date: {value}") + 1
    assert code == 2 and f"date.yaml:{line}:" in out and f"date: a date written YYYY-MM-DD is needed here, not {given}" in out
    assert "Input should" not in out


def test_playtest_names_the_entries_it_cannot_play(tmp_path, capsys):
    path = _variant(tmp_path, "unknown.yaml", "profile: alahan-paladin-of-alahan-1", "profile: alahan-paladin-of-nowhere")
    code, out, err, _ = _run(capsys, "playtest", str(path), "--vs", "alahan-lions", "--games", "2")
    assert code == 0 and "wins" in out
    assert "warning: " in err and "1 entry the catalogue does not know" in err and "'alahan-paladin-of-nowhere'" in err
    code, out, err, _ = _run(capsys, "playtest", str(path), "--vs", "alahan-lions", "--games", "2", "--json")
    assert any("alahan-paladin-of-nowhere" in w for w in json.loads(out)["warnings"])
    code, out, err, _ = _run(capsys, "playtest", str(LIONS), "--vs", "alahan-lions", "--games", "2")
    assert "warning" not in err  # a sound list plays without a word
