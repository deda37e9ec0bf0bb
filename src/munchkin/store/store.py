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

Opening never writes to a database that is not ours: an existing SQLite file is
first checked read-only (header, `quick_check`, tables, format version); tables
are created only in a database that has none. Every problem is a `StoreError`
whose message is one line naming the database, the game and the decision.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC
from pathlib import Path
from typing import Any
from urllib.parse import quote

import platformdirs
from sqlalchemy import (
    URL,
    Connection,
    Delete,
    Engine,
    Insert,
    Update,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPICursor
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import PoolProxiedConnection

from munchkin.cards.loader import CardLoadError, load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import ActionFormatError, action_from_dict, action_to_dict
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.game import Game, SetupError
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.store.models import (
    FORMAT_VERSION,
    Base,
    Decision,
    DecisionRow,
    GameInfo,
    GameRow,
    MetaRow,
    Progress,
    SavedGame,
    Seat,
    Setup,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
TABLES = frozenset(Base.metadata.tables)
_READS = f"this program reads format {FORMAT_VERSION}"
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


class StoreError(Exception):
    """A database or saved game that cannot be used; `str()` is one line."""


class MissingDatabase(StoreError):
    """Opened for reading only, and there is no database yet."""


def default_url() -> str:
    """`games.sqlite3` in the user's data directory (e.g. `~/.local/share/munchkin/`)."""
    return str(URL.create("sqlite", database=str(platformdirs.user_data_path("munchkin") / "games.sqlite3")))


def state_fingerprint(game: Game) -> str:
    """The SHA-256 of the engine's canonical fingerprint."""
    return hashlib.sha256(game.fingerprint().encode()).hexdigest()


def progress_of(game: Game) -> Progress:
    """How `game` stands now."""
    status = "won" if game.over else "playing"
    return Progress(status, tuple(game.winners), game.state.turn, state_fingerprint(game))


def _progress_row(progress: Progress) -> dict[str, Any]:
    """The game row's columns of how a game stands (the winners as a JSON list)."""
    return {
        "status": progress.status,
        "winners": json.dumps(list(progress.winners)),
        "turn": progress.turn,
        "fingerprint": progress.fingerprint,
    }


BUSY_SECONDS = 5.0
"""How long a statement waits for another connection's lock before it fails, by default."""


class Store:
    """A database of saved games. `url` is a SQLAlchemy URL or a file path; by default,
    `default_url()`. With `create=False` a missing database is a `MissingDatabase`. A statement
    waits at most `busy_seconds` for another connection's lock, then fails."""

    def __init__(
        self, url: str | None = None, create: bool = True, busy_seconds: float = BUSY_SECONDS
    ) -> None:
        parsed = _parse(url or default_url())
        backend = parsed.get_backend_name()
        self.busy_seconds = busy_seconds
        if backend == "sqlite":
            self.name, self.engine = _open_sqlite(parsed, create, busy_seconds)
        elif backend == "postgresql":
            self.name, self.engine = _open_postgres(parsed, create, busy_seconds)
        else:
            raise StoreError(f"{parsed.render_as_string()}: only SQLite and PostgreSQL are supported")
        self._sessions = sessionmaker(self.engine)
        self._insert_decision = _DriverStatement(_INSERT_DECISION, self.engine)
        self._move_game = _DriverStatement(_MOVE_GAME, self.engine)
        self._delete_decisions = _DriverStatement(_DELETE_DECISIONS, self.engine)
        self._driver_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
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
        row = {
            "format_version": setup.format_version,
            "created": setup.created,
            "sets": json.dumps(list(setup.sets)),
            "seed": setup.seed,
            "seats": json.dumps([vars(seat) for seat in setup.seats]),
            "options": json.dumps(setup.options.changed()),
            "decisions": 0,
            **_progress_row(progress),
        }
        with self._transaction() as conn:
            return conn.execute(insert(GameRow).values(row).returning(GameRow.id)).scalar_one()

    def append(self, game_id: int, number: int, decision: Decision, progress: Progress) -> None:
        """Save decision `number` (from 1) and how the game stands after it, together."""
        row = {
            "game_id": game_id,
            "number": number,
            "player": decision.player,
            "action": json.dumps(action_to_dict(decision.action)),
            "fingerprint": decision.fingerprint,
        }
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
        values = {"game": game_id, "saved": saved, "decisions": count, **_progress_row(progress)}
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
        with _guard_open(name):
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
            return [self._info(row) for row in db.scalars(select(GameRow).order_by(GameRow.id))]

    def load(self, game_id: int) -> SavedGame:
        """A saved game with its decisions, each checked for form (`replay` checks the rules)."""
        with self._reading() as db:
            row = db.get(GameRow, game_id)
            if row is None:
                raise StoreError(f"{self.name}: there is no game {game_id}")
            info = self._info(row)
            rows = db.scalars(
                select(DecisionRow).where(DecisionRow.game_id == game_id).order_by(DecisionRow.number)
            ).all()
        where = f"{self.name}: game {game_id}"
        names = {seat.name for seat in info.setup.seats}
        decisions = tuple(_decision(r, n, names, where) for n, r in enumerate(rows, 1))
        if len(decisions) != info.decisions:
            raise StoreError(f"{where}: {len(decisions)} decisions saved, the game row says {info.decisions}")
        return SavedGame(info, decisions, where)

    def _info(self, row: GameRow) -> GameInfo:
        where = f"{self.name}: game {row.id}"
        if row.format_version > FORMAT_VERSION:
            raise StoreError(f"{where}: saved by a newer version (format {row.format_version}, {_READS})")
        created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
        seats = _seats(row.seats, where)
        options = _options(row.options, where)
        setup = Setup(_sets(row.sets, where), row.seed, seats, created, row.format_version, options)
        progress = Progress(
            row.status, _winners(row.winners, {s.name for s in seats}, where), row.turn, row.fingerprint
        )
        return GameInfo(row.id, setup, progress, row.decisions)

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
            raise StoreError(f"{self.name}: {_one_line(exc)}") from None


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


# ------------------------------------------------------------------ opening


def _parse(url: str) -> URL:
    """A SQLAlchemy URL; text without `://` is a SQLite file path."""
    if "://" not in url:
        return URL.create("sqlite", database=url)
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        raise StoreError(f"{url}: not a database URL (sqlite:///PATH or postgresql://USER@HOST/DB)") from None


def _open_sqlite(url: URL, create: bool, busy_seconds: float = BUSY_SECONDS) -> tuple[str, Engine]:
    if url.database in (None, "", ":memory:"):
        raise StoreError("sqlite: an in-memory database keeps nothing; name a file")
    path = Path(url.database).expanduser()
    name = str(path)
    with _guard_open(name):
        if not path.exists():
            if not create:
                raise MissingDatabase(f"{name}: no such file")
            _create_sqlite(path)
        ours = _check_sqlite_file(path, busy_seconds)
    engine = _sqlite_engine(path, busy_seconds)
    _prepare(name, engine, ours, create, wal=True)
    return name, engine


def _create_sqlite(path: Path) -> None:
    """A new database made beside `path` and linked into place complete, so that a crash
    never leaves an empty or half-made file; a file made meanwhile is kept as it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.new")
    temp.unlink(missing_ok=True)
    engine = _sqlite_engine(temp)
    try:
        _initialise(str(temp), engine, wal=True)
    finally:
        engine.dispose()
    try:
        os.link(temp, path)
    except FileExistsError:
        pass
    finally:
        temp.unlink()


def _sqlite_engine(path: Path, busy_seconds: float = BUSY_SECONDS) -> Engine:
    engine = create_engine(URL.create("sqlite", database=str(path)), connect_args={"timeout": busy_seconds})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN"))
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: object) -> None:
    """Let SQLAlchemy emit BEGIN (so DDL is transactional too); durable commits in WAL mode."""
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def _check_sqlite_file(path: Path, busy_seconds: float = BUSY_SECONDS) -> bool:
    """True for a munchkin database, False for a SQLite file with no tables; refuse anything
    else. Only reads."""
    name = str(path)
    with _guard_open(name):
        if not path.is_file():
            raise StoreError(f"{name}: not a file")
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    if not head:
        raise StoreError(f"{name}: empty file, not a munchkin database")
    if head != SQLITE_MAGIC:
        raise StoreError(f"{name}: not an SQLite database")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, timeout=busy_seconds))
    try:
        with _guard_open(name, "corrupt or unreadable SQLite database"), engine.connect() as conn:
            problems = [row[0] for row in conn.exec_driver_sql("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{name}: corrupt SQLite database ({problems[0]})")
            return _check_tables(name, engine)
    finally:
        engine.dispose()


def _open_postgres(url: URL, create: bool, busy_seconds: float = BUSY_SECONDS) -> tuple[str, Engine]:
    name = url.render_as_string(hide_password=True)
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    try:
        engine = create_engine(url, connect_args={"options": f"-c lock_timeout={round(busy_seconds * 1000)}"})
    except ModuleNotFoundError as exc:
        raise StoreError(f"{name}: PostgreSQL needs {exc.name}: pip install -e '.[postgres]'") from None
    with _guard_open(name):
        ours = _check_tables(name, engine)
    _prepare(name, engine, ours, create, wal=False)
    return name, engine


def _prepare(name: str, engine: Engine, ours: bool, create: bool, wal: bool) -> None:
    """Create the tables in a database that has none, unless only reading."""
    if ours:
        return
    if not create:
        engine.dispose()
        raise MissingDatabase(f"{name}: no saved games here")
    _initialise(name, engine, wal)


def _check_tables(name: str, engine: Engine) -> bool:
    """True if the database holds our tables at a format we read; False if it holds no tables."""
    tables = set(inspect(engine).get_table_names())
    if not tables:
        return False
    if MetaRow.__tablename__ not in tables:
        others = ", ".join(sorted(tables)[:5])
        raise StoreError(f"{name}: not a munchkin database (it holds other tables: {others})")
    missing = TABLES - tables
    if missing:
        raise StoreError(f"{name}: incomplete munchkin database (missing {', '.join(sorted(missing))})")
    with engine.connect() as conn:
        version = conn.scalar(select(MetaRow.value).where(MetaRow.key == "format_version"))
    if version is None or not version.isdigit():
        raise StoreError(f"{name}: munchkin_meta holds no valid format_version ({version!r})")
    if int(version) > FORMAT_VERSION:
        raise StoreError(f"{name}: written by a newer version of munchkin (format {version}; {_READS})")
    if int(version) < FORMAT_VERSION:
        raise StoreError(
            f"{name}: written by an older version of munchkin (format {version}; {_READS}: "
            "its games followed older rules and cannot be replayed; use another --db)"
        )
    return True


def _initialise(name: str, engine: Engine, wal: bool) -> None:
    """Create the tables and the format version in one transaction (WAL first, for SQLite)."""
    with _guard_open(name):
        if wal:
            raw = engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA journal_mode=WAL")
            finally:
                raw.close()
        with engine.begin() as conn:
            Base.metadata.create_all(conn)
            conn.execute(insert(MetaRow).values(key="format_version", value=str(FORMAT_VERSION)))


@contextmanager
def _guard_open(name: str, what: str | None = None) -> Iterator[None]:
    """Errors while opening as one-line `StoreError`s naming the database (and `what` failed)."""
    try:
        yield
    except (SQLAlchemyError, OSError, sqlite3.Error) as exc:
        problem = _one_line(exc)
        raise StoreError(f"{name}: {what} ({problem})" if what else f"{name}: {problem}") from None


def _one_line(exc: BaseException) -> str:
    """The first line of a driver's message, without SQLAlchemy's SQL and links."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


# ------------------------------------------------------------------ rows


def _sets(text: str, where: str) -> tuple[str, ...]:
    data = _json(text, f"{where}: sets")
    if not isinstance(data, list) or not all(isinstance(s, str) for s in data):
        raise StoreError(f"{where}: sets: expected a list of card set names")
    return tuple(data)


def _seats(text: str, where: str) -> tuple[Seat, ...]:
    data = _json(text, f"{where}: seats")
    keys = {"name", "sex", "kind"}
    if not isinstance(data, list) or not all(
        isinstance(s, dict) and set(s) == keys and all(isinstance(v, str) for v in s.values()) for s in data
    ):
        raise StoreError(f"{where}: seats: expected a list of {{name, sex, kind}}")
    return tuple(Seat(**seat) for seat in data)


def _options(text: str, where: str) -> TableOptions:
    """The saved table options (only those not at their defaults are saved)."""
    try:
        return parse_options(_json(text, f"{where}: options"), f"{where}: options")
    except OptionsError as exc:
        raise StoreError(str(exc)) from None


def _winners(text: str, names: set[str], where: str) -> tuple[str, ...]:
    data = _json(text, f"{where}: winners")
    if not isinstance(data, list) or not all(isinstance(w, str) and w in names for w in data):
        raise StoreError(f"{where}: winners: expected a list of the game's players")
    return tuple(data)


def _decision(row: DecisionRow, number: int, names: set[str], where: str) -> Decision:
    here = f"{where}, decision {number}"
    if row.number != number:
        raise StoreError(f"{here}: missing (the next saved is {row.number})")
    if row.player not in names:
        raise StoreError(f"{here}: unknown player {row.player!r}")
    try:
        action = action_from_dict(_json(row.action, here))
    except ActionFormatError as exc:
        raise StoreError(f"{here}: {exc}") from None
    return Decision(row.player, action, row.fingerprint)


def _json(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise StoreError(f"{where}: bad JSON ({_one_line(exc)})") from None


# ------------------------------------------------------------------ replay

Hook = Callable[[Game, int, Decision], None]
"""Called with the game, the decision's number (from 1) and the decision."""


@functools.cache
def load_cards(sets: tuple[str, ...]) -> tuple[CardDef, ...]:
    """The cards of the named built-in sets (loaded once)."""
    return tuple(load_builtin_sets(sets))


def new_game(setup: Setup) -> Game:
    """The starting position by the setup's table options; CardLoadError or SetupError if the
    setup cannot start a game."""
    seats = [(seat.name, seat.sex) for seat in setup.seats]
    return Game.new(load_cards(setup.sets), seats, setup.seed, setup.options)


def replay(
    setup: Setup,
    decisions: Sequence[Decision],
    where: str,
    before: Hook | None = None,
    after: Hook | None = None,
) -> tuple[Game, list[Event]]:
    """The game again from its setup, each decision checked by the engine; its events.
    `before` runs once a decision is found legal, `after` once it is applied."""
    try:
        game = new_game(setup)
    except (CardLoadError, SetupError) as exc:
        raise StoreError(f"{where}: {exc}") from None
    events: list[Event] = []
    for number, decision in enumerate(decisions, 1):
        try:
            game.check(decision.player, decision.action)
        except RulesError as exc:
            raise StoreError(
                f"{where}, decision {number}: {decision.player} {decision.action}: {exc}"
            ) from None
        if before:
            before(game, number, decision)
        events += game.apply(decision.player, decision.action)
        if after:
            after(game, number, decision)
    return game, events


def fingerprint_check(where: str) -> Hook:
    """An `after` hook for `replay`: refuse the first decision whose replayed state is not the
    one saved with it (a `StoreError` naming it)."""

    def check(game: Game, number: int, decision: Decision) -> None:
        if state_fingerprint(game) != decision.fingerprint:
            raise StoreError(f"{where}, decision {number}: the replayed state is not the saved one")

    return check


def verify(saved: SavedGame) -> tuple[Game, list[Event]]:
    """`replay`, checking the state after every decision and at the end against the saved
    fingerprints; a `StoreError` names the first decision where they differ."""
    game, events = replay(
        saved.info.setup, saved.decisions, saved.where, after=fingerprint_check(saved.where)
    )
    check_final(saved, game)
    return game, events


def check_final(saved: SavedGame, game: Game) -> None:
    """Refuse a replayed game whose state is not the one saved after the last decision."""
    if state_fingerprint(game) != saved.info.progress.fingerprint:
        raise StoreError(f"{saved.where}: the replayed state is not the one saved after the last decision")
