"""House catalogues through every command: --catalog, catalog new/check/install/list,
import-bsdata --house, new, validate (text and JSON), fingerprint, export (roster, summary,
text, cards), odds --fray, playtest, meta and list upgrade; the organiser's view of a list
that uses one; and a hostile house catalogue's texts on the terminal and in a PDF.

The house catalogues are tests/house_data (every figure invented for the tests)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from house_lists import HOUSE_DATA, JOMS_LIST, WOLF_LIST, house_folder, write_list
from pypdf import PdfReader

from armybuilder.cli import main
from armybuilder.core.house_paths import PATH_ENV, user_folder

BSDATA = Path(__file__).resolve().parents[1] / "house_data_bsdata" / "Wolfen of Yllia [test].cat"


def _pdf_text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages).split())


@pytest.fixture
def wolf(tmp_path, monkeypatch):
    """A legal Wolfen list; the house catalogues only reachable through --catalog."""
    root = house_folder(tmp_path, monkeypatch)
    path = write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    monkeypatch.delenv(PATH_ENV)
    return path, root


def test_catalog_option_anywhere_and_only_for_the_command(wolf, capsys):
    path, root = wolf
    assert main(["validate", str(path)]) == 1  # without the data: not legal
    assert "(not installed here)" in capsys.readouterr().out
    assert main(["--catalog", str(root), "validate", str(path)]) == 0
    assert main(["validate", str(path), f"--catalog={root}"]) == 0
    assert PATH_ENV not in os.environ  # the option does not outlive the command
    out = capsys.readouterr().out
    assert out.count("LEGAL — Rag'Narok 2, catalogue 1.1.0, uses house catalogue wolfen-of-yllia 1.1.0, 729/1000 A.P.") == 2
    assert main(["--catalog", str(root / "nowhere"), "validate", str(path)]) == 2
    assert "--catalog" in capsys.readouterr().err


def test_catalog_list_names_the_house_catalogues(wolf, capsys):
    _, root = wolf
    assert main(["--catalog", str(root), "catalog", "list"]) == 0
    out = capsys.readouterr().out
    assert "Wolfen of Yllia (test data, invented figures) latest 1.1.0  (versions: 1.0.0, 1.1.0)  house catalogue wolfen-of-yllia" in out
    assert "house catalogue jomsvikings" in out
    assert main(["--catalog", str(root), "catalog", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    wolfen = next(r for r in rows if r.get("house") == "wolfen-of-yllia")
    assert wolfen["system"] == "ragnarok2" and wolfen["versions"] == ["1.0.0", "1.1.0"] and wolfen["folder"] == str(root / "wolfen-of-yllia")


def test_the_organiser_sees_the_house_catalogue_in_every_answer(wolf, tmp_path, capsys):
    path, root = wolf
    assert main(["--catalog", str(root), "validate", "--format", "json", str(path)]) == 0
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert entry["house"] == [{
        "id": "wolfen-of-yllia", "version": "1.1.0", "hash": entry["house"][0]["pinned_hash"], "pinned_hash": entry["house"][0]["pinned_hash"],
        "status": "ok", "name": "Wolfen of Yllia (test data, invented figures)", "latest": "1.1.0", "detail": None,
    }]
    said = next(f for f in entry["findings"] if f["rule"] == "ragnarok2.catalogue.house")
    assert said["severity"] == "info" and said["line"] == 5
    assert main(["--catalog", str(root), "fingerprint", str(path)]) == 0
    assert capsys.readouterr().out.strip() == entry["fingerprint"]

    assert main(["--catalog", str(root), "export", "--text", str(path)]) == 0
    text = capsys.readouterr().out
    assert "House data: uses house catalogue wolfen-of-yllia 1.1.0 (hash " in text and "People: The Children of Yllia" in text
    assert text.rstrip().endswith(f"Fingerprint: {entry['fingerprint']}")
    assert main(["--catalog", str(root), "export", "--summary", "--text", str(path)]) == 0
    summary = capsys.readouterr().out
    assert "House data: uses house catalogue wolfen-of-yllia 1.1.0" in summary and "9 Wolfen warrior (leader)" in summary

    pdf = tmp_path / "wolf.pdf"
    assert main(["--catalog", str(root), "export", str(path), "-o", str(pdf), "--cards"]) == 0
    flat = _pdf_text(pdf)
    assert "uses house catalogue wolfen-of-yllia 1.1.0" in flat and entry["fingerprint"] in flat
    assert "Guardian of the moon" in flat and "Howl of Yllia" in flat  # roster and cards
    summary_pdf = tmp_path / "summary.pdf"
    assert main(["--catalog", str(root), "export", str(path), "--summary", "-o", str(summary_pdf)]) == 0
    assert "uses house catalogue wolfen-of-yllia 1.1.0" in _pdf_text(summary_pdf)


def test_a_changed_house_catalogue_is_said_everywhere_until_the_list_is_pinned_again(wolf, tmp_path, capsys):
    path, root = wolf
    assert main(["--catalog", str(root), "fingerprint", str(path)]) == 0
    before = capsys.readouterr().out.strip()
    profiles = root / "wolfen-of-yllia" / "profiles.yaml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace("cost: 32", "cost: 33"), encoding="utf-8")
    assert main(["--catalog", str(root), "validate", str(path)]) == 1  # the remembered answer is not replayed
    out = capsys.readouterr().out
    assert "(changed since the list was pinned to it), 734/1000 A.P." in out and "has changed since the list was pinned" in out
    pdf = tmp_path / "changed.pdf"
    assert main(["--catalog", str(root), "export", str(path), "-o", str(pdf)]) == 0
    flat = _pdf_text(pdf)
    assert "NOT LEGAL" in flat and "has changed since the list was pinned to it" in flat
    capsys.readouterr()
    assert main(["--catalog", str(root), "list", "upgrade", str(path)]) == 0
    out = capsys.readouterr().out
    assert "house catalogue wolfen-of-yllia 1.1.0 → 1.1.0 (its data changed since the list was pinned)" in out
    assert main(["--catalog", str(root), "validate", str(path)]) == 0
    assert main(["--catalog", str(root), "fingerprint", str(path)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] != before


def test_list_upgrade_moves_and_adds_house_catalogues(wolf, monkeypatch, capsys):
    path, root = wolf
    hash_110 = path.read_text(encoding="utf-8").split("hash: ")[1].split()[0]
    monkeypatch.setenv(PATH_ENV, str(root))
    write_list(path, WOLF_LIST, "ragnarok2", "wolfen-of-yllia", "1.0.0")
    monkeypatch.delenv(PATH_ENV)
    assert main(["--catalog", str(root), "list", "upgrade", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "house catalogue wolfen-of-yllia 1.0.0 → 1.1.0" in out and "points: 712 → 729" in out and "dry run" in out
    assert main(["--catalog", str(root), "list", "upgrade", str(path)]) == 0
    assert f"hash: {hash_110}" in path.read_text(encoding="utf-8") and "version: 1.1.0" in path.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["--catalog", str(root), "list", "upgrade", str(path), "--house", "nobody"]) == 2
    assert "house catalogue nobody is not installed (installed: wolfen-of-yllia)" in capsys.readouterr().err


def test_new_lists_take_the_house_catalogue_their_people_needs(tmp_path, monkeypatch, capsys):
    root = house_folder(tmp_path, monkeypatch)
    out = tmp_path / "new.yaml"
    assert main(["new", "ragnarok2", "--people", "yllia", "-o", str(out)]) == 0
    assert "uses house catalogue wolfen-of-yllia 1.1.0" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert "house:\n  - id: wolfen-of-yllia\n    version: 1.1.0\n" in text and "people: yllia" in text
    joms = tmp_path / "joms.yaml"
    assert main(["new", "morpheus-ragnarok", "--house", "jomsvikings", "-o", str(joms)]) == 0
    assert "id: jomsvikings" in joms.read_text(encoding="utf-8")
    assert main(["new", "ragnarok2", "--people", "yllia", "--house", "nobody", "-o", str(tmp_path / "x.yaml")]) == 2
    # without the house catalogue the people has no profile: refused, as before
    monkeypatch.delenv(PATH_ENV)
    assert main(["new", "ragnarok2", "--people", "yllia", "-o", str(tmp_path / "y.yaml")]) == 2
    assert "unknown people 'yllia'" in capsys.readouterr().err
    assert root.is_dir()


def test_odds_playtest_and_meta_with_house_data(wolf, tmp_path, capsys):
    path, root = wolf
    assert main(["--catalog", str(root), "odds", "ragnarok2", "--fray", f"{path}:Guardians", "--vs", "alahan-lions:1", "--json"]) == 0
    fray = json.loads(capsys.readouterr().out)
    assert fray["attacker"]["unit"] == "Guardians" and fray["attacker"]["fighters"] == 5
    assert main(["--catalog", str(root), "playtest", str(path), "--vs", "alahan-lions", "--games", "4", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["games"] == 4 and any(u["name"] == "Guardians" for u in played["units"])
    lions = tmp_path / "lions.yaml"
    from armybuilder.core.catalog import catalog_root

    # A meta matrix plays one catalogue version: the sample, pinned to the house list's base version.
    sample = (Path(str(catalog_root())) / "ragnarok2" / "samples" / "alahan-lions.yaml").read_text(encoding="utf-8")
    base = re.search(r"^catalogue: (\S+)$", path.read_text(encoding="utf-8"), re.M)
    assert base is not None
    lions.write_text(re.sub(r"^catalogue: \S+$", f"catalogue: {base.group(1)}", sample, flags=re.M), encoding="utf-8")
    assert main(["--catalog", str(root), "meta", str(path), str(lions), "--games", "2", "--workers", "2", "-o", str(tmp_path / "meta.pdf")]) == 0
    matrix = json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))
    assert "Pack of the silver moon" in json.dumps(matrix) and "Lions of the dawn" in json.dumps(matrix)


def test_a_morpheus_war_clan_through_the_commands(tmp_path, monkeypatch, capsys):
    root = house_folder(tmp_path, monkeypatch, "jomsvikings")
    path = write_list(tmp_path / "joms.yaml", JOMS_LIST, "morpheus-ragnarok", "jomsvikings")
    monkeypatch.delenv(PATH_ENV)
    assert main(["--catalog", str(root), "validate", str(path)]) == 0
    assert "uses house catalogue jomsvikings 1.0.0, 650/800 Glory" in capsys.readouterr().out
    assert main(["--catalog", str(root), "export", "--summary", "--text", str(path)]) == 0
    assert "House data: uses house catalogue jomsvikings 1.0.0" in capsys.readouterr().out
    assert main(["--catalog", str(root), "playtest", str(path), "--vs", "wolves-of-the-fjord", "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3


def test_catalog_new_check_and_install(tmp_path, capsys):
    folder = tmp_path / "wolfen"
    assert main(["catalog", "new", "ragnarok2", "--people", "yllia", "--id", "wolfen-of-yllia", "--name", "Wolfen of Yllia", "-o", str(folder)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert main(["catalog", "check", str(folder)]) == 0  # examples left in: warnings only
    out = capsys.readouterr().out
    assert "house catalogue wolfen-of-yllia (Wolfen of Yllia) for Rag'Narok 2, versions 0.1.0: 0 errors, 3 warnings" in out
    profiles = folder / "profiles.yaml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace("    att: 3 ", "    att: 3a"), encoding="utf-8")
    assert main(["catalog", "check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"error: {profiles}:" in out and "att: a whole number is needed here, not '3a'" in out
    assert main(["catalog", "install", str(folder)]) == 2
    assert "not installed: 1 errors to fix first" in capsys.readouterr().err
    shutil.rmtree(folder)
    shutil.copytree(HOUSE_DATA / "wolfen-of-yllia", folder)
    assert main(["catalog", "install", str(folder)]) == 0
    assert f"installed {user_folder() / 'wolfen-of-yllia'}" in capsys.readouterr().out
    assert main(["catalog", "install", str(folder)]) == 0
    assert "holds the same files already" in capsys.readouterr().out
    (folder / "profiles.yaml").write_text((folder / "profiles.yaml").read_text(encoding="utf-8").replace("cost: 32", "cost: 31"), encoding="utf-8")
    assert main(["catalog", "install", str(folder)]) == 2
    assert main(["catalog", "install", str(folder), "--force"]) == 0
    assert "cost: 31" in (user_folder() / "wolfen-of-yllia" / "profiles.yaml").read_text(encoding="utf-8")
    assert main(["catalog", "check"]) == 0  # every system and the installed house catalogue
    assert "house catalogue wolfen-of-yllia" in capsys.readouterr().out


def test_import_bsdata_into_a_house_catalogue(tmp_path, capsys):
    folder = tmp_path / "imported"
    assert main(["catalog", "import-bsdata", "ragnarok2", str(BSDATA), "-o", str(folder), "--house"]) == 2
    assert "name its people with --people" in capsys.readouterr().err
    assert main(["catalog", "import-bsdata", "ragnarok2", str(BSDATA), "-o", str(folder), "--house", "--people", "yllia", "--id", "wolfen-imported"]) == 0
    text = (folder / "profiles" / "yllia.yaml").read_text(encoding="utf-8")
    assert text.startswith("# Imported into a house catalogue") and "id: yllia-wolfen-stalker" in text and "cost: 16" in text
    assert "id: wolfen-imported" in (folder / "catalogue.yaml").read_text(encoding="utf-8")
    assert main(["catalog", "check", str(folder)]) == 0
    # a re-import replaces the importer's own file, never one a player wrote
    (folder / "profiles" / "yllia.yaml").write_text("profiles: []\n", encoding="utf-8")
    assert main(["catalog", "import-bsdata", "ragnarok2", str(BSDATA), "-o", str(folder), "--house", "--people", "yllia"]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["catalog", "import-bsdata", "ragnarok2", str(BSDATA), "-o", str(tmp_path / "plain"), "--people", "yllia"]) == 2


def test_a_hostile_house_catalogue_reaches_no_terminal_or_pdf_raw(tmp_path, monkeypatch, capsys):
    root = house_folder(tmp_path, monkeypatch, "wolfen-of-yllia")
    folder = root / "wolfen-of-yllia"
    manifest = folder / "catalogue.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "name: Wolfen of Yllia (test data, invented figures)", 'name: "Wolfen \\e]0;pwned\\a <b>bold</b> \\u202eevil"'), encoding="utf-8")
    profiles = folder / "profiles.yaml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace("name: Howler", 'name: "Howler\\e[2J <font size=99>x</font> [bold]y[/bold]"'), encoding="utf-8")
    path = write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "\\x1b]0;pwned" in out and "\\u202eevil" in out
    assert main(["export", "--text", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Howler\\x1b[2J <font size=99>x</font> [bold]y[/bold]" in out
    pdf = tmp_path / "hostile.pdf"
    assert main(["export", str(path), "-o", str(pdf), "--cards"]) == 0
    flat = _pdf_text(pdf)
    assert "<font size=99>x</font>" in flat and "[bold]y[/bold]" in flat  # printed as text, never as markup
    assert main(["catalog", "check", str(folder)]) == 0
    assert "this text holds control characters" in capsys.readouterr().out


def test_remembered_answers_follow_the_house_catalogue(wolf, tmp_path):
    """The findings cache (one process per command, as a user runs them) keys its answers
    by the house catalogues' files: a changed or removed one is checked again."""
    import subprocess
    import sys

    path, root = wolf
    env = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("ARMYBUILDER_SYSTEMS", "ARMYBUILDER_NO_CACHE", "ARMYBUILDER_DEBUG", PATH_ENV):
        env.pop(name, None)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, text=True, env=env, cwd=tmp_path, check=False)

    first, again = run("--catalog", str(root), "validate", str(path)), run("--catalog", str(root), "validate", str(path))
    assert first.returncode == again.returncode == 0 and first.stdout == again.stdout
    assert "uses house catalogue wolfen-of-yllia 1.1.0, 729/1000 A.P." in first.stdout
    without = run("validate", str(path))
    assert without.returncode == 1 and "(not installed here)" in without.stdout
    profiles = root / "wolfen-of-yllia" / "profiles.yaml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace("cost: 32", "cost: 33"), encoding="utf-8")
    changed = run("--catalog", str(root), "validate", str(path))
    assert changed.returncode == 1 and "has changed since the list was pinned to it" in changed.stdout
