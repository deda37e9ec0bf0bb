"""`Game` remembers the legal actions it listed until `apply` changes the state, and then
skips checking an action it listed: these tests hold it to listing and checking the same."""

from __future__ import annotations

import random

import pytest

from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.match import seat_players

CARDS = load_builtin_sets(["base", "horses"])


def _game(seed: int) -> Game:
    return Game.new(CARDS, seat_players(4), seed=seed)


def test_an_action_listed_before_a_change_is_checked_again_after_it() -> None:
    """Actions listed for one state and no longer legal are refused once the state moved on."""
    stale_refused = 0
    for seed in range(3):
        game, rng = _game(seed), random.Random(seed)
        for _ in range(400):
            if game.over:
                break
            before = {name: game.legal_actions(name) for name in game.players}
            player = rng.choice(game.waiting_for())
            game.apply(player, rng.choice(game.legal_actions(player)))
            for name, listed in before.items():
                now = game.legal_actions(name)
                for action in listed:
                    if action not in now:
                        with pytest.raises(RulesError):
                            game.apply(name, action)
                        stale_refused += 1
    assert stale_refused > 100


def test_every_listed_action_passes_the_full_check() -> None:
    """What `apply` no longer checks, `check` would have accepted."""
    game, rng = _game(7), random.Random(7)
    checked = 0
    for _ in range(300):
        if game.over:
            break
        for name in game.players:
            for action in game.legal_actions(name):
                game.check(name, action)
                checked += 1
        player = rng.choice(game.waiting_for())
        game.apply(player, rng.choice(game.legal_actions(player)))
    assert checked > 1000


def test_the_listed_actions_are_the_callers_own_list() -> None:
    game = _game(1)
    name = game.waiting_for()[0]
    listed = game.legal_actions(name)
    listed.clear()
    assert game.legal_actions(name)


def test_a_refusal_keeps_what_was_listed_and_changes_nothing() -> None:
    game = _game(3)  # a setup where the other players may play cards this one may not
    name = game.waiting_for()[0]
    listed = game.legal_actions(name)
    before = game.fingerprint()
    other = next(n for n in game.players if n != name)
    refused = [a for a in game.legal_actions(other) if a not in listed]
    assert refused
    for action in refused:
        with pytest.raises(RulesError):
            game.apply(name, action)
    assert game.fingerprint() == before
    assert game.legal_actions(name) == listed
    game.apply(name, listed[0])


def test_a_copy_lists_its_own_actions() -> None:
    game = _game(3)
    name = game.waiting_for()[0]
    listed = game.legal_actions(name)
    copy = game.copy()
    copy.apply(name, listed[0])
    assert game.legal_actions(name) == listed
    assert game.fingerprint() != copy.fingerprint()
