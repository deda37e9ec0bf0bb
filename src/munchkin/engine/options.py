"""Table options: the numbers and rulings a table may choose before a game (issue 11).

The defaults are `rules.md`'s. Each ruling offered here is one where published readings
differ (`../shared/reference/rules-digest.md`) and the other reading is cheap to play;
`docs/rulings.md` names the option beside the ruling. Options are chosen once, in
`Game.new` (or a scenario's `options:`), and saved with the game, so a replay plays by
the same rules.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class TableOptions(BaseModel):
    """The rule options of one game. Immutable; unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    win_level: int = Field(10, ge=2, le=20, description="The level that wins the game (B2).")
    door_cards: int = Field(
        4, ge=0, le=10, description="Door cards dealt at the start and on return (B1, B10)."
    )
    treasure_cards: int = Field(
        4, ge=0, le=10, description="Treasure cards dealt at the start and on return (B1, B10)."
    )
    hand_limit: int = Field(
        5, ge=0, le=20, description="Cards kept at the end of a turn; a Dwarf one more (B5)."
    )
    power_discards: int = Field(
        3, ge=1, le=10, description="Most cards discarded for one use of berserking, turning or flight (B14)."
    )
    charm_cards: int = Field(3, ge=1, le=10, description="Fewest cards in hand for the Wizard's charm (B14).")
    halfling_reroll: bool = Field(
        True,
        description="A Halfling may discard a card to re-roll a failed run-away roll (B14; editions differ).",
    )
    loot_ties: Literal["dice", "seat"] = Field(
        "dice",
        description="Looters tied in level: ordered by dice (B10), or by seat from the dead player's left.",
    )
    sale_gold: Literal["lost", "pooled"] = Field(
        "lost",
        description="Gold beyond a sale's last full 1000: lost (B12), or pooled with the turn's later sales.",
    )
    curses_before_first_door: bool = Field(
        False,
        description="Curses may be played from the hand before the game's first door is kicked open (B15).",
    )
    help_asks: int = Field(
        1, ge=1, le=10, description="Times the fighter may ask one player for help in one fight (B8)."
    )

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults, as plain data (for saves and labels)."""
        return self.model_dump(exclude_defaults=True)


DEFAULT_OPTIONS = TableOptions()


class OptionsError(ValueError):
    """Table options that are not valid: names the option and what is wrong."""


def parse_options(data: object, where: str = "options") -> TableOptions:
    """Table options from plain data, or an OptionsError naming the key and the problem."""
    if data is None:
        return DEFAULT_OPTIONS
    if isinstance(data, TableOptions):
        return data
    if not isinstance(data, dict):
        raise OptionsError(f"{where}: expected a mapping of option names to values")
    try:
        return TableOptions.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "?"
        message = "unknown option" if first["type"] == "extra_forbidden" else first["msg"]
        raise OptionsError(f"{where}: '{key}': {message} (options: {', '.join(option_names())})") from None


def option_names() -> list[str]:
    """Every option's name, in the documented order."""
    return list(TableOptions.model_fields)


def parse_assignments(texts: list[str], where: str = "--option") -> TableOptions:
    """Options from `NAME=VALUE` texts (command lines): numbers, true/false, or words."""
    data: dict[str, object] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise OptionsError(f"{where}: expected NAME=VALUE, got '{text}'")
        data[name.strip()] = _value(value.strip())
    return parse_options(data, where)


def _value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text
