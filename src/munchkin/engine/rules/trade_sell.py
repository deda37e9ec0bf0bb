"""Selling items for levels (B12) and trading items in play (B13)."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.rules.character import WIN_LEVEL, is_race
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
from munchkin.engine.verbs import holds, register, require, seat_of, single

GOLD_PER_LEVEL = 1000


def _sellable(g: GameState, seat: int) -> list[int]:
    """Cards with a gold value in the hand or in play (B12, H5, S1)."""
    p = g.players[seat]
    cards = p.hand + g.items_in_play(p) + p.hirelings
    return [i for i in cards if g.defs[i].value is not None and g.defs[i].type != "monster"]


def _sale(a: Action) -> tuple[str, ...]:
    return a.cards or ((a.arg,) if a.arg else ())


def _may_sell(g: GameState, seat: int) -> None:
    """Items are sold on your own turn, outside combat (B12)."""
    require_own_turn_calm(g, seat, "B12", "items are sold")
    require(g.phase != "setup", "B12", "items are sold on your own turn")


def check_sell(g: GameState, seat: int, a: Action) -> None:
    _may_sell(g, seat)
    pool = _sellable(g, seat)
    for card_id in _sale(a):
        inst = g.find(pool, card_id)
        require(inst is not None, "B12", f"{card_id} is not an item of yours with a gold value")
        pool.remove(inst or 0)
    require(bool(_sale(a)), "B12", "name the items to sell")


def do_sell(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    """Every full 1000 gold of this turn's sales buys a level, never the winning one; a
    Halfling sells one item a turn at double value (B12, B14)."""
    p = g.players[seat]
    pool = _sellable(g, seat)
    sold = []
    for card_id in _sale(a):
        inst = g.find(pool, card_id)
        assert inst is not None
        pool.remove(inst)
        sold.append(inst)
    values = sorted((g.defs[i].value or 0 for i in sold), reverse=True)
    if values and not g.sold_double and is_race(g, p, "halfling"):
        g.sold_double = True
        values[0] *= 2
    for inst in sold:
        if inst in p.hand:
            p.hand.remove(inst)
            discard(g, inst)
        else:
            part_with(g, seat, inst, ev)
    g.gold += sum(values)
    levels = min(g.gold // GOLD_PER_LEVEL, max(0, WIN_LEVEL - 1 - p.level))
    g.gold -= (g.gold // GOLD_PER_LEVEL) * GOLD_PER_LEVEL
    ev.append(
        Event("sold", {"player": p.name, "cards": list(_sale(a)), "gold": sum(values), "levels": levels})
    )
    if levels:
        p.level += levels
        ev.append(Event("level_up", {"player": p.name, "level": p.level, "source": "sale"}))


def sell_options(g: GameState, seat: int) -> list[Action]:
    """One item at a time: gold adds up over the turn, so any sale is a sequence of these
    (checked here with the parts of `check_sell`)."""
    if not holds(_may_sell, g, seat):
        return []
    return [Action("sell", cards=(card_id,)) for card_id in g.distinct_ids(_sellable(g, seat))]


def check_trade(g: GameState, seat: int, a: Action) -> None:
    _may_trade(g, seat)
    _check_deal(g, seat, a)


def _may_trade(g: GameState, seat: int) -> None:
    """Trades are made on your own turn, outside combat (B13)."""
    require_own_turn_calm(g, seat, "B13", "trades are made")
    require(g.phase != "setup", "B13", "trades are made on your own turn")


def _check_deal(g: GameState, seat: int, a: Action) -> None:
    """Whether this trade, with this player, may be offered (B13, H5, R27)."""
    other = _partner(g, seat, a.arg)
    gives, gets = pick_handed(g, seat, a.give, "B13"), pick_handed(g, other, a.take, "B13")
    require(bool(gives or gets), "B13", "a trade gives or takes something")
    require_fits(receive_problem(g, seat, gets, gives), "you could not hold it: ")


def _partner(g: GameState, seat: int, name: str | None) -> int:
    other = seat_of(g, name, "B13")
    require(other != seat and not g.players[other].dead, "B13", "trade with another living player")
    return other


def check_accept(g: GameState, seat: int, a: Action) -> None:
    check_answer(g, seat, a)
    offer = g.offer
    assert offer is not None
    still = set(handed_items(g, offer.giver)) >= set(offer.give) and set(handed_items(g, seat)) >= set(
        offer.take
    )
    require(still, "B13", "a card of this trade has left play since it was offered: decline it")
    problem = receive_problem(g, seat, list(offer.give), list(offer.take))
    require_fits(problem, "you could not hold it: ")


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


def trade_options(g: GameState, seat: int) -> Iterator[Action]:
    """Trades of one item each way, or a gift, checked here with the same parts as
    `check_trade` (larger trades are legal too)."""
    if not holds(_may_trade, g, seat):
        return
    mine = g.distinct(handed_items(g, seat))
    if not mine:
        return  # every trade listed gives one item
    for other, q in enumerate(g.players):
        if other == seat or q.dead:
            continue
        theirs = [None, *g.distinct(handed_items(g, other))]
        for give in mine:
            for take in theirs:
                gets = [] if take is None else [take]
                if receive_problem(g, seat, gets, [give]) is None:
                    ids = () if take is None else (g.defs[take].id,)
                    yield Action("trade", q.name, give=(g.defs[give].id,), take=ids)


def check_answer(g: GameState, seat: int, a: Action) -> None:
    require(
        g.offer is not None and g.offer.taker == seat and free_to_act(g, seat),
        "B13",
        "no trade is offered to you",
    )


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
