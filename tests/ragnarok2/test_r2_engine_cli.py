"""`armybuilder odds ragnarok2` and `armybuilder playtest` through the CLI's main()."""

from __future__ import annotations

import io
import json
import math

import pytest

from armybuilder.cli import main
from armybuilder.core.registry import get_system
from armybuilder.systems.ragnarok2.engine.dice import attack_then_wounds
from armybuilder.systems.ragnarok2.engine.odds import contest_columns


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


ODDS = ["odds", "ragnarok2", "--attack", "5", "--defense", "3", "--strength", "6", "--resistance", "5", "--dice", "20"]


def test_odds_json_has_exactly_the_contract_shape(capsys):
    code, out, _ = run(capsys, *ODDS, "--attack-shift", "1", "--wound-shift", "-2", "--json")
    assert code == 0
    payload = json.loads(out)
    assert set(payload) == {"attacks", "wounds"}
    cat = get_system("ragnarok2").catalogue()
    attacks, wounds = attack_then_wounds(contest_columns(cat), 2, 1, 20, 1, -2)
    for key, dist in (("attacks", attacks), ("wounds", wounds)):
        block = payload[key]
        assert set(block) == {"column", "pmf", "mean"}
        pmf = block["pmf"]
        # Truncated only where the remaining mass is below 1e-12.
        assert dist.pmf[len(pmf):].sum() < 1e-12 and sum(pmf) == pytest.approx(1, abs=1e-11)
        assert pmf[-1] + dist.pmf[len(pmf):].sum() >= 1e-12
        assert block["mean"] == pytest.approx(dist.mean())
    # ATT 5 - DEF 3 = +2, one column right; STR 6 - RES 5 = +1, two columns left.
    assert payload["attacks"]["column"] == "+4..+7" and payload["wounds"]["column"] == "-7..-4"


def test_odds_text_has_means_and_at_least_tables(capsys):
    code, out, _ = run(capsys, *ODDS)
    assert code == 0
    assert "mean successful attacks" in out and "mean Wounds" in out
    assert "P(attacks >= k)" in out and "P(wounds >= k)" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if "P(attacks >= k)" in line)
    rows = [line.split() for line in lines[header + 1 :] if line.strip() and line.split()[0].isdigit()]
    assert len(rows) > 5 and all(len(r) == 5 for r in rows)
    at_least = [float(r[2].rstrip("%")) for r in rows]
    assert at_least == sorted(at_least, reverse=True)  # "at least k" never grows with k


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--attack", "5", "--defense", "3", "--strength", "6", "--resistance", "5"], "--dice"),
        (["--attack", "x", "--defense", "3", "--strength", "6", "--resistance", "5", "--dice", "3"], "invalid int"),
        (["--attack", "5", "--defense", "3", "--strength", "6", "--resistance", "5", "--dice", "500"], "between 0 and 200"),
    ],
)
def test_odds_bad_input_is_a_clear_error(capsys, argv, message):
    code, out, err = run(capsys, "odds", "ragnarok2", *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.fixture
def sample_list(tmp_path):
    from armybuilder.core.playtest import sample_names

    system = get_system("ragnarok2")
    names = sample_names(system)
    name, item = next((n, i) for n, i in system.source.samples() if n == names[0] + ".yaml")
    path = tmp_path / "mine.yaml"
    path.write_bytes(item.read_bytes())
    return path, names


def test_playtest_json_same_seed_same_result_whatever_the_workers(capsys, sample_list):
    path, names = sample_list
    argv = ["playtest", str(path), "--vs", names[1], "--games", "24", "--seed", "5", "--json"]
    code1, out1, _ = run(capsys, *argv, "--workers", "1")
    code2, out2, _ = run(capsys, *argv, "--workers", "2")
    assert code1 == code2 == 0
    one, two = json.loads(out1), json.loads(out2)
    assert one == two
    assert one["wins"] + one["draws"] + one["losses"] == 24
    low, high = one["win_rate_95"]
    assert low <= one["win_rate"] <= high
    assert {u["side"] for u in one["units"]} == {"list", "opponent"}
    assert all(0 <= u["survival_rate"] <= 1 for u in one["units"])


def test_playtest_text_and_log(capsys, sample_list):
    path, names = sample_list
    code, out, err = run(capsys, "playtest", str(path), "--vs", names[0], "--games", "6", "--seed", "2", "--log")
    assert code == 0
    assert "wins" in out and "Wilson" in out and "mean rounds" in out
    assert "Log of game 1:" in out and "tactical roll" in out
    assert "[#" not in err  # no progress bar when stderr is not a terminal


def test_playtest_progress_bar_on_a_terminal(capsys, sample_list, monkeypatch):
    path, names = sample_list

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr("sys.stderr", fake)
    assert main(["playtest", str(path), "--vs", names[0], "--games", "4"]) == 0
    assert "4/4 games" in fake.getvalue()


def test_playtest_unknown_opponent_and_bad_games(capsys, sample_list):
    path, _ = sample_list
    code, _, err = run(capsys, "playtest", str(path), "--vs", "nobody-here", "--games", "3")
    assert code == 2 and "neither a list file nor a bundled sample" in err
    code, _, err = run(capsys, "playtest", str(path), "--vs", str(path), "--games", "0")
    assert code == 2 and "--games" in err


def test_wilson_interval_properties():
    from armybuilder.core.playtest import wilson_interval

    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and math.isclose(low + high, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_playtest_on_a_named_table_reports_it_and_its_figures(capsys, sample_list):
    """Issue 33: the layout played on is in --json; the games' figures (frays, A.P. by phase)
    are summed; the same seed on another layout plays other games."""
    path, names = sample_list
    argv = ["playtest", str(path), "--vs", names[1], "--games", "6", "--seed", "3", "--json"]
    code, out, _ = run(capsys, *argv, "--table", "open")
    assert code == 0
    payload = json.loads(out)
    assert payload["table"] == {"name": "open", "title": payload["table"]["title"], "source": "bundled", "scattered": False}
    figures = payload["figures"]
    assert 0 <= figures["frays"]["share_of_games"] <= 1
    assert any(k.startswith("ap ") for k in figures)
    code, out, _ = run(capsys, *argv)
    default = json.loads(out)
    assert default["table"]["name"] == "standard" and default["table"]["scattered"]


def test_playtest_table_errors_are_clear(capsys, sample_list, tmp_path):
    path, names = sample_list
    code, _, err = run(capsys, "playtest", str(path), "--vs", names[1], "--games", "2", "--table", "moon")
    assert code == 2 and "neither a bundled table layout" in err and "standard" in err
    bad = tmp_path / "table.yaml"
    bad.write_text("pieces:\n  - {kind: volcano, x: 90, y: 60}\n", encoding="utf-8")
    code, _, err = run(capsys, "playtest", str(path), "--vs", names[1], "--games", "2", "--table", str(bad))
    assert code == 2 and "table.yaml:2" in err and "volcano" in err


def test_playtest_replay_draws_the_first_game(capsys, sample_list, tmp_path):
    """--replay FILE.svg: the table, its scenery and both armies, frame by frame (deployment,
    each round's activation and combat phases), the first game of the playtest."""
    import xml.etree.ElementTree as ET

    path, names = sample_list
    svg = tmp_path / "game.svg"
    code, out, _ = run(capsys, "playtest", str(path), "--vs", names[1], "--games", "2", "--table", "dense", "--replay", str(svg))
    assert code == 0 and f"replay of game 1 written to {svg}" in out
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0].startswith("Crowded field (dense)") or "(dense)" in texts[0]
    assert "Deployment" in texts and any(t.startswith("Round 1: activation phase") for t in texts)
    assert any(t.startswith("Round 1: combat phase") for t in texts)
    polygons = list(root.iter("{http://www.w3.org/2000/svg}polygon"))
    assert len(polygons) > 20  # scenery and units in every frame
    code, _, err = run(capsys, "playtest", str(path), "--vs", names[1], "--games", "2", "--replay", str(tmp_path / "game.png"))
    assert code == 2 and ".svg" in err
    code, _, err = run(capsys, "playtest", str(path), "--vs", names[1], "--games", "2", "--replay", str(tmp_path / "no" / "game.svg"))
    assert code == 2 and "no folder" in err
