"""The scenario file's layout (shared/spec/scenario-format.md) as strict pydantic models: the
top level, the position it starts from (`setup`), and the checks inside an `expect:` step.
Unknown keys, wrong types and values out of range are refused, never converted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator

from munchkin.errortext import clean

MIN_PLAYERS = 2
MAX_PLAYERS = 6

GLOBAL_CHECKS = ("combat", "door_discard", "treasure_discard", "winner", "winners", "legal", "not_legal")
"""Keys of `expect:` that are not player names."""

RESERVED_NAMES = frozenset({"expect", "settle", "refused", *GLOBAL_CHECKS})
"""Names a player may not have: they would be ambiguous in a step."""


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

    @field_validator("name")
    @classmethod
    def _printable(cls, name: str) -> str:
        """A name is told on the terminal and in the log: no control characters."""
        if not name.isprintable():
            raise ValueError("a name is printable text, without control characters")
        return name

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
