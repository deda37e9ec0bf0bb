"""The game's events so far, told to each player as they may see them (`views.event_for`)."""

from __future__ import annotations

from collections.abc import Sequence

from munchkin.describe import CURSE_TYPES
from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.store.store import load_cards, new_game
from munchkin.text import sentence, with_no_effect
from munchkin.views import event_for

CARD_KEYS = ("card", "cards", "on", "source", "give", "take", "items")
"""Keys of an event's data that name cards."""


class History:
    """Every event since the deal, each with the number of decisions made once it had happened,
    so that an undo can drop what it took back."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.curses = frozenset(c.id for c in load_cards(tuple(session.sets)) if c.type in CURSE_TYPES)
        self.events: list[tuple[int, Event]] = []
        self._told: dict[str, tuple[int, list[str]]] = {}
        self._replay()

    def _replay(self) -> None:
        """The events of the decisions made before (in a resumed game), from its setup again."""
        game = new_game(self.session.setup)
        for number, decision in enumerate(self.session.decisions, 1):
            told = with_no_effect(
                [e for _, e in self.events[-50:]], game.apply(decision.player, decision.action), self.curses
            )
            self.events += [(number, event) for event in told]

    def add(self, events: list[Event]) -> None:
        """Events that have just happened, with a "no effect" where a curse or Bad Stuff did
        nothing (`with_no_effect`)."""
        done = len(self.session.decisions)
        told = with_no_effect([event for _, event in self.events[-50:]], events, self.curses)
        self.events += [(done, event) for event in told]

    def undone(self) -> None:
        """Forget the events of the decisions an undo took back."""
        done = len(self.session.decisions)
        self.events = [(n, event) for n, event in self.events if n <= done]
        self._told.clear()

    def cards(self, player: str) -> list[str]:
        """The cards named in the log as `player` reads it, the latest first."""
        found: list[str] = []
        for _, event in reversed(self.events):
            data = event_for(event, player).data
            for key in CARD_KEYS:
                value = data.get(key)
                for card_id in value if isinstance(value, list) else [value]:
                    if isinstance(card_id, str) and card_id in self.session.names:
                        found.append(card_id)
        return list(dict.fromkeys(found))

    def lines(self, player: str) -> Sequence[str]:
        """The log as `player` reads it: one sentence per event worth telling."""
        count, lines = self._told.get(player, (0, []))
        told = (sentence(event_for(event, player), self.session.names) for _, event in self.events[count:])
        lines += [line for line in told if line]
        self._told[player] = (len(self.events), lines)
        return lines
