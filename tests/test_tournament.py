"""`munchkin tournament` (issue 16, item 3): seat-rotated games between bot kinds, win rates
with Wilson intervals, openskill ratings; the same results for any number of workers."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from munchkin.sim.cli import register
from munchkin.sim.stats import wilson
from munchkin.sim.tournament import ratings

app = typer.Typer()
register(app)
runner = CliRunner()
ARGS = ["tournament", "--bots", "heuristic,random,random", "--games", "6", "--seed", "3", "--json"]


def tournament(*options: str) -> dict[str, Any]:
    result = runner.invoke(app, [*ARGS, *options])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def one_worker() -> dict[str, Any]:
    return tournament("--workers", "1")


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "timing"}


def test_one_or_two_workers_give_the_same_results(one_worker: dict[str, Any]) -> None:
    two = tournament("--workers", "2")
    assert _without_timing(two) == _without_timing(one_worker)
    runners = (one_worker["timing"]["runner"], two["timing"]["runner"])
    assert runners == ("local (1 worker)", "local (2 workers)")


def test_seats_rotate_so_each_bot_sits_everywhere(one_worker: dict[str, Any]) -> None:
    games = one_worker["per_game"]
    assert [g["bots"] for g in games[:3]] == [
        ["heuristic", "random", "random"],
        ["random", "random", "heuristic"],
        ["random", "heuristic", "random"],
    ]
    assert {g["bots"].index("heuristic") for g in games} == {0, 1, 2}
    assert one_worker["win_rate_by_bot"]["heuristic"]["games"] == 6
    assert one_worker["win_rate_by_bot"]["random"]["games"] == 12


def test_json_gives_each_kind_its_rate_interval_games_and_rating(one_worker: dict[str, Any]) -> None:
    by_bot, rated = one_worker["win_rate_by_bot"], one_worker["ratings"]
    assert set(by_bot) == set(rated) == {"heuristic", "random"}
    for kind, figures in by_bot.items():
        assert {"rate", "ci95", "games", "wins"} <= set(figures)
        wins = sum(kind == g["bots"][seat] for g in one_worker["per_game"] for seat in g["winners"])
        assert figures["wins"] == wins
        assert figures["rate"] == pytest.approx(wins / figures["games"])
        assert figures["ci95"] == pytest.approx(list(wilson(wins, figures["games"])))
        assert set(rated[kind]) == {"mu", "sigma", "ordinal"}
        assert rated[kind]["ordinal"] == pytest.approx(rated[kind]["mu"] - 3 * rated[kind]["sigma"])
    assert one_worker["games"] == 6 and len(one_worker["per_game"]) == 6


def test_each_kinds_thinking_time_per_decision_is_measured(one_worker: dict[str, Any]) -> None:
    times = one_worker["timing"]["decision_ms"]
    assert set(times) == {"heuristic", "random"}
    for figures in times.values():
        assert figures["decisions"] > 0
        assert 0 < figures["median"] <= figures["p90"] <= figures["max"]


def test_wilson_interval_matches_newcombes_worked_cases() -> None:
    """Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (the score interval)."""
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert wilson(1, 29) == pytest.approx((0.0061, 0.1718), abs=1e-4)


def test_text_output_is_a_table_of_kinds_by_rating() -> None:
    result = runner.invoke(app, [*ARGS[:-1], "--workers", "1"])
    assert result.exit_code == 0, result.output
    rows = [line.split()[0] for line in result.stdout.splitlines()[2:4]]
    assert rows == ["heuristic", "random"] or rows == ["random", "heuristic"]
    assert "95% interval" in result.stdout and "an equal share is 33.3%" in result.stdout


def _game(bots: list[str], winners: list[int]) -> dict[str, Any]:
    return {"bots": bots, "winners": winners}


def test_ratings_follow_wins_and_shared_first_places() -> None:
    wins = ratings([_game(["a", "b", "c"], [0])] * 5)
    assert wins["a"]["mu"] > wins["b"]["mu"] == pytest.approx(wins["c"]["mu"])
    shared = ratings([_game(["a", "b", "c"], [0, 1])])
    assert shared["a"]["mu"] == pytest.approx(shared["b"]["mu"]) and shared["a"]["mu"] > shared["c"]["mu"]
    unfinished = ratings([_game(["a", "b"], [])])
    assert unfinished["a"] == unfinished["b"] and unfinished["a"]["mu"] == pytest.approx(25.0)


def test_a_kind_in_several_seats_moves_by_the_mean_of_its_seats() -> None:
    one_of_three = ratings([_game(["a", "b", "b", "b"], [1])])
    none = ratings([_game(["a", "b", "b", "b"], [0])])
    assert one_of_three["b"]["mu"] > none["b"]["mu"]
    assert one_of_three["a"]["mu"] < 25.0 < none["a"]["mu"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--bots", "heuristic,genius"], "error: unknown bots ['genius']; choose from random, heuristic"),
        (["--bots", "heuristic"], "error: --bots 'heuristic': one bot per seat, 2 to 6 of them"),
        (["--bots", ",".join(["random"] * 7)], "error: --bots"),
        (["--sets", "base,nope"], "error: "),
        (["--games", "0"], "error: --games 0: must be more than 0"),
        (["--think-ms", "-5"], "error: --think-ms -5: must be more than 0"),
        (["--think-ms", "inf"], "error: --think-ms inf: at most 600000"),
        (["--sets", "horses"], "error: the chosen card sets hold "),
        (["--iterations", "0"], "error: --iterations 0: must be more than 0"),
        (["--workers", "0"], "error: --workers 0: must be more than 0"),
        (["--option", "win_lvl=3"], "error: --option: 'win_lvl': unknown option"),
    ],
)
def test_bad_arguments_are_one_line_errors(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--games", "1", *options])
    assert result.exit_code == 2
    assert result.output.startswith(message), result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_search_bots_at_a_budget_of_iterations_give_the_same_results_on_any_workers() -> None:
    pytest.importorskip("munchkin.bots.search", reason="the search bot is not there")
    args = ["--bots", "search,cheat,random", "--iterations", "2", "--games", "3", "--max-decisions", "60"]
    one, two = (tournament(*args, "--workers", workers) for workers in ("1", "2"))
    assert _without_timing(one) == _without_timing(two)
    assert set(one["win_rate_by_bot"]) == {"search", "cheat", "random"}
    assert one["config"]["iterations"] == 2 and one["config"]["think_ms"] is None
