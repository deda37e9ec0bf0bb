"""`munchkin simulate`, `tournament`, `bench`, `profile` and `build-engine`: `register(app)` adds them to the
main command."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from munchkin import bench as bench_module
from munchkin import table_options
from munchkin.engine import ENGINE
from munchkin.sim import tournament
from munchkin.sim.console import check_config, check_sets, fail, names, run_games
from munchkin.sim.simulate import BOT_KINDS, SimConfig, cards_for, report_data

DEFAULT_OUT = Path("sim-report")


def _folder_for(out: Path) -> None:
    """Make the folder output goes to, or refuse, before any game starts."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"cannot write to {out}: {exc.strerror or exc}") from None


def _cannot_write(path: Path, exc: OSError) -> typer.Exit:
    return fail(f"cannot write {path}: {exc.strerror or exc}")


def simulate(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    players: Annotated[int, typer.Option(min=2, max=6, help="Players per game.")] = 4,
    bots: Annotated[
        str, typer.Option(help=f"Bot kinds by seat, comma separated ({', '.join(BOT_KINDS)}).")
    ] = "random",
    sets: Annotated[str, typer.Option(help="Card sets, comma separated.")] = "base",
    seed: Annotated[
        int, typer.Option(help="Seed of the run; each game's seed follows from it and its index.")
    ] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Local worker processes.")] = os.cpu_count() or 1,
    ray: Annotated[
        str | None, typer.Option(help="Run on Ray instead: 'auto', 'local' or a cluster address.")
    ] = None,
    max_decisions: Annotated[
        int, typer.Option(min=1, help="Decisions after which a game is abandoned.")
    ] = 100_000,
    out: Annotated[Path, typer.Option(help="Folder for report.json, report.html and PNGs.")] = DEFAULT_OUT,
    as_json: Annotated[
        bool, typer.Option("--json", help="Also print the report as one JSON object.")
    ] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help=table_options.OPTION_HELP)
    ] = None,
) -> None:
    """Play many games between bots in parallel, every one by the same table options, and
    write a report (JSON, HTML, PNG)."""
    options = table_options.from_command_line(option or [])
    config = SimConfig(games, players, names(bots), names(sets), seed, max_decisions, options)
    check_config(config)
    _folder_for(out)
    try:
        from munchkin.sim.report import write_report  # matplotlib is loaded only here
    except ImportError as exc:
        raise fail(f"{exc}: install the report extra: pip install -e '.[report]'") from None

    records, seconds, runner = run_games(config, workers, ray)
    data = report_data(config, records, seconds, runner)
    try:
        paths = write_report(data, out)
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    if as_json:
        typer.echo(json.dumps(data))
    else:
        typer.echo(f"{games} games in {seconds:.1f} s ({games / seconds:.2f} games/s): {paths['html']}")


UNO_SEEDS = 2**32 - 1
"""The largest seed RLCard's UNO, timed beside ours, accepts."""


def bench(
    games: Annotated[int, typer.Option(min=1, help="Complete random games timed on one core.")] = 20,
    players: Annotated[int, typer.Option(min=2, max=6)] = 4,
    seed: Annotated[int, typer.Option()] = 0,
    sets: Annotated[str, typer.Option()] = "base",
    samples: Annotated[
        int, typer.Option(min=2, help="Mid-game states timed for legal_actions and copy.")
    ] = 500,
    uno_games: Annotated[int, typer.Option(min=1, help="RLCard UNO games per loop.")] = 500,
    sim_games: Annotated[int, typer.Option(min=2, help="Games simulated with 1, then 2 workers.")] = 64,
    engines: Annotated[
        str,
        typer.Option(
            help="The engine measured: 'this' (the one this process runs, see MUNCHKIN_ENGINE), "
            "'pure', 'compiled', or 'both' side by side, each in a process of its own."
        ),
    ] = "this",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Engine speed: games/s, decisions/s, legal_actions and copy times, memory per state,
    RLCard UNO for comparison, simulate speed-up; each also as a ratio to a baseline loop."""
    if not 0 <= seed <= UNO_SEEDS:
        raise fail(f"--seed {seed}: from 0 to {UNO_SEEDS} (RLCard's UNO takes no other)")
    settings = bench_module.BenchSettings(games, players, seed, names(sets), samples, uno_games, sim_games)
    check_sets(settings.sets)
    chosen = {"this": (), "both": bench_module.ENGINES}.get(engines, (engines,))
    if any(e not in bench_module.ENGINES for e in chosen):
        raise fail(f"--engines {engines}: choose this, pure, compiled or both")
    try:
        figures = bench_module.run(settings, chosen)
    except bench_module.BenchError as exc:
        raise fail(str(exc)) from None
    typer.echo(json.dumps(figures) if as_json else bench_module.as_text(figures))


def profile(
    out: Annotated[Path, typer.Option(help="The HTML page to write.")] = Path("profile.html"),
    games: Annotated[int, typer.Option(min=1, help="Complete random games profiled.")] = 5,
    players: Annotated[int, typer.Option(min=2, max=6)] = 4,
    seed: Annotated[int, typer.Option()] = 0,
    sets: Annotated[str, typer.Option()] = "base",
) -> None:
    """Where the engine's time goes: pyinstrument's profile of complete random games (the
    loop `bench` times), as an HTML page, with the slowest call paths printed. Always on the
    pure engine, the same source as the compiled one: a profiler sees Python functions only."""
    settings = bench_module.BenchSettings(games, players, seed, names(sets))
    check_sets(settings.sets)
    _folder_for(out.parent)
    if ENGINE == "compiled":  # a profiler sees Python frames only: profile the same source, pure
        try:
            importlib.import_module("pyinstrument")
        except ImportError as exc:
            raise fail(f"{exc}: install the bench extra: pip install -e '.[bench]'") from None
        args = ["profile", "--out", str(out), "--games", str(games), "--players", str(players)]
        args += ["--seed", str(seed), "--sets", sets]
        code = "import sys; from munchkin.cli import app; sys.argv[0] = 'munchkin'; app()"
        env = {**os.environ, "MUNCHKIN_ENGINE": "pure"}
        done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True)
        typer.echo(done.stdout, nl=False)
        if done.returncode != 0:
            typer.echo(done.stderr, err=True, nl=False)
            raise typer.Exit(done.returncode)
        return
    try:
        session = bench_module.profile_games(cards_for(settings.sets), settings)
    except ImportError as exc:
        raise fail(f"{exc}: install the bench extra: pip install -e '.[bench]'") from None
    from pyinstrument.renderers import ConsoleRenderer, HTMLRenderer

    try:
        out.write_text(HTMLRenderer().render(session), encoding="utf-8")
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    typer.echo(ConsoleRenderer(unicode=True, color=False).render(session))
    typer.echo(f"profile of {games} games: {out}")


def build_engine(
    clean: Annotated[bool, typer.Option("--clean", help="Remove the compiled engine.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Show mypyc's and the compiler's output.")
    ] = False,
) -> None:
    """Compile the engine with mypyc (the compile extra and a C compiler): the same source, run
    by default from then on, as long as the engine's sources are unchanged (MUNCHKIN_ENGINE=pure
    runs the pure engine still). About a minute on two cores."""
    from munchkin import build_engine as builder  # imports mypyc's build only when asked

    builder.main(["--clean"] if clean else ["--verbose"] if verbose else [])


def register(app: typer.Typer) -> None:
    """Add `simulate`, `tournament`, `bench`, `profile` and `build-engine` to the main command."""
    app.command(epilog=table_options.epilog())(simulate)
    app.command(epilog=table_options.epilog())(tournament.tournament)
    app.command()(bench)
    app.command()(profile)
    app.command(name="build-engine")(build_engine)
