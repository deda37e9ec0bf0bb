"""Many games between bots, in parallel processes, with the same results whatever the
number of workers: each game's seed and bots follow from the run's seed and the game's
index alone, and the records are aggregated in index order."""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from functools import lru_cache
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from munchkin.bots import Bot
from munchkin.bots.registry import BOT_KINDS, make_bot
from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine import which
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.match import play_match, seat_players
from munchkin.sim.stats import GameRecorder, Record, aggregate
from munchkin.views import PlayerView

__all__ = ["BOT_KINDS", "SimConfig", "derive_seed", "make_bot", "run_local", "seat_kinds"]
T = TypeVar("T")


@dataclass(frozen=True)
class SimConfig:
    """What to simulate; `bots` are kinds (`munchkin.bots.registry`), given to the seats in
    turn (see `seat_kinds`); every game is played by the table `options`; search bots think
    for `think_ms` or `iterations` a decision (their default when both are None)."""

    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    sets: tuple[str, ...] = ("base",)
    seed: int = 0
    max_decisions: int = 100_000
    options: TableOptions = DEFAULT_OPTIONS
    think_ms: float | None = None
    iterations: int | None = None
    timed: bool = False
    """Record each seat's thinking time at every decision with a choice (`think_ms`)."""


def derive_seed(*parts: int) -> int:
    """A 48-bit seed that depends on `parts` only (not on Python's hash randomisation)."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def seat_kinds(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Bot kinds by seat for game `index`: the list shifted one seat per game, so that over
    the games each kind sits in every seat."""
    return [bots[(seat + index) % len(bots)] for seat in range(players)]


@lru_cache(maxsize=4)
def cards_for(sets: tuple[str, ...]) -> tuple[CardDef, ...]:
    """The built-in card sets, loaded once per process."""
    return tuple(load_builtin_sets(list(sets)))


def play_one(config: SimConfig, index: int) -> Record:
    """Game `index` of the run, played and summed up (runs in a worker), with the engine that
    played it ("compiled" or "pure", as the worker chose it on import: issue 15)."""
    cards = cards_for(config.sets)
    seed = derive_seed(config.seed, index)
    kinds = seat_kinds(config.bots, config.players, index)
    made = [
        make_bot(kind, derive_seed(seed, seat), cards, think_ms=config.think_ms, iterations=config.iterations)
        for seat, kind in enumerate(kinds)
    ]
    bots = [TimedBot(bot) for bot in made] if config.timed else made
    recorder = GameRecorder(cards, [name for name, _ in seat_players(config.players)])
    result = play_match(
        cards,
        config.players,
        seed,
        bots,
        config.max_decisions,
        on_event=recorder.on_event,
        after_decision=recorder.after_decision,
        options=config.options,
    )
    record = {"index": index, "seed": seed, "engine": which(), **recorder.record(result, kinds)}
    if config.timed:
        record["think_ms"] = [bot.times for bot in bots if isinstance(bot, TimedBot)]
    return record


class TimedBot:
    """A bot whose thinking time is written down (milliseconds) at each decision with a
    choice; a bot that `sees_state` is handed the game as before."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.sees_state = getattr(bot, "sees_state", False)
        self.times: list[float] = []

    def see(self, game: Game) -> None:
        self.bot.see(game)  # type: ignore[attr-defined]

    def choose(self, view: PlayerView) -> Action:
        if len(view.legal) == 1:
            return self.bot.choose(view)
        started = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append((time.perf_counter() - started) * 1000.0)
        return action


def pool_context() -> BaseContext:
    """How worker processes start: by "fork" on Linux when this process runs no other thread,
    else by "spawn".

    A forked worker starts in milliseconds, with this process's modules imported and cards
    loaded. A spawned one starts a new interpreter, which imports the main module again (for
    the `munchkin` command, the whole command line: about 0.8 s of a core per worker) before
    its first game. A fork while another thread runs could copy a lock that thread holds, so
    then, and on macOS and Windows, where forking is unsafe or missing, workers are spawned.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_local(config: SimConfig, workers: int, on_done: Callable[[], None] = lambda: None) -> list[Record]:
    """Every game of the run on this machine; records come back in index order.

    One worker plays the games in this process: a pool would only add the cost of starting a
    process and sending the records back, so the speed-up of more workers is measured against
    the fastest one-core run. More workers form a pool (see `pool_context`; a caller that may
    spawn needs the `__main__` guard), given one game at a time: games last from a few
    hundredths of a second to about a second, so chunks of games would leave workers idle
    while the last chunks finish, and a record (about 11 kB) costs far less to send than a
    game to play.
    """
    cards_for(config.sets)  # before the workers fork, so that they inherit the cards
    if workers <= 1:
        records = []
        for index in range(config.games):
            records.append(play_one(config, index))
            on_done()
        return records
    found: dict[int, Record] = {}
    with ProcessPoolExecutor(max_workers=min(workers, config.games), mp_context=pool_context()) as pool:
        futures = [pool.submit(play_one, config, index) for index in range(config.games)]
        for future in as_completed(futures):
            record = future.result()
            found[record["index"]] = record
            on_done()
    return [found[index] for index in range(config.games)]


def report_data(config: SimConfig, records: Sequence[Record], seconds: float, runner: str) -> dict[str, Any]:
    """The whole report as plain data: configuration (the table options not at their
    defaults), figures, per-game summaries and, apart (under `timing`), how long it took where
    and on which engines."""
    return {
        "config": {**asdict(config), "options": config.options.changed()},
        **aggregate(records, cards_for(config.sets), config.players),
        "per_game": [
            {key: r[key] for key in ("index", "seed", "bots", "winners", "turns", "decisions")}
            for r in records
        ],
        "timing": {
            "runner": runner,
            "engines": sorted({r["engine"] for r in records}),
            "seconds": seconds,
            "games_per_s": len(records) / seconds if seconds else 0.0,
        },
    }


def timed(run: Callable[[], T]) -> tuple[T, float]:
    """What `run` returns, and its wall-clock seconds."""
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start
