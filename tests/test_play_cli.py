"""`munchkin play`: seats from the options, headless games between bots, refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from munchkin.session import Seat
from munchkin.store import Store
from munchkin.tui.cli import register
from munchkin.tui.seats import SeatError, parse_seats
from shared_wins import LOW_WIN, shared_win_seed

BOTS = "bot:heuristic,bot:random,bot:random,bot:random"


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)
    register(app)
    return app


def play(cli: typer.Typer, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args])
    return result.exit_code, result.output


def test_default_seats_are_you_and_three_heuristic_bots() -> None:
    assert parse_seats("", "Bob", "male", 3) == [
        Seat("Bob", "male", "human"),
        Seat("Ann", "female", "bot:heuristic"),
        Seat("Cid", "male", "bot:heuristic"),
        Seat("Dee", "female", "bot:heuristic"),
    ]


def test_players_list_gives_hot_seat_humans_their_sex_and_bots_the_free_names() -> None:
    seats = parse_seats("human:Ann,bot:random,human:Cid:male", "x", "female", 3)
    assert seats == [
        Seat("Ann", "female", "human"),
        Seat("Bob", "male", "bot:random"),
        Seat("Cid", "male", "human"),
    ]


@pytest.mark.parametrize(
    "players", ["human:Ann,bot:clever", "human:Ann:robot", "human:,bot:random", ",".join(["bot:random"] * 7)]
)
def test_bad_players_lists_are_refused(players: str) -> None:
    with pytest.raises(SeatError):
        parse_seats(players, "Ann", "female", 3)


def test_headless_game_prints_winner_turns_and_id_and_is_saved(cli: typer.Typer, tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    code, out = play(cli, "--players", BOTS, "--seed", "1", "--no-ui", "--db", db)
    assert code == 0, out
    found = re.fullmatch(r"Winner: (\w+) after (\d+) turns \(game (\d+)\)\.\n", out)
    assert found, out
    with Store(db) as store:
        (game,) = store.games()
    assert (game.id, game.progress.winner, game.progress.turn) == (
        int(found[3]),
        found[1],
        int(found[2]),
    )
    assert play(cli, "--resume", found[3], "--no-ui", "--db", db) == (0, out)


def test_a_headless_game_by_table_options_names_every_winner_and_resumes_by_them(
    cli: typer.Typer, tmp_path: Path
) -> None:
    """`--option win_level=3`: saved with the game; several winners are all named (B2)."""
    db = str(tmp_path / "games.sqlite3")
    seed = str(shared_win_seed())
    code, out = play(
        cli,
        "--players",
        "bot:random,bot:random,bot:random",
        "--seed",
        seed,
        "--option",
        "win_level=3",
        "--no-ui",
        "--db",
        db,
    )
    assert code == 0, out
    found = re.fullmatch(r"Winners: (\w+) and (\w+) \(together\) after (\d+) turns \(game 1\)\.\n", out)
    assert found, out
    with Store(db) as store:
        (game,) = store.games()
    assert game.setup.options == LOW_WIN and game.progress.winners == (found[1], found[2])
    assert play(cli, "--resume", "1", "--no-ui", "--db", db) == (0, out)
    code, refused = play(cli, "--resume", "1", "--option", "win_level=4", "--no-ui", "--db", db)
    assert code == 2 and "keeps the seats, card sets, seed and table options it was saved with" in refused
    for given in (["--seed", "5"], ["--sets", "base,horses"], ["--players", "bot:random,bot:random"]):
        code, refused = play(cli, "--resume", "1", *given, "--no-ui", "--db", db)  # were ignored
        assert (code, refused) == (
            2,
            f"error: a resumed game keeps the seats, card sets, seed and table options it was saved "
            f"with: leave out {given[0]}\n",
        )


def test_the_table_options_are_listed_and_a_bad_one_is_a_one_line_error(
    cli: typer.Typer, tmp_path: Path
) -> None:
    code, out = play(cli, "--option", "help")
    assert code == 0
    assert out.splitlines()[0] == "win_level=2-20 (default 10): The level that wins the game (B2)."
    assert "loot_ties=dice|seat (default dice): " in out and len(out.splitlines()) == 11
    code, out = play(cli, "--option", "door_cards=eleven", "--no-ui", "--db", str(tmp_path / "g.db"))
    assert code == 2 and out.startswith("error: --option: 'door_cards': ") and out.count("\n") == 1, out
    code, out = play(cli, "--option", "win_level", "--no-ui", "--db", str(tmp_path / "g.db"))
    assert (code, out) == (2, "error: --option: expected NAME=VALUE, got 'win_level'\n")
    code, out = play(cli, "--help")
    assert code == 0 and "--option" in out and "halfling_reroll" in out


def test_headless_refuses_human_seats(cli: typer.Typer, tmp_path: Path) -> None:
    code, out = play(cli, "--players", "human:Ann,bot:random", "--no-ui", "--db", str(tmp_path / "g.db"))
    assert code == 2
    assert "--no-ui plays bots only, but Ann would be human" in out


def test_screen_refuses_a_table_without_humans(cli: typer.Typer, tmp_path: Path) -> None:
    code, out = play(cli, "--players", "bot:random,bot:random", "--db", str(tmp_path / "g.db"))
    assert code == 2
    assert "no human seat" in out


def test_unknown_card_set_and_missing_game_are_one_line_errors(cli: typer.Typer, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, out = play(cli, "--players", BOTS, "--sets", "nonsense", "--no-ui", "--db", db)
    assert code == 2 and out.startswith("error: ") and out.count("\n") == 1, out
    code, out = play(cli, "--resume", "99", "--no-ui", "--db", db)
    assert code == 2 and out.startswith("error: ") and out.count("\n") == 1, out
