"""Drawing cards, refilling an empty deck from its discard pile (B18), and the cards that
act when drawn, however they are drawn (B16)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.character import gain_levels, is_class
from munchkin.engine.rules.items import discard
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
    """Draw n cards face down into a player's hand (B16)."""
    drawn = draw_kept(g, seat, deck, n, ev)
    g.players[seat].hand.extend(drawn)
    if drawn:
        ev.append(Event("cards_drawn", {"player": g.players[seat].name, "deck": deck, "count": len(drawn)}))
    return drawn


def draw_kept(g: GameState, seat: int, deck: str, n: int, ev: list[Event]) -> list[int]:
    """Draw n cards for `seat` and return those it keeps: a card that acts when drawn acts
    instead and is not replaced (B16, R11)."""
    kept: list[int] = []
    for _ in range(n):
        inst = draw(g, deck, ev)
        if inst is None:
            break
        if acts_when_drawn(g, inst):
            ev.append(Event("drawn_face_up", {"player": g.players[seat].name, "card": g.cards[inst].id}))
            act_when_drawn(g, inst, ev)
            continue
        kept.append(inst)
    return kept


def deal(g: GameState, seat: int, ev: list[Event]) -> None:
    """The cards of a new character: 4 door and 4 treasure cards, or the table's numbers
    (B1, B10)."""
    draw_to_hand(g, seat, "door", g.options.door_cards, ev)
    draw_to_hand(g, seat, "treasure", g.options.treasure_cards, ev)


def acts_when_drawn(g: GameState, inst: int) -> bool:
    """Divine Intervention acts however it is drawn: face up, face down, or dealt (B16)."""
    return g.cards[inst].type == "divine_intervention"


def act_when_drawn(g: GameState, inst: int, ev: list[Event]) -> None:
    """Every Cleric goes up a level, even to the winning level; the card is discarded (B2, B16)."""
    discard(g, inst)
    for i, q in enumerate(g.players):
        inept = any(kind == "no_divine" for kind, _, _ in q.lasting)  # a curse blocks it (digest §4.32)
        if is_class(g, q, "cleric") and not q.dead and not inept:
            gain_levels(g, i, 1, ev, g.cards[inst].id, may_win=True)
