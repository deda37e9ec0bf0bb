"""One game being played online: its session, who is connected, and the timers.

Timers live here, never in the engine. A human asked out of turn (a response
window, a help request, a trade offer: anyone the game waits for who is not the
player whose turn it is, and everyone before the first turn) has
`response_seconds` from the last change they saw to answer; then they pass,
or decline what they were asked. A human with no open connection is passed at
once out of turn, and `takeover_seconds` after their last connection closed a
bot plays their seat until they are back, at most one decision every `STANDIN_SECONDS`, as a
person would (`seats`); the seat is then told what it did for them. Before the first turn
(setup) nobody is timed (a seat away passes at once).

The event loop never waits for the game: every decision (a human's, a bot's, a timer's)
is made and saved in a worker thread (`executor`), one job at a time per room (`lock`),
and only then told. Bots, stand-ins included, make at most `bot_moves_per_second`
decisions a second while a human is connected, `away_bot_moves_per_second` while none is.
A job that fails (a locked database) is logged with an error id and tried again later,
sooner at first; nobody is told but the human whose own decision could not be saved.

Each audience (a seat, or the spectators) has a `Track` (`tracks`): its view, brought up to
date after each job for the seats the game waits for (and the one who just decided), and for
the others only when their connection is about to be told (`refresh`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from munchkin.engine.actions import Action, action_to_dict
from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.store.store import load_cards
from munchkin.text import with_no_effect
from munchkin.web.assist import end_of_game
from munchkin.web.errors import incident
from munchkin.web.jobs import BOT_BATCH, Jobs, Outcome, responding, timeout_action
from munchkin.web.protocol import Refusal, tell
from munchkin.web.ratelimit import Bucket
from munchkin.web.seats import Seats
from munchkin.web.tracks import Track, finish_track, next_track
from munchkin.words.menus import CURSE_TYPES

__all__ = ["STANDIN_KIND", "STANDIN_SECONDS", "Listener", "Room", "Snapshot", "timeout_action"]

STANDIN_KIND = "bot:medium"
"""The bot that plays for a human away, unless the server says otherwise (`--standin`)."""
STANDIN_SECONDS = 1.0
"""A stand-in bot makes at most one decision for its seat in this time (a person's pace)."""
RETRY_SECONDS = (0.5, 30.0)
"""A failed job is tried again after the first, doubling up to the second."""
UNLIMITED = 1e9
FREE_MOVES = frozenset({"equip", "unequip", "trade", "ask_help"})
"""Moves a player may make again and again, undoing each other, without the game going on."""
MOVES_PER_TURN = 200
"""The most `FREE_MOVES` of one seat in one turn (a turn of play takes a few dozen)."""
T = TypeVar("T")


@dataclass(frozen=True)
class Snapshot:
    """What a connection is told of the game now."""

    fields: dict[str, Any]
    """The game message's own fields: deadline, seats, situation, and labels if they changed."""
    view: dict[str, Any]
    """The whole view, as plain data but for the legal actions (`Action`s)."""
    changed: dict[str, Any]
    """The top-level keys of the view that changed since the last one sent, as plain data."""


class Listener(Protocol):
    """A connection to the game: its seat (None for a spectator) and what to tell it."""

    seat: str | None

    def game_changed(self, lines: list[str]) -> None: ...


class Room:
    """A started game, its listeners and its timers. Runs on the event loop; the session is
    touched only by one job at a time, in the executor (or on the loop under `lock`)."""

    def __init__(
        self,
        session: Session,
        history: list[Event],
        listeners: Collection[Listener],
        response_seconds: float,
        takeover_seconds: float,
        on_over: Callable[[Room], None],
        executor: Executor | None = None,
        pace: tuple[float, float] = (0.0, 0.0),
        standin_kind: str = STANDIN_KIND,
    ) -> None:
        self.session = session
        self.listeners = listeners
        self.response_seconds = response_seconds
        self.on_over = on_over
        self.executor = executor
        self.pace = tuple(rate if rate > 0 else UNLIMITED for rate in pace)
        self.bots = Bucket(self.pace[0], max(1, min(BOT_BATCH, int(self.pace[0]))))
        self.names = {**session.names, "": "a card"}  # "": a card passed face down (event_for)
        cards = load_cards(tuple(session.sets))
        self.types = {card.id: card.type for card in cards}
        self.curses = frozenset(card.id for card in cards if card.type in CURSE_TYPES)
        self.history = with_no_effect([], history, self.curses)
        self.moves: Counter[str] = Counter()
        """Each human's `FREE_MOVES` this turn."""
        self.told: dict[str | None, tuple[int, int, list[str]]] = {}
        """Each audience's last lines as last told (`last_lines`): the history's length then,
        how many, and the lines; a request again before the game moves costs nothing."""
        self.end: dict[str, Any] | None = None
        if session.over:
            self.end = end_of_game(session.view(session.seats[0].name).data, self.history, self.names)
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        now = self.loop.time()
        self.changed_at = now
        self.seats = Seats(session, takeover_seconds, standin_kind, STANDIN_SECONDS, self.loop.time, now)
        self.jobs = Jobs(session, self.seats, self.names, self.types)
        self.audience: Counter[str | None] = Counter()
        self.counted: set[Listener] = set()
        self.tracks: dict[str | None, Track] = {}
        self.stale: set[str | None] = set()
        """Audiences whose tracks a job left behind (`refresh`)."""
        self.waiting = session.waiting_humans()
        self.bots_asked = session.bots_asked()
        self.over = session.over
        first = session.view(session.seats[0].name).data
        self.active: str | None = None if first["phase"] == "setup" else first["active"]
        self.failures = 0
        self.paced = False
        self._timer: asyncio.TimerHandle | None = None
        self._tick: asyncio.Task[None] | None = None

    # -- what a connection is sent ----------------------------------------------------

    def lines(self, seat: str | None, events: Sequence[Event]) -> list[str]:
        return tell(events, seat, self.names)

    def last_lines(self, seat: str | None, count: int) -> list[str]:
        """The log's last `count` lines as `seat` reads them, told from the fewest events that
        hold them: a game of many decisions costs a newcomer no more than a short one."""
        known = self.told.get(seat)
        if known is not None and known[:2] == (len(self.history), count):
            return known[2]
        told = count
        while True:
            lines = self.lines(seat, self.history[-told:])
            if len(lines) >= count or told >= len(self.history):
                self.told[seat] = (len(self.history), count, lines[-count:])
                return lines[-count:]
            told *= 4

    async def listen(self, listener: Listener) -> None:
        """A connection from now on: the track of its seat (or the spectators') is kept up."""
        async with self.lock:
            self.listen_now(listener)

    def listen_now(self, listener: Listener) -> None:
        """`listen` while no job can run (the room is new, or the lock is held)."""
        if listener in self.counted:
            return
        seat = listener.seat
        self.counted.add(listener)
        self.audience[seat] += 1
        track = self.tracks.get(seat)
        seen = next_track(self.session, seat, track, self.loop.time())
        self.stale.discard(seat)
        if seen is not None:
            self.tracks[seat] = finish_track(seen, track, self.names, self.types)

    def unlisten(self, listener: Listener) -> bool:
        """The connection closed; whether it was listening."""
        if listener not in self.counted:
            return False
        self.counted.discard(listener)
        seat = listener.seat
        self.audience[seat] -= 1
        if self.audience[seat] <= 0:
            del self.audience[seat]  # its track is kept as it is, and brought up to date on return
        return True

    def snapshot(self, seat: str | None, sent: Mapping[str, Any]) -> Snapshot:
        """The game as `seat` (None: a spectator) may see it now, and what of it changed since
        `sent`, the view last sent to the connection (empty before the first)."""
        track = self.tracks[seat]
        fields: dict[str, Any] = {
            "deadline": self.deadline(seat),
            "seats": self.seats.info(),
            "situation": track.situation,
        }
        view = track.data if seat is None else {**track.data, "legal": track.legal}
        if seat is None:
            fields["labels"] = []
        fields["advice"] = track.advice
        if self.end is not None:
            fields["end"] = self.end
        if seat is not None and self.seats.standin_did.get(seat):
            fields["standin"] = list(self.seats.standin_did[seat])
        changed = {key: value for key, value in view.items() if key not in sent or sent[key] != value}
        if seat is not None and "legal" in changed:
            changed["legal"] = [action_to_dict(action) for action in track.legal]
            fields["labels"], fields["groups"] = track.labels, track.groups
        return Snapshot(fields, view, changed)

    def deadline(self, seat: str | None) -> float | None:
        """Seconds left for `seat` to answer out of turn, or None."""
        if seat is None or self.active is None or not responding(seat, self.active):
            return None
        if seat not in self.waiting:
            return None
        left = self._changed_for(seat) + self.response_seconds - self.loop.time()
        return min(self.response_seconds, max(0.0, left))  # uvloop's clock is cached per loop turn

    # -- deciding --------------------------------------------------------------------

    async def refresh(self, seat: str | None) -> None:
        """Bring `seat`'s track up to date if a job left it behind (a seat the game was not
        waiting for: its connection is told of changes a little later, and only then is its
        view built, in a worker thread)."""
        if seat in self.stale:
            async with self.lock:
                await self._refresh(seat)

    async def _refresh(self, seat: str | None) -> None:
        """`refresh`, the lock held."""
        if seat not in self.stale:
            return
        track = self.tracks.get(seat)

        def build() -> Track | None:
            seen = next_track(self.session, seat, track, self.loop.time())
            return None if seen is None else finish_track(seen, track, self.names, self.types)

        built = await self._run(build)
        self.stale.discard(seat)
        if built is not None:
            self.tracks[seat] = built

    def current(self, seat: str | None) -> dict[str, Any] | None:
        """The whole view `seat` has now (as `Snapshot.view`), None if it has no track."""
        track = self.tracks.get(seat)
        if track is None:
            return None
        return track.data if seat is None else {**track.data, "legal": track.legal}

    def _check_moves(self, player: str, action: Action) -> None:
        """A seat makes at most `MOVES_PER_TURN` moves of its own choosing (`FREE_MOVES`) in
        one turn: each is saved and told, and the rules set them no bound."""
        if action.verb in FREE_MOVES and self.moves[player] >= MOVES_PER_TURN:
            words = f"you made {MOVES_PER_TURN} moves this turn: go on with it (end it, or fight)"
            raise Refusal("too_many", words)

    async def act(self, player: str, action: Action, seen: Mapping[str, Any] | None = None) -> None:
        """A human's decision, made and saved in a worker thread; RulesError (nothing changed),
        StoreError (not saved: nothing changed) or Refusal if it cannot be taken: stale if the
        player's view is no longer `seen`, the one they decided on. Bots and timers go on
        afterwards, in their own jobs."""
        async with self.lock:
            await self._refresh(player)
            if seen is not None and self.current(player) != seen:
                raise Refusal("stale", "the game has moved on since: look again")
            self._check_moves(player, action)
            job = self._job((player,), lambda: self.session.apply(player, action), 0)
            outcome = await self._run(job)
            self._publish(outcome)
            if outcome.error is not None:
                raise outcome.error
            self.moves[player] += int(action.verb in FREE_MOVES)
            self.seats.standin_did.pop(player, None)  # told: they play their seat again
        self._wake()

    async def advance(self) -> None:
        """Let bots, timers and stand-ins play what is due now, job after job; a job that
        fails is logged and tried again later (nobody is told)."""
        try:
            async with self.lock:
                while not self.over and (job := self._due_job()) is not None:
                    outcome = await self._run(job)
                    self._publish(outcome)
                    if outcome.error is not None:
                        raise outcome.error
                    if outcome.decisions == 0:
                        break
                    await asyncio.sleep(0)  # let the connections be told between jobs
            self.failures = 0
        except Exception as exc:
            self.failures += 1
            delay = min(RETRY_SECONDS[1], RETRY_SECONDS[0] * 2 ** (self.failures - 1))
            incident(f"game {self.session.game_id}: a job failed; trying again in {delay:g} s", exc)
            self._set_timer(self.loop.time() + delay)
            return
        self._schedule()

    def _due_job(self) -> Callable[[], Outcome] | None:
        """The next job: the bots' moves the pace allows, and what the timers decide now; None
        when it would decide nothing (no bot is asked and no human's time has run out), so
        that a human's decision costs no empty job after it."""
        now = self.loop.time()
        seats = self.seats
        self.bots.rate = self.pace[0] if any(not seats.away(h) for h in seats.humans) else self.pace[1]
        budget = min(BOT_BATCH, self.bots.available())
        away = frozenset(h for h in seats.humans if seats.away(h))
        taken = frozenset(h for h in seats.humans if seats.taken_over(h, now))
        late = frozenset(
            p for p in self.waiting if p not in away and (due := self._due_at(p)) is not None and due <= now
        )
        idle = Outcome(active=self.active)
        if not self.bots_asked and self.jobs.first_due(self.waiting, idle, budget, away, taken, late) is None:
            self.paced = self.paced or budget <= 0  # as that job would have left it
            return None
        return self._job((), None, budget, away, taken, late)

    def _job(
        self,
        actor: tuple[str, ...],
        first: Callable[[], list[Event]] | None,
        budget: int,
        away: frozenset[str] = frozenset(),
        taken: frozenset[str] = frozenset(),
        late: frozenset[str] = frozenset(),
    ) -> Callable[[], Outcome]:
        """A job for the worker thread, with what it needs of the loop's state taken now."""
        audience, tracks, active = list(self.audience), dict(self.tracks), self.active
        return lambda: self.jobs.run(actor, first, budget, away, taken, late, audience, tracks, active)

    async def _run(self, job: Callable[[], T]) -> T:
        return await self.loop.run_in_executor(self.executor, job)

    def _publish(self, outcome: Outcome) -> None:
        """On the loop, after a job: the tracks, the log and the state of the game, told."""
        self.tracks.update(outcome.tracks)
        self.stale = (self.stale | outcome.stale) - outcome.fresh
        self.waiting, self.over, self.active = outcome.waiting, outcome.over, outcome.active
        self.bots_asked = outcome.bots_asked
        self.paced = outcome.paced or (self.paced and not outcome.decisions)
        if outcome.decisions:
            self.bots.spend(outcome.bot_moves)
            self.changed_at = self.loop.time()
            events = with_no_effect(self.history[-50:], outcome.events, self.curses)
            if any(event.kind == "turn_started" for event in events):
                self.moves.clear()
            self.history += events
            self._tell_all(events)
            if self.over:
                seen = self.session.view(self.session.seats[0].name).data  # its public part
                self.end = end_of_game(seen, self.history, self.names)
                self.on_over(self)

    # -- presence --------------------------------------------------------------------

    def joined(self, seat: str) -> None:
        self.seats.joined(seat)
        self._schedule()
        self._tell_all([])

    def left(self, seat: str) -> None:
        if self.seats.left(seat):
            self._wake()
            self._tell_all([])

    def _tell_all(self, events: Sequence[Event]) -> None:
        for listener in self.listeners:
            listener.game_changed(self.lines(listener.seat, events))

    # -- timers ----------------------------------------------------------------------

    def _changed_for(self, player: str) -> float:
        """When what `player` sees last changed (the game's last change if not connected)."""
        track = self.tracks.get(player)
        return track.changed_at if track is not None and player in self.audience else self.changed_at

    def _due_at(self, player: str) -> float | None:
        """When a timer decides for `player`, who is holding the game up; None: never."""
        away = self.seats.away(player)
        if self.active is None:  # before the first turn: no response timer
            return self.changed_at if away else None
        if responding(player, self.active):
            return self.changed_at if away else self._changed_for(player) + self.response_seconds
        if not away:
            return None
        return self.seats.standin_from(player)

    def _schedule(self) -> None:
        """Wake up when the next timer falls due, or when the bots may move again."""
        if self.over or self.failures:
            return
        times = [t for p in self.waiting if (t := self._due_at(p)) is not None]
        if self.paced:
            times.append(self.loop.time() + max(0.001, self.bots.wait()))
        self._set_timer(min(times) if times else None)

    def _set_timer(self, when: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if when is not None:
            self._timer = self.loop.call_at(when, self._wake)

    def _wake(self) -> None:
        if not self.over and (self._tick is None or self._tick.done()):
            self._tick = self.loop.create_task(self.advance())

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._tick is not None:
            self._tick.cancel()
