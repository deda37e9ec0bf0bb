"""Fixtures shared by the store and web tests, and the Hypothesis profile of every test."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_ENV = "MUNCHKIN_TEST_POSTGRES_URL"

settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")
"""No per-example deadline: on a loaded shared machine an example can take seconds, and a
timeout then only starts minutes of shrinking. Speed is measured by the benchmarks."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty database: a SQLite file, or a PostgreSQL database made for the test
    (skipped, saying why, when no server is configured)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f'{PG_ENV} is not set (eval "$(bash .ci/postgres.sh)" starts a server)')
    name = f"munchkin_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()
