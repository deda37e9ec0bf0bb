"""Table options: one typed object, validated with clear errors, that changes the game
(issue 11; rules B1, B2, B5, B10, B12, B15)."""

from __future__ import annotations

import random

import pytest

from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.game import Game
from munchkin.engine.options import (
    DEFAULT_OPTIONS,
    OptionsError,
    TableOptions,
    option_names,
    parse_assignments,
    parse_options,
)

CARDS = load_builtin_sets(["base"])
SEATS = [("Ann", "female"), ("Bob", "male"), ("Cid", "male")]


def test_the_defaults_are_the_rules() -> None:
    assert DEFAULT_OPTIONS.win_level == 10
    assert (DEFAULT_OPTIONS.door_cards, DEFAULT_OPTIONS.treasure_cards) == (4, 4)
    assert DEFAULT_OPTIONS.hand_limit == 5
    assert DEFAULT_OPTIONS.changed() == {}
    assert parse_options(None) is DEFAULT_OPTIONS


def test_every_option_is_documented() -> None:
    for name, field in TableOptions.model_fields.items():
        assert field.description, name
    assert option_names()[0] == "win_level"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"win_level": 1}, "'win_level'"),
        ({"winlevel": 5}, "'winlevel': unknown option"),
        ({"loot_ties": "coin"}, "'loot_ties'"),
        ([1, 2], "expected a mapping"),
    ],
)
def test_bad_options_are_one_line_errors_naming_the_key(data: object, message: str) -> None:
    with pytest.raises(OptionsError) as caught:
        parse_options(data, "game.yaml: options")
    text = str(caught.value)
    assert message in text and text.startswith("game.yaml: options") and "\n" not in text


def test_command_line_assignments() -> None:
    options = parse_assignments(["win_level=6", "halfling_reroll=off", "loot_ties=seat"])
    assert options.changed() == {"win_level": 6, "halfling_reroll": False, "loot_ties": "seat"}
    with pytest.raises(OptionsError, match="NAME=VALUE"):
        parse_assignments(["win_level"])


@pytest.mark.parametrize("seed", range(5))
def test_cards_dealt_follow_the_options(seed: int) -> None:
    game = Game.new(CARDS, SEATS, seed=seed, options=TableOptions(door_cards=2, treasure_cards=3))
    g = game.state
    for p in g.players:
        assert sum(1 for i in p.hand if g.defs[i].deck == "treasure") == 3
        assert sum(1 for i in p.hand if g.defs[i].deck == "door") in (1, 2)  # a Divine Intervention acts
    assert len(g.door_deck) + len(g.door_discard) == sum(1 for d in g.defs if d.deck == "door") - sum(
        1 for p in g.players for i in p.hand if g.defs[i].deck == "door"
    )


def _play(options: TableOptions, seed: int) -> Game:
    game = Game.new(CARDS, SEATS, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(20000):
        if game.over:
            break
        player = game.waiting_for()[0]
        game.apply(player, rng.choice(game.legal_actions(player)))
    return game


def test_a_lower_win_level_ends_the_game_there() -> None:
    game = _play(TableOptions(win_level=4), seed=5)
    assert game.over
    assert all(game.state.players[game.state.index(w)].level == 4 for w in game.winners)
    assert all(p.level <= 4 for p in game.state.players)


def test_options_are_part_of_the_state() -> None:
    plain = Game.new(CARDS, SEATS, seed=1)
    short = Game.new(CARDS, SEATS, seed=1, options=TableOptions(win_level=6))
    assert plain.fingerprint() != short.fingerprint()
    assert short.copy().options.win_level == 6
