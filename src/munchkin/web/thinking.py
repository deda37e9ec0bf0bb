"""Search bots on the server: they think in worker processes, within a budget per game.

A search bot (`hard`) thinking in a game's worker thread would hold Python's lock for its
whole budget, and every other game's decisions, and the event loop itself, would wait for
their turns at it. Here a search seat's `choose` sends the view (its legal actions and
data, never the game) to a process of the server's pool (`search_workers` of them) and the
thread only waits for the answer, holding nothing.

Each game has a `ThinkBudget`: search milliseconds refilled at `search_ms_per_minute` / 60
a second, at most `search_ms_per_decision` in store. A decision is granted what is in store,
up to `search_ms_per_decision`, and charged what the search took; with less than
`MIN_THINK_MS` in store the seat plays the heuristic's move instead. So a game never
thinks more than `search_ms_per_decision` plus `search_ms_per_minute` a minute, however
many search seats it has; a seat with one legal action answers at once, for nothing.

Each search starts from a seed of its own (the seat's seed and its count of decisions),
so a process needs nothing of the seat's earlier searches.
"""

from __future__ import annotations

import importlib
import multiprocessing
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from munchkin.bots import Bot
from munchkin.bots.registry import bot_of_seat, make_bot
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.session import make_seat_bot
from munchkin.sim.simulate import cards_for, derive_seed
from munchkin.views import PlayerView

MIN_THINK_MS = 20.0
"""Below this much budget in store, a search seat plays the heuristic's move."""
FALLBACK = "heuristic"


class ThinkBudget:
    """One game's search milliseconds: a bucket refilled at `per_minute` / 60 a second
    holding at most `per_decision` (see the module's text). Thread-safe."""

    def __init__(self, per_minute: float, per_decision: float) -> None:
        self.rate, self.cap = per_minute / 60_000.0, per_decision  # ms per ms, ms
        self.store = per_decision
        self.stamp = time.monotonic()
        self.spent = 0.0
        """Milliseconds searched so far."""
        self.searches = self.fallbacks = 0
        self._lock = threading.Lock()

    def grant(self) -> float:
        """Milliseconds the next decision may think (0: play the heuristic's move)."""
        with self._lock:
            now = time.monotonic()
            self.store = min(self.cap, self.store + (now - self.stamp) * 1000.0 * self.rate)
            self.stamp = now
            granted = min(self.cap, self.store)
            if granted < MIN_THINK_MS:
                self.fallbacks += 1
                return 0.0
            self.searches += 1
            return granted

    def charge(self, ms: float) -> None:
        """What a search took (it may take a little more than it was granted)."""
        with self._lock:
            self.store -= ms
            self.spent += ms


@dataclass(frozen=True)
class Seen:
    """What a search process is sent of a seat's view: its legal actions and data."""

    player: str
    legal: list[Action]
    data: dict[str, Any]


def _not_sent() -> dict[str, Any]:
    raise RuntimeError("a search process is sent the view's data with it")  # pragma: no cover


def _warm_up() -> None:
    """A search process imports the search bot before its first decision is timed."""
    importlib.import_module("munchkin.bots.search")


def think(kind: str, seed: int, sets: tuple[str, ...], seen: Seen, think_ms: float) -> tuple[Action, float]:
    """In a search process: the bot's decision, and the milliseconds it took."""
    started = time.perf_counter()
    bot = make_bot(kind, seed, cards_for(sets), think_ms=think_ms)
    action = bot.choose(PlayerView(seen.player, seen.legal, _not_sent, seen.data))
    return action, (time.perf_counter() - started) * 1000.0


class RemoteSearch:
    """A search seat of a game on the server: thinks in the pool, within the game's budget."""

    def __init__(self, game: GameBots, kind: str, seed: int, cards: Sequence[CardDef]) -> None:
        self.thinkers, self.sets, self.budget = game.thinkers, game.sets, game.budget
        self.kind, self.seed = kind, seed
        self.fallback = make_bot(FALLBACK, seed, cards)
        self.decisions = 0

    def choose(self, view: PlayerView) -> Action:
        """One legal action at once; else a search in the pool, or the heuristic's move when
        the game's budget is spent."""
        if len(view.legal) == 1:
            return view.legal[0]
        self.decisions += 1
        granted = self.budget.grant()
        if granted <= 0:
            return self.fallback.choose(view)
        seed = derive_seed(self.seed, self.decisions)
        seen = Seen(view.player, list(view.legal), view.data)
        try:
            future = self.thinkers.pool().submit(think, self.kind, seed, self.sets, seen, granted)
            action, took = future.result()
        except BrokenProcessPool:  # a search process died (killed, out of memory): start afresh
            self.thinkers.close()
            return self.fallback.choose(view)
        self.budget.charge(took)
        return action


@dataclass(frozen=True)
class GameBots:
    """A `BotMaker` for one game: its search seats think in the pool on the game's `budget`."""

    thinkers: Thinkers
    sets: tuple[str, ...]
    budget: ThinkBudget

    def __call__(self, seat_kind: str, seed: int, cards: Sequence[CardDef]) -> Bot:
        found = bot_of_seat(seat_kind)
        if found is None or not found.searches:
            return make_seat_bot(seat_kind, seed, cards)
        return RemoteSearch(self, found.name, seed, cards)


class Thinkers:
    """The server's search processes (started on first use) and every game's budget."""

    def __init__(self, workers: int, per_minute: float, per_decision: float) -> None:
        self.workers, self.per_minute, self.per_decision = workers, per_minute, per_decision
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:  # spawned: the server runs threads, a fork could copy their locks
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm_up)
            return self._pool

    def maker(self, sets: Sequence[str]) -> GameBots:
        """How one game (of these card sets) makes its bots."""
        return GameBots(self, tuple(sets), ThinkBudget(self.per_minute, self.per_decision))

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
