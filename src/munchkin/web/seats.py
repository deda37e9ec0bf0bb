"""The humans at an online table: how many connections each has open, since when one has been
away, and the stand-in bots that play their seats once they have been away `takeover_seconds`,
at most one decision every `standin_seconds` (a person's pace), until they are back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from munchkin.bots import Bot
from munchkin.engine.actions import Action
from munchkin.session import HUMAN, Session, bot_seed
from munchkin.store.replay import load_cards
from munchkin.views import PlayerView
from munchkin.words.actions import describe
from munchkin.words.prompts import prompt_kind


class Seats:
    """The humans of `session`, told the time by `time` (the event loop's clock)."""

    def __init__(
        self,
        session: Session,
        takeover_seconds: float,
        standin_kind: str,
        standin_seconds: float,
        time: Callable[[], float],
        now: float,
    ) -> None:
        self.session = session
        self.takeover_seconds = takeover_seconds
        self.standin_kind = standin_kind
        """The seat kind (`bot:KIND`) of the bot that plays for a human away."""
        self.standin_seconds = standin_seconds
        self.time = time
        self.humans = [seat.name for seat in session.seats if seat.kind == HUMAN]
        self.present: Counter[str] = Counter()
        self.away_since = dict.fromkeys(self.humans, now)
        self.standin_did: dict[str, list[str]] = {}
        """What a stand-in did for each seat since that seat's own last decision."""
        self._standin_next: dict[str, float] = {}
        self._standins: dict[str, Bot] = {}

    def joined(self, seat: str) -> None:
        self.present[seat] += 1

    def left(self, seat: str) -> bool:
        """A connection of `seat` closed; whether the seat is away now."""
        self.present[seat] -= 1
        if self.present[seat] <= 0:
            self.away_since[seat] = self.time()
            return True
        return False

    def away(self, player: str) -> bool:
        return self.present[player] <= 0

    def taken_over(self, player: str, now: float) -> bool:
        return self.present[player] <= 0 and now >= self.away_since[player] + self.takeover_seconds

    def info(self) -> list[dict[str, Any]]:
        """Each seat's name and kind, and whether it is present or played by a stand-in."""
        now = self.time()
        return [
            {
                "name": seat.name,
                "kind": seat.kind,
                "present": seat.kind != HUMAN or self.present[seat.name] > 0,
                "standin": seat.kind == HUMAN and self.taken_over(seat.name, now),
            }
            for seat in self.session.seats
        ]

    def standin_due(self, player: str) -> bool:
        """Whether a stand-in may decide for `player` now (at a person's pace)."""
        return self._standin_next.get(player, 0.0) <= self.time()

    def standin_from(self, player: str) -> float:
        """When a stand-in may next decide for `player`, away: once taken over, at a person's pace."""
        return max(self.away_since[player] + self.takeover_seconds, self._standin_next.get(player, 0.0))

    def standin_action(self, player: str, view: PlayerView, names: Mapping[str, str]) -> Action:
        """What the stand-in decides for `player` on `view`, kept in words for them."""
        action = self._standin(player).choose(view)
        label = describe(action, names, player, prompt_kind(view.data))
        self.standin_did.setdefault(player, []).append(label)
        self._standin_next[player] = self.time() + self.standin_seconds
        return action

    def _standin(self, player: str) -> Bot:
        """The bot that plays `player`'s seat while they are away."""
        if player not in self._standins:
            seat = [s.name for s in self.session.seats].index(player)
            cards = load_cards(tuple(self.session.sets))
            seed = bot_seed(self.session.seed, seat) + 1
            self._standins[player] = self.session.make_bot(self.standin_kind, seed, cards)
        return self._standins[player]
