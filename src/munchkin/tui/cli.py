"""The `munchkin play` command: a game in the terminal, or a headless game between bots."""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from munchkin import table_options
from munchkin.session import HUMAN, Seat, Session, SessionError
from munchkin.store import Store, StoreError
from munchkin.tui.seats import SeatError, parse_seats
from munchkin.words.standings import winners_line, winners_text


def play(
    ctx: typer.Context,
    name: str = typer.Option("Ann", help="Your name at the table."),
    sex: str = typer.Option("female", help="Your character's sex: female or male."),
    bots: str = typer.Option(
        "3",
        help="Bots to play against: how many heuristic ones, or their levels (easy, medium, hard) "
        "or kinds, comma separated: hard,medium.",
    ),
    players: str = typer.Option(
        "", help="Seats in turn order instead, e.g. human:Ann,human:Bob:male,bot:hard,bot:easy."
    ),
    sets: str = typer.Option("base", help="Card sets, comma separated (base, horses)."),
    seed: int = typer.Option(None, help="Game seed (random when left out)."),
    db: str = typer.Option(None, help="Database URL for saved games (default: the local database)."),
    resume: int = typer.Option(None, help="Continue the saved game with this id."),
    no_ui: bool = typer.Option(False, "--no-ui", help="Play a bots-only game to the end, print the winners."),
    option: Annotated[
        list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help=table_options.OPTION_HELP)
    ] = None,
) -> None:
    """Play Munchkin in the terminal against bots, or hot-seat with friends; saved after every
    decision, with its table options (a resumed game keeps its own)."""
    option = option or []
    options = table_options.from_command_line(option)
    try:
        if resume is not None:
            _check_nothing_new(ctx)
        store = Store(db)
        if resume is not None:
            session = Session.resume(resume, store)
            _check_seats(session.seats, no_ui)
            _check_terminal(no_ui)
        else:
            seats = _check_seats(parse_seats(players, name, sex, bots), no_ui)
            _check_terminal(no_ui)
            set_names = [s.strip() for s in sets.split(",") if s.strip()]
            chosen_seed = random.randrange(1 << 30) if seed is None else seed
            session = Session.start(seats, set_names, chosen_seed, store, options)
    except (SeatError, StoreError, SessionError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    with store:
        if no_ui:
            _headless(session)
        else:
            _on_screen(session, db)


def _headless(session: Session) -> None:
    """Bots only: play to the end, tell the winners."""
    session.run_to_end()
    turns = session.view(session.seats[0].name).data["turn"]
    typer.echo(f"{winners_line(session.winners)} after {turns} turns (game {session.game_id}).")


def _on_screen(session: Session, db: str | None) -> None:
    """The terminal game, then how to go on with it."""
    from munchkin.tui.app import MunchkinApp  # Textual loads only for the screen

    app = MunchkinApp(session)
    app.run()
    session = app.session  # another game, if the players chose to play again
    if session.over:
        typer.echo(f"Game {session.game_id} is over: {winners_text(session.winners)}.")
    else:
        command = resume_command(session.game_id, db)
        typer.echo(f"Game {session.game_id} saved; go on with (from the project folder): {command}")


SAVED_WITH = ("name", "sex", "bots", "players", "sets", "seed", "option")
"""What a saved game keeps: given again with `--resume`, it is refused rather than ignored."""


def _check_nothing_new(ctx: typer.Context) -> None:
    """A resumed game is played as it was saved: seats, card sets, seed, table options."""
    given = [key for key in SAVED_WITH if _source(ctx, key) == "COMMANDLINE"]
    if given:
        raise SeatError(
            "a resumed game keeps the seats, card sets, seed and table options it was saved with: "
            f"leave out {', '.join('--' + key for key in given)}"
        )


def _source(ctx: typer.Context, key: str) -> str | None:
    """Where the option `key` came from (`COMMANDLINE`, `DEFAULT`...), by name: Typer's Click
    and Click's own have an enum each."""
    source = ctx.get_parameter_source(key)
    return None if source is None else source.name


def resume_command(game_id: int | None, db: str | None) -> str:
    """The command that goes on with a saved game, as it can be typed in the project folder
    (as the README tells it): with `--db` when the game is not in the default database."""
    words = [".venv/bin/munchkin", "play", "--resume", str(game_id)]
    if db is not None:
        words += ["--db", db]
    return shlex.join(words)


def at_a_terminal() -> bool:
    """Whether the keys come from a terminal (not piped in, nor redirected from a file)."""
    return sys.stdin.isatty()


def _check_terminal(no_ui: bool) -> None:
    """Refuse to open the screen without a terminal to read keys from: it would wait for
    them forever (piped input at its end)."""
    if not no_ui and not at_a_terminal():
        raise SeatError(
            "the terminal game needs a terminal to read your keys from, and the input is piped "
            "or redirected: run it in a terminal, or watch bots play with --no-ui"
        )


def _check_seats(seats: Sequence[Seat], no_ui: bool) -> Sequence[Seat]:
    """Refuse humans without a screen, and a screen without a human."""
    humans = [seat.name for seat in seats if seat.kind == HUMAN]
    if no_ui and humans:
        raise SeatError(
            f"--no-ui plays bots only, but {', '.join(humans)} would be human: "
            "use --players bot:heuristic,bot:random,..."
        )
    if not no_ui and not humans:
        raise SeatError("no human seat: add human:NAME to --players, or watch with --no-ui")
    return seats


def register(app: typer.Typer) -> None:
    """Add the `play` command to the `munchkin` command."""
    app.command(epilog=table_options.epilog())(play)
