"""Every command that prints, run on hostile lists, never lets the files' text out raw.

The commands are found from the CLI's own argument parser, so a command added to it is
run here without anyone listing it: its positional arguments and required options get
hostile values by their names (:data:`POSITIONAL`, :data:`REQUIRED`; a name this test
does not know fails it, asking for a value), and each of its on/off options and choices
runs once more.  :data:`EXTRA` adds runs a parser cannot describe (``odds --fray``, a
resumed ``meta``).  Only :data:`NOT_RUN` is left out, each with its reason.

The lists (``tests/hostile_lists.py``) hold C0 and C1 controls, DEL, bidi overrides, the
line separator, tabs and a line feed followed by a forged line in every string, under file
names that do too.  Every run also names hostile house catalogues with ``--catalog``: the
test ones (tests/house_data) with every text hostile, and, in the ``ids`` and ``all``
variants, one holding a FIFO, or a link to a file outside it (the reader's secret), a link
to ``/dev/zero`` and a file past the size bound; a command taking a house catalogue folder
gets that one, and a list pinned to the hostile Wolfen catalogue is validated and exported.
A run fails on any such character in stdout, stderr or a text file it wrote (JSON, CSV,
text rosters, results files, installed catalogues), on a line that starts with the forged
marker, on the reader's secret anywhere, on an internal error (exit 3) or a traceback.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile_lists import (
    HOSTILE_NAME,
    READERS_SECRET,
    problems,
    write_hostile,
    write_hostile_houses,
)
from house_lists import HOUSE_DATA, WOLF_LIST, write_list

from armybuilder.cli import build_parser, main
from armybuilder.core.house_paths import PATH_ENV
from armybuilder.core.registry import get_system, system_ids

#: Commands not run here, and why.
NOT_RUN = {
    ("edit",): "the editor: its screens are checked for raw text by tests/tui/test_tui_safety.py",
    ("bench",): "measures the program on its bundled samples; it reads no user file",
    ("serve",): "a server that runs until stopped: its hostile names, uploads and paths are tests/serve's",
}

#: Text files a command may write, checked like its output.
TEXT_SUFFIXES = (".txt", ".csv", ".json", ".jsonl", ".yaml", ".log", ".md", ".html")


@dataclass
class Case:
    """What one run works on: the system, the hostile list, a second list, an output folder,
    the hostile house catalogues (their folder, and the one a command is given)."""

    system: str
    list: Path
    other: Path
    out: Path
    houses: Path
    house: Path
    house_list: Path

    @property
    def versions(self) -> list[str]:
        return [v.version for v in get_system(self.system).source.versions()]


#: A value for each positional argument, by its name in the parser.
POSITIONAL: dict[str, Callable[[Case], list[str]]] = {
    "list": lambda c: [str(c.list)],
    "lists": lambda c: [str(c.list), str(c.other)],
    "system": lambda c: [c.system],
    "sources": lambda c: [str(c.list)],
    "v1": lambda c: [c.versions[0]],
    "v2": lambda c: [c.versions[-1]],
    "rest": lambda c: [],
    "folder": lambda c: [str(c.house)],
}

#: A value for each required option, by its flag.
REQUIRED: dict[str, Callable[[Case], list[str]]] = {
    "--vs": lambda c: [str(c.other)],
    "--output": lambda c: [str(c.out / f"{HOSTILE_NAME}.out")],
}

#: Options set on every run where the command has them: a meta or playtest of a thousand
#: games per pairing would only cost time here.
CHEAP = {"--games": "2", "--workers": "1"}

#: On/off options and choices not worth a run of their own (no text changes with them).
NO_VARIANT = {"--paper", "--help", "--version"}

#: Runs a parser cannot describe (a run is a list of argument lists run in turn).
EXTRA: dict[tuple[str, ...], list[list[list[str]]]] = {
    ("odds",): [
        [["odds", "{system}", "--fray", "{list}:1", "--vs", "{other}:1"]],
        [["odds", "{system}", "--fray", "{list}:1", "--vs", "{other}:2", "--json", "--charge"]],
    ],
    ("playtest",): [[["playtest", "{list}", "--vs", "{other}", "--games", "2", "--log", "--json"]]],
    ("meta",): [
        [["meta", "{list}", "--vs", "{other}", "{list}", "--games", "2", "--workers", "1", "-o", "{out}/field.pdf"]],
        [
            ["meta", "{list}", "{other}", "--games", "2", "--workers", "1", "-o", "{out}/m.pdf", "--include-illegal"],
            ["meta", "{list}", "{other}", "--games", "3", "--workers", "1", "-o", "{out}/m.pdf", "--resume", "--include-illegal"],
        ],
    ],
    ("validate",): [[["validate", "{folder}"]], [["validate", "{folder}", "--format", "json"]]],
    ("export",): [
        [["export", "{list}", "--save-text", "--text"]],
        [["export", "{list}", "--summary", "--save-text", "--text"]],
        [["export", "{house_list}", "--save-text", "--text"], ["export", "{house_list}", "--summary", "--save-text", "--text"]],
        [["export", "{house_list}", "--cards", "-o", "{out}/cards.pdf"]],
    ],
    ("catalog", "check"): [[["catalog", "check", "{house}"]], [["catalog", "check", "{house}", "--verbose"]]],
    ("catalog", "install"): [[["catalog", "install", "{house}"], ["catalog", "install", "{house}", "--force"], ["catalog", "list"]]],
    ("catalog", "new"): [[["catalog", "new", "ragnarok2", "--people", "yllia", "-o", "{out}/skeleton"], ["catalog", "check", "{out}/skeleton"]]],
    ("new",): [[["new", "ragnarok2", "--people", "yllia", "-o", "{out}/pack.yaml"], ["validate", "{out}/pack.yaml"]]],
    ("fingerprint",): [[["fingerprint", "{house_list}"]]],
    ("list", "upgrade"): [[["list", "upgrade", "{house_list}", "--dry-run"]]],
}
EXTRA[("validate",)].append([["validate", "{house_list}"], ["validate", "{house_list}", "--format", "json"]])

#: Runs of a list pinned to the hostile Wolfen catalogue (a Rag'Narok 2 list): run once,
#: with the Rag'Narok 2 lists.
HOUSE_SYSTEM = "ragnarok2"


def _leaves(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command of the parser, as its words (``("catalog", "show")``) and its parser."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        return {prefix: parser}
    for action in subparsers:
        for name, sub in action.choices.items():
            found.update(_leaves(sub, (*prefix, name)))
    return found


COMMANDS = _leaves(build_parser())


def _flag(action: argparse.Action) -> str:
    longs = [o for o in action.option_strings if o.startswith("--")]
    return (longs or action.option_strings)[0]


def _argv(words: tuple[str, ...], parser: argparse.ArgumentParser) -> list[list[str]]:
    """The templates of one command: its base run, and one run per on/off option or choice."""
    base: list[str] = list(words)
    variants: list[list[str]] = []
    for action in parser._actions:
        if not action.option_strings:
            if action.dest not in POSITIONAL:
                raise LookupError(f"{' '.join(words)}: what is a hostile value of the argument {action.dest!r}? (POSITIONAL)")
            base.append("{positional:" + action.dest + "}")
            continue
        flag = _flag(action)
        if flag in CHEAP:
            base += [flag, CHEAP[flag]]
        elif action.required:
            if flag not in REQUIRED:
                raise LookupError(f"{' '.join(words)}: what is a hostile value of the option {flag}? (REQUIRED)")
            base += [flag, "{required:" + flag + "}"]
        elif flag in NO_VARIANT:
            continue
        elif isinstance(action, argparse._StoreTrueAction):
            variants.append([flag])
        elif action.choices:
            variants += [[flag, str(choice)] for choice in action.choices if choice != action.default]
    return [base] + [base + v for v in variants]


#: Placeholders that stand for a hostile list file (a run without one is the same run for
#: every variant of the lists: it is run once).
LIST_WORDS = ("{positional:list}", "{positional:lists}", "{positional:sources}", "{required:--vs}", "{list}", "{other}", "{folder}",
              "{positional:folder}", "{house}", "{house_list}")


def _params() -> list:
    params = []
    for words, parser in sorted(COMMANDS.items()):
        if words in NOT_RUN:
            continue
        runs = [[argv] for argv in _argv(words, parser)] + EXTRA.get(words, [])
        for system in system_ids():
            for variant in ("text", "ids", "all"):
                for number, run in enumerate(runs):
                    reads_list = any(marker in word for argv in run for word in argv for marker in LIST_WORDS)
                    if variant != "text" and not reads_list:
                        continue  # the same run on every variant: once is enough
                    if any("{house_list}" in word for argv in run for word in argv) and system != HOUSE_SYSTEM:
                        continue  # a Rag'Narok 2 list whatever the system: once is enough
                    flags = " ".join(w for w in run[-1] if w.startswith("-") and w not in ("-o", "--output", *CHEAP))
                    label = f"{system}-{variant}-{' '.join(words)}-{number}{' ' + flags if flags else ''}"
                    params.append(pytest.param(system, variant, run, id=label))
    return params


def test_every_command_of_the_parser_is_run_or_excused():
    """A new command is run here by default; one that cannot be is named in NOT_RUN."""
    assert set(NOT_RUN) <= set(COMMANDS), "NOT_RUN names a command the parser no longer has"
    for words, parser in COMMANDS.items():
        if words not in NOT_RUN:
            assert _argv(words, parser)  # raises when a new argument needs a hostile value


def _fill(word: str, case: Case, folder: Path) -> list[str]:
    if word.startswith("{positional:"):
        return POSITIONAL[word[12:-1]](case)
    if word.startswith("{required:"):
        return REQUIRED[word[10:-1]](case)
    values = {"{list}": str(case.list), "{other}": str(case.other), "{system}": case.system, "{folder}": str(folder),
              "{house_list}": str(case.house_list), "{house}": str(case.house)}
    for key, value in values.items():
        word = word.replace(key, value)
    return [word.replace("{out}", str(case.out))]


def _text_files(root: Path, before: set[Path]) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and p not in before and p.suffix.lower() in TEXT_SUFFIXES]


@pytest.mark.parametrize(("system", "variant", "run"), _params())
def test_no_raw_text_from_a_file_reaches_any_output(system, variant, run, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default outputs (exports/) land here
    samples = get_system(system).source.samples()
    lists = tmp_path / f"lists-{HOSTILE_NAME}"
    first = write_hostile(Path(str(samples[0][1])), variant, lists, "a-")
    second = write_hostile(Path(str(samples[-1][1])), variant, lists, "b-")
    houses = tmp_path / f"houses-{HOSTILE_NAME}"
    house = write_hostile_houses(HOUSE_DATA, variant, houses)
    monkeypatch.setenv(PATH_ENV, str(houses))  # the list pinned to the hostile Wolfen catalogue
    house_list = write_list(tmp_path / f"pack-{HOSTILE_NAME}.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    monkeypatch.delenv(PATH_ENV)
    case = Case(system, first, second, tmp_path / f"out-{HOSTILE_NAME}", houses, house, house_list)
    case.out.mkdir()
    inputs = {first, second, house_list, *houses.rglob("*")}
    found: list[str] = []
    for template in run:
        argv = ["--catalog", str(houses), *(value for word in template for value in _fill(word, case, lists))]
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (0, 1, 2, 130), f"{argv}: exit {code}\n{err[-2000:]}"
        assert "Traceback" not in out + err
        found += problems(out, "stdout") + problems(err, "stderr")
        found += [f"{argv}: the reader's secret in its output"] if READERS_SECRET in out + err else []
    for path in _text_files(tmp_path, inputs):
        if path.parent == tmp_path and path.name == "readers-secret.yaml":
            continue
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        if path.is_relative_to(houses) or "catalogues" in path.parts:
            # a catalogue's own files (installed copies) keep their texts, escaped as YAML
            found += [f"{path}: the reader's secret copied"] if READERS_SECRET in text else []
            continue
        found += problems(text, os.fsdecode(path.name))
        found += [f"{path}: the reader's secret"] if READERS_SECRET in text else []
    assert not found, "\n".join(found)
