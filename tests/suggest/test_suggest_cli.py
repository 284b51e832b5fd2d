"""``armybuilder suggest`` end to end on small Morpheus runs (its games are the fastest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from suggest_lists import planted, sample

from armybuilder.cli import main
from armybuilder.core.errors import InputError
from armybuilder.core.findings import errors
from armybuilder.core.lists import load_list, parse_list
from armybuilder.meta.runners import LocalRunner
from armybuilder.suggest.report import run_json
from armybuilder.suggest.run import SuggestCancelled, run_suggest

SYSTEM = "morpheus-ragnarok"
#: two Huskarls swapped for Bondi: a weaker list with a known repair
SWAP = [("warriors[1]", "set-type", {"type": "bondi"}), ("warriors[2]", "set-type", {"type": "bondi"})]


@pytest.fixture(scope="module")
def weak(tmp_path_factory) -> Path:
    return planted(SYSTEM, "ravens-of-hrafnsey", SWAP, tmp_path_factory.mktemp("lists"))


@pytest.fixture(scope="module")
def cli_run(weak, tmp_path_factory):
    """One small run through the command line: its text, its JSON report and the best list
    (12 games a list against one opponent: a few hundred games in all)."""
    folder = tmp_path_factory.mktemp("out")
    out, best = folder / "report.json", folder / "best.yaml"
    import contextlib
    import io

    text, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(err):
        code = main(["suggest", str(weak), "--vs", "wolves-of-the-fjord", "--games", "12", "--seed", "4",
                     "-o", str(out), "--save-best", str(best)])
    assert code == 0
    cli_run_stderr.append(err.getvalue())
    return text.getvalue(), json.loads(out.read_text()), best


#: what the module's command-line run wrote on stderr
cli_run_stderr: list[str] = []


def test_the_progress_line_ends_at_every_game_planned(cli_run):
    """Off a terminal the progress comes as plain lines (a log's); the last counts every game."""
    _, report, _ = cli_run
    played = report["games_played"]
    last = next(line for line in reversed(cli_run_stderr[-1].splitlines()) if line.startswith("suggest:"))
    assert last.startswith(f"suggest: {played:,}/{played:,} games (100%)"), last
    assert "candidates left" in last or "candidate left" in last


def test_json_names_every_figure_and_the_list_file_of_each_suggestion(cli_run):
    _, report, _ = cli_run
    assert report["system"] == SYSTEM and report["seed"] == 4
    assert report["games"] == 12 and report["games_per_opponent_seat"] == 6
    step = report["steps"][0]
    assert step["candidates"] > 20
    assert step["rungs"][0]["candidates"] == step["candidates"]
    assert step["games"] == report["games_played"]
    assert step["suggestions"] or step["not_shown"]
    for s in step["suggestions"]:
        assert s["gain_interval"][0] > 0 and s["games"] == 12
        assert s["list_yaml"].startswith("# Sample war clan")  # the player's comments kept
        back = parse_list(s["list_yaml"], "suggestion")
        assert not list(errors(back.system.findings(back.army)))
    for s in step["not_shown"]:
        assert s["gain_interval"][0] <= 0


def test_text_report_and_save_best(cli_run):
    out, report, best = cli_run
    assert "each figure rests on 12 paired games" in out
    assert "legal edits raced" in out
    shown = report["steps"][0]["suggestions"]
    if shown:  # the best suggestion's list was saved, legal, with the player's comments
        assert shown[0]["edit"]["words"] in out and "Glory" in out
        assert best.read_text() == shown[0]["list_yaml"]
        lf = load_list(best)
        assert not list(errors(lf.system.findings(lf.army)))
    else:
        assert not best.exists()


def test_outputs_never_replace_an_input(weak, capsys):
    before = weak.read_bytes()
    for flag in ("--save-best", "-o"):
        code = main(["suggest", str(weak), "--vs", "wolves-of-the-fjord", "--games", "2", flag, str(weak)])
        assert code == 2
        assert "would replace a list being read" in capsys.readouterr().err
    assert weak.read_bytes() == before


def test_usage_errors(weak, capsys):
    assert main(["suggest", str(weak), "--vs", "no-such-sample"]) == 2
    assert "no such file, folder or bundled sample" in capsys.readouterr().err
    assert main(["suggest", str(weak), "--vs", "samples", "--games", "0"]) != 0
    assert main(["suggest", str(weak), "--vs", "samples", "--resume"]) != 0


def test_scheduler_options_are_checked_as_meta_checks_them(weak, capsys):
    assert main(["suggest", str(weak), "--vs", "samples", "--scheduler", " "]) == 2
    assert "--scheduler needs an address" in capsys.readouterr().err
    assert main(["suggest", str(weak), "--vs", "samples", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "0"]) == 2
    assert "--connect-timeout" in capsys.readouterr().err
    assert main(["suggest", str(weak), "--vs", "samples", "--workers", "0"]) == 2
    assert "--workers must be between 1 and 256" in capsys.readouterr().err


def test_an_illegal_list_is_refused(tmp_path, capsys):
    bad = planted(SYSTEM, "ravens-of-hrafnsey", [("warriors[7]", "remove-warrior", {}), ("warriors[6]", "remove-warrior", {})], tmp_path)
    assert main(["suggest", str(bad), "--vs", "samples", "--games", "2"]) == 2
    assert "not legal" in capsys.readouterr().err


@pytest.fixture(scope="module")
def one_worker(weak, tmp_path_factory):
    lf = load_list(weak)
    results = tmp_path_factory.mktemp("results") / "run.jsonl"
    return lf, results, run_suggest(lf, [sample(SYSTEM, "wolves-of-the-fjord")], 8, 2, LocalRunner(1), results=results)


def test_same_seed_same_suggestions_on_one_worker_or_two(one_worker):
    lf, _, one = one_worker
    two = run_suggest(lf, [sample(SYSTEM, "wolves-of-the-fjord")], 8, 2, LocalRunner(2))
    assert run_json(one, lf) == run_json(two, lf)


def test_resume_plays_only_the_missing_games(one_worker, tmp_path):
    lf, kept, first = one_worker
    field = [sample(SYSTEM, "wolves-of-the-fjord")]
    results = tmp_path / "run.jsonl"
    lines = kept.read_text().splitlines()
    results.write_text("\n".join(lines[: len(lines) // 2]) + "\n{\"torn")  # cut short, a torn last line
    seen: list[tuple[int, int]] = []
    again = run_suggest(lf, field, 8, 2, LocalRunner(1), results=results, resume=True,
                        progress=lambda p: seen.append((p.done, p.planned)))
    assert 0 < again.resumed < first.played and again.played + again.resumed == first.played
    assert seen[0][0] == again.resumed and seen[-1] == (first.played, first.played)  # the bar starts at the games read back
    assert run_json(again, lf)["steps"] == run_json(first, lf)["steps"]
    with pytest.raises(InputError, match="--resume"):
        run_suggest(lf, field, 8, 2, LocalRunner(1), results=results)


def test_a_cancelled_run_stops_and_keeps_its_games(weak, tmp_path):
    """The editor's Stop: the run ends between tasks, what was played stays in the results file."""
    lf = load_list(weak)
    results = tmp_path / "run.jsonl"
    seen: list[int] = []
    with pytest.raises(SuggestCancelled):
        run_suggest(lf, [sample(SYSTEM, "wolves-of-the-fjord")], 8, 2, LocalRunner(1), results=results,
                    progress=lambda p: seen.append(p.done), cancelled=lambda: bool(seen) and seen[-1] > 0)
    kept = results.read_text().splitlines()
    assert kept and sum(json.loads(line)["stop"] - json.loads(line)["start"] for line in kept) == seen[-1]
