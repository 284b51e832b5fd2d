"""The ``armybuilder`` command line (contract in design.md: tests and scripts rely on it).

Exit codes: 0 success / all lists legal, 1 some list illegal (or problems found),
2 unreadable input or wrong usage.  The TUI and PDF packages are imported only by
the commands that need them, so headless commands start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from armybuilder.cli_common import (  # noqa: F401 - re-exported for meta and the tests
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    MAX_GAMES,
    MAX_SEED,
    MAX_WORKERS,
    Parser,
    UsageError,
    check_range,
    expand_paths,
    load_editable,
    print_block,
    print_error,
    print_error_block,
    print_json,
    print_line,
    read_list_file,
    read_opponent,
    resolve_unit,
    sound_catalogue,
    system_named,
)
from armybuilder.cli_playtest import cmd_playtest
from armybuilder.cli_validate import (  # noqa: F401
    add_validate_parsers,
    cmd_fingerprint,
    cmd_validate,
    validate_one,
)
from armybuilder.core.errors import InputError


def cmd_new(args: argparse.Namespace) -> int:
    from armybuilder.core.lists import new_list_file

    system = system_named(args.system)
    cat = system.catalogue()
    fmt_id = args.format
    limit = None
    if args.limit is not None:
        if args.limit <= 0:
            raise InputError.at(f"--limit must be a whole number above 0, not {args.limit}")
        matching = [f for f in system.formats(cat) if f.limit == args.limit]
        if matching and fmt_id is None:
            fmt_id = matching[0].id
        else:  # the player's own limit, on the chosen (or default) format's rules
            limit = args.limit
    from armybuilder.cli_house import pins_for_new

    pins, house_said = pins_for_new(system, args.people, args.house or [])
    if pins:  # the people (or clan...) may be one only a house catalogue makes playable
        from armybuilder.core.house import game_catalogue

        cat = game_catalogue(system, cat.version, pins)
        for use in cat.houses:
            if not use.used:
                raise InputError.at(f"house catalogue {use.id} cannot be used: {use.detail}; 'armybuilder catalog check {use.folder}' says what to fix")
    if args.people is not None and args.people not in {c.value for c in system.factions(cat)}:
        from armybuilder.cli_house import unusable_houses

        known = ", ".join(c.value for c in system.factions(cat))
        raise InputError.at(f"unknown {system.faction_label.lower()} '{args.people}' (known: {known}){unusable_houses(system)}")
    army = system.new_list(cat, faction=args.people, format=fmt_id, name=args.name, limit=limit)
    if pins:
        army = type(army).model_validate({**army.model_dump(), "house": pins})
    out = Path(args.output)
    if out.exists() and not args.force:
        raise InputError.at("the file exists already; use --force to replace it", out)
    new_list_file(army).save(out)
    own = f", limit {army.limit}" if army.limit is not None else ""
    uses = f", uses {house_said}" if house_said else ""
    print_line(f"created {out} ({system.name}, catalogue {cat.version}{uses}, format {army.format}{own})")
    return EXIT_OK


def cmd_list_upgrade(args: argparse.Namespace) -> int:
    from armybuilder.cli_house import upgrade_pins
    from armybuilder.core.upgrade import upgrade_impact

    lf = load_editable(args.list)
    target = args.to or lf.system.source.latest
    if not lf.system.source.has_version(target):
        known = ", ".join(v.version for v in lf.system.source.versions())
        raise InputError.at(f"no catalogue version {target} (known: {known})")
    pins = upgrade_pins(lf, args.house)
    impact = upgrade_impact(lf.system, lf.army, target, house=pins)
    if args.json:
        print_json(impact.as_json(), indent=2, ensure_ascii=False)
    else:
        for line in impact.lines():
            print_line(line)
    if args.dry_run or not impact.moves:
        if not args.json:
            print_line("dry run: the file was not changed" if args.dry_run else "the list is already on that version")
        return EXIT_OK
    lf.army = impact.moved
    lf.save()
    if not args.json:
        houses = "".join(f", house catalogue {p['id']} {p['version']}" for p in pins or [])
        print_line(f"{lf.path} now pinned to catalogue {target}{houses}")
    return EXIT_OK


# --------------------------------------------------------------------------- catalogue


def cmd_catalog(args: argparse.Namespace) -> int:
    action = args.catalog_action
    if action == "list":
        from armybuilder.cli_house import house_rows, print_house_rows
        from armybuilder.core.catalog_listing import catalogue_rows

        rows = catalogue_rows()  # cached rows: no system loaded unless its files changed
        houses = house_rows()  # the house catalogues installed (and named with --catalog)
        if args.json:
            print_json(rows + houses, indent=2, ensure_ascii=False)
        else:
            for r in rows:
                print_line(f"{r['system']:<18} {r['name']:<32} latest {r['latest']}  (versions: {', '.join(r['versions'])})")
            print_house_rows(houses)
        return EXIT_OK
    if action in ("new", "install"):
        from armybuilder.cli_house import cmd_catalog_install, cmd_catalog_new

        return cmd_catalog_new(args) if action == "new" else cmd_catalog_install(args)
    from armybuilder.core.catalog import diff
    from armybuilder.core.registry import system_ids

    if action == "versions":
        system = system_named(args.system)
        rows = []
        for v in system.source.versions():
            cat = system.catalogue(v.version)
            rows.append({"version": v.version, "date": v.date, "summary": v.summary, "source": v.source, "provisional": v.provisional, "hash": cat.hash})
        if args.json:
            print_json(rows, indent=2, ensure_ascii=False)
        else:
            for r in rows:
                flag = " [provisional]" if r["provisional"] else ""
                print_line(f"{r['version']:<8} {r['date']:<11} {r['hash']}  {r['summary']}{flag}  ({r['source']})")
        return EXIT_OK
    if action == "show":
        system = system_named(args.system)
        cat = system.catalogue(args.version)
        if args.json:
            print_json({"system": system.id, "catalogue": cat.id, "version": cat.version, "hash": cat.hash, "data": cat.raw}, indent=1, ensure_ascii=False)
        else:
            print_line(f"{cat.name} catalogue {cat.version} (hash {cat.hash})")
            for name, value in cat.raw.items():
                if isinstance(value, list):
                    print_line(f"  {name:<14} {len(value)} entries")
                elif isinstance(value, dict):
                    print_line(f"  {name:<14} {', '.join(k for k, v in value.items() if v)}")
        return EXIT_OK
    if action == "diff":
        system = system_named(args.system)
        a, b = system.catalogue(args.v1), system.catalogue(args.v2)
        changes = diff(a.raw, b.raw)
        # The errata lying between the two versions, with the source each operation cites.
        from armybuilder.core.catalog import parse_version

        low, high = sorted((parse_version(a.version), parse_version(b.version)))
        errata = [e for _, e in system.source.errata if low < parse_version(e.version) <= high]
        if args.json:
            print_json({"system": system.id, "from": a.version, "to": b.version, "changes": [
                {"collection": c.collection, "entry": c.entry, "kind": c.kind, "field": c.field, "old": c.old, "new": c.new} for c in changes
            ], "errata": [
                {"version": e.version, "date": e.date, "summary": e.summary, "source": e.source, "provisional": e.provisional,
                 "operations": [{"op": o.op, "path": o.path, "note": o.note} for o in e.operations]} for e in errata
            ]}, indent=2, ensure_ascii=False, default=str)
        else:
            print_line(f"{system.name}: {a.version} → {b.version}, {len(changes)} changes")
            for c in changes:
                print_line(f"  {c.describe()}")
            for e in errata:
                print_line(f"erratum {e.version} ({e.date}): {e.summary} [{e.source}]")
                for o in e.operations:
                    print_line(f"  {o.op} {o.path}" + (f": {o.note}" if o.note else ""))
        return EXIT_OK
    if action == "check":
        from armybuilder.cli_house import check_house, check_installed, is_house_target

        if is_house_target(args.system):
            return check_house(args.system)
        systems = [system_named(args.system)] if args.system else [system_named(s) for s in system_ids()]
        problems = 0
        for system in systems:
            for v in system.source.versions():
                try:
                    found = system.source.check(v.version)
                except InputError as exc:  # the version cannot even be built
                    found = exc.problems
                problems += len(found)
                try:
                    data = system.catalogue(v.version).data
                    assigned, notes = list(data.assigned_fields()), list(data.data_notes())
                except InputError:
                    assigned, notes = [], []
                status = "ok" if not found else f"{len(found)} problems"
                extra = f"; {len(assigned)} fields assigned by the project (CAT-D1)" if assigned else ""
                extra += f"; {len(notes)} notes on the reference data" if notes else ""
                print_line(f"{system.id} {v.version}: {status}{extra}")
                for p in found:
                    print_line(f"  error: {p}")
                if args.verbose:
                    for entry, field in assigned:
                        print_line(f"  info: {entry}.{field} assigned by armybuilder (CAT-D1)")
                    for entry, note in notes:
                        print_line(f"  info: {entry}: {note}")
        house_status = check_installed() if not args.system else EXIT_OK
        return EXIT_INVALID if problems or house_status != EXIT_OK else EXIT_OK
    if action == "import-bsdata":
        return _import_bsdata(args)
    raise UsageError("armybuilder catalog: choose list, show, versions, diff, check, new, install or import-bsdata")


def _import_bsdata(args: argparse.Namespace) -> int:
    import importlib

    from armybuilder.core.atomic import atomic_write_text
    from armybuilder.core.registry import importers

    found = importers()  # the registry's systems that name an importer module
    if args.system not in found:
        raise InputError.at(f"no BattleScribe importer for '{args.system}' (importers: {', '.join(found)})")
    module = importlib.import_module(found[args.system])
    sources = [p for p in expand_paths(args.sources)]
    for p in sources:
        if not p.exists():
            raise InputError.at("no such file", p)
        if not p.is_file():
            raise InputError.at("not a regular file (a folder, a pipe or a device)", p)
    if args.house:
        from armybuilder.cli_house import import_into_house

        return import_into_house(args, module, sources)
    if args.people:
        raise InputError.at("--people names the people of a catalogue imported into a house catalogue: add --house")
    files: dict[str, str] = module.convert(sources)
    out = Path(args.output)
    for rel, text in sorted(files.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, text)
        print_line(f"wrote {target}")
    return EXIT_OK


# --------------------------------------------------------------------------- exports


def _default_export(lf, suffix: str) -> Path:
    from armybuilder.core.sanitize import file_stem

    stem = file_stem(Path(lf.path).stem) if lf.path else "list"
    return Path("exports") / f"{stem}{suffix}"


def cmd_export(args: argparse.Namespace) -> int:
    from armybuilder.core.lists import list_fingerprint

    lf = read_list_file(args.list)
    cat = sound_catalogue(lf)
    fp = list_fingerprint(lf.army, cat)
    roster = lf.system.roster(lf.army, cat, fp)
    if args.summary:
        return _export_summary(args, lf, cat, roster)
    if args.text:
        from armybuilder.core.text_roster import render_text

        text = render_text(roster)
        if args.output == "-" or (args.output is None and not args.save_text):
            print_block(text.removesuffix("\n"))  # every field made visible by render_text
            return EXIT_OK
        from armybuilder.core.atomic import atomic_write_text

        out = Path(args.output) if args.output else _default_export(lf, ".txt")
        _check_output(out, args)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(out, text)
        print_line(f"wrote {out}")
        return EXIT_OK
    from armybuilder.pdf.roster import write_roster

    out = Path(args.output) if args.output else _default_export(lf, ".pdf")
    _check_output(out, args)
    out.parent.mkdir(parents=True, exist_ok=True)
    cards = lf.system.cards(lf.army, cat) if args.cards else None
    write_roster(roster, cards, out, paper=args.paper)
    print_line(f"wrote {out} (fingerprint {fp})")
    _warn_unprintable()
    return EXIT_OK


def _check_output(out: Path, args: argparse.Namespace) -> None:
    """Refuse to write over the list read (or any .yaml file) unless --force (core/outputs.py)."""
    from armybuilder.core.outputs import check_output

    check_output(out, [args.list] if getattr(args, "list", None) else [], args.force)


def _warn_unprintable() -> None:
    """Name the characters a PDF had to print as [U+XXXX] codes (no bundled font has them)."""
    from armybuilder.pdf.styles import unprintable_warning

    warning = unprintable_warning()
    if warning:
        print_error(warning)


def _export_summary(args: argparse.Namespace, lf, cat, roster) -> int:
    """``export --summary``: the one-page tournament summary, PDF or (``--text``) 80 columns."""
    from armybuilder.core.summary import build_summary, render_summary_text

    summary = build_summary(lf.system, lf.army, cat, roster)
    if args.text:
        text = render_summary_text(summary)
        if args.output == "-" or (args.output is None and not args.save_text):
            print_block(text.removesuffix("\n"))  # every field made visible by render_summary_text
            return EXIT_OK
        from armybuilder.core.atomic import atomic_write_text

        out = Path(args.output) if args.output else _default_export(lf, "-summary.txt")
        _check_output(out, args)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(out, text)
        print_line(f"wrote {out}")
        return EXIT_OK
    from armybuilder.pdf.summary import write_summary

    out = Path(args.output) if args.output else _default_export(lf, "-summary.pdf")
    _check_output(out, args)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_summary(summary, out, paper=args.paper)
    print_line(f"wrote {out} (fingerprint {roster.fingerprint})")
    _warn_unprintable()
    return EXIT_OK


def cmd_sheets(args: argparse.Namespace) -> int:
    from armybuilder.pdf.sheets import write_sheets

    system = system_named(args.system)
    cat = system.catalogue(args.version)
    out = Path(args.output) if args.output else Path("exports") / f"{system.id}-sheets.pdf"
    _check_output(out, args)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_sheets(system.sheets(cat), out, paper=args.paper)
    print_line(f"wrote {out}")
    _warn_unprintable()
    return EXIT_OK


# --------------------------------------------------------------------------- engine


#: Bound of an odds value whose parameter declares none (no characteristic comes close).
ODDS_VALUE_LIMIT = 1000


def cmd_odds(args: argparse.Namespace) -> int:
    """``armybuilder odds SYSTEM OPTIONS``: from the remembered tables when they still hold
    (armybuilder.odds.tables: no game system, pydantic nor numpy loaded), else through the
    system, which remembers them for the next run; both run the same calculator."""
    # (the help goes through the system: it says whether the system has an exact fray)
    if not any(a == "--fray" or a.startswith("--fray=") or a in ("-h", "--help") for a in args.rest):
        from armybuilder.core.registry import KNOWN_SYSTEMS
        from armybuilder.odds import tables

        module = KNOWN_SYSTEMS.get(args.system)
        entry = tables.cached(args.system, module) if module is not None else None
        if entry is not None:
            calculator = tables.calculator(entry)
            return _odds_run(args.system, entry["name"], calculator.PARAMETERS, args.rest,
                             lambda values: calculator.compute(entry["tables"], values))
    system = system_named(args.system)
    if system.has_fray_odds() and any(a == "--fray" or a.startswith("--fray=") for a in args.rest):
        if any(a in ("-h", "--help") for a in args.rest):  # "--fray --help": the fray's own help
            return _odds_fray(system, ["--help"])
        return _odds_fray(system, args.rest)

    def compute(values: dict) -> tuple:
        cat = system.catalogue()
        result = system.odds(cat, values)
        _remember_odds_tables(system, cat)
        return result.payload, result.lines

    return _odds_run(system.id, system.name, system.odds_parameters(), args.rest, compute, system.has_fray_odds())


def _remember_odds_tables(system, cat) -> None:
    """Keep the tables the system's calculator read, for the command's next runs."""
    from armybuilder.core.registry import KNOWN_SYSTEMS
    from armybuilder.odds import tables

    found = system.odds_tables(cat) if system.odds_calculator is not None else None
    if found is not None:
        tables.remember(system.id, KNOWN_SYSTEMS[system.id], system.source.folder, system.odds_calculator,
                        system.name, cat.version, found, getattr(system, "odds_module", None) or "")


def _odds_run(system_id: str, name: str, params, rest: list[str], compute, fray: bool = False) -> int:
    """Parse a calculator's options, compute (``compute(values) -> (payload, lines)``), print;
    ``fray``: the system has an exact fray, which the help mentions."""
    fray_usage = (
        f"The whole fray of two units (who strikes first, losses, rout, Characters): armybuilder odds "
        f"{system_id} --fray LIST:UNIT --vs LIST_OR_SAMPLE:UNIT [--charge] [--json]; "
        f"armybuilder odds {system_id} --fray --help says more."
        if fray
        else None
    )
    sub = Parser(prog=f"armybuilder odds {system_id}", description=f"Exact odds for {name}", epilog=fray_usage)
    for p in params:
        flag = "--" + p.name.replace("_", "-")
        if p.kind == "bool":
            sub.add_argument(flag, dest=p.name, action="store_true", help=p.help or p.label)
        elif p.kind == "choice":
            sub.add_argument(flag, dest=p.name, choices=[str(c.value) for c in p.choices], default=p.default, help=p.help or p.label)
        else:
            kind = {"int": int, "float": float}.get(p.kind, str)
            sub.add_argument(flag, dest=p.name, type=kind, default=p.default, required=p.default is None, help=p.help or p.label)
    sub.add_argument("--json", action="store_true", help="print the result as JSON")
    if not params:
        raise InputError.at(f"{name} has no odds calculator yet")
    opts = sub.parse_args(rest)
    values = {p.name: getattr(opts, p.name) for p in params}
    for p in params:
        if p.kind in ("int", "float") and values[p.name] is not None:
            low = p.minimum if p.minimum is not None else -ODDS_VALUE_LIMIT
            high = p.maximum if p.maximum is not None else ODDS_VALUE_LIMIT
            check_range(f"--{p.name.replace('_', '-')}", values[p.name], low, high)
    try:
        payload, lines = compute(values)
    except ValueError as exc:
        raise InputError.at(str(exc)) from None
    if opts.json:
        print_json(payload, indent=2)
    else:
        for line in lines:
            print_line(line)
    return EXIT_OK


def _fray_list(system, ref: str, flag: str):
    """(list, unit reference) of a LIST:UNIT (or SAMPLE:UNIT) reference of ``odds --fray``."""
    where, sep, unit = ref.rpartition(":")
    if not sep or not where or not unit:
        raise InputError.at(f"{flag} {ref!r}: expected LIST:UNIT (a unit by name or 1-based number)")
    lf = read_opponent(system, where)
    if lf.system.id != system.id:
        raise InputError.at(f"{flag}: {where} is a {lf.system.name} list, not {system.name}")
    return lf.army, unit, f"{flag} {where}"


def _fray_unit(system, cat, army, unit: str, where: str) -> int:
    """The index in ``army.units`` of the unit a fray reference names (by its name as the battle
    knows it, or its number among the units that can fight)."""
    choices = system.fray_units(army, cat)
    try:
        return int(choices[resolve_unit([c.label for c in choices], unit, where)].value)
    except ValueError as exc:
        raise InputError.at(str(exc)) from None


def _odds_fray(system, rest: list[str]) -> int:
    """``armybuilder odds SYSTEM --fray LIST:UNIT --vs LIST_OR_SAMPLE:UNIT [--charge] [--json]``:
    the exact outcome of one fray, for a system with one (``GameSystem.has_fray_odds``)."""
    sub = Parser(
        prog=f"armybuilder odds {system.id}",
        description=(
            "Exact outcome of one fray between two units: Initiative, exchanges, losses (Characters "
            "as themselves), the outcome of the fray, rout and Implacable combats, every chance "
            "outcome enumerated. UNIT is a unit's name or its number in the list (1 = first)."
        ),
    )
    sub.add_argument("--fray", required=True, metavar="LIST:UNIT", help="your unit: a list file and a unit (name or 1-based number)")
    sub.add_argument("--vs", required=True, metavar="LIST_OR_SAMPLE:UNIT", help="the enemy unit: a list file or bundled sample, and a unit")
    sub.add_argument("--charge", action="store_true", help="your unit charged this round")
    sub.add_argument("--json", action="store_true", help="print the result as JSON")
    opts = sub.parse_args(rest)
    first, unit_a, where_a = _fray_list(system, opts.fray, "--fray")
    second, unit_b, where_b = _fray_list(system, opts.vs, "--vs")
    cat = _game_catalogue(system, first, second)
    ia = _fray_unit(system, cat, first, unit_a, where_a)
    ib = _fray_unit(system, cat, second, unit_b, where_b)
    try:
        result = system.fray_odds(cat, first, ia, second, ib, opts.charge)
    except ValueError as exc:  # a rule the calculation refuses, said in words
        raise InputError.at(str(exc)) from None
    if opts.json:
        print_json(result.payload, indent=2)
    else:
        for line in result.lines:
            print_line(line)
    return EXIT_OK


def _game_catalogue(system, *armies):
    """The latest catalogue, with the house catalogues the lists use merged in."""
    from armybuilder.core.house import game_catalogue, pins_of

    pins = pins_of(*armies)
    return game_catalogue(system, system.source.latest, pins) if pins else system.catalogue()


# --------------------------------------------------------------------------- tui, bench


def cmd_edit(args: argparse.Namespace) -> int:
    from armybuilder.tui import run

    return run(Path(args.list) if getattr(args, "list", None) else None) or EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from armybuilder.bench import run_bench

    return run_bench(quick=args.quick, as_json=args.json, only=args.only, engines_only=args.engines, options=args.options)


# --------------------------------------------------------------------------- parser


def build_parser(command: str | None = None) -> Parser:
    """The command line's parser; for ``validate`` and ``fingerprint`` (``command``) only
    theirs, with the same options, help and errors: building the twenty others cost a
    quick command a third of a bare interpreter start."""
    parser = Parser(prog="armybuilder", description="Army builder, list validator and rules engine for Rag'Narok 2, Rattle and Rend and Ragnarok (Morpheus Engine).")
    parser.add_argument("--version", action="version", version="armybuilder 0.1.0")
    parser.add_argument("--catalog", metavar="DIR", action="append", help="a house catalogue folder (or a folder of them) to use besides the installed ones; also ARMYBUILDER_CATALOG_PATH")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    if command in ("validate", "fingerprint"):
        add_validate_parsers(commands, command)
        return parser

    p = commands.add_parser("edit", help="open a list in the TUI")
    p.add_argument("list")
    p.set_defaults(func=cmd_edit)

    p = commands.add_parser("new", help="create a new list file")
    p.add_argument("system")
    p.add_argument("--people", "--faction", dest="people", help="the faction: a people (Rag'Narok 2), a crew... (see catalog show)")
    p.add_argument("--limit", type=int, help="point limit: the format with that limit, else your own limit on the format's rules")
    p.add_argument("--format", help="format id")
    p.add_argument("--house", action="append", metavar="ID", help="use this installed house catalogue (found alone for a people only a house catalogue has)")
    p.add_argument("--name", help="list name")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(func=cmd_new)

    add_validate_parsers(commands)

    p = commands.add_parser("export", help="PDF roster (and cards) or text roster of a list")
    p.add_argument("list")
    p.add_argument("-o", "--output")
    p.add_argument("--text", action="store_true", help="plain-text roster (to stdout unless -o)")
    p.add_argument("--save-text", action="store_true", help="with --text: write into exports/")
    p.add_argument("--cards", action="store_true", help="append reference cards")
    p.add_argument("--summary", action="store_true", help="one-page tournament summary (PDF, or 80 columns with --text)")
    p.add_argument("--paper", choices=["A4", "Letter"], default="A4")
    p.add_argument("--force", action="store_true", help="write even over a .yaml file or the list itself")
    p.set_defaults(func=cmd_export)

    p = commands.add_parser("sheets", help="reference sheets of a game system")
    p.add_argument("system")
    p.add_argument("-o", "--output")
    p.add_argument("--version", help="catalogue version (default: latest)")
    p.add_argument("--paper", choices=["A4", "Letter"], default="A4")
    p.add_argument("--force", action="store_true", help="write even over a .yaml file")
    p.set_defaults(func=cmd_sheets)

    p = commands.add_parser("odds", help="exact combat odds (options depend on the system)", add_help=False)
    p.add_argument("system")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_odds)

    p = commands.add_parser("playtest", help="simulate games against an opponent")
    p.add_argument("list", help="your list file")
    p.add_argument("--vs", required=True, help="opponent list file or bundled sample name")
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="first game's seed: the same seed plays the same games (default 1)")
    p.add_argument("--workers", type=int, default=1, help="processes to play on, 1 to 256 (default 1; the games do not change)")
    p.add_argument("--json", action="store_true", help="the summary as JSON")
    p.add_argument("--log", action="store_true", help="narrate one game")
    p.add_argument("--table", metavar="NAME|FILE", help="the table layout: a bundled one (open, standard, dense) or a YAML file (default: standard, scenery placed afresh each game)")
    p.add_argument("--replay", metavar="FILE.svg", help="draw the first game on its table, round by round, into this SVG file")
    p.add_argument("--scenario", metavar="NAME", help="play every game in this scenario, for a system with scenarios "
                   "(an unknown name lists them); otherwise each game draws its own")
    p.set_defaults(func=cmd_playtest)

    from armybuilder.meta.command import add_meta_parser  # standard library only until it runs

    add_meta_parser(commands)

    from armybuilder.serve.command import add_serve_parser  # likewise: aiohttp only when it runs

    add_serve_parser(commands)

    from armybuilder.suggest.command import add_suggest_parser  # stdlib only until it runs

    add_suggest_parser(commands)

    p = commands.add_parser("catalog", help="catalogue versions, contents, checks and import")
    actions = p.add_subparsers(dest="catalog_action", parser_class=Parser)
    q = actions.add_parser("list", help="the game systems and their catalogue versions")
    q.add_argument("--json", action="store_true")
    q = actions.add_parser("versions", help="a system's catalogue versions")
    q.add_argument("system")
    q.add_argument("--json", action="store_true")
    q = actions.add_parser("show", help="what a catalogue version holds")
    q.add_argument("system")
    q.add_argument("--version")
    q.add_argument("--json", action="store_true")
    q = actions.add_parser("diff", help="what changed between two catalogue versions")
    q.add_argument("system")
    q.add_argument("v1")
    q.add_argument("v2")
    q.add_argument("--json", action="store_true")
    q = actions.add_parser("check", help="check the catalogue data of one or every system, or a house catalogue folder")
    q.add_argument("system", nargs="?", help="a game system, or a house catalogue's folder (default: every system and installed house catalogue)")
    q.add_argument("-v", "--verbose", action="store_true", help="list every assigned field and every note on the reference data")
    q = actions.add_parser("import-bsdata", help="convert BattleScribe .gst/.cat files into catalogue files")
    q.add_argument("system")
    q.add_argument("sources", nargs="+")
    q.add_argument("-o", "--output", required=True, help="folder to write the catalogue files into")
    q.add_argument("--house", action="store_true", help="write into the house catalogue -o DIR: only entries the bundled catalogue lacks")
    q.add_argument("--people", help="with --house: the people of a catalogue the importer does not know")
    q.add_argument("--id", help="with --house: the id of a new house catalogue")
    q.add_argument("--name", help="with --house: the name of a new house catalogue")
    q.add_argument("--force", action="store_true", help="with --house: replace files the importer did not write")
    from armybuilder.cli_house import add_catalog_parsers

    add_catalog_parsers(actions)
    p.set_defaults(func=cmd_catalog)

    p = commands.add_parser("list", help="list-file operations")
    actions = p.add_subparsers(dest="list_action", parser_class=Parser)
    q = actions.add_parser("upgrade", help="move a list to another catalogue version")
    q.add_argument("list")
    q.add_argument("--to")
    q.add_argument("--house", action="append", metavar="ID[@VERSION]", help="add or move this house catalogue (the others move to their latest)")
    q.add_argument("--dry-run", action="store_true")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list_upgrade)

    p = commands.add_parser("bench", help="measure the performance budgets")
    p.add_argument("--quick", action="store_true", help="fewer repeats and games")
    p.add_argument("--json", action="store_true", help="the figures as JSON")
    p.add_argument("--engines", action="store_true", help="only the engines: reference workload, normalised rates, credibility")
    p.add_argument("--options", action="store_true", help="only the option checks: every option a player chooses, used and "
                   "with against without it (1,500 games an option)")
    p.add_argument("--only", metavar="TEXT", help="measure only the lines whose name holds TEXT (e.g. --only meta)")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from armybuilder.core.house_paths import PATH_ENV

    earlier = os.environ.get(PATH_ENV)
    try:
        from armybuilder.cli_house import take_catalog_option

        argv, search = take_catalog_option(argv)
    except UsageError as exc:
        print_error(str(exc))
        return EXIT_UNREADABLE
    if search is not None:  # --catalog DIR: for this command and the processes it starts
        os.environ[PATH_ENV] = search
    try:
        return _run(argv)
    finally:
        if search is not None:
            if earlier is None:
                os.environ.pop(PATH_ENV, None)
            else:
                os.environ[PATH_ENV] = earlier


def _run(argv: list[str]) -> int:
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            from armybuilder.tui import run

            return run(None) or EXIT_OK
        if args.command == "catalog" and args.catalog_action is None:
            raise UsageError("armybuilder catalog: choose list, show, versions, diff, check, new, install or import-bsdata")
        if args.command == "list" and getattr(args, "list_action", None) is None:
            raise UsageError("armybuilder list: choose upgrade")
        return args.func(args)
    except UsageError as exc:
        print_error(str(exc))  # one line: it may quote an argument, and arguments are text too
        print_error("run 'armybuilder --help' for the commands")
        return EXIT_UNREADABLE
    except InputError as exc:
        print_error_block(f"error: {exc}")  # one line per problem, each made visible (core/errors.py)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        print_error("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - a bug must not show users a traceback
        if os.environ.get("ARMYBUILDER_DEBUG"):
            raise
        print_error(f"internal error: {type(exc).__name__}: {exc} (set ARMYBUILDER_DEBUG=1 for details; please report it)")
        return 3


if __name__ == "__main__":
    sys.exit(main())
