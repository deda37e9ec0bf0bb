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
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.views import view

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
SEXES = ("female", "male", "male", "female", "female", "female")


@dataclass
class MatchResult:
    """How a game ended: its winners (several when one fight took them to the win level
    together, B2; none when it was abandoned), its decisions and turns."""

    seed: int
    winners: list[str] = field(default_factory=list)
    decisions: list[tuple[str, Action]] = field(default_factory=list)
    turns: int = 0

    @property
    def winner(self) -> str | None:
        """The first winner, or None."""
        return self.winners[0] if self.winners else None


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
    options: TableOptions = DEFAULT_OPTIONS,
) -> MatchResult:
    """One game from its seed, by the table's options: whoever the game waits for (a seeded
    choice among them) decides through their bot, which sees only that player's view, until
    someone wins or `max_decisions` is reached."""
    game = Game.new(cards, seat_players(n_players), seed=seed, options=options)
    chooser = random.Random(seed ^ 0x5EED)
    seats = {name: i for i, name in enumerate(game.players)}
    result = MatchResult(seed)
    while not game.over and len(result.decisions) < max_decisions:
        waiting = game.waiting_for()
        player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
        bot = bots[seats[player]]
        if getattr(bot, "sees_state", False):
            bot.see(game)  # type: ignore[attr-defined]  # a cheating bot, measured (issue 16)
        action = bot.choose(view(game, player))
        events = game.apply(player, action)
        result.decisions.append((player, action))
        if on_event:
            for event in events:
                on_event(event)
        if after_decision:
            after_decision(game, player, action)
    result.winners = game.winners
    result.turns = game.state.turn
    return result


def replay(
    cards: Sequence[CardDef],
    n_players: int,
    seed: int,
    decisions: Sequence[tuple[str, Action]],
    options: TableOptions = DEFAULT_OPTIONS,
) -> Game:
    """The game again from its seed, options and decisions (B19)."""
    game = Game.new(cards, seat_players(n_players), seed=seed, options=options)
    for player, action in decisions:
        game.apply(player, action)
    return game
