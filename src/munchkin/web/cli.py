"""`munchkin serve`: the online game server.

Importing this module needs no web package, so that `munchkin` works without the
`web` extra; `serve` says what to install if it is missing.
"""

from __future__ import annotations

import importlib

import typer

from munchkin.store import Store, StoreError
from munchkin.web.config import WebConfig


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, min=1, max=65535),
    db: str = typer.Option(None, help="Database URL or SQLite file (default: the local database)."),
    response_seconds: float = typer.Option(20.0, min=0, max=300, help="Default time to answer out of turn."),
    takeover_seconds: float = typer.Option(30.0, min=0, help="A bot plays a seat this long after it leaves."),
) -> None:
    """Play online: a lobby, games with friends and bots, in the browser."""
    try:
        server = importlib.import_module("munchkin.web.server")
    except ModuleNotFoundError as exc:
        typer.echo(f"error: online play needs {exc.name}: pip install 'munchkin[web]'", err=True)
        raise typer.Exit(2) from None
    try:
        Store(db).close()  # a database we cannot use is one line of error, not a traceback
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    config = WebConfig(db_url=db, response_seconds=response_seconds, takeover_seconds=takeover_seconds)
    typer.echo(f"Munchkin online at http://{host}:{port}/ (Ctrl+C stops)")
    server.run_server(config, host, port)


def register(app: typer.Typer) -> None:
    """Add `serve` to the `munchkin` command."""
    app.command()(serve)
