"""Selling items for levels (B12) and trading items in play (B13)."""

from __future__ import annotations

from itertools import combinations

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.character import is_race, win_level
from munchkin.engine.rules.effects import part_with
from munchkin.engine.rules.items import (
    discard,
    hand_over,
    handed_items,
    pick_handed,
    receive_problem,
    require_fits,
)
from munchkin.engine.state import GameState, Offer
from munchkin.engine.timing import free_to_act, require_own_turn_calm
from munchkin.engine.verbs import holds, refuse, register, seat_of, single

GOLD_PER_LEVEL = 1000
LISTED_SALE_SIZE = 3


def _sellable(g: GameState, seat: int) -> list[int]:
    """Cards with a gold value in the hand or in play, a steed's enhancers too (B12, H5,
    S1, digest §2.2)."""
    p = g.players[seat]
    cards = p.hand + g.items_in_play(p) + p.hirelings + _steed_gear(g, seat)
    return [i for i in cards if g.cards[i].value is not None and g.cards[i].type != "monster"]


def _steed_gear(g: GameState, seat: int) -> list[int]:
    """Steed enhancers on the player's steeds, ridden or carried unridden (S8): each may be
    sold on its own (digest §2.2)."""
    return [
        e
        for s in _steeds_in_play(g, seat)
        for e in g.attached.get(s, ())
        if g.cards[e].type == "steed_enhancer"
    ]


def _steeds_in_play(g: GameState, seat: int) -> list[int]:
    """Steeds ridden, and steeds carried unridden (S8)."""
    p = g.players[seat]
    return p.steeds + [i for i in p.carried if g.cards[i].type == "steed"]


def _sale(a: Action) -> tuple[str, ...]:
    return a.cards or ((a.arg,) if a.arg else ())


def may_sell(g: GameState, seat: int) -> None:
    """Items are sold on your own turn, outside combat (B12)."""
    require_own_turn_calm(g, seat, "B12", "items are sold")
    if g.phase == "setup":
        raise refuse("B12", "items are sold on your own turn")


def sale_gold(g: GameState, seat: int, sold: list[int]) -> int:
    """What a set of items fetches: a Halfling's first sale of the turn counts its most
    valuable item twice (B12, B14)."""
    values = [g.cards[i].value or 0 for i in sold]
    doubled = max(values, default=0) if _doubles(g, seat) else 0
    return sum(values) + doubled


def _doubles(g: GameState, seat: int) -> bool:
    return not g.sold_double and is_race(g, g.players[seat], "halfling")


def sale_levels(g: GameState, seat: int, gold: int) -> int:
    """Levels a sale gives: one per full 1000 gold (with the turn's pooled gold, when the
    table pools it), never the winning level (B12)."""
    pooled = g.gold if g.options.sale_gold == "pooled" else 0
    room = max(0, win_level(g) - 1 - g.players[seat].level)
    return min((gold + pooled) // GOLD_PER_LEVEL, room)


def check_sale(g: GameState, seat: int, sold: list[int]) -> None:
    """A sale must be able to give a level: worth 1000 gold or more, and not when the next
    level would be the winning one (B12)."""
    if g.players[seat].level + 1 >= win_level(g):
        raise refuse("B12", "a sale could give no level: the next level is the winning one")
    if g.options.sale_gold == "lost":
        gold = sale_gold(g, seat, sold)
        if gold < GOLD_PER_LEVEL:
            raise refuse("B12", f"a sale must be worth 1000 gold or more (this is {gold})")


def _picked(g: GameState, seat: int, card_ids: tuple[str, ...]) -> list[int]:
    pool = _sellable(g, seat)
    sold = []
    for card_id in card_ids:
        inst = g.find(pool, card_id)
        if inst is None:
            raise refuse("B12", f"{card_id} is not an item of yours with a gold value")
        assert inst is not None
        pool.remove(inst)
        sold.append(inst)
    return sold


def check_sell(g: GameState, seat: int, a: Action) -> None:
    may_sell(g, seat)
    if not bool(_sale(a)):
        raise refuse("B12", "name the items to sell")
    check_sale(g, seat, _picked(g, seat, _sale(a)))


def do_sell(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    sell(g, seat, _picked(g, seat, _sale(a)), ev)


def sell(g: GameState, seat: int, sold: list[int], ev: list[Event]) -> None:
    """One sale: the items go, every full 1000 gold buys a level (never the winning one),
    and the rest is lost, or pooled for the turn when the table chose so (B12, B14)."""
    p = g.players[seat]
    gold = sale_gold(g, seat, sold)
    g.sold_double = g.sold_double or _doubles(g, seat)
    levels = sale_levels(g, seat, gold)
    if g.options.sale_gold == "pooled":
        g.gold = (g.gold + gold) % GOLD_PER_LEVEL
    gear = _steed_gear(g, seat)
    for inst in sorted(sold, key=lambda i: (i not in gear, i in p.hirelings)):  # enhancers first
        if inst in p.hand:
            p.hand.remove(inst)
            discard(g, inst)
        elif inst in gear:
            steed = next(s for s in _steeds_in_play(g, seat) if inst in g.attached.get(s, ()))
            g.attached[steed].remove(inst)
            if not g.attached[steed]:
                del g.attached[steed]
            discard(g, inst)
        else:
            part_with(g, seat, inst, ev)
    ids = [g.cards[i].id for i in sold]
    ev.append(Event("sold", {"player": p.name, "cards": ids, "gold": gold, "levels": levels}))
    if levels:
        p.level += levels
        ev.append(Event("level_up", {"player": p.name, "level": p.level, "source": "sale"}))


def sell_options(g: GameState, seat: int) -> list[Action]:
    """Sales of up to three items in which every item is needed for the levels they give
    (ruling R7; larger sales are legal too), checked here with the parts of `check_sell`."""
    if not holds(may_sell, g, seat) or g.players[seat].level + 1 >= win_level(g):
        return []
    sellable = _sellable(g, seat)
    cards = g.distinct(sellable) + _second_copies(g, sellable)
    if g.options.sale_gold == "pooled":
        return [action("sell", cards=(g.cards[i].id,)) for i in g.distinct(cards)]
    goods = [(g.cards[i].id, g.cards[i].value or 0) for i in cards]
    double = _doubles(g, seat)
    if sum(v for _, v in goods) * (2 if double else 1) < GOLD_PER_LEVEL:
        return []
    room = win_level(g) - 1 - g.players[seat].level
    seen: set[tuple[str, ...]] = set()
    actions = []
    values = [v for _, v in goods]
    for size in range(1, LISTED_SALE_SIZE + 1):
        for picked, sold in zip(
            combinations(range(len(goods)), size), combinations(values, size), strict=True
        ):
            gold = _gold(sold, double)
            if gold < GOLD_PER_LEVEL:
                continue  # no level (there is room for one at least)
            levels = min(gold // GOLD_PER_LEVEL, room)
            if size > 1 and _some_unneeded(sold, double, room, levels):
                continue
            ids = tuple(sorted(goods[i][0] for i in picked))
            if ids not in seen:
                seen.add(ids)
                actions.append(action("sell", cards=ids))
    return actions


def _gold(values: tuple[int, ...], double: bool) -> int:
    total = sum(v for v in values)
    return total + max(values) if double and values else total


def _some_unneeded(values: tuple[int, ...], double: bool, room: int, levels: int) -> bool:
    """Whether the sale gives as many levels without one of its items."""
    return any(
        min(_gold(values[:k] + values[k + 1 :], double) // GOLD_PER_LEVEL, room) >= levels
        for k in range(len(values))
    )


def _second_copies(g: GameState, sellable: list[int]) -> list[int]:
    """A second copy of each card, so that a sale may hold two copies of one card."""
    first = set(g.distinct(sellable))
    return g.distinct([i for i in sellable if i not in first])


def check_trade(g: GameState, seat: int, a: Action) -> None:
    _may_trade(g, seat)
    _check_deal(g, seat, a)


def _may_trade(g: GameState, seat: int) -> None:
    """Trades are made on your own turn, outside combat (B13)."""
    require_own_turn_calm(g, seat, "B13", "trades are made")
    if g.phase == "setup":
        raise refuse("B13", "trades are made on your own turn")


def _check_deal(g: GameState, seat: int, a: Action) -> None:
    """Whether this trade, with this player, may be offered (B13, H5, R27)."""
    other = _partner(g, seat, a.arg)
    gives, gets = pick_handed(g, seat, a.give, "B13"), pick_handed(g, other, a.take, "B13")
    if not bool(gives or gets):
        raise refuse("B13", "a trade gives or takes something")
    require_fits(receive_problem(g, seat, gets, gives), "you could not hold it: ")


def _partner(g: GameState, seat: int, name: str | None) -> int:
    other = seat_of(g, name, "B13")
    if not (other != seat and not g.players[other].dead):
        raise refuse("B13", "trade with another living player")
    return other


def check_accept(g: GameState, seat: int, a: Action) -> None:
    check_answer(g, seat, a)
    offer = g.offer
    assert offer is not None
    still = set(handed_items(g, offer.giver)) >= set(offer.give) and set(handed_items(g, seat)) >= set(
        offer.take
    )
    if not still:
        raise refuse("B13", "a card of this trade has left play since it was offered: decline it")
    require_fits(receive_problem(g, seat, list(offer.give), list(offer.take)), "you could not hold it: ")
    giver = g.players[offer.giver].name
    require_fits(
        receive_problem(g, offer.giver, list(offer.take), list(offer.give)), f"{giver} could not hold it: "
    )


def do_trade(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    other = g.index(a.arg or "")
    give = tuple(pick_handed(g, seat, a.give, "B13"))
    take = tuple(pick_handed(g, other, a.take, "B13"))
    g.offer = Offer(seat, other, give, take)
    ev.append(
        Event(
            "trade_offered",
            {"player": g.players[seat].name, "to": a.arg, "give": list(a.give), "take": list(a.take)},
        )
    )


def trade_options(g: GameState, seat: int) -> list[Action]:
    """Trades of one item each way, or a gift, checked here with the same parts as
    `check_trade` (larger trades are legal too)."""
    if not holds(_may_trade, g, seat):
        return []
    mine = g.distinct(handed_items(g, seat))
    if not mine:
        return []  # every trade listed gives one item
    actions = []
    for other, q in enumerate(g.players):
        if other == seat or q.dead:
            continue
        theirs = g.distinct(handed_items(g, other))
        for give in mine:
            gives = [give]
            give_ids = (g.cards[give].id,)
            if receive_problem(g, seat, [], gives) is None:  # a gift
                actions.append(action("trade", q.name, None, None, None, (), give_ids))
            for take in theirs:
                if receive_problem(g, seat, [take], gives) is None:
                    actions.append(
                        action("trade", q.name, None, None, None, (), give_ids, (g.cards[take].id,))
                    )
    return actions


def check_answer(g: GameState, seat: int, a: Action) -> None:
    if not (g.offer is not None and g.offer.taker == seat and free_to_act(g, seat)):
        raise refuse("B13", "no trade is offered to you")


def do_accept(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    offer = g.offer
    assert offer is not None
    g.offer = None
    moves = [(offer.giver, offer.taker, i) for i in offer.give]
    hand_over(g, moves + [(offer.taker, offer.giver, i) for i in offer.take], ev)
    ev.append(Event("trade_done", {"player": g.players[seat].name}))


def do_decline(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    g.offer = None
    ev.append(Event("trade_declined", {"player": g.players[seat].name}))


def _offered(g: GameState, seat: int) -> bool:
    return g.offer is not None and g.offer.taker == seat


register("sell", check_sell, do_sell, sell_options, prechecked=True)
register("trade", check_trade, do_trade, trade_options, prechecked=True)
register("accept_trade", check_accept, do_accept, single("accept_trade", _offered))
register("decline_trade", check_answer, do_decline, single("decline_trade", _offered))
