"""The engine's "why not": the same refusals as `apply`, over random games, and the
warnings before a play (issue 13)."""

from __future__ import annotations

import random

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.setup import PlayerSetup, Position, build
from munchkin.match import play_match
from munchkin.scenario.runner import builtin_catalog

CARDS = load_builtin_sets(["base", "horses"])


def _apply_refusal(game: Game, player: str, action: Action) -> RulesError | None:
    try:
        game.copy().apply(player, action)
    except RulesError as exc:
        return exc
    return None


def test_refusals_are_apply_s_own_over_random_games() -> None:
    rng = random.Random(5)
    compared = refused = 0

    def compare(game: Game, player: str, action: Action) -> None:
        nonlocal compared, refused
        if rng.random() > 0.2:
            return
        others = [a for name in game.players for a in game.legal_actions(name)]
        for who in game.players:
            g = game.state
            hand = g.players[g.index(who)].hand
            candidates = [Action("play", g.defs[i].id) for i in hand] + rng.sample(
                others, min(5, len(others))
            )
            for candidate in candidates:
                mine, theirs = game.refusal(who, candidate), _apply_refusal(game, who, candidate)
                assert (mine is None) == (theirs is None), (who, candidate, mine, theirs)
                if mine is not None and theirs is not None:
                    assert (mine.rule, mine.message) == (theirs.rule, theirs.message)
                    refused += 1
                compared += 1
            for inst in hand:
                card = g.defs[inst].id
                listed = any(a.verb == "play" and a.arg == card for a in game.legal_actions(who))
                assert (game.why_not_play(who, card) is None) == listed, (who, card)

    for seed in range(4):
        play_match(CARDS, 4, seed, [RandomBot(seed * 10 + i) for i in range(4)], 600, after_decision=compare)
    assert compared > 1000 and refused > 500


def _game(**ann: object) -> Game:
    players = [PlayerSetup("ann", **ann), PlayerSetup("bob")]  # type: ignore[arg-type]
    return build(builtin_catalog(), Position(players, door_deck=["sock-gremlin"]))


def test_a_card_that_cannot_be_played_says_why_with_its_rule() -> None:
    game = _game(hand=["armor-of-excessive-spikes"], carried=["gilded-toilet-throne"])
    reason = game.why_not_play("ann", "armor-of-excessive-spikes")
    assert reason is not None and reason.rule == "B11" and "Big" in reason.message
    assert game.why_not_play("bob", "armor-of-excessive-spikes") is not None  # not in his hand


def test_warnings_name_the_race_replaced_and_the_item_only_carried() -> None:
    game = _game(race=["elf"], hand=["dwarf", "longbow-of-twanging"])
    (replaced,) = game.consequences("ann", Action("play", "dwarf"))
    assert (replaced.kind, replaced.card, replaced.rule) == ("replaces", "elf", "B14")
    game = _game(race=["dwarf"], hand=["longbow-of-twanging"])
    (carried,) = game.consequences("ann", Action("play", "longbow-of-twanging"))
    assert (carried.kind, carried.rule) == ("carried", "B11")
    assert game.consequences("ann", Action("kick_door")) == []
