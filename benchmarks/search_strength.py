"""The search bot's strength and speed (issue 16): one search bot against three opponents
of a kind, seats rotated as `munchkin simulate` rotates them, in one process.

Each game is written as one JSON line to `--out` as soon as it ends (a long run can be
stopped at any time and summed up with `--summary`): the seats' kinds, the winners' kinds,
the turns, and the search bot's searched decisions (their time in ms and iterations; a
forced decision is not searched and not counted). The summary gives the search bot's win
rate with its Wilson 95% interval (a shared win counts as a win), the median decision time
against the budget and the iterations per decision and per second.

    nice -n 10 .venv/bin/python benchmarks/search_strength.py --against heuristic \\
        --games 40 --think-ms 100 --out /tmp/vs_heuristic.jsonl
    .venv/bin/python benchmarks/search_strength.py --summary /tmp/vs_heuristic.jsonl
    .venv/bin/python benchmarks/search_strength.py --plot docs/search-strength.png \\
        --from /tmp/vs_heuristic.jsonl /tmp/vs_random.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from munchkin.bots.registry import make_bot
from munchkin.bots.search import SearchBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.match import play_match, seat_players
from munchkin.sim.simulate import derive_seed, seat_kinds
from munchkin.sim.stats import wilson

PLAYERS = 4


def play(index: int, args: argparse.Namespace) -> dict[str, Any]:
    """Game `index`: the bot measured (`--bot`; `heuristic` for a baseline on the same seeds)
    in seat `index % 4`, the opponents elsewhere."""
    cards = load_builtin_sets(args.sets.split(","))
    seed = derive_seed(args.seed, index)
    kinds = seat_kinds([args.bot] + [args.against] * (PLAYERS - 1), PLAYERS, index)
    bots = [
        make_bot(kind, derive_seed(seed, seat), cards, think_ms=args.think_ms, iterations=args.iterations)
        for seat, kind in enumerate(kinds)
    ]
    searched: list[tuple[float, int]] = []
    for bot in bots:
        if isinstance(bot, SearchBot):
            choose = bot.choose

            def timed(view: Any, bot: SearchBot = bot, choose: Any = choose) -> Any:
                action = choose(view)
                if bot.last.iterations:
                    searched.append((round(bot.last.seconds * 1000, 2), bot.last.iterations))
                return action

            bot.choose = timed  # type: ignore[method-assign]
    started = time.perf_counter()
    result = play_match(cards, PLAYERS, seed, bots, max_decisions=args.max_decisions)
    seat_of = {name: i for i, (name, _) in enumerate(seat_players(PLAYERS))}
    return {
        "index": index,
        "seed": seed,
        "kinds": kinds,
        "winners": [kinds[seat_of[w]] for w in result.winners],
        "bot_seat": (-index) % PLAYERS,
        "winner_seats": [seat_of[w] for w in result.winners],
        "turns": result.turns,
        "decisions": len(result.decisions),
        "seconds": round(time.perf_counter() - started, 2),
        "searched": searched,
        "budget": {"think_ms": args.think_ms, "iterations": args.iterations},
    }


def won(game: dict[str, Any], bot: str) -> bool:
    """Whether the measured bot won the recorded game (by its seat: the opponents may be of
    its kind)."""
    if "bot_seat" in game:
        return bool(game["bot_seat"] in game["winner_seats"])
    return bot in game["winners"]


def summary(path: Path, bot: str) -> dict[str, Any]:
    """The win rate, decision times and iterations of the games in `path`."""
    try:
        lines = path.read_text().splitlines()
        games = [json.loads(line) for line in lines if line.strip()]
    except (OSError, json.JSONDecodeError) as error:
        raise SystemExit(f"{path}: cannot read recorded games ({error})") from None
    if not games:
        raise SystemExit(f"{path}: no games recorded yet")
    wins = sum(1 for g in games if won(g, bot))
    low, high = wilson(wins, len(games))
    times = [ms for g in games for ms, _ in g["searched"]]
    iterations = [n for g in games for _, n in g["searched"]]
    return {
        "file": str(path),
        "games": len(games),
        "wins": wins,
        "win_rate": round(wins / len(games), 3),
        "ci95": [round(low, 3), round(high, 3)],
        "budget": games[0]["budget"],
        "searched_decisions": len(times),
        "median_decision_ms": round(statistics.median(times), 1) if times else None,
        "p90_decision_ms": round(statistics.quantiles(times, n=10)[-1], 1) if len(times) > 1 else None,
        "median_iterations": statistics.median(iterations) if iterations else None,
        "iterations_per_second": round(sum(iterations) / (sum(times) / 1000), 1) if times else None,
        "median_turns": statistics.median(g["turns"] for g in games),
        "abandoned": sum(1 for g in games if not g["winners"]),
        "seconds": round(sum(g["seconds"] for g in games)),
    }


def measured(first: dict[str, Any]) -> tuple[str, str]:
    """The kind of bot a record measured (in its `bot_seat`) and the kind it played against."""
    kinds = first["kinds"]
    bot = kinds[first["bot_seat"]] if "bot_seat" in first else kinds[0]
    return bot, next((kind for kind in kinds if kind != bot), bot)


def plot(paths: list[Path], out: Path) -> None:
    """Win rate (with its Wilson interval) against think time, one line per measured bot
    and opponent kind, from recorded games (the report extra's matplotlib); records of a bot
    that does not search (the heuristic bot in the same seat, on the same seeds) are drawn
    as a dotted level line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines: dict[tuple[str, str], list[tuple[float, dict[str, Any]]]] = {}
    for path in paths:
        first = json.loads(path.read_text().splitlines()[0])
        bot, against = measured(first)
        think_ms = first["budget"]["think_ms"]
        if think_ms is None and bot != "heuristic":
            raise SystemExit(f"{path}: games with an iteration budget have no think time to plot")
        lines.setdefault((bot, against), []).append((think_ms or 0.0, summary(path, bot)))
    figure, axes = plt.subplots(figsize=(6.5, 4.5))
    for (bot, against), points in sorted(lines.items()):
        points.sort(key=lambda point: point[0])
        games = ", ".join(str(s["games"]) for _, s in points)
        if bot == "heuristic":
            for _, s in points:
                axes.axhline(
                    s["win_rate"], linestyle=":", color="black" if against == "heuristic" else "green"
                )
                axes.annotate(
                    f"heuristic bot, same seeds, vs 3 {against} ({s['games']} games)",
                    (0.02, s["win_rate"]),
                    xycoords=("axes fraction", "data"),
                    fontsize=7,
                    va="bottom",
                )
            continue
        xs = [ms for ms, _ in points]
        rates = [s["win_rate"] for _, s in points]
        errors = [
            [r - s["ci95"][0] for r, (_, s) in zip(rates, points, strict=True)],
            [s["ci95"][1] - r for r, (_, s) in zip(rates, points, strict=True)],
        ]
        axes.errorbar(
            xs, rates, yerr=errors, marker="o", capsize=4, label=f"{bot} vs 3 {against} ({games} games)"
        )
    axes.axhline(0.25, color="grey", linestyle="--", label="equal share")
    axes.set_xscale("log")
    budgets = sorted({ms for (bot, _), points in lines.items() if bot != "heuristic" for ms, _ in points})
    axes.set_xticks(budgets, [f"{ms:g}" for ms in budgets])
    axes.minorticks_off()
    axes.set_xlabel("think time per decision (ms)")
    axes.set_ylabel("win rate of the bot measured (Wilson 95%)")
    axes.set_ylim(0, 1)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="search", choices=("search", "cheat", "heuristic"))
    parser.add_argument("--against", default="heuristic", choices=("heuristic", "random", "search"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to resume)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--sets", default="base")
    parser.add_argument("--think-ms", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--max-decisions", type=int, default=100_000)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, help="sum up a file of recorded games and stop")
    parser.add_argument("--plot", type=Path, help="plot the win rates of the --from files to this image")
    parser.add_argument("--from", dest="sources", type=Path, nargs="*", default=[])
    args = parser.parse_args(argv)
    if args.plot:
        plot(args.sources, args.plot)
        return
    if args.summary:
        print(json.dumps(summary(args.summary, args.bot), indent=1))
        return
    if args.out is None:
        parser.error("--out is required to record games")
    if args.think_ms is None and args.iterations is None:
        parser.error("give the search bot's budget: --think-ms or --iterations")
    with args.out.open("a") as out:
        for index in range(args.first, args.first + args.games):
            record = play(index, args)
            out.write(json.dumps(record) + "\n")
            out.flush()
            print(index, record["winners"], record["turns"], record["seconds"], file=sys.stderr, flush=True)
    print(json.dumps(summary(args.out, args.bot), indent=1))


if __name__ == "__main__":
    main()
