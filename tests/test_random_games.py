"""Whole games of random legal decisions: after every decision every card is in exactly
one place, levels stay within 1..10, and replaying the seed and the decisions gives the
same state at every step (B19).

`MUNCHKIN_RANDOM_GAMES` sets how many complete games to play (default 200).
"""

from __future__ import annotations

import os

import pytest

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.invariants import card_places, levels
from munchkin.match import play_match, replay

GAMES = int(os.environ.get("MUNCHKIN_RANDOM_GAMES", "200"))
PLAYERS = 4
MAX_DECISIONS = 100_000
SETS = {"base": load_builtin_sets(["base"]), "base+horses": load_builtin_sets(["base", "horses"])}


def _play_checked(
    cards: list[CardDef], seed: int
) -> tuple[list[tuple[str, Action]], list[tuple[object, ...]], str | None]:
    prints: list[tuple[object, ...]] = []

    def check(game: Game, player: str, action: Action) -> None:
        problems = card_places(game.state) + levels(game.state)
        assert not problems, f"seed {seed}, decision {len(prints) + 1} ({player}: {action}): {problems}"
        prints.append(game.snapshot())

    bots = [RandomBot(seed * 10 + i) for i in range(PLAYERS)]
    result = play_match(cards, PLAYERS, seed, bots, MAX_DECISIONS, after_decision=check)
    return result.decisions, prints, result.winner


def _replay_matches(
    cards: list[CardDef], seed: int, decisions: list[tuple[str, Action]], prints: list[tuple[object, ...]]
) -> None:
    game = replay(cards, PLAYERS, seed, [])
    for step, ((player, action), expected) in enumerate(zip(decisions, prints, strict=True), 1):
        game.apply(player, action)
        assert game.snapshot() == expected, f"seed {seed}: replay differs at decision {step}"


@pytest.mark.parametrize("sets", SETS)
@pytest.mark.parametrize("chunk", range(10))
def test_random_games_keep_invariants_and_replay_exactly(sets: str, chunk: int) -> None:
    """A tenth of the games per test, so that pytest-xdist can spread them over cores."""
    complete = 0
    for seed in range(chunk, GAMES, 10):
        decisions, prints, winner = _play_checked(SETS[sets], seed)
        _replay_matches(SETS[sets], seed, decisions, prints)
        assert winner is not None, f"seed {seed}: no winner after {len(decisions)} decisions"
        complete += 1
    assert complete == len(range(chunk, GAMES, 10))


def test_a_won_game_accepts_no_decision() -> None:
    bots = [RandomBot(i) for i in range(PLAYERS)]
    result = play_match(SETS["base"], PLAYERS, 3, bots, MAX_DECISIONS)
    game = replay(SETS["base"], PLAYERS, 3, result.decisions)
    assert game.winner is not None
    for player in game.players:
        assert game.legal_actions(player) == []
        with pytest.raises(RulesError, match=r"\(B2\)"):
            game.apply(player, Action("end_turn"))


def test_refused_actions_leave_the_state_identical() -> None:
    """Every verb with junk arguments, at many moments of a game: refused, nothing changed."""
    junk = [
        Action(v, "no-such-card", target="nobody", on="nothing")
        for v in (
            "play",
            "equip",
            "unequip",
            "discard",
            "sell",
            "keep",
            "monstrify",
            "look_for_trouble",
            "sacrifice_hireling",
            "choose",
            "ask_help",
            "trade",
            "berserk",
            "steal",
        )
    ]
    junk += [
        Action("kick_door"),
        Action("end_turn"),
        Action("resolve_combat"),
        Action("run_away"),
        Action("pass"),
        Action("accept_help"),
        Action("accept_trade"),
        Action("loot_room"),
    ]
    checked = 0

    def poke(game: Game, player: str, action: Action) -> None:
        nonlocal checked
        for who in game.players:
            legal = game.legal_actions(who)
            for bad in junk:
                if bad in legal:
                    continue
                before = game.fingerprint()
                with pytest.raises(RulesError):
                    game.apply(who, bad)
                assert game.fingerprint() == before, f"{who}: {bad} changed the state"
                checked += 1

    bots = [RandomBot(i) for i in range(PLAYERS)]
    play_match(SETS["base"], PLAYERS, 11, bots, 400, after_decision=poke)
    assert checked > 1000
