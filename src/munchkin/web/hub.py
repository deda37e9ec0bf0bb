"""Every game of the server, from lobby table to finished game, and who is connected to it.

Tables live in memory and in the database (`db`); a game in play is a `Room` around
a `Session` saved by the store. After a restart, a game is resumed from its saved
decisions the first time someone asks for it.

Nothing here waits for the database on the event loop: lobby tables are saved by one
thread of their own (in order), games are started, resumed and played in worker threads. A
table is changed on a copy, and the copy takes its place once saved: a save that fails
changes nothing.

What one address may hold is bounded: `max_open_tables_per_address` games not started yet,
`max_bot_games_per_address` games with as many bots as humans (or more). A table not started
expires after `table_idle_seconds` without a change while none of its players is connected;
a finished game leaves the lobby `finished_keep_seconds` after its end (its saved record
stays in the store).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

from munchkin.cards.loader import CardLoadError
from munchkin.engine.events import Event
from munchkin.engine.game import Game, SetupError
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.session import HUMAN, Session, SessionError
from munchkin.store import Store, StoreError, replay
from munchkin.store.store import load_cards
from munchkin.web.config import WebConfig
from munchkin.web.db import LobbyDb
from munchkin.web.errors import incident, told
from munchkin.web.lobby import OPEN, OVER, PLAYING, LobbyError, SeatSlot, Table
from munchkin.web.ratelimit import Buckets
from munchkin.web.room import Listener, Room
from munchkin.web.thinking import Thinkers
from munchkin.web.tokens import new_code, new_token, token_hash

log = logging.getLogger("munchkin.web")
GAME_THREADS = 4
"""Worker threads that play games (decisions, bots, saving); they take turns holding Python's
lock, so more would not play faster, but a thread waiting for a locked database does not
hold the others up."""
T = TypeVar("T")


class Watcher(Listener, Protocol):
    """A connection to a game, told about lobby changes too, and closed when its seat is freed."""

    seat_index: int | None
    opened: float
    """Loop time the connection opened."""

    def lobby_changed(self) -> None: ...

    def kick(self, code: int, reason: str) -> None: ...


@dataclass(eq=False)
class Entry:
    """One game code: its lobby table, its room once started, and its connections."""

    table: Table
    watchers: set[Watcher] = field(default_factory=set)
    room: Room | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owner: str | None = None
    """The address that created the table (unknown for a table from before a restart)."""
    touched: float = 0.0
    """Loop time of the last change at the table, or when its last player left."""
    ended: float | None = None
    """Loop time the game ended."""
    spectators: Counter[str] = field(default_factory=Counter)
    """Spectators connected, by address."""
    broken: str | None = None
    """The error id of a saved game that could not be resumed (not tried again)."""


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
        self.loop = asyncio.get_running_loop()
        now = self.loop.time()
        self.entries = {table.code: Entry(table, touched=now) for table in db.load()}
        for entry in self.entries.values():
            if entry.table.status == OVER:
                entry.ended = now
        self.requests = Buckets(config.requests_per_second, config.request_burst)
        self.lookups = Buckets(config.lookups_per_second, config.lookup_burst)
        self.saving = ThreadPoolExecutor(1, "munchkin-lobby")
        self.playing = ThreadPoolExecutor(GAME_THREADS, "munchkin-game")
        self.thinkers = Thinkers(
            config.search_workers, config.search_ms_per_minute, config.search_ms_per_decision
        )
        self.creating = asyncio.Lock()
        self.sweeper: asyncio.Task[None] | None = None

    def start_sweeping(self) -> None:
        """Drop expired tables and finished games from now on, every little while."""
        config = self.config
        every = max(0.05, min(30.0, config.table_idle_seconds / 4, config.finished_keep_seconds / 4))

        async def sweeping() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.sweep()
                except Exception as exc:  # a locked database: the next round tries again
                    incident("sweeping the lobby failed", exc)

        self.sweeper = self.loop.create_task(sweeping())

    async def sweep(self) -> None:
        """Forget the tables not started that expired, and the games over long enough."""
        for code, entry in list(self.entries.items()):
            if not self._expired(entry) or entry.lock.locked():
                continue
            async with entry.lock:  # nobody joins or starts it meanwhile
                idle = entry.table.status == OPEN
                if not self._expired(entry) or self.entries.get(code) is not entry:
                    continue
                await self._forget(entry, "this game expired" if idle else "this game is over")
                log.info("game %s: %s", code, "expired before it started" if idle else "left the lobby")

    async def _forget(self, entry: Entry, why: str) -> None:
        """Drop a table from the database and the lobby, telling whoever watches it why (under
        its lock)."""
        code = entry.table.code
        await self._saving(self.db.delete, code)
        del self.entries[code]
        for watcher in list(entry.watchers):
            watcher.kick(1000, why)
        if entry.room is not None:
            entry.room.close()

    def _expired(self, entry: Entry) -> bool:
        """A table not started, idle long enough with none of its players connected; or a game
        over long enough."""
        now, config = self.loop.time(), self.config
        if entry.ended is not None:
            return now - entry.ended >= config.finished_keep_seconds
        idle = entry.table.status == OPEN and now - entry.touched >= config.table_idle_seconds
        return idle and not any(w.seat is not None for w in entry.watchers)

    # -- the lobby -------------------------------------------------------------------

    async def create(
        self,
        address: str,
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
        if len(bots) >= seats:
            raise LobbyError(422, "a game needs at least one human seat: fewer bots than seats")
        chosen = _check_options(options)
        _check_cards(sets, seats, chosen)
        slots = [SeatSlot(HUMAN) for _ in range(seats - len(bots))] + [SeatSlot(kind) for kind in bots]
        seconds = self.config.response_seconds if response is None else response
        async with self.creating:
            self._check_room_for(address, bot_heavy=len(bots) >= seats - len(bots))
            code = new_code()
            while code in self.entries:
                code = new_code()
            table = Table(code, tuple(sets), seconds, slots, options=chosen)
            token = new_token()
            table.join(name, sex, token_hash(token))
            await self._saving(self.db.save, table)
            self.entries[code] = Entry(table, owner=address, touched=self.loop.time())
        return Granted(code, 0, name, token)

    def _check_room_for(self, address: str, bot_heavy: bool) -> None:
        """Refuse a new table the server or this address has no room for."""
        config = self.config
        live = [e for e in self.entries.values() if e.table.status != OVER]
        if len(live) >= config.max_tables:
            raise LobbyError(503, "this server has too many games open; try again later")
        mine = [e for e in live if e.owner == address]
        if len(mine) >= config.max_live_tables_per_address:
            raise LobbyError(
                429,
                f"you have {config.max_live_tables_per_address} games not finished already: "
                "finish one, or wait until one ends",
            )
        if sum(e.table.status == OPEN for e in mine) >= config.max_open_tables_per_address:
            raise LobbyError(
                429,
                f"you have {config.max_open_tables_per_address} games waiting to start already: "
                "start one, or wait until one expires",
            )
        if bot_heavy and sum(e.table.bot_heavy for e in mine) >= config.max_bot_games_per_address:
            raise LobbyError(
                429,
                f"you have {config.max_bot_games_per_address} games with as many bots as humans already: "
                "finish one, or give this one more human seats",
            )

    async def join(self, code: str, name: str, sex: str) -> Granted:
        token = new_token()
        seat = await self._change(self.entry(code), lambda table: table.join(name, sex, token_hash(token)))
        return Granted(code.upper(), seat, name, token)

    async def ready(self, code: str, token: str, ready: bool) -> None:
        entry = self.entry(code)
        await self._change(entry, lambda table: table.set_ready(self.seat(entry, token), ready))

    async def free(self, code: str, token: str, seat: int) -> None:
        """The host frees a seat before the start; its holder's connections are closed."""
        entry = self.entry(code)
        await self._change(entry, lambda table: table.free(self.seat(entry, token), seat))
        for watcher in list(entry.watchers):
            if watcher.seat_index == seat:
                watcher.kick(1008, "the host freed this seat: this token holds no seat now")

    async def close_table(self, code: str, token: str) -> None:
        """The host closes a table before the start: it is gone, and counts no more against
        the limits of the address that created it."""
        entry = self.entry(code)
        async with entry.lock:
            if self.entries.get(entry.table.code) is not entry:  # closed while this waited
                raise LobbyError(404, "there is no such game here")
            entry.table.check_close(self.seat(entry, token))
            await self._forget(entry, "the host closed this game")
        log.info("game %s: closed by its host before it started", entry.table.code)

    async def start(self, code: str, token: str) -> None:
        """The host starts the game: the session is made and saved, bots play their first decisions."""
        entry = self.entry(code)
        async with entry.lock:
            problem = entry.table.start_problem(self.seat(entry, token))
            if problem:
                raise LobbyError(409, problem)
            table = entry.table.copy()
            seed = secrets.randbits(63) if self.config.seed is None else self.config.seed
            seats = table.game_seats()
            try:
                session = await self._playing(
                    lambda: Session.start(
                        seats, table.sets, seed, self.store, table.options, self.thinkers.maker(table.sets)
                    )
                )
            except (SessionError, StoreError) as exc:
                error_id = incident(f"game {code}: could not start", exc)
                raise LobbyError(
                    503, told("the game could not start; try again later", error_id), error_id
                ) from None
            table.status, table.game_id = PLAYING, session.game_id
            await self._saving(self.db.save, table)
            entry.table = table
            room = self._open(entry, session, [])
        self._told(entry)
        await room.advance()

    def entry(self, code: str) -> Entry:
        entry = self.entries.get(code.upper())
        if entry is None:
            raise LobbyError(404, "there is no such game here")
        return entry

    def seat(self, entry: Entry, token: str) -> int:
        """The seat `token` holds at this table; 403 if none."""
        seat = entry.table.seat_of(token_hash(token))
        if seat is None:
            raise LobbyError(403, "this token holds no seat in this game")
        return seat

    async def _change(self, entry: Entry, change: Callable[[Table], T]) -> T:
        """Change a copy of the table, save it, then let it take the table's place and tell the
        table's connections; a refusal or a failed save changes nothing."""
        async with entry.lock:
            if self.entries.get(entry.table.code) is not entry:
                raise LobbyError(404, "there is no such game here")  # it expired meanwhile
            table = entry.table.copy()
            result = change(table)
            await self._saving(self.db.save, table)
            entry.table = table
            entry.touched = self.loop.time()
        self._told(entry)
        return result

    def _told(self, entry: Entry) -> None:
        for watcher in entry.watchers:
            watcher.lobby_changed()

    async def _saving(self, work: Callable[..., T], *args: object) -> T:
        """Lobby database work, on the lobby's own thread (in the order asked)."""
        return await self.loop.run_in_executor(self.saving, work, *args)

    async def _playing(self, work: Callable[[], T]) -> T:
        return await self.loop.run_in_executor(self.playing, work)

    # -- games in play ---------------------------------------------------------------

    async def room(self, entry: Entry) -> Room | None:
        """The game in play at this table (resumed from the store after a restart), or None."""
        if entry.room is not None or entry.table.game_id is None:
            return entry.room
        async with entry.lock:
            room = entry.room
            if room is None:
                if entry.broken is not None:
                    raise LobbyError(503, told("this game cannot be resumed", entry.broken), entry.broken)
                room = self._open(entry, *await self._playing(lambda: self._resumed(entry)))
        await room.advance()
        return room

    def _resumed(self, entry: Entry) -> tuple[Session, list[Event]]:
        """In a worker thread: the saved game of the table, and its events for the log."""
        table = entry.table
        assert table.game_id is not None
        try:
            session = Session.resume(table.game_id, self.store, self.thinkers.maker(table.sets))
            _, history = replay(session.setup, session.decisions, f"game {table.game_id}")
        except (SessionError, StoreError) as exc:
            entry.broken = incident(f"game {table.code}: could not resume", exc)
            raise LobbyError(503, told("this game cannot be resumed", entry.broken), entry.broken) from None
        return session, history

    def _open(self, entry: Entry, session: Session, history: list[Event]) -> Room:
        """The room of a started or resumed game, with the connections already there."""

        def over(_room: Room) -> None:
            entry.ended = self.loop.time()
            if entry.table.status == OVER:
                return
            table = entry.table.copy()
            table.status = OVER
            entry.table = table
            future = self.loop.run_in_executor(self.saving, self.db.save, table)
            future.add_done_callback(lambda done: _failed_end(entry, done))

        config = self.config
        room = Room(
            session,
            history,
            entry.watchers,
            entry.table.response_seconds,
            config.takeover_seconds,
            over,
            self.playing,
            (config.bot_moves_per_second, config.away_bot_moves_per_second),
            config.standin,
        )
        entry.room = room
        for watcher in entry.watchers:
            room.listen_now(watcher)
            self._attached(entry, watcher)
        if session.over:
            over(room)  # the server stopped between the last decision and saving the table
        return room

    async def attach(self, entry: Entry, watcher: Watcher) -> None:
        """A connection to a game in play: counted as present, told the log so far."""
        entry.watchers.add(watcher)
        room = entry.room
        if room is not None:
            await room.listen(watcher)
            if watcher in entry.watchers:  # it may have left meanwhile
                self._attached(entry, watcher)
            else:
                room.unlisten(watcher)

    def _attached(self, entry: Entry, watcher: Watcher) -> None:
        room = entry.room
        assert room is not None
        if watcher.seat is not None:
            room.joined(watcher.seat)
        watcher.game_changed(room.last_lines(watcher.seat, self.config.log_lines))

    def detach(self, entry: Entry, watcher: Watcher) -> None:
        entry.watchers.discard(watcher)
        if watcher.seat is not None and entry.table.status == OPEN:
            entry.touched = self.loop.time()
        if entry.room is not None and entry.room.unlisten(watcher) and watcher.seat is not None:
            entry.room.left(watcher.seat)

    def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        for entry in self.entries.values():
            if entry.room is not None:
                entry.room.close()
        self.playing.shutdown(wait=True, cancel_futures=True)
        self.saving.shutdown(wait=True)
        self.thinkers.close()


def _failed_end(entry: Entry, done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        incident(f"game {entry.table.code}: could not save the end of the game", done.exception())


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
