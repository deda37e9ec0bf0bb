"""`munchkin replay ID [--verify]`, `munchkin games` and `munchkin backup PATH`: saved games
told, checked, listed and copied.

Errors are one line on stderr, never a traceback: exit 2 when the database cannot
be opened, 1 when a saved game cannot be replayed as it was saved.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from munchkin.store.errors import MissingDatabase, StoreError
from munchkin.store.models import GameInfo, Seat
from munchkin.store.replay import load_cards, replay, verify
from munchkin.store.store import Store
from munchkin.text import sentence
from munchkin.words.standings import options_text, winners_text

_PIPE_WIDTH = 160

DbOption = Annotated[
    str | None,
    typer.Option("--db", metavar="URL", help="Database URL or SQLite file (default: the user's data dir)."),
]


def register(app: typer.Typer) -> None:
    """Add `replay`, `games` and `backup` to the `munchkin` command."""
    app.command("replay")(replay_game)
    app.command("games")(list_games)
    app.command("backup")(backup_db)


def backup_db(
    path: Annotated[str, typer.Argument(help="The new file to write the copy to.", show_default=False)],
    db: DbOption = None,
) -> None:
    """Copy a SQLite database safely while games are played (SQLite's backup API: a plain copy
    of the file can miss the latest decisions, still in its -wal file)."""
    store = _open(db)
    try:
        games, decisions = store.backup(path)
    except StoreError as exc:
        _fail(str(exc), 1)
    finally:
        store.close()
    typer.echo(f"Backed up {store.name} to {path}: {games} games, {decisions} decisions.")


def replay_game(
    game_id: Annotated[int, typer.Argument(help="The game's id (see `munchkin games`).", show_default=False)],
    check: Annotated[
        bool, typer.Option("--verify", help="Check that the decisions lead to the saved state.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Tell a saved game as sentences; with --verify, check it against the saved state."""
    store = _open(db)
    try:
        saved = store.load(game_id)
        setup = saved.info.setup
        _, events = verify(saved) if check else replay(setup, saved.decisions, saved.where)
    except StoreError as exc:
        _fail(str(exc), 2)  # a save that cannot be read or replayed is bad input
    finally:
        store.close()
    names = {card.id: card.name for card in load_cards(setup.sets)}
    typer.echo(
        f"Game {game_id}: seed {setup.seed}, sets {', '.join(setup.sets)}, "
        f"{options_text(setup.options.changed())}; {_seats(setup.seats)}"
    )
    for event in events:
        line = sentence(event, names)
        if line:
            typer.echo(line)
    typer.echo(_standing(saved.info))
    if check:
        typer.echo(f"verified: {len(saved.decisions)} decisions lead to the saved state")


def list_games(db: DbOption = None) -> None:
    """List the saved games."""
    try:
        store = Store(db, create=False)
    except MissingDatabase as exc:
        typer.echo(f"No saved games ({exc}).")
        return
    except StoreError as exc:
        _fail(str(exc), 2)
    try:
        games = store.games()
    except StoreError as exc:
        _fail(str(exc), 1)
    finally:
        store.close()
    console = Console()
    if not console.is_terminal:  # piped: no terminal width to respect
        console = Console(width=_PIPE_WIDTH)
    console.print(_table(store.name, games))


def _open(db: str | None) -> Store:
    try:
        return Store(db, create=False)
    except StoreError as exc:
        _fail(str(exc), 2)


def _table(name: str, games: list[GameInfo]) -> Table:
    table = Table(title=f"Saved games in {name}", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("id", "created", "seats", "options", "status", "winners", "turns", "decisions"):
        numeric = column in ("id", "turns", "decisions")
        table.add_column(column, justify="right" if numeric else "left", overflow="fold")
    for game in games:
        progress = game.progress
        table.add_row(
            str(game.id),
            _when(game.setup.created),
            _seats(game.setup.seats),
            _options(game.setup.options.changed()),
            progress.status,
            ", ".join(progress.winners),
            str(progress.turn),
            str(game.decisions),
        )
    return table


def _when(created: datetime) -> str:
    """`created` in local time to the minute; in UTC, saying so, when local time would leave the
    calendar (a game saved at the start of year 1 or the end of 9999)."""
    try:
        return created.astimezone().replace(tzinfo=None).isoformat(" ", "minutes")
    except OverflowError:
        return f"{created.astimezone(UTC).replace(tzinfo=None).isoformat(' ', 'minutes')} UTC"


def _seats(seats: tuple[Seat, ...]) -> str:
    return ", ".join(f"{seat.name} ({seat.kind})" for seat in seats)


def _options(changed: dict[str, object]) -> str:
    """The options not at their defaults, NAME=VALUE as `--option` takes them; empty if none."""
    return "" if not changed else options_text(changed).removeprefix("options ")


def _standing(info: GameInfo) -> str:
    progress = info.progress
    if progress.winners:
        return f"{winners_text(progress.winners)} on turn {progress.turn}, after {info.decisions} decisions."
    return f"Still playing: turn {progress.turn}, {info.decisions} decisions so far."


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)
