"""The top-level `munchkin` command: the demo game and clear errors."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from munchkin import cli
from munchkin.cli import app
from munchkin.engine.options import TableOptions
from munchkin.match import MatchResult

runner = CliRunner()


def test_demo_tells_a_whole_game_and_its_winner() -> None:
    result = runner.invoke(app, ["demo", "--seed", "5", "--players", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Game seed 5, 3 players, sets: base"
    assert any("kicks open the door" in line for line in lines)
    assert lines[-1].startswith("Winner: ") and "nobody" not in lines[-1]


def test_demo_names_every_winner_of_a_shared_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players reach the win level in the same fight: both are named (B2); the table
    options given reach the game."""
    seen: dict[str, Any] = {}

    def shared(*args: Any, **kwargs: Any) -> MatchResult:
        seen.update(kwargs)
        return MatchResult(5, ["Cid", "Ann"], [], turns=12)

    monkeypatch.setattr(cli, "play_match", shared)
    result = runner.invoke(app, ["demo", "--seed", "5", "--players", "3", "--option", "win_level=4"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "Winners: Cid and Ann (together) after 12 turns and 0 decisions."
    assert seen["options"] == TableOptions(win_level=4)


def test_the_expansion_alone_is_too_small_for_a_game() -> None:
    result = runner.invoke(app, ["demo", "--sets", "horses"])
    assert result.exit_code == 2
    assert "a game needs at least" in result.output and "Traceback" not in result.output


def test_an_unknown_set_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["demo", "--sets", "nope"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
