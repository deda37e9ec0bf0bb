"""What `munchkin simulate` and `munchkin tournament` share on the command line: one-line
errors, the checks made before any game starts, the progress bar, and running the games
here or on Ray."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from munchkin.cards.loader import CardLoadError
from munchkin.engine.game import Game, SetupError
from munchkin.match import seat_players
from munchkin.sim.simulate import BOT_KINDS, Record, SimConfig, cards_for, run_local, timed


def names(text: str) -> tuple[str, ...]:
    """A comma-separated list, its blanks left out."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def fail(message: str) -> typer.Exit:
    """Print `error: message` on stderr; the exit to raise (status 2)."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def check_sets(sets: tuple[str, ...]) -> None:
    """Refuse unknown card sets, and sets too small for a game, before any game starts."""
    try:
        Game.new(cards_for(sets), seat_players(2))
    except (CardLoadError, SetupError) as exc:
        raise fail(str(exc)) from None


def check_config(config: SimConfig) -> None:
    """Refuse unknown bots and card sets before any game starts."""
    unknown = [kind for kind in config.bots if kind not in BOT_KINDS]
    if unknown or not config.bots:
        raise fail(f"unknown bots {unknown or '(none)'}; choose from {', '.join(BOT_KINDS)}")
    check_sets(config.sets)


class _Rate(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        return Text("" if task.speed is None else f"{task.speed:.2f} games/s")


@contextmanager
def progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr; yields the function that counts one game done. The bar is
    redrawn when a game is done rather than by a thread of its own, so that workers can be
    forked (see `simulate.pool_context`)."""
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), _Rate(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), auto_refresh=False) as bar:
        task = bar.add_task("games", total=total)
        yield lambda: bar.update(task, advance=1, refresh=True)


def run_games(config: SimConfig, workers: int, ray: str | None) -> tuple[list[Record], float, str]:
    """Every game of the run, under a progress bar, on `workers` local processes or on Ray
    (`ray`: its address): the records in index order, the seconds taken, and the runner."""
    with progress(config.games) as done:
        if ray:
            from munchkin.sim.distributed import RayMissing, run_ray

            try:
                records, seconds = timed(lambda: run_ray(config, ray, done))
            except RayMissing as exc:
                raise fail(str(exc)) from None
        else:
            records, seconds = timed(lambda: run_local(config, workers, done))
    runner = f"ray ({ray})" if ray else f"local ({workers} worker{'s' if workers > 1 else ''})"
    return records, seconds, runner
