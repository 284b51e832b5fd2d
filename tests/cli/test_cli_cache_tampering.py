"""A cache only costs the speed: whatever its folder holds, the answers are a fresh run's.

Each command runs in its own process (the caches are read at start-up) against a cache
folder warmed by the same commands, then tampered with: entries spliced (every entry's
bytes moved under another entry's name: 1.0.0's catalogue under 1.1.0's name, one
findings bucket's answers in another's file), truncated, grown past the size bound, and
replaced by FIFOs and devices (the key file included).  Every answer (output and exit
code) must stay the one of a run without any cache, within a timeout: a FIFO must not
hang a command, a device must not be read without end.  ``--no-cache`` and
``ARMYBUILDER_NO_CACHE`` must not read the cache folder at all.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"

#: Commands whose answers go through every cache: the catalogue (its index, its sound
#: verdict, the remembered source key), the findings, the odds tables, the listing.  The
#: splice runs ``validate`` on lists of both versions (1.0.0's entries under 1.1.0's names);
#: the other kinds on one, since rebuilding a catalogue without its cache costs seconds.
COMMANDS = [
    ["validate", "{new}"],
    ["odds", "ragnarok2", "--attack", "4", "--defense", "3", "--strength", "5", "--resistance", "4", "--dice", "6"],
    ["catalog", "list"],
]
BOTH_VERSIONS = ["validate", "{old}", "{new}"]


def _run(argv: list[str], cache: Path | None, cwd: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    if cache is None:
        env["ARMYBUILDER_NO_CACHE"] = "1"
        env["ARMYBUILDER_CACHE_DIR"] = str(cwd / "never-used")
    else:
        env["ARMYBUILDER_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "armybuilder", *argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)
    return done.returncode, done.stdout, done.stderr


def sample_version() -> str:
    """The catalogue version the bundled sample is written against (the newer of the two)."""
    found = re.search(r"^catalogue: (\S+)$", SAMPLE.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None and found.group(1) != "1.0.0"
    return found.group(1)


def _lists(folder: Path) -> dict[str, str]:
    new = folder / "lions-new.yaml"
    shutil.copy(SAMPLE, new)
    old = folder / "lions-old.yaml"
    old.write_text(SAMPLE.read_text(encoding="utf-8").replace(f"catalogue: {sample_version()}", "catalogue: 1.0.0"), encoding="utf-8")
    return {"{old}": old.name, "{new}": new.name}


def _argvs(names: dict[str, str]) -> list[list[str]]:
    return [[names.get(word, word) for word in argv] for argv in COMMANDS]


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file() and not p.is_symlink())


def _rotate(group: list[Path]) -> None:
    contents = [p.read_bytes() for p in group]
    for path, data in zip(group, contents[1:] + contents[:1], strict=True):
        path.write_bytes(data)


def _splice(cache: Path) -> None:
    """Every entry's bytes under another entry's name: first each version's under another
    version's same-shaped name (1.0.0's catalogue as 1.1.0's), then the rest by kind."""
    by_shape: dict[str, list[Path]] = {}
    for path in _entries(cache):
        if path.name != "cache-key":
            by_shape.setdefault(re.sub(r"\d+\.\d+\.\d+", "V", path.name), []).append(path)
    by_kind: dict[str, list[Path]] = {}
    for group in by_shape.values():
        if len(group) > 1:
            _rotate(group)
        else:
            by_kind.setdefault(group[0].suffix, []).append(group[0])
    for group in by_kind.values():
        _rotate(group)


def _truncate(cache: Path) -> None:
    for path in _entries(cache):
        if path.name != "cache-key":
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2])


def _oversize(cache: Path) -> None:
    for path in _entries(cache):
        if path.name != "cache-key":
            with open(path, "r+b") as handle:
                handle.truncate(200 * 1024 * 1024)  # sparse: costs no disk


def _fifos(cache: Path) -> None:
    for path in _entries(cache):
        path.unlink()
        os.mkfifo(path)


def _devices(cache: Path) -> None:
    for number, path in enumerate(_entries(cache)):
        path.unlink()
        path.symlink_to("/dev/zero" if number % 2 else "/dev/urandom")


TAMPERING = {"splice": _splice, "truncate": _truncate, "oversize": _oversize, "fifo": _fifos, "device": _devices}


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> tuple[Path, Path, list[list[str]], list[tuple[int, str, str]]]:
    """The lists, a cache folder written by a first run of each command on an empty cache
    (the fresh answers), the commands and those answers."""
    folder = tmp_path_factory.mktemp("lists")
    names = _lists(folder)
    argvs = _argvs(names) + [[names.get(w, w) for w in BOTH_VERSIONS]]
    cache = tmp_path_factory.mktemp("warm") / "cache"
    answers = [_run(argv, cache, folder) for argv in argvs]
    assert answers[-1][0] == 0 and "1.0.0" in answers[-1][1] and sample_version() in answers[-1][1]
    return folder, cache, argvs, answers


def test_the_environment_variable_turns_every_cache_off(warm, tmp_path):
    folder, _, argvs, answers = warm
    code, out, _ = _run(argvs[0], None, folder)
    assert (code, out) == answers[0][:2]
    assert not (folder / "never-used").exists()  # ARMYBUILDER_NO_CACHE: not even created


def test_no_cache_flag_reads_no_cache_file(warm, tmp_path):
    folder, _, argvs, answers = warm
    cache = tmp_path / "cache"
    cache.mkdir()
    os.mkfifo(cache / "cache-key")  # anything read here would hang the command
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARMYBUILDER_")}
    env["ARMYBUILDER_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "armybuilder", *argvs[0], "--no-cache"], capture_output=True, text=True,
                          env=env, cwd=folder, timeout=300)
    assert (done.returncode, done.stdout) == answers[0][:2]
    assert sorted(p.name for p in cache.iterdir()) == ["cache-key"]  # nothing written either


@pytest.mark.parametrize("kind", list(TAMPERING))
def test_a_tampered_cache_gives_a_fresh_run_s_answers(kind, warm, tmp_path):
    folder, warm_cache, argvs, answers = warm
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache, cache, symlinks=True)
    assert len(_entries(cache)) >= 8
    TAMPERING[kind](cache)
    runs = list(zip(argvs, answers, strict=True))
    if kind != "splice":
        runs = runs[:-1]
    for argv, answer in runs:
        code, out, err = _run(argv, cache, folder)
        assert (code, out) == answer[:2], f"{kind}: {argv}\n{err}"
        assert "Traceback" not in err and "internal error" not in err
    code, out, _ = _run(argvs[0], cache, folder)  # and once more, on what the runs rewrote
    assert (code, out) == answers[0][:2]
