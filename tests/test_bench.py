"""`munchkin bench` in a tiny configuration: every figure is printed (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from munchkin.bench import BenchSettings, as_text, percentile_us, uno
from munchkin.engine import ENGINE, compiled_problem
from munchkin.sim.cli import register

TINY = [
    "--games",
    "1",
    "--samples",
    "4",
    "--uno-games",
    "2",
    "--sim-games",
    "2",
    "--seed",
    "1",
]  # short games
FIGURES = {
    "baseline": ["loop_median_us"],
    "random_games": ["games", "decisions", "seconds", "games_per_s", "decisions_per_s", "cores_used"],
    "engine_calls": [
        "states",
        "legal_actions_median_us",
        "legal_actions_p99_us",
        "copy_median_us",
        "copy_p99_us",
    ],
    "decision_costs": [
        "decisions",
        "legal_actions_us",
        "legal_actions_share",
        "bot_choice_us",
        "bot_choice_share",
        "apply_us",
        "apply_share",
        "verbs_asked_per_decision",
        "legal_actions_per_decision",
    ],
    "memory": ["states", "bytes_per_state"],
    "simulate": [
        "games",
        "workers_1_games_per_s",
        "workers_1_cores_used",
        "workers_2_games_per_s",
        "workers_2_cores_used",
        "speed_up",
        "engine",
    ],
    "ratios": ["decision_baselines", "legal_actions_median_baselines", "copy_median_baselines"],
}
UNO = [
    "games",
    "players",
    "raw_decisions_per_s",
    "raw_cores_used",
    "raw_legal_actions_per_decision",
    "env_decisions_per_s",
    "env_cores_used",
    "raw_decision_us",
]
UNO_RATIOS = [
    "our_decisions_per_s_vs_uno_raw",
    "our_decisions_per_s_vs_uno_env",
    "our_legal_actions_vs_uno_decision",
    "legal_actions_median_vs_uno_decision",
    "copy_median_vs_uno_decision",
]
HAS_RLCARD = importlib.util.find_spec("rlcard") is not None
RL = [
    "games",
    "steps",
    "env_steps_per_s",
    "engine_decisions_per_s",
    "env_step_in_engine_decisions",
    "legal_actions_per_step",
    "action_ids",
    "observation_size",
    "encoders",
]
HAS_RL = importlib.util.find_spec("pettingzoo") is not None

app = typer.Typer()
register(app)
runner = CliRunner()


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    result = runner.invoke(app, ["bench", *TINY, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_bench_measures_every_figure(figures: dict[str, Any]) -> None:
    expected = {part: list(names) for part, names in FIGURES.items()}
    expected["rlcard_uno"] = UNO if HAS_RLCARD else ["skipped"]
    expected["ratios"] += UNO_RATIOS if HAS_RLCARD else []
    expected["rl_env"] = RL if HAS_RL else ["skipped"]
    expected["ratios"] += ["rl_env_steps_per_s_vs_uno_env"] if HAS_RL and HAS_RLCARD else []
    assert figures["engine"] == ENGINE
    parts = {part: list(values) for part, values in figures.items() if part != "engine"}
    assert parts == expected
    numbers = [v for part, values in figures.items() if part != "engine" for v in values.values()]
    assert all(v > 0 for v in numbers if not isinstance(v, str))
    assert figures["simulate"]["engine"] == ENGINE
    assert figures["engine_calls"]["states"] == figures["memory"]["states"] == 4
    shares = [v for k, v in figures["decision_costs"].items() if k.endswith("_share")]
    assert sum(shares) == pytest.approx(1.0)


def test_bench_text_has_one_line_per_figure(figures: dict[str, Any]) -> None:
    lines = as_text(figures).splitlines()
    assert f"engine: {ENGINE}" in lines
    for part, names in FIGURES.items():
        assert f"{part}:" in lines
        for name in names:
            assert any(line.strip().startswith(f"{name}: ") for line in lines), name
    uno_lines = UNO if HAS_RLCARD else ["skipped: install the bench extra"]
    assert all(any(line.strip().startswith(text) for line in lines) for text in uno_lines)


PER_ENGINE = ["engine", "baseline", "random_games", "engine_calls", "decision_costs", "memory", "ratios"]


def engines_run(which: str) -> dict[str, Any]:
    result = runner.invoke(app, ["bench", *TINY, "--engines", which, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_bench_measures_an_engine_asked_for_in_a_process_of_its_own() -> None:
    figures = engines_run("pure")
    assert figures["engine"] == "pure" and list(figures["engines"]) == ["pure"]
    pure = figures["engines"]["pure"]
    assert list(pure) == PER_ENGINE and pure["engine"] == "pure"
    assert list(pure["ratios"])[:3] == FIGURES["ratios"]
    assert pure["engine_calls"]["states"] == 4
    assert any(line.strip() == "pure:" for line in as_text(figures).splitlines())


def test_bench_measures_both_engines_side_by_side() -> None:
    if compiled_problem() is not None and os.environ.get("MUNCHKIN_REQUIRE_COMPILED") != "1":
        pytest.skip(str(compiled_problem()))
    figures = engines_run("both")
    assert figures["engine"] == "both" and list(figures["engines"]) == ["pure", "compiled"]
    for name, part in figures["engines"].items():
        assert list(part) == PER_ENGINE and part["engine"] == name
        assert part["random_games"]["decisions_per_s"] > 0
        if HAS_RLCARD:
            assert part["ratios"]["our_decisions_per_s_vs_uno_raw"] > 0
    assert list(figures["ratios"]) == [
        "compiled_vs_pure_decisions_per_s",
        "compiled_vs_pure_legal_actions_median",
        "compiled_vs_pure_copy_median",
    ]


def test_bench_refuses_an_unknown_engine() -> None:
    result = runner.invoke(app, ["bench", *TINY, "--engines", "fast"])
    assert result.exit_code == 2
    assert "choose this, pure, compiled or both" in result.output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sets", "horses"], "the chosen card sets hold "),
        (["--seed", "-1"], "--seed -1: from 0 to 4294967295"),
        (["--seed", "4294967296"], "--seed 4294967296: from 0 to 4294967295"),
    ],
)
def test_bench_refuses_what_no_game_can_be_played_with(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["bench", *TINY, *options])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_uno_without_rlcard_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rlcard", None)
    figures = uno(BenchSettings(uno_games=1))
    assert "skipped: install the bench extra" in as_text({"rlcard_uno": figures}).splitlines()[1]


def test_percentile_is_nearest_rank() -> None:
    seconds = [i / 1e6 for i in range(100, 0, -1)]
    assert percentile_us(seconds, 99) == pytest.approx(99)
    assert percentile_us(seconds, 50) == pytest.approx(50)
    assert percentile_us([2e-6], 99) == pytest.approx(2)


NEEDS_PYINSTRUMENT = pytest.mark.skipif(
    importlib.util.find_spec("pyinstrument") is None, reason="pyinstrument: install the bench extra"
)


@NEEDS_PYINSTRUMENT
def test_profile_writes_a_page_of_the_engine_calls(tmp_path: Path) -> None:
    page = tmp_path / "profile.html"
    result = runner.invoke(app, ["profile", "--games", "1", "--seed", "1", "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert "legal_actions" in result.stdout and "Game.apply" in result.stdout
    assert "play_match" in page.read_text(encoding="utf-8")


def test_profile_without_pyinstrument_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyinstrument", None)
    result = runner.invoke(app, ["profile", "--games", "1"])
    assert result.exit_code != 0
    assert "install the bench extra" in result.output


@NEEDS_PYINSTRUMENT
def test_profile_to_a_folder_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["profile", "--games", "1", "--seed", "1", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert f"cannot write {tmp_path}" in result.output
