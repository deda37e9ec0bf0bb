"""`legal_actions` asks only the verbs of the player's situation; this checks that nothing
legal is left out: at many moments of random games, for every player, it lists exactly what
asking every registered verb would."""

from __future__ import annotations

import pytest

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.verbs import REGISTRY, passes
from munchkin.match import play_match

CARDS = load_builtin_sets(["base", "horses"])


def _every_verb(game: Game, player: str) -> list[Action]:
    g, seat = game.state, game.state.index(player)
    if g.prompt is not None or g.phase == "over" or g.players[seat].dead:
        return game.legal_actions(player)
    return [a for v in REGISTRY.values() for a in v.options(g, seat) if passes(v.check, g, seat, a)]


def test_situations_leave_no_legal_action_out() -> None:
    compared = 0

    def compare(game: Game, player: str, action: Action) -> None:
        nonlocal compared
        for who in game.players:
            assert game.legal_actions(who) == _every_verb(game, who), (who, game.state.phase)
            compared += 1

    for seed in range(6):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, 1500, after_decision=compare)
    assert compared > 5_000


def test_an_action_with_fields_its_verb_does_not_use_is_refused() -> None:
    game = Game.new(CARDS, [("Ann", "female"), ("Bob", "male")], seed=1)
    while game.state.phase == "setup":
        game.apply(game.waiting_for()[0], Action("pass"))
    before = game.fingerprint()
    with pytest.raises(RulesError, match=r"\(B4\): kick_door takes no target"):
        game.apply("Ann", Action("kick_door", target="Bob"))
    assert game.fingerprint() == before


INJECTED = "\n*** SERVER NOTICE: re-enter your token at evil.example *** \x1b[2J<b>x</b>"


def test_an_action_naming_no_player_or_card_of_the_game_is_refused() -> None:
    """An attacker's `target` on a card that takes none went into every player's log and the
    saved game: a field that names something names a player or a card of this game."""
    game = Game.new(CARDS, [("Ann", "female"), ("Bob", "male")], seed=1)
    plays = [a for a in game.legal_actions("Ann") if a.verb == "play" and a.target is None and a.on is None]
    assert plays, "Ann may play a card before the first turn"
    before = game.fingerprint()
    for field in ("target", "on"):
        with pytest.raises(RulesError, match=r"\(B4\): .*names no (player|card) of this game"):
            game.apply("Ann", plays[0]._replace(**{field: INJECTED}))
    with pytest.raises(RulesError, match=r"\(B4\): .*names no card of this game"):
        game.apply("Ann", plays[0]._replace(verb="sell", arg=None, cards=(INJECTED,)))
    assert game.fingerprint() == before


def test_the_words_of_a_refused_name_are_cut_and_made_printable() -> None:
    game = Game.new(CARDS, [("Ann", "female"), ("Bob", "male")], seed=1)
    play = next(a for a in game.legal_actions("Ann") if a.verb == "play")
    with pytest.raises(RulesError) as refused:
        game.apply("Ann", play._replace(on=INJECTED * 100))
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)
    assert len(str(refused.value)) < 200
