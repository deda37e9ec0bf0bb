"""Saved games in a database (SQLAlchemy): SQLite by default, PostgreSQL with `postgresql://`.

Every decision is saved in one transaction that appends its row and updates the
game row, so a crash loses at most the decision in flight. SQLite runs in WAL
mode with `synchronous=NORMAL`: a commit is in the WAL (the operating system's
cache) before it returns, so a killed process loses nothing committed, and a
power cut may lose the last commits but never corrupts the file; `FULL` would add
an fsync (about 4 ms here) to every decision, bots' included. Decisions are written
through the driver itself, on a connection kept open for them, with statements
compiled once: the online server saves every decision of every game, and checking a
connection out of the pool and running each statement through SQLAlchemy cost more
than the database's own work.

Every wait for another connection's lock is bounded (`busy_seconds`, 5 s unless told):
a locked database is an error after that, never a wait without end. `backup` copies a
live SQLite database, its WAL included, through SQLite's backup API.

Opening and checking a database is in `store.opening`, the rows' columns in `store.rows`,
replaying in `store.replay` (`load_cards` and `new_game` are re-exported here). Every problem
is a `StoreError` whose message is one line naming the database, the game and the decision.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Delete,
    Engine,
    Insert,
    Update,
    and_,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine.interfaces import DBAPICursor
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import PoolProxiedConnection

from munchkin.store.errors import StoreError, guard_open, one_line
from munchkin.store.models import Base, Decision, DecisionRow, GameInfo, GameRow, Progress, SavedGame, Setup
from munchkin.store.opening import BUSY_SECONDS, default_url, open_database
from munchkin.store.replay import load_cards, new_game
from munchkin.store.rows import decision_row, game_row, progress_row, read_decision, read_game

__all__ = ["Store", "load_cards", "new_game"]

_INSERT_DECISION = insert(DecisionRow)
_DELETE_DECISIONS = delete(DecisionRow).where(
    DecisionRow.game_id == bindparam("game"), DecisionRow.number > bindparam("keep")
)
_MOVE_GAME = (
    update(GameRow)
    .where(GameRow.id == bindparam("game"), GameRow.decisions == bindparam("saved"))
    .values({name: bindparam(name) for name in ("decisions", "status", "winners", "turn", "fingerprint")})
)
"""Executed with the new column values (`decisions`, `status`...) as parameters."""
Key = tuple[str, ColumnElement[bool]]
"""A row as messages name it (`games.sqlite3: game 3`), and the condition that selects it."""


class Store:
    """A database of saved games. `url` is a SQLAlchemy URL or a file path; by default,
    `default_url()`. With `create=False` a missing database is a `MissingDatabase`. A statement
    waits at most `busy_seconds` for another connection's lock, then fails."""

    def __init__(
        self, url: str | None = None, create: bool = True, busy_seconds: float = BUSY_SECONDS
    ) -> None:
        self.busy_seconds = busy_seconds
        self.name, self.engine = open_database(url or default_url(), create, busy_seconds)
        self._sessions = sessionmaker(self.engine)
        self._insert_decision = _DriverStatement(_INSERT_DECISION, self.engine)
        self._move_game = _DriverStatement(_MOVE_GAME, self.engine)
        self._delete_decisions = _DriverStatement(_DELETE_DECISIONS, self.engine)
        self._driver_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        self._read_errors = (SQLAlchemyError, self._driver_error, ValueError, TypeError)
        """What reading a value the database holds may raise: a driver's error, or a value the
        column's type cannot make (a date that is no date, text that is not UTF-8)."""
        self._writer: PoolProxiedConnection | None = None
        self._writing = threading.Lock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._writing:
            self._drop_writer()
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------

    def create(self, setup: Setup, progress: Progress) -> int:
        """Save a new game with no decisions yet; its id."""
        row = game_row(setup, progress)
        with self._transaction() as conn:
            return conn.execute(insert(GameRow).values(row).returning(GameRow.id)).scalar_one()

    def append(self, game_id: int, number: int, decision: Decision, progress: Progress) -> None:
        """Save decision `number` (from 1) and how the game stands after it, together."""
        row = decision_row(game_id, number, decision)
        with self._write() as cursor:
            self._move(cursor, game_id, number - 1, number, progress)
            self._insert_decision.run(cursor, row)

    def truncate(self, game_id: int, saved: int, keep: int, progress: Progress) -> None:
        """Keep the first `keep` of the `saved` decisions, and how the game stands then."""
        with self._write() as cursor:
            self._move(cursor, game_id, saved, keep, progress)
            self._delete_decisions.run(cursor, {"game": game_id, "keep": keep})

    def _move(self, cursor: DBAPICursor, game_id: int, saved: int, count: int, progress: Progress) -> None:
        """Update the game row, refusing if it no longer holds `saved` decisions."""
        values = {"game": game_id, "saved": saved, "decisions": count, **progress_row(progress)}
        self._move_game.run(cursor, values)
        if cursor.rowcount != 1:
            raise StoreError(f"{self.name}: game {game_id}: changed by someone else since it was loaded")

    def backup(self, target: str | Path) -> tuple[int, int]:
        """Copy this SQLite database, as it is committed now, to the new file `target` with
        SQLite's backup API (a plain copy of the file misses what is still in its `-wal`); the
        number of games and decisions copied. Made beside `target` and moved into place once
        checked, so a failure leaves no half-made file; an existing `target` is refused."""
        if self.engine.dialect.name != "sqlite":
            raise StoreError(f"{self.name}: only a SQLite database is backed up here (use pg_dump)")
        path = Path(target).expanduser()
        name = str(path)
        if path.exists():
            raise StoreError(f"{name}: already exists; back up to a new file")
        temp = path.with_name(f".{path.name}.{os.getpid()}.backup")
        with guard_open(name):
            temp.unlink(missing_ok=True)
            source = sqlite3.connect(str(self.engine.url.database), timeout=self.busy_seconds)
            try:
                copy = sqlite3.connect(str(temp))
                try:
                    source.backup(copy)
                    problems = [row[0] for row in copy.execute("PRAGMA quick_check")]
                    if problems != ["ok"]:
                        raise StoreError(f"{name}: the copy is damaged ({problems[0]})")
                    games = copy.execute("SELECT count(*) FROM munchkin_games").fetchone()[0]
                    decisions = copy.execute("SELECT count(*) FROM munchkin_decisions").fetchone()[0]
                    copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    copy.close()
            finally:
                source.close()
            try:
                os.link(temp, path)
            finally:
                temp.unlink(missing_ok=True)
        return games, decisions

    # -- reading -------------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        """Every saved game, oldest first."""
        with self._reading() as db:
            try:
                rows = db.scalars(select(GameRow).order_by(GameRow.id)).all()
            except self._read_errors as exc:
                raise self._unreadable(db, exc, GameRow, self._game_keys) from None
            return [read_game(row, self.name) for row in rows]

    def load(self, game_id: int) -> SavedGame:
        """A saved game with its decisions, each checked for form (`replay` checks the rules)."""
        where = f"{self.name}: game {game_id}"
        with self._reading() as db:
            info = read_game(self._game_row(db, game_id, where), self.name)
            rows = self._decision_rows(db, game_id, where)
        names = {seat.name for seat in info.setup.seats}
        decisions = tuple(read_decision(r, n, names, where) for n, r in enumerate(rows, 1))
        if len(decisions) != info.decisions:
            raise StoreError(f"{where}: {len(decisions)} decisions saved, the game row says {info.decisions}")
        return SavedGame(info, decisions, where)

    def _game_row(self, db: DbSession, game_id: int, where: str) -> GameRow:
        """The row of game `game_id` (named `where`), as the database holds it."""
        row = None
        if 0 < game_id < 2**63:  # no database holds an id beyond its 64-bit integers
            try:
                row = db.get(GameRow, game_id)
            except self._read_errors as exc:
                raise self._unreadable(db, exc, GameRow, lambda _: [(where, GameRow.id == game_id)]) from None
        if row is None:
            raise StoreError(f"{self.name}: there is no game {game_id}")
        return row

    def _decision_rows(self, db: DbSession, game_id: int, where: str) -> Sequence[DecisionRow]:
        """The decision rows of game `game_id` (named `where`) in their order."""
        try:
            return db.scalars(
                select(DecisionRow).where(DecisionRow.game_id == game_id).order_by(DecisionRow.number)
            ).all()
        except self._read_errors as exc:
            keys = functools.partial(_decision_keys, game_id=game_id, where=where)
            raise self._unreadable(db, exc, DecisionRow, keys) from None

    def _game_keys(self, db: DbSession) -> list[Key]:
        """Every game row, as `_unreadable` takes them."""
        ids = db.scalars(select(GameRow.id).order_by(GameRow.id)).all()
        return [(f"{self.name}: game {game_id}", GameRow.id == game_id) for game_id in ids]

    def _unreadable(
        self, db: DbSession, exc: Exception, model: type[Base], keys: Callable[[DbSession], list[Key]]
    ) -> StoreError:
        """The error for rows of `model` that could not be read (`exc`): it names the first row of
        `keys` (how messages name it, and the condition selecting it) holding a value that cannot be
        read, and its column; only the database, if no single value is to blame."""
        db.rollback()
        try:
            for where, selects in keys(db):
                for column in model.__table__.columns:
                    try:
                        db.execute(select(column).where(selects)).all()
                    except self._read_errors as problem:
                        return StoreError(f"{where}: {column.name}: {one_line(problem)}")
        except self._read_errors:
            pass  # not even the keys can be read: the first error says what it can
        return StoreError(f"{self.name}: {one_line(exc)}")

    # -- connections ---------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._guard(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[DBAPICursor]:
        """A cursor in one transaction on the driver's connection kept for writing (one thread
        at a time), committed when the block ends; after any failure the connection is dropped
        and a new one opened next time."""
        with self._writing, self._guard():
            if self._writer is None:
                self._writer = self.engine.raw_connection()
            cursor = self._writer.cursor()
            try:
                if self.engine.dialect.name == "sqlite":
                    cursor.execute("BEGIN")  # the driver is left in autocommit mode (`_sqlite_connect`)
                yield cursor
                self._writer.commit()
            except BaseException:
                cursor.close()  # a statement left open would keep the transaction, and its lock
                self._drop_writer()
                raise
            cursor.close()

    def _drop_writer(self) -> None:
        """Roll back what the connection kept for writing had not committed, and close it for good."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            with suppress(self._driver_error):  # closing it rolls back too
                writer.rollback()
            writer.invalidate()

    @contextmanager
    def _reading(self) -> Iterator[DbSession]:
        with self._guard(), self._sessions() as db:
            yield db

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Database errors as one-line `StoreError`s naming the database."""
        try:
            yield
        except (SQLAlchemyError, self._driver_error, OSError, ValueError, TypeError) as exc:
            raise StoreError(f"{self.name}: {one_line(exc)}") from None


def _decision_keys(db: DbSession, game_id: int, where: str) -> list[Key]:
    """Every decision row of a game, as `Store._unreadable` takes them."""
    numbers = db.scalars(
        select(DecisionRow.number).where(DecisionRow.game_id == game_id).order_by(DecisionRow.number)
    ).all()
    return [
        (f"{where}, decision {n}", and_(DecisionRow.game_id == game_id, DecisionRow.number == n))
        for n in numbers
    ]


class _DriverStatement:
    """A statement compiled once for one database's driver and run on the driver's cursor,
    with plain int and str parameters that every driver takes as they are."""

    def __init__(self, statement: Insert | Update | Delete, engine: Engine) -> None:
        compiled = statement.compile(dialect=engine.dialect)
        self.sql = compiled.string
        self.order = compiled.positiontup
        """The parameters' names in order for a driver of positional parameters; None: by name."""

    def run(self, cursor: DBAPICursor, values: dict[str, Any]) -> None:
        cursor.execute(self.sql, values if self.order is None else [values[name] for name in self.order])
