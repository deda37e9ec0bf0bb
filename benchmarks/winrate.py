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

Several words may be given, comma-separated (`--without send_away,twin`).
`--opponents-without WORD[,WORD...]` does the same to the random bots: what the heuristic
bot loses when its opponents hold those cards too.

    .venv/bin/python benchmarks/winrate.py --games 2000 --sets base --opponents-without send_away

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


def leaves_aside(defs: dict[str, CardDef], words: frozenset[str], card_id: str | None) -> bool:
    """Whether a card is of one of these types or has one of these effect words."""
    card = defs.get(card_id or "")
    return card is not None and (card.type in words or any(e.kind in words for e in card.effects))


def without(view: PlayerView, defs: dict[str, CardDef], words: frozenset[str]) -> PlayerView:
    """The view with the actions that use such cards taken out, unless nothing else is left
    (discarding, selling, equipping, unequipping or keeping them stays)."""
    kept = [a for a in view.legal if a.verb in KEPT_VERBS or not leaves_aside(defs, words, a.arg)]
    return replace(view, legal=kept) if kept and len(kept) < len(view.legal) else view


class WithoutBot(HeuristicBot):
    """The heuristic bot that leaves aside the cards of some types or effect words."""

    def __init__(self, seed: int, cards: Sequence[CardDef], words: frozenset[str]) -> None:
        super().__init__(seed, cards)
        self.words = words

    def choose(self, view: PlayerView) -> Action:
        return super().choose(without(view, self.defs, self.words))


class RandomWithout(RandomBot):
    """The random bot that leaves aside the cards of some types or effect words."""

    def __init__(self, seed: int, cards: Sequence[CardDef], words: frozenset[str]) -> None:
        super().__init__(seed)
        self.defs = {c.id: c for c in cards}
        self.words = words

    def choose(self, view: PlayerView) -> Action:
        return super().choose(without(view, self.defs, self.words))


def seat_bots(
    seed: int,
    cards: Sequence[CardDef],
    words: frozenset[str] = frozenset(),
    opponent_words: frozenset[str] = frozenset(),
) -> list[Bot]:
    """Random bots everywhere but seat `seed % 4`, where the heuristic bot sits; each leaving
    aside the cards of its words, if any."""
    bots: list[Bot] = [
        RandomWithout(seed * 10 + i, cards, opponent_words) if opponent_words else RandomBot(seed * 10 + i)
        for i in range(PLAYERS)
    ]
    bots[seed % PLAYERS] = WithoutBot(seed, cards, words) if words else HeuristicBot(seed, cards)
    return bots


def measure(
    cards: Sequence[CardDef],
    games: int,
    words: frozenset[str] = frozenset(),
    opponent_words: frozenset[str] = frozenset(),
) -> Tally:
    tally = Tally()
    names = [name for name, _ in seat_players(PLAYERS)]
    for seed in range(games):
        start = time.process_time()
        result = play_match(cards, PLAYERS, seed, seat_bots(seed, cards, words, opponent_words))
        tally.cpu_seconds += time.process_time() - start
        tally.games += 1
        tally.wins += names[seed % PLAYERS] in result.winners  # a shared win is a win (B2)
        tally.turns += result.turns
    return tally


def word_set(text: str | None) -> frozenset[str]:
    """Comma-separated words."""
    return frozenset(w.strip() for w in (text or "").split(",") if w.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per card-set choice")
    parser.add_argument("--sets", choices=[*CHOICES, "both"], default="both")
    parser.add_argument(
        "--without", metavar="WORD[,WORD]", help="card types or effect words the bot leaves aside"
    )
    parser.add_argument(
        "--opponents-without",
        metavar="WORD[,WORD]",
        help="card types or effect words the random bots leave aside",
    )
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
        defs = {c.id: c for c in cards}
        for option, text in (("--without", args.without), ("--opponents-without", args.opponents_without)):
            for word in sorted(word_set(text)):
                if not any(leaves_aside(defs, frozenset({word}), c.id) for c in cards):
                    parser.error(f"{option} {word}: no card of {name} has that type or effect word")
        tally = measure(cards, args.games, word_set(args.without), word_set(args.opponents_without))
        low, high = wilson(tally.wins, tally.games)
        print(
            f"{name:12} heuristic vs 3 random: {tally.wins}/{tally.games} won = {tally.rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}); {tally.turns / tally.games:.0f} turns/game, "
            f"{tally.cpu_seconds / tally.games * 1000:.0f} ms CPU/game"
        )


if __name__ == "__main__":
    main()
