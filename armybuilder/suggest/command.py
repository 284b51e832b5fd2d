"""``armybuilder suggest``: the command line of list suggestions.

Standard library only at start-up (the parser is built for every command); the
suggestion code, the systems and Dask load when the command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from armybuilder.meta.runner_args import add_runner_arguments, runner_for

#: the word that stands for every bundled sample of the list's game system
SAMPLES = "samples"


def add_suggest_parser(commands: Any) -> None:
    p = commands.add_parser(
        "suggest",
        help="legal edits that raise a list's win rate against a field",
        description="Try every legal one-step edit of the list (the editor's edits that keep it legal under its "
        "format and limit), race them on the list's own games against the field (same seeds, opponents and seats), "
        "confirm the finalists on fresh games and print those whose gain's 95 % interval excludes zero.",
    )
    p.add_argument("list", metavar="LIST")
    p.add_argument("--vs", nargs="+", required=True, metavar="FIELD",
                   help="opponents: list files, folders, bundled sample names, or 'samples' for every bundled sample")
    p.add_argument("--games", type=int, default=200,
                   help="games of a list against the whole field, both seats of every opponent (default 200); "
                   "finalists play as many again on fresh games")
    p.add_argument("--steps", type=int, default=1, help="chain up to K edits, each from the best list so far (default 1)")
    p.add_argument("--seed", type=int, default=1)
    add_runner_arguments(p, "local processes, 1 to 256 (default 1; the suggestions do not change)")
    p.add_argument("--json", action="store_true", help="print the suggestions as JSON, each with its list file's text")
    p.add_argument("-o", "--output", metavar="REPORT", help="also write the report to this file (.json: the JSON)")
    p.add_argument("--save-best", metavar="FILE", help="write the best list found to FILE (never over an input)")
    p.add_argument("--results", metavar="FILE", help="keep every game's record in FILE (JSON lines) so --resume can continue")
    p.add_argument("--resume", action="store_true", help="continue the run whose --results file is given")
    p.add_argument("--force", action="store_true", help="let --save-best and -o replace an existing file that is not an input")
    p.set_defaults(func=cmd_suggest)


def field_paths(system: Any, items: list[str]) -> list[Path]:
    """Files, folders and globs as for ``meta``, plus bundled sample names of *system*."""
    from armybuilder.core.errors import InputError
    from armybuilder.core.filesets import expand_paths

    samples = {name: Path(str(path)) for name, path in system.source.samples()}
    out: list[Path] = []
    for item in items:
        if item == SAMPLES and not Path(item).exists():
            out += [samples[name] for name in sorted(samples)]
            continue
        wanted = item if item.endswith(".yaml") else f"{item}.yaml"
        if not Path(item).exists() and wanted in samples:
            out.append(samples[wanted])
            continue
        for path in expand_paths([item]):
            if not path.is_file():
                known = ", ".join(s.removesuffix(".yaml") for s in sorted(samples))
                raise InputError.at(f"no such file, folder or bundled sample of {system.name} (samples: {known})", path)
            out.append(path)
    return out


#: the most edits a run chains (each step is a whole race of its own)
MAX_STEPS = 20


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        try:
            return a.resolve() == b.resolve()
        except OSError:
            return False


def check_target(target: Path, inputs: list[Path], force: bool, what: str) -> None:
    """Refuse to write over an input (by any name); an existing other file needs --force."""
    from armybuilder.core.errors import InputError

    for source in inputs:
        if _same_file(target, source):
            raise InputError.at(f"not written: the {what} would replace a list being read; choose another file", target)
    if target.exists() and not force:
        raise InputError.at(f"not written: the {what} file exists; choose another name, or add --force to replace it", target)


def cmd_suggest(args: argparse.Namespace) -> int:
    from armybuilder.cli_common import (
        EXIT_OK,
        MAX_GAMES,
        MAX_SEED,
        UsageError,
        _err,
        _json,
        _out,
    )
    from armybuilder.cli_common import check_range as _check_range
    from armybuilder.core.atomic import atomic_write_text
    from armybuilder.core.lists import load_list
    from armybuilder.core.sanitize import safe_json
    from armybuilder.meta.run import ProgressLine

    from .report import list_yaml, run_json, text_report
    from .run import Progress, run_suggest

    _check_range("--games", args.games, 1, MAX_GAMES)  # the bounds of playtest and meta
    _check_range("--steps", args.steps, 1, MAX_STEPS)
    _check_range("--seed", args.seed, 0, MAX_SEED)
    if args.resume and not args.results:
        raise UsageError("armybuilder suggest: --resume needs the --results file of the run to continue")
    base = load_list(args.list)
    field = field_paths(base.system, args.vs)
    inputs = [Path(args.list), *field]
    targets = [(Path(p), what) for p, what in ((args.save_best, "best list"), (args.output, "report")) if p]
    for target, what in targets:
        check_target(target, inputs, args.force, what)
    if args.results:
        for source in inputs:
            if _same_file(Path(args.results), source):
                raise UsageError("armybuilder suggest: --results would replace a list being read")
    runner = runner_for(args, "suggest", default_workers=1)
    line = ProgressLine(0, name="suggest")
    started = False

    def progress(where: Progress) -> None:
        nonlocal started
        if not started:  # games read back from --results do not count in the rate
            line.done = line.start_done = where.done
            started = True
        line.total = max(where.planned, where.done)
        line.detail = where.words()
        line.advance(where.done - line.done)

    try:
        run = run_suggest(base, field, args.games, args.seed, runner, args.steps,
                          Path(args.results) if args.results else None, args.resume, progress,
                          heartbeat=line.heartbeat)
    except KeyboardInterrupt:
        if line.enabled:
            sys.stderr.write("\n")
        if args.results:
            _err(f"interrupted: the games played are kept in {args.results}; run the same command with --resume to continue")
        else:
            _err("interrupted (add --results FILE to keep the games of a long run)")
        return 130
    finally:
        runner.close()
    line.finish()
    for item in run.left_out:
        _err(f"left out {item.path}: {item.reason}")
    payload = run_json(run, base)
    text = text_report(run, base)
    if args.json:
        _json(payload, indent=2, ensure_ascii=False)
    else:
        sys.stdout.write(text_visible(text))
    if args.output:
        data = safe_json(payload, indent=2, ensure_ascii=False) + "\n" if args.output.lower().endswith(".json") else text
        atomic_write_text(Path(args.output), data)
        if not args.json:
            _out(f"wrote {args.output}")
    best = next((step.best for step in reversed(run.steps) if step.best is not None), None)
    if args.save_best:
        if best is None:
            _err("no edit gained: --save-best wrote nothing")
        else:
            atomic_write_text(Path(args.save_best), list_yaml(base, best.neighbour.army))
            if not args.json:
                _out(f"wrote the best list to {args.save_best}")
    return EXIT_OK


def text_visible(text: str) -> str:
    from armybuilder.core.sanitize import visible_lines

    return visible_lines(text.rstrip("\n")) + "\n"
