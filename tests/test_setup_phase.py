"""Before the first turn each player may play one race, one class and usable items, and
nothing else (B1). Scenario positions start at a turn, so this is checked here."""

from __future__ import annotations

import pytest

from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.setup import PlayerSetup, Position, build
from munchkin.match import seat_players
from munchkin.scenario.runner import builtin_catalog

CARDS = load_builtin_sets(["base", "horses"])


def _before_first_turn(hand: list[str]) -> Game:
    position = Position([PlayerSetup("ann", hand=hand), PlayerSetup("bob")], door_deck=["sock-gremlin"])
    game = build(builtin_catalog(), position)
    game.state.phase = "setup"
    game.state.setup_passed = [False, False]
    game.state.first_door_kicked = False
    return game


def test_one_race_one_class_and_usable_items() -> None:
    game = _before_first_turn(["elf", "dwarf", "thief", "half-breed", "participation-trophy"])
    game.apply("ann", Action("play", "elf"))
    game.apply("ann", Action("play", "thief"))
    for card in ("dwarf", "half-breed", "participation-trophy"):
        with pytest.raises(RulesError) as refused:
            game.apply("ann", Action("play", card))
        assert refused.value.rule == "B1"
    assert not [a for a in game.legal_actions("ann") if a.verb == "play"]


def test_an_item_its_owner_cannot_use_waits_for_the_first_turn() -> None:
    game = _before_first_turn(["longbow-of-twanging", "sword-of-moderate-slicing"])
    with pytest.raises(RulesError, match=r"\(B1\)"):
        game.apply("ann", Action("play", "longbow-of-twanging"))
    game.apply("ann", Action("play", "sword-of-moderate-slicing"))
    assert game.state.defs[game.state.players[0].equipped[0]].id == "sword-of-moderate-slicing"


@pytest.mark.parametrize("seed", range(20))
def test_every_play_listed_before_the_first_turn_is_a_race_class_or_usable_item(seed: int) -> None:
    game = Game.new(CARDS, seat_players(4), seed=seed)
    g = game.state
    for name in game.waiting_for():
        for action in game.legal_actions(name):
            if action.verb == "play":
                card = next(g.defs[i] for i in g.players[g.index(name)].hand if g.defs[i].id == action.arg)
                assert card.type in ("race", "class", "item", "steed"), (seed, name, card.id)
