"""scripts/soak.py, run tiny: it plays games on worker processes, prints its figures,
and reports every violation with the game and the decision that showed it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from soak_script import soak

TINY = ["--decisions", "2000", "--workers", "2", "--seed", "5", "--progress", "0", "--game-decisions", "1500"]
"""A run of a few games, each cut at 1500 decisions."""
SUMMARY = re.compile(
    r"^decisions made: (?P<decisions>\d+)\n"
    r"games finished: (?P<finished>\d+) of (?P<games>\d+) .*\n"
    r"games won by several players together: (?P<shared>\d+)\n"
    r"invariant violations: 0\n"
    r"decisions per second: [\d,]+\n\Z",
    re.M,
)
"""The figures a clean run ends with."""


def test_a_tiny_soak_prints_its_figures_and_finds_nothing() -> None:
    run = subprocess.run(
        [sys.executable, str(soak.__file__), *TINY],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = SUMMARY.search(run.stdout)
    assert summary, run.stdout
    assert int(summary["decisions"]) >= 2000
    assert 1 <= int(summary["finished"]) <= int(summary["games"])
    assert int(summary["shared"]) <= int(summary["finished"])
    assert re.search(r"^\s*[\d.]+s\s+decisions\s+\d+\s+games\s+\d+\s+violations 0", run.stdout, re.M)


def test_a_game_won_by_several_is_counted_and_checked_by_the_table_options() -> None:
    """At win level 3 an Elf helper often wins with the fighter: the checks accept several
    winners (B2), the replay plays by the same options, and the totals count the game."""
    options = soak.parse(["--option", "win_level=3"]).options
    assert options.win_level == 3
    totals = soak.Totals()
    for seed in range(200):
        report = soak.soak_game(soak.GameSpec(seed, seed, "base", 3, (False,) * 3), 5000, 50, options)
        assert report.violations == []
        totals.add(report)
        if report.winners > 1:
            break
    assert totals.shared_wins == 1 and totals.finished == totals.games


def test_a_violation_stops_its_game_and_names_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0

    def broken_at_the_fifth(game: object) -> list[str]:
        nonlocal calls
        calls += 1
        return ["a card is in two places"] if calls == 5 else []

    monkeypatch.setattr(soak, "cheap_problems", broken_at_the_fifth)
    spec = soak.GameSpec(0, 7, "base", 3, (False, True, False))
    report = soak.soak_game(spec, max_decisions=1000, sample_every=10**9)  # no sampled checks
    assert report.decisions == 5 and not report.finished
    assert len(report.violations) == 1
    assert re.fullmatch(r"decision 5 \(\w+: .+\): a card is in two places", report.violations[0])
    totals = soak.Totals()
    totals.add(report)
    assert totals.violations == [f"game 0 (seed 7, sets base, 3 players, bots wuw): {report.violations[0]}"]
