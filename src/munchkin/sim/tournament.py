"""`munchkin tournament`: bot kinds against each other, each kind's win rate with its Wilson
95% interval and an openskill rating.

The games are the simulator's (`munchkin.sim.simulate`): one seat per bot listed, the list
shifted one seat per game so that each bot sits everywhere, every game's seed and bots
following from the run's seed and the game's index, played on local workers or Ray. The
results are the same for any number of workers (search bots given `--iterations`; a time
budget, `--think-ms`, depends on the machine's speed).

A kind's win rate is over the seats it held: with three heuristic seats, a game counts three
times for the heuristic, and 1 / players is an equal share. A shared win (B2) is a win for
each winner. Ratings are openskill's Plackett-Luce, updated game after game in index order:
each seat is one player holding its kind's rating, the winners share first place and the
others second; a kind's new rating is the mean of its seats' after the game. A game
abandoned unfinished counts as a loss for every seat and leaves the ratings as they were.
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Sequence
from dataclasses import asdict
from typing import Annotated, Any

import typer
from openskill.models import PlackettLuce

from munchkin import table_options
from munchkin.bots.registry import KINDS
from munchkin.sim.console import check_config, fail, names, run_games
from munchkin.sim.simulate import Record, SimConfig
from munchkin.sim.stats import win_rate_by_bot, win_rate_by_seat

MAX_THINK_MS = 600_000
"""The longest think time a search bot is given (inf or more would never decide)."""
KIND_HELP = "; ".join(f"{name} ({kind.summary})" for name, kind in KINDS.items())


def ratings(records: Sequence[Record]) -> dict[str, dict[str, float]]:
    """Each kind's openskill rating after the games, in their order: `mu`, `sigma` and the
    conservative `ordinal` (mu - 3 sigma)."""
    model = PlackettLuce()
    current = {kind: model.rating() for r in records for kind in r["bots"]}
    for r in records:
        if not r["winners"]:
            continue
        teams = [[model.rating(mu=current[kind].mu, sigma=current[kind].sigma)] for kind in r["bots"]]
        ranks: list[float] = [1.0 if seat in r["winners"] else 2.0 for seat in range(len(teams))]
        after = model.rate(teams, ranks=ranks)
        for kind in set(r["bots"]):
            seats = [team[0] for team, held in zip(after, r["bots"], strict=True) if held == kind]
            mu = sum(s.mu for s in seats) / len(seats)
            sigma = sum(s.sigma for s in seats) / len(seats)
            current[kind] = model.rating(mu=mu, sigma=sigma)
    return {
        kind: {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
        for kind, rating in sorted(current.items())
    }


def decision_ms(records: Sequence[Record]) -> dict[str, dict[str, float]]:
    """Each kind's thinking time per decision with a choice, in milliseconds: how many,
    the median, the 90th percentile and the longest."""
    times: dict[str, list[float]] = {}
    for r in records:
        for kind, seat_times in zip(r["bots"], r["think_ms"], strict=True):
            times.setdefault(kind, []).extend(seat_times)
    figures = {}
    for kind, found in sorted(times.items()):
        found.sort()
        figures[kind] = {
            "decisions": len(found),
            "median": statistics.median(found) if found else 0.0,
            "p90": found[int(0.9 * (len(found) - 1))] if found else 0.0,
            "max": found[-1] if found else 0.0,
        }
    return figures


def results(config: SimConfig, records: Sequence[Record], seconds: float, runner: str) -> dict[str, Any]:
    """The tournament as plain data: its configuration, `win_rate_by_bot` (each kind's wins,
    seats held, rate and Wilson 95% interval), `ratings`, `win_rate_by_seat`, each game's
    seed, bots by seat, winners and turns (`per_game`), and timing."""
    return {
        "config": {**asdict(config), "options": config.options.changed()},
        "games": len(records),
        "finished": sum(1 for r in records if r["winners"]),
        "shared_wins": sum(1 for r in records if len(r["winners"]) > 1),
        "win_rate_by_bot": win_rate_by_bot(records),
        "ratings": ratings(records),
        "win_rate_by_seat": win_rate_by_seat(records, config.players),
        "per_game": [{key: r[key] for key in ("index", "seed", "bots", "winners", "turns")} for r in records],
        "timing": {"runner": runner, "seconds": seconds, "decision_ms": decision_ms(records)},
    }


def as_text(data: dict[str, Any]) -> str:
    """The results as a table, the strongest rating first."""
    config = data["config"]
    budget = ""
    if config["iterations"] is not None:
        budget = f", search {config['iterations']} iterations"
    elif config["think_ms"] is not None:
        budget = f", search {config['think_ms']:g} ms"
    lines = [
        f"{data['games']} games of {config['players']} seats ({', '.join(config['bots'])}, rotating), "
        f"sets {', '.join(config['sets'])}, seed {config['seed']}{budget}: "
        f"{data['timing']['seconds']:.1f} s on {data['timing']['runner']}",
        f"{'bot':<10} {'seats':>6} {'wins':>6} {'win rate':>9}  {'95% interval':<16} "
        f"{'rating':>14} {'ordinal':>8} {'ms/decision':>12}",
    ]
    by_rating = sorted(data["ratings"], key=lambda kind: -data["ratings"][kind]["ordinal"])
    for kind in by_rating:
        won, rated = data["win_rate_by_bot"][kind], data["ratings"][kind]
        thought = data["timing"]["decision_ms"][kind]["median"]
        interval = "{:.1%} - {:.1%}".format(*won["ci95"])
        rating = f"{rated['mu']:.1f} ± {rated['sigma']:.1f}"
        lines.append(
            f"{kind:<10} {won['games']:>6} {won['wins']:>6} {won['rate']:>9.1%}  "
            f"{interval:<16} {rating:>14} {rated['ordinal']:>8.1f} {thought:>12.2f}"
        )
    equal = 1 / config["players"]
    lines.append(
        f"{data['finished']} finished, {data['shared_wins']} shared wins; an equal share is {equal:.1%}; "
        "ms/decision: the median thinking time of a decision with a choice."
    )
    return "\n".join(lines)


def tournament(
    bots: Annotated[
        str,
        typer.Option(help=f"One bot per seat, comma separated, rotating: {KIND_HELP}."),
    ] = "heuristic,easy,random",
    games: Annotated[int, typer.Option(help="Games to play (a multiple of the seats rotates evenly).")] = 100,
    sets: Annotated[str, typer.Option(help="Card sets, comma separated.")] = "base",
    seed: Annotated[
        int, typer.Option(help="Seed of the run; each game's seed follows from it and its index.")
    ] = 0,
    think_ms: Annotated[
        float | None, typer.Option(help="Search bots' thinking time per decision, in milliseconds.")
    ] = None,
    iterations: Annotated[
        int | None, typer.Option(help="Search bots' iterations per decision instead (reproducible).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Local worker processes.")] = os.cpu_count() or 1,
    ray: Annotated[
        str | None, typer.Option(help="Run on Ray instead: 'auto', 'local' or a cluster address.")
    ] = None,
    max_decisions: Annotated[int, typer.Option(help="Decisions after which a game is abandoned.")] = 100_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help=table_options.OPTION_HELP)
    ] = None,
) -> None:
    """Bots against each other, seats rotating: each kind's win rate with its Wilson 95%
    interval, and its openskill rating."""
    kinds = names(bots)
    positive: dict[str, float | None] = {"--games": games, "--workers": workers}
    positive |= {"--max-decisions": max_decisions, "--think-ms": think_ms, "--iterations": iterations}
    for flag, value in positive.items():
        if value is not None and not value > 0:
            raise fail(f"{flag} {value:g}: must be more than 0")
    if think_ms is not None and not think_ms <= MAX_THINK_MS:
        raise fail(f"--think-ms {think_ms:g}: at most {MAX_THINK_MS} (ten minutes a decision)")
    if not 2 <= len(kinds) <= 6:
        raise fail(f"--bots {bots!r}: one bot per seat, 2 to 6 of them")
    options = table_options.from_command_line(option or [])
    config = SimConfig(
        games, len(kinds), kinds, names(sets), seed, max_decisions, options, think_ms, iterations, timed=True
    )
    check_config(config)
    records, seconds, runner = run_games(config, workers, ray)
    data = results(config, records, seconds, runner)
    typer.echo(json.dumps(data) if as_json else as_text(data))
