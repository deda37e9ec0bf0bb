"""Positions for the heuristic bot's tests, and the bot's decisions in them (built with
`munchkin.engine.setup.build`, read through `munchkin.views.view` like any bot)."""

from __future__ import annotations

from collections.abc import Sequence

from munchkin.bots.heuristic import HeuristicBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.setup import PlayerSetup, Position, build
from munchkin.views import view

SETS = {"base": load_builtin_sets(["base"]), "base+horses": load_builtin_sets(["base", "horses"])}
CATALOG = {card.id: card for card in SETS["base+horses"]}


def start(
    players: list[PlayerSetup],
    door: list[str] | None = None,
    dice: Sequence[int] | None = None,
    door_discard: list[str] | None = None,
) -> Game:
    """A position at the start of the first player's turn; two treasures for a fight won."""
    position = Position(
        players,
        door_deck=door or [],
        treasure_deck=["bucket-of-valor"] * 2,
        door_discard=door_discard or [],
    )
    return build(CATALOG, position, dice=dice)


def bot() -> HeuristicBot:
    return HeuristicBot(0, SETS["base+horses"])


def choice(g: Game, player: str) -> Action:
    """The bot's decision for `player` now (not applied)."""
    return bot().choose(view(g, player))


def play_until(g: Game, player: str, verb: str, limit: int = 20) -> list[Action]:
    """The bot's decisions for `player`, applied, up to and including the first with `verb`."""
    chosen = []
    heuristic = bot()
    for _ in range(limit):
        action = heuristic.choose(view(g, player))
        g.apply(player, action)
        chosen.append(action)
        if action.verb == verb:
            return chosen
    raise AssertionError(f"no {verb} in {chosen}")


def answer_until(g: Game, player: str, kind: str, limit: int = 30) -> Action:
    """Others take their default decisions and `player` the bot's, until `player` is asked a
    question of `kind`; the bot's answer to it, applied."""
    heuristic = bot()
    for _ in range(limit):
        prompt = g.state.prompt
        if prompt is not None and prompt.kind == kind and g.state.players[prompt.player].name == player:
            action = heuristic.choose(view(g, player))
            g.apply(player, action)
            return action
        waiting = g.waiting_for()
        assert waiting, f"nobody is waited for before a {kind} question"
        who = waiting[0]
        g.apply(who, heuristic.choose(view(g, who)) if who == player else g.default_action(who))
    raise AssertionError(f"no {kind} question for {player}")
