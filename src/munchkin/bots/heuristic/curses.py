"""Curses and the one-shots played on another player (B3, B5, B15, H10): curses on the leader
where they hurt (an income tax only when the others pay more than the bot; what a curse does
to those under a doom, the bot too, counted), a level borrowed
from the player it hurts most to lose it, a hireling fired where that hurts most."""

from __future__ import annotations

from munchkin.bots.heuristic.harms import harm, tax_cost
from munchkin.bots.heuristic.seats import Seat
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import LEVEL_VALUE, item_worth, words
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action


def curse(s: Situation) -> Action | None:
    """Curse the leader where it hurts, fire the leader's hireling; with too many cards at
    the end of the turn, whoever it hurts most rather than give the curse away (B5, B15)."""
    over_limit = s.data["phase"] == "end" and len(s.hand) > s.data["hand_limit"]

    def score(a: Action) -> float:
        victim = s.seats[a.target or ""]
        weight = 1.0 if victim is s.leader else 0.5 if over_limit and victim is not s.me else 0.0
        card = s.card(a.arg)
        if weight and victim.immunities & words(card):
            return 0.0
        if "income_tax" in words(card):
            return weight * _tax_gain(s, victim) + _doomed(s, card, victim)
        return weight * harm(card.effects, victim, victim.hand_count) + _doomed(s, card, victim)

    curses = [a for a in s.legal("play") if _aimed(s.card(a.arg)) and score(a) > 0]
    return s.best(curses, score)


def _doomed(s: Situation, card: CardDef, victim: Seat) -> float:
    """A curse played on someone also hits every other player under a doom, the bot too
    (digest §2.5): what that costs them, as the bot cares about them (its own loss its own)."""
    doomed = [
        seat
        for seat in (s.me, *s.opponents)
        if seat is not victim and any(e["kind"] == "doom" for e in seat.table["lasting"])
    ]
    return sum(
        s.spite(seat) * harm(card.effects, seat, s.hand_value if seat is s.me else seat.hand_count)
        for seat in doomed
    )


def _aimed(card: CardDef) -> bool:
    """Curses, traps and the one-shots that fire a hireling."""
    return card.type in ("curse", "trap") or (card.type == "one_shot" and "hireling_dies" in words(card))


def _tax_gain(s: Situation, victim: Seat) -> float:
    """An income tax on `victim`: they lose their least useful item, everyone else pays as
    much in gold or loses a level; what the others lose, as the bot cares, less its own part."""
    items = [(item_worth(c, used), c.value or 0) for c, used in victim.in_play() if c.is_item]
    if not items:
        return 0.0
    worth, gold = min(items)
    others = sum(s.spite(o) * tax_cost(o, gold) for o in s.opponents if o is not victim)
    return worth + others - tax_cost(s.me, gold)


def steal_level(s: Situation) -> Action | None:
    """Borrow a level at once, from the opponent it hurts most to lose it: the leader first
    (B3; the engine refuses it below level 1 and for the bot's winning level)."""
    plays = [a for a in s.legal("play") if "steal_level" in words(s.card(a.arg)) and a.target != s.me.name]
    return s.best(plays, lambda a: LEVEL_VALUE + s.spite(s.seats[a.target or ""]))
