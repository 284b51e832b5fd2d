"""A house catalogue someone sent is untrusted input: hostile names, links out of its folder,
oversized files, and a hostile folder name with every cache on (a separate process, as a
user runs the commands: the test process registers a toy system, which turns the answers'
cache off).  The parser-wide test (test_cli_every_command_sanitised.py) runs every command
with hostile house catalogues; this file pins the cases it cannot see."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from hostile_lists import HOSTILE_NAME, READERS_SECRET, problems, write_hostile_houses
from house_lists import HOUSE_DATA, WOLF_LIST, write_list

from armybuilder.cli import main
from armybuilder.core import house
from armybuilder.core.house_paths import PATH_ENV


def _run(argv: list[str], tmp_path: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    env["ARMYBUILDER_CACHE_DIR"] = str(tmp_path / "cache")
    env["ARMYBUILDER_DATA_DIR"] = str(tmp_path / "data")
    done = subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, env=env, cwd=tmp_path, timeout=300)
    return done.returncode, done.stdout.decode("utf-8", "surrogateescape"), done.stderr.decode("utf-8", "surrogateescape")


def test_a_hostile_folder_name_with_every_cache_on(tmp_path, monkeypatch):
    """Folder names that are not UTF-8 reach the caches' keys: the answers stay those of a fresh run."""
    houses = tmp_path / f"houses-{HOSTILE_NAME}"
    write_hostile_houses(HOUSE_DATA, "text", houses)
    monkeypatch.setenv(PATH_ENV, str(houses))
    pack = write_list(tmp_path / "pack.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    answers = []
    for _ in range(2):  # the first run stores, the second replays
        code, out, err = _run(["--catalog", str(houses), "validate", str(pack)], tmp_path)
        assert code == 0, err
        assert "LEGAL" in out and not problems(out, "stdout") + problems(err, "stderr")
        answers.append(out)
    assert answers[0] == answers[1]
    code, out, err = _run(["--catalog", str(houses), "export", "--summary", "--text", str(pack)], tmp_path)
    assert code == 0, err
    assert not problems(out, "stdout") + problems(err, "stderr")


def test_a_link_out_of_the_folder_is_refused_and_never_copied(tmp_path, capsys):
    folder = write_hostile_houses(HOUSE_DATA, "all", tmp_path / "houses")
    assert main(["catalog", "check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "a link to a file outside the catalogue's folder" in out and READERS_SECRET not in out
    assert main(["catalog", "install", str(folder)]) == 2
    assert READERS_SECRET not in capsys.readouterr().err
    assert not (tmp_path / "userdata" / "catalogues").exists()
    # a link that stays inside the folder is read as the file it names
    inside = tmp_path / "inside"
    (inside / "profiles").mkdir(parents=True)
    for name in ("catalogue.yaml", "profiles.yaml", "glossary.yaml"):
        (inside / name).write_bytes((HOUSE_DATA / "wolfen-of-yllia" / name).read_bytes())
    (inside / "profiles.yaml").rename(inside / "profiles" / "wolfen.yaml")
    (inside / "profiles.yaml").symlink_to(Path("profiles") / "wolfen.yaml")
    assert [rel for rel, _ in house.read_folder(inside)] == ["catalogue.yaml", "glossary.yaml", "profiles/wolfen.yaml", "profiles.yaml"]


def test_files_past_the_bounds_are_refused_before_parsing(tmp_path, capsys):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "catalogue.yaml").write_bytes((HOUSE_DATA / "wolfen-of-yllia" / "catalogue.yaml").read_bytes())
    (folder / "profiles.yaml").write_text("profiles:\n" + "  - [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" * 10_000, encoding="utf-8")
    assert main(["catalog", "check", str(folder)]) == 1
    assert "files over 256 KiB are refused" in capsys.readouterr().out
    (folder / "profiles.yaml").unlink()
    for n in range(5):
        (folder / f"part{n}.yaml").write_bytes(b"#" * (house.MAX_FILE_BYTES - 10) + b"\n")
    assert main(["catalog", "check", str(folder)]) == 1
    assert "the files add up to more than 1 MiB" in capsys.readouterr().out


def test_catalog_new_writes_a_manifest_that_reads_back_whatever_its_folder(tmp_path, capsys):
    assert main(["catalog", "new", "ragnarok2", "--people", "yllia", "--name", "Wolf\x1b]52;c;QQ==\x07", "-o", str(tmp_path / "w")]) == 2
    assert "a name holds no control characters" in capsys.readouterr().err
    assert not (tmp_path / "w").exists()
    folder = tmp_path / "w\nid: forged\u202e\udc9b"
    assert main(["catalog", "new", "ragnarok2", "--people", "yllia", "--name", "Wolfen of Bran-Ô-Kor [bold]<b>", "-o", str(folder)]) == 0
    out = capsys.readouterr().out
    assert not problems(out, "stdout")
    manifest = (folder / "catalogue.yaml").read_text(encoding="utf-8")
    assert not problems(manifest, "catalogue.yaml")
    data = yaml.safe_load(manifest)
    assert data["id"] == "wolfen-of-bran-o-kor-bold-b" and data["name"] == "Wolfen of Bran-Ô-Kor [bold]<b>"
    assert main(["catalog", "check", str(folder)]) == 0


def test_install_over_a_link_a_file_or_a_pipe_in_the_catalogue_s_place(tmp_path, capsys):
    """Whatever holds the installed catalogue's name is replaced with --force, a link itself
    and never what it points to; a left-over link from an earlier install is no internal error."""
    from armybuilder.core.house_paths import user_folder

    folder = tmp_path / "wolfen"
    folder.mkdir()
    for path in (HOUSE_DATA / "wolfen-of-yllia").rglob("*.yaml"):
        (folder / path.relative_to(HOUSE_DATA / "wolfen-of-yllia")).parent.mkdir(parents=True, exist_ok=True)
        (folder / path.relative_to(HOUSE_DATA / "wolfen-of-yllia")).write_bytes(path.read_bytes())
    root = user_folder()
    root.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    target = root / "wolfen-of-yllia"
    for make in (lambda: target.symlink_to(elsewhere), lambda: target.write_text("x"), lambda: os.mkfifo(target),
                 lambda: target.symlink_to(tmp_path / "nowhere")):
        make()
        assert main(["catalog", "install", str(folder)]) == 2
        assert "--force replaces it" in capsys.readouterr().err
        (root / ".wolfen-of-yllia.replaced").symlink_to(elsewhere)  # left by a killed install
        assert main(["catalog", "install", str(folder), "--force"]) == 0, capsys.readouterr().err
        assert target.is_dir() and not target.is_symlink() and (target / "catalogue.yaml").is_file()
        assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "mine"
        assert not os.path.lexists(root / ".wolfen-of-yllia.replaced")
        import shutil

        shutil.rmtree(target)
