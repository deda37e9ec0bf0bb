"""A room's job, run in a worker thread (the event loop never waits for the game): one human's
decision, or the bots' moves the pace allows and what the timers decide for the humans (a
pass, a stand-in's move); then the tracks of the audiences told at once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.web.seats import Seats
from munchkin.web.tracks import Track, finish_track, next_track

BOT_BATCH = 25
"""Decisions one job makes at most before the connections are told."""
TIMEOUT_ACTIONS = tuple(
    Action(*words) for words in (("pass",), ("decline_help",), ("decline_trade",), ("choose", "decline"))
)
"""What a player who lets a window close does, best first; else the engine's first option."""


def timeout_action(legal: Sequence[Action]) -> Action:
    """Pass where allowed, else decline what was asked, else the first legal option."""
    return next((a for a in TIMEOUT_ACTIONS if a in legal), legal[0])


def responding(player: str, active: str | None) -> bool:
    """Whether a decision of `player` now would be out of turn (timed)."""
    return active is None or player != active


@dataclass
class Outcome:
    """What one job did: its events, the tracks it changed, how the game stands after it."""

    events: list[Event] = field(default_factory=list)
    decisions: int = 0
    bot_moves: int = 0
    tracks: dict[str | None, Track] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)
    bots_asked: bool = False
    """Whether the game waits for a bot's decision after the job."""
    over: bool = False
    active: str | None = None
    stale: set[str | None] = field(default_factory=set)
    """The audiences whose tracks were left behind: nobody waits for them..."""
    fresh: set[str | None] = field(default_factory=set)
    """...and those brought up to date."""
    paced: bool = False
    """The bots used all the moves the pace allowed: wake up when it allows more."""
    error: BaseException | None = None


class Jobs:
    """The jobs of one game: its session, its humans (`seats`), and its player names and card
    types by id, for the tracks' words."""

    def __init__(
        self, session: Session, seats: Seats, names: Mapping[str, str], types: Mapping[str, str]
    ) -> None:
        self.session, self.seats, self.names, self.types = session, seats, names, types

    def run(
        self,
        actor: tuple[str, ...],
        first: Callable[[], list[Event]] | None,
        budget: int,
        away: frozenset[str],
        taken: frozenset[str],
        late: frozenset[str],
        audience: list[str | None],
        before: dict[str | None, Track],
        active: str | None,
    ) -> Outcome:
        """In a worker thread: `first` (a human's decision), or up to `budget` bot moves and what
        is due for the humans `away`, `taken` over by a stand-in, or `late` to answer; then each
        audience's track. An error stops the job; what it did stands."""
        out = Outcome(active=active)
        tracks = dict(before)
        session = self.session

        def record(events: list[Event]) -> None:
            out.events += events
            out.decisions += 1
            for event in events:
                if event.kind == "turn_started":
                    out.active = event.data["player"]

        try:
            if first is not None:
                record(first())
            while first is None and out.decisions < BOT_BATCH and not session.over:
                if out.bot_moves < budget:
                    count = session.decision_count
                    events = session.step_bots(limit=1)
                    if session.decision_count > count:
                        out.bot_moves += 1
                        record(events)
                        continue
                player = self.first_due(session.waiting_humans(), out, budget, away, taken, late)
                if player is None:
                    break
                if not responding(player, out.active):
                    out.bot_moves += 1  # a stand-in's move counts as a bot's
                record(self._decide_for(player, out.active))
        except Exception as exc:
            out.error = exc
        out.waiting, out.over, out.bots_asked = session.waiting_humans(), session.over, session.bots_asked()
        if out.decisions:  # once per job, and only for the seats told at once; the others later
            now = self.seats.time()
            urgent = {*out.waiting, *actor}
            for seat in audience:
                if seat not in urgent:
                    out.stale.add(seat)
                    continue
                out.fresh.add(seat)
                changed = next_track(session, seat, tracks.get(seat), now)
                if changed is not None:
                    tracks[seat] = changed
        out.tracks = {
            seat: finish_track(track, before.get(seat), self.names, self.types)
            for seat, track in tracks.items()
        }
        out.paced = first is None and out.bot_moves >= budget
        return out

    def first_due(
        self,
        waiting: list[str],
        out: Outcome,
        budget: int,
        away: frozenset[str],
        taken: frozenset[str],
        late: frozenset[str],
    ) -> str | None:
        """A human whose timer has run out, if any: away and asked out of turn (at once), late
        to answer (only before this job's first decision: any decision starts their time
        again), or taken over by a stand-in on their own turn."""
        for player in waiting:
            if out.active is None:  # before the first turn: no timer, but the away pass at once
                if player in away:
                    return player
            elif responding(player, out.active):
                if player in away or (player in late and out.decisions == 0):
                    return player
            elif player in taken and out.bot_moves < budget and self.seats.standin_due(player):
                return player
        return None

    def _decide_for(self, player: str, active: str | None) -> list[Event]:
        """The decision a timer makes for a human: pass (out of turn) or a stand-in bot's."""
        view = self.session.view(player)
        if responding(player, active):
            action = timeout_action(view.legal)
        else:
            action = self.seats.standin_action(player, view, self.names)
        return self.session.apply(player, action)
