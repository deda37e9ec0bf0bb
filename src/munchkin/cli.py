"""The `munchkin` command: a thin adapter over the engine."""

from __future__ import annotations

import random
from typing import Annotated

import typer

from munchkin import table_options
from munchkin.bots.random_bot import RandomBot
from munchkin.cards import cli as cards_cli
from munchkin.cards.loader import CardLoadError, load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.events import Event
from munchkin.engine.game import SetupError
from munchkin.match import play_match
from munchkin.scenario import cli as scenario_cli
from munchkin.sim import cli as sim_cli
from munchkin.store import cli as store_cli
from munchkin.text import sentence
from munchkin.tui import cli as tui_cli
from munchkin.web import cli as web_cli
from munchkin.words.standings import winners_line

app = typer.Typer(
    help="A reference rules engine for Munchkin, with Hirelings and Steeds.", no_args_is_help=True
)
app.add_typer(cards_cli.app, name="cards", help="Check and list card sets.")
app.add_typer(scenario_cli.app, name="scenario", help="Run rule scenarios.")


def _cards(sets: str) -> list[CardDef]:
    try:
        return load_builtin_sets([s.strip() for s in sets.split(",") if s.strip()])
    except CardLoadError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


@app.command(epilog=table_options.epilog())
def demo(
    players: int = typer.Option(4, min=2, max=6, help="Number of bots at the table."),
    seed: int = typer.Option(None, help="Game seed (random when left out)."),
    sets: str = typer.Option("base", help="Card sets, comma separated."),
    option: Annotated[
        list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help=table_options.OPTION_HELP)
    ] = None,
) -> None:
    """Watch a complete game between random bots, by the table options given, told as sentences."""
    options = table_options.from_command_line(option or [])
    cards = _cards(sets)
    seed = random.randrange(1 << 30) if seed is None else seed
    names = {c.id: c.name for c in cards}
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    typer.echo(f"Game seed {seed}, {players} players, sets: {sets}")

    def tell(event: Event) -> None:
        line = sentence(event, names)
        if line:
            typer.echo(line)

    try:
        result = play_match(cards, players, seed, bots, on_event=tell, options=options)
    except SetupError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"{winners_line(result.winners)} after {result.turns} turns and {len(result.decisions)} decisions."
    )


sim_cli.register(app)
store_cli.register(app)
tui_cli.register(app)
web_cli.register(app)


if __name__ == "__main__":
    app()
