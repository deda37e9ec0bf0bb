"""The app under uvicorn: in the foreground (`munchkin serve`) or in a thread (tests, load runs)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from munchkin.web.app import create_app
from munchkin.web.config import WebConfig
from munchkin.web.guard import Guard, protocols

WS_MAX_BYTES = 64 * 1024
"""Frames larger than this are refused by uvicorn before the app sees them."""
START_SECONDS = 10.0


def _server(config: WebConfig, host: str, port: int, log_level: str) -> uvicorn.Server:
    """uvicorn with our protocols (`guard`): every connection counted, timed, capped; proxy
    headers believed only from `trusted_proxies`."""
    http, ws = protocols(Guard(config))
    settings = uvicorn.Config(
        create_app(config),
        host=host,
        port=port,
        http=http,
        ws=ws,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,  # messages are small; compressing them costs more than it saves
        ws_ping_interval=config.ping_seconds,
        ws_ping_timeout=config.ping_seconds,
        timeout_keep_alive=config.keepalive_seconds,  # type: ignore[arg-type]
        proxy_headers=bool(config.trusted_proxies),
        forwarded_allow_ips=list(config.trusted_proxies) or None,
        server_header=False,
        log_level=log_level,
    )
    return uvicorn.Server(settings)


def run_server(config: WebConfig, host: str, port: int, log_level: str = "info") -> None:
    """Serve until interrupted. What is loaded by then (modules, the app) lives as long as the
    process: frozen out of the garbage collector's sight, full collections stay short."""
    server = _server(config, host, port, log_level)
    gc.freeze()
    server.run()


@contextmanager
def background(config: WebConfig, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """The server running in a thread (port 0: any free port); yields its address, `HOST:PORT`."""
    server = _server(config, host, port, "warning")
    thread = threading.Thread(target=server.run, name="munchkin-web", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_SECONDS
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        yield f"{host}:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(START_SECONDS)
