"""A scenario file (shared/spec/scenario-format.md) as strict models and parsed steps.

The file's layout (`title`, `setup`, ...) is validated by pydantic in strict
mode: unknown keys, wrong types and values out of range are refused, never
converted. Steps have a free shape (a player's name is a key), so they are
parsed by hand into `ActionStep`, `SettleStep` and `ExpectStep`; the checks
inside an `expect:` are pydantic models again.

Every problem is a `ScenarioError` whose message is one line naming the file,
the step (1-based) or the key, and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import ErrorDetails

from munchkin.engine.actions import CARD_VERBS, PLAYER_VERBS, VERBS, Action
from munchkin.errortext import clean, key_path, problem, show, suggest

MIN_PLAYERS = 2
MAX_PLAYERS = 6

ACTION_KEYS = ("target", "on", "hireling", "cards", "give", "take", "reward", "helper_escapes")
"""Keys an action mapping may hold besides its verb."""
GLOBAL_CHECKS = ("combat", "door_discard", "treasure_discard", "winner", "winners", "legal", "not_legal")
"""Keys of `expect:` that are not player names."""
_M = TypeVar("_M", bound=BaseModel)

RESERVED_NAMES = frozenset({"expect", "settle", "refused", *GLOBAL_CHECKS})
"""Names a player may not have: they would be ambiguous in a step."""


class ScenarioError(Exception):
    """A malformed scenario; `str()` is one line for the user."""

    def __init__(self, message: str) -> None:
        message = " ".join(message.split("\n"))
        super().__init__(message)
        self.message = message


# ------------------------------------------------------------------ the file layout


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


def _hireling_shorthand(value: object) -> object:
    """A bare hireling id is short for `{card: id}`."""
    return {"card": value} if isinstance(value, str) else value


class HirelingSpec(_Strict):
    """A hireling in play: `{card: id, carrying: [item ids]}`."""

    card: str
    carrying: list[str] = []


class PlayerSpec(_Strict):
    """One player of `setup.players`."""

    name: str = Field(min_length=1)
    level: int = Field(default=1, ge=1)
    sex: Literal["male", "female"] = "male"
    race: list[str] = []
    class_: list[str] = Field(default=[], alias="class")
    hand: list[str] = []
    equipped: list[str] = []
    carried: list[str] = []
    steeds: list[str] = []
    hirelings: list[Annotated[HirelingSpec, BeforeValidator(_hireling_shorthand)]] = []
    curses: list[str] = []
    boosts: list[str] = []
    """Extension: cards such as Half-Breed and Super Munchkin kept in play."""

    def card_refs(self, where: str) -> Iterator[tuple[str, str]]:
        """Every card id this player names, with the key naming it."""
        for key in ("race", "class_", "hand", "equipped", "carried", "steeds", "curses", "boosts"):
            label = "class" if key == "class_" else key
            for i, card in enumerate(getattr(self, key)):
                yield f"{where}.{label}[{i}]", card
        for i, h in enumerate(self.hirelings):
            yield f"{where}.hirelings[{i}].card", h.card
            for j, card in enumerate(h.carrying):
                yield f"{where}.hirelings[{i}].carrying[{j}]", card


class SetupSpec(_Strict):
    """The position the scenario starts from."""

    players: list[PlayerSpec]
    active: str | None = None
    door_deck: list[str] = []
    treasure_deck: list[str] = []
    door_discard: list[str] = []
    treasure_discard: list[str] = []
    first_door_kicked: bool = True

    @field_validator("players")
    @classmethod
    def _check_players(cls, players: list[PlayerSpec]) -> list[PlayerSpec]:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a scenario has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
        names = [p.name for p in players]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"two players are named '{clean(name)}'")
            if name in RESERVED_NAMES:
                raise ValueError(f"a player may not be named '{name}' (a reserved word)")
        return players

    @field_validator("active")
    @classmethod
    def _check_active(cls, active: str | None, info: ValidationInfo) -> str | None:
        names = [p.name for p in info.data.get("players", [])]
        if active is not None and names and active not in names:
            raise ValueError(f"'{clean(active)}' is not a player ({', '.join(names)})")
        return active

    def card_refs(self) -> Iterator[tuple[str, str]]:
        """Every card id the position names, with the key naming it."""
        for i, player in enumerate(self.players):
            yield from player.card_refs(f"setup.players[{i}]")
        for key in ("door_deck", "treasure_deck", "door_discard", "treasure_discard"):
            for i, card in enumerate(getattr(self, key)):
                yield f"setup.{key}[{i}]", card


class ScenarioFile(_Strict):
    """The top level of a scenario file."""

    title: str = Field(min_length=1)
    description: str = ""
    """Extension: free text for readers."""
    rules: list[str] = []
    seed: int = Field(default=0, ge=0)
    dice: list[Annotated[int, Field(ge=1, le=6)]] | None = None
    cards: list[Any] = []
    options: dict[str, Any] | None = None
    """Extension: the game's table options (munchkin.engine.options)."""
    setup: SetupSpec
    steps: list[Any] = []


# ------------------------------------------------------------------------ checks


class PlayerChecks(_Strict):
    """What must hold for one player (every key optional)."""

    level: int | None = None
    sex: Literal["male", "female"] | None = None
    race: list[str] | None = None
    class_: list[str] | None = Field(default=None, alias="class")
    hand: list[str] | None = None
    hand_count: int | None = Field(default=None, ge=0)
    in_play: list[str] | None = None
    not_in_play: list[str] | None = None
    equipped: list[str] | None = None
    carried: list[str] | None = None
    steeds: list[str] | None = None
    hirelings: list[str] | None = None
    hireling_items: dict[str, list[str]] | None = None
    dead: bool | None = None
    run_away_modifier: int | None = None

    def card_refs(self, where: str) -> Iterator[tuple[str, str]]:
        """Every card id the checks name, with the key naming it."""
        for key in (
            "race",
            "class_",
            "hand",
            "in_play",
            "not_in_play",
            "equipped",
            "carried",
            "steeds",
            "hirelings",
        ):
            label = "class" if key == "class_" else key
            for card in getattr(self, key) or ():
                yield f"{where}.{label}", card
        for hireling, items in (self.hireling_items or {}).items():
            yield f"{where}.hireling_items", hireling
            for card in items:
                yield f"{where}.hireling_items.{hireling}", card


class CombatChecks(_Strict):
    """The two sides' strength in the fight on now."""

    player_strength: int | None = None
    monster_strength: int | None = None


class PileChecks(_Strict):
    """Cards a discard pile must (not) hold."""

    includes: list[str] = []
    excludes: list[str] = []


# ------------------------------------------------------------------------- steps


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


# ----------------------------------------------------------------------- parsing


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


# ------------------------------------------------------------------ messages


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


def _keys(raw: Mapping[Any, Any]) -> str:
    return ", ".join(show(key) for key in raw)
