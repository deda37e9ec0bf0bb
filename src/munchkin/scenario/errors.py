"""A malformed scenario is a `ScenarioError` whose message is one line naming the file, the
step (1-based) or the key, and what is wrong; pydantic's validation errors in those words."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from munchkin.errortext import key_path, problem, suggest
from munchkin.scenario.layout import (
    CombatChecks,
    HirelingSpec,
    PileChecks,
    PlayerChecks,
    PlayerSpec,
    ScenarioFile,
    SetupSpec,
)


class ScenarioError(Exception):
    """A malformed scenario; `str()` is one line for the user."""

    def __init__(self, message: str) -> None:
        message = " ".join(message.split("\n"))
        super().__init__(message)
        self.message = message


def describe_error(exc: ValidationError) -> str:
    """The first validation error as `key 'a.b[0]': problem`, counting the others."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    path = key_path(first["loc"])
    message = _error_message(first)
    if len(errors) > 1:
        more = len(errors) - 1
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return f"key '{path}': {message}" if path else message


def _error_message(error: ErrorDetails) -> str:
    return problem(error, lambda e: "unknown key" + suggest(str(e["loc"][-1]), _known_keys()))


def _known_keys() -> list[str]:
    models: list[type[BaseModel]] = [
        HirelingSpec,
        PlayerSpec,
        SetupSpec,
        ScenarioFile,
        PlayerChecks,
        CombatChecks,
        PileChecks,
    ]
    return sorted({info.alias or name for model in models for name, info in model.model_fields.items()})
