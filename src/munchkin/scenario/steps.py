"""A scenario's steps: free in shape (a player's name is a key), so parsed by hand into
`ActionStep`, `SettleStep` and `ExpectStep`; the checks inside an `expect:` are the
pydantic models of `layout`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from munchkin.engine.actions import Action
from munchkin.errortext import show, suggest
from munchkin.scenario.actions import ActionPattern, parse_action
from munchkin.scenario.errors import ScenarioError, describe_error
from munchkin.scenario.layout import GLOBAL_CHECKS, CombatChecks, PileChecks, PlayerChecks

_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class ActionStep:
    """`- PLAYER: VERB` (or a mapping), or with `refused: true` a refused action."""

    player: str
    pattern: ActionPattern
    refused: bool = False

    @property
    def action(self) -> Action:
        return self.pattern.action

    def describe(self) -> str:
        return f"{self.player}: {self.action}" + (", refused" if self.refused else "")

    def card_refs(self) -> Iterator[tuple[str, str]]:
        for card in self.pattern.card_refs():
            yield str(self.action), card


@dataclass(frozen=True)
class SettleStep:
    """`- settle`: defaults for everyone but the active player."""

    def describe(self) -> str:
        return "settle"

    def card_refs(self) -> Iterator[tuple[str, str]]:
        return iter(())


@dataclass(frozen=True)
class ExpectStep:
    """`- expect: CHECKS`."""

    players: dict[str, PlayerChecks] = field(default_factory=dict)
    combat: CombatChecks | None = None
    door_discard: PileChecks | None = None
    treasure_discard: PileChecks | None = None
    check_winner: bool = False
    winner: str | None = None
    winners: tuple[str, ...] | None = None
    legal: dict[str, list[ActionPattern]] = field(default_factory=dict)
    not_legal: dict[str, list[ActionPattern]] = field(default_factory=dict)

    def describe(self) -> str:
        return "expect"

    def card_refs(self) -> Iterator[tuple[str, str]]:
        for name, checks in self.players.items():
            yield from checks.card_refs(name)
        for key in ("door_discard", "treasure_discard"):
            pile: PileChecks | None = getattr(self, key)
            if pile is not None:
                yield from ((f"{key}.includes", card) for card in pile.includes)
                yield from ((f"{key}.excludes", card) for card in pile.excludes)
        for key in ("legal", "not_legal"):
            for name, patterns in getattr(self, key).items():
                for pattern in patterns:
                    yield from ((f"{key}.{name}", card) for card in pattern.card_refs())


Step = ActionStep | SettleStep | ExpectStep


def parse_step(raw: object, players: Sequence[str]) -> Step:
    """One step: `settle`, `{expect: ...}`, `{PLAYER: action}` or `{PLAYER: action, refused: true}`."""
    if raw == "settle":
        return SettleStep()
    if isinstance(raw, str):
        raise ScenarioError(
            f"unknown step {show(raw)}{suggest(raw, ['settle'])}"
            " (a step is 'settle', 'expect: ...' or 'PLAYER: VERB')"
        )
    if not isinstance(raw, dict) or not raw:
        raise ScenarioError(f"expected a step (a mapping or 'settle'), got {show(raw)}")
    if "expect" in raw:
        if len(raw) != 1:
            raise ScenarioError(f"an expect step has no other keys, got {_keys(raw)}")
        return parse_expect(raw["expect"], players)
    refused = raw.get("refused", False)
    if not isinstance(refused, bool):
        raise ScenarioError(f"key 'refused': expected true or false, got {show(refused)}")
    names = [key for key in raw if key != "refused"]
    if len(names) != 1:
        raise ScenarioError(f"an action step names one player and an action, got keys {_keys(raw)}")
    player = _player(names[0], players)
    return ActionStep(player, parse_action(raw[names[0]]), refused)


def parse_expect(raw: object, players: Sequence[str]) -> ExpectStep:
    """The checks of an `expect:` step."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"expect: expected a mapping of checks, got {show(raw)}")
    result: dict[str, Any] = {"players": {}, "legal": {}, "not_legal": {}}
    for key, value in raw.items():
        if key in ("combat", "door_discard", "treasure_discard"):
            model = CombatChecks if key == "combat" else PileChecks
            result[key] = _validate(model, value, f"expect: {key}")
        elif key == "winner":
            if value is not None:
                _player(value, players, "expect: winner: ")
            result.update(check_winner=True, winner=value)
        elif key == "winners":
            if not isinstance(value, list):
                raise ScenarioError(f"expect: winners: expected a list of players, got {show(value)}")
            result["winners"] = tuple(_player(name, players, "expect: winners: ") for name in value)
        elif key in ("legal", "not_legal"):
            result[key] = _parse_legal(key, value, players)
        elif key in players:
            result["players"][key] = _validate(PlayerChecks, value, f"expect: {key}")
        else:
            choices = [*GLOBAL_CHECKS, *players]
            raise ScenarioError(
                f"expect: unknown key {show(key)}{suggest(str(key), choices)}"
                f" (a check, or one of the players: {', '.join(players)})"
            )
    return ExpectStep(**result)


def _parse_legal(key: str, raw: object, players: Sequence[str]) -> dict[str, list[ActionPattern]]:
    """`{PLAYER: [VERB or {VERB: ARG, ...}, ...]}`."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"expect: {key}: expected a mapping of player to verbs, got {show(raw)}")
    result: dict[str, list[ActionPattern]] = {}
    for name, entries in raw.items():
        player = _player(name, players, f"expect: {key}: ")
        entries = entries if isinstance(entries, list) else [entries]
        try:
            result[player] = [parse_action(entry) for entry in entries]
        except ScenarioError as exc:
            raise ScenarioError(f"expect: {key}: {player}: {exc.message}") from None
    return result


def _player(name: object, players: Sequence[str], prefix: str = "") -> str:
    if not isinstance(name, str) or name not in players:
        hint = suggest(str(name), players)
        raise ScenarioError(f"{prefix}unknown player {show(name)}{hint} (players: {', '.join(players)})")
    return name


def _validate(model: type[_M], value: object, where: str) -> _M:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ScenarioError(f"{where}: {describe_error(exc)}") from None


def _keys(raw: Mapping[Any, Any]) -> str:
    return ", ".join(show(key) for key in raw)
