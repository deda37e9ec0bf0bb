"""Win rate of the heuristic bot against three random bots, with a 95% confidence interval.

Plays N seeded 4-player games per card-set choice; in game `seed` the heuristic bot sits in
seat `seed % 4`, the random bots elsewhere. Prints, for each choice, the wins (a game the bot
wins together with another player, B2, counts as a win), the win rate with its Wilson score
interval, the mean number of turns and the CPU time per game.

    .venv/bin/python benchmarks/winrate.py --games 400
    .venv/bin/python benchmarks/winrate.py --games 100 --sets base

`--without WORD` measures what a kind of card is worth to the bot: the heuristic bot never
plays (or uses with any verb but discard, sell, equip, unequip, keep) a card whose type or
one of whose effect words is WORD, whenever it has another choice; the same seeds otherwise.

    .venv/bin/python benchmarks/winrate.py --games 800 --without send_away

`--cards FILE...` plays card-set files instead of the built-in sets (for instance an older
version of a set, taken out of git with `git show REV:src/munchkin/cards/sets/base.yaml`).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from munchkin.bots import Bot
from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import CardLoadError, load_builtin_sets, load_sets_from_paths
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.match import play_match, seat_players
from munchkin.sim.stats import wilson
from munchkin.views import PlayerView

PLAYERS = 4
CHOICES = {"base": ["base"], "base+horses": ["base", "horses"]}
KEPT_VERBS = ("discard", "sell", "equip", "unequip", "keep")
"""Verbs `--without` still allows for the cards it takes away."""


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    turns: int = 0
    cpu_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.games


class WithoutBot(HeuristicBot):
    """The heuristic bot that leaves aside the cards of one type or effect word."""

    def __init__(self, seed: int, cards: Sequence[CardDef], word: str) -> None:
        super().__init__(seed, cards)
        self.word = word

    def choose(self, view: PlayerView) -> Action:
        kept = [a for a in view.legal if a.verb in KEPT_VERBS or not self._leaves_aside(a.arg)]
        if kept and len(kept) < len(view.legal):
            view = replace(view, legal=kept)
        return super().choose(view)

    def _leaves_aside(self, card_id: str | None) -> bool:
        card = self.defs.get(card_id or "")
        return card is not None and (card.type == self.word or any(e.kind == self.word for e in card.effects))


def seat_bots(seed: int, cards: Sequence[CardDef], without: str | None = None) -> list[Bot]:
    """Random bots everywhere but seat `seed % 4`, where the heuristic bot sits."""
    bots: list[Bot] = [RandomBot(seed * 10 + i) for i in range(PLAYERS)]
    bots[seed % PLAYERS] = HeuristicBot(seed, cards) if without is None else WithoutBot(seed, cards, without)
    return bots


def measure(cards: Sequence[CardDef], games: int, without: str | None = None) -> Tally:
    tally = Tally()
    names = [name for name, _ in seat_players(PLAYERS)]
    for seed in range(games):
        start = time.process_time()
        result = play_match(cards, PLAYERS, seed, seat_bots(seed, cards, without))
        tally.cpu_seconds += time.process_time() - start
        tally.games += 1
        tally.wins += names[seed % PLAYERS] in result.winners  # a shared win is a win (B2)
        tally.turns += result.turns
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per card-set choice")
    parser.add_argument("--sets", choices=[*CHOICES, "both"], default="both")
    parser.add_argument("--without", metavar="WORD", help="a card type or effect word the bot leaves aside")
    parser.add_argument(
        "--cards", nargs="+", type=Path, metavar="FILE", help="card-set files to play instead of --sets"
    )
    args = parser.parse_args()
    choices = CHOICES if args.sets == "both" else {args.sets: CHOICES[args.sets]}
    for name, sets in ({"files": args.cards} if args.cards else choices).items():
        try:
            cards = load_sets_from_paths(sets) if args.cards else load_builtin_sets(sets)
        except CardLoadError as error:
            parser.error(f"--cards: {error}")
        if args.without and not any(
            c.type == args.without or any(e.kind == args.without for e in c.effects) for c in cards
        ):
            parser.error(f"--without {args.without}: no card of {name} has that type or effect word")
        tally = measure(cards, args.games, args.without)
        low, high = wilson(tally.wins, tally.games)
        print(
            f"{name:12} heuristic vs 3 random: {tally.wins}/{tally.games} won = {tally.rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}); {tally.turns / tally.games:.0f} turns/game, "
            f"{tally.cpu_seconds / tally.games * 1000:.0f} ms CPU/game"
        )


if __name__ == "__main__":
    main()
