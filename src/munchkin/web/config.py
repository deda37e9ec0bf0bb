"""The server's settings: timers, limits, the database.

Every limit here is one `munchkin serve` option (`--max-connections`...), listed with its
default by `munchkin serve --help` and in the README. An "address" is a client's IP
address (an IPv6 address counts by its /64 network, which one client usually holds whole);
behind a reverse proxy, the one the proxy names in `X-Forwarded-For`, if the proxy's own
address is among `trusted_proxies`.
"""

from __future__ import annotations

from dataclasses import dataclass

from munchkin.bots.registry import HARD_THINK_MS


@dataclass(frozen=True)
class WebConfig:
    """Settings of one server. Times are in seconds."""

    db_url: str | None = None
    """SQLAlchemy URL or SQLite file path of the database; the store's default when None."""
    db_busy_seconds: float = 2.0
    """How long a database statement waits for another connection's lock before it fails."""
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
    """Sustained lobby requests (create, join, ready, start, free, close) one address may make..."""
    request_burst: int = 30
    lookups_per_second: float = 2.0
    """Sustained game-code lookups (`GET /api/games/CODE`, a WebSocket to `/ws/CODE`) one
    address may make..."""
    lookup_burst: int = 30
    max_tables: int = 2000
    """Games kept open at once (lobby and in play); more are refused."""
    max_open_tables_per_address: int = 3
    """Games not started yet that one address may have created and not given up."""
    max_live_tables_per_address: int = 20
    """Games not finished (waiting or in play) that one address may have created: nobody
    fills the server's `max_tables` alone."""
    max_bot_games_per_address: int = 2
    """Games, open or in play, that one address may have created with at least as many bot
    seats as human ones (with everyone away, bots play them alone)."""
    table_idle_seconds: float = 900.0
    """A game not started is dropped when nothing happened at its table for this long and
    none of its players is connected."""
    finished_keep_seconds: float = 300.0
    """A finished game leaves the lobby this long after its end (its saved record stays)."""
    max_connections: int = 4000
    """Connections (HTTP and WebSocket) served at once; more are answered 503."""
    max_connections_per_address: int = 50
    """Connections (HTTP and WebSocket) one address may hold open at once; more are answered 429."""
    max_spectators_per_game: int = 32
    """Spectators one game lets in; seats do not count (a seat always gets in)."""
    max_spectators_per_address: int = 4
    """Spectators of one game from one address."""
    max_connections_per_seat: int = 4
    """Connections one seat holds at once; its oldest is closed for a newer one."""
    request_seconds: float = 10.0
    """Time a client has to send a whole HTTP request (headers and body) once it connects or its
    last answer was sent; then the connection is closed."""
    keepalive_seconds: float = 5.0
    """An HTTP connection idle this long after an answer is closed."""
    ping_seconds: float = 20.0
    """A WebSocket is pinged this often, and closed if the pong is this late."""
    bot_moves_per_second: float = 20.0
    """Decisions bots (stand-ins included) make per second in one game while a human is there..."""
    away_bot_moves_per_second: float = 2.0
    """...and while none of its humans is connected."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses (or networks, `10.0.0.0/8`) of reverse proxies whose `X-Forwarded-For` is
    believed; no other client's is."""
    seed: int | None = None
    """Every game is dealt from this seed (tests, demonstrations); a random one when None."""
    idle_refresh_seconds: float = 0.25
    """How long changes are gathered before a connection the game is not waiting for is told."""
    log_lines: int = 300
    """Sentences of the log sent to a player who (re)connects."""
    search_ms_per_decision: float = HARD_THINK_MS
    """Thinking time a search bot (`hard`) may take for one decision, in milliseconds..."""
    search_ms_per_minute: float = 15_000.0
    """...and all the search bots of one game together in a minute (then they play the heuristic's
    moves until the budget refills; see `web.thinking`)."""
    search_workers: int = 1
    """Processes search bots think in, for every game together."""
    standin: str = "bot:medium"
    """The bot (`bot:KIND`) that plays for a human away."""
