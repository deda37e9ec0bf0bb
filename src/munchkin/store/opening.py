"""Opening a database of saved games: SQLite by default, PostgreSQL with `postgresql://`.

Opening never writes to a database that is not ours: an existing SQLite file is
first checked read-only (header, `quick_check`, tables, format version); tables
are created only in a database that has none. A SQLite database is created complete
or not at all, in WAL mode with `synchronous=NORMAL` (see `store.store`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import platformdirs
from sqlalchemy import URL, Engine, create_engine, event, insert, inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from munchkin.store.errors import READS, MissingDatabase, StoreError, guard_open
from munchkin.store.models import FORMAT_VERSION, Base, MetaRow

SQLITE_MAGIC = b"SQLite format 3\x00"
TABLES = frozenset(Base.metadata.tables)
BUSY_SECONDS = 5.0
"""How long a statement waits for another connection's lock before it fails, by default."""


def default_url() -> str:
    """`games.sqlite3` in the user's data directory (e.g. `~/.local/share/munchkin/`)."""
    return str(URL.create("sqlite", database=str(platformdirs.user_data_path("munchkin") / "games.sqlite3")))


def open_database(url: str, create: bool, busy_seconds: float) -> tuple[str, Engine]:
    """The database at `url` (a SQLAlchemy URL or a file path), checked: its name for
    messages and its engine. Its tables are created if it has none, unless not `create`."""
    parsed = _parse(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _open_sqlite(parsed, create, busy_seconds)
    if backend == "postgresql":
        return _open_postgres(parsed, create, busy_seconds)
    raise StoreError(f"{parsed.render_as_string()}: only SQLite and PostgreSQL are supported")


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
    with guard_open(name):
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
    with guard_open(name):
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
        with guard_open(name, "corrupt or unreadable SQLite database"), engine.connect() as conn:
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
    with guard_open(name):
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
        text = conn.scalar(select(MetaRow.value).where(MetaRow.key == "format_version"))
    version = _format_version(text)
    if version is None:
        raise StoreError(f"{name}: munchkin_meta holds no valid format_version ({text!r:.80})")
    if version > FORMAT_VERSION:
        raise StoreError(f"{name}: written by a newer version of munchkin (format {version}; {READS})")
    if version < FORMAT_VERSION:
        raise StoreError(
            f"{name}: written by an older version of munchkin (format {version}; {READS}: "
            "its games followed older rules and cannot be replayed; use another --db)"
        )
    return True


def _format_version(text: object) -> int | None:
    """The format version `munchkin_meta` holds as text: ASCII digits only (`str.isdigit` takes
    `²` too, which `int` refuses, and `int` takes other scripts' digits); None if not that."""
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return int(text)
    return None


def _initialise(name: str, engine: Engine, wal: bool) -> None:
    """Create the tables and the format version in one transaction (WAL first, for SQLite)."""
    with guard_open(name):
        if wal:
            raw = engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA journal_mode=WAL")
            finally:
                raw.close()
        with engine.begin() as conn:
            Base.metadata.create_all(conn)
            conn.execute(insert(MetaRow).values(key="format_version", value=str(FORMAT_VERSION)))
