"""``armybuilder serve`` over HTTP and websockets, without a browser: the token on every route,
one workspace per browser, uploads, downloads only to their own browser, bounded sessions.

The server runs in the test's event loop (:func:`armybuilder.serve.server.start`, as the
command starts it) and is spoken to with aiohttp's client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from armybuilder.cli import main
from armybuilder.core.catalog import catalog_root
from armybuilder.serve.server import Settings, start
from armybuilder.serve.sessions import EditorProcess
from armybuilder.serve.workspaces import safe_name

TOKEN = "test-token-0123456789abcdef"
SAMPLE = Path(str(catalog_root())) / "ragnarok2" / "samples" / "alahan-lions.yaml"
pytestmark = pytest.mark.timeout(600)  # each test starts a server (some an editor) and bounds its own waits

ROUTES = ["/", "/static/js/textual.js", "/static/css/xterm.css", "/download/0123abcd", "/ws"]


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, *, sessions: int = 4, idle: float = 600.0):
    settings = Settings("127.0.0.1", 0, TOKEN, tmp_path / "ws", sessions, idle)
    server, runner, port = await start(settings)
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        await server.sessions.stop_all()
        await runner.cleanup()


def browser() -> aiohttp.ClientSession:
    """A client that keeps cookies as a browser does (IP-address hosts included)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def enter(client: aiohttp.ClientSession, base: str, token: str = TOKEN) -> str:
    """Open the printed address, as a player does; the page's HTML."""
    async with client.get(f"{base}/?token={token}") as response:
        assert response.status == 200
        assert str(response.url) == f"{base}/"  # sent on to the bare address: the token left the address bar
        return await response.text()


async def test_every_route_refuses_a_missing_or_wrong_token(tmp_path):
    async with serving(tmp_path) as (server, base), aiohttp.ClientSession() as client:
        for route in ROUTES:
            async with client.get(base + route) as response:
                assert response.status == 401, route
                assert response.headers["WWW-Authenticate"].startswith("Bearer")
            for how in ({"params": {"token": "wrong-token-0123456789"}},
                        {"headers": {"Authorization": "Bearer wrong-token-0123456789"}},
                        {"headers": {"Cookie": f"armybuilder-token-{base.rsplit(':', 1)[1]}=wrong"}}):
                async with client.get(base + route, **how) as response:
                    assert response.status == 403, (route, how)
        async with client.post(f"{base}/upload", data={"list": "x"}) as response:
            assert response.status == 401
        for route in ("/ws", "/ws?token=wrong-token-0123456789"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(base + route)
            assert refused.value.status in (401, 403)
        assert list(server.workspaces.root.iterdir()) == []  # no workspace for a refused browser


async def test_the_printed_address_leaves_the_token_in_a_strict_cookie(tmp_path):
    async with serving(tmp_path) as (server, base), browser() as client:
        async with client.get(f"{base}/?token={TOKEN}", allow_redirects=False) as response:
            assert response.status == 303 and response.headers["Location"] == "/"
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        page = await enter(client, base)
        assert f'data-session-websocket-url="ws://127.0.0.1:{base.rsplit(":", 1)[1]}/ws"' in page
        assert "fonts.googleapis" not in page  # nothing fetched from elsewhere
        async with client.get(f"{base}/static/js/textual.js") as response:
            assert response.status == 200
        async with client.get(f"{base}/static/") as response:
            assert response.status in (403, 404)  # no folder listings
        (folder,) = server.workspaces.root.iterdir()
        assert folder.is_dir() and (folder.stat().st_mode & 0o777) == 0o700
        async with client.get(f"{base}/", headers={"Authorization": f"Bearer {TOKEN}"}) as response:
            assert response.status == 200  # a script may send the token as a header


async def test_a_websocket_from_another_site_or_without_a_workspace_is_refused(tmp_path):
    async with serving(tmp_path) as (server, base), browser() as client:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(f"{base}/ws?token={TOKEN}")  # the token, but never opened the page
        assert refused.value.status == 403
        await enter(client, base)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(f"{base}/ws", origin="http://evil.example")
        assert refused.value.status == 403
        assert not server.sessions.live


async def test_uploads_land_in_the_browsers_own_workspace_under_a_safe_new_name(tmp_path):
    async with serving(tmp_path) as (server, base), browser() as mine, browser() as theirs:
        await enter(mine, base)
        await enter(theirs, base)

        async def upload(client, name: str, data: bytes, **options):
            form = aiohttp.FormData()
            form.add_field("list", data, filename=name, content_type="application/yaml")
            async with client.post(f"{base}/upload", data=form, **options) as response:
                return response.status, await response.json()

        sample = SAMPLE.read_bytes()
        status, answer = await upload(mine, "lions.yaml", sample)
        assert status == 200 and answer["name"] == "lions.yaml"
        assert "Lions of the dawn (Rag'Narok 2)" in answer["message"]
        status, answer = await upload(mine, "lions.yaml", b"name: other\n")
        assert answer["name"] == "lions-2.yaml"  # never over an existing file
        assert "will not open" in answer["message"]
        status, answer = await upload(mine, "../../../etc/evil.yaml", sample)
        assert answer["name"] == "evil.yaml"
        status, answer = await upload(mine, ".armybuilder/recent.json", sample)
        assert answer["name"] == "recent.json.yaml"  # a name only: never into the editor's state folder
        status, answer = await upload(mine, "big.yaml", b"#" * (1024 * 1024 + 10))
        assert status == 413
        status, answer = await upload(mine, "x.yaml", sample, headers={"Origin": "http://evil.example"})
        assert status == 403
        status, answer = await upload(theirs, "lions.yaml", sample)
        assert answer["name"] == "lions.yaml"  # their own folder: no clash with mine

        folders = {p: sorted(f.name for f in p.iterdir()) for p in server.workspaces.root.iterdir()}
        assert sorted(folders.values(), key=len) == [
            ["lions.yaml"],
            ["evil.yaml", "lions-2.yaml", "lions.yaml", "recent.json.yaml"],
        ]
        assert not (tmp_path / "etc").exists()


async def test_an_upload_name_keeps_its_letters_and_loses_what_is_invisible(tmp_path):
    """A name in the player's script stays; controls and bidirectional marks never reach the
    host's folder. A browser sends control characters raw in the form's header, which the
    form parser refuses: the player is told, the server logs no error."""
    async with serving(tmp_path) as (server, base), browser() as mine:
        await enter(mine, base)
        sample = SAMPLE.read_bytes()

        async def raw_upload(name: bytes) -> tuple[int, dict]:
            boundary = b"----armybuilder-test"
            body = (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="list"; filename="' + name
                    + b'"\r\nContent-Type: application/yaml\r\n\r\n' + sample + b"\r\n--" + boundary + b"--\r\n")
            headers = {"Content-Type": "multipart/form-data; boundary=" + boundary.decode()}
            async with mine.post(f"{base}/upload", data=body, headers=headers) as response:
                return response.status, await response.json()

        status, answer = await raw_upload("Légion du nord.yaml".encode())
        assert status == 200 and answer["name"] == "Légion-du-nord.yaml"
        status, answer = await raw_upload("名前\u202egnp.yaml".encode())
        assert status == 200 and answer["name"] == "名前-gnp.yaml"
        status, answer = await raw_upload(b"\x07bell\x1b[31m.yaml")
        assert status == 400 and "rename the file" in answer["message"]
        (folder,) = server.workspaces.root.iterdir()
        assert sorted(p.name for p in folder.iterdir()) == ["Légion-du-nord.yaml", "名前-gnp.yaml"]
    assert safe_name("x\u200by\u2066.yml") == "x-y.yaml"  # zero-width and isolate marks
    assert len(safe_name("é" * 400 + ".yaml").encode("utf-8")) <= 160  # within a file system's 255 bytes


async def test_a_download_goes_only_to_the_browser_whose_editor_made_it(tmp_path):
    async with serving(tmp_path) as (server, base), browser() as mine, browser() as theirs:
        await enter(mine, base)
        await enter(theirs, base)
        mine_folder = next(
            p for p in server.workspaces.root.iterdir()
            if server.workspaces.folder(mine.cookie_jar.filter_cookies(URL(base))["armybuilder-workspace"].value) == p
        )

        async def nothing(*_args) -> None:
            return None

        owner = EditorProcess(mine_folder, write_bytes=nothing, write_str=nothing, close=nothing,
                              download_manager=server.download_manager)
        await server.download_manager.create_download(
            app_service=owner, delivery_key="k" * 32, file_name="lions.pdf", open_method="download",
            mime_type="application/pdf",
        )
        async with theirs.get(f"{base}/download/{'k' * 32}") as response:
            assert response.status == 404
        assert (await server.download_manager.get_download_metadata("k" * 32)).file_name == "lions.pdf"


async def test_sessions_are_counted_and_an_idle_one_is_closed_with_its_processes(tmp_path):
    async with serving(tmp_path, sessions=1, idle=3.0) as (server, base), browser() as client, browser() as other:
        await enter(client, base)
        await enter(other, base)
        socket = await client.ws_connect(f"{base}/ws?width=100&height=30")
        first = await asyncio.wait_for(socket.receive(), 120)  # the editor started and drew
        assert first.type == aiohttp.WSMsgType.BINARY
        (process,) = server.sessions.live
        pid = process._process.pid
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await other.ws_connect(f"{base}/ws")
        assert refused.value.status == 503
        async with other.get(f"{base}/") as response:
            assert response.status == 503
            assert "at most 1 editors" in await response.text()

        async def until_closed() -> None:
            while not socket.closed:
                await socket.receive()

        await asyncio.wait_for(until_closed(), 60)  # idle for 3 s: closed by the server
        for _ in range(200):
            if not server.sessions.live:
                break
            await asyncio.sleep(0.05)
        assert not server.sessions.live
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_a_tab_closed_while_its_editor_starts_is_no_failure(tmp_path, caplog):
    """A tab closed (or reloaded) before its editor drew ends that editor at once; the server's
    terminal reports no failure for it (textual-serve would say "Application failed to start")."""
    async with serving(tmp_path) as (server, base), browser() as client:
        await enter(client, base)
        socket = await client.ws_connect(f"{base}/ws?width=100&height=30")
        (process,) = server.sessions.live
        await socket.close()  # long before the editor's imports are done
        for _ in range(600):
            if not server.sessions.live:
                break
            await asyncio.sleep(0.05)
        assert not server.sessions.live and not process._drawn
    assert "failed to start" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.parametrize(
    "options, said",
    [
        (["--token", "short"], "--token needs 16 to 128 characters"),
        (["--max-sessions", "0"], "--max-sessions 0"),
        (["--idle-minutes", "0"], "--idle-minutes 0"),
        (["--port", "70000"], "--port 70000"),
    ],
)
def test_the_command_refuses_unusable_options(options, said, capsys):
    assert main(["serve", *options]) == 2
    assert said in capsys.readouterr().err


def test_the_command_says_which_extra_it_needs(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "textual_serve", None)
    assert main(["serve"]) == 2
    assert "pip install 'armybuilder[serve]'" in capsys.readouterr().err


def test_a_busy_port_is_said_plainly(tmp_path, capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--workspaces", str(tmp_path)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


async def test_an_editor_still_loading_is_not_taken_for_idle(tmp_path):
    """On a busy host the editor's imports can outlast a short idle limit: the idle clock
    starts when it first draws, and only an editor that never draws is given up."""
    from armybuilder.serve.sessions import START_SECONDS

    async def nothing(*_args) -> None:
        return None

    def editor() -> EditorProcess:
        return EditorProcess(tmp_path, write_bytes=nothing, write_str=nothing, close=nothing,
                             download_manager=None)  # type: ignore[arg-type]

    loading = editor()
    loading.started -= 60
    loading.last_input -= 60
    assert loading.idle_for() == 0.0  # a minute loading: not idle
    await loading.on_data(b"\x1b[H")  # the first screen
    assert loading.idle_for() < 5  # the clock starts there
    stuck = editor()
    stuck.started -= START_SECONDS + 1
    assert stuck.idle_for() >= START_SECONDS  # never drew: given up


def routed() -> bool:
    """Whether this machine has a route to a network (a default route)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("198.51.100.1", 9))
        except OSError:
            return False
    return True


def test_served_on_every_network_it_prints_an_address_other_machines_can_open(tmp_path):
    """``--host 0.0.0.0``: the printed address names this machine on its network (never
    0.0.0.0, which no browser opens), answers there, and the start-up lines warn."""
    import http.client
    import ipaddress
    from urllib.parse import urlsplit

    from serve_browser import start_serve

    served = start_serve(tmp_path / "ws", "--host", "0.0.0.0")
    try:
        address = urlsplit(served.address)
        assert address.hostname
        if routed():  # a phone on the same network opens an address, not this machine's name
            printed = ipaddress.ip_address(address.hostname)
            assert not (printed.is_loopback or printed.is_unspecified), served.address
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        try:
            connection.request("GET", f"/?{address.query}")
            answer = connection.getresponse()
            assert answer.status == 303 and answer.getheader("Location") == "/"  # the token opened it
        finally:
            connection.close()
    finally:
        said = served.stop()
    assert "reachable from other machines" in said


def test_the_network_address_falls_back_to_the_host_name(monkeypatch):
    import socket

    from armybuilder.serve.command import address_to_open

    class NoRoute(socket.socket):
        def connect(self, address) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    assert address_to_open("0.0.0.0", 8000, "t" * 20) == f"http://{socket.gethostname()}:8000/?token={'t' * 20}"
    assert address_to_open("::1", 8000, "t" * 20) == f"http://[::1]:8000/?token={'t' * 20}"


def test_a_server_killed_outright_leaves_no_editor_behind(tmp_path):
    """kill -9 stops no session: each editor sees its server gone and ends its own process
    group (recovery copies first), so nothing keeps running for a browser that left."""
    import signal
    import subprocess
    import time

    from serve_browser import start_serve

    served = start_serve(tmp_path / "ws")

    async def open_a_session() -> int:
        async with browser() as client:
            await enter(client, served.base, served.token)
            socket = await client.ws_connect(f"{served.base}/ws?width=100&height=30")
            first = await asyncio.wait_for(socket.receive(), 180)
            assert first.type == aiohttp.WSMsgType.BINARY  # the editor drew
            children = subprocess.run(["pgrep", "-P", str(served.process.pid)], capture_output=True, text=True, timeout=30)
            (editor,) = [int(pid) for pid in children.stdout.split()]
            served.process.send_signal(signal.SIGKILL)
            served.process.wait(30)
            return editor

    try:
        editor = asyncio.run(asyncio.wait_for(open_a_session(), 300))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(editor, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            os.killpg(editor, signal.SIGKILL)
            raise AssertionError("the editor outlived its server by a minute")
    finally:
        served.stop()
