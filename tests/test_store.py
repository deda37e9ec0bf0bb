"""Saved games: save and resume, undo, listing, replay and its verification, and bad saves.

Every test taking `db_url` runs on SQLite and, when MUNCHKIN_TEST_POSTGRES_URL is set
(`eval "$(bash .ci/postgres.sh)"`), on PostgreSQL too, each in a database of its own.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
import typer
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from munchkin.engine.actions import action_to_dict
from munchkin.engine.options import TableOptions
from munchkin.session import Seat, Session
from munchkin.store import MissingDatabase, Store, StoreError, default_url
from munchkin.store.cli import register
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

SAVES = Path(__file__).parent / "data" / "saves"
BOTS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
SEED = 8  # a short game between random bots


def _corpus() -> ModuleType:
    """tests/data/saves/make_corpus.py, which defines the bad save cases."""
    spec = importlib.util.spec_from_file_location("save_corpus", SAVES / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


corpus = _corpus()


def _cli(*args: str) -> tuple[int, str, str]:
    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _sql(url: str, *statements: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(text(statement))
    engine.dispose()


def _played(url: str, decisions: int | None, seats: tuple[Seat, ...] = BOTS) -> int:
    """Game with bots playing its first `decisions` decisions (all of them if None); its id."""
    with Store(url) as store:
        session = Session.start(seats, ["base"], SEED, store)
        session.step_bots(limit=decisions)
        assert session.game_id is not None
        return session.game_id


# ---------------------------------------------------------------- save, resume, undo


def test_a_resumed_game_goes_on_as_if_never_interrupted(db_url: str) -> None:
    whole = Session.start(BOTS, ["base"], SEED)
    whole.run_to_end()
    game_id = _played(db_url, 90)
    with Store(db_url) as store:
        resumed = Session.resume(game_id, store)
        assert resumed.decisions == whole.decisions[:90]
        resumed.run_to_end()
        assert resumed.fingerprint() == whole.fingerprint()
        assert resumed.log() == whole.log()
    with Store(db_url) as store:
        again = Session.resume(game_id, store)
        assert again.fingerprint() == whole.fingerprint()
        (info,) = store.games()
    assert (info.progress.status, info.progress.winner) == ("won", whole.winner)
    assert info.decisions == len(whole.decisions)


def test_undo_is_saved(db_url: str) -> None:
    seats = (Seat("Ann", "female", "human"), *BOTS[1:])
    with Store(db_url) as store:
        session = Session.start(seats, ["base"], SEED, store)
        states = []
        for _ in range(3):
            session.step_bots()
            states.append((session.fingerprint(), len(session.decisions)))
            session.apply("Ann", session.view("Ann").legal[-1])
        session.step_bots()
        made = len(session.decisions)
        assert session.undo("Ann") == made - states[-1][1]
        assert (session.fingerprint(), len(session.decisions)) == states[-1]
        assert session.waiting_humans() == ["Ann"]
        game_id = session.game_id
        assert game_id is not None
    with Store(db_url) as store:
        resumed = Session.resume(game_id, store)
        assert (resumed.fingerprint(), len(resumed.decisions)) == states[-1]
        assert store.games()[0].decisions == states[-1][1]


def test_a_game_changed_elsewhere_is_not_overwritten(db_url: str) -> None:
    game_id = _played(db_url, 20)
    with Store(db_url) as store:
        first, second = Session.resume(game_id, store), Session.resume(game_id, store)
        first.step_bots(limit=1)
        with pytest.raises(StoreError, match=f"game {game_id}: changed by someone else"):
            second.step_bots(limit=1)
        assert len(second.decisions) == 20
        assert Session.resume(game_id, store).fingerprint() == first.fingerprint()


def test_a_save_that_fails_half_way_changes_nothing_and_the_next_one_works(db_url: str) -> None:
    game_id = _played(db_url, 20)
    with Store(db_url) as store:
        session = Session.resume(game_id, store)
        planted = f"({game_id}, 21, 'Ann', '{{\"verb\": \"pass\"}}', 'x')"
        _sql(db_url, f"INSERT INTO munchkin_decisions VALUES {planted}")  # the next decision's place
        with pytest.raises(StoreError) as failed:
            session.step_bots(limit=1)
        assert "\n" not in str(failed.value) and len(session.decisions) == 20
        assert store.games()[0].decisions == 20, "the game row was not moved without its decision"
        _sql(db_url, f"DELETE FROM munchkin_decisions WHERE game_id = {game_id} AND number = 21")
        session.step_bots(limit=5)
        assert Session.resume(game_id, store).fingerprint() == session.fingerprint()
        assert store.games()[0].decisions == 25


# ---------------------------------------------------------------- listing and replay


def test_games_lists_every_game(db_url: str) -> None:
    _played(db_url, None)
    _played(db_url, 10, seats=(Seat("Dee", "female", "human"), *BOTS[1:]))
    code, out, _ = _cli("games", "--db", db_url)
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    with Store(db_url) as store:
        won, playing = store.games()
    whole = Session.start(BOTS, ["base"], SEED)  # the same game, played again unsaved
    whole.run_to_end()
    assert (won.progress.status, won.progress.winners) == ("won", tuple(whole.winners))
    assert playing.progress.status == "playing"
    for row, info in zip(rows, (won, playing), strict=True):
        seats = ", ".join(f"{seat.name} ({seat.kind})" for seat in info.setup.seats)
        assert row[0] == str(info.id) and " ".join(row[3:9]) == seats
        winners = list(info.progress.winners)
        assert row[9:] == [info.progress.status, *winners, str(info.progress.turn), str(info.decisions)]


def test_replay_tells_the_game_and_verifies_it(db_url: str) -> None:
    game_id = _played(db_url, None)
    whole = Session.start(BOTS, ["base"], SEED)
    whole.run_to_end()
    code, out, _ = _cli("replay", str(game_id), "--db", db_url)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "Game 1: seed 8, sets base, standard rules; Ann (bot:random), Bob (bot:random), Cid (bot:random)"
    )
    assert lines[1:-1] == whole.log()
    n, turn = len(whole.decisions), whole.view("Bob").data["turn"]
    assert lines[-1] == f"{whole.winner} wins on turn {turn}, after {n} decisions."
    code, out, _ = _cli("replay", str(game_id), "--verify", "--db", db_url)
    assert (code, out.splitlines()[-1]) == (0, f"verified: {n} decisions lead to the saved state")


def test_table_options_are_saved_resumed_and_replayed_by(db_url: str) -> None:
    """The options are part of the setup: a resumed game and a replay play by them (B2, B1)."""
    options = TableOptions(win_level=5, door_cards=2, sale_gold="pooled")
    whole = Session.start(BOTS, ["base"], SEED, options=options)
    whole.run_to_end()
    with Store(db_url) as store:
        session = Session.start(BOTS, ["base"], SEED, store, options)
        session.step_bots(limit=30)
        game_id = session.game_id
        assert game_id is not None
    with Store(db_url) as store:
        (info,) = store.games()
        assert info.setup.options == options
        resumed = Session.resume(game_id, store)
        assert resumed.options == options
        resumed.run_to_end()
    assert resumed.fingerprint() == whole.fingerprint()
    levels = {p["name"]: p["level"] for p in resumed.view("Ann").data["players"]}
    assert all(levels[w] == 5 for w in resumed.winners) and max(levels.values()) == 5
    code, out, _ = _cli("replay", str(game_id), "--verify", "--db", db_url)
    assert code == 0
    assert out.splitlines()[0].startswith("Game 1: seed 8, sets base, options win_level=5, door_cards=2, ")
    code, out, _ = _cli("games", "--db", db_url)
    assert code == 0 and "win_level=5" in out


def test_several_winners_are_saved_listed_and_told(db_url: str) -> None:
    """A game that two players (or more) win together keeps all of them (B2)."""
    seed = shared_win_seed()
    with Store(db_url) as store:
        session = Session.start(RANDOM_BOTS, ["base"], seed, store, LOW_WIN)
        session.run_to_end()
    winners = session.winners
    assert len(winners) > 1
    with Store(db_url) as store:
        (info,) = store.games()
    assert info.progress.winners == tuple(winners) and info.progress.winner == winners[0]
    code, out, _ = _cli("games", "--db", db_url)
    (row,) = [line for line in out.splitlines() if line.strip().startswith("1 ")]
    assert "won" in row.split() and f" {', '.join(winners)} " in row
    code, out, _ = _cli("replay", "1", "--verify", "--db", db_url)
    turn, n = session.view("Ann").data["turn"], len(session.decisions)
    told = f"{', '.join(winners[:-1])} and {winners[-1]} win together on turn {turn}, after {n} decisions."
    assert (code, out.splitlines()[-2]) == (0, told)


def test_verify_finds_a_tampered_decision(db_url: str) -> None:
    """Decision 40 replaced by another legal one: the engine accepts it, the fingerprints do not."""
    game_id = _played(db_url, 60)
    with Store(db_url) as store:
        saved = store.load(game_id)
    before = Session.start(BOTS, ["base"], SEED)
    before.step_bots(limit=39)
    player = saved.decisions[39].player
    other = next(a for a in before.view(player).legal if a != saved.decisions[39].action)
    action = json.dumps(action_to_dict(other))
    _sql(db_url, f"UPDATE munchkin_decisions SET action = '{action}' WHERE number = 40")
    code, _, err = _cli("replay", str(game_id), "--verify", "--db", db_url)
    assert code == 2
    assert err.strip().endswith("game 1, decision 40: the replayed state is not the saved one")
    with Store(db_url) as store, pytest.raises(StoreError, match="decision 40: the replayed state"):
        Session.resume(game_id, store)


# ---------------------------------------------------------------- bad saves


@pytest.mark.parametrize("case", sorted(corpus.CASES))
def test_bad_saves_are_refused_in_one_line(db_url: str, case: str) -> None:
    """The corpus cases made anew, in this database (the SQLite files are checked below)."""
    corpus.build(db_url, corpus.CASES[case])
    _expect_refusal(db_url, corpus.CASES[case].error, corpus.CASES[case].on_open)


@pytest.mark.parametrize("path", sorted(SAVES.glob("*.sqlite3")), ids=lambda p: p.stem)
def test_the_bad_save_corpus_is_refused_and_left_as_it_was(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    case = corpus.CASES.get(path.stem)
    error = corpus.BYTE_CASES[path.stem] if case is None else case.error
    before = copy.read_bytes()
    _expect_refusal(str(copy), error, on_open=case is None or case.on_open)
    assert copy.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_the_corpus_covers_every_case() -> None:
    expected = {f"{name}.sqlite3" for name in [*corpus.CASES, *corpus.BYTE_CASES]}
    assert {p.name for p in SAVES.glob("*.sqlite3")} == expected


def _expect_refusal(url: str, error: str, on_open: bool) -> None:
    """Refused with `error`, by Store and Session and by `munchkin replay`, in one line."""
    if on_open:
        with pytest.raises(StoreError) as refused:
            Store(url)
    else:
        with Store(url) as store, pytest.raises(StoreError) as refused:
            Session.resume(1, store)
    message = str(refused.value)
    assert error in message and "\n" not in message
    code, out, err = _cli("replay", "1", "--verify", "--db", url)
    assert (code, out) == (2, "")
    assert err == f"error: {message}\n"


def test_nothing_is_created_in_a_database_of_something_else(db_url: str) -> None:
    _sql(db_url, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    with pytest.raises(StoreError, match=r"not a munchkin database \(it holds other tables: notes\)"):
        Store(db_url)
    engine = create_engine(db_url)
    with engine.connect() as conn:
        tables = conn.execute(text("SELECT COUNT(*) FROM notes")).scalar_one()
    engine.dispose()
    assert tables == 0
    _sql(db_url, "DROP TABLE notes")  # empty now: a munchkin database may be made in it
    Store(db_url).close()


def test_reading_commands_create_no_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'none.sqlite3'}"
    with pytest.raises(MissingDatabase):
        Store(url, create=False)
    assert _cli("games", "--db", url)[:2] == (
        0,
        f"No saved games ({tmp_path / 'none.sqlite3'}: no such file).\n",
    )
    assert _cli("replay", "1", "--db", url)[0] == 2
    assert list(tmp_path.iterdir()) == []


def test_bad_urls_and_missing_games_are_one_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    _played(str(path), 3)
    assert _cli("replay", "7", "--db", str(path))[1:] == ("", f"error: {path}: there is no game 7\n")
    huge = str(2**63)  # beyond SQLite's integers: an OverflowError came out of replay
    assert _cli("replay", huge, "--db", str(path))[1:] == ("", f"error: {path}: there is no game {huge}\n")
    assert _cli("play", "--resume", huge, "--no-ui", "--db", str(path))[0] == 2
    for url, error in [
        (
            "mysql://me@localhost/games",
            "mysql://me@localhost/games: only SQLite and PostgreSQL are supported",
        ),
        ("not a url://x", "not a url://x: not a database URL"),
        (
            "postgresql://me:secret@127.0.0.1:1/games",
            "postgresql://me:***@127.0.0.1:1/games: connection failed",
        ),
    ]:
        code, _, err = _cli("games", "--db", url)
        assert code == 2 and err.startswith(f"error: {error}") and err.count("\n") == 1


def test_the_default_database_is_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/munchkin/games.sqlite3"
    _played(default_url(), 2)
    assert _cli("games")[0] == 0
    assert (tmp_path / "munchkin" / "games.sqlite3").is_file()
