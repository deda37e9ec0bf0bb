"""The one registry of bot kinds, and the levels offered to people (issue 16, item 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from munchkin.bots import Bot
from munchkin.bots.easy import EasyBot
from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.bots.registry import BOT_KINDS, KINDS, LEVELS, SEAT_KINDS, UnknownBot, bot_of_seat, make_bot
from munchkin.cards.schema import CardDef
from munchkin.match import play_match
from munchkin.rl.single import make_opponent
from munchkin.session import make_seat_bot
from munchkin.sim.simulate import cards_for
from munchkin.tui.seats import SeatError, parse_seats

CARDS = cards_for(("base",))


def test_every_kind_is_listed_once_and_the_levels_are_kinds() -> None:
    assert set(BOT_KINDS) == {"random", "heuristic", "search", "cheat", "easy", "medium", "hard"}
    assert set(LEVELS) <= set(BOT_KINDS)
    assert [KINDS[name].searches for name in LEVELS] == [False, False, True]


def test_levels_are_the_bots_they_name() -> None:
    assert isinstance(make_bot("easy", 1, CARDS), EasyBot)
    assert isinstance(make_bot("medium", 1, CARDS), HeuristicBot)
    assert isinstance(make_bot("random", 1, CARDS), RandomBot)
    assert type(make_bot("hard", 1, CARDS)).__name__ == "SearchBot"


def test_the_cheating_search_never_takes_a_seat_of_a_game_with_people() -> None:
    assert "bot:cheat" not in SEAT_KINDS
    assert bot_of_seat("bot:cheat") is None
    assert bot_of_seat("bot:hard") is KINDS["hard"]
    with pytest.raises(SeatError, match="unknown seat 'bot:cheat'"):
        parse_seats("human:Ann,bot:cheat", "Ann", "female", 3)


def test_an_unknown_kind_is_named_with_the_known_ones() -> None:
    with pytest.raises(UnknownBot, match="unknown bot 'clever' \\(known: random, heuristic"):
        make_bot("clever", 1, CARDS)
    with pytest.raises(ValueError, match="unknown opponent 'clever'"):
        make_opponent("clever", 1, CARDS)


def test_play_takes_levels_by_bots_or_seats() -> None:
    kinds = [seat.kind for seat in parse_seats("", "Ann", "female", "hard,medium,bot:easy")]
    assert kinds == ["human", "bot:hard", "bot:medium", "bot:easy"]
    assert [seat.kind for seat in parse_seats("", "Ann", "female", "2")] == ["human", *["bot:heuristic"] * 2]
    for bad in ("0", "6", " , "):
        with pytest.raises(SeatError, match="--bots"):
            parse_seats("", "Ann", "female", bad)


def test_the_easy_bot_plays_whole_games_and_blunders_only_as_often_as_told() -> None:
    always = [EasyBot(seat, CARDS, blunder=0.0) for seat in range(3)]
    heuristic = [HeuristicBot(seat, CARDS) for seat in range(3)]
    assert play_match(CARDS, 3, 5, always).decisions == play_match(CARDS, 3, 5, heuristic).decisions
    result = play_match(CARDS, 3, 5, [make_seat_bot("bot:easy", seat, CARDS) for seat in range(3)])
    assert result.winners
    with pytest.raises(ValueError, match="blunder is a probability"):
        EasyBot(1, CARDS, blunder=1.5)


def test_the_terminal_lets_search_bots_think_in_a_worker_and_holds_decisions_meanwhile() -> None:
    pytest.importorskip("munchkin.bots.search", reason="the search bot is not there")
    from munchkin.session import Seat, Session
    from munchkin.tui.app import MunchkinApp
    from test_tui_player import drive

    def quick(kind: str, seed: int, cards: Sequence[CardDef]) -> Bot:  # a hard seat, 2 iterations
        return (
            make_bot("search", seed, cards, iterations=2)
            if kind == "bot:hard"
            else make_seat_bot(kind, seed, cards)
        )

    seats = [Seat("Ann", "female", "human"), Seat("Bob", "male", "bot:hard"), Seat("Cid", "male", "bot:hard")]
    session = Session.start(seats, ["base"], 3, make_bot=quick)
    app = MunchkinApp(session)
    seen: dict[str, Any] = {}

    async def script(pilot: Any) -> None:
        for _ in range(600):
            if not app.thinking and session.waiting_humans():
                break
            await pilot.pause(0.05)
        seen["waiting"] = session.waiting_humans()
        seen["menu"] = app.query_one("#actions").option_count
        app.thinking = True
        seen["held"] = app.check_action("key", ())
        app.thinking = False

    drive(app, script)
    assert app.searching and seen["waiting"] == ["Ann"] and seen["menu"] > 0
    assert seen["held"] is False
