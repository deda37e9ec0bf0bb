"""The benchmark: random legal decisions through complete games on one core.

Prints games/s, decisions/s and the median microseconds of `legal_actions` and
of copying a state, measured on states taken from those games.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.engine.game import Game
from munchkin.match import play_match


@dataclass
class BenchResult:
    games: int
    decisions: int
    seconds: float
    legal_actions_us: float
    copy_us: float
    baseline_us: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _baseline_us(repeats: int = 2000) -> float:
    """A fixed piece of plain Python, timed in the same run: figures are read as ratios."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        sorted(range(200, 0, -1))
        samples.append(time.perf_counter() - start)
    return _median_us(samples)


def run(cards: Sequence[CardDef], games: int = 20, players: int = 4, seed: int = 0) -> BenchResult:
    """Play `games` seeded games, then time `legal_actions` and `copy` on sampled states."""
    sampled: list[Game] = []

    def sample(game: Game, player: str, action: object) -> None:
        if len(sampled) < 2000 and game.state.turn % 7 == 0:
            sampled.append(game.copy())

    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        bots = [RandomBot(seed * 1000 + i * 10 + s) for s in range(players)]
        result = play_match(cards, players, seed + i, bots, after_decision=None)
        decisions += len(result.decisions)
    seconds = time.perf_counter() - start
    bots = [RandomBot(seed + s) for s in range(players)]
    play_match(cards, players, seed + games, bots, after_decision=sample)
    legal, copies = [], []
    for game in sampled:
        who = game.waiting_for()[0] if game.waiting_for() else game.players[0]
        t0 = time.perf_counter()
        game.legal_actions(who)
        t1 = time.perf_counter()
        game.copy()
        t2 = time.perf_counter()
        legal.append(t1 - t0)
        copies.append(t2 - t1)
    return BenchResult(games, decisions, seconds, _median_us(legal), _median_us(copies), _baseline_us())
