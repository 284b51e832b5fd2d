"""An organiser's folder: many lists at once give the same report as one by one, in order."""

from __future__ import annotations

import json
from pathlib import Path

import armybuilder.cli as cli
import armybuilder.cli_validate as cli_validate

SAMPLES = Path(__file__).resolve().parents[2] / "catalog"


def _folder(tmp_path: Path) -> Path:
    samples = sorted(SAMPLES.glob("*/samples/*.yaml"))
    folder = tmp_path / "submitted"
    folder.mkdir()
    for i in range(cli_validate.PARALLEL_VALIDATION_FROM + 6):
        source = samples[i % len(samples)]
        text = source.read_text(encoding="utf-8")
        if i % 7 == 3:
            text = text.replace("name:", "name: [", 1)  # unreadable
        (folder / f"list-{i:03d}.yaml").write_text(text, encoding="utf-8")
    return folder


def _report(capsys, folder: Path) -> tuple[int, dict]:
    code = cli.main(["validate", str(folder), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_parallel_batch_matches_one_by_one(tmp_path, capsys, monkeypatch):
    folder = _folder(tmp_path)
    count = cli_validate.PARALLEL_VALIDATION_FROM + 6
    code, batch = _report(capsys, folder)
    monkeypatch.setattr(cli_validate, "PARALLEL_VALIDATION_FROM", 10**9)
    code_seq, sequential = _report(capsys, folder)
    assert code == code_seq == 2
    assert batch == sequential
    paths = [entry["path"] for entry in batch["files"]]
    assert paths == sorted(paths)
    summary = batch["summary"]
    assert summary["lists"] == count
    assert summary["unreadable"] == sum(1 for i in range(summary["lists"]) if i % 7 == 3)
    assert summary["legal"] == summary["lists"] - summary["unreadable"]
