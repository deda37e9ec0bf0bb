"""The card data contract (shared/spec/card-format.md) as pydantic models.

A card is data: these models accept every key of the contract, refuse unknown
keys, wrong types and out-of-range values. Keys marked "extension" are ours,
beyond the contract; they never change the meaning of a contract key.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]
Deck = Literal["door", "treasure"]
CardType = Literal[
    "monster",
    "race",
    "class",
    "item",
    "steed",
    "hireling",
    "curse",
    "trap",
    "one_shot",
    "go_up_a_level",
    "monster_enhancer",
    "steed_enhancer",
    "item_enhancer",
    "cheat",
    "wandering_monster",
    "divine_intervention",
    "other",
]
Slot = Literal["headgear", "armor", "footgear", "hands", "none"]
Sex = Literal["male", "female"]
LoseWhat = Literal[
    "headgear",
    "armor",
    "footgear",
    "hands",
    "big",
    "steed",
    "item",
    "hand_cards",
    "hireling",
]

EFFECT_KEYS = (
    "lose_levels",
    "die",
    "lose",
    "hireling_dies",
    "change_sex",
    "steal_hireling",
    "lose_class",
    "lose_race",
    "run_away",
    # extensions
    "gain_levels",
    "combat",
    "escape",
    "draw_treasures",
    "remove_curse",
    "conditional",
    # answers to what just happened (rules/responses.py)
    "set_die",
    "roll_again",
    "cancel_curse",
    # fight words (rules/fight_cards.py)
    "twin",
    "illusion",
    "force_help",
    "send_away",
    "pass_fight",
    "double_strength",
    "escape_together",
    # what happens to players
    "steal_level",
    "others_take",
    "swap_race",
    "swap_class",
    "income_tax",
    "doom",
    "no_divine",
)
MAX_COUNT = 100
"""Most copies of a card, and most treasures a card gives or takes: every share of a
fight's treasures is a bribe the fighter may offer (B8), so a count needs a bound."""

FIGHT_WORDS = (
    "twin",
    "illusion",
    "force_help",
    "send_away",
    "pass_fight",
    "double_strength",
    "escape_together",
)
"""Effects that act on the fight itself, played from the hand (rules/fight_cards.py)."""
ANSWER_WORDS = ("set_die", "roll_again", "cancel_curse")
"""Effects that answer a die roll or a curse just played (rules/responses.py)."""
LASTING_WORDS = ("run_away", "combat", "doom", "no_divine")
"""Effects that stay on their victim with the curse card (B15)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Restriction(_Strict):
    """`requires` / `forbids`: who may (not) use an item."""

    race: tuple[Slug, ...] = ()
    class_: tuple[Slug, ...] = Field(default=(), alias="class")
    sex: Sex | None = None

    def matches(self, races: frozenset[str], classes: frozenset[str], sex: str | None) -> bool:
        """True when a character (or hireling) with these traits has any named trait (what
        `forbids` keeps from using an item)."""
        return (
            bool(races.intersection(self.race))
            or bool(classes.intersection(self.class_))
            or (self.sex is not None and sex == self.sex)
        )

    def met_by(self, races: frozenset[str], classes: frozenset[str], sex: str | None) -> bool:
        """True when a character (or hireling) meets every key named: one of the races, one
        of the classes, the sex (what `requires` asks to use an item)."""
        return (
            (not self.race or bool(races.intersection(self.race)))
            and (not self.class_ or bool(classes.intersection(self.class_)))
            and (self.sex is None or sex == self.sex)
        )


class Condition(_Strict):
    """Extension: the test of a conditional effect (any listed trait matches)."""

    race: tuple[Slug, ...] = ()
    class_: tuple[Slug, ...] = Field(default=(), alias="class")
    sex: Sex | None = None
    level_at_least: int | None = None

    @field_validator("race", "class_", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        if isinstance(value, str):
            return (value,)
        return tuple(value) if isinstance(value, list) else value


class Conditional(_Strict):
    """Extension: `{conditional: {if: {...}, then: [...], else: [...]}}`."""

    if_: Condition = Field(alias="if")
    then: tuple[Effect, ...] = ()
    else_: tuple[Effect, ...] = Field(default=(), alias="else")


class Effect(_Strict):
    """One effect: a mapping with exactly one key (card-format.md, Effects)."""

    lose_levels: int | None = Field(default=None, ge=1)
    die: Literal[True] | None = None
    lose: LoseWhat | None = None
    hireling_dies: Literal[True] | None = None
    change_sex: Literal[True] | None = None
    steal_hireling: Literal[True] | None = None
    lose_class: Literal[True] | None = None
    lose_race: Literal[True] | None = None
    run_away: int | None = None
    # extensions
    gain_levels: int | None = Field(default=None, ge=1)
    combat: int | None = None
    escape: Literal[True] | None = None
    draw_treasures: int | None = Field(default=None, ge=1)
    remove_curse: Literal[True] | None = None
    conditional: Conditional | None = None
    set_die: Literal[True] | None = None
    roll_again: Literal[True] | None = None
    cancel_curse: Literal[True] | None = None
    twin: Literal[True] | None = None
    illusion: Literal[True] | None = None
    force_help: Literal[True] | None = None
    send_away: Literal["treasures", "nothing"] | None = None
    pass_fight: Literal[True] | None = None
    double_strength: Literal[True] | None = None
    escape_together: Literal[True] | None = None
    steal_level: Literal[True] | None = None
    others_take: int | None = Field(default=None, ge=1, le=5)
    swap_race: Literal[True] | None = None
    swap_class: Literal[True] | None = None
    income_tax: Literal[True] | None = None
    doom: Literal[True] | None = None
    no_divine: Literal[True] | None = None

    @model_validator(mode="after")
    def _exactly_one_key(self) -> Effect:
        keys = [k for k in EFFECT_KEYS if getattr(self, k) is not None]
        if len(keys) != 1:
            raise ValueError(f"an effect has exactly one key, got {keys or 'none'}")
        return self

    @property
    def kind(self) -> str:
        """The effect's one key."""
        return next(k for k in EFFECT_KEYS if getattr(self, k) is not None)

    @property
    def arg(self) -> Any:
        """The effect's value."""
        return getattr(self, self.kind)

    @property
    def lasting(self) -> bool:
        """A lasting modifier stays on its victim with the curse card (B15)."""
        return self.kind in LASTING_WORDS


class VsBonus(_Strict):
    """A monster's bonus (or penalty) against a race, class or sex (H12)."""

    race: Slug | None = None
    class_: Slug | None = Field(default=None, alias="class")
    sex: Sex | None = None
    bonus: int

    @model_validator(mode="after")
    def _one_trait(self) -> VsBonus:
        if sum(x is not None for x in (self.race, self.class_, self.sex)) != 1:
            raise ValueError("a vs bonus names exactly one of race, class, sex")
        return self


class RewardBonus(_Strict):
    """Extension: extra levels or treasures for a monster beaten by a race, class or sex."""

    race: Slug | None = None
    class_: Slug | None = Field(default=None, alias="class")
    sex: Sex | None = None
    levels: int = Field(default=0, ge=0)
    treasures: int = Field(default=0, ge=0, le=MAX_COUNT)

    @model_validator(mode="after")
    def _one_trait(self) -> RewardBonus:
        if sum(x is not None for x in (self.race, self.class_, self.sex)) != 1:
            raise ValueError("a beaten_by entry names exactly one of race, class, sex")
        return self


POWERS_BY_ID = {
    ("half-breed", "other"): "extra_races",
    ("super-munchkin", "other"): "extra_classes",
    ("centaur", "race"): "extra_steeds",
}
"""The room the rules give Half-Breed, Super Munchkin and the Centaur (B14, C1), implied by
the card's id when its data names none (a card written with the contract's keys alone)."""


class CardDef(_Strict):
    """One card of a set (card-format.md). Immutable and shared by every game."""

    id: Slug
    name: str = ""
    deck: Deck
    type: CardType
    text: str = ""
    copies: int = Field(default=1, ge=1, le=MAX_COUNT)
    # items, steeds, hirelings, one-shots, enhancers
    bonus: int = 0
    value: int | None = Field(default=None, ge=0)
    slot: Slot = "none"
    hands: int = Field(default=1, ge=1, le=2)
    big: bool = False
    complex: bool = False
    requires: Restriction | None = None
    forbids: Restriction | None = None
    run_away: int = 0
    extra_hands: int = Field(default=0, ge=0)
    extra_big: int = Field(default=0, ge=0)
    extra_complex: int = Field(default=0, ge=0)
    extra_steeds: int = Field(default=0, ge=0)
    carries: int = Field(default=0, ge=0)
    sex: Literal["male", "female", "none"] | None = None
    race: tuple[Slug, ...] = ()
    class_: tuple[Slug, ...] = Field(default=(), alias="class")
    uses: Literal["any", "combat", "run_away"] = "any"
    effects: tuple[Effect, ...] = ()
    # monsters
    level: int | None = Field(default=None, ge=0)
    treasures: int = Field(default=1, ge=-MAX_COUNT, le=MAX_COUNT)
    """Monsters: treasures drawn when defeated (0 or more). Monster enhancers: treasures
    added to (or taken from) the monster, as `extra_treasures` (B16)."""
    levels: int = Field(default=1, ge=0)
    undead: bool = False
    no_escape: bool = False
    vs: tuple[VsBonus, ...] = ()
    bad_stuff: tuple[Effect, ...] = ()
    effect_hook: str | None = None
    # extensions
    extra_treasures: int = Field(default=0, ge=-MAX_COUNT, le=MAX_COUNT)
    """Monster enhancers: treasures added to (or taken from) the monster."""
    escape_below: int = Field(default=0, ge=0)
    """Monsters: characters of this level or lower escape it automatically."""
    extra_races: int = Field(default=0, ge=0)
    """Cards kept in play (Half-Breed): races beyond the first (B14)."""
    extra_classes: int = Field(default=0, ge=0)
    """Cards kept in play (Super Munchkin): classes beyond the first (B14)."""
    extra_hirelings: int = Field(default=0, ge=0)
    """Races, classes and other cards in play: hirelings beyond the first (H1)."""
    enhances: Literal["race", "class"] | None = None
    """Race and class enhancers (type other): attached to one of its owner's race or class
    cards, adding `bonus` (and `run_away`) while that card is in play."""
    even_if_escaped: tuple[Effect, ...] = ()
    """Monsters: Bad Stuff that hits every munchkin of a lost fight, even one who escapes (H4)."""
    ignores: Condition | None = None
    """Monsters: will not fight a fighter of this kind; it leaves the fight, giving nothing."""
    defeated_by: Condition | None = None
    """Monsters: a fighter or helper of this kind defeats it at once: its treasures, no level."""
    beaten_by: tuple[RewardBonus, ...] = ()
    """Monsters: extra levels and treasures when someone of this kind is on the winning side."""
    no_help: bool = False
    """Monsters: nobody may help against it (B8)."""
    extra_slots: tuple[Literal["headgear", "armor", "footgear", "hands"], ...] = ()
    """Items: slots taken besides `slot` (with `hands` in it, `hands:` hands are used)."""
    immune_to: tuple[str, ...] = ()
    """Items and steeds in use: effect words of curses that do not affect their owner."""
    uses_any: bool = False
    """Hirelings: may use any item it carries, whatever the item's restrictions (H7)."""
    unless_highest: bool = False
    """Go Up a Level: refused to a player of the highest level (ties included)."""
    on_other: bool = False
    """Go Up a Level: played on another player (`target:`), never on oneself."""

    @model_validator(mode="after")
    def _fill_and_check(self) -> CardDef:
        if not self.name:
            object.__setattr__(self, "name", self.id)
        if self.type == "monster" and self.level is None:
            raise ValueError("a monster needs a 'level'")
        if self.type == "steed":
            object.__setattr__(self, "big", True)
        implied = POWERS_BY_ID.get((self.id, self.type))
        if implied is not None and not getattr(self, implied):
            object.__setattr__(self, implied, 1)  # the power follows the card's id (R55)
        if self.type == "monster_enhancer" and "treasures" in self.model_fields_set:
            if "extra_treasures" in self.model_fields_set:
                raise ValueError("a monster enhancer gives 'treasures' or 'extra_treasures', not both")
            object.__setattr__(self, "extra_treasures", self.treasures)
        return self

    def takes(self, slot: str) -> bool:
        """Whether this item is worn in `slot` (its `slot`, or one of its `extra_slots`)."""
        return self.slot == slot or slot in self.extra_slots

    @property
    def is_item(self) -> bool:
        """Items, steeds (S1) and hirelings with a gold value (H5) are Items."""
        return self.type in ("item", "steed") or (self.type == "hireling" and self.value is not None)


Conditional.model_rebuild()
