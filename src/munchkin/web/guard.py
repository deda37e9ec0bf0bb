"""Connections as the server counts, times and refuses them, below the application.

`Guard` counts every open connection, HTTP and WebSocket alike (a WebSocket begins as an HTTP
request and is counted from its first byte to its close), in all and per address. Over
`max_connections` in all, or `max_connections_per_address` for one address, a new connection
is answered at once, when its request is read, with `503` or `429` and `{"error": ...}`, a
WebSocket handshake included, and closed. A client has `request_seconds` to send a whole
request (headers and body) after it connects or after its last answer: a silent connection,
or one that sends half its headers or half its body, is closed then. WebSockets are pinged
(`ping_seconds`), so a half-open one is closed too.

A reverse proxy's connections carry many clients: an address in `trusted_proxies` is not
capped here, but its clients are, by the address it forwards (`Limits`, in the application).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import h11
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from munchkin.web.config import WebConfig

log = logging.getLogger("munchkin.web")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
WARN_SECONDS = 60.0
REFUSED_SECONDS = 2.0
"""A connection to be refused has this long to send the request it is refused in."""
BUSY = (503, "the server is busy; try again in a moment")
CROWDED = (429, "too many connections from your address; close some and try again")


def address_key(host: str) -> str:
    """What connections and requests are counted by: the address, an IPv6 one as its /64."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip.ipv4_mapped or ip) if isinstance(ip, ipaddress.IPv6Address) else str(ip)


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """Addresses and networks as networks (`ValueError` for one that is neither)."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def json_response(status: int, body: dict[str, Any], close: bool = True) -> ASGIApp:
    """A tiny ASGI app that answers `body` as JSON (and closes the connection)."""
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if status in (429, 503):
        headers.append((b"retry-after", b"5"))

    async def app(_scope: Scope, _receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    return app


class Guard:
    """The connections open now: how many, from where."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.trusted = networks(config.trusted_proxies)
        self.total = 0
        self.by_address: Counter[str] = Counter()
        self.warned: dict[str, float] = {}
        self.open: dict[int, str | None] = {}
        """Each open transport (by id): the address it is counted under (None: not capped)."""

    def is_trusted(self, host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def admit(self, transport: object, host: str | None) -> tuple[int, str] | None:
        """Count a new connection; None, or the status and sentence it is refused with."""
        if self.total >= self.config.max_connections:
            return BUSY
        key = None if host is None or self.is_trusted(host) else address_key(host)
        if key is not None and self.by_address[key] >= self.config.max_connections_per_address:
            return CROWDED
        self.total += 1
        self.open[id(transport)] = key
        if key is not None:
            self.by_address[key] += 1
        return None

    def warn(self, host: str, sentence: str) -> None:
        """Log a refusal, at most once a minute per address (a flood must not flood the log)."""
        key = address_key(host)
        now = time.monotonic()
        if now - self.warned.get(key, -WARN_SECONDS) >= WARN_SECONDS:
            self.warned[key] = now
            if len(self.warned) > 10_000:
                self.warned.clear()
            log.warning("refusing connections from %s: %s (told once a minute)", host, sentence)

    def release(self, transport: object) -> None:
        """The connection closed (called once or more: only the first counts)."""
        if id(transport) not in self.open:
            return
        key = self.open.pop(id(transport))
        self.total -= 1
        if key is not None:
            self.by_address[key] -= 1
            if self.by_address[key] <= 0:
                del self.by_address[key]


def protocols(guard: Guard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP (h11) and WebSocket protocols, counted, timed and refused by `guard`."""
    config = guard.config

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    class GuardedHttp(H11Protocol):
        refusal: tuple[int, str] | None = None
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.refusal = guard.admit(transport, self.client[0] if self.client else None)
            if self.refusal is not None:
                status, sentence = self.refusal
                self.app = json_response(status, {"error": sentence})
                guard.warn(self.client[0] if self.client else "?", sentence)
            self._arm(REFUSED_SECONDS if self.refusal else config.request_seconds)

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self.deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            """The request did not come whole in time: say so if nothing was answered yet, and close."""
            self.deadline = None
            if self.transport.is_closing() or self.conn.their_state is h11.DONE:
                return
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE) and (
                self.cycle is None or not self.cycle.response_started
            ):
                body = json.dumps({"error": "the request took too long to arrive"}).encode()
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                    b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                )
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.DONE and self.deadline is not None:
                self._disarm()  # the whole request is in: the application may take its time

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm(config.request_seconds)  # for the next request on this connection

        def _should_upgrade(self) -> bool:
            return self.refusal is None and super()._should_upgrade()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            guard.release(self.transport)
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            body = json.dumps({"error": "not a valid HTTP request"}).encode()
            self.transport.write(
                b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
            )
            self.transport.close()

    return GuardedHttp, GuardedWebSocket


class Limits:
    """ASGI middleware: requests in progress and WebSockets open per client address (the one
    a trusted proxy forwards), at most `max_connections_per_address`; security headers on every
    answer (`headers`)."""

    def __init__(self, app: ASGIApp, max_per_address: int, headers: dict[str, str]) -> None:
        self.app, self.max_per_address = app, max_per_address
        self.headers = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
        self.active: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = address_key(client[0]) if client else "?"
        if self.active[key] >= self.max_per_address:
            if scope["type"] == "http":
                await json_response(*_body(CROWDED))(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1013, "reason": CROWDED[1]})
            return
        self.active[key] += 1
        try:
            await self.app(scope, receive, self._with_headers(send) if scope["type"] == "http" else send)
        finally:
            self.active[key] -= 1
            if self.active[key] <= 0:
                del self.active[key]

    def _with_headers(self, send: Send) -> Send:
        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in self.headers if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return sending


def _body(refusal: tuple[int, str]) -> tuple[int, dict[str, Any]]:
    return refusal[0], {"error": refusal[1]}
