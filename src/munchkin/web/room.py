"""One game being played online: its session, who is connected, and the timers.

Timers live here, never in the engine. A human asked out of turn (a response
window, a help request, a trade offer: anyone the game waits for who is not the
player whose turn it is, and everyone before the first turn) has
`response_seconds` from the last change of the game to answer; then they pass,
or decline what they were asked. A human with no open connection is passed at
once out of turn, and `takeover_seconds` after their last connection closed a
bot plays their seat until they are back. Bots play their own seats at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from munchkin.bots import Bot
from munchkin.describe import describe, prompt_kind, situation, winners_text
from munchkin.engine.actions import Action, action_to_dict
from munchkin.engine.events import Event
from munchkin.session import BOT_KINDS, HUMAN, Session, bot_seed
from munchkin.store.store import load_cards
from munchkin.web.protocol import Refusal, public_view, tell

log = logging.getLogger("munchkin.web")

BOT_BATCH = 25
"""Bot decisions made before other games and the connections get a turn."""
STANDIN_KIND = "bot:heuristic"
TIMEOUT_ACTIONS = tuple(
    Action(*words) for words in (("pass",), ("decline_help",), ("decline_trade",), ("choose", "decline"))
)
"""What a player who lets a window close does, best first; else the engine's first option."""


def timeout_action(legal: Sequence[Action]) -> Action:
    """Pass where allowed, else decline what was asked, else the first legal option."""
    return next((a for a in TIMEOUT_ACTIONS if a in legal), legal[0])


@dataclass(frozen=True)
class Snapshot:
    """What a connection is told of the game now."""

    fields: dict[str, Any]
    """The game message's own fields: seq, deadline, seats, situation, and labels if they changed."""
    view: dict[str, Any]
    """The whole view, as plain data but for the legal actions (`Action`s)."""
    changed: dict[str, Any]
    """The top-level keys of the view that changed since the last one sent, as plain data."""


class Listener(Protocol):
    """A connection to the game: its seat (None for a spectator) and what to tell it."""

    seat: str | None

    def game_changed(self, lines: list[str]) -> None: ...


class Room:
    """A started game, its listeners and its timers. Runs on the event loop."""

    def __init__(
        self,
        session: Session,
        history: list[Event],
        listeners: Collection[Listener],
        response_seconds: float,
        takeover_seconds: float,
        on_over: Callable[[Room], None],
    ) -> None:
        self.session = session
        self.history = history
        self.listeners = listeners
        self.response_seconds, self.takeover_seconds = response_seconds, takeover_seconds
        self.on_over = on_over
        self.names = {**session.names, "": "a card"}  # "": a card passed face down (event_for)
        self.humans = [seat.name for seat in session.seats if seat.kind == HUMAN]
        self.seq = session.decision_count
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        now = self.loop.time()
        self.changed_at = now
        self.present: Counter[str] = Counter()
        self.away_since = dict.fromkeys(self.humans, now)
        self.active: str | None = None
        first = session.view(session.seats[0].name).data
        if first["phase"] != "setup":
            self.active = first["active"]
        self._standins: dict[str, Bot] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._tick: asyncio.Task[None] | None = None

    # -- what a connection is sent ----------------------------------------------------

    def lines(self, seat: str | None, events: Sequence[Event]) -> list[str]:
        return tell(events, seat, self.names)

    def snapshot(self, seat: str | None, sent: Mapping[str, Any]) -> Snapshot:
        """The game as `seat` (None: a spectator) may see it now, and what of it changed since
        `sent`, the view last sent to the connection (empty before the first)."""
        fields: dict[str, Any] = {"seq": self.seq, "deadline": self.deadline(seat), "seats": self.seat_info()}
        if seat is None:
            view = public_view(self.session.view(self.session.seats[0].name).data)
            winners, active = view["winners"], view["active"]
            fields["situation"] = f"Game over: {winners_text(winners)}." if winners else f"{active}'s turn."
            fields["labels"] = []
        else:
            seen = self.session.view(seat)
            view = {**seen.data, "legal": seen.legal}
            fields["situation"] = situation(view, self.names).replace(" (Enter)", "")  # the terminal's key
        changed = {key: value for key, value in view.items() if key not in sent or sent[key] != value}
        if seat is not None and "legal" in changed:
            changed["legal"] = [action_to_dict(action) for action in view["legal"]]
            kind = prompt_kind(view)
            fields["labels"] = [describe(action, self.names, seat, kind) for action in view["legal"]]
        return Snapshot(fields, view, changed)

    def deadline(self, seat: str | None) -> float | None:
        """Seconds left for `seat` to answer out of turn, or None."""
        if seat is None or not self._responding(seat) or seat not in self.session.waiting_humans():
            return None
        return max(0.0, self.changed_at + self.response_seconds - self.loop.time())

    def seat_info(self) -> list[dict[str, Any]]:
        now = self.loop.time()
        return [
            {
                "name": seat.name,
                "kind": seat.kind,
                "present": seat.kind != HUMAN or self.present[seat.name] > 0,
                "standin": seat.kind == HUMAN and self._taken_over(seat.name, now),
            }
            for seat in self.session.seats
        ]

    # -- deciding --------------------------------------------------------------------

    async def act(self, player: str, action: Action, seq: int | None) -> None:
        """A human's decision; RulesError (nothing changed) or Refusal if it cannot be taken."""
        async with self.lock:
            if seq is not None and seq != self.seq:
                raise Refusal("stale", "the game has moved on since: look again")
            events = self.session.apply(player, action)
            self._changed(events)
            await self._advance()

    async def advance(self) -> None:
        """Let bots, timers and stand-ins play what is due now."""
        async with self.lock:
            await self._advance()

    async def _advance(self) -> None:
        while not self.session.over:
            events = self.session.step_bots(limit=BOT_BATCH)
            player = self._first_due(self.loop.time())
            if player is not None:
                events += self._decide_for(player)
            seq = self.session.decision_count
            if seq == self.seq:
                break
            self._changed(events)
            await asyncio.sleep(0)
        self._schedule()

    def _decide_for(self, player: str) -> list[Event]:
        """The decision a timer makes for a human: pass (out of turn) or a stand-in bot's."""
        view = self.session.view(player)
        if self._responding(player):
            action = timeout_action(view.legal)
        else:
            action = self._standin(player).choose(view)
        return self.session.apply(player, action)

    def _changed(self, events: list[Event]) -> None:
        self.seq = self.session.decision_count
        self.changed_at = self.loop.time()
        self.history += events
        for event in events:
            if event.kind == "turn_started":
                self.active = event.data["player"]
        self._tell_all(events)
        if self.session.over:
            self.on_over(self)

    # -- presence --------------------------------------------------------------------

    def joined(self, seat: str) -> None:
        self.present[seat] += 1
        self._schedule()
        self._tell_all([])

    def left(self, seat: str) -> None:
        self.present[seat] -= 1
        if self.present[seat] <= 0:
            self.away_since[seat] = self.loop.time()
            self._wake()
            self._tell_all([])

    def _tell_all(self, events: Sequence[Event]) -> None:
        for listener in self.listeners:
            listener.game_changed(self.lines(listener.seat, events))

    # -- timers ----------------------------------------------------------------------

    def _responding(self, player: str) -> bool:
        """Whether a decision of `player` now would be out of turn (timed)."""
        return self.active is None or player != self.active

    def _taken_over(self, player: str, now: float) -> bool:
        return self.present[player] <= 0 and now >= self.away_since[player] + self.takeover_seconds

    def _due_at(self, player: str) -> float | None:
        """When a timer decides for `player`, who is holding the game up; None: never."""
        away = self.present[player] <= 0
        if self._responding(player):
            return self.changed_at if away else self.changed_at + self.response_seconds
        return self.away_since[player] + self.takeover_seconds if away else None

    def _first_due(self, now: float) -> str | None:
        """A human whose timer has run out, if any."""
        for player in self.session.waiting_humans():
            due = self._due_at(player)
            if due is not None and due <= now:
                return player
        return None

    def _schedule(self) -> None:
        """Wake up when the next timer falls due."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.session.over:
            return
        times = [t for p in self.session.waiting_humans() if (t := self._due_at(p)) is not None]
        if times:
            self._timer = self.loop.call_at(min(times), self._wake)

    def _wake(self) -> None:
        if self._tick is None or self._tick.done():
            self._tick = self.loop.create_task(self._tick_now())

    async def _tick_now(self) -> None:
        try:
            await self.advance()
        except Exception:
            log.exception("game %s: a timer failed", self.session.game_id)

    def _standin(self, player: str) -> Bot:
        """The bot that plays `player`'s seat while they are away."""
        if player not in self._standins:
            seat = [s.name for s in self.session.seats].index(player)
            cards = load_cards(tuple(self.session.sets))
            self._standins[player] = BOT_KINDS[STANDIN_KIND](bot_seed(self.session.seed, seat) + 1, cards)
        return self._standins[player]

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._tick is not None:
            self._tick.cancel()
