"""Search bots on the server (issue 16, item 5): they think in another process, within a
budget per game, and a game of them does not hold up another game's humans."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from munchkin.bots.registry import SEAT_KINDS
from munchkin.engine.actions import action_to_dict
from munchkin.session import Seat, Session
from munchkin.web import cli as web_cli
from munchkin.web import room, thinking
from munchkin.web.thinking import MIN_THINK_MS, ThinkBudget, Thinkers
from test_web_protocol import Client, begin, choice, open_table, run, serving

pytest.importorskip("munchkin.bots.search", reason="the search bot is not there")
HARD_GAME = [
    Seat("Ann", "female", "bot:hard"),
    Seat("Bob", "male", "bot:hard"),
    Seat("Cid", "male", "bot:medium"),
]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_grants_what_is_in_store_up_to_a_decision_and_refills_by_the_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(thinking.time, "monotonic", clock)
    budget = ThinkBudget(per_minute=6000, per_decision=500)  # 100 ms a second
    assert budget.grant() == 500
    budget.charge(520)  # a search may take a little more than it was granted
    assert budget.grant() == 0 and budget.fallbacks == 1
    clock.now += 1.0
    assert budget.grant() == pytest.approx(80)
    clock.now += 60.0
    assert budget.grant() == 500  # never more than a decision's worth in store
    budget.charge(500 - MIN_THINK_MS / 2)
    assert budget.grant() == 0
    assert (budget.searches, budget.fallbacks, budget.spent) == (
        3,
        2,
        pytest.approx(520 + 500 - MIN_THINK_MS / 2),
    )


def test_a_games_search_seats_together_keep_to_its_budget() -> None:
    thinkers = Thinkers(1, per_minute=1200, per_decision=60)  # 20 ms a second
    try:
        bots = thinkers.maker(["base"])
        session = Session.start(HARD_GAME, ["base"], 5, make_bot=bots)
        while bots.budget.searches == 0:  # the first search starts the process
            session.step_bots(limit=1)
        started, spent = time.monotonic(), bots.budget.spent
        while time.monotonic() - started < 2.0 and not session.over:
            session.step_bots(limit=1)
        elapsed = time.monotonic() - started
        budget = bots.budget
        assert budget.spent - spent <= 60 + 20 * 1000 * elapsed / 1000 + 30  # a search's overshoot
        assert budget.fallbacks > 0, "the budget ran out, and the heuristic played on"
        assert session.decision_count > 50
    finally:
        thinkers.close()


def test_a_game_of_hard_bots_does_not_delay_another_games_human(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[tuple[float, float]] = []
    charge = ThinkBudget.charge

    def counted(self: ThinkBudget, ms: float) -> None:
        searched.append((time.monotonic(), ms))
        charge(self, ms)

    monkeypatch.setattr(ThinkBudget, "charge", counted)
    monkeypatch.setattr(room, "STANDIN_SECONDS", 0.0)  # Zed's stand-in plays at once
    settings: dict[str, Any] = {"search_ms_per_decision": 300, "search_ms_per_minute": 600_000}
    settings |= {"takeover_seconds": 0, "standin": "bot:hard"}  # Zed away: bots play his seat too
    settings |= {"bot_moves_per_second": 20, "away_bot_moves_per_second": 20}  # the pace with a human
    with serving(tmp_path, response_seconds=30, **settings) as address:
        open_table(address, ["Zed"], ["bot:hard"] * 3)
        while not searched:  # the search process is up and thinking
            time.sleep(0.05)
        (ann,) = open_table(address, ["Ann"], ["bot:random"], start=False)

        async def latencies() -> tuple[list[float], float]:
            mine = await Client.open(address, ann["code"], ann["token"])
            begin(address, ann)
            await mine.until(lambda c: c.view["deciding"])
            started = time.monotonic()
            took: list[float] = []
            ref = 0
            until = time.monotonic() + 3.0
            while time.monotonic() < until and mine.view.get("winner") is None:
                if not (mine.view.get("deciding") and mine.view["legal"]):
                    await mine.receive()
                    continue
                ref += 1
                sent = time.monotonic()
                await mine.act(action_to_dict(choice("Ann", mine.seq, mine.view["legal"])), ref=ref)
                answer = await mine.answer(ref)
                if answer["type"] == "game":
                    took.append(time.monotonic() - sent)
                await asyncio.sleep(0.05)  # a quick human
            return took, started

        took, started = run(latencies())
        ended = time.monotonic()
    window = ended - started
    thought = sum(max(0.0, min(at, ended) - max(at - ms / 1000, started)) for at, ms in searched)
    print(f"thought {thought:.2f} s of {window:.2f} s; latencies {sorted(took)}")
    assert thought > 0.5 * window, f"the hard bots thought {thought:.2f} s of {window:.2f} s"
    assert len(took) >= 10
    assert statistics.median(took) < 0.15, took
    assert max(took) < 0.6, took


def test_search_decisions_are_legal_actions_of_the_view() -> None:
    thinkers = Thinkers(1, per_minute=60_000, per_decision=50)
    try:
        bots = thinkers.maker(["base"])
        session = Session.start(HARD_GAME, ["base"], 9, make_bot=bots)
        asyncio.run(asyncio.sleep(0))
        for _ in range(40):
            session.step_bots(limit=1)  # the engine refuses an illegal action (RulesError)
        assert bots.budget.searches > 0 and bots.budget.spent > 0
    finally:
        thinkers.close()


def test_serve_refuses_a_stand_in_that_is_no_seat_in_one_line() -> None:
    app = typer.Typer()
    web_cli.register(app)
    app.command("x")(lambda: None)  # two commands: serve is called by its name
    result = CliRunner().invoke(app, ["serve", "--standin", "bot:cheat"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: --standin 'bot:cheat': choose among " + ", ".join(SEAT_KINDS)


def test_the_lobby_offers_the_levels_and_never_the_cheating_search() -> None:
    from pydantic import ValidationError

    from munchkin.web.api import CreateGame

    assert CreateGame(name="Ann", bots=["bot:easy", "bot:medium", "bot:hard"]).bots[2] == "bot:hard"
    with pytest.raises(ValidationError, match=r"bots\.0"):
        CreateGame(name="Ann", bots=["bot:cheat"])
    page = (Path(room.__file__).parent / "static" / "index.html").read_text(encoding="utf-8")
    assert all(f'<option value="bot:{level}"' in page for level in ("easy", "medium", "hard"))
