"""Sessions: bots and humans at one table, deciding through the engine, with undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.session import Seat, Session, SessionError, bot_seed
from munchkin.store import Store, StoreError
from munchkin.text import sentence
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

BOTS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
TABLE = (Seat("Ann", "female", "human"), *BOTS[1:])
SEED = 8  # bots only: a short game


def test_bots_play_to_the_end_and_the_log_tells_it() -> None:
    session = Session.start(BOTS, ["base"], SEED)
    events = session.run_to_end()
    assert session.over and session.winner in [seat.name for seat in BOTS]
    assert session.log() == [line for e in events if (line := sentence(e, session.names))]
    assert session.log()[-1] == f"{session.winner} reaches the winning level and wins the game!"
    assert session.waiting_humans() == []


def test_a_game_several_win_together_has_them_all_as_winners() -> None:
    """Everyone who reaches the win level from the same fight wins (B2); the log tells each."""
    session = Session.start(RANDOM_BOTS, ["base"], shared_win_seed(), options=LOW_WIN)
    session.run_to_end()
    assert len(session.winners) > 1 and session.winner == session.winners[0]
    assert session.options == LOW_WIN
    told = [f"{name} reaches the winning level and wins the game!" for name in session.winners]
    assert [line for line in session.log() if line.endswith("wins the game!")] == told


def test_the_seed_decides_the_game() -> None:
    first, second, other = (Session.start(BOTS, ["base"], seed) for seed in (SEED, SEED, SEED + 1))
    for session in (first, second, other):
        session.step_bots(limit=150)
    assert first.decisions == second.decisions and first.fingerprint() == second.fingerprint()
    assert first.decisions != other.decisions
    assert len({bot_seed(SEED, seat) for seat in range(6)} | {bot_seed(SEED + 1, 0)}) == 7


def test_bots_play_until_a_human_must_decide() -> None:
    session = Session.start(TABLE, ["base"], SEED)
    seen: list[Event] = []
    assert session.step_bots(on_event=seen.append) == seen
    assert session.waiting_humans() == ["Ann"] and not session.over
    assert session.step_bots() == []
    assert session.view("Ann").data["deciding"]


def test_limit_stops_the_bots() -> None:
    session = Session.start(BOTS, ["base"], SEED)
    session.step_bots(limit=7)
    assert len(session.decisions) == session.decision_count == 7


def test_refused_decisions_change_nothing() -> None:
    session = Session.start(TABLE, ["base"], SEED)
    session.step_bots()
    before = (session.fingerprint(), session.decisions, session.log())
    with pytest.raises(RulesError, match="B13"):
        session.apply("Ann", Action("accept_trade"))
    bob = session.view("Bob").legal or [Action("pass")]  # Bob passed the setup: nothing is legal
    with pytest.raises(SessionError, match="Bob is a bot"):
        session.apply("Bob", bob[0])
    assert (session.fingerprint(), session.decisions, session.log()) == before


def test_undo_goes_back_to_before_the_players_previous_decision() -> None:
    session = Session.start(TABLE, ["base"], SEED)
    with pytest.raises(SessionError, match="Ann has made no decision to undo"):
        session.undo("Ann")
    with pytest.raises(SessionError, match="'Bob' is not a human player"):
        session.undo("Bob")
    before: list[tuple[str, int, list[str]]] = []
    for _ in range(4):
        session.step_bots()
        before.append((session.fingerprint(), len(session.decisions), session.log()))
        session.apply("Ann", session.view("Ann").legal[-1])
    session.step_bots()
    after = session.fingerprint()
    session.undo("Ann")
    assert (session.fingerprint(), len(session.decisions), session.log()) == before[-1]
    session.undo("Ann")
    assert (session.fingerprint(), len(session.decisions), session.log()) == before[-2]
    session.apply("Ann", session.view("Ann").legal[-1])
    session.step_bots()
    session.apply("Ann", session.view("Ann").legal[-1])
    session.step_bots()
    assert session.fingerprint() == after  # the bots decide again as they did


def test_run_to_end_is_for_bots_only() -> None:
    with pytest.raises(SessionError, match="humans here: Ann"):
        Session.start(TABLE, ["base"], SEED).run_to_end()


@pytest.mark.parametrize(
    ("seats", "sets", "seed", "error"),
    [
        ((BOTS[0], BOTS[0]), ["base"], 1, "every seat needs its own name: Ann, Ann"),
        ((Seat("Zed", "male", "bot:genius"), *BOTS[1:]), ["base"], 1, "seat Zed: unknown kind 'bot:genius'"),
        (BOTS, ["no-such-set"], 1, "unknown card set 'no-such-set'"),
        (BOTS[:1], ["base"], 1, "a game has 2 to 6 players (B1)"),
        ((Seat("x" * 65, "male"), *BOTS[1:]), ["base"], 1, "a player's name has 1 to 64 characters"),
        (BOTS, ["base"], 2**63, "the seed must be a 64-bit integer"),
    ],
)
def test_bad_setups_are_refused_in_one_line(
    seats: tuple[Seat, ...], sets: list[str], seed: int, error: str
) -> None:
    with pytest.raises(SessionError) as refused:
        Session.start(seats, sets, seed)
    assert error in str(refused.value) and "\n" not in str(refused.value)


def test_heuristic_bots_resume_in_step(tmp_path: Path) -> None:
    """A heuristic bot remembers things between decisions: resuming must ask it again."""
    pytest.importorskip("munchkin.bots.heuristic", reason="the heuristic bot has not landed yet")
    seats = (Seat("Ann", "female", "bot:heuristic"), Seat("Bob", "male", "bot:heuristic"), BOTS[2])
    whole = Session.start(seats, ["base"], SEED)
    whole.step_bots(limit=300)
    with Store(str(tmp_path / "games.sqlite3")) as store:
        Session.start(seats, ["base"], SEED, store).step_bots(limit=150)
        resumed = Session.resume(1, store)
        resumed.step_bots(limit=150)
    assert resumed.decisions == whole.decisions


def test_a_failed_save_takes_the_decision_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = Session.start(BOTS, ["base"], SEED)
    whole.run_to_end()
    with Store(str(tmp_path / "games.sqlite3")) as store:
        session = Session.start(BOTS, ["base"], SEED, store)
        session.step_bots(limit=50)
        saved = session.fingerprint()

        def disk_full(*args: object) -> None:
            raise StoreError("games.sqlite3: database or disk is full")

        monkeypatch.setattr(store, "append", disk_full)
        with pytest.raises(StoreError, match="disk is full"):
            session.step_bots()
        assert (session.fingerprint(), len(session.decisions)) == (saved, 50)
        monkeypatch.undo()
        session.run_to_end()
        assert session.fingerprint() == whole.fingerprint()
        assert Session.resume(1, store).fingerprint() == whole.fingerprint()
