"""What a seat's view shows of the cards (issue 16): every card in sight, the copies it has
not seen, and the cards a position cannot place by itself. `search_worlds` deals the unseen
cards again for each sampled world."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from munchkin.cards.schema import CardDef

Card = dict[str, Any]


def cards_of(card: Card) -> Iterable[Card]:
    """A card and what is attached to it, and what a hireling carries."""
    yield card
    for attached in card.get("attached", ()):
        yield from cards_of(attached)
    for carried in card.get("carrying", ()):
        yield from cards_of(carried)


TABLE_ZONES = ("races", "classes", "boosts", "equipped", "carried", "steeds", "hirelings", "curses")


def all_cards(data: dict[str, Any]) -> Iterable[Card]:
    """Every card the view shows, each once, attachments included."""
    for card in data["hand"]:
        yield from cards_of(card)
    for table in data["players"]:
        for zone in TABLE_ZONES:
            for card in table[zone]:
                yield from cards_of(card)
    for pile in ("door_discard", "treasure_discard", "body"):
        for card in data[pile]:
            yield from cards_of(card)
    if data["face_up"] is not None:
        yield from cards_of(data["face_up"])
    combat = data["combat"]
    if combat is not None:
        for card in combat["monsters"] + combat["played"]:
            yield from cards_of(card)
    pending = data["pending"]
    if pending is not None and pending["kind"] == "curse":
        yield {"id": pending["card"], "pending": True}


def visible_ids(data: dict[str, Any]) -> Counter[str]:
    return Counter(card["id"] for card in all_cards(data))


def unseen_ids(cards: Sequence[CardDef], seen: Counter[str]) -> list[str]:
    """Every copy of every card of the game that the view does not show."""
    unseen = []
    for card in cards:
        unseen += [card.id] * max(0, card.copies - seen.get(card.id, 0))
    return unseen


def placed_after(data: dict[str, Any]) -> list[Card]:
    """The cards in sight that a position cannot place: attachments, the card face up, the
    body, the fight's monsters and one-shots, a curse pending. They are built on the door
    discard pile, then moved where they belong."""
    out: list[Card] = []

    def attachments(card: Card) -> None:
        for attached in card.get("attached", ()):
            out.append(attached)
            attachments(attached)
        for carried in card.get("carrying", ()):
            attachments(carried)

    for card in data["hand"]:
        attachments(card)
    for table in data["players"]:
        for zone in TABLE_ZONES:
            for card in table[zone]:
                attachments(card)
    for pile in ("door_discard", "treasure_discard"):
        for card in data[pile]:
            attachments(card)
    loose: list[Card] = list(data["body"])
    if data["face_up"] is not None:
        loose.append(data["face_up"])
    combat = data["combat"]
    if combat is not None:
        loose += combat["monsters"] + combat["played"]
    pending = data["pending"]
    if pending is not None and pending["kind"] == "curse":
        loose.append({"id": pending["card"], "pending": True})
    for card in loose:
        out.append(card)
        attachments(card)
    return out
