"""``armybuilder serve``: its options, and what it prints when it starts.

Standard library only until the command runs: the other commands must not pay for
aiohttp and textual-serve, which are an optional extra (``pip install 'armybuilder[serve]'``).
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path

from armybuilder.core.errors import InputError

DEFAULT_PORT = 8000
DEFAULT_SESSIONS = 8
DEFAULT_IDLE_MINUTES = 30.0
MAX_SESSIONS = 64


def add_serve_parser(commands) -> None:
    p = commands.add_parser(
        "serve",
        help="the editor in a browser (needs armybuilder[serve])",
        description="Serve the editor to web browsers. Every request must carry the secret token "
        "printed in the address to open; each browser works in a workspace folder of its own.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--token", help="the secret the address carries (default: a new random one at each start)")
    p.add_argument("--workspaces", metavar="DIR",
                   help="folder of the browsers' workspaces (default: 'served' in the user data folder)")
    p.add_argument("--max-sessions", type=int, default=DEFAULT_SESSIONS,
                   help=f"editors running at once, one per browser tab (default {DEFAULT_SESSIONS})")
    p.add_argument("--idle-minutes", type=float, default=DEFAULT_IDLE_MINUTES,
                   help=f"close a tab's editor after this long without input (default {DEFAULT_IDLE_MINUTES:g}; "
                        "its unsaved work is kept)")
    p.set_defaults(func=cmd_serve)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address() -> str:
    """This machine's address on the network its default route leads to: what a phone on the
    same Wi-Fi opens (a host name often does not resolve there). The host name where no route
    says."""
    import contextlib
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("198.51.100.1", 9))  # a UDP "connect" sends nothing: it only picks the route
        address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_unspecified:
            return address
    return socket.gethostname()


def address_to_open(host: str, port: int, token: str) -> str:
    """The address the start-up lines print: one that a browser can open, token included."""
    if host in ("0.0.0.0", "::", ""):  # every network: the one the other machines are on
        host = network_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/?token={token}"


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import aiohttp  # noqa: F401
        import textual_serve  # noqa: F401
    except ImportError:
        raise InputError.at(
            "armybuilder serve needs textual-serve, the optional serve extra: pip install 'armybuilder[serve]'"
        ) from None
    from .gate import check_given_token, new_token

    if args.token is not None and (problem := check_given_token(args.token)):
        raise InputError.at(problem)
    if not 0 <= args.port <= 65535:
        raise InputError.at(f"--port {args.port}: a port is 0 to 65535")
    if not 1 <= args.max_sessions <= MAX_SESSIONS:
        raise InputError.at(f"--max-sessions {args.max_sessions}: 1 to {MAX_SESSIONS}")
    if not args.idle_minutes > 0:
        raise InputError.at(f"--idle-minutes {args.idle_minutes:g}: more than 0")
    if args.workspaces:
        root = Path(args.workspaces).expanduser()
    else:
        from armybuilder.tui.storage import data_dir

        root = data_dir() / "served"
    from .server import Settings

    settings = Settings(
        host=args.host,
        port=args.port,
        token=args.token or new_token(),
        workspaces=root,
        max_sessions=args.max_sessions,
        idle_seconds=args.idle_minutes * 60,
    )
    return run(settings)


def run(settings) -> int:
    import asyncio
    import signal

    from .server import start

    async def serve() -> int:
        try:
            server, runner, port = await start(settings)
        except OSError as exc:
            raise InputError.at(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from None
        say = sys.stdout.write
        say("armybuilder serve: the editor in a browser\n")
        say(f"  open       {address_to_open(settings.host, port, settings.token)}\n")
        say(f"  workspaces {server.workspaces.root} (a folder for each browser)\n")
        say(f"  sessions   at most {settings.max_sessions} at once; one idle for "
            f"{settings.idle_seconds / 60:g} min is closed (its unsaved work is kept)\n")
        if not is_loopback(settings.host):
            say("  reachable from other machines: whoever has the address can use the editor;\n"
                "  the traffic is plain HTTP (put a TLS proxy in front beyond a trusted network)\n")
        say("  ctrl+c stops the server\n")
        sys.stdout.flush()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        live = len(server.sessions.live)
        if live:
            say(f"stopping {live} session{'' if live == 1 else 's'} (unsaved work goes to recovery copies)\n")
            sys.stdout.flush()
        await server.sessions.stop_all()
        await runner.cleanup()
        return 0

    import logging

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    return asyncio.run(serve())
