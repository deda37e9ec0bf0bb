"""The store's errors: each a `StoreError` whose message is one line naming the database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from munchkin.store.models import FORMAT_VERSION

READS = f"this program reads format {FORMAT_VERSION}"
"""Told with a save of another format."""


class StoreError(Exception):
    """A database or saved game that cannot be used; `str()` is one line."""


class MissingDatabase(StoreError):
    """Opened for reading only, and there is no database yet."""


LOCKED = "locked by another program: try again once it is done"
"""What a database another program holds locked longer than we wait is called."""


@contextmanager
def guard_open(name: str, what: str | None = None) -> Iterator[None]:
    """Errors while opening as one-line `StoreError`s naming the database (and `what` failed).
    A damaged file can make even SQLite's own message undecodable: a `UnicodeDecodeError`."""
    try:
        yield
    except (SQLAlchemyError, OSError, sqlite3.Error, UnicodeDecodeError) as exc:
        problem = one_line(exc)
        if problem.startswith("database is locked"):  # busy, not damaged: never say "corrupt"
            raise StoreError(f"{name}: {LOCKED}") from None
        raise StoreError(f"{name}: {what} ({problem})" if what else f"{name}: {problem}") from None


def one_line(exc: BaseException) -> str:
    """The first line of a driver's message, without SQLAlchemy's SQL and links."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    if isinstance(exc, UnicodeDecodeError):
        return "text that is not UTF-8"
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
