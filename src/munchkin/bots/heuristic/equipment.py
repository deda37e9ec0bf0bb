"""What the bot puts in play and uses: steeds it can ride, items it can use (and small ones
to carry and sell), the best items the slots and hands allow (B11, H6, H7, S2)."""

from __future__ import annotations

from itertools import combinations

from munchkin.bots.heuristic.seats import WORN_SLOTS, Seat, usable
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import use_worth
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action


def best_layout(me: Seat) -> set[str]:
    """The ids of the items worth using together: the best of each worn slot, the best hands'
    worth, every item with no slot; ties keep the items already in use (B11, H6)."""
    items = [(c, True, on) for c, on in me.with_attached("equipped")]
    items += [(c, False, on) for c, on in me.with_attached("carried")]
    mine = [
        (c, in_use)
        for c, in_use, on in items
        if c.type == "item" and usable(c, me, any(e.type == "cheat" for e in on))
    ]

    def score(entry: tuple[CardDef, bool]) -> tuple[float, bool, str]:
        return (use_worth(entry[0]), entry[1], entry[0].id)

    chosen = {c.id for c, _ in mine if c.slot == "none"}
    for slot in WORN_SLOTS:
        worn = [e for e in mine if e[0].slot == slot]
        if worn:
            chosen.add(max(worn, key=score)[0].id)
    held = [e for e in mine if e[0].slot == "hands"]
    capacity = 2 + sum(c.extra_hands for c in me.cards("steeds"))
    capacity += sum(h.extra_hands for h, _ in me.hirelings() if h.carries == 0)
    fits = [
        combo
        for n in range(len(held) + 1)
        for combo in combinations(held, n)
        if sum(c.hands for c, _ in combo) <= capacity
    ]
    best = max(fits, key=lambda combo: (sum(score(e)[0] for e in combo), sum(e[1] for e in combo)))
    return chosen | {c.id for c, _ in best}


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
