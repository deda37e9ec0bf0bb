"""The `munchkin` command: a thin adapter over the engine."""

from __future__ import annotations

import json
import random

import typer

from munchkin.bench import run as run_bench
from munchkin.bots.random_bot import RandomBot
from munchkin.cards import cli as cards_cli
from munchkin.cards.loader import CardLoadError, load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.events import Event
from munchkin.engine.game import SetupError
from munchkin.match import play_match
from munchkin.scenario import cli as scenario_cli
from munchkin.text import sentence

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


@app.command()
def demo(
    players: int = typer.Option(4, min=2, max=6, help="Number of bots at the table."),
    seed: int = typer.Option(None, help="Game seed (random when left out)."),
    sets: str = typer.Option("base", help="Card sets, comma separated."),
) -> None:
    """Watch a complete game between random bots, told as sentences."""
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
        result = play_match(cards, players, seed, bots, on_event=tell)
    except SetupError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"Winner: {result.winner or 'nobody'} after {result.turns} turns "
        f"and {len(result.decisions)} decisions."
    )


@app.command()
def bench(
    games: int = typer.Option(20, min=1, help="Complete games to play."),
    players: int = typer.Option(4, min=2, max=6),
    seed: int = typer.Option(0),
    sets: str = typer.Option("base"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Random legal decisions through complete games on one core."""
    r = run_bench(_cards(sets), games=games, players=players, seed=seed)
    figures = {
        "games": r.games,
        "decisions": r.decisions,
        "seconds": round(r.seconds, 2),
        "games_per_s": round(r.games_per_s, 3),
        "decisions_per_s": round(r.decisions_per_s),
        "legal_actions_median_us": round(r.legal_actions_us, 1),
        "copy_median_us": round(r.copy_us, 1),
        "baseline_median_us": round(r.baseline_us, 2),
        "legal_actions_vs_baseline": round(r.legal_actions_us / r.baseline_us, 1),
        "copy_vs_baseline": round(r.copy_us / r.baseline_us, 1),
    }
    if as_json:
        typer.echo(json.dumps(figures))
        return
    for key, value in figures.items():
        typer.echo(f"{key:>28}: {value}")


if __name__ == "__main__":
    app()
