"""The README's commands work as written after its first one (which makes `.venv`): each
runs a program of the virtualenv, each `munchkin` command named exists, each script named is
there (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from munchkin.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/munchkin play"
PROGRAMS = ("munchkin", "python", "python3", "pip", "pytest", "ruff", "mypy")


AFTER = README.split(FIRST, 1)[1].split("```", 1)[1]
"""The README after the block of its first command."""


def shell_lines() -> list[str]:
    """Every command line of the README's `sh` blocks after the first command (no comments)."""
    blocks = re.findall(r"```sh\n(.*?)```", AFTER, re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def inline_commands() -> list[str]:
    """Every code span of the prose that starts with a program's name or path."""
    prose = re.sub(r"```.*?```", "", AFTER, flags=re.S)
    spans = re.findall(r"`([^`]+)`", prose)
    return [s for s in spans if s.split()[0].split("/")[-1] in PROGRAMS]


def test_every_command_after_the_first_runs_the_virtualenvs_programs() -> None:
    assert README.count(FIRST) == 1
    lines = shell_lines()
    assert len(lines) > 5
    for line in [*lines, *inline_commands()]:
        words = [w for w in line.split() if "=" not in w or w.startswith("-")]  # VAR=value first
        program = words[0]
        if program.split("/")[-1] in PROGRAMS:
            assert program.startswith(".venv/bin/"), line
        else:
            assert program in ("bash", "|", "--db"), line  # `bash .ci/run`, a continued option list


def test_every_munchkin_command_and_script_named_is_there() -> None:
    named = {
        tuple(w for w in line.split()[1:3] if re.fullmatch(r"[a-z]+", w))
        for line in [*shell_lines(), *inline_commands()]
        if line.startswith(".venv/bin/munchkin ")
    }
    assert ("serve",) in named and ("play",) in named and ("cards", "list") in named
    runner = CliRunner()
    for words in sorted(named):
        result = runner.invoke(app, [*words, "--help"])
        assert result.exit_code == 0, (words, result.output)
    for line in [*shell_lines(), *inline_commands()]:
        if line.startswith(".venv/bin/python "):
            script = line.split()[1]
            assert (ROOT / script).is_file(), line
