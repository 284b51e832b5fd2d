"""Hostile copies of the bundled sample lists, and the check that output stays inert.

Every string of a hostile list holds what a terminal, a log reader or a spreadsheet would
obey: OSC 52 (clipboard), CSI (clear screen), BEL, C1 controls, DEL, bidi overrides and
isolates, the Unicode line separator, a carriage return, a tab, a vertical tab, and a
line feed followed by ``FORGED`` (a line the file would like to add to the output), plus
a leading ``=HYPERLINK(`` formula.  The lists are written as JSON (valid YAML), whose
``\\u`` escapes carry every one of those characters into the parsed strings.

Three variants of each sample:

* ``text``: the free-text fields (names, labels, notes) hostile, the tournament fields
  hostile within what the list format accepts (one line: bidi and formula starts), ids
  intact: a legal list, so every command runs its full course on it;
* ``ids``: every string but the system and catalogue version hostile: lists full of
  unknown ids, the error paths;
* ``all``: every string hostile, the system and version included: unreadable lists.

File names are hostile too (:data:`HOSTILE_NAME`: controls, a line feed, a bidi override
and a byte that is not UTF-8).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

#: What every hostile string carries (after a prefix that keeps it unique).
HOSTILE = (
    "\x1b]52;c;cHduZWQ=\x07\x1b[2J\x9b31m\x9d0;t\x9c\u202eevil\u2066x\u2069\u061cALM\u2028"
    "\r\nFORGED line\tTAB\x0bVT\x0cFF\x7fDEL\x85NEL\x00"
)
#: Formula start (a spreadsheet would run it)
FORMULA = '=HYPERLINK("http://x.invalid","click")'
#: One line, as the tournament fields (player, team, event) must be: bidi and formulas only.
ONE_LINE = "@SUM(1)\u202eevil\u2066x\u2069\u061cALM"
#: A file (and folder) name no one should have to look at raw: the last character is the
#: byte 0x9B, which is not UTF-8 (Python holds it as the surrogate U+DC9B).
HOSTILE_NAME = "ev\x1b]52;c;QQ==\x07\nFORGED\x1b[2J\u202efile\x7f\udc9b"

#: Free text in the list formats of every system (a new system's own free-text fields are
#: still covered by the ``ids`` variant, where every string is hostile).
TEXT_KEYS = frozenset({"name", "notes", "label"})
ORGANISER_KEYS = ("player", "team", "event")

#: What must never reach a terminal, a JSON or CSV document or a written text file raw:
#: C0 controls but line feed (the program's own line ends), DEL, C1, bidi (the Arabic letter
#: mark U+061C among them), line and
#: paragraph separators, lone surrogates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: A line a file forged: the marker at the very start of a line (a wrapped roster line
#: is indented; only a raw line feed from the file puts it in column one).
FORGED = re.compile(r"^FORGED", re.M)


def _hostile(value: str) -> str:
    return f"{FORMULA}{value}{HOSTILE}"


def _tweak(value: Any, variant: str, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _tweak(v, variant, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_tweak(v, variant, key) for v in value]
    if not isinstance(value, str):
        return value
    if key in ORGANISER_KEYS:
        return value
    if variant == "all" or key in TEXT_KEYS or (variant == "ids" and key not in ("system", "catalogue")):
        return _hostile(value)
    return value


def hostile_document(sample: Path, variant: str) -> dict[str, Any]:
    """The sample's content with its strings made hostile (see the module docstring)."""
    data = yaml.safe_load(sample.read_text(encoding="utf-8"))
    data = _tweak(data, variant)
    if variant != "all":
        data.update({key: ONE_LINE for key in ORGANISER_KEYS})
    else:
        data.update({key: _hostile(key) for key in ORGANISER_KEYS})
    return data


def write_hostile(sample: Path, variant: str, folder: Path, stem: str = "") -> Path:
    """A hostile copy of ``sample`` in ``folder`` under a hostile file name."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}{HOSTILE_NAME}-{variant}.yaml"
    path.write_text(json.dumps(hostile_document(sample, variant), indent=1), encoding="utf-8")
    return path


def problems(text: str, where: str) -> list[str]:
    """What in ``text`` (from ``where``) a file put there raw: controls, forged lines."""
    found = []
    for match in RAW.finditer(text):
        found.append(f"{where}: raw {match.group()!r} at {match.start()}: {text[max(0, match.start() - 50):match.start() + 10]!r}")
        if len(found) > 3:
            break
    for match in FORGED.finditer(text):
        found.append(f"{where}: forged line at {match.start()}: {text[max(0, match.start() - 50):match.start() + 20]!r}")
        break
    return found


#: Free text of a house catalogue's files (names, summaries, notes, rule texts, sources).
HOUSE_TEXT_KEYS = frozenset({"name", "notes", "summary", "text", "source", "note"})
#: What a file outside a hostile house catalogue holds: it must reach no output.
READERS_SECRET = "SECRET-OF-THE-READER"


def _house_tweak(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _house_tweak(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_house_tweak(v, key) for v in value]
    if isinstance(value, str) and key in HOUSE_TEXT_KEYS:
        return _hostile(value)
    return value


def write_hostile_houses(source: Path, variant: str, folder: Path) -> Path:
    """Hostile copies of the test house catalogues in ``source`` (tests/house_data) under
    ``folder`` (a hostile name), every free text hostile; returns the catalogue a command
    is given by name.

    * ``text``: usable catalogues with hostile texts (the first one's folder is returned);
    * ``ids``: beside them a catalogue holding a FIFO (returned);
    * ``all``: beside them a catalogue holding a link to a file outside it (the reader's
      :data:`READERS_SECRET`), a link to ``/dev/zero`` and a file past the size bound
      (returned).
    """
    folder.mkdir(parents=True, exist_ok=True)
    first = None
    for catalogue in sorted(p for p in source.iterdir() if p.is_dir()):
        target = folder / f"{catalogue.name}-{HOSTILE_NAME}"
        first = first or target
        for path in sorted(catalogue.rglob("*.yaml")):
            copy = target / path.relative_to(catalogue)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(json.dumps(_house_tweak(yaml.safe_load(path.read_text(encoding="utf-8"))), indent=1), encoding="utf-8")
    assert first is not None
    if variant == "text":
        return first
    broken = folder / f"broken-{HOSTILE_NAME}"
    broken.mkdir()
    manifest = {"id": "broken-house", "system": "ragnarok2", "name": _hostile("broken"), "version": "0.1.0",
                "date": "2026-12-01", "summary": _hostile("summary")}
    (broken / "catalogue.yaml").write_text(json.dumps(manifest), encoding="utf-8")
    if variant == "ids":
        import os

        os.mkfifo(broken / f"a-{HOSTILE_NAME}.yaml")
    else:
        secret = folder.parent / "readers-secret.yaml"
        secret.write_text(f"{READERS_SECRET}: 1\n", encoding="utf-8")
        (broken / f"a-{HOSTILE_NAME}.yaml").symlink_to(secret)
        (broken / "b-zero.yaml").symlink_to("/dev/zero")
        (broken / "c-huge.yaml").write_bytes(b"# " + b"x" * (300 * 1024) + b"\nprofiles: []\n")
    return broken
