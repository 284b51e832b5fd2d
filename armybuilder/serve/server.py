"""The web application of ``armybuilder serve``, on textual-serve's :class:`Server`.

textual-serve brings the browser side (its xterm.js client, fonts and styles under
``/static``), the per-websocket app process and the download relay. This subclass adds what
a server open to other people needs: the token gate on every route (:mod:`.gate`), one
workspace per browser (:mod:`.workspaces`), bounded and idle-closed sessions
(:mod:`.sessions`), downloads only to the browser whose session made them, an upload
route, and a page of its own (no fonts fetched from elsewhere; downloads and the upload
form that do not need pop-up windows).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from html import escape
from importlib import resources
from pathlib import Path
from urllib.parse import quote, urlsplit

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.server import Server

from .gate import Gate, refusal
from .sessions import EditorProcess, Sessions
from .workspaces import (
    TOO_LARGE,
    UPLOAD_LIMIT,
    Workspaces,
    describe_upload,
    size_text,
    store_upload,
)

log = logging.getLogger("armybuilder.serve")

MIN_COLUMNS, MAX_COLUMNS = 20, 400
MIN_ROWS, MAX_ROWS = 8, 200
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    token: str
    workspaces: Path
    max_sessions: int
    idle_seconds: float


def _clamp(value: object, low: int, high: int, default: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        return default
    return max(low, min(high, number))


def _page(name: str) -> str:
    return resources.files("armybuilder.serve").joinpath("templates", name).read_text(encoding="utf-8")


def _attachment(file_name: str) -> str:
    """A Content-Disposition header for any file name (quotes, accents, semicolons)."""
    fallback = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in file_name) or "download"
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(file_name, safe='')}"


class EditorServer(Server):
    """Serves the editor to browsers holding the token; see the module docstring."""

    def __init__(self, settings: Settings) -> None:
        super().__init__("armybuilder", host=settings.host, port=settings.port, title="armybuilder")
        self.settings = settings
        self.gate = Gate(settings.token, settings.port)
        self.workspaces = Workspaces(settings.workspaces)
        self.sessions = Sessions(settings.max_sessions, settings.idle_seconds)

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.gate.middleware], client_max_size=UPLOAD_LIMIT + 64 * 1024)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.post("/upload", self.handle_upload, name="upload"),
            web.static("/static", self.statics_path, name="static"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def make_app(self) -> web.Application:
        return await self._make_app()

    async def on_shutdown(self, app: web.Application) -> None:
        await self.sessions.stop_all()

    # -- the page ----------------------------------------------------------------------

    def _full(self) -> web.Response | None:
        if self.sessions.has_room():
            return None
        return refusal(
            503,
            "Every session is in use",
            f"This server runs at most {self.sessions.limit} editors at once. Close another tab, "
            "or try again in a moment.",
        )

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        full = self._full()
        if full is not None:
            return full
        # behind a TLS proxy the page is https: its websocket must be wss
        secure = request.secure or request.headers.get("X-Forwarded-Proto", "").lower() == "https"
        scheme = "wss" if secure else "ws"
        minutes = self.sessions.idle / 60
        values = {
            "WEBSOCKET": f"{scheme}://{request.host}/ws",
            "FONT_SIZE": str(_clamp(request.query.get("fontsize", "16"), 8, 40, 16)),
            "IDLE": f"{minutes:g} minute{'' if minutes == 1 else 's'}",
            "UPLOAD_SIZE": size_text(UPLOAD_LIMIT),
        }
        page = _page("index.html")
        for name, value in values.items():
            page = page.replace(f"@@{name}@@", escape(value))
        response = web.Response(text=page, content_type="text/html", headers=PAGE_HEADERS)
        self.workspaces.welcome(request, response)
        return response

    # -- the session -------------------------------------------------------------------

    def _same_origin(self, request: web.Request) -> bool:
        """A browser names the page that opened the request: it must be this server's."""
        origin = request.headers.get("Origin")
        if origin is None:  # not a browser (browsers always send it for these requests)
            return True
        return urlsplit(origin).netloc == request.host

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        if not self._same_origin(request):
            return refusal(403, "Another site's page", "The editor answers only its own page.")
        folder = self.workspaces.folder_of(request)
        if folder is None:
            return refusal(403, "No workspace", "Open the editor's page first.")
        full = self._full()
        if full is not None:
            return full
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=256 * 1024)
        width = _clamp(request.query.get("width", "80"), MIN_COLUMNS, MAX_COLUMNS, 80)
        height = _clamp(request.query.get("height", "24"), MIN_ROWS, MAX_ROWS, 24)
        async def close() -> None:
            await websocket.close()

        process = EditorProcess(
            folder,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
        )
        self.sessions.add(process)  # counted at once: two tabs opening together cannot both take the last place
        watcher: asyncio.Task[None] | None = None
        try:
            await websocket.prepare(request)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            await process.start(width, height)
            watcher = asyncio.create_task(self.sessions.close_when_idle(process, close))
            await self._process_messages(websocket, process)
        except asyncio.CancelledError:
            pass
        except Exception:  # noqa: BLE001 - one broken session must not stop the server
            log.exception("session failed")
        finally:
            if watcher is not None:
                watcher.cancel()
            await asyncio.shield(process.stop())
            self.sessions.discard(process)
            if not websocket.closed:
                await websocket.close()
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service) -> None:
        """The browser's messages: keys and mouse, resizes, focus; anything malformed is dropped."""
        process: EditorProcess = app_service
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], (envelope[1] if len(envelope) > 1 else None)
            if kind == "stdin" and isinstance(data, str):
                process.touch()
                await process.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                process.touch()
                await process.set_terminal_size(
                    _clamp(data.get("width"), MIN_COLUMNS, MAX_COLUMNS, 80),
                    _clamp(data.get("height"), MIN_ROWS, MAX_ROWS, 24),
                )
            elif kind == "ping" and isinstance(data, str):
                await websocket.send_json(["pong", data[:64]])
            elif kind == "blur":
                await process.blur()
            elif kind == "focus":
                process.touch()
                await process.focus()

    # -- files -------------------------------------------------------------------------

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file an editor delivered, to the browser whose workspace that editor works in."""
        key = request.match_info["key"]
        try:
            download = await self.download_manager.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="no such download (each download can be fetched once)") from None
        owner = download.app_service
        if not isinstance(owner, EditorProcess) or owner.workspace != self.workspaces.folder_of(request):
            raise web.HTTPNotFound(text="no such download (each download can be fetched once)")
        response = web.StreamResponse(headers=PAGE_HEADERS)
        content_type = download.mime_type
        if download.encoding:
            content_type += f"; charset={download.encoding}"
        response.headers["Content-Type"] = content_type
        response.headers["Content-Disposition"] = _attachment(download.file_name)
        await response.prepare(request)
        async for chunk in self.download_manager.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def handle_upload(self, request: web.Request) -> web.StreamResponse:
        """A list file from the player's device into the workspace (the page's upload form)."""

        def answer(status: int, message: str, name: str | None = None) -> web.Response:
            return web.json_response({"name": name, "message": message}, status=status, headers=PAGE_HEADERS)

        if not self._same_origin(request):
            return answer(403, "another site's page cannot upload here")
        folder = self.workspaces.folder_of(request)
        if folder is None:
            return answer(403, "open the editor's page first")
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            return answer(413, TOO_LARGE)
        except HttpProcessingError:  # e.g. control characters in the file's name: the form's headers are refused
            return answer(400, "the upload could not be read (control characters in the file's name?): rename the file and try again")
        except ValueError:
            return answer(400, "the upload was not a form")
        field = form.get("list")
        if not isinstance(field, web.FileField):
            return answer(400, "choose a list file to upload")
        data = field.file.read(UPLOAD_LIMIT + 1)
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            name = await asyncio.to_thread(store_upload, folder, field.filename, data)
        except ValueError as exc:
            return answer(413 if len(data) > UPLOAD_LIMIT else 507, str(exc))
        message = await asyncio.to_thread(describe_upload, name, data)
        return answer(200, f"uploaded as {name}: {message}", name)


async def start(settings: Settings) -> tuple[EditorServer, web.AppRunner, int]:
    """Listen (``port`` 0 picks a free one); the server, its runner and the port it got."""
    server = EditorServer(settings)
    runner = web.AppRunner(await server.make_app(), access_log=None, handle_signals=False, shutdown_timeout=10.0)
    await runner.setup()
    site = web.TCPSite(runner, settings.host, settings.port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    port = settings.port
    server_sockets = getattr(getattr(site, "_server", None), "sockets", None) or []
    for sock in server_sockets:
        port = sock.getsockname()[1]
        break
    server.gate.use_port(port)
    return server, runner, port
