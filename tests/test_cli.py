"""The top-level `munchkin` command: the demo game and clear errors."""

from __future__ import annotations

from typer.testing import CliRunner

from munchkin.cli import app

runner = CliRunner()


def test_demo_tells_a_whole_game_and_its_winner() -> None:
    result = runner.invoke(app, ["demo", "--seed", "5", "--players", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Game seed 5, 3 players, sets: base"
    assert any("kicks open the door" in line for line in lines)
    assert lines[-1].startswith("Winner: ") and "nobody" not in lines[-1]


def test_the_expansion_alone_is_too_small_for_a_game() -> None:
    result = runner.invoke(app, ["demo", "--sets", "horses"])
    assert result.exit_code == 2
    assert "a game needs at least" in result.output and "Traceback" not in result.output


def test_an_unknown_set_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["demo", "--sets", "nope"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
