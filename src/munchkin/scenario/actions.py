"""An action as a scenario writes it, `VERB` or `{VERB: ARG, key: value...}`, parsed by hand
into an `ActionPattern` that remembers which fields were written."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from munchkin.engine.actions import CARD_VERBS, PLAYER_VERBS, VERBS, Action
from munchkin.errortext import show, suggest
from munchkin.scenario.errors import ScenarioError

ACTION_KEYS = ("target", "on", "hireling", "cards", "give", "take", "reward", "helper_escapes")
"""Keys an action mapping may hold besides its verb."""


@dataclass(frozen=True)
class ActionPattern:
    """An action named in a step or in `legal:`; `given` lists the fields written."""

    action: Action
    given: frozenset[str]

    def matches(self, other: Action) -> bool:
        """Whether `other` is this action, on every field written (the rest may differ)."""
        if other.verb != self.action.verb:
            return False
        for name in self.given:
            mine, theirs = getattr(self.action, name), getattr(other, name)
            if isinstance(mine, tuple):
                mine, theirs = sorted(mine), sorted(theirs)
            if mine != theirs:
                return False
        return True

    def card_refs(self) -> Iterator[str]:
        """Card ids named by the action."""
        a = self.action
        if a.verb in CARD_VERBS and a.arg is not None:
            yield a.arg
        yield from (card for card in (a.on, a.hireling) if card is not None)
        yield from (*a.cards, *a.give, *a.take)

    def player_refs(self) -> Iterator[str]:
        """Player names named by the action."""
        if self.action.verb in PLAYER_VERBS and self.action.arg is not None:
            yield self.action.arg
        if self.action.target is not None:
            yield self.action.target

    def __str__(self) -> str:
        return str(self.action)


def parse_action(raw: object) -> ActionPattern:
    """`VERB` or `{VERB: ARG, key: value...}` as an action, with the fields written."""
    if isinstance(raw, str):
        return ActionPattern(Action(_verb(raw)), frozenset())
    if not isinstance(raw, dict) or not raw:
        raise ScenarioError(f"expected a verb or a mapping {{VERB: ARG, ...}}, got {show(raw)}")
    raw = {_ON if key is True else key: value for key, value in raw.items()}
    keys = [str(key) for key in raw]
    unknown = [key for key in keys if key not in VERBS and key not in ACTION_KEYS]
    verbs = [key for key in keys if key in VERBS]
    if unknown:
        kind = "key" if verbs else "verb"
        choices = list(ACTION_KEYS) if verbs else list(VERBS)
        raise ScenarioError(f"unknown {kind} {show(unknown[0])}{suggest(unknown[0], choices)}")
    if len(verbs) != 1:
        raise ScenarioError(f"an action has one verb, got {', '.join(verbs) or 'none'}")
    verb = verbs[0]
    fields: dict[str, Any] = {}
    for key, value in raw.items():
        if key == verb:
            fields.update(_verb_argument(verb, value))
        else:
            if key in fields:
                raise ScenarioError(f"key '{key}': given twice (as the argument of '{verb}' too)")
            fields[key] = _action_field(key, value)
    return ActionPattern(Action(verb, **fields), frozenset(fields))


_ON = "on"
"""YAML 1.1 reads an unquoted `on:` key as `true`; in an action it can only mean `on`."""


def _verb(name: str) -> str:
    if name not in VERBS:
        raise ScenarioError(f"unknown verb {show(name)}{suggest(name, VERBS)}")
    return name


def _verb_argument(verb: str, value: object) -> dict[str, Any]:
    """The fields set by the value of the verb key."""
    if verb == "run_away" or value is None:
        return {}
    if verb == "sell":
        return {"cards": _ids(verb, value)}
    return {"arg": _text(verb, value)}


def _action_field(key: str, value: object) -> object:
    if key in ("target", "on", "hireling"):
        return _text(key, value)
    if key in ("cards", "give", "take"):
        return _ids(key, value)
    if key == "reward":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScenarioError(f"key 'reward': expected an integer >= 0, got {show(value)}")
        return value
    if not isinstance(value, bool):
        raise ScenarioError(f"key '{key}': expected true or false, got {show(value)}")
    return value


def _text(key: str, value: object) -> str:
    """A card id, player name or option; an integer is read as its digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, bool):
        hint = " (quote it: YAML reads unquoted yes, no, on, off as true or false)"
        raise ScenarioError(f"key '{key}': expected text (an id or a name), got {show(value)}{hint}")
    if not isinstance(value, str):
        raise ScenarioError(f"key '{key}': expected text (an id or a name), got {show(value)}")
    return value


def _ids(key: str, value: object) -> tuple[str, ...]:
    """One card id or a list of them."""
    if isinstance(value, list):
        return tuple(_text(key, item) for item in value)
    return (_text(key, value),)
