"""Outputs never replace inputs: an export, sheets or a meta report aimed at the list (by any
name) or at a .yaml file is refused, the list untouched, unless --force says so."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from armybuilder.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples"


@pytest.fixture
def lists(tmp_path) -> list[Path]:
    out = []
    for name in ("alahan-lions.yaml", "acheron-undead-host.yaml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
        out.append(tmp_path / name)
    return out


EXPORTS = [[], ["--text"], ["--summary"], ["--summary", "--text"], ["--cards"]]


@pytest.mark.parametrize("options", EXPORTS, ids=lambda o: " ".join(o) or "pdf")
def test_export_refuses_the_list_itself_by_any_name(lists, options, capsys):
    lions = lists[0]
    before = lions.read_bytes()
    hard = lions.with_name("hard-link.pdf")
    os.link(lions, hard)
    soft = lions.with_name("soft-link.txt")
    soft.symlink_to(lions)
    for target in (lions, hard, soft, Path(f"{lions.parent}/./{lions.name}")):
        assert main(["export", str(lions), *options, "-o", str(target)]) == 2
        err = capsys.readouterr().err
        assert "not written: it is a list being read" in err and "--force" in err
        assert lions.read_bytes() == before
    assert main(["export", str(lions), *options, "-o", str(lists[1])]) == 2  # another list
    assert "the kind lists are kept in" in capsys.readouterr().err
    assert lists[1].read_bytes() == (SAMPLES / lists[1].name).read_bytes()


def test_force_writes_where_it_is_told(lists, capsys):
    target = lists[0].with_name("roster.yaml")
    assert main(["export", str(lists[0]), "--text", "-o", str(target)]) == 2
    assert not target.exists()
    assert main(["export", str(lists[0]), "--text", "-o", str(target), "--force"]) == 0
    assert target.read_text(encoding="utf-8").splitlines()[-1].startswith("Fingerprint: ")


def test_sheets_refuse_a_yaml_file(tmp_path, lists, capsys):
    assert main(["sheets", "ragnarok2", "-o", str(lists[0])]) == 2
    assert "the kind lists are kept in" in capsys.readouterr().err
    assert lists[0].read_bytes() == (SAMPLES / lists[0].name).read_bytes()


def test_meta_refuses_a_report_over_a_list_or_beside_it(tmp_path, lists, capsys):
    # -o names a list: refused (its PDF would go beside it under another name, but the
    # organiser surely meant something else)
    assert main(["meta", *map(str, lists), "--games", "2", "--workers", "1", "-o", str(lists[0])]) == 2
    assert "not written: it is a list being read" in capsys.readouterr().err
    # a list read whose name is one the report writes (lists.json beside lists.pdf)
    field = tmp_path / "club.json"
    shutil.copy(lists[1], field)
    assert main(["meta", str(lists[0]), str(field), "--games", "2", "--workers", "1", "-o", str(tmp_path / "club.pdf")]) == 2
    assert "club.json: not written: it is a list being read" in capsys.readouterr().err
    assert field.read_bytes() == lists[1].read_bytes()
    for path in lists:
        assert path.read_bytes() == (SAMPLES / path.name).read_bytes()
