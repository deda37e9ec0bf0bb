"""Lobby tables and seat tokens (hashed) in the store's database, beside its saved games.

The tables are ours (`munchkin_web_*`); the games themselves are the store's. A
table is saved whole in one transaction whenever it changes (rarely: create,
join, ready, start, game over). A row that cannot be read (bad JSON, a bad date, an unknown
status or seat kind) is skipped at start-up with a one-line warning naming its table: one
bad row must not keep the server from starting.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    type_coerce,
)
from sqlalchemy.exc import SQLAlchemyError

from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.session import BOT_KINDS, HUMAN
from munchkin.store import StoreError
from munchkin.store.models import NAME_LENGTH
from munchkin.web import lobby

log = logging.getLogger("munchkin.web")
KINDS = frozenset({HUMAN, *BOT_KINDS})
metadata = MetaData()

tables = Table(
    "munchkin_web_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("sets", Text, nullable=False),
    Column("response_seconds", Float, nullable=False),
    Column("options", Text, nullable=False),  # JSON of the table options not at their defaults
    Column("status", String(16), nullable=False),
    Column("game_id", Integer),
)

seats = Table(
    "munchkin_web_seats",
    metadata,
    Column("code", String(16), ForeignKey("munchkin_web_tables.code", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("name", String(NAME_LENGTH)),
    Column("sex", String(16), nullable=False),
    Column("token_hash", String(64), index=True),
    Column("ready", Boolean, nullable=False),
)


class LobbyDb:
    """The lobby tables of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        with self._guard():
            metadata.create_all(engine)

    def load(self) -> list[lobby.Table]:
        """Every table that can be read, oldest first; the others are skipped, each with a
        one-line warning naming it. Columns are read as they are stored (a date as text in
        SQLite), so that one bad value costs its row only."""
        raw = [type_coerce(column, Text).label(column.name) for column in tables.c]
        with self._guard(), self.engine.connect() as conn:
            rows = conn.execute(select(*raw)).all()
            slots: dict[str, list[Any]] = {}
            for s in conn.execute(select(seats).order_by(seats.c.code, seats.c.number)):
                slots.setdefault(s.code, []).append(s)
        loaded = []
        for row in rows:
            try:
                loaded.append(_table(row, slots.get(row.code, [])))
            except (ValueError, TypeError, KeyError, RecursionError, StoreError) as exc:
                problem = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                log.warning("lobby table %.40r skipped: it cannot be read (%.200s)", row.code, problem)
        return sorted(loaded, key=lambda table: table.created)

    def delete(self, code: str) -> None:
        """Forget a table (expired, or its game over): its row and its seats, not its saved game."""
        with self._guard(), self.engine.begin() as conn:
            conn.execute(delete(seats).where(seats.c.code == code))
            conn.execute(delete(tables).where(tables.c.code == code))

    def save(self, table: lobby.Table) -> None:
        """Write the table and its seats as they are now."""
        row = {
            "code": table.code,
            "created": table.created,
            "sets": json.dumps(list(table.sets)),
            "response_seconds": table.response_seconds,
            "options": json.dumps(table.options.changed()),
            "status": table.status,
            "game_id": table.game_id,
        }
        seat_rows = [{"code": table.code, "number": i, **vars(slot)} for i, slot in enumerate(table.seats)]
        with self._guard(), self.engine.begin() as conn:
            conn.execute(delete(seats).where(seats.c.code == table.code))
            conn.execute(delete(tables).where(tables.c.code == table.code))
            conn.execute(insert(tables), row)
            conn.execute(insert(seats), seat_rows)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Database errors as one-line `StoreError`s naming the database."""
        try:
            yield
        except SQLAlchemyError as exc:
            lines = str(exc).strip().splitlines()
            name = self.engine.url.render_as_string(hide_password=True)
            raise StoreError(f"{name}: {lines[0] if lines else type(exc).__name__}") from None


def _table(row: Any, slots: list[Any]) -> lobby.Table:
    """One lobby row and its seats as a table; ValueError (or TypeError, StoreError) naming what
    is wrong."""
    sets = json.loads(row.sets)
    if not isinstance(sets, list) or not sets or not all(isinstance(s, str) for s in sets):
        raise ValueError("sets: expected a list of card set names")
    if row.status not in lobby.STATUSES:
        raise ValueError(f"unknown status {row.status!r}")
    if not slots or any(slot.kind not in KINDS for slot in slots):
        raise ValueError("seats: missing, or of an unknown kind")
    game_id = None if row.game_id is None else int(row.game_id)
    if row.status != lobby.OPEN and game_id is None:
        raise ValueError("a started game without its game id")
    return lobby.Table(
        str(row.code),
        tuple(sets),
        float(row.response_seconds),
        [lobby.SeatSlot(s.kind, s.name, s.sex, s.token_hash, bool(s.ready)) for s in slots],
        row.status,
        game_id,
        _created(row.created),
        _options(row.options, row.code),
    )


def _created(value: object) -> datetime:
    """A stored date: a datetime (PostgreSQL) or ISO text (SQLite)."""
    created = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return created if created.tzinfo else created.replace(tzinfo=UTC)


def _options(text: str, code: str) -> TableOptions:
    """A table's saved options; a bad save is a one-line `StoreError` naming the table."""
    try:
        return parse_options(json.loads(text), f"lobby table {code}: options")
    except (OptionsError, json.JSONDecodeError) as exc:
        raise StoreError(str(exc)) from None
