"""Putting items on and taking them off, or handing them to a hireling (B11, H7)."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.items import can_use, cheated, hireling_can_use, limit_problem, require_fits
from munchkin.engine.state import GameState
from munchkin.engine.timing import own_turn_calm, require_own_turn_calm
from munchkin.engine.verbs import refuse, register


def check_equip(g: GameState, seat: int, a: Action) -> None:
    require_own_turn_calm(g, seat, "B11", "items are put on")
    p = g.players[seat]
    if a.hireling is not None:
        _check_to_hireling(g, seat, a)
        return
    inst = g.find(p.carried, a.arg or "")
    if inst is None:
        raise refuse("B11", f"{a.arg} is not an item you carry")
    assert inst is not None
    if not can_use(g, p, inst):
        raise refuse("B11", f"you cannot use {g.cards[inst].name}")
    others = [i for i in p.carried if i != inst]
    if g.cards[inst].type == "steed":  # a steed that can now be used rides (S8)
        require_fits(limit_problem(g, p, p.equipped, others, [*p.steeds, inst]))
    else:
        require_fits(limit_problem(g, p, [*p.equipped, inst], others, p.steeds))


def _check_to_hireling(g: GameState, seat: int, a: Action) -> None:
    """An item the owner carries or uses goes to a carrier hireling with room that can use
    it; a Cheat! on the item, or on the hireling, lets it carry one it could not (H7, H16)."""
    p = g.players[seat]
    inst = g.find(p.carried + p.equipped, a.arg or "")
    if inst is None:
        raise refuse("B11", f"{a.arg} is not an item you carry or use")
    h = g.find(p.hirelings, a.hireling or "")
    if h is None:
        raise refuse("H7", f"{a.hireling} is not a hireling of yours")
    if g.cards[inst].type == "steed":
        raise refuse("H7", "a hireling carries items, not a steed to ride")
    if carry_room(g, h) <= 0 and not cheated(g, inst):
        raise refuse("H7", f"{g.cards[h].name} cannot carry more items")
    if not hireling_can_use(g, h, inst):
        raise refuse("H7", f"{g.cards[h].name} cannot use {g.cards[inst].name}")
    if inst in p.equipped:  # what it gave its owner (a hand, a steed's room) goes with it (B11)
        equipped = [i for i in p.equipped if i != inst]
        require_fits(
            limit_problem(g, p, equipped, p.carried, p.steeds), "handing it over would break a limit: "
        )


def carry_room(g: GameState, h: int) -> int:
    """How many more items a hireling may carry: its `carries`, one more with a Cheat! on it
    (H7, H16)."""
    return g.cards[h].carries + cheated(g, h) - len(g.carrying.get(h, ()))


def do_equip(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    if a.hireling is not None:
        inst = g.find(p.carried + p.equipped, a.arg or "")
        assert inst is not None
        (p.carried if inst in p.carried else p.equipped).remove(inst)
        h = g.find(p.hirelings, a.hireling)
        assert h is not None
        g.carrying.setdefault(h, []).append(inst)
    else:
        inst = g.find(p.carried, a.arg or "")
        assert inst is not None
        p.carried.remove(inst)
        (p.steeds if g.cards[inst].type == "steed" else p.equipped).append(inst)
    ev.append(Event("item_equipped", {"player": p.name, "card": a.arg, "hireling": a.hireling}))


def equip_options(g: GameState, seat: int) -> Iterator[Action]:
    if not own_turn_calm(g, seat):
        return
    p = g.players[seat]
    carriers = [g.cards[h].id for h in p.hirelings if g.cards[h].carries or cheated(g, h)]
    for card_id in g.distinct_ids(p.carried):
        yield action("equip", card_id)
        for h_id in carriers:
            yield action("equip", card_id, hireling=h_id)
    for card_id in g.distinct_ids(p.equipped):
        for h_id in carriers:
            yield action("equip", card_id, hireling=h_id)


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
