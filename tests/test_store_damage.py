"""Damaged saves (found by fuzzing): each a real save, damaged one way, refused or shown in one
line naming the game and the column, never a traceback, and never written to when refused.

The SQLite-only tests store values that PostgreSQL's column types would not take.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import typer
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from munchkin.session import Seat, Session, SessionError
from munchkin.store import Store, StoreError
from munchkin.store.cli import register as register_store
from munchkin.store.models import Setup
from munchkin.store.replay import new_game, state_fingerprint
from munchkin.tui.cli import register as register_play

BOTS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
SEED = 8  # a short game between random bots


def _cli(*args: str) -> tuple[int, str, str]:
    """`munchkin ARGS`, with the store's commands and `play`: exit code, stdout, stderr."""
    app = typer.Typer()
    register_store(app)
    register_play(app)
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _saved(url: str, decisions: int | None) -> None:
    """Game 1, bots playing its first `decisions` decisions (all of them if None)."""
    with Store(url) as store:
        Session.start(BOTS, ["base"], SEED, store).step_bots(limit=decisions)


def _sql(url: str, statement: str, **values: object) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(statement), values)
    engine.dispose()


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """A SQLite save of game 1 after 5 decisions, to damage with `_damage`."""
    path = tmp_path / "games.sqlite3"
    _saved(str(path), 5)
    return path


def _damage(path: Path, statement: str) -> None:
    """Run `statement` on the file with SQLite itself (it may store any value in any column)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _refused(url: str, error: str) -> str:
    """Game 1 refused by `Session.resume`, `replay --verify` and `play --resume` with the same
    one-line error holding `error`; that error."""
    with Store(url) as store, pytest.raises(StoreError) as refused:
        Session.resume(1, store)
    message = str(refused.value)
    assert error in message and "\n" not in message
    assert _cli("replay", "1", "--verify", "--db", url) == (2, "", f"error: {message}\n")
    assert _cli("play", "--resume", "1", "--no-ui", "--db", url) == (2, "", f"error: {message}\n")
    return message


# ---------------------------------------------------------------- 1. the seed


@pytest.mark.parametrize("seed", ["'eight'", "8.5", "9223372036854775808.0"])
def test_a_seed_that_is_not_an_integer_is_refused_naming_the_game_and_column(save: Path, seed: str) -> None:
    _damage(save, f"UPDATE munchkin_games SET seed = {seed}")
    _refused(str(save), f"{save}: game 1: seed: expected a 64-bit integer, got ")


# ---------------------------------------------------------------- 2. a bit-flipped table definition


def test_a_bit_flipped_table_definition_is_a_one_line_error(save: Path) -> None:
    _damage(save, "PRAGMA journal_mode=DELETE")  # the whole database in the one file
    data = bytearray(save.read_bytes())
    data[data.index(b"CREATE TABLE munchkin_games") + 3] ^= 0x80  # CRE\xc1TE: not UTF-8
    save.write_bytes(bytes(data))
    with pytest.raises(StoreError) as refused:
        Store(str(save))
    message = str(refused.value)
    assert message == f"{save}: corrupt or unreadable SQLite database (text that is not UTF-8)"
    assert _cli("games", "--db", str(save)) == (2, "", f"error: {message}\n")
    assert save.read_bytes() == data


# ---------------------------------------------------------------- 3. the format version


@pytest.mark.parametrize("version", ["²", "٣", " 2", "2.0"])
def test_a_format_version_that_is_not_a_decimal_number_is_refused(db_url: str, version: str) -> None:
    _saved(db_url, 1)
    _sql(db_url, "UPDATE munchkin_meta SET value = :v WHERE key = 'format_version'", v=version)
    with pytest.raises(StoreError) as refused:
        Store(db_url)
    assert str(refused.value).endswith(f": munchkin_meta holds no valid format_version ({version!r})")
    code, out, err = _cli("games", "--db", db_url)
    assert (code, out, err) == (2, "", f"error: {refused.value}\n")


# ---------------------------------------------------------------- 4. dates at the calendar's ends


@pytest.fixture
def timezone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The local time zone set by the test (`TZ`), and set back after it."""
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("created", "zone", "shown"),
    [
        ("0001-01-01 00:00:00.000000", "America/New_York", "0001-01-01 00:00 UTC"),
        ("9999-12-31 23:59:00.000000", "Asia/Tokyo", "9999-12-31 23:59 UTC"),
        ("0001-01-01 00:00:00.000000", "Asia/Tokyo", "0001-01-01 09:18"),  # local mean time then
    ],
)
def test_games_lists_a_game_created_at_the_ends_of_the_calendar(
    save: Path, timezone: None, monkeypatch: pytest.MonkeyPatch, created: str, zone: str, shown: str
) -> None:
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    _damage(save, f"UPDATE munchkin_games SET created = '{created}'")
    code, out, err = _cli("games", "--db", str(save))
    assert (code, err) == (0, "")
    (row,) = [line for line in out.splitlines() if line.strip().startswith("1 ")]
    assert f" {shown} " in row


# ---------------------------------------------------------------- 5. seats


def _seats(*seats: tuple[str, str]) -> tuple[Seat, ...]:
    return tuple(Seat(name, sex, "bot:random") for name, sex in seats)


@pytest.mark.parametrize(
    ("seats", "error"),
    [
        (
            _seats(("Ann", "female"), ("Ann", "male"), ("Cid", "male")),
            "every seat needs its own name: Ann, Ann, Cid",
        ),
        (
            _seats(("", "female"), ("Bob", "male"), ("Cid", "male")),
            "a player's name has 1 to 64 characters: ''",
        ),
        (
            _seats(("Ann", "robot"), ("Bob", "male"), ("Cid", "male")),
            "seat Ann: sex 'robot' (female or male)",
        ),
    ],
    ids=["same name", "empty name", "bad sex"],
)
def test_bad_seats_are_refused_before_anything_is_written(
    db_url: str, tmp_path: Path, seats: tuple[Seat, ...], error: str
) -> None:
    """A save with no decisions yet whose seats were damaged, and its fingerprint made to match
    them: only the save check can see it (the engine deals to such seats)."""
    _saved(db_url, 0)
    setup = Setup(("base",), SEED, seats, created=datetime.now(UTC))  # the time is no part of the state
    _sql(
        db_url,
        "UPDATE munchkin_games SET seats = :seats, fingerprint = :fingerprint",
        seats=json.dumps([vars(seat) for seat in seats]),
        fingerprint=state_fingerprint(new_game(setup)),
    )
    before = _snapshot(db_url, tmp_path)
    _refused(db_url, f"game 1: seats: {error}")
    assert _snapshot(db_url, tmp_path) == before


def _snapshot(url: str, tmp_path: Path) -> object:
    """The SQLite file's bytes; for PostgreSQL, every row of the munchkin tables."""
    path = tmp_path / "games.sqlite3"
    if url.startswith("sqlite"):
        return path.read_bytes()
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = [
            conn.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
            for table in ("munchkin_meta", "munchkin_games", "munchkin_decisions")
        ]
    engine.dispose()
    return rows


# ---------------------------------------------------------------- 6. verify and the game row


@pytest.mark.parametrize(
    ("damage", "error"),
    [
        ("SET winners = :other", "winners: the game row says {other}, the replay says {winner}"),
        ("SET turn = turn + 1", "turn: the game row says {turn_1}, the replay says {turn}"),
        ("SET status = 'playing'", "status: the game row says playing, the replay says won"),
    ],
    ids=["winners", "turn", "status"],
)
def test_verify_compares_the_game_row_with_the_replayed_game(db_url: str, damage: str, error: str) -> None:
    _saved(db_url, None)
    with Store(db_url) as store:
        (info,) = store.games()
    (winner,) = info.progress.winners
    other = next(seat.name for seat in BOTS if seat.name != winner)
    _sql(db_url, f"UPDATE munchkin_games {damage}", other=json.dumps([other]))
    told = error.format(other=other, winner=winner, turn=info.progress.turn, turn_1=info.progress.turn + 1)
    assert _refused(db_url, told).endswith(f"game 1: {told}")


# ---------------------------------------------------------------- 7. errors name the game and the column


@pytest.mark.parametrize(
    ("damage", "error"),
    [
        (
            "UPDATE munchkin_games SET format_version = 'two'",
            "game 1: format_version: expected an integer, got 'two'",
        ),
        ("UPDATE munchkin_games SET created = 'yesterday'", "game 1: created: "),
        ("UPDATE munchkin_games SET created = 5", "game 1: created: "),
        ("UPDATE munchkin_games SET seats = CAST(x'5bc15d' AS TEXT)", "game 1: seats: "),
        (
            "UPDATE munchkin_games SET status = 'lost'",
            "game 1: status: expected 'playing' or 'won', got 'lost'",
        ),
        ("UPDATE munchkin_games SET turn = 'x'", "game 1: turn: expected a whole number, got 'x'"),
        ("UPDATE munchkin_games SET turn = -4", "game 1: turn: expected a whole number, got -4"),
        (
            "UPDATE munchkin_games SET decisions = 'five'",
            "game 1: decisions: expected a whole number, got 'five'",
        ),
    ],
)
def test_a_bad_game_row_is_refused_naming_the_game_and_the_column(
    save: Path, damage: str, error: str
) -> None:
    _damage(save, damage)
    message = _refused(str(save), error)
    assert _cli("games", "--db", str(save)) == (1, "", f"error: {message}\n")


def test_an_unreadable_decision_is_refused_naming_it_and_the_column(save: Path) -> None:
    _damage(save, "UPDATE munchkin_decisions SET action = CAST(x'7bc17d' AS TEXT) WHERE number = 2")
    _refused(str(save), f"{save}: game 1, decision 2: action: ")


DEEP = "[" * 5000 + "]" * 5000
"""JSON nested deeper than Python's parser recurses (a fuzzer's, in a save)."""


def test_json_nested_too_deep_is_refused_naming_game_and_column(save: Path) -> None:
    """A fuzzer's 1,000 nested lists raised RecursionError out of games, replay and resume."""
    _damage(save, f"UPDATE munchkin_decisions SET action = '{DEEP}' WHERE number = 2")
    _refused(str(save), f"{save}: game 1, decision 2: action: bad JSON (nested too deep)")
    _damage(save, f"UPDATE munchkin_games SET winners = '{DEEP}'")
    message = _refused(str(save), "game 1: winners: bad JSON (nested too deep)")
    assert _cli("games", "--db", str(save)) == (1, "", f"error: {message}\n")


def test_a_new_game_is_refused_the_seats_a_save_is_refused() -> None:
    """`Session.start` and the save check share one check, so no game is saved that cannot be
    resumed: a sex that is neither female nor male was saved before."""
    with pytest.raises(SessionError, match=r"^seat Ann: sex 'robot' \(female or male\)$"):
        Session.start(_seats(("Ann", "robot"), ("Bob", "male"), ("Cid", "male")), ["base"], SEED)


def test_a_database_locked_by_another_program_is_not_called_corrupt(save: Path) -> None:
    """A fuzzer's lock made every command say 'corrupt or unreadable', which could get a
    healthy save deleted."""
    locker = sqlite3.connect(save, isolation_level=None)
    try:
        locker.execute("PRAGMA journal_mode = DELETE")  # readers wait for a writer's lock
        locker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreError) as refused:
            Store(str(save), busy_seconds=0.1)
    finally:
        locker.close()
    assert str(refused.value) == f"{save}: locked by another program: try again once it is done"


def test_a_name_with_control_characters_is_refused() -> None:
    """A fuzzer's seat name with escape codes and a bell was saved, and replay printed it."""
    with pytest.raises(SessionError, match="printable text, without control characters"):
        Session.start(_seats(("\x1b[31mEvil\x07", "male"), ("Bob", "male")), ["base"], SEED)
