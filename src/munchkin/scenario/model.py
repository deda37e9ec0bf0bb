"""A scenario file (shared/spec/scenario-format.md) validated: its layout (`layout`, strict
pydantic models) and its steps (`steps`, parsed by hand), or a one-line `ScenarioError`
(`errors`). The names the runner uses are re-exported here."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from munchkin.errortext import show
from munchkin.scenario.actions import ActionPattern
from munchkin.scenario.errors import ScenarioError, describe_error
from munchkin.scenario.layout import PileChecks, PlayerChecks, PlayerSpec, ScenarioFile
from munchkin.scenario.steps import ActionStep, ExpectStep, SettleStep, Step, parse_step

__all__ = [
    "ActionPattern",
    "ActionStep",
    "ExpectStep",
    "PileChecks",
    "PlayerChecks",
    "PlayerSpec",
    "Scenario",
    "ScenarioError",
    "SettleStep",
    "Step",
    "parse_scenario",
]


@dataclass(frozen=True)
class Scenario:
    """A scenario file, validated: its layout and its parsed steps."""

    source: str
    file: ScenarioFile
    steps: list[Step]

    @property
    def title(self) -> str:
        return self.file.title

    @property
    def players(self) -> list[str]:
        return [p.name for p in self.file.setup.players]


def parse_scenario(data: object, source: str) -> Scenario:
    """Validate a parsed YAML document; raise `ScenarioError` naming what is wrong."""
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: expected a mapping with title, setup and steps, got {show(data)}")
    try:
        layout = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{source}: {describe_error(exc)}") from None
    players = [p.name for p in layout.setup.players]
    steps = []
    for number, raw in enumerate(layout.steps, start=1):
        try:
            steps.append(parse_step(raw, players))
        except ScenarioError as exc:
            raise ScenarioError(f"{source}: step {number}: {exc.message}") from None
    return Scenario(source, layout, steps)
