"""What effects cost a player: Bad Stuff, curses, the strength a curse takes in a fight, and
the expected cost of running away (B9, B15)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from munchkin.bots.heuristic.seats import WORN_SLOTS, Seat, holds
from munchkin.bots.heuristic.values import LEVEL_VALUE, cheapest_payment, item_worth
from munchkin.cards.schema import CardDef, Condition, Effect

ESCAPE_ROLL = 5


def names_any(cond: Condition, traits: Iterable[str]) -> bool:
    """Whether a condition names one of these races or classes."""
    return bool({*cond.race, *cond.class_}.intersection(traits))


def branch(effect: Effect, seat: Seat) -> tuple[Effect, ...]:
    """The effects a conditional effect comes to for this player."""
    cond = effect.arg
    return cond.then if holds(cond.if_, seat) else cond.else_


def harm(effects: Iterable[Effect], seat: Seat, hand_value: float) -> float:
    """What effects (Bad Stuff, a curse) would cost a player; the victim chooses what to lose."""
    return sum(_effect_harm(e, seat, hand_value) for e in effects)


def _effect_harm(effect: Effect, seat: Seat, hand_value: float) -> float:
    kind, arg = effect.kind, effect.arg
    if kind == "lose_levels":
        return min(arg, seat.level - 1) * LEVEL_VALUE
    if kind == "die":
        return hand_value + sum(item_worth(c, in_use) for c, in_use in seat.in_play())
    if kind == "lose":
        return _loss_harm(arg, seat, hand_value)
    if kind in ("hireling_dies", "steal_hireling"):
        keeps_items = kind == "hireling_dies"
        worths = [h.bonus + (0 if keeps_items else sum(i.bonus for i in c)) for h, c in seat.hirelings()]
        return min(worths, default=0)
    if kind in ("lose_class", "lose_race"):
        return LEVEL_VALUE / 2 if seat.table["classes" if kind == "lose_class" else "races"] else 0.0
    if kind == "change_sex":
        return 0.3 + sum(c.bonus for c in seat.cards("equipped") if c.requires and c.requires.sex)
    if kind in ("run_away", "combat"):
        return max(0.0, -0.5 * arg)
    if kind == "conditional":
        return harm(branch(effect, seat), seat, hand_value)
    return _new_word_harm(kind, arg, seat, hand_value)


def _new_word_harm(kind: str, arg: object, seat: Seat, hand_value: float) -> float:
    """The harm of the words that act between players and of lasting curses (B3, B15)."""
    if kind == "steal_level":
        return LEVEL_VALUE if seat.level > 1 else 0.0
    if kind == "others_take" and isinstance(arg, int):
        return min(arg, seat.hand_count) * hand_value / max(1, seat.hand_count)
    if kind in ("swap_race", "swap_class"):
        return LEVEL_VALUE / 3 if seat.table["races" if kind == "swap_race" else "classes"] else 0.0
    if kind == "income_tax":
        return min((item_worth(c, used) for c, used in seat.in_play() if c.is_item), default=0.0)
    if kind == "doom":
        return 1.0
    if kind == "no_divine":
        return 1.0 if "cleric" in seat.classes else 0.0
    return 0.0


def _loss_harm(what: str, seat: Seat, hand_value: float) -> float:
    """`lose: WHAT`: the victim gives up the least valuable card of that kind."""
    if what == "hand_cards":
        return hand_value
    if what == "hireling":
        return sum(h.bonus + sum(i.bonus for i in c) for h, c in seat.hirelings())
    kinds = [item_worth(c, used) for c, used in seat.in_play() if c.type != "hireling" and is_kind(c, what)]
    return min(kinds, default=0.0)


def is_kind(card: CardDef, what: str) -> bool:
    """Whether a card is of the kind a `lose:` effect names: an item taking several slots is
    lost with any of them (docs/card-format.md)."""
    if what == "big":
        return card.big
    if what == "steed":
        return card.type == "steed"
    return card.takes(what) if what in (*WORN_SLOTS, "hands") else card.is_item


def weakening(effects: Iterable[Effect], seat: Seat) -> int:
    """How much strength effects take from a fighter at once (a curse played into a fight)."""
    total = 0
    for effect in effects:
        kind, arg = effect.kind, effect.arg
        if kind == "lose_levels":
            total += min(arg, seat.level - 1)
        elif kind == "steal_level":
            total += min(1, seat.level - 1)
        elif kind == "hireling_dies":
            total += min((h.bonus for h, _ in seat.hirelings()), default=0)
        elif kind == "combat":
            total += max(0, -arg)
        elif kind == "lose" and arg not in ("hand_cards", "hireling"):
            total += min((c.bonus if used else 0 for c, used in seat.in_play() if is_kind(c, arg)), default=0)
        elif kind == "conditional":
            total += weakening(branch(effect, seat), seat)
    return total


def levels_lost(effects: Iterable[Effect], seat: Seat) -> int:
    """How many levels effects take from a player."""
    total = 0
    for effect in effects:
        if effect.kind == "lose_levels":
            total += effect.arg
        elif effect.kind == "steal_level":
            total += 1
        elif effect.kind == "conditional":
            total += levels_lost(branch(effect, seat), seat)
    return min(total, seat.level - 1)


def escape_chance(modifier: int, reroll: bool) -> float:
    """A d6 plus the modifier reaching 5 (B9); a Halfling may roll a failure again (B14)."""
    p = min(1.0, max(0.0, (7 - ESCAPE_ROLL + modifier) / 6))
    return 1 - (1 - p) ** 2 if reroll else p


def tax_cost(seat: Seat, gold: int) -> float:
    """What paying `gold` of income tax costs a player: the items worth least to them that
    make it, or a level when they cannot; nothing for the immune (docs/card-format.md)."""
    if "income_tax" in seat.immunities:
        return 0.0
    items = [(c, c.value or 0, item_worth(c, used)) for c, used in seat.in_play() if c.is_item]
    paid = cheapest_payment(items, gold)
    if paid is None:
        return LEVEL_VALUE if seat.level > 1 else 0.0
    return sum(worth for _, _, worth in paid)


def bad_stuff(monster: CardDef) -> tuple[Effect, ...]:
    """What a monster does to a runner it catches: a steed fought as a monster costs a level (S9)."""
    return (Effect(lose_levels=1),) if monster.type == "steed" else monster.bad_stuff


def run_loss(
    monsters: Sequence[CardDef], seat: Seat, modifier: int, hand_value: float, reroll: bool
) -> float:
    """The expected cost of running from every monster of a lost fight (B9, S9)."""
    total = 0.0
    for m in monsters:
        if seat.level <= m.escape_below:
            continue
        bad = bad_stuff(m)
        p = 0.0 if m.no_escape else escape_chance(modifier + m.run_away, reroll)
        total += (1 - p) * harm(bad, seat, hand_value)
    return total
