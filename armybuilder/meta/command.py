"""``armybuilder meta``: the command line of the meta matrix.

Kept out of cli.py so that file stays a table of commands; this module imports
only the standard library at start-up (the parser is built for every command),
the matrix code when the command runs, ReportLab when the report is written and
Dask only with ``--scheduler``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from armybuilder.cli_common import print_error, print_line
from armybuilder.meta.runner_args import add_runner_arguments, runner_for

REPORT_SUFFIXES = (".pdf", ".png", ".json", ".csv", ".html")


def add_meta_parser(commands: Any) -> None:
    p = commands.add_parser(
        "meta",
        help="every list against every list: the win-rate matrix of a folder",
        description="Play every ordered pairing of the lists (or each list against a --vs field) "
        "and write the win-rate matrix: JSON and CSV of every pairing, a PDF report (heat map, standings, "
        "why each list wins), a PNG heat map, an HTML page to sort in a browser, and the results file "
        "that --resume continues.",
    )
    p.add_argument("lists", nargs="+", metavar="LIST_OR_FOLDER")
    p.add_argument("--vs", nargs="+", metavar="LIST_OR_FOLDER", help="play the lists against this field instead of against each other")
    p.add_argument("--games", type=int, default=1000, help="games per pairing, 1 to 10,000,000 (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    add_runner_arguments(p, "local processes, 1 to 256 (default: all cores)")
    p.add_argument("-o", "--output", default="exports/meta.pdf", help="the report (PDF); the PNG, HTML, JSON, CSV and results file go beside it")
    p.add_argument("--json", action="store_true", help="print the matrix as JSON")
    p.add_argument("--resume", action="store_true", help="continue the run whose results file is beside the report")
    p.add_argument("--include-illegal", action="store_true", help="play illegal lists too (they are reported either way)")
    p.add_argument("--table", metavar="NAME|FILE", help="the table layout (systems with layouts: open, standard, dense or a YAML file; default: standard, scenery placed afresh each game)")
    p.add_argument("--task-games", type=int, help="games per task (default: about eight tasks per worker, 200 to 2000 games)")
    p.add_argument("--force", action="store_true", help="write the report even where -o names a .yaml file or a list read")
    p.set_defaults(func=cmd_meta)


def report_stem(output: str) -> Path:
    out = Path(output)
    return out.with_suffix("") if out.suffix.lower() in REPORT_SUFFIXES else out


def check_counts(args: argparse.Namespace) -> None:
    """Games, seed and task size within playtest's bounds, before anything is read (the
    workers with the runner, :func:`runner_for`)."""
    from armybuilder.cli_common import MAX_GAMES, MAX_SEED, check_range

    check_range("--games", args.games, 1, MAX_GAMES)
    check_range("--seed", args.seed, 0, MAX_SEED)
    if args.task_games is not None:
        check_range("--task-games", args.task_games, 1, MAX_GAMES)


def check_outputs(output: str, inputs: list[Path], force: bool) -> None:
    """Neither ``-o`` nor a file the report writes beside it may be a list read (or a .yaml
    file) unless ``--force``: outputs never replace inputs (core/outputs.py)."""
    from armybuilder.core.outputs import check_output
    from armybuilder.meta.store import results_path

    stem = report_stem(output)
    for path in [Path(output), *(stem.with_suffix(s) for s in REPORT_SUFFIXES), results_path(stem.with_suffix(".pdf"))]:
        check_output(path, inputs, force)


def cmd_meta(args: argparse.Namespace) -> int:
    from armybuilder.cli_common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE
    from armybuilder.core.filesets import expand_paths
    from armybuilder.meta.run import ProgressLine, RunState, prepare, run_meta
    from armybuilder.meta.store import results_path

    check_counts(args)
    lists = list(expand_paths(args.lists))
    field = list(expand_paths(args.vs)) if args.vs else None
    # a missing file, a FIFO or a device is left out with its reason, as validate reports it
    check_outputs(args.output, [*lists, *(field or [])], args.force)
    runner = runner_for(args, "meta")  # an unreachable scheduler is said before the lists are read
    try:
        setup = prepare(lists, field, args.include_illegal)
    except BaseException:
        runner.close()
        raise
    for item in setup.left_out:
        print_error(f"left out {item.path}: {item.reason}")
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
        print_error(f"interrupted: {kept:,} of {state.planned:,} games are kept in {results}; "
             "run the same command with --resume to play only the rest")
        return 130
    finally:
        runner.close()
    report_refused(results, state.refused)
    if state.torn_lines:
        where = f"moved to {state.set_aside}" if state.set_aside else "skipped"
        print_error(f"{results}: {state.torn_lines} unreadable line(s) (a write cut short) {where}; their games were played again")
    outputs = write_reports(matrix, stem, args.resume)
    if args.json:
        sys.stdout.write(outputs.payload)  # the JSON file's text: control characters escaped (safe_json)
    else:
        print_summary(matrix, runner.describe(), state)
        if outputs.written:
            print_line("wrote " + ", ".join(str(p) for p in outputs.written))
        if outputs.kept:
            print_line("unchanged since the last run: " + ", ".join(str(p) for p in outputs.kept))
        print_line(f"results in {results}")
    for path, what, exc in outputs.failed:
        print_error(f"could not write the {what} {path} ({type(exc).__name__}: {exc}); the JSON, CSV and results file are "
             "written: run the same command with --resume to try again")
    if outputs.failed:
        return EXIT_UNREADABLE
    return EXIT_INVALID if setup.left_out else EXIT_OK


def report_refused(results: Path, refused: list[str]) -> None:
    """Say which records of the results file were not believed (their games were replayed)."""
    if refused:
        shown = "; ".join(list(dict.fromkeys(refused))[:6])  # the distinct reasons
        print_error(f"{results}: {len(refused)} record(s) not believed ({shown}); their games were played again")


def write_reports(matrix, stem: Path, resume: bool = False):
    """JSON and CSV of every pairing first, then the PDF, the PNG and the HTML page (see meta/report.py)."""
    from armybuilder.meta.report import write_outputs

    return write_outputs(matrix, stem, resume)


def print_summary(matrix, where: str, state) -> None:
    def out(text: str) -> None:
        print_line(text.removesuffix("\n"))  # one line each, names made visible

    pairs = len(matrix.cells)
    against = "each other" if matrix.square else f"a field of {len(matrix.cols)}"
    out(f"{matrix.system}, catalogue {matrix.catalogue}: {len(matrix.rows)} lists against {against}, "
        f"{pairs:,} pairings × {matrix.games:,} game{'s' if matrix.games != 1 else ''} (seed {matrix.seed})\n")
    out(f"played {state.played:,} games on {where}" + (f", {state.resumed:,} read back from the results file" if state.resumed else "")
        + f" ({state.tasks} task{'s' if state.tasks != 1 else ''} of up to {state.task_games} games)\n")
    if matrix.left_out:
        out(f"left out: {len(matrix.left_out)} list(s) (see above)\n")
    from armybuilder.meta.analysis import profiles

    out("rank  tier  win rate  95 % interval         games  list\n")
    for p in profiles(matrix):
        item = matrix.rows[p.index]
        low, high = p.tally.interval
        rate = p.tally.rate or 0.0
        out(f"{p.rank:>4}  {p.tier:>4}  {rate:7.1%}  {low:6.1%} – {high:6.1%}  {p.tally.games:>12,}  {item.label} ({item.name})\n")
