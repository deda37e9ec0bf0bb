"""Random games for the rl tests: states reached by random bots, with both card sets and
2 to 6 players."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.game import Game
from munchkin.engine.options import DEFAULT_OPTIONS
from munchkin.rl.aec import new_game
from munchkin.sim.simulate import cards_for


def random_states(games: int, decisions: int, stride: int = 1, seed: int = 0) -> Iterator[Game]:
    """Every `stride`-th state of `games` random games, each cut after `decisions`."""
    for k in range(games):
        sets = ("base",) if k % 2 == 0 else ("base", "horses")
        players = 2 + (k + seed) % 5
        game, chooser = new_game(cards_for(sets), players, seed * 1000 + k, DEFAULT_OPTIONS)
        bots = [RandomBot(seed * 1000 + k * 10 + s) for s in range(players)]
        for step in range(decisions):
            if game.over:
                break
            if step % stride == 0:
                yield game
            waiting = game.waiting_for()
            player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
            seat = game.state.index(player)
            game.apply(player, bots[seat].pick(player, game.legal_actions(player)))
