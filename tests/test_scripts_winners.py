"""benchmarks/winrate.py and scripts/web_load.py with games that several players win together
(B2): the win rate counts a shared win as a win, the load clients see a game over."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.game import Game
from munchkin.match import MatchResult, seat_players
from munchkin.views import view

ROOT = Path(__file__).resolve().parents[1]


def _load(relative: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


winrate = _load("benchmarks/winrate.py", "winrate_benchmark")
web_load = _load("scripts/web_load.py", "web_load_script")


def test_the_win_rate_counts_a_win_shared_with_another_player(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"]

    def shared(cards: object, players: int, seed: int, bots: object) -> MatchResult:
        bot_seat = names[seed % players]
        other = names[(seed + 1) % players]
        return MatchResult(seed, [other, bot_seat] if seed == 0 else [other], turns=10)

    monkeypatch.setattr(winrate, "play_match", shared)
    tally = winrate.measure(load_builtin_sets(["base"]), 2)
    assert (tally.games, tally.wins, tally.turns) == (2, 1, 20)


@pytest.mark.parametrize("kind", [winrate.WithoutBot, winrate.RandomWithout])
def test_a_bot_without_a_word_never_plays_its_cards_while_it_has_another_choice(
    kind: type[winrate.WithoutBot] | type[winrate.RandomWithout],
) -> None:
    cards = load_builtin_sets(["base"])
    twins = {c.id for c in cards if any(e.kind == "twin" for e in c.effects)}
    bot = kind(0, cards, winrate.word_set("twin,illusion"))
    assert twins and all(winrate.leaves_aside(bot.defs, bot.words, card_id) for card_id in twins)
    offered = 0
    for seed in range(30):
        game = Game.new(cards, seat_players(4), seed=seed)
        for _ in range(300):
            if game.over:
                break
            player = game.waiting_for()[0]
            v = view(game, player)
            action = bot.choose(v)
            offered += any(a.arg in twins and a.verb == "play" for a in v.legal)
            assert action.arg not in twins or action.verb in winrate.KEPT_VERBS or len(v.legal) == 1
            game.apply(player, action)
    assert offered > 0


def test_card_files_that_cannot_be_read_are_one_line_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("cards: [{id: x}]\n")
    for path in (tmp_path / "missing.yaml", broken):
        monkeypatch.setattr(sys, "argv", ["winrate.py", "--games", "1", "--cards", str(path)])
        with pytest.raises(SystemExit) as exit_:
            winrate.main()
        assert exit_.value.code == 2
        assert f"--cards: {path}" in capsys.readouterr().err


class _Socket:
    """A WebSocket that says the game is over, won by two players."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.messages = [json.dumps({"type": "game", "full": True, "view": view, "seq": 9, "acked": None})]

    async def recv(self) -> str:
        return self.messages.pop(0)


def test_a_load_client_sees_a_game_won_by_two_as_over() -> None:
    figures = web_load.Figures()
    seat = {"player": "Ann", "token": "t"}
    over = web_load.Player(_Socket({"winners": ["Ann", "Bob"], "deciding": False}), seat, figures, 1, 0.0)
    assert asyncio.run(over.play(until=float("inf"))) is True
    assert figures.messages == 1
