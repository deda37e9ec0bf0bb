"""The easy bot: the heuristic bot, but now and then it plays a move at random.

At each decision with a choice, with probability `blunder`, it takes the random bot's pick
(a verb by its weight, then one of its actions: rarely harming itself) instead of the
heuristic's; the heuristic still sees every view, so its memory of the game stays whole.
How much weaker it is than the heuristic bot is measured in `docs/bots.md`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.views import PlayerView

BLUNDER = 0.3
"""The share of its decisions (with a choice) that the easy bot plays at random."""


class EasyBot:
    """A heuristic bot that plays a random legal action with probability `blunder`."""

    def __init__(
        self, seed: int = 0, cards: Sequence[CardDef] | None = None, blunder: float = BLUNDER
    ) -> None:
        if not 0.0 <= blunder <= 1.0:
            raise ValueError(f"blunder is a probability, 0 to 1, not {blunder}")
        self.rng = random.Random(seed ^ 0xEA5E)
        self.blunder = blunder
        self.heuristic = HeuristicBot(seed, cards)
        self.random = RandomBot(seed + 1)

    def choose(self, view: PlayerView) -> Action:
        """The heuristic's choice, or (with probability `blunder`) the random bot's."""
        chosen = self.heuristic.choose(view)
        if len(view.legal) > 1 and self.rng.random() < self.blunder:
            return self.random.choose(view)
        return chosen
