"""Where the tasks of a meta run are played: local processes or a Dask cluster.

Both runners take the same context and tasks and hand each task's records to
``on_result`` as soon as the task finishes (in whatever order), in the calling
thread, so the results file and the progress line are written in one place.
While they wait they call ``heartbeat`` every fraction of a second with a status
(``None``, or why nothing moves: "waiting for workers").  That is the whole API:
``runner.run(context, tasks, on_result, cancelled, heartbeat=..., play=...)``.
``play`` is the module-level function that plays one task, ``play(context, task)``:
the meta matrix's :func:`~.games.play_task` unless another command (``suggest``)
brings its own; it travels by name, so it must be importable on every worker.
Dask is imported only by :class:`DaskRunner`: it is an optional extra
(``pip install 'armybuilder[cluster]'``).
"""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any
from urllib.parse import urlsplit

from armybuilder.core.errors import InputError
from armybuilder.core.sanitize import visible

from .games import EngineMismatch, Segment, play_task

OnResult = Callable[[list[dict[str, Any]]], None]
PlayTask = Callable[[dict[str, Any], Any], list[dict[str, Any]]]
Cancelled = Callable[[], bool]
Heartbeat = Callable[[str | None], None]

#: A pool that loses a process (killed, out of memory) is rebuilt this many times.
LOCAL_RETRIES = 3
#: While no task finishes, the cluster's workers are counted this often (seconds).
WORKER_POLL_S = 2.0

_LOCAL: dict[str, Any] = {}


def _init_local(context: dict[str, Any], parent: int) -> None:
    from armybuilder.core.lifetime import end_with_parent

    end_with_parent(parent)  # a killed meta does not leave its workers playing
    # Ctrl-C is the parent's to handle: it stops submitting and keeps what finished.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _LOCAL["context"] = context


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with a real stderr.

    Under Textual, ``sys.stderr.fileno()`` is -1; the tracker, started with the
    first spawned process, passes that number on and the spawn fails ("bad
    value(s) in fds_to_keep").  Starting it here with the process's own stderr
    for the moment avoids that.
    """
    try:
        if sys.stderr.fileno() >= 0:
            return
    except (AttributeError, OSError, ValueError):
        return  # the tracker skips a stderr without a file number
    from multiprocessing import resource_tracker

    saved = sys.stderr
    sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


def _local_task(play: PlayTask, segments: Any) -> list[dict[str, Any]]:
    return play(_LOCAL["context"], segments)


class LocalRunner:
    """Processes on this machine (all cores by default); one worker plays in-process."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)

    def close(self) -> None:
        """Nothing to release: the pool lives only during :meth:`run`."""

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers > 1 else ''}"

    def run(self, context: dict[str, Any], tasks: list[list[Segment]], on_result: OnResult, cancelled: Cancelled | None = None,
            heartbeat: Heartbeat | None = None, play: PlayTask = play_task) -> None:
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                if cancelled and cancelled():
                    return
                on_result(play(context, task))
            return
        pending = list(range(len(tasks)))
        for attempt in range(LOCAL_RETRIES + 1):
            try:
                self._pool_run(context, tasks, pending, on_result, cancelled, heartbeat, play)
                return
            except BrokenProcessPool:
                if attempt == LOCAL_RETRIES:
                    raise InputError.at("local worker processes kept dying (out of memory?); the finished games are kept: run again with --resume") from None

    def _pool_run(self, context: dict[str, Any], tasks: list[list[Segment]], pending: list[int], on_result: OnResult,
                  cancelled: Cancelled | None, heartbeat: Heartbeat | None = None, play: PlayTask = play_task) -> None:
        """Play the tasks listed in *pending*, removing each from it once recorded."""
        import multiprocessing

        # fork is cheap, but forking a process that runs other threads (the TUI) can deadlock.
        method = "fork" if threading.current_thread() is threading.main_thread() and os.name == "posix" else "spawn"
        if method == "spawn":
            _start_resource_tracker()
        with ProcessPoolExecutor(
            max_workers=min(self.workers, len(pending)),
            mp_context=multiprocessing.get_context(method),
            initializer=_init_local,
            initargs=(context, os.getpid()),
        ) as pool:
            futures: dict[Future, int] = {pool.submit(_local_task, play, tasks[i]): i for i in pending}
            try:
                waiting = set(futures)
                while waiting:
                    done, waiting = wait(waiting, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in done:
                        on_result(future.result())
                        pending.remove(futures[future])
                    if not done and heartbeat:
                        heartbeat(None)
                    if cancelled and cancelled():
                        break
            except KeyboardInterrupt:
                sys.stderr.write("\nstopping: keeping the games of the tasks under way (Ctrl-C again to drop them)…\n")
                raise
            finally:
                # Interrupted or cancelled: drop what has not started, keep what is running.
                for future in futures:
                    future.cancel()
                for future in futures:
                    if not future.cancelled() and futures[future] in pending:
                        try:
                            records = future.result()
                        except BaseException:  # noqa: BLE001 - a broken pool: the retry replays it
                            continue
                        on_result(records)
                        pending.remove(futures[future])


#: Seconds to wait for a scheduler to accept and answer (``meta --connect-timeout``).
CONNECT_TIMEOUT = 5.0
#: The transport ``meta`` connects over: Dask's default.  tls:// needs certificates (no
#: option gives them), ucx:// a library of its own, inproc:// exists only inside one process.
SCHEMES = ("tcp",)
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def _valid_host(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    return len(host) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in host.rstrip(".").split("."))


def scheduler_address(text: str) -> str:
    """``text`` as a Dask scheduler address, ``tcp://HOST:PORT``, checked before any
    connection: its scheme (tcp; none means tcp), a host name or IP address, a port from
    1 to 65535.  InputError says what is wrong, with an example."""
    example = "e.g. tcp://10.0.0.5:8786 (the address 'dask scheduler' prints)"
    shown = visible(text)
    if not text.strip():
        raise InputError.at(f"--scheduler needs an address, {example}")
    scheme, sep, rest = text.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", text.strip()
    if scheme.lower() not in SCHEMES:
        raise InputError.at(
            f"the scheduler address '{shown}' uses {visible(scheme)}://; armybuilder meta connects over tcp:// only "
            f"(tls:// needs certificates, ucx:// its own library, inproc:// is inside one process): {example}"
        )
    try:
        parts = urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if _has_extra(rest) or not host or port is None or not _valid_host(host) or not 0 < port < 65536:
        raise InputError.at(f"the scheduler address '{shown}' is not a host and a port from 1 to 65535, {example}")
    return f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"


def _has_extra(rest: str) -> bool:
    """True when an address holds more than ``host:port`` (a path, a query, a user)."""
    return any(c in rest for c in "/?#@") or not rest.isprintable()


def _reachable(address: str, timeout: float) -> None:
    """Fail at once on a refused or unknown address (Dask would retry until its timeout)."""
    import socket

    parts = urlsplit(address)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=timeout).close()
    except OSError as exc:
        reason = "no answer within the connection timeout" if isinstance(exc, TimeoutError) else exc.strerror or exc
        raise InputError.at(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def _identify(address: str, timeout: float) -> dict[str, Any]:
    """The scheduler's identity, asked over Dask's own protocol within ``timeout`` seconds:
    something else listening on the port (a web server, an SSH daemon, a silent socket)
    is refused here, instead of a Client waiting on it without end."""
    import asyncio

    from distributed.comm import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(ask(), timeout))
    except (OSError, TimeoutError, ValueError, TypeError, EOFError) as exc:
        raise InputError.at(
            f"no Dask scheduler answered at {address} within {timeout:g} s ({type(exc).__name__}"
            f"{': ' + str(exc) if str(exc) else ''}); is 'dask scheduler' running there? (--connect-timeout sets the wait)"
        ) from None
    except Exception as exc:  # noqa: BLE001 - whatever the other end sent, it is not a scheduler
        raise InputError.at(f"the service at {address} is not a Dask scheduler ({type(exc).__name__})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise InputError.at(f"the service at {address} is not a Dask scheduler")
    return reply


@contextlib.contextmanager
def _quiet_client_finalisers():
    """Dask's Client, when its constructor fails, prints "Exception ignored in Client.__del__"
    and a traceback as it is collected; the failure itself is reported in words."""
    saved = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if "distributed" not in getattr(getattr(unraisable, "object", None), "__module__", ""):
            saved(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        gc.collect()
        sys.unraisablehook = saved


def _connect(address: str, timeout: float):
    _reachable(address, timeout)  # before importing Dask: a refused address is said at once
    try:
        from distributed import Client
    except ImportError:
        raise InputError.at(
            "--scheduler needs Dask distributed, the optional cluster extra: pip install 'armybuilder[cluster]'"
        ) from None
    _identify(address, timeout)
    with _quiet_client_finalisers():
        try:
            return Client(address, timeout=timeout, set_as_default=False)
        except Exception as exc:  # noqa: BLE001 - any failure to connect is the organiser's to read
            raise InputError.at(f"cannot connect to the Dask scheduler at {address}: {type(exc).__name__}: {exc}") from None


def _context(context: dict[str, Any]) -> dict[str, Any]:
    """A task that hands the matrix's shared context to the tasks that depend on it."""
    return context


class DaskRunner:
    """Tasks sent to a running Dask distributed cluster (``dask scheduler`` + ``dask worker``).

    Dask retries a task whose worker died (the scheduler's ``allowed-failures``);
    ``retries`` covers a task that raised on a sick worker.  The context travels
    to each worker through one recomputable task (never scattered data, which a
    killed worker would take with it), a task carries only its segments.
    """

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT, retries: int = 2) -> None:
        self.address = scheduler_address(address)  # checked before anything connects
        self.timeout = timeout
        self.retries = retries
        self.workers = 0
        self._client: Any = None

    def _connected(self):
        if self._client is None:
            self._client = _connect(self.address, self.timeout)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> DaskRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return f"Dask cluster at {self.address} ({self.workers} worker{'s' if self.workers != 1 else ''})"

    @staticmethod
    def _records(future: Any) -> list[dict[str, Any]]:
        try:
            return future.result()
        except EngineMismatch as exc:
            raise InputError.at(f"a Dask worker refused the work: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - shown to the organiser, finished games kept
            raise InputError.at(
                f"a task failed on the cluster ({type(exc).__name__}: {exc}); "
                "the finished games are kept: run again with --resume"
            ) from None

    def probe(self) -> int:
        """Connect once and count the workers (for task sizing and the progress line)."""
        self.workers = len(self._connected().scheduler_info().get("workers", {}))
        return self.workers

    def run(self, context: dict[str, Any], tasks: list[list[Segment]], on_result: OnResult, cancelled: Cancelled | None = None,
            heartbeat: Heartbeat | None = None, play: PlayTask = play_task) -> None:
        if not tasks:
            return
        from distributed import as_completed

        client = self._connected()
        futures: list[Any] = []
        shared = None
        try:
            # The context goes in as a task, not scattered data: if the worker holding it
            # dies, the scheduler recomputes a task's result, while lost scattered data
            # would cancel every task that needs it ("already forgotten").
            shared = client.submit(_context, context, pure=False)
            futures = [client.submit(play, shared, task, pure=False, retries=self.retries) for task in tasks]
            finished = as_completed(futures, loop=client.loop)
            counted = -math.inf
            while not finished.is_empty():
                batch = finished.next_batch(block=False)
                for future in batch:
                    on_result(self._records(future))
                if cancelled and cancelled():
                    break
                if batch:
                    continue
                if time.monotonic() - counted >= WORKER_POLL_S:
                    counted = time.monotonic()
                    self.workers = len(client.nthreads())
                if heartbeat:
                    heartbeat(None if self.workers else f"waiting for workers: none is connected to {self.address}")
                time.sleep(0.2)
        finally:
            # Dropping the futures releases them: the scheduler forgets the tasks not
            # started (a finished task's records were written already).  client.cancel
            # would also do it, but left the next scatter of this client waiting.
            futures.clear()
            shared = None  # noqa: F841
