"""The search bot's playouts and their evaluation (issue 16).

A playout plays a world on with the heuristic bot in every seat, a random legal action
taken now and then (`epsilon`), for a bounded number of decisions; the world is then
valued from each player's point of view. A finished game gives 1 to each winner and 0 to
the others; an unfinished one a share of an estimated chance to win: a softmax over the
players' scores, where a level counts most, the strength beyond the level (items,
hirelings, steeds) some, and cards in hand a little. The shares add up to 1, like the
rewards of a finished game.

Playouts and evaluations read the sampled world they are given: a world the search bot
built from its own view (or, for the cheating variant, the true game), never the game it
sits in. The heuristic bot still receives views of that world, built only when it decides
(a single legal action is taken without one).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.heuristic.situation import Memory
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.engine.game import Game
from munchkin.engine.rules.strength import character_parts
from munchkin.views import view

LEVEL_WEIGHT = 1.0
"""A level, in score points."""
GEAR_WEIGHT = 0.25
"""A point of strength beyond the level (about four of them are worth a level)."""
HAND_WEIGHT = 0.15
"""A card in hand."""
NEAR_WIN_WEIGHT = 0.5
"""Each level within three of the win level counts this much more: a lead near the end
decides games."""
SHARPNESS = 1.2
"""How sharply a lead in score turns into a chance to win (the softmax's inverse
temperature)."""


def scores(world: Game) -> list[float]:
    """Each player's score: levels (more near the win level), strength beyond the level,
    cards in hand."""
    g = world.state
    top = g.options.win_level
    out = []
    for seat, p in enumerate(g.players):
        strength = sum(part.amount for part in character_parts(g, seat))
        near = max(0, p.level - (top - 4))
        out.append(
            LEVEL_WEIGHT * p.level
            + NEAR_WIN_WEIGHT * near
            + GEAR_WEIGHT * (strength - p.level)
            + HAND_WEIGHT * len(p.hand)
        )
    return out


def evaluate(world: Game) -> list[float]:
    """Each player's reward in [0, 1]: 1 for a winner of a finished game (0 for the others),
    else an estimated chance to win from the scores (the shares add up to 1)."""
    g = world.state
    if g.phase == "over":
        return [1.0 if seat in g.winners else 0.0 for seat in range(len(g.players))]
    values = scores(world)
    best = max(values)
    weights = [math.exp(SHARPNESS * (v - best)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


class PlayoutPolicy:
    """The heuristic bot in every seat, with a random legal action now and then."""

    def __init__(
        self, cards: Sequence[CardDef], players: Sequence[str], rng: random.Random, epsilon: float
    ) -> None:
        self.rng = rng
        self.epsilon = epsilon
        self.bots = {name: HeuristicBot(0, cards) for name in players}
        for bot in self.bots.values():
            bot.rng = rng  # one seeded source for the whole search
        self.random = RandomBot()
        self.random.rng = rng

    def reset(self) -> None:
        """Forget what the bots remember between decisions (a new playout, a new world)."""
        for bot in self.bots.values():
            bot.memory = Memory()

    def decide(self, world: Game, player: str) -> bool:
        """One decision of `player` in `world`, applied; False if they have none to make
        (a world whose guesses about others went wrong)."""
        legal = world.legal_actions(player)
        if not legal:
            return False
        if len(legal) == 1:
            action = legal[0]
        elif self.rng.random() < self.epsilon:
            action = self.random.pick(player, legal)
        else:
            action = self.bots[player].choose(view(world, player))
        world.apply(player, action)
        return True

    def play(self, world: Game, decisions: int) -> None:
        """Play `world` on for at most `decisions` decisions, or to its end."""
        rng = self.rng
        for _ in range(decisions):
            if world.over:
                return
            waiting = world.waiting_for()
            if not self.decide(world, waiting[0] if len(waiting) == 1 else rng.choice(waiting)):
                return
