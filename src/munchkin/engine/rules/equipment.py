"""Putting items on and taking them off, or handing them to a hireling (B11, H7)."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.items import can_use, hireling_can_use, limit_problem, require_fits
from munchkin.engine.state import GameState
from munchkin.engine.timing import own_turn_calm, require_own_turn_calm
from munchkin.engine.verbs import refuse, register


def check_equip(g: GameState, seat: int, a: Action) -> None:
    require_own_turn_calm(g, seat, "B11", "items are put on")
    p = g.players[seat]
    inst = g.find(p.carried, a.arg or "")
    if inst is None:
        raise refuse("B11", f"{a.arg} is not an item you carry")
    assert inst is not None
    if a.hireling is not None:
        h = g.find(p.hirelings, a.hireling)
        if h is None:
            raise refuse("H7", f"{a.hireling} is not a hireling of yours")
        assert h is not None
        if g.cards[inst].type == "steed":
            raise refuse("H7", "a hireling carries items, not a steed to ride")
        room = g.cards[h].carries - len(g.carrying.get(h, ()))
        if room <= 0:
            raise refuse("H7", f"{g.cards[h].name} cannot carry more items")
        if not hireling_can_use(g, h, inst):
            raise refuse("H7", f"{g.cards[h].name} cannot use {g.cards[inst].name}")
        return
    if not can_use(g, p, inst):
        raise refuse("B11", f"you cannot use {g.cards[inst].name}")
    others = [i for i in p.carried if i != inst]
    if g.cards[inst].type == "steed":  # a steed that can now be used rides (S8)
        require_fits(limit_problem(g, p, p.equipped, others, [*p.steeds, inst]))
    else:
        require_fits(limit_problem(g, p, [*p.equipped, inst], others, p.steeds))


def do_equip(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    inst = g.find(p.carried, a.arg or "")
    assert inst is not None
    p.carried.remove(inst)
    if a.hireling is not None:
        h = g.find(p.hirelings, a.hireling)
        assert h is not None
        g.carrying.setdefault(h, []).append(inst)
    else:
        (p.steeds if g.cards[inst].type == "steed" else p.equipped).append(inst)
    ev.append(Event("item_equipped", {"player": p.name, "card": a.arg, "hireling": a.hireling}))


def equip_options(g: GameState, seat: int) -> Iterator[Action]:
    if not own_turn_calm(g, seat):
        return
    p = g.players[seat]
    for card_id in g.distinct_ids(p.carried):
        yield action("equip", card_id)
        for h in p.hirelings:
            if g.cards[h].carries:
                yield action("equip", card_id, hireling=g.cards[h].id)


def check_unequip(g: GameState, seat: int, a: Action) -> None:
    require_own_turn_calm(g, seat, "B11", "items are taken off")
    inst = g.find(g.items_in_use(g.players[seat]), a.arg or "")
    if inst is None:
        raise refuse("B11", f"{a.arg} is not an item in use")
    assert inst is not None
    p = g.players[seat]
    equipped = [i for i in p.equipped if i != inst]
    require_fits(
        limit_problem(g, p, equipped, [*p.carried, inst], p.steeds), "taking it off would break a limit: "
    )


def do_unequip(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    inst = g.find(p.equipped, a.arg or "")
    if inst is not None:
        p.equipped.remove(inst)
    else:
        for h in p.hirelings:
            inst = g.find(g.carrying.get(h, []), a.arg or "")
            if inst is not None:
                g.carrying[h].remove(inst)
                break
    assert inst is not None
    p.carried.append(inst)
    ev.append(Event("item_unequipped", {"player": p.name, "card": a.arg}))


def unequip_options(g: GameState, seat: int) -> list[Action]:
    """Each item in use."""
    if not own_turn_calm(g, seat):
        return []
    return [action("unequip", card_id) for card_id in g.distinct_ids(g.items_in_use(g.players[seat]))]


register("equip", check_equip, do_equip, equip_options)
register("unequip", check_unequip, do_unequip, unequip_options)
