"""Lobby tables and seat tokens (hashed) in the store's database, beside its saved games.

The tables are ours (`munchkin_web_*`); the games themselves are the store's. A
table is saved whole in one transaction whenever it changes (rarely: create,
join, ready, start, game over).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC

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
)
from sqlalchemy.exc import SQLAlchemyError

from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.store import StoreError
from munchkin.store.models import NAME_LENGTH
from munchkin.web import lobby

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
        """Every table, oldest first."""
        with self._guard(), self.engine.connect() as conn:
            rows = conn.execute(select(tables).order_by(tables.c.created)).all()
            slots: dict[str, list[lobby.SeatSlot]] = {}
            for s in conn.execute(select(seats).order_by(seats.c.code, seats.c.number)):
                slots.setdefault(s.code, []).append(
                    lobby.SeatSlot(s.kind, s.name, s.sex, s.token_hash, s.ready)
                )
        return [
            lobby.Table(
                row.code,
                tuple(json.loads(row.sets)),
                row.response_seconds,
                slots.get(row.code, []),
                row.status,
                row.game_id,
                row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC),
                _options(row.options, row.code),
            )
            for row in rows
        ]

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


def _options(text: str, code: str) -> TableOptions:
    """A table's saved options; a bad save is a one-line `StoreError` naming the table."""
    try:
        return parse_options(json.loads(text), f"lobby table {code}: options")
    except (OptionsError, json.JSONDecodeError) as exc:
        raise StoreError(str(exc)) from None
