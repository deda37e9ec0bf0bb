"""Every game of the server, from lobby table to finished game, and who is connected to it.

Tables live in memory and in the database (`db`); a game in play is a `Room` around
a `Session` saved by the store. After a restart, a game is resumed from its saved
decisions the first time someone asks for it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from munchkin.cards.loader import CardLoadError
from munchkin.engine.events import Event
from munchkin.engine.game import Game, SetupError
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.session import HUMAN, Session, SessionError
from munchkin.store import Store, StoreError, replay
from munchkin.store.store import load_cards
from munchkin.web.config import WebConfig
from munchkin.web.db import LobbyDb
from munchkin.web.lobby import OVER, PLAYING, LobbyError, SeatSlot, Table
from munchkin.web.ratelimit import Buckets
from munchkin.web.room import Listener, Room
from munchkin.web.tokens import new_code, new_token, token_hash

log = logging.getLogger("munchkin.web")


class Watcher(Listener, Protocol):
    """A connection to a game, told about lobby changes too."""

    def lobby_changed(self) -> None: ...


@dataclass(eq=False)
class Entry:
    """One game code: its lobby table, its room once started, and its connections."""

    table: Table
    watchers: set[Watcher] = field(default_factory=set)
    room: Room | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Granted(NamedTuple):
    """A seat given to a human: the game's code, the seat's number and name, its secret token."""

    code: str
    seat: int
    player: str
    token: str


class Hub:
    """The server's games."""

    def __init__(self, config: WebConfig, store: Store, db: LobbyDb) -> None:
        self.config, self.store, self.db = config, store, db
        self.entries = {table.code: Entry(table) for table in db.load()}
        self.requests = Buckets(config.requests_per_second, config.request_burst)

    # -- the lobby -------------------------------------------------------------------

    def create(
        self,
        name: str,
        sex: str,
        sets: Sequence[str],
        seats: int,
        bots: Sequence[str],
        response: float | None,
        options: object = None,
    ) -> Granted:
        """A new table with the creator in the first seat, played by the table `options`
        (plain data, checked here: a bad option is refused naming it)."""
        if sum(e.table.status != OVER for e in self.entries.values()) >= self.config.max_tables:
            raise LobbyError(503, "this server has too many games open; try again later")
        if len(bots) >= seats:
            raise LobbyError(422, "a game needs at least one human seat: fewer bots than seats")
        chosen = _check_options(options)
        _check_cards(sets, seats, chosen)
        code = new_code()
        while code in self.entries:
            code = new_code()
        slots = [SeatSlot(HUMAN) for _ in range(seats - len(bots))] + [SeatSlot(kind) for kind in bots]
        seconds = self.config.response_seconds if response is None else response
        table = Table(code, tuple(sets), seconds, slots, options=chosen)
        token = new_token()
        table.join(name, sex, token_hash(token))
        self.db.save(table)
        self.entries[code] = Entry(table)
        return Granted(code, 0, name, token)

    def join(self, code: str, name: str, sex: str) -> Granted:
        entry = self.entry(code)
        token = new_token()
        seat = entry.table.join(name, sex, token_hash(token))
        self._saved(entry)
        return Granted(code, seat, name, token)

    def ready(self, code: str, token: str, ready: bool) -> None:
        entry = self.entry(code)
        entry.table.set_ready(self.seat(entry, token), ready)
        self._saved(entry)

    async def start(self, code: str, token: str) -> None:
        """The host starts the game: the session is made and saved, bots play their first decisions."""
        entry = self.entry(code)
        async with entry.lock:
            problem = entry.table.start_problem(self.seat(entry, token))
            if problem:
                raise LobbyError(409, problem)
            table = entry.table
            seed = secrets.randbits(63) if self.config.seed is None else self.config.seed
            try:
                session = Session.start(table.game_seats(), table.sets, seed, self.store, table.options)
            except (SessionError, StoreError) as exc:
                log.error("game %s: could not start: %s", code, exc)
                raise LobbyError(503, f"the game could not start: {exc}") from None
            table.status, table.game_id = PLAYING, session.game_id
            self._saved(entry)
            room = self._open(entry, session, [])
        await room.advance()

    def entry(self, code: str) -> Entry:
        entry = self.entries.get(code.upper())
        if entry is None:
            raise LobbyError(404, f"there is no game {code!r} here")
        return entry

    def seat(self, entry: Entry, token: str) -> int:
        """The seat `token` holds at this table; 403 if none."""
        seat = entry.table.seat_of(token_hash(token))
        if seat is None:
            raise LobbyError(403, "this token holds no seat in this game")
        return seat

    # -- games in play ---------------------------------------------------------------

    async def room(self, entry: Entry) -> Room | None:
        """The game in play at this table (resumed from the store after a restart), or None."""
        if entry.room is not None or entry.table.game_id is None:
            return entry.room
        async with entry.lock:
            room = entry.room or self._open(entry, *self._resumed(entry.table))
        await room.advance()
        return room

    def _resumed(self, table: Table) -> tuple[Session, list[Event]]:
        """The saved game of `table`, and its events for the log."""
        assert table.game_id is not None
        try:
            session = Session.resume(table.game_id, self.store)
            _, history = replay(session.setup, session.decisions, f"game {table.game_id}")
        except (SessionError, StoreError) as exc:
            log.error("game %s: could not resume: %s", table.code, exc)
            raise LobbyError(503, f"this game cannot be resumed: {exc}") from None
        return session, history

    def _open(self, entry: Entry, session: Session, history: list[Event]) -> Room:
        """The room of a started or resumed game, with the connections already there."""

        def over(_room: Room) -> None:
            entry.table.status = OVER
            try:
                self.db.save(entry.table)
            except StoreError as exc:
                log.error("game %s: could not save the end of the game: %s", entry.table.code, exc)

        room = Room(
            session,
            history,
            entry.watchers,
            entry.table.response_seconds,
            self.config.takeover_seconds,
            over,
        )
        entry.room = room
        for watcher in entry.watchers:
            self.attach(entry, watcher)
        if session.over and entry.table.status != OVER:
            over(room)  # the server stopped between the last decision and saving the table
        return room

    def attach(self, entry: Entry, watcher: Watcher) -> None:
        """A connection to a game in play: counted as present, told the log so far."""
        room = entry.room
        if room is None:
            return
        if watcher.seat is not None:
            room.joined(watcher.seat)
        watcher.game_changed(room.lines(watcher.seat, room.history)[-self.config.log_lines :])

    def detach(self, entry: Entry, watcher: Watcher) -> None:
        entry.watchers.discard(watcher)
        if entry.room is not None and watcher.seat is not None:
            entry.room.left(watcher.seat)

    def close(self) -> None:
        for entry in self.entries.values():
            if entry.room is not None:
                entry.room.close()

    def _saved(self, entry: Entry) -> None:
        """Save the table and tell its connections."""
        self.db.save(entry.table)
        for watcher in entry.watchers:
            watcher.lobby_changed()


def _check_options(options: object) -> TableOptions:
    """The table options of a new game, or a 422 naming the option that is wrong."""
    try:
        return parse_options(options or None, "options")
    except OptionsError as exc:
        raise LobbyError(422, str(exc)) from None


def _check_cards(sets: Sequence[str], players: int, options: TableOptions) -> None:
    """Refuse card sets that cannot make a game for this many players (the engine's own check)."""
    try:
        Game.new(load_cards(tuple(sets)), [(f"p{i}", "male") for i in range(players)], options=options)
    except (CardLoadError, SetupError) as exc:
        raise LobbyError(422, str(exc)) from None
