"""`munchkin serve`: the online game server.

Importing this module needs no web package, so that `munchkin` works without the
`web` extra; `serve` says what to install if it is missing. Every limit of `WebConfig` is
an option here, in the "Limits" and "Timeouts" panels of `munchkin serve --help`.
"""

from __future__ import annotations

import importlib
import ipaddress
from typing import Annotated, Any

import typer

from munchkin.bots.registry import SEAT_KINDS
from munchkin.store import Store, StoreError
from munchkin.web.config import WebConfig

DEFAULTS = WebConfig()
LIMITS, TIMES = "Limits (per address: an IP address, an IPv6 /64)", "Timeouts and pace"
BOTS = "Bots"


def _limit(default: float, help: str, minimum: float = 0, panel: str = LIMITS) -> Any:
    """A limit as an option of its panel (typed `Any`, as typer.Option itself is)."""
    return typer.Option(default, min=minimum, help=help, rich_help_panel=panel)


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, min=1, max=65535),
    db: str = typer.Option(None, help="Database URL or SQLite file (default: the local database)."),
    response_seconds: float = typer.Option(20.0, min=0, max=300, help="Default time to answer out of turn."),
    takeover_seconds: float = typer.Option(30.0, min=0, help="A bot plays a seat this long after it leaves."),
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            metavar="ADDRESS",
            help="A reverse proxy (address or network) whose X-Forwarded-For is believed; repeatable. "
            "No other client's is.",
        ),
    ] = None,
    max_connections: int = _limit(DEFAULTS.max_connections, "HTTP and WebSocket connections at once.", 1),
    max_connections_per_address: int = _limit(
        DEFAULTS.max_connections_per_address, "Connections one address holds at once (more: 429).", 1
    ),
    max_spectators_per_game: int = _limit(
        DEFAULTS.max_spectators_per_game, "Spectators of one game (seats always get in)."
    ),
    max_spectators_per_address: int = _limit(
        DEFAULTS.max_spectators_per_address, "Spectators of one game from one address."
    ),
    max_connections_per_seat: int = _limit(
        DEFAULTS.max_connections_per_seat, "Connections of one seat; its oldest is closed for a new one.", 1
    ),
    max_tables: int = _limit(DEFAULTS.max_tables, "Games open at once, in the lobby and in play.", 1),
    max_open_tables_per_address: int = _limit(
        DEFAULTS.max_open_tables_per_address, "Games not started yet that one address created."
    ),
    max_live_tables_per_address: int = _limit(
        DEFAULTS.max_live_tables_per_address, "Games not finished (waiting or in play) one address created."
    ),
    max_bot_games_per_address: int = _limit(
        DEFAULTS.max_bot_games_per_address, "Games one address created with as many bots as humans, or more."
    ),
    requests_per_second: float = _limit(
        DEFAULTS.requests_per_second,
        "Lobby requests (create, join, ready, start, free, close) per address and second.",
    ),
    request_burst: int = _limit(DEFAULTS.request_burst, "...and at once.", 1),
    lookups_per_second: float = _limit(
        DEFAULTS.lookups_per_second, "Game-code lookups (HTTP and WebSocket) per address and second."
    ),
    lookup_burst: int = _limit(DEFAULTS.lookup_burst, "...and at once.", 1),
    messages_per_second: float = _limit(
        DEFAULTS.messages_per_second, "WebSocket messages per connection and second."
    ),
    message_burst: int = _limit(DEFAULTS.message_burst, "...and at once.", 1),
    request_seconds: float = _limit(
        DEFAULTS.request_seconds, "Time to send a whole HTTP request (headers and body).", 0.1, TIMES
    ),
    keepalive_seconds: float = _limit(
        DEFAULTS.keepalive_seconds, "An idle HTTP connection is closed after.", 0.1, TIMES
    ),
    ping_seconds: float = _limit(
        DEFAULTS.ping_seconds, "WebSockets are pinged this often; a late pong closes.", 1, TIMES
    ),
    table_idle_seconds: float = _limit(
        DEFAULTS.table_idle_seconds,
        "A game not started expires after this long idle with no player connected.",
        1,
        TIMES,
    ),
    finished_keep_seconds: float = _limit(
        DEFAULTS.finished_keep_seconds,
        "A finished game leaves the lobby (not the saved games) after.",
        0,
        TIMES,
    ),
    bot_moves_per_second: float = _limit(
        DEFAULTS.bot_moves_per_second,
        "Bot decisions per game and second while a human is there (0: no limit).",
        0,
        TIMES,
    ),
    away_bot_moves_per_second: float = _limit(
        DEFAULTS.away_bot_moves_per_second, "...and while none is (0: no limit).", 0, TIMES
    ),
    db_busy_seconds: float = _limit(
        DEFAULTS.db_busy_seconds, "How long a database statement waits for a lock before it fails.", 0, TIMES
    ),
    search_ms_per_decision: float = _limit(
        DEFAULTS.search_ms_per_decision, "Search bots' (hard) thinking per decision, in ms.", 1, BOTS
    ),
    search_ms_per_minute: float = _limit(
        DEFAULTS.search_ms_per_minute, "...and of all of one game's search bots per minute.", 0, BOTS
    ),
    search_workers: int = _limit(
        DEFAULTS.search_workers, "Processes search bots think in, for all games together.", 1, BOTS
    ),
    standin: str = typer.Option(
        DEFAULTS.standin,
        help=f"The bot that plays for a player away ({', '.join(SEAT_KINDS)}).",
        rich_help_panel=BOTS,
    ),
) -> None:
    """Play online: a lobby, games with friends and bots, in the browser."""
    try:
        server = importlib.import_module("munchkin.web.server")
    except ModuleNotFoundError as exc:
        typer.echo(f"error: online play needs {exc.name}: pip install -e '.[web]'", err=True)
        raise typer.Exit(2) from None
    if standin not in SEAT_KINDS:
        typer.echo(f"error: --standin {standin!r}: choose among {', '.join(SEAT_KINDS)}", err=True)
        raise typer.Exit(2)
    trusted_proxy = trusted_proxy or []
    for proxy in trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            typer.echo(f"error: --trusted-proxy {proxy!r}: not an IP address or network", err=True)
            raise typer.Exit(2) from None
    try:
        Store(db).close()  # a database we cannot use is one line of error, not a traceback
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    config = WebConfig(
        db_url=db,
        db_busy_seconds=db_busy_seconds,
        response_seconds=response_seconds,
        takeover_seconds=takeover_seconds,
        trusted_proxies=tuple(trusted_proxy),
        max_connections=max_connections,
        max_connections_per_address=max_connections_per_address,
        max_spectators_per_game=max_spectators_per_game,
        max_spectators_per_address=max_spectators_per_address,
        max_connections_per_seat=max_connections_per_seat,
        max_tables=max_tables,
        max_open_tables_per_address=max_open_tables_per_address,
        max_live_tables_per_address=max_live_tables_per_address,
        max_bot_games_per_address=max_bot_games_per_address,
        requests_per_second=requests_per_second,
        request_burst=request_burst,
        lookups_per_second=lookups_per_second,
        lookup_burst=lookup_burst,
        messages_per_second=messages_per_second,
        message_burst=message_burst,
        request_seconds=request_seconds,
        keepalive_seconds=keepalive_seconds,
        ping_seconds=ping_seconds,
        table_idle_seconds=table_idle_seconds,
        finished_keep_seconds=finished_keep_seconds,
        bot_moves_per_second=bot_moves_per_second,
        away_bot_moves_per_second=away_bot_moves_per_second,
        search_ms_per_decision=search_ms_per_decision,
        search_ms_per_minute=search_ms_per_minute,
        search_workers=search_workers,
        standin=standin,
    )
    typer.echo(f"Munchkin online at http://{host}:{port}/ (Ctrl+C stops)")
    server.run_server(config, host, port)


def register(app: typer.Typer) -> None:
    """Add `serve` to the `munchkin` command."""
    app.command()(serve)
