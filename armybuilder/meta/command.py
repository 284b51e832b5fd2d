"""``armybuilder meta``: the command line of the meta matrix.

Kept out of cli.py so that file stays a table of commands; this module imports
only the standard library at start-up (the parser is built for every command),
the matrix code when the command runs, ReportLab when the report is written and
Dask only with ``--scheduler``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPORT_SUFFIXES = (".pdf", ".png", ".json", ".csv")


def add_meta_parser(commands: Any) -> None:
    p = commands.add_parser(
        "meta",
        help="every list against every list: the win-rate matrix of a folder",
        description="Play every ordered pairing of the lists (or each list against a --vs field) "
        "and write the win-rate matrix: a PDF and PNG heat map, JSON and CSV of every pairing, "
        "and the results file that --resume continues.",
    )
    p.add_argument("lists", nargs="+", metavar="LIST_OR_FOLDER")
    p.add_argument("--vs", nargs="+", metavar="LIST_OR_FOLDER", help="play the lists against this field instead of against each other")
    p.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, help="local processes (default: all cores)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (needs armybuilder[cluster])")
    p.add_argument("-o", "--output", default="exports/meta.pdf", help="the report (PDF); the PNG, JSON, CSV and results file go beside it")
    p.add_argument("--json", action="store_true", help="print the matrix as JSON")
    p.add_argument("--resume", action="store_true", help="continue the run whose results file is beside the report")
    p.add_argument("--include-illegal", action="store_true", help="play illegal lists too (they are reported either way)")
    p.add_argument("--table", metavar="NAME|FILE", help="the table layout (systems with layouts: open, standard, dense or a YAML file; default: standard, scenery placed afresh each game)")
    p.add_argument("--task-games", type=int, help="games per task (default: about eight tasks per worker, 200 to 2000 games)")
    p.set_defaults(func=cmd_meta)


def report_stem(output: str) -> Path:
    out = Path(output)
    return out.with_suffix("") if out.suffix.lower() in REPORT_SUFFIXES else out


def _runner(args: argparse.Namespace):
    from armybuilder.cli import UsageError
    from armybuilder.meta.runners import DaskRunner, LocalRunner

    if args.scheduler:
        runner = DaskRunner(args.scheduler)
        if runner.probe() == 0:
            sys.stderr.write(f"the scheduler at {args.scheduler} has no worker yet: tasks wait until one joins ('dask worker {args.scheduler}')\n")
        return runner
    if args.workers is not None and args.workers < 1:
        raise UsageError("armybuilder meta: --workers must be at least 1")
    return LocalRunner(args.workers)


def cmd_meta(args: argparse.Namespace) -> int:
    from armybuilder.cli import EXIT_INVALID, EXIT_OK, UsageError
    from armybuilder.core.errors import InputError
    from armybuilder.core.filesets import expand_paths
    from armybuilder.meta.run import ProgressLine, RunState, prepare, run_meta
    from armybuilder.meta.store import results_path

    if args.games < 1:
        raise UsageError("armybuilder meta: --games must be at least 1")
    if args.seed < 0:
        raise UsageError("armybuilder meta: --seed must be zero or more")
    if args.task_games is not None and args.task_games < 1:
        raise UsageError("armybuilder meta: --task-games must be at least 1")
    lists = list(expand_paths(args.lists))
    field = list(expand_paths(args.vs)) if args.vs else None
    for path in [*lists, *(field or [])]:
        if not path.is_file():
            raise InputError.at("no such file", path)
    runner = _runner(args)  # an unreachable scheduler is said before the lists are read
    try:
        setup = prepare(lists, field, args.include_illegal)
    except BaseException:
        runner.close()
        raise
    for item in setup.left_out:
        sys.stderr.write(f"left out {item.path}: {item.reason}\n")
    stem = report_stem(args.output)
    results = results_path(stem.with_suffix(".pdf"))
    state = RunState()
    progress = ProgressLine(0)
    try:
        matrix = run_meta(setup, args.games, args.seed, runner, results, args.resume, progress, task_games=args.task_games, state=state, table=args.table)
    except KeyboardInterrupt:
        if progress.enabled:
            sys.stderr.write("\n")
        kept = state.resumed + state.played
        sys.stderr.write(f"interrupted: {kept:,} of {state.planned:,} games are kept in {results}; "
                         "run the same command with --resume to play only the rest\n")
        return 130
    finally:
        runner.close()
    if state.torn_lines:
        sys.stderr.write(f"{results}: {state.torn_lines} unreadable line(s) skipped (a write cut short); their games were played again\n")
    written = write_reports(matrix, stem)
    if args.json:
        sys.stdout.write(json.dumps(matrix.as_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        print_summary(matrix, runner.describe(), state)
        sys.stdout.write("wrote " + ", ".join(str(p) for p in written) + f"; results in {results}\n")
    return EXIT_INVALID if setup.left_out else EXIT_OK


def write_reports(matrix, stem: Path) -> list[Path]:
    """PDF and PNG heat maps, JSON and CSV of every pairing, written atomically beside each other."""
    from armybuilder.core.atomic import atomic_write_text
    from armybuilder.pdf.meta_report import write_meta_pdf, write_meta_png

    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(s) for s in REPORT_SUFFIXES]
    write_meta_pdf(matrix, paths[0])
    write_meta_png(matrix, paths[1])
    atomic_write_text(paths[2], json.dumps(matrix.as_json(), indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(paths[3], matrix.as_csv())
    return paths


def print_summary(matrix, where: str, state) -> None:
    out = sys.stdout.write
    pairs = len(matrix.cells)
    against = "each other" if matrix.square else f"a field of {len(matrix.cols)}"
    out(f"{matrix.system}, catalogue {matrix.catalogue}: {len(matrix.rows)} lists against {against}, "
        f"{pairs} pairings × {matrix.games:,} games (seed {matrix.seed})\n")
    out(f"played {state.played:,} games on {where}" + (f", {state.resumed:,} read back from the results file" if state.resumed else "")
        + f" ({state.tasks} task{'s' if state.tasks != 1 else ''} of up to {state.task_games} games)\n")
    if matrix.left_out:
        out(f"left out: {len(matrix.left_out)} list(s) (see above)\n")
    out("rank  win rate  95 % interval     games  list\n")
    for s in matrix.standings():
        item = matrix.rows[s.index]
        low, high = s.tally.interval
        rate = s.tally.rate or 0.0
        out(f"{s.rank:>4}  {rate:7.1%}  {low:6.1%} – {high:6.1%}  {s.tally.games:>8,}  {item.label} ({item.name})\n")
