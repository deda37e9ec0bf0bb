"""The registry of verbs: for each, how to validate it, carry it out, and list its options.

Each rules module registers the verbs it owns. `legal_actions` is exactly the
listed options that pass validation, so what is listed is always accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from munchkin.engine.actions import Action, action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.state import GameState

Check = Callable[[GameState, int, Action], None]
Do = Callable[[GameState, int, Action, list[Event]], None]
Options = Callable[[GameState, int], Iterable[Action]]


@dataclass(frozen=True, slots=True)
class Verb:
    """`prechecked`: the options are built from the same checks and are all legal, so
    `legal_actions` need not check them again (for verbs with many candidates).
    `power_of`: the class whose power the verb is; others are not asked about it (B14)."""

    check: Check
    do: Do
    options: Options
    prechecked: bool = False
    power_of: str | None = None


REGISTRY: dict[str, Verb] = {}


def register(
    name: str, check: Check, do: Do, options: Options, prechecked: bool = False, power_of: str | None = None
) -> None:
    REGISTRY[name] = Verb(check, do, options, prechecked, power_of)


def holds(check: Callable[..., None], g: GameState, seat: int, *args: object) -> bool:
    """Whether a check that takes no action accepts the player (and `args`) now."""
    try:
        check(g, seat, *args)
    except RulesError:
        return False
    return True


def passes(check: Check, g: GameState, seat: int, a: Action) -> bool:
    """Whether a check accepts the action."""
    try:
        check(g, seat, a)
    except RulesError:
        return False
    return True


def refuse(rule: str, message: str) -> RulesError:
    """The error for a refused action, naming the rule it enforces."""
    return RulesError(rule, message)


def seat_of(g: GameState, name: str | None, rule: str) -> int:
    """The seat of the player named in an action, or a refusal under `rule`."""
    try:
        return g.index(name or "")
    except KeyError:
        raise RulesError(rule, f"there is no player '{name}'") from None


def require(condition: bool, rule: str, message: str) -> None:
    """Refuse unless `condition` holds."""
    if not condition:
        raise RulesError(rule, message)


Gate = Callable[[GameState, int], bool]


def single(verb: str, when: Gate) -> Options:
    """Options of a verb that takes no argument: the verb, when a cheap first test
    passes (the full check comes later)."""
    only = action(verb)

    def options(g: GameState, seat: int) -> Iterable[Action]:
        return (only,) if when(g, seat) else ()

    return options
