"""What cards are worth to the bot, in strength points: a +1 bonus is worth 1, a level
`LEVEL_VALUE`, a treasure `TREASURE_VALUE`, 1000 gold a level."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TypeVar

from munchkin.bots.heuristic.seats import Seat, holds, monster_strength, strength, usable
from munchkin.cards.schema import CardDef

T = TypeVar("T")

LEVEL_VALUE = 3.0
TREASURE_VALUE = 1.5
GAME_VALUE = 1000.0
"""Winning the game (or stopping someone from winning it) outweighs any card."""
GOLD_PER_LEVEL = 1000
TROUBLE_MARGIN = 2
"""How much stronger than a monster the bot wants to be before fighting it by choice."""
TRAIT_VALUES = {
    "warrior": 3.0,
    "elf": 3.0,
    "cleric": 2.0,
    "wizard": 2.0,
    "dwarf": 2.0,
    "thief": 1.5,
    "halfling": 1.5,
    "centaur": 1.0,
    "goblin-kin": 1.0,
}
"""What a race or class is worth for its powers (B14, C1), before the items it lets one use."""
KEPT_VALUES = {"curse": 1.2, "trap": 1.2, "monster_enhancer": 1.5, "cheat": 1.5}
"""Cards kept in the hand to use against others (default 1)."""
DEAD_HIRELING = 0.2
"""A hireling in the hand with no room for it and no better than those in play."""
MAX_PAYMENT_ITEMS = 6
"""The most items weighed together to make a payment."""


def gold_worth(card: CardDef) -> float:
    return (card.value or 0) / GOLD_PER_LEVEL * LEVEL_VALUE


def use_worth(card: CardDef) -> float:
    """What a card in play adds while used: its bonus, a little for running away."""
    return card.bonus + 0.3 * card.run_away


def item_worth(card: CardDef, in_use: bool) -> float:
    """A card in play: what it adds while used, and its gold."""
    return (use_worth(card) if in_use else 0.0) + gold_worth(card)


def trait_score(card: CardDef, held: Iterable[CardDef]) -> float:
    """What a race or class is worth: its powers, plus the bonuses of the items among `held`
    it lets one use, less those it forbids."""
    fit = 0.0
    for item in held:
        for rule, sign in ((item.requires, 1), (item.forbids, -1)):
            if rule and card.id in (rule.race if card.type == "race" else rule.class_):
                fit += sign * item.bonus
    return TRAIT_VALUES.get(card.id, 1.0) + fit


WORD_VALUES = {
    "escape": 2.0,
    "escape_together": 2.0,
    "draw_treasures": 2 * TREASURE_VALUE,
    "steal_level": 2 * LEVEL_VALUE,
    "set_die": 2.0,
    "cancel_curse": 2.0,
    "roll_again": 1.0,
    "pass_fight": 2.0,
    "double_strength": 2.5,
    "send_away": 2.5,
    "force_help": 2.0,
    "twin": 1.5,
    "illusion": 1.5,
    "hireling_dies": 1.0,
}
"""What the effect words of one-shots and fight cards are worth kept in the hand (default 0.3)."""


def hireling_worth(hireling: CardDef, carrying: Sequence[CardDef] = ()) -> float:
    """A hireling in play: its bonus, a point for being there, the bonuses of what it carries."""
    return hireling.bonus + 1.0 + sum(c.bonus for c in carrying)


def hireling_gain(card: CardDef, me: Seat) -> float:
    """What a hireling in the hand adds: its worth while there is room for it, else only
    what it would add in place of the weakest in play, with what that one carries (H1, H11)."""
    if me.hireling_room() or not me.hirelings():
        return hireling_worth(card)
    weakest = min(hireling_worth(h, carrying) for h, carrying in me.hirelings())
    return max(DEAD_HIRELING, hireling_worth(card) - weakest)


def one_shot_value(card: CardDef) -> float:
    return 0.7 * card.bonus + 0.5 * card.run_away + sum(WORD_VALUES.get(e.kind, 0.3) for e in card.effects)


def words(card: CardDef) -> set[str]:
    """The effect words of a card."""
    return {e.kind for e in card.effects}


def card_value(card: CardDef, me: Seat) -> float:
    """What a card in the hand is worth to `me`."""
    kind = card.type
    if kind == "go_up_a_level":
        return 0.1 if card.on_other else LEVEL_VALUE if me.level < me.win_level - 1 else 0.2
    if kind == "item":
        return (card.bonus if usable(card, me) else 0.3 * card.bonus) + gold_worth(card)
    if kind == "hireling":
        return hireling_gain(card, me) + gold_worth(card)
    if kind == "steed":
        return card.bonus + 1.0 + gold_worth(card)
    if kind == "one_shot":
        return one_shot_value(card)
    if kind in ("race", "class"):
        return 0.5 * trait_score(card, ())
    if kind == "monster":
        if card.ignores is not None and holds(card.ignores, me):
            return 0.4
        beaten = card.defeated_by is not None and holds(card.defeated_by, me)
        return 1.0 if beaten or monster_strength(card, [me]) + TROUBLE_MARGIN <= strength(me) else 0.4
    if kind == "divine_intervention":
        return LEVEL_VALUE if "cleric" in me.classes else 0.2
    if kind == "steed_enhancer":
        return card.bonus if me.table["steeds"] else 0.5
    if kind == "other" and card.effects:
        return one_shot_value(card)
    return KEPT_VALUES.get(kind, 1.0)


def cheapest_payment(
    items: Sequence[tuple[T, int, float]], owed: int
) -> tuple[tuple[T, int, float], ...] | None:
    """Of items (thing, gold, worth), those worth least together that make `owed` gold, the
    fewest among equals; None when all of them fall short."""
    covers = [
        combo
        for n in range(1, min(len(items), MAX_PAYMENT_ITEMS) + 1)
        for combo in combinations(items, n)
        if sum(gold for _, gold, _ in combo) >= owed
    ]
    return min(covers, key=lambda combo: (sum(w for _, _, w in combo), len(combo)), default=None)
