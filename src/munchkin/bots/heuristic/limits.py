"""Broken limits (B11, B12): over the Big, Complex or steed limit, or items that no longer
fit, the bot sells, plays a card that puts the limit right, gives away or discards, whichever
costs least."""

from __future__ import annotations

from munchkin.bots.heuristic.seats import threat
from munchkin.bots.heuristic.selling import sale_levels
from munchkin.bots.heuristic.situation import Situation
from munchkin.engine.actions import Action


def get_rid(s: Situation, options: list[Action]) -> Action | None:
    """Over the Big, Complex or steed limit: sell an item when that gives a level, else
    play a card that puts the limit right if it is worth less than the item, else give the
    item to the weakest player, else discard the least valuable (B11, B12)."""
    sales = [a for a in options if (a.arg or "").startswith("sell ")]
    paying = [a for a in sales if sale_levels(s, ((a.arg or "").removeprefix("sell "),)) > 0]
    if paying:
        return s.best(paying, lambda a: -s.worth_in_play((a.arg or "").removeprefix("sell ")))
    discards = [a for a in options if " " not in (a.arg or "")]
    fixing = _fixing_play(s, discards)
    if fixing is not None:
        return fixing
    gifts = [a for a in options if (a.arg or "").startswith("give ")]
    if gifts:
        return s.best(gifts, lambda a: _gift_score(s, a.arg or ""))
    return s.least_valuable(discards or options)


def take_off(s: Situation, options: list[Action]) -> Action | None:
    """Items no longer fit: play a card that makes them fit if it is worth less than the
    least useful item, else take that one off (B11)."""
    return _fixing_play(s, options) or s.least_valuable(options)


def _gift_score(s: Situation, option: str) -> float:
    """A gift to the weakest player, of the item the bot loses least by."""
    card_id, _, name = option.removeprefix("give ").partition(" to ")
    return -threat(s.seats[name]) * 10 - s.worth_in_play(card_id)


def _fixing_play(s: Situation, cards: list[Action]) -> Action | None:
    """A card from the hand that puts the broken limit right (a Dwarf for Big items, a
    hireling with hands), listed beside the answers, when it is worth less than the least
    valuable of the `cards` that would go otherwise (B11)."""
    plays = s.legal("play")
    if not plays or not cards:
        return None
    at_stake = min(s.worth_in_play(a.arg or "") for a in cards)
    cheapest = min(plays, key=lambda a: s.value(a.arg))
    return cheapest if s.value(cheapest.arg) < at_stake else None
