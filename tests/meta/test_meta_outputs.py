"""The outputs of ``armybuilder meta``: numbers first, renderings as steps, housekeeping on resume."""

from __future__ import annotations

import io
import json

import pytest
from meta_lists import sample_folder

from armybuilder.cli import main
from armybuilder.meta import report
from armybuilder.meta.run import ProgressLine


@pytest.fixture()
def lists(tmp_path):
    return sample_folder(tmp_path / "lists")


def _run(capsys, *argv):
    code = main(["meta", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_failed_rendering_keeps_the_numbers_and_resume_redoes_only_it(lists, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out" / "club.pdf"
    calls: list[str] = []

    def broken(matrix, path):
        calls.append(path.suffix)
        raise MemoryError("the drawing ran out of memory")

    monkeypatch.setattr(report, "RENDERINGS", [(".pdf", "PDF report", broken), *report.RENDERINGS[1:]])
    code, _, err = _run(capsys, str(lists), "--games", "3", "--workers", "1", "-o", str(out))
    assert code == 2
    assert "could not write the PDF report" in err and "MemoryError" in err and "--resume" in err and "Traceback" not in err
    for suffix in (".json", ".csv", ".png", ".html", ".results.jsonl"):
        assert (tmp_path / "out" / f"club{suffix}").exists(), suffix
    assert not out.exists()
    assert json.loads((tmp_path / "out" / "club.json").read_text())["complete"]
    monkeypatch.undo()
    stamps = {s: (tmp_path / "out" / f"club{s}").stat().st_mtime_ns for s in (".json", ".csv", ".png", ".html")}
    code, text, err = _run(capsys, str(lists), "--games", "3", "--workers", "1", "-o", str(out), "--resume")
    assert code == 0, err
    assert out.exists() and f"wrote {out}\n" in text
    assert "unchanged since the last run" in text
    assert {s: (tmp_path / "out" / f"club{s}").stat().st_mtime_ns for s in stamps} == stamps  # not written again
    # a finished run resumed: nothing rendered again, nothing played
    before = out.stat().st_mtime_ns
    code, text, _ = _run(capsys, str(lists), "--games", "3", "--workers", "1", "-o", str(out), "--resume")
    assert code == 0 and "played 0 games" in text and "wrote" not in text and out.stat().st_mtime_ns == before
    # a file changed since (deleted, edited): that step runs again
    (tmp_path / "out" / "club.html").write_text("edited")
    code, text, _ = _run(capsys, str(lists), "--games", "3", "--workers", "1", "-o", str(out), "--resume")
    assert code == 0 and f"wrote {tmp_path / 'out' / 'club.html'}\n" in text
    assert "<table" in (tmp_path / "out" / "club.html").read_text()


def test_the_torn_line_message_is_said_once(lists, tmp_path, capsys):
    out = tmp_path / "m.pdf"
    assert _run(capsys, str(lists), "--games", "2", "--workers", "1", "-o", str(out))[0] == 0
    results = tmp_path / "m.results.jsonl"
    with results.open("a") as f:
        f.write('{"a": "cut sh')
    code, _, err = _run(capsys, str(lists), "--games", "2", "--workers", "1", "-o", str(out), "--resume")
    assert code == 0 and "1 unreadable line(s)" in err and "m.results.jsonl.unreadable" in err
    assert (tmp_path / "m.results.jsonl.unreadable").read_text() == '{"a": "cut sh\n'
    code, text, err = _run(capsys, str(lists), "--games", "2", "--workers", "1", "-o", str(out), "--resume")
    assert code == 0 and "unreadable" not in err and "played 0 games" in text


def test_progress_off_a_terminal_is_a_line_every_few_seconds():
    stream = io.StringIO()  # not a terminal: nohup, CI, a log file
    line = ProgressLine(1000, 0, stream, every=5.0)
    assert line.mode == "lines"
    line.advance(0)
    assert stream.getvalue() == "meta: 0/1,000 games (0%), the first tasks are under way (for 00:00:00)\n"
    line._shown -= 5.0  # a few seconds later, no task has ended yet: a line says for how long
    line._status_since -= 5.0
    line.heartbeat(None)
    assert stream.getvalue().splitlines()[-1] == "meta: 0/1,000 games (0%), the first tasks are under way (for 00:00:05)"
    for _ in range(10):
        line.advance(50)  # within the same few seconds: no new line
    assert stream.getvalue().count("\n") == 2 and "\r" not in stream.getvalue()
    line.heartbeat("waiting for workers: none is connected to tcp://127.0.0.1:8786")
    assert stream.getvalue().splitlines()[-1] == (
        "meta: 500/1,000 games (50%), waiting for workers: none is connected to tcp://127.0.0.1:8786 (for 00:00:00)")
    line.heartbeat("waiting for workers: none is connected to tcp://127.0.0.1:8786")  # the same status: not repeated at once
    assert stream.getvalue().count("\n") == 3
    line._shown -= 5.0  # a few seconds later, still waiting: a line that says for how long
    line._status_since -= 65.0
    line.heartbeat("waiting for workers: none is connected to tcp://127.0.0.1:8786")
    assert stream.getvalue().count("\n") == 4 and stream.getvalue().splitlines()[-1].endswith("(for 00:01:05)")
    line._shown -= 5.0
    line.advance(100)
    line.heartbeat(None)  # a worker joined: the games go on
    assert stream.getvalue().count("\n") == 6 and "600/1,000" in stream.getvalue().splitlines()[-1]
    line.finish()
    assert stream.getvalue().splitlines()[-1].startswith("meta: 600/1,000 games (60%), ")


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_redraws_one_line(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    stream = Tty()
    line = ProgressLine(100, 0, stream)
    assert line.mode == "bar"
    line.advance(0)
    line.heartbeat("waiting for workers: none is connected to tcp://h:1")
    assert stream.getvalue().endswith("] 0/100 games  waiting for workers: none is connected to tcp://h:1 (for 00:00:00)")
    assert "\n" not in stream.getvalue()
    waiting = stream.getvalue().rsplit("\r", 1)[-1]
    line.advance(10)
    line.heartbeat(None)  # a worker came: the shorter rate line blanks the end of the status
    drawn = stream.getvalue().rsplit("\r", 1)[-1]
    assert drawn.rstrip().endswith("left") and len(drawn) == len(waiting) and "(for" not in drawn


def test_progress_bar_fits_a_narrow_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # a wrapped line could not be redrawn in place
    stream = Tty()
    line = ProgressLine(28_560, 0, stream)
    line.heartbeat("waiting for workers: none is connected to tcp://127.0.0.1:8786")
    drawn = stream.getvalue().rsplit("\r", 1)[-1]
    assert len(drawn) <= 79 and drawn.startswith("[..........] 0/28,560 games  waiting for workers") and drawn.endswith("…")
