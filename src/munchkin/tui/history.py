"""The game's events so far, told to each player as they may see them (`views.event_for`)."""

from __future__ import annotations

from collections.abc import Sequence

from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.store.store import new_game
from munchkin.text import sentence
from munchkin.views import event_for


class History:
    """Every event since the deal, each with the number of decisions made once it had happened,
    so that an undo can drop what it took back."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.events: list[tuple[int, Event]] = []
        self._told: dict[str, tuple[int, list[str]]] = {}
        self._replay()

    def _replay(self) -> None:
        """The events of the decisions made before (in a resumed game), from its setup again."""
        game = new_game(self.session.setup)
        for number, decision in enumerate(self.session.decisions, 1):
            self.events += [(number, event) for event in game.apply(decision.player, decision.action)]

    def add(self, events: list[Event]) -> None:
        """Events that have just happened."""
        done = len(self.session.decisions)
        self.events += [(done, event) for event in events]

    def undone(self) -> None:
        """Forget the events of the decisions an undo took back."""
        done = len(self.session.decisions)
        self.events = [(n, event) for n, event in self.events if n <= done]
        self._told.clear()

    def lines(self, player: str) -> Sequence[str]:
        """The log as `player` reads it: one sentence per event worth telling."""
        count, lines = self._told.get(player, (0, []))
        told = (sentence(event_for(event, player), self.session.names) for _, event in self.events[count:])
        lines += [line for line in told if line]
        self._told[player] = (len(self.events), lines)
        return lines
