"""The server's settings: timers, limits, the database."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebConfig:
    """Settings of one server. Times are in seconds."""

    db_url: str | None = None
    """SQLAlchemy URL or SQLite file path of the database; the store's default when None."""
    response_seconds: float = 20.0
    """Default time a player has to answer out of turn (a response window, a help request)."""
    takeover_seconds: float = 30.0
    """How long after a player's last connection closed a bot starts playing their seat."""
    max_message_bytes: int = 4096
    """Largest WebSocket message or HTTP body accepted."""
    messages_per_second: float = 20.0
    """Sustained WebSocket messages a connection may send (token bucket)..."""
    message_burst: int = 40
    """...and how many it may send at once."""
    requests_per_second: float = 5.0
    """Sustained lobby requests (create, join, ready, start) one address may make..."""
    request_burst: int = 30
    max_tables: int = 2000
    """Games kept open at once (lobby and in play); more are refused."""
    max_connections_per_game: int = 64
    max_connections: int = 4000
    """Connections (HTTP and WebSocket) served at once; more are answered 503."""
    seed: int | None = None
    """Every game is dealt from this seed (tests, demonstrations); a random one when None."""
    idle_refresh_seconds: float = 0.25
    """How long changes are gathered before a connection the game is not waiting for is told."""
    log_lines: int = 300
    """Sentences of the log sent to a player who (re)connects."""
