"""Errors the engine raises."""

from __future__ import annotations


class RulesError(Exception):
    """A refused action: names the rule it enforces. The state is left unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"refused ({rule}): {message}")
        self.rule = rule
        self.message = message


class DiceExhausted(Exception):
    """A scenario's forced dice ran out (B19)."""
