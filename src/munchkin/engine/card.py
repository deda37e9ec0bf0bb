"""A card definition as the engine reads it: the same fields, in a plain class of its own.

`GameState.cards` holds one `Card` per card instance, beside `GameState.defs` (the card
files' pydantic models, for everyone else). The rules read cards constantly: listing the
legal actions reads the type, the words and the limits of every card in a hand, in play
and in a fight. A plain class is read faster than a pydantic model, above all in the
compiled engine, and the key of each effect (`kinds`) is looked up once, not on every
read. A `Card` holds nothing but what its definition says.
"""

from __future__ import annotations

from munchkin.cards.schema import CardDef, Condition, Effect, Restriction, RewardBonus, VsBonus

SLOTS = ("headgear", "armor", "footgear", "hands", "none")


class Card:
    """The fields of one CardDef that the rules read (same names, same values); the key
    of each of its effects, in order (`kinds`); the slots it takes (`slots`, `worn`: the
    same less "none")."""

    __slots__ = (
        "bad_stuff",
        "beaten_by",
        "big",
        "bonus",
        "carries",
        "class_",
        "complex",
        "deck",
        "defeated_by",
        "effects",
        "enhances",
        "escape_below",
        "even_if_escaped",
        "extra_big",
        "extra_classes",
        "extra_complex",
        "extra_hands",
        "extra_hirelings",
        "extra_races",
        "extra_slots",
        "extra_steeds",
        "extra_treasures",
        "forbids",
        "hands",
        "id",
        "ignores",
        "immune_to",
        "is_item",
        "kinds",
        "level",
        "levels",
        "name",
        "no_escape",
        "no_help",
        "on_other",
        "race",
        "requires",
        "run_away",
        "run_away_given",
        "sex",
        "slot",
        "slots",
        "treasures",
        "type",
        "undead",
        "unless_highest",
        "uses",
        "uses_any",
        "value",
        "vs",
        "worn",
    )

    def __init__(self, d: CardDef) -> None:
        self.id: str = d.id
        self.name: str = d.name
        self.deck: str = d.deck
        self.type: str = d.type
        self.bonus: int = d.bonus
        self.value: int | None = d.value
        self.slot: str = d.slot
        self.hands: int = d.hands
        self.big: bool = d.big
        self.complex: bool = d.complex
        self.requires: Restriction | None = d.requires
        self.forbids: Restriction | None = d.forbids
        self.run_away: int = d.run_away
        self.run_away_given: bool = "run_away" in d.model_fields_set  # even 0 (S6, R13)
        self.extra_hands: int = d.extra_hands
        self.extra_big: int = d.extra_big
        self.extra_complex: int = d.extra_complex
        self.extra_steeds: int = d.extra_steeds
        self.carries: int = d.carries
        self.sex: str | None = d.sex
        self.race: tuple[str, ...] = d.race
        self.class_: tuple[str, ...] = d.class_
        self.uses: str = d.uses
        self.effects: tuple[Effect, ...] = d.effects
        self.level: int | None = d.level
        self.treasures: int = d.treasures
        self.levels: int = d.levels
        self.undead: bool = d.undead
        self.no_escape: bool = d.no_escape
        self.vs: tuple[VsBonus, ...] = d.vs
        self.bad_stuff: tuple[Effect, ...] = d.bad_stuff
        self.extra_treasures: int = d.extra_treasures
        self.escape_below: int = d.escape_below
        self.extra_races: int = d.extra_races
        self.extra_classes: int = d.extra_classes
        self.extra_hirelings: int = d.extra_hirelings
        self.enhances: str | None = d.enhances
        self.even_if_escaped: tuple[Effect, ...] = d.even_if_escaped
        self.ignores: Condition | None = d.ignores
        self.defeated_by: Condition | None = d.defeated_by
        self.beaten_by: tuple[RewardBonus, ...] = d.beaten_by
        self.no_help: bool = d.no_help
        self.extra_slots: tuple[str, ...] = d.extra_slots
        self.immune_to: tuple[str, ...] = d.immune_to
        self.uses_any: bool = d.uses_any
        self.unless_highest: bool = d.unless_highest
        self.on_other: bool = d.on_other
        self.is_item: bool = d.is_item
        self.slots: frozenset[str] = frozenset(s for s in SLOTS if d.takes(s))
        self.worn: tuple[str, ...] = tuple(s for s in SLOTS if s != "none" and d.takes(s))
        self.kinds: tuple[str, ...] = tuple(e.kind for e in d.effects)

    def takes(self, slot: str) -> bool:
        """Whether this item is worn in `slot` (CardDef.takes)."""
        return slot in self.slots


_CARDS: dict[int, tuple[CardDef, Card]] = {}
"""Each definition's Card, by the definition's identity (the definition is kept, so that its
identity is not reused)."""
CACHE_LIMIT = 20_000


def card_of(d: CardDef) -> Card:
    """The Card of one definition."""
    return cards_of((d,))[0]


def cards_of(defs: tuple[CardDef, ...]) -> tuple[Card, ...]:
    """The Card of each definition, made once per definition."""
    if len(_CARDS) > CACHE_LIMIT:
        _CARDS.clear()
    out = []
    for d in defs:
        known = _CARDS.get(id(d))
        if known is None:
            known = _CARDS[id(d)] = (d, Card(d))
        out.append(known[1])
    return tuple(out)
