"""Death and looting the body (B10, S5).

A dead character loses the hand and everything in play; the others loot one card each,
highest level first, and the rest is discarded. The character keeps level, races,
classes and lasting curses, and comes back as the next player's turn begins (turn.py).
"""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.items import can_use, discard, receive_problem
from munchkin.engine.state import GameState, Prompt


def kill(g: GameState, seat: int, ev: list[Event], source: str) -> None:
    """Death: the hand and everything in play go to the body, which the others loot (B10).
    Items a hireling carries and cards attached to others (a Cheat!) are laid out as cards
    of their own; a steed keeps its steed enhancers. A door card the dead player drew face
    up and had not yet kept or played would have gone to the hand: it is in the body (B4)."""
    p = g.players[seat]
    if g.face_up is not None and seat == g.active:
        p.hand.append(g.face_up)
        g.face_up = None
    in_play = g.items_in_play(p) + p.hirelings
    laid_out: list[int] = []
    for inst in in_play:
        kept: list[int] = []
        for attached in g.attached.pop(inst, ()):
            steed_gear = g.cards[inst].type == "steed" and g.cards[attached].type == "steed_enhancer"
            (kept if steed_gear else laid_out).append(attached)
        if kept:
            g.attached[inst] = kept
    for h in p.hirelings:
        g.carrying.pop(h, None)
        g.card_sex.pop(h, None)
    body = p.hand + in_play + laid_out
    for zone in (p.hand, p.equipped, p.carried, p.steeds, p.hirelings):
        zone.clear()
    g.body.extend(body)
    p.dead = True
    ev.append(Event("died", {"player": p.name, "source": source}))
    looters = [i for i, q in enumerate(g.players) if i != seat and not q.dead]
    order = looting_order(g, seat, looters, ev) if g.body else looters
    g.tasks[0:0] = [*(("loot", looter) for looter in order), ("discard_body",)]


def looting_order(g: GameState, dead: int, looters: list[int], ev: list[Event]) -> list[int]:
    """Highest level first; players tied in level roll the game's dice, highest first, again
    among those who tie again (B10), or follow the seats from the dead player's left when the
    table chose so."""
    n = len(g.players)
    by_seat = sorted(looters, key=lambda i: (i - dead) % n)
    order: list[int] = []
    for level in sorted({g.players[i].level for i in looters}, reverse=True):
        tied = [i for i in by_seat if g.players[i].level == level]
        order += _roll_off(g, tied, ev) if g.options.loot_ties == "dice" else tied
    return order


def _roll_off(g: GameState, tied: list[int], ev: list[Event]) -> list[int]:
    """Players in the order of a die each, highest first; a tie rolls again (B10)."""
    if len(tied) < 2:
        return tied
    rolls: dict[int, list[int]] = {}
    for seat in tied:
        roll = g.dice.d6()
        ev.append(
            Event(
                "die_rolled",
                {"player": g.players[seat].name, "purpose": "looting order", "roll": roll, "modifier": 0},
            )
        )
        rolls.setdefault(roll, []).append(seat)
    return [seat for roll in sorted(rolls, reverse=True) for seat in _roll_off(g, rolls[roll], ev)]


def loot_task(g: GameState, looter: int, ev: list[Event]) -> None:
    """Each other player, in the looting order, takes one card of the body (B10)."""
    if not g.body:
        return
    options = tuple(g.distinct_ids(g.body))
    if len(options) == 1:
        take_loot(g, looter, options[0], ev)
    else:
        g.prompt = Prompt(looter, "loot", options)


def take_loot(g: GameState, looter: int, card_id: str, ev: list[Event]) -> None:
    """A looted card goes to the hand; a steed the looter may ride goes into play with its
    steed enhancers (B10, S5), else to the hand, and its enhancers are discarded."""
    inst = g.find(g.body, card_id)
    assert inst is not None
    g.body.remove(inst)
    q = g.players[looter]
    if (
        g.cards[inst].type == "steed"
        and can_use(g, q, inst)
        and receive_problem(g, looter, [inst], []) is None
    ):
        q.steeds.append(inst)
    else:
        for attached in g.attached.pop(inst, ()):
            discard(g, attached)
        q.hand.append(inst)
    ev.append(Event("looted", {"player": q.name, "card": card_id}))


def discard_body(g: GameState) -> None:
    """What nobody looted is discarded (B10)."""
    for inst in g.body:
        discard(g, inst)
    g.body.clear()
