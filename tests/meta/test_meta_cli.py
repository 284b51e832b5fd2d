"""``armybuilder meta`` end to end: files written, report readable, bad input refused."""

from __future__ import annotations

import csv
import json
import re

from meta_lists import sample_folder
from PIL import Image
from pypdf import PdfReader

from armybuilder.cli import main


def _run(capsys, *argv):
    code = main(["meta", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_folder_matrix_writes_pdf_png_json_csv_and_results(tmp_path, capsys):
    folder = sample_folder(tmp_path / "lists")
    report = tmp_path / "out" / "club.pdf"
    code, out, err = _run(capsys, str(folder), "--games", "6", "--workers", "1", "-o", str(report))
    assert code == 0, err
    assert "12 pairings × 6 games" in out and "rank" in out
    payload = json.loads((tmp_path / "out" / "club.json").read_text())
    assert len(payload["lists"]) == 4 and len(payload["pairings"]) == 12 and payload["complete"]
    assert [s["rank"] for s in payload["standings"]] == sorted(s["rank"] for s in payload["standings"])
    rows = list(csv.DictReader((tmp_path / "out" / "club.csv").open()))
    assert len(rows) == 12 and all(int(r["games"]) == 6 for r in rows)
    assert sum(1 for _ in (tmp_path / "out" / "club.results.jsonl").open()) >= 1
    text = "".join(page.extract_text() for page in PdfReader(report).pages)
    assert "Meta matrix" in text and "Standings against the field" in text
    for item in payload["lists"]:
        assert item["label"] in text
    image = Image.open(tmp_path / "out" / "club.png")
    assert image.format == "PNG" and image.width > 400 and image.height > 200
    # the same command again would mix two runs: refused, the file untouched
    before = (tmp_path / "out" / "club.results.jsonl").read_bytes()
    code, _, err = _run(capsys, str(folder), "--games", "6", "--workers", "1", "-o", str(report))
    assert code == 2 and "--resume" in err
    assert (tmp_path / "out" / "club.results.jsonl").read_bytes() == before
    code, out, _ = _run(capsys, str(folder), "--games", "6", "--workers", "1", "-o", str(report), "--resume", "--json")
    assert code == 0 and json.loads(out)["pairings"] == payload["pairings"]


def test_against_a_field(tmp_path, capsys):
    folder = sample_folder(tmp_path / "lists")
    mine = sorted(folder.glob("*.yaml"))[:2]
    code, out, err = _run(capsys, *map(str, mine), "--vs", str(folder), "--games", "4", "--workers", "1", "-o", str(tmp_path / "f.pdf"), "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert len(payload["lists"]) == 2 and len(payload["field"]) == 4
    assert len(payload["pairings"]) == 2 * 3  # a file is not played against itself


def test_illegal_lists_are_reported_and_left_out_unless_asked(tmp_path, capsys):
    folder = sample_folder(tmp_path / "lists")
    source = (folder / "alahan-lions.yaml").read_text()
    (folder / "zz-too-many.yaml").write_text(re.sub(r"count: 12", "count: 60", source).replace("Lions of the dawn", "Too many lions"))
    code, out, err = _run(capsys, str(folder), "--games", "2", "--workers", "1", "-o", str(tmp_path / "a.pdf"), "--json")
    assert code == 1
    assert "left out" in err and "zz-too-many.yaml" in err and "not legal" in err
    payload = json.loads(out)
    assert len(payload["lists"]) == 4 and payload["left_out"][0]["path"].endswith("zz-too-many.yaml")
    code, out, err = _run(capsys, str(folder), "--games", "2", "--workers", "1", "-o", str(tmp_path / "b.pdf"), "--json", "--include-illegal")
    assert code == 0, err
    payload = json.loads(out)
    assert len(payload["lists"]) == 5 and not payload["left_out"]
    assert [x["legal"] for x in payload["lists"] if x["path"].endswith("zz-too-many.yaml")] == [False]


def test_mixed_systems_and_bad_options_are_clear_errors(tmp_path, capsys):
    folder = sample_folder(tmp_path / "lists")
    sample_folder(folder, "rattle-and-rend")
    code, _, err = _run(capsys, str(folder), "--games", "2", "-o", str(tmp_path / "m.pdf"))
    assert code == 2 and "different game systems" in err and "ragnarok2" in err and "rattle-and-rend" in err
    assert "Traceback" not in err
    code, _, err = _run(capsys, str(tmp_path / "nothing.yaml"))
    assert code == 2 and "no such file" in err
    code, _, err = _run(capsys, str(folder), "--games", "0")
    assert code == 2 and "--games" in err
    code, _, err = _run(capsys, str(folder), "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "not allowed with" in err


def test_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    folder = sample_folder(tmp_path / "lists")
    code, _, err = _run(capsys, str(folder), "--games", "2", "--scheduler", "tcp://127.0.0.1:9", "-o", str(tmp_path / "m.pdf"))
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
