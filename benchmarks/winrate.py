"""Win rate of the heuristic bot against three random bots, with a 95% confidence interval.

Plays N seeded 4-player games per card-set choice; in game `seed` the heuristic bot sits in
seat `seed % 4`, the random bots elsewhere. Prints, for each choice, the wins (a game the bot
wins together with another player, B2, counts as a win), the win rate with its Wilson score
interval, the mean number of turns and the CPU time per game.

    .venv/bin/python benchmarks/winrate.py --games 400
    .venv/bin/python benchmarks/winrate.py --games 100 --sets base
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

from munchkin.bots import Bot
from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.match import play_match, seat_players
from munchkin.sim.stats import wilson

PLAYERS = 4
CHOICES = {"base": ["base"], "base+horses": ["base", "horses"]}


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    turns: int = 0
    cpu_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games


def seat_bots(seed: int, cards: Sequence[CardDef]) -> list[Bot]:
    """Random bots everywhere but seat `seed % 4`, where the heuristic bot sits."""
    bots: list[Bot] = [RandomBot(seed * 10 + i) for i in range(PLAYERS)]
    bots[seed % PLAYERS] = HeuristicBot(seed, cards)
    return bots


def measure(cards: Sequence[CardDef], games: int) -> Tally:
    tally = Tally()
    names = [name for name, _ in seat_players(PLAYERS)]
    for seed in range(games):
        start = time.process_time()
        result = play_match(cards, PLAYERS, seed, seat_bots(seed, cards))
        tally.cpu_seconds += time.process_time() - start
        tally.games += 1
        tally.wins += names[seed % PLAYERS] in result.winners  # a shared win is a win (B2)
        tally.turns += result.turns
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per card-set choice")
    parser.add_argument("--sets", choices=[*CHOICES, "both"], default="both")
    args = parser.parse_args()
    for name in CHOICES if args.sets == "both" else [args.sets]:
        tally = measure(load_builtin_sets(CHOICES[name]), args.games)
        low, high = wilson(tally.wins, tally.games)
        print(
            f"{name:12} heuristic vs 3 random: {tally.wins}/{tally.games} won = {tally.rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}); {tally.turns / tally.games:.0f} turns/game, "
            f"{tally.cpu_seconds / tally.games * 1000:.0f} ms CPU/game"
        )


if __name__ == "__main__":
    main()
