"""Saved data behind the online server (issue 14, item 12): `munchkin backup PATH` copies a
live SQLite database with its WAL, and resuming checks the fingerprint saved with every
decision, not only the last one; a locked database waits a bounded time."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from munchkin.session import Seat, Session
from munchkin.store import Store, StoreError
from munchkin.store.cli import register

BOTS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
SEED = 8


def cli(*args: str) -> tuple[int, str, str]:
    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_backup_copies_what_is_still_in_the_wal_and_a_plain_copy_misses(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store(str(db)) as store:
        session = Session.start(BOTS, ["base"], SEED, store)
        session.step_bots(limit=50)
        assert Path(f"{db}-wal").stat().st_size > 0, (
            "the latest decisions are in the WAL, not yet in the file"
        )
        shutil.copy(db, tmp_path / "plain.sqlite3")  # what copying the file alone gives
        code, out, err = cli("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db))
        assert code == 0, err
        assert out.strip() == f"Backed up {db} to {tmp_path / 'copy.sqlite3'}: 1 games, 50 decisions."
    with Store(str(tmp_path / "copy.sqlite3"), create=False) as copy:
        resumed = Session.resume(copy.games()[0].id, copy)
        assert resumed.decision_count == 50
    with sqlite3.connect(tmp_path / "plain.sqlite3") as plain:
        assert plain.execute("SELECT count(*) FROM munchkin_decisions").fetchone()[0] < 50
    assert not list(tmp_path.glob(".copy.sqlite3*")), "no temporary file is left behind"


def test_backup_refuses_to_overwrite_and_postgres_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    Store(str(db)).close()
    (tmp_path / "taken").write_text("keep me")
    code, _, err = cli("backup", str(tmp_path / "taken"), "--db", str(db))
    assert code == 1 and err.strip() == f"error: {tmp_path / 'taken'}: already exists; back up to a new file"
    assert (tmp_path / "taken").read_text() == "keep me"


def test_resume_checks_every_saved_fingerprint_not_only_the_last(tmp_path: Path) -> None:
    """A save whose decision 20 carries a wrong fingerprint while the last one is right."""
    db = tmp_path / "games.sqlite3"
    with Store(str(db)) as store:
        session = Session.start(BOTS, ["base"], SEED, store)
        session.step_bots(limit=40)
        game_id = session.game_id
        assert game_id is not None
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE munchkin_decisions SET fingerprint = ? WHERE number = 20", ("0" * 64,))
    with Store(str(db)) as store, pytest.raises(StoreError, match="decision 20: the replayed state"):
        Session.resume(game_id, store)


def test_a_locked_database_fails_after_the_busy_timeout_not_later(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with Store(str(db), busy_seconds=0.3) as store:
        session = Session.start(BOTS, ["base"], SEED, store)
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            started = time.monotonic()
            with pytest.raises(StoreError, match="database is locked"):
                session.step_bots(limit=1)
            assert 0.25 <= time.monotonic() - started < 3
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        session.step_bots(limit=1)
        assert session.decision_count == 1
