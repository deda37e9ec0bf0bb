"""A player's view holds nothing hidden: shuffling the decks and dealing the other players
new hands of the same sizes never changes what the player sees (non-interference)."""

from __future__ import annotations

import random

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action, action_from_dict, action_to_dict
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.engine.invariants import hidden_redrawn
from munchkin.match import play_match
from munchkin.views import event_for, view

CARDS = load_builtin_sets(["base", "horses"])


def test_views_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(1)
    compared = 0

    def check(game: Game, player: str, action: Action) -> None:
        nonlocal compared
        if rng.random() > 0.2 or game.over:
            return
        for who in game.players:
            mine = view(game, who).to_dict()
            mine.pop("legal")
            theirs = view(hidden_redrawn(game, who, rng), who).to_dict()
            theirs.pop("legal")
            assert mine == theirs, f"{who}'s view changed with hidden cards"
            compared += 1

    for seed in range(3):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, 1500, after_decision=check)
    assert compared > 500


def test_a_view_shows_own_hand_and_counts_of_others() -> None:
    game = Game.new(CARDS, [("Ann", "female"), ("Bob", "male"), ("Cid", "male")], seed=4)
    v = view(game, "Ann").to_dict()
    assert [c["id"] for c in v["hand"]] == game.state.ids(game.state.players[0].hand)
    bob = next(p for p in v["players"] if p["name"] == "Bob")
    assert bob["hand_count"] == len(game.state.players[1].hand)
    assert "hand" not in bob
    assert v["legal"] == [action_to_dict(a) for a in game.legal_actions("Ann")]


def test_charity_cards_are_seen_only_by_giver_and_receiver() -> None:
    event = Event("charity", {"player": "Ann", "card": "gold-tooth", "to": "Bob"})
    assert event_for(event, "Bob").data["card"] == "gold-tooth"
    assert event_for(event, "Cid").data["card"] is None


def test_actions_round_trip_through_plain_data() -> None:
    game = Game.new(CARDS, [("Ann", "female"), ("Bob", "male")], seed=2)
    for player in game.players:
        for action in game.legal_actions(player):
            assert action_from_dict(action_to_dict(action)) == action
