"""The FastAPI application: the lobby API, the game WebSocket and the browser client."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from munchkin.store import Store, StoreError
from munchkin.web import api, player_api, ws
from munchkin.web.config import WebConfig
from munchkin.web.db import LobbyDb
from munchkin.web.errors import incident, told
from munchkin.web.guard import Limits
from munchkin.web.hub import Hub
from munchkin.web.lobby import LobbyError

log = logging.getLogger("munchkin.web")
STATIC = Path(__file__).with_name("static")
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""On every HTTP answer (pages, scripts, JSON, errors): no framing, no sniffing, no referrer."""
HTTP_ERRORS = {
    404: "there is nothing at this address",
    405: "this address does not take that method",
}
PATTERN_HINTS = {
    "name": "1 to 24 letters, digits, spaces or .'- starting with a letter or a digit",
    "token": "not a seat token",
    "code": "a game code is 6 letters and digits",
}


def create_app(config: WebConfig | None = None) -> FastAPI:
    """The server; the database is opened when it starts and closed when it stops."""
    settings = config or WebConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url, busy_seconds=settings.db_busy_seconds)
        hub = Hub(settings, store, LobbyDb(store.engine))
        app.state.hub = hub
        hub.start_sweeping()
        try:
            yield
        finally:
            hub.close()
            store.close()

    app = FastAPI(title="Munchkin online", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyLimit, max_bytes=settings.max_message_bytes)
    app.add_middleware(Limits, max_per_address=settings.max_connections_per_address, headers=PAGE_HEADERS)
    app.add_exception_handler(LobbyError, _lobby_error)
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _failure)
    app.include_router(api.router)
    app.include_router(player_api.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    return app


async def _lobby_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, LobbyError)
    body = {"error": str(exc)} if exc.error_id is None else {"error": str(exc), "error_id": exc.error_id}
    return JSONResponse(body, status_code=exc.status)


async def _store_error(_request: Request, exc: Exception) -> JSONResponse:
    error_id = incident("the database failed", exc)
    sentence = told("the server cannot save games right now; try again later", error_id)
    return JSONResponse({"error": sentence, "error_id": error_id}, status_code=503)


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (no such route, a method not allowed) in our shape."""
    assert isinstance(exc, HTTPException)
    sentence = HTTP_ERRORS.get(exc.status_code, "this request cannot be answered")
    return JSONResponse({"error": sentence}, status_code=exc.status_code, headers=exc.headers)


async def _failure(_request: Request, exc: Exception) -> JSONResponse:
    """A bug: the client gets a sentence and an error id, the log the traceback."""
    error_id = incident("a request failed", repr(exc))
    log.error("error %s", error_id, exc_info=exc)
    sentence = told("the server failed to answer; try again later", error_id)
    return JSONResponse({"error": sentence, "error_id": error_id}, status_code=500)


async def _invalid(_request: Request, exc: Exception) -> JSONResponse:
    """A malformed request, told in one line: where and what."""
    assert isinstance(exc, RequestValidationError)
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"] if part != "body") or "body"
    if error["type"] == "json_invalid":
        return JSONResponse({"error": "the body is not valid JSON"}, status_code=422)
    what = PATTERN_HINTS.get(where, "has characters that are not allowed")
    message = what if error["type"] == "string_pattern_mismatch" else error["msg"]
    return JSONResponse({"error": f"{where}: {message}"}, status_code=422)


class BodyLimit:
    """Refuse request bodies over `max_bytes`, and bodies of unknown length or sent in chunks
    (whose length no header bounds), before reading them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            refusal = self._refusal(scope["headers"])
            if refusal is not None:
                status, error = refusal
                await JSONResponse({"error": error}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: list[tuple[bytes, bytes]]) -> tuple[int, str] | None:
        """The status and words refusing a body these headers announce, or None."""
        if any(name == b"transfer-encoding" for name, _ in headers):
            return 411, "send the body whole, with its Content-Length, not in chunks"
        lengths = [value for name, value in headers if name == b"content-length"]
        if len(lengths) != 1 or not lengths[0].isdigit():
            return 411, "say how long the body is"
        if int(lengths[0]) > self.max_bytes:
            return 413, "body too large"
        return None
