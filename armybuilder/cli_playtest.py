"""``armybuilder playtest``: the command that plays a list against an opponent.

Kept out of cli.py so that file stays a table of commands; it imports only the
standard library at start-up, the engines when the command runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from armybuilder.cli_common import EXIT_OK, print_error, print_json, print_line, read_list_file
from armybuilder.core.errors import InputError


def _warn_unknown(armies: dict[str, Any]) -> list[str]:
    """Say on stderr which entries of each list the catalogue does not know (the games
    cannot play them); the same sentences for the JSON summary."""
    from armybuilder.core.playtest import unknown_entries
    from armybuilder.meta.field import summarised

    out = []
    for where, army in armies.items():
        unknown = unknown_entries(army)
        if unknown:
            out.append(f"{where}: {len(unknown)} entr{'y' if len(unknown) == 1 else 'ies'} the catalogue does not know, "
                       f"left out of the games: {summarised(unknown)}")
            print_error(f"warning: {out[-1]}")
    return out


def cmd_playtest(args: argparse.Namespace) -> int:
    """``armybuilder playtest``: simulated games of a list against an opponent, with win rate,
    scenarios, per-unit figures and, with --log, the first game narrated."""
    from armybuilder.cli_common import MAX_GAMES, MAX_SEED, MAX_WORKERS, check_range, read_opponent
    from armybuilder.core.playtest import run_playtest

    check_range("--games", args.games, 1, MAX_GAMES)
    check_range("--seed", args.seed, 0, MAX_SEED)
    check_range("--workers", args.workers, 1, MAX_WORKERS)
    lf = read_list_file(args.list)
    opponent = read_opponent(lf.system, args.vs)
    if opponent.system.id != lf.system.id:
        raise InputError.at(f"the opponent plays {opponent.system.name}, the list {lf.system.name}")
    if not lf.system.engine_ready():
        raise InputError.at(f"{lf.system.name} has no battle simulator yet")
    warnings = _warn_unknown({str(lf.path): lf.army, args.vs: opponent.army})
    cat = lf.system.catalogue_for(lf.army)
    if args.scenario is not None:
        known = [c.value for c in lf.system.scenarios(cat)]
        if not known:
            raise InputError.at(f"{lf.system.name} has no scenarios to choose from (--scenario)")
        if args.scenario not in known:
            raise InputError.at(f"--scenario: {lf.system.name} has no scenario '{args.scenario}' (scenarios: {', '.join(known)})")
    show_progress = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show_progress:
            width = 30
            filled = width * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
            sys.stderr.flush()

    replay = _replay_path(args.replay, [Path(args.list), Path(args.vs), *([Path(args.table)] if args.table else [])])
    summary = run_playtest(lf.army, opponent.army, args.games, args.seed, args.workers, progress, log=args.log,
                           scenario=args.scenario, table=args.table, replay=replay is not None)  # fmt: skip
    if show_progress:
        sys.stderr.write("\n")
    if replay is not None:
        from armybuilder.core.atomic import atomic_write_text
        from armybuilder.core.replay_svg import replay_svg

        if summary.map is None:
            raise InputError.at(f"{lf.system.name} games have no table to draw: --replay is not available")
        atomic_write_text(replay, replay_svg(summary.map))
    if args.json:
        payload = summary.as_json()
        payload["list"] = str(lf.path)
        payload["opponent"] = args.vs
        if args.log:
            payload["log"] = summary.log
        payload["warnings"] = warnings
        if replay is not None:
            payload["replay"] = str(replay)
        print_json(payload, indent=2, ensure_ascii=False)
        return EXIT_OK
    from armybuilder.core.checks import plural
    from armybuilder.core.sanitize import visible

    low, high = summary.interval
    points = summary.as_json()["points"]
    unit = lf.system.points(lf.army, cat).unit
    print_line(
        f"{lf.army.name} ({points['list']:g} {unit}) vs {opponent.army.name} ({points['opponent']:g} {unit}):"
        f" {plural(summary.games, 'game')} (seed {summary.seed})"
        + (f", scenario {args.scenario}" if args.scenario else "")
    )
    print_line(f"wins {summary.wins}, draws {summary.draws}, losses {summary.losses}")
    print_line(f"win rate {summary.win_rate:.1%} (95 % Wilson interval {low:.1%}–{high:.1%}; a draw counts half)")
    if summary.scenarios and not args.scenario:
        labels = {c.value: c.label for c in lf.system.scenarios(cat)}
        print_line("by scenario (drawn for each game):")
        width = max(len(labels.get(n, n)) for n in summary.scenarios)
        for name, played in summary.scenarios.items():
            s_low, s_high = played.interval
            print_line(f"  {labels.get(name, name):<{width}} {played.games:>6} {'game ' if played.games == 1 else 'games'}  win rate {played.win_rate:6.1%} ({s_low:.1%}–{s_high:.1%})")
    print_line(f"mean rounds {summary.mean_rounds:.2f}")
    if summary.table is not None:
        how = ", scenery placed afresh for each game" if summary.table.get("scattered") else ""
        print_line(f"table: {visible(str(summary.table.get('title', '')))} ({visible(str(summary.table.get('name', '')))}){how}")
    for line in _figure_lines(summary):
        print_line(line)
    print_line(f"units (survival, mean {unit} eliminated per game):")
    names = [visible(u.name) for u in summary.units]  # aligned as shown
    width = max((len(n) for n in names), default=0)  # one column for every name
    for u, name in zip(summary.units, names, strict=True):
        side = "you" if u.side == 0 else "opp"
        print_line(f"  [{side}] {name:<{width}} survived {u.survival_rate:6.1%}  eliminated {u.mean_eliminated:7.1f}")
    if args.log:
        print_line("")
        print_line("Log of game 1:")
        for line in summary.log:
            print_line(f"  {line}")
    if replay is not None:
        print_line(f"replay of game 1 written to {visible(str(replay))}")
    return EXIT_OK


def _replay_path(name: str | None, inputs: list[Path]) -> Path | None:
    """The replay's file: an .svg, never one of the command's inputs."""
    if name is None:
        return None
    path = Path(name)
    if path.suffix.lower() != ".svg":
        raise InputError.at(f"--replay writes an SVG picture: name a file ending in .svg, not '{name}'")
    for given in inputs:
        if given.exists() and path.exists() and path.resolve() == given.resolve():
            raise InputError.at(f"--replay {name} would overwrite an input of this command")
    if not path.parent.is_dir():
        raise InputError.at(f"no folder {path.parent} to write the replay into")
    return path


def _figure_lines(summary: Any) -> list[str]:
    """The system's figures of the games (e.g. the frays and the A.P. each phase destroyed)."""
    figures = summary.figures
    if not figures or not summary.games:
        return []
    out = []
    if "frays" in figures:
        share = summary.figure_games["frays"] / summary.games
        out.append(f"games with at least one fray {share:.1%}; {figures['frays'] / summary.games:.1f} frays a game")
    phases = {k[3:]: v for k, v in figures.items() if k.startswith("ap ") and " " not in k[3:]}
    total = sum(phases.values())
    if total > 0:
        parts = ", ".join(f"{name} {v / total:.0%}" for name, v in sorted(phases.items(), key=lambda kv: -kv[1]) if v > 0)
        out.append(f"A.P. destroyed by phase: {parts} (of {total / summary.games:.0f} A.P. a game)")
    return out
