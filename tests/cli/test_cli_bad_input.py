"""Hostile and broken list files: a one-paragraph error with a position, exit 2, file untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from armybuilder.cli import main

HOSTILE = {
    "broken.yaml": b"system: ragnarok2\nunits: [\n",
    "tag.yaml": b'a: !!python/object/apply:os.system ["echo pwned"]\n',
    "bomb.yaml": (
        b'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
        b"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        b"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        b"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        b"f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    ),
    "deep.yaml": b"a: " + b"[" * 3000 + b"]" * 3000 + b"\n",
    "binary.yaml": bytes(range(256)) * 8,
    "nosystem.yaml": b"system: nosuch\ncatalogue: 1.0.0\nformat: x\n",
    "wrongtype.yaml": b"system: ragnarok2\ncatalogue: 1.0.0\nformat: 1000-ap\npeople: alahan\nunits: 5\n",
    "scalar.yaml": b"just a sentence\n",
}

POSITION = re.compile(r"\.yaml:\d+:\d+: ")


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", [["validate"], ["fingerprint"], ["export", "--text"], ["list", "upgrade", "--dry-run"]])
def test_hostile_file_gets_a_clean_error(tmp_path, capsys, name, command):
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    if command[0] == "list":
        argv = [*command[:2], str(path), *command[2:]]
    else:
        argv = [command[0], str(path), *command[1:]]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    text = out + err
    assert "Traceback" not in text
    if name != "scalar.yaml":
        assert POSITION.search(text), text
    assert path.read_bytes() == HOSTILE[name]


def test_huge_file_is_refused_without_being_read(tmp_path, capsys):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "huge.yaml" in out + err and "Traceback" not in out + err


def test_missing_file_and_bad_usage(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2
    assert main(["validate"]) == 2
    assert main(["no-such-command"]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err


def test_json_report_marks_unreadable_files(tmp_path, capsys):
    import json

    path = tmp_path / "broken.yaml"
    path.write_bytes(HOSTILE["broken.yaml"])
    assert main(["validate", str(path), "--format", "json"]) == 2
    payload = json.loads(capsys.readouterr().out)
    (entry,) = payload["files"]
    assert entry["readable"] is False and entry["valid"] is False
    assert POSITION.search(entry["error"])
    assert payload["summary"]["unreadable"] == 1


def test_playtest_negative_seed_is_a_usage_error_not_an_internal_one(capsys):
    sample = Path(__file__).resolve().parents[2] / "catalog/ragnarok2/samples/alahan-lions.yaml"
    code = main(["playtest", str(sample), "--vs", "alahan-lions", "--games", "1", "--seed", "-1"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "--seed must be" in err and "(got -1)" in err
    assert "internal error" not in out + err
