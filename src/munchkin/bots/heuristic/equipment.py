"""What the bot puts in play and uses: steeds it can ride, items it can use (and small ones
to carry and sell), the best items the slots and hands allow (B11, H6, H7, S2)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from munchkin.bots.heuristic.seats import WORN_SLOTS, Seat, usable
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import use_worth
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action

Entry = tuple[CardDef, bool]
"""An item with whether it is in use now."""


def best_layout(me: Seat) -> set[str]:
    """The ids of the items worth using together: every item with no slot (some give hands),
    then the best of each worn slot and the best hands' worth around the items that take
    several slots, if any are worth it; ties keep the items already in use (B11, H6).
    Worked out once per decision (the seat's `memo`)."""
    if "best_layout" not in me.memo:
        me.memo["best_layout"] = _best_layout(me)
    return set(me.memo["best_layout"])


def _best_layout(me: Seat) -> set[str]:
    """`best_layout`, worked out."""
    items = [(c, True, on) for c, on in me.with_attached("equipped")]
    items += [(c, False, on) for c, on in me.with_attached("carried")]
    mine = [
        (c, in_use)
        for c, in_use, on in items
        if c.type == "item" and usable(c, me, any(e.type == "cheat" for e in on))
    ]
    chosen = [e for e in mine if e[0].slot == "none" and not e[0].extra_slots]
    capacity = 2 + sum(c.extra_hands for c in me.cards("steeds"))
    capacity += sum(h.extra_hands for h, _ in me.hirelings() if h.carries == 0)
    capacity += sum(c.extra_hands for c, _ in chosen)
    multi = [e for e in mine if e[0].extra_slots]
    single = [e for e in mine if e[0].slot != "none" and not e[0].extra_slots]
    layouts = [
        _fill(list(combo), single, capacity)
        for n in range(len(multi) + 1)
        for combo in combinations(multi, n)
        if _fits_together(combo, capacity)
    ]
    best = max(layouts, key=lambda layout: (sum(_score(e)[0] for e in layout), sum(e[1] for e in layout)))
    return {c.id for c, _ in chosen + best}


def _score(entry: Entry) -> tuple[float, bool, str]:
    return (use_worth(entry[0]), entry[1], entry[0].id)


def _fits_together(combo: Sequence[Entry], capacity: int) -> bool:
    """Items that take several slots, used together: no slot twice, enough hands."""
    slots = [slot for c, _ in combo for slot in (*WORN_SLOTS, "hands") if c.takes(slot)]
    hands = sum(c.hands for c, _ in combo if c.takes("hands"))
    return len(slots) == len(set(slots)) and hands <= capacity


def _fill(layout: list[Entry], single: Sequence[Entry], capacity: int) -> list[Entry]:
    """The best single-slot items for the worn slots and hands the layout leaves free."""
    taken = {slot for c, _ in layout for slot in WORN_SLOTS if c.takes(slot)}
    for slot in WORN_SLOTS:
        worn = [e for e in single if e[0].slot == slot]
        if worn and slot not in taken:
            layout.append(max(worn, key=_score))
    free = capacity - sum(c.hands for c, _ in layout if c.takes("hands"))
    held = [e for e in single if e[0].slot == "hands"]
    fits = [
        combo
        for n in range(len(held) + 1)
        for combo in combinations(held, n)
        if sum(c.hands for c, _ in combo) <= free
    ]
    best = max(fits, key=lambda combo: (sum(_score(e)[0] for e in combo), sum(e[1] for e in combo)))
    return layout + list(best)


def play_steeds_and_items(s: Situation) -> Action | None:
    """Steeds it can ride; items it can use, and small ones it cannot (to carry and sell)."""
    for a in s.legal("play", target=None, on=None):
        card = s.card(a.arg)
        if card.type == "steed" and usable(card, s.me):
            return a
        if card.type == "item" and (usable(card, s.me) or not (card.big or card.complex)):
            return a
    return None


def arrange_items(s: Situation) -> Action | None:
    """Use the best items the slots and hands allow; hand the rest to carrier hirelings (B11, H7)."""
    best = best_layout(s.me)
    equipped = {c.id for c in s.me.cards("equipped")}
    for a in s.legal("unequip"):
        if a.arg in equipped and a.arg not in best:
            return a
    for a in s.legal("equip", hireling=None):
        if a.arg in best:
            return a
    spare = [a for a in s.legal("equip") if a.hireling and a.arg not in best and s.card(a.arg).bonus > 0]
    return s.best(spare, lambda a: s.card(a.arg).bonus)
