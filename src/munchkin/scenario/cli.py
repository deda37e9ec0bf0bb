"""`munchkin scenario run PATH... [--json]`: one line per scenario, exit 0 only when all pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from munchkin.scenario.runner import ScenarioResult, run_paths

app = typer.Typer(
    name="scenario",
    help="Run scenario files: a position, scripted decisions, and checks.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main() -> None:
    """Run scenario files: a position, scripted decisions, and checks."""


@app.command()
def run(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scenario files (YAML), or folders searched for *.yaml.", show_default=False),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")] = False,
) -> None:
    """Run scenarios: `PASS title` or `FAIL title: reason` each; exit 1 if any fails, 2 if any
    file is malformed (bad input)."""
    results = run_paths(paths)
    if as_json:
        typer.echo(json.dumps(summary(results), indent=2, ensure_ascii=False))
    else:
        for result in results:
            typer.echo(_one_line(result.line()))
    if any(result.malformed for result in results):
        raise typer.Exit(2)
    if not all(result.ok for result in results):
        raise typer.Exit(1)


def summary(results: list[ScenarioResult]) -> dict[str, object]:
    """`{"passed": N, "failed": M, "results": [...]}`."""
    passed = sum(result.ok for result in results)
    return {
        "passed": passed,
        "failed": len(results) - passed,
        "results": [result.to_json() for result in results],
    }


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())
