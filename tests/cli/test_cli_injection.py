"""Terminal escapes in a list file never reach the terminal raw, through any command.

An organiser validates lists that players send: an id or a name holding OSC 52 would
set the organiser's clipboard, a CSI clear the screen, a C1 control (U+009B, U+009D)
do the same on terminals that honour 8-bit controls.  Every command prints them as
visible escapes (``\\x1b``, ``\\u009b``) instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.core.sanitize import has_unsafe, safe_json, visible, visible_lines

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"

#: OSC 52 (clipboard), CSI clear, C1 CSI and OSC, BEL, backspace, bidi override, DEL
EVIL = "\x1b]52;c;UFdORUQtQ0xJUA==\x07\x1b[2J\u009b2J\u009d0;owned\u009c\x08\u202e\x7f"

#: what a terminal must never receive: C0 other than newline and tab, DEL, C1, bidi
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _evil_list(tmp_path: Path, where: str = "all") -> Path:
    text = SAMPLE.read_text(encoding="utf-8")
    quoted = json.dumps(EVIL)
    if where in ("all", "names"):
        text = text.replace("name: Lions of the dawn", f"name: {json.dumps('Lions' + EVIL)}")
        text = text.replace("- name: Paladins ", f"- name: {json.dumps('Paladins' + EVIL)} ")
        text = text.replace("    notes: the centre", f"    notes: {json.dumps('centre' + EVIL)}\n    x_notes: the centre", 0)
    if where == "all":
        text = text.replace("tactics: [brutality,", f"tactics: [brutality, {quoted},")
        text = text.replace("- profile: alahan-musician-of-alahan-1", f"- profile: {json.dumps('alahan-' + EVIL)}")
    if where == "system":
        text = text.replace("system: ragnarok2", f"system: {quoted}")
    if where == "format":
        text = text.replace("format: 1000-ap", f"format: {quoted}")
    path = tmp_path / "evil.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _clean(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"raw control {found.group()!r} at {found.start()}: {text[max(0, found.start() - 60):found.start() + 20]!r}"


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    _clean(out)
    _clean(err)
    assert "Traceback" not in out + err
    return code, out + err


def test_sanitiser_escapes_every_family_visibly():
    shown = visible(EVIL + "\n\t")
    assert not has_unsafe(shown) and not RAW.search(shown)
    assert "\\x1b]52;c;" in shown and "\\u009b2J" in shown and "\\u009d0;owned\\u009c" in shown
    assert "\\x07" in shown and "\\u202e" in shown and "\\x7f" in shown
    assert shown.endswith("\\x0a\\x09")
    assert visible_lines("a\nb\tc\x1b") == "a\nb\tc\\x1b"
    assert visible("plain text, é ü ☃ 中") == "plain text, é ü ☃ 中"
    # JSON stays exact data: a reader gets the very string back, the text holds no raw byte
    dumped = safe_json({"name": EVIL}, ensure_ascii=False)
    assert not RAW.search(dumped)
    assert json.loads(dumped) == {"name": EVIL}


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "{list}"],
        ["validate", "{list}", "--format", "json"],
        ["fingerprint", "{list}"],
        ["export", "--text", "{list}"],
        ["list", "upgrade", "--dry-run", "{list}"],
        ["list", "upgrade", "--dry-run", "--json", "{list}"],
    ],
)
def test_list_commands_escape_user_text(tmp_path, capsys, argv):
    path = _evil_list(tmp_path)
    code, text = _run(capsys, [str(path) if a == "{list}" else a for a in argv])
    assert code in (0, 1)
    if argv[0] in ("validate", "list"):
        # the unknown tactic is reported, its id shown as escapes (JSON: \u escapes)
        assert "\\x1b]52;c;" in text or "\\u001b]52;c;" in text


def test_json_report_keeps_the_exact_ids(tmp_path, capsys):
    path = _evil_list(tmp_path)
    code, text = _run(capsys, ["validate", str(path), "--format", "json"])
    assert code == 1
    messages = [f["message"] for f in json.loads(text)["files"][0]["findings"]]
    assert any(EVIL in m for m in messages)


def test_text_roster_shows_names_escaped(tmp_path, capsys):
    path = _evil_list(tmp_path, "names")
    code, text = _run(capsys, ["export", "--text", str(path)])
    assert code == 0
    assert "Lions\\x1b]52;c;" in text and "\\u009b2J" in text


def test_playtest_names_are_escaped(tmp_path, capsys):
    path = _evil_list(tmp_path, "names")
    code, text = _run(capsys, ["playtest", str(path), "--vs", "alahan-lions", "--games", "2"])
    assert code == 0
    assert "Paladins\\x1b]52;c;" in text
    code, text = _run(capsys, ["playtest", str(path), "--vs", "alahan-lions", "--games", "2", "--json"])
    assert code == 0 and "Paladins\\u001b]52;c;" in text


@pytest.mark.parametrize("where", ["system", "format"])
def test_unknown_ids_in_errors_are_escaped(tmp_path, capsys, where):
    path = _evil_list(tmp_path, where)
    for argv in (["validate", str(path)], ["fingerprint", str(path)], ["export", "--text", str(path)],
                 ["list", "upgrade", str(path)], ["playtest", str(path), "--vs", "alahan-lions", "--games", "1"]):
        code, text = _run(capsys, argv)
        # a fingerprint does not judge the format; everything else names the bad id
        if argv[0] == "validate" or code != 0:
            assert code in (1, 2) and "\\x1b]52;c;" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["catalog", "versions", EVIL],
        ["catalog", "show", EVIL],
        ["catalog", "show", "ragnarok2", "--version", EVIL],
        ["catalog", "diff", "ragnarok2", "1.0.0", EVIL],
        ["catalog", "check", EVIL],
        ["catalog", "import-bsdata", EVIL, "x.cat", "-o", "out"],
        ["odds", EVIL],
        ["sheets", EVIL],
        ["new", EVIL, "-o", "x.yaml"],
        ["validate", EVIL],
        ["no-such-command" + EVIL],
    ],
)
def test_unknown_names_on_the_command_line_are_escaped(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code, text = _run(capsys, argv)
    assert code == 2
    assert "\\x1b]52;c;" in text


@pytest.mark.parametrize("argv", [["catalog", "list"], ["catalog", "list", "--json"], ["catalog", "versions", "ragnarok2"],
                                  ["catalog", "show", "ragnarok2", "--json"], ["catalog", "diff", "ragnarok2", "1.0.0", "1.1.0", "--json"]])
def test_catalogue_commands_print_no_raw_controls(capsys, argv):
    code, _ = _run(capsys, argv)
    assert code == 0
