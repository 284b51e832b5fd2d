"""The command line of house catalogues (:mod:`armybuilder.core.house`): ``--catalog DIR``,
``catalog new / check DIR / install``, their rows in ``catalog list``, ``import-bsdata
--house``, ``new --house`` and the house side of ``list upgrade``."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from armybuilder.cli_common import EXIT_INVALID, EXIT_OK, UsageError, _out, _system
from armybuilder.core.errors import InputError


def take_catalog_option(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` without its ``--catalog DIR`` options, and the value the house catalogue
    search path must take (None: unchanged). Any place in the line before ``--`` counts,
    so ``armybuilder validate --catalog wolfen list.yaml`` works as well as before the command."""
    from armybuilder.core.house_paths import PATH_ENV

    out: list[str] = []
    folders: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out += argv[i:]
            break
        if arg == "--catalog":
            if i + 1 >= len(argv):
                raise UsageError("armybuilder: --catalog needs a folder (a house catalogue, or a folder of them)")
            folders.append(argv[i + 1])
            i += 2
            continue
        if arg.startswith("--catalog="):
            folders.append(arg.partition("=")[2])
            i += 1
            continue
        out.append(arg)
        i += 1
    if not folders:
        return out, None
    for folder in folders:
        if not Path(folder).expanduser().is_dir():
            raise UsageError(f"armybuilder: --catalog {folder}: no such folder")
    earlier = os.environ.get(PATH_ENV, "")
    return out, os.pathsep.join([str(Path(f).expanduser().resolve()) for f in folders] + ([earlier] if earlier else []))


def add_catalog_parsers(actions: Any) -> None:
    """``catalog new`` and ``catalog install`` (``check`` and ``list`` are the catalogue's own)."""
    q = actions.add_parser("new", help="write the commented skeleton of a house catalogue (a people's profiles from their cards)")
    q.add_argument("system")
    q.add_argument("--people", "--faction", dest="people", help="the people (faction) the catalogue is for")
    q.add_argument("-o", "--output", required=True, help="the folder to write (created)")
    q.add_argument("--id", help="the catalogue's id (default: from its name)")
    q.add_argument("--name", help="the catalogue's name (default: the people's)")
    q.add_argument("--force", action="store_true", help="replace the skeleton's files in an existing folder")
    q = actions.add_parser("install", help="check a house catalogue folder and copy it into your data folder")
    q.add_argument("folder")
    q.add_argument("--force", action="store_true", help="replace an installed catalogue of the same id")


# --------------------------------------------------------------------------- catalog ...


def house_rows() -> list[dict[str, Any]]:
    """One row per installed house catalogue (those that cannot be read too, said)."""
    from armybuilder.core.house import installed
    from armybuilder.core.registry import get_system, system_ids

    rows: list[dict[str, Any]] = []
    for source in installed(known=system_ids(), lookup=get_system):
        try:
            versions = [v.version for v in source.versions()]
            row: dict[str, Any] = {"system": source.system, "name": source.name, "latest": versions[-1], "versions": versions,
                   "house": source.id, "folder": str(source.path)}
        except InputError as exc:
            row = {"system": source.system, "name": "", "latest": None, "versions": [], "house": source.house_id,
                   "folder": str(source.path), "error": str(exc.first)}
        rows.append(row)
    return rows


def print_house_rows(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        if r.get("error"):
            _out(f"{r['system']:<18} house {r['house']}: cannot be read ({r['error']})  [{r['folder']}]")
        else:
            _out(f"{r['system']:<18} {r['name']:<32} latest {r['latest']}  (versions: {', '.join(r['versions'])})"
                 f"  house catalogue {r['house']}  [{r['folder']}]")


def cmd_catalog_new(args: argparse.Namespace) -> int:
    from armybuilder.core.house_files import write_skeleton

    system = _system(args.system)
    folder = Path(args.output)
    written = write_skeleton(system, folder, args.people, house_id=args.id, name=args.name, force=args.force)
    for path in written:
        _out(f"wrote {path}")
    _out(f"next: fill in the profiles from your cards, then 'armybuilder catalog check {folder}'")
    return EXIT_OK


def check_house(target: str) -> int:
    """``catalog check DIR``: every error and warning, then a verdict line."""
    from armybuilder.core.house_checks import check_folder

    report = check_folder(Path(target))
    source = report.source
    if source is not None:
        try:
            versions = ", ".join(v.version for v in source.versions())
            what = f"house catalogue {source.id} ({source.name}) for {source.system_name}, versions {versions}"
        except InputError:
            what = f"house catalogue in {target}"
    else:
        what = f"house catalogue in {target}"
    errors, warnings = len(report.errors), len(report.warnings)
    for issue in report.issues:
        _out(f"  {issue}")
    verdict = "ok" if not errors and not warnings else f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    _out(f"{what}: {verdict}")
    return EXIT_INVALID if errors else EXIT_OK


def check_installed() -> int:
    """The house catalogues installed (``catalog check`` without an argument checks them too)."""
    from armybuilder.core.house import installed
    from armybuilder.core.registry import get_system, system_ids

    status = EXIT_OK
    for source in installed(known=system_ids(), lookup=get_system):
        if check_house(str(source.path)) != EXIT_OK:
            status = EXIT_INVALID
    return status


def is_house_target(target: str | None) -> bool:
    """Whether ``catalog check TARGET`` names a folder rather than a game system."""
    from armybuilder.core.registry import system_ids

    return target is not None and target not in system_ids() and (Path(target).exists() or os.sep in target or target.startswith("."))


def cmd_catalog_install(args: argparse.Namespace) -> int:
    from armybuilder.core.house_files import install

    target, outcome = install(Path(args.folder), force=args.force)
    _out(f"{outcome} {target}" if outcome != "unchanged" else f"{target} holds the same files already")
    return EXIT_OK


def import_into_house(args: argparse.Namespace, module: Any, sources: list[Path]) -> int:
    """``catalog import-bsdata SYSTEM SOURCES -o DIR --house``: the new entries only, into a
    house catalogue (its manifest written when the folder has none)."""
    import inspect

    from armybuilder.core.house_files import import_into

    system = _system(args.system)
    options = {}
    if args.people:
        if "people" not in inspect.signature(module.convert).parameters:
            raise InputError.at(f"the {system.name} importer takes no --people")
        options["people"] = args.people
    converted: dict[str, str] = module.convert(sources, **options)
    written, left_out = import_into(system, Path(args.output), converted, sources, house_id=args.id, name=args.name, force=args.force)
    for path in written:
        _out(f"wrote {path}")
    for line in left_out:
        _out(f"left out: {line}")
    _out(f"next: 'armybuilder catalog check {args.output}'")
    return EXIT_OK


# --------------------------------------------------------------------------- lists


def pins_for_new(system: Any, people: str | None, house_ids: list[str]) -> tuple[list[dict[str, str]], str]:
    """The house pins of a new list, and a sentence saying which (or "")."""
    from armybuilder.core.house import pin_of
    from armybuilder.core.house_use import latest_pins, offering

    pins = latest_pins(system, None, {h: None for h in house_ids}) if house_ids else []
    if not pins and people is not None:
        found = offering(system, people)
        if len(found) == 1:
            pins = [pin_of(found[0])]
        elif len(found) > 1:
            raise InputError.at(f"several house catalogues have '{people}': choose one with --house "
                                f"({', '.join(s.house_id for s in found)})")
    said = "; ".join(f"house catalogue {p['id']} {p['version']}" for p in pins)
    return pins, said


def upgrade_pins(lf: Any, house_args: list[str] | None) -> list[dict[str, str]] | None:
    """The house pins ``list upgrade`` gives the list: each named one (``ID`` or
    ``ID@VERSION``) added or moved, the others moved to their installed latest; None when
    the list uses none and none is named."""
    from armybuilder.core.house_use import latest_pins

    moves: dict[str, str | None] = {}
    for text in house_args or []:
        house_id, _, version = text.partition("@")
        moves[house_id] = version or None
    if not moves and not lf.army.house:
        return None
    return latest_pins(lf.system, lf.army, moves)


def unusable_houses(system: Any) -> str:
    """``; house catalogues that cannot be used: …`` for the installed ones that fail to
    merge (a people they would add is then unknown), or ""."""
    from armybuilder.core.house import combine, installed

    wrong = []
    for source in installed(system):
        try:
            combine(system, system.source.latest, [source.data(source.latest)])
        except InputError as exc:
            wrong.append(f"{source.house_id} ({exc.first.message}; 'armybuilder catalog check {source.path}')")
    return "; house catalogues that cannot be used: " + ", ".join(wrong) if wrong else ""
