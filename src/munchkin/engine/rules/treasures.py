"""The treasures of a won fight (B7, B8): drawn face down by a fighter alone, face up one by
one when helped, the helper's share first; a Cleric may take each face-up one from the top of
the treasure discards instead, for a card from the hand (B14)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.character import is_class
from munchkin.engine.rules.decks import draw_kept
from munchkin.engine.rules.items import discard
from munchkin.engine.state import GameState, Prompt


def draw_treasures(
    g: GameState, seat: int, count: int, helper: int | None, helper_gets: int, ev: list[Event]
) -> None:
    """`seat` draws `count` treasures: face down alone; when helped, face up, one at a time
    (a task each), the helper taking the first `helper_gets` kept; a Divine Intervention
    among them acts instead (B7, B8, B16)."""
    if count <= 0:
        return
    if helper is None:
        drawn = draw_kept(g, seat, "treasure", count, ev)
        g.players[seat].hand.extend(drawn)
        _drawn_event(g, seat, drawn, False, 0, ev)
    else:
        g.tasks.append(("treasure", seat, helper, count, helper_gets, False))


def may_resurrect(g: GameState, seat: int, pile: list[int]) -> bool:
    """A Cleric with a card in hand may take the top of a discard pile instead of drawing
    face up (B14)."""
    p = g.players[seat]
    return bool(pile) and bool(p.hand) and not p.dead and is_class(g, p, "cleric")


def treasure_task(
    g: GameState, seat: int, helper: int, count: int, helper_gets: int, asked: bool, ev: list[Event]
) -> None:
    """One treasure drawn face up after a helped win; a Cleric is asked first whether to take
    the top treasure discard instead (B7, B14). The rest are drawn by the next task."""
    if not asked and may_resurrect(g, seat, g.treasure_discard):
        g.tasks.insert(0, ("treasure", seat, helper, count, helper_gets, True))
        options = ("draw", *g.distinct_ids(g.players[seat].hand))
        g.prompt = Prompt(seat, "resurrect", options)
        return
    kept = draw_kept(g, seat, "treasure", 1, ev)
    to_helper = 1 if kept and helper_gets > 0 else 0
    g.players[helper if to_helper else seat].hand.extend(kept)
    _drawn_event(g, seat, kept, True, to_helper, ev)
    if count > 1:
        g.tasks.insert(0, ("treasure", seat, helper, count - 1, helper_gets - to_helper, False))


def answer_resurrect(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """`draw`, or the card paid: the top treasure discard goes on top of the deck, and is the
    card drawn face up (B14)."""
    if option == "draw":
        return
    p = g.players[prompt.player]
    paid = g.find(p.hand, option)
    assert paid is not None
    p.hand.remove(paid)
    taken = g.treasure_discard.pop()
    g.treasure_deck.append(taken)
    discard(g, paid)
    ev.append(Event("resurrected", {"player": p.name, "card": g.cards[taken].id, "paid": option}))


def _drawn_event(
    g: GameState, seat: int, drawn: list[int], face_up: bool, helper_gets: int, ev: list[Event]
) -> None:
    ev.append(
        Event(
            "treasures_drawn",
            {
                "player": g.players[seat].name,
                "count": len(drawn),
                "face_up": face_up,
                "cards": [g.cards[i].id for i in drawn] if face_up else [],
                "helper_gets": helper_gets,
            },
        )
    )
