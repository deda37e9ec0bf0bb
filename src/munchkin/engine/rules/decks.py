"""Drawing cards, and refilling an empty deck from its discard pile (B18)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.state import GameState


def draw(g: GameState, deck: str, ev: list[Event]) -> int | None:
    """The top card of a deck; an empty deck is first refilled by shuffling its discards (B18).

    None when both the deck and its discard pile are empty."""
    pile, discards = (
        (g.door_deck, g.door_discard) if deck == "door" else (g.treasure_deck, g.treasure_discard)
    )
    if not pile and discards:
        pile.extend(discards)
        discards.clear()
        g.dice.shuffle(pile)
        ev.append(Event("deck_refilled", {"deck": deck, "cards": len(pile)}))
    return pile.pop() if pile else None


def draw_to_hand(g: GameState, seat: int, deck: str, n: int, ev: list[Event]) -> list[int]:
    """Draw n cards face down into a player's hand."""
    drawn = []
    for _ in range(n):
        inst = draw(g, deck, ev)
        if inst is None:
            break
        g.players[seat].hand.append(inst)
        drawn.append(inst)
    if drawn:
        ev.append(Event("cards_drawn", {"player": g.players[seat].name, "deck": deck, "count": len(drawn)}))
    return drawn
