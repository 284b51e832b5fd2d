"""Writing house catalogues: the skeleton of ``catalog new``, ``catalog install`` and the
house side of ``catalog import-bsdata``.

Every file is written atomically (:mod:`.atomic`), and nothing is written over a file a
player wrote unless they ask (``force``): a house catalogue is their own work.
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import re
import shutil
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import atomic_write_bytes, atomic_write_text
from .errors import InputError, Problem
from .house import CLOSED_COLLECTIONS, installed, is_collection, read_folder, valid_id
from .house_paths import user_folder
from .sanitize import INVISIBLE_FORMAT, has_unsafe, visible

if TYPE_CHECKING:
    from .system import GameSystem

#: the first line of a file the importer wrote into a house catalogue (so a re-import may
#: replace it, and never a file a player wrote by hand)
IMPORTED_MARK = "# Imported into a house catalogue by `armybuilder catalog import-bsdata`"

MANIFEST = """\
# House catalogue for {system_name}: data a player wrote, not part of armybuilder's
# bundled catalogue. A list that uses it pins it (id, version, hash) and every print names
# it ("uses house catalogue {house_id} 0.1.0"): give this folder to your opponent or
# organiser with the list. Check it with: armybuilder catalog check {folder}
#
# id: lower-case words joined by hyphens; never a bundled catalogue's id.
id: {house_id}
# system: the game system it extends.
system: {system}
name: {name_yaml}
# version: MAJOR.MINOR.PATCH. Once the catalogue is shared, change its figures through
# errata/<version>.yaml files (as the bundled catalogue does), so lists keep their meaning.
version: 0.1.0
date: '{date}'
summary: {summary_yaml}
notes:
  - Figures copied from the cards by the catalogue's author; see each entry's source.
"""


def slug(text: str) -> str:
    """An id from a name: accents dropped (Bran-Ô-Kor gives bran-o-kor, as the people's id)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-")


def _yaml_text(text: str) -> str:
    """A one-line YAML string, double-quoted: a character a terminal or an editor would obey
    (from a folder's name) is written as its ``\\u`` escape, so the manifest always reads back."""
    text = " ".join(text.encode("utf-8", "replace").decode("utf-8").split())
    return _UNSAFE_IN_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


#: What :func:`_yaml_text` escapes besides what JSON does (the sanitiser's set: C1, DEL, bidi,
#: separators).
_UNSAFE_IN_YAML = re.compile(f"[\x7f-\x9f{INVISIBLE_FORMAT}\ufeff]")


def _own_name(name: str | None) -> str | None:
    """The ``--name`` a player typed, refused when it holds control characters (a terminal
    escape, a bidi override, a line break): a name is shown on every print."""
    if name is not None and has_unsafe(name):
        raise InputError.at(f"--name {visible(name)}: a name holds no control characters (escapes, bidi overrides, line breaks)")
    return name


def skeleton_module(system: GameSystem[Any, Any]) -> Any:
    name = getattr(system, "house_skeleton_module", None)
    if name is None:
        raise InputError.at(f"no house catalogue skeleton for {system.name} yet: copy the shapes of its bundled catalogue files")
    return importlib.import_module(name)


def people_of(system: GameSystem[Any, Any]) -> dict[str, str]:
    """The factions a house catalogue of ``system`` may be written for: id → name."""
    return dict(skeleton_module(system).people_choices(system.catalogue()))


def write_skeleton(
    system: GameSystem[Any, Any], folder: Path, people: str | None = None, *, house_id: str | None = None,
    name: str | None = None, force: bool = False,
) -> list[Path]:
    """Write a commented house catalogue skeleton for ``people`` into ``folder``."""
    module = skeleton_module(system)
    name = _own_name(name)
    cat = system.catalogue()
    choices: dict[str, str] = dict(module.people_choices(cat))
    if people is None:
        if len(choices) != 1:
            raise InputError.at(f"name the {system.faction_label.lower()} with --people (known: {', '.join(choices)})")
        people = next(iter(choices))
    if people not in choices:
        raise InputError.at(f"unknown {system.faction_label.lower()} '{people}' (known: {', '.join(choices)})")
    name = name or f"{choices[people]} (house catalogue)"
    house_id = house_id or slug(name.removesuffix(" (house catalogue)")) or f"{people}-house"
    if not valid_id(house_id):
        raise InputError.at(f"'{house_id}' is not an id: lower-case words joined by hyphens (e.g. wolfen-of-yllia)")
    if house_id in {system.id, system.source.manifest.id}:
        raise InputError.at(f"'{house_id}' is the bundled catalogue's id: a house catalogue needs its own")
    texts = {
        "catalogue.yaml": MANIFEST.format(
            system_name=system.name, system=system.id, house_id=house_id, folder=visible(folder), name_yaml=_yaml_text(name),
            date=datetime.date.today().isoformat(), summary_yaml=_yaml_text(f"Profiles of {choices[people]} from their cards"),
        ),
        **module.files(cat, people, visible(folder)),
    }
    existing = [folder / rel for rel in texts if (folder / rel).exists()]
    if existing and not force:
        raise InputError.at("the folder holds a house catalogue's files already; choose another folder or use --force to replace them", existing[0])
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for rel, text in texts.items():
        atomic_write_text(folder / rel, text)
        written.append(folder / rel)
    return written


# --------------------------------------------------------------------------- install


def _remove(path: Path) -> None:
    """Remove what is at ``path``: a folder with its files, or a link, a file or a pipe
    itself (never what a link points to)."""
    if path.is_symlink() or (os.path.lexists(path) and not path.is_dir()):
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path, ignore_errors=True)


def install(folder: Path, *, force: bool = False) -> tuple[Path, str]:
    """Copy the house catalogue in ``folder`` into the user's folder, after its check.

    Returns the installed folder and what happened ("installed", "replaced", "unchanged")."""
    from .house_checks import check_folder

    report = check_folder(folder)
    if report.source is None or report.errors:
        problems = [i.problem for i in report.errors]
        head = Problem(f"not installed: {len(problems)} errors to fix first ('armybuilder catalog check {folder}' lists them)")
        raise InputError([head, *problems])
    source = report.source
    files = read_folder(folder)
    root = user_folder()
    target = root / source.id
    if os.path.lexists(target):
        try:
            same = read_folder(target) == files
        except InputError:
            same = False
        if same:
            return target, "unchanged"
        if not force:
            what = "is installed already" if target.is_dir() and not target.is_symlink() else "has its place taken by a link or a file"
            raise InputError.at(f"house catalogue {source.id} {what} at {target}; --force replaces it")
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = root / f".{source.id}.installing"
        _remove(staging)
        for rel, data in files:
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(staging / rel, data)
        outcome = "installed"
        if os.path.lexists(target):  # a folder, or whatever took its name (a link, a file, a pipe)
            old = root / f".{source.id}.replaced"
            _remove(old)
            target.rename(old)
            staging.rename(target)
            _remove(old)
            outcome = "replaced"
        else:
            staging.rename(target)
    except OSError as exc:
        raise InputError.at(f"not installed: {exc.strerror or exc} (the installed catalogues are in {root})", target) from None
    return target, outcome


# --------------------------------------------------------------------------- import


def import_into(
    system: GameSystem[Any, Any], folder: Path, converted: dict[str, str], sources: list[Path], *,
    house_id: str | None = None, name: str | None = None, force: bool = False,
) -> tuple[list[Path], list[str]]:
    """Write what an importer converted into the house catalogue ``folder``: only entries the
    bundled catalogue does not have (in any version), only collections a house may add to.

    Creates the catalogue's ``catalogue.yaml`` when the folder has none.  Returns the files
    written and a sentence for each thing left out."""
    from .yamlio import dump_document, new_document, parse_text, to_plain

    bundled: set[tuple[str, str]] = set()
    for info in system.source.versions():
        for key, value in system.catalogue(info.version).raw.items():
            if is_collection(value):
                bundled.update((key, str(e["id"])) for e in value)
    own = {s.house_id for s in installed(system)}
    left_out: list[str] = []
    outputs: dict[str, str] = {}
    shown = visible(", ".join(p.name for p in sources))
    name = _own_name(name)
    for rel, text in sorted(converted.items()):
        doc = to_plain(parse_text(text, rel))
        kept: dict[str, Any] = {}
        for key, value in (doc or {}).items():
            if key in CLOSED_COLLECTIONS or not is_collection(value):
                left_out.append(f"{rel}: {key} (a house catalogue adds entries, not {key})")
                continue
            fresh = [e for e in value if (key, str(e["id"])) not in bundled]
            if len(fresh) < len(value):
                left_out.append(f"{rel}: {len(value) - len(fresh)} {key} the bundled catalogue has already")
            if fresh:
                kept[key] = fresh
        if not kept:
            continue
        header = "\n".join([
            IMPORTED_MARK[2:],
            f"from {shown}. Figures as the source gives them: check each against its card",
            f"(armybuilder catalog check {visible(folder)}); a later import replaces this file.",
        ])
        outputs[rel] = dump_document(new_document(kept, header))
    if not outputs:
        raise InputError.at("nothing to import: every entry of the sources is in the bundled catalogue already")
    for rel in outputs:
        target = folder / rel
        if target.exists() and not force and not target.read_text("utf-8", "replace").startswith(IMPORTED_MARK):
            raise InputError.at("this file was not written by the importer; --force replaces it", target)
    written: list[Path] = []
    if not (folder / "catalogue.yaml").exists():
        name = name or f"{folder.name} (imported)"
        house_id = house_id or slug(folder.name) or "imported-house"
        if not valid_id(house_id) or house_id in own or house_id == system.id:
            raise InputError.at(f"'{house_id}' cannot be this catalogue's id (taken, or not lower-case words joined by hyphens); name one with --id")
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "catalogue.yaml", MANIFEST.format(
            system_name=system.name, system=system.id, house_id=house_id, folder=visible(folder), name_yaml=_yaml_text(name),
            date=datetime.date.today().isoformat(), summary_yaml=_yaml_text(f"Imported from {shown}"),
        ))
        written.append(folder / "catalogue.yaml")
    for rel, text in outputs.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, text)
        written.append(target)
    return written, left_out
