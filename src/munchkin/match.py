"""Play whole games between policies: used by the demo, the benchmark and the tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from munchkin.bots import Bot
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.views import view

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
SEXES = ("female", "male", "male", "female", "female", "female")


@dataclass
class MatchResult:
    seed: int
    winner: str | None
    decisions: list[tuple[str, Action]] = field(default_factory=list)
    turns: int = 0


def seat_players(n: int) -> list[tuple[str, str]]:
    """Default names and sexes for n seats."""
    return list(zip(NAMES[:n], SEXES[:n], strict=True))


def play_match(
    cards: Sequence[CardDef],
    n_players: int,
    seed: int,
    bots: Sequence[Bot],
    max_decisions: int = 200_000,
    on_event: Callable[[Event], None] | None = None,
    after_decision: Callable[[Game, str, Action], None] | None = None,
) -> MatchResult:
    """One game from its seed: whoever the game waits for (a seeded choice among them)
    decides through their bot, which sees only that player's view, until someone wins
    or `max_decisions` is reached."""
    game = Game.new(cards, seat_players(n_players), seed=seed)
    chooser = random.Random(seed ^ 0x5EED)
    seats = {name: i for i, name in enumerate(game.players)}
    result = MatchResult(seed, None)
    while not game.over and len(result.decisions) < max_decisions:
        waiting = game.waiting_for()
        player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
        action = bots[seats[player]].choose(view(game, player))
        events = game.apply(player, action)
        result.decisions.append((player, action))
        if on_event:
            for event in events:
                on_event(event)
        if after_decision:
            after_decision(game, player, action)
    result.winner = game.winner
    result.turns = game.state.turn
    return result


def replay(
    cards: Sequence[CardDef], n_players: int, seed: int, decisions: Sequence[tuple[str, Action]]
) -> Game:
    """The game again from its seed and decisions (B19)."""
    game = Game.new(cards, seat_players(n_players), seed=seed)
    for player, action in decisions:
        game.apply(player, action)
    return game
