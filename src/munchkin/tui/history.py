"""The game's events so far, told to each player as they may see them (`views.event_for`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.store.store import load_cards, new_game
from munchkin.text import sentence, with_no_effect
from munchkin.views import event_for
from munchkin.words.menus import CURSE_TYPES

CARD_KEYS = ("card", "cards", "on", "source", "give", "take", "items", "with")
"""Keys of an event's data that name cards."""
MOVING_KEYS = ("card", "cards", "give", "take", "items")
"""Keys of an event's data that name cards that may move (`CARD_KEYS` but the card a play is
on, the source of an effect and what a hireling took with it)."""
PARTING = frozenset({"sold", "card_discarded", "hireling_sacrificed", "card_lost"})
"""Events of cards leaving play: what a hireling among them carried goes with it (H9, H11)."""
STAYING = frozenset({"hireling_killed", "hireling_turned"})
"""Events after which a hireling's items are no longer (or still) its own: killed, they stay
with its owner (H10); taken away, it keeps them (H11). Either way nothing is told of them."""

Loads = dict[str, list[str]]
"""The ids of the items each hireling in play carries, by the hireling's id."""


def loads_of(tables: Sequence[Mapping[str, Any]]) -> Loads:
    """What every hireling of a view's tables carries."""
    return {
        h["id"]: [c["id"] for c in h["carrying"]] for t in tables for h in t["hirelings"] if h["carrying"]
    }


def with_loads(events: Sequence[Event], loads: Loads) -> list[Event]:
    """`events`, a hireling leaving play with the items it carried (`with`), as `loads` knows
    them; `loads` follows the items given to hirelings, and forgets an item any other event
    names (taken off, lost, traded: it may have left its hireling)."""
    out = []
    for event in events:
        data = event.data
        if event.kind == "item_equipped" and data.get("hireling"):
            loads.setdefault(data["hireling"], []).append(data["card"])
            out.append(event)
            continue
        named = _named(data, MOVING_KEYS)
        if event.kind in PARTING:
            carried = [item for card in named for item in loads.pop(card, [])]
            event = Event(event.kind, {**data, "with": carried}) if carried else event
        elif event.kind in STAYING:
            loads.pop(data["card"], None)
        for items in loads.values():
            items[:] = [item for item in items if item not in named]
        out.append(event)
    return out


def _named(data: Mapping[str, Any], keys: Sequence[str]) -> list[str]:
    """The card ids an event's data names under `keys`."""
    found = (data.get(key) for key in keys)
    return [card for value in found for card in (value if isinstance(value, list) else [value]) if card]


class History:
    """Every event since the deal, each with the number of decisions made once it had happened,
    so that an undo can drop what it took back."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.curses = frozenset(c.id for c in load_cards(tuple(session.sets)) if c.type in CURSE_TYPES)
        self.events: list[tuple[int, Event]] = []
        self._told: dict[str, tuple[int, list[str]]] = {}
        self.loads: Loads = {}
        """What each hireling carries, as the events so far tell it (`with_loads`)."""
        self._replay()

    def _replay(self) -> None:
        """The events of the decisions made before (in a resumed game), from its setup again."""
        game = new_game(self.session.setup)
        for number, decision in enumerate(self.session.decisions, 1):
            self._tell(number, game.apply(decision.player, decision.action))
        self._look()

    def add(self, events: list[Event]) -> None:
        """Events that have just happened, with a "no effect" where a curse or Bad Stuff did
        nothing (`with_no_effect`), and the items a hireling takes with it (`with_loads`)."""
        self._tell(len(self.session.decisions), events)
        self._look()

    def _tell(self, number: int, events: list[Event]) -> None:
        told = with_loads(events, self.loads)
        told = with_no_effect([event for _, event in self.events[-50:]], told, self.curses)
        self.events += [(number, event) for event in told]

    def _look(self) -> None:
        """What each hireling carries now, from the table (`loads` as the events tell it
        may miss a change)."""
        self.loads = loads_of(self.session.view(self.session.seats[0].name).data["players"])

    def undone(self) -> None:
        """Forget the events of the decisions an undo took back."""
        done = len(self.session.decisions)
        self.events = [(n, event) for n, event in self.events if n <= done]
        self._told.clear()
        self._look()

    def cards(self, player: str) -> list[str]:
        """The cards named in the log as `player` reads it, the latest first."""
        found: list[str] = []
        for _, event in reversed(self.events):
            named = _named(event_for(event, player).data, CARD_KEYS)
            found += [card_id for card_id in named if card_id in self.session.names]
        return list(dict.fromkeys(found))

    def lines(self, player: str) -> Sequence[str]:
        """The log as `player` reads it: one sentence per event worth telling."""
        count, lines = self._told.get(player, (0, []))
        told = (sentence(event_for(event, player), self.session.names) for _, event in self.events[count:])
        lines += [line for line in told if line]
        self._told[player] = (len(self.events), lines)
        return lines
