"""The random bot: a seeded random choice among the legal actions.

Uniform choice makes hopeless players (they discard their own race, curse
themselves, sell their items as soon as they may) and games that last thousands of
turns, so by default a verb is chosen by its weight, then one of its actions:
cards are played and equipped, and help asked and given, more readily; own
cards discarded, items taken off, curses on oneself, cards for the monsters in
one's own fight, trades, thefts and sales rarely. Answers to a question
(`choose`) are picked among like any other verb's actions. Every legal action
keeps a chance; `uniform=True` gives the plain uniform choice.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Sequence
from itertools import accumulate
from typing import TypeVar

from munchkin.engine.actions import Action
from munchkin.views import PlayerView

T = TypeVar("T")

VERB_WEIGHTS = {
    "play": 5.0,
    "equip": 5.0,
    "accept_help": 5.0,
    "ask_help": 5.0,
    "discard": 0.02,
    "unequip": 0.1,
    "trade": 0.1,
    "steal": 0.1,
    "sell": 0.1,
}
SELF_HARM_WEIGHT = 0.02
FIGHTER_VERBS = ("resolve_combat", "ask_help", "berserk", "turn_undead", "charm")


class RandomBot:
    """Picks a legal action at random, from its own seeded source."""

    def __init__(self, seed: int = 0, uniform: bool = False) -> None:
        self.rng = random.Random(seed)
        self.uniform = uniform

    @staticmethod
    def weight(player: str, action: Action, fighting: bool) -> float:
        """Own harm is rare: a curse on oneself, a card for the monsters in one's own fight."""
        if action.verb == "play" and (action.target == player or (fighting and action.on)):
            return SELF_HARM_WEIGHT
        return 1.0

    def choose(self, view: PlayerView) -> Action:
        """A verb by its weight, then one of that verb's actions."""
        return self.pick(view.player, view.legal)

    def pick(self, player: str, actions: Sequence[Action]) -> Action:
        """The choice among `actions`, for `player`."""
        if self.uniform:
            return self.rng.choice(actions)
        by_verb: dict[str, list[Action]] = {}
        for a in actions:
            by_verb.setdefault(a.verb, []).append(a)
        verbs = list(by_verb)
        options = by_verb[weighted(self.rng, verbs, [VERB_WEIGHTS.get(v, 1.0) for v in verbs])]
        fighting = any(verb in by_verb for verb in FIGHTER_VERBS)
        return weighted(self.rng, options, [self.weight(player, a, fighting) for a in options])


def weighted(rng: random.Random, items: Sequence[T], weights: Sequence[float]) -> T:
    """One item drawn with these weights: the draw of `rng.choices(items, weights)[0]`,
    without the machinery for drawing many."""
    cumulative = list(accumulate(weights))
    return items[bisect(cumulative, rng.random() * cumulative[-1], 0, len(cumulative) - 1)]
