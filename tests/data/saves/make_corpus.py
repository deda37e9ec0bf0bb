"""The bad save corpus: SQLite files that `Store` must refuse with a one-line `StoreError`,
leaving each file byte for byte as it was.

Rebuild the files (after a change of the save format) with
`.venv/bin/python tests/data/saves/make_corpus.py`. `CASES` is also used by
tests/test_store.py to make the same databases on PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

from munchkin.session import Seat, Session
from munchkin.store import Store

HERE = Path(__file__).parent
SEATS = (Seat("Ann", "female", "bot:random"), Seat("Bob", "male", "bot:random"), Seat("Cid", "male", "human"))
SEED = 5


@dataclass(frozen=True)
class Case:
    """SQL applied to a database, and the part of the error that must name what is wrong."""

    base: str  # "game": game 1 saved with one decision; "empty": a database with no tables
    sql: tuple[str, ...]
    error: str
    on_open: bool  # refused when the database is opened (else when game 1 is resumed or replayed)


def _set_action(action: str) -> tuple[str, ...]:
    return (f"UPDATE munchkin_decisions SET action = '{action}' WHERE game_id = 1 AND number = 1",)


CASES = {
    "other_app": Case(
        "empty",
        ("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)", "CREATE TABLE orders (id INTEGER)"),
        "not a munchkin database (it holds other tables: orders, users)",
        on_open=True,
    ),
    "newer_format": Case(
        "game",
        ("UPDATE munchkin_meta SET value = '99' WHERE key = 'format_version'",),
        "written by a newer version of munchkin (format 99; this program reads format 2)",
        on_open=True,
    ),
    "older_format": Case(
        "game",
        (  # the format 1 game row: one winner, no options
            "ALTER TABLE munchkin_games DROP COLUMN options",
            "ALTER TABLE munchkin_games DROP COLUMN winners",
            "ALTER TABLE munchkin_games ADD COLUMN winner VARCHAR(64)",
            "UPDATE munchkin_games SET format_version = 1",
            "UPDATE munchkin_meta SET value = '1' WHERE key = 'format_version'",
        ),
        "written by an older version of munchkin (format 1; this program reads format 2: "
        "its games followed older rules and cannot be replayed; use another --db)",
        on_open=True,
    ),
    "newer_game_format": Case(
        "game",
        ("UPDATE munchkin_games SET format_version = 99",),
        "game 1: saved by a newer version (format 99",
        on_open=False,
    ),
    "unknown_verb": Case(
        "game", _set_action('{"verb": "fly"}'), "game 1, decision 1: unknown verb 'fly'", False
    ),
    "bad_json": Case(
        "game", _set_action('{"verb": "pass"'), "game 1, decision 1: action: bad JSON (Expecting", False
    ),
    "refused_action": Case(
        "game",
        _set_action('{"verb": "accept_trade"}'),
        "accept_trade: refused (B13): no trade is offered to you",
        on_open=False,
    ),
    "unknown_player": Case(
        "game",
        ("UPDATE munchkin_decisions SET player = 'Zed' WHERE game_id = 1 AND number = 1",),
        "game 1, decision 1: unknown player 'Zed'",
        on_open=False,
    ),
    "missing_decision": Case(
        "game",
        ("UPDATE munchkin_decisions SET number = 5 WHERE game_id = 1 AND number = 1",),
        "game 1, decision 1: missing (the next saved is 5)",
        on_open=False,
    ),
}

BYTE_CASES = {
    "empty": "empty file, not a munchkin database",
    "not_sqlite": "not an SQLite database",
    "corrupt": "corrupt or unreadable SQLite database (database disk image is malformed)",
    "truncated": "corrupt or unreadable SQLite database (database disk image is malformed)",
}
"""Files broken below SQL (SQLite only), and the part of the error they must give."""


def build(url: str, case: Case) -> None:
    """Make `case` in the (new, empty) database at `url`."""
    if case.base == "game":
        save_game(url, decisions=1)
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in case.sql:
            conn.execute(text(statement))
    engine.dispose()


def save_game(url: str, decisions: int) -> None:
    """Game 1, with bots playing its first `decisions` decisions (a human waits at the table)."""
    with Store(url) as store:
        session = Session.start(SEATS, ["base"], SEED, store)
        while len(session.decisions) < decisions and not session.over:
            if not session.step_bots(limit=decisions - len(session.decisions)):
                human = session.waiting_humans()[0]
                session.apply(human, session.view(human).legal[0])


def _single_file(path: Path) -> None:
    """Out of WAL mode and compacted, so the corpus is one small file."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("VACUUM")
    conn.close()


def _sqlite(name: str) -> Path:
    path = HERE / f"{name}.sqlite3"
    path.unlink(missing_ok=True)
    return path


def main() -> None:
    for name, case in CASES.items():
        path = _sqlite(name)
        build(f"sqlite:///{path}", case)
        _single_file(path)
    _sqlite("empty").write_bytes(b"")
    _sqlite("not_sqlite").write_text("id,name\n1,Ann\n")
    path = _sqlite("truncated")
    save_game(f"sqlite:///{path}", decisions=400)
    _single_file(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    path = _sqlite("corrupt")
    save_game(f"sqlite:///{path}", decisions=40)
    _single_file(path)
    data = bytearray(path.read_bytes())
    data[4096 : 3 * 4096] = bytes(range(256)) * 32  # scribble over pages 2 and 3
    path.write_bytes(bytes(data))


if __name__ == "__main__":
    main()
