"""The random bot: a seeded random choice among the legal actions.

Uniform choice makes hopeless players (they discard their own race, curse
themselves, sell one small item at a time) and games that last thousands of
turns, so by default a verb is chosen by its weight, then one of its actions:
cards are played and equipped, and help asked and given, more readily; own
cards discarded, items taken off, curses on oneself, cards for the monsters in
one's own fight, trades, thefts and one-item sales rarely. Every legal action
keeps a chance; `uniform=True` gives the plain uniform choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from munchkin.engine.actions import Action
from munchkin.views import PlayerView

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
        fighting = any(a.verb in FIGHTER_VERBS for a in actions)
        by_verb: dict[str, list[Action]] = {}
        for a in actions:
            by_verb.setdefault(a.verb, []).append(a)
        verbs = list(by_verb)
        verb = self.rng.choices(verbs, [VERB_WEIGHTS.get(v, 1.0) for v in verbs])[0]
        options = by_verb[verb]
        return self.rng.choices(options, [self.weight(player, a, fighting) for a in options])[0]
