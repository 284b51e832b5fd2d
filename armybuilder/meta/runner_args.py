"""Where the games of ``meta`` and ``suggest`` are played: ``--workers K`` or ``--scheduler
ADDRESS`` (with ``--connect-timeout``), the arguments and their checks in one place.

Standard library only at start-up (the parser is built for every command); the runners,
and Dask with ``--scheduler``, load when a command runs.  Nothing here draws (the
suggestions may import it: pyproject's import contracts).
"""

from __future__ import annotations

import argparse

from armybuilder.cli_common import print_error


def add_runner_arguments(p: argparse.ArgumentParser, workers_help: str) -> None:
    """``--workers K`` or ``--scheduler ADDRESS`` (with ``--connect-timeout``): where the games
    of ``meta`` and ``suggest`` are played."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, help=workers_help)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (needs armybuilder[cluster])")
    p.add_argument("--connect-timeout", type=float, metavar="SECONDS",
                   help="with --scheduler: how long to wait for the scheduler to answer (default 5)")


def runner_for(args: argparse.Namespace, command: str, default_workers: int | None = None):
    """The runner *args* name (see :func:`add_runner_arguments`), its arguments checked first:
    *default_workers* local processes without either option (None: every core)."""
    from armybuilder.cli_common import MAX_WORKERS, UsageError, check_range
    from armybuilder.meta.runners import CONNECT_TIMEOUT, DaskRunner, LocalRunner

    if args.connect_timeout is not None and args.scheduler is None:
        raise UsageError(f"armybuilder {command}: --connect-timeout is the wait for a --scheduler; give the scheduler's address too, or leave it out")
    if args.scheduler is not None:  # --scheduler '' is a mistake, not "run locally"
        if not args.scheduler.strip():
            raise UsageError(f"armybuilder {command}: --scheduler needs an address, e.g. tcp://10.0.0.5:8786")
        timeout = CONNECT_TIMEOUT if args.connect_timeout is None else args.connect_timeout
        if not 0.1 <= timeout <= 300:
            raise UsageError(f"armybuilder {command}: --connect-timeout must be between 0.1 and 300 seconds")
        runner = DaskRunner(args.scheduler, timeout=timeout)
        if runner.probe() == 0:
            print_error(f"the scheduler at {args.scheduler} has no worker yet: tasks wait until one joins ('dask worker {args.scheduler}')")
        return runner
    if args.workers is not None:
        check_range("--workers", args.workers, 1, MAX_WORKERS)
    return LocalRunner(args.workers or default_workers)
