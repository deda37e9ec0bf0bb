"""The WebSocket endpoint: one connection per browser tab (or load client) and game.

The first message says who is connecting (`hello` with a seat token, or none to
watch). Every later message is checked for size, rate and shape before anything
else; an action is taken only with the token of this connection's seat. What the
connection is sent is coalesced: a slow client gets the latest view and every
sentence of the log it has not seen, not a queue of stale views. A seat the game
is not waiting for is told of changes at most every `idle_refresh_seconds`, and only of
changes it can see. A connection numbers its game messages itself: `seq` counts the views it
was sent that differ from the one before, so it says nothing the messages do not (the game's
count of decisions would tell that a bystander was asked, holding a card to respond with).

A seat always gets in (its oldest connection is closed beyond `max_connections_per_seat`);
spectators have caps of their own, per game and per address. Looking a game up by its code
is rate-limited per address (`lookups_per_second`). A close reason always fits its frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected, WebSocketState

from munchkin.engine.actions import ActionFormatError, action_from_dict
from munchkin.engine.errors import RulesError
from munchkin.store import StoreError
from munchkin.web.config import WebConfig
from munchkin.web.errors import close_reason, incident, told
from munchkin.web.guard import address_key
from munchkin.web.hub import Entry, Hub
from munchkin.web.lobby import LobbyError
from munchkin.web.protocol import Act, Fragments, Hello, Refusal, encode, parse
from munchkin.web.ratelimit import Bucket
from munchkin.web.room import Snapshot
from munchkin.web.tokens import CODE_PATTERN

log = logging.getLogger("munchkin.web")
router = APIRouter()

HELLO_SECONDS = 10.0
"""How long a new connection may take to say hello."""
MAX_PENDING_LINES = 500
STRIKES = 3
"""Rate-limited bursts a connection may exceed before it is closed."""
POLICY, TOO_BIG, FAILED, LATER, UNKNOWN, ELSEWHERE = 1008, 1009, 1011, 1013, 4404, 4409
FRAGMENTS = Fragments()
"""The game messages' shared values, encoded once for every connection (on the loop)."""


class Closing(Exception):
    """The connection is to be closed with a WebSocket close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code


class Connection:
    """One client connected to one game."""

    def __init__(self, ws: WebSocket, hub: Hub, entry: Entry) -> None:
        self.ws, self.hub, self.entry = ws, hub, entry
        config: WebConfig = hub.config
        self.max_bytes, self.idle_seconds = config.max_message_bytes, config.idle_refresh_seconds
        self.bucket = Bucket(config.messages_per_second, config.message_burst)
        self.strikes = 0
        self.seat: str | None = None
        self.seat_index: int | None = None
        self.lines: list[str] = []
        self.sent_view: dict[str, Any] = {}
        """The view as last sent; empty before the first."""
        self.acked: int | None = None
        self.sent_ack: int | None = None
        self.lobby_dirty, self.game_dirty = True, False
        self.due = asyncio.Event()
        self.due.set()  # the lobby table first
        self.timer: asyncio.TimerHandle | None = None
        self.peer = f"{ws.client.host}:{ws.client.port}" if ws.client else "?"
        self.address = address_key(ws.client.host) if ws.client else "?"
        self.opened = asyncio.get_running_loop().time()
        self.seq = 0
        """Views sent so far that differ from the one before: the game messages' `seq`."""
        self.sent_seats: list[dict[str, Any]] | None = None
        self.spectating = False
        self.closer: asyncio.Task[None] | None = None

    # -- told by the hub and the room ------------------------------------------------

    def game_changed(self, lines: list[str]) -> None:
        self.lines += lines
        del self.lines[:-MAX_PENDING_LINES]
        self.game_dirty = True
        self._schedule()

    def lobby_changed(self) -> None:
        self.lobby_dirty = True
        self._schedule()

    def kick(self, code: int, reason: str) -> None:
        """Close this connection (its seat was freed, the game expired...)."""
        if self.closer is None:
            self.closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnected):
            if self.ws.client_state == WebSocketState.CONNECTED:
                await self.ws.close(code, close_reason(reason))

    def _schedule(self) -> None:
        """Send at once if urgent, else once `idle_refresh_seconds` have passed since the first
        change not sent yet."""
        if self._urgent():
            self.due.set()
        elif self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(self.idle_seconds, self.due.set)

    # -- the connection --------------------------------------------------------------

    async def run(self) -> None:
        """Greet, then serve the connection until it closes."""
        try:
            hello = await asyncio.wait_for(self._receive(), HELLO_SECONDS)
        except TimeoutError:
            raise Closing(POLICY, f"say hello within {HELLO_SECONDS:.0f} s") from None
        self._take_seat(hello)
        self._admit()
        sender: asyncio.Task[None] | None = None
        try:
            await self._send({"type": "welcome", "code": self.entry.table.code, "seat": self.seat})
            await self.hub.room(self.entry)  # a saved game is resumed before the first connection joins it
            await self.hub.attach(self.entry, self)
            sender = asyncio.create_task(self._send_loop())
            while True:
                message = await self._receive()
                try:
                    await self._handle(message)
                except Refusal as refusal:
                    await self._send(refusal.message(message.ref if isinstance(message, Act) else None))
        finally:
            self.hub.detach(self.entry, self)
            if self.spectating:
                self.entry.spectators[self.address] -= 1
                if self.entry.spectators[self.address] <= 0:
                    del self.entry.spectators[self.address]
            if sender is not None:
                sender.cancel()
            if self.timer is not None:
                self.timer.cancel()

    def _admit(self) -> None:
        """Let a seat in, closing its oldest connection beyond its cap; a spectator only below
        the game's and the address's caps."""
        config = self.hub.config
        entry = self.entry
        if self.seat is not None:
            mine = [w for w in entry.watchers if w.seat_index == self.seat_index]
            mine.sort(key=lambda w: w.opened)
            for old in mine[: max(0, len(mine) - config.max_connections_per_seat + 1)]:
                old.kick(ELSEWHERE, "this seat was opened in another tab")
            return
        if sum(entry.spectators.values()) >= config.max_spectators_per_game:
            raise Closing(LATER, "this game has as many spectators as it lets in; try again later")
        if entry.spectators[self.address] >= config.max_spectators_per_address:
            raise Closing(LATER, "you are watching this game from too many tabs already")
        entry.spectators[self.address] += 1
        self.spectating = True

    def _take_seat(self, message: Hello | Act) -> None:
        if not isinstance(message, Hello):
            raise Closing(POLICY, "say hello first")
        if message.token is None:
            return
        try:
            self.seat_index = self.hub.seat(self.entry, message.token)
        except LobbyError:
            self._warn("hello with a token that holds no seat")
            raise Closing(POLICY, "this token holds no seat in this game") from None
        self.seat = self.entry.table.seats[self.seat_index].name

    async def _receive(self) -> Hello | Act:
        """The next message, checked for size, rate and shape (a Refusal is answered, then the next)."""
        while True:
            data = await self.ws.receive()
            if data["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(data.get("code", 1000))
            text = data.get("text")
            try:
                return self._check(text if text is not None else data.get("bytes"))
            except Refusal as refusal:
                await self._send(refusal.message())

    def _check(self, raw: str | bytes | None) -> Hello | Act:
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes > STRIKES * self.bucket.burst:
                raise Closing(POLICY, "too many messages")
            raise Refusal("rate", "too many messages: slow down")
        if not isinstance(raw, str):
            raise Refusal("bad_message", "send JSON text messages")
        if len(raw) > self.max_bytes or len(raw.encode()) > self.max_bytes:
            raise Closing(TOO_BIG, f"messages are at most {self.max_bytes} bytes")
        return parse(raw)

    async def _handle(self, message: Hello | Act) -> None:
        if isinstance(message, Hello):
            raise Refusal("bad_message", "hello is only the first message")
        if self.seat is None:
            raise Refusal("spectator", "spectators watch: join a seat to play")
        try:
            index = self.hub.seat(self.entry, message.token)
        except LobbyError:
            self._warn(f"seat {self.seat}: an action with a token that holds no seat")
            raise Refusal("bad_token", "this token holds no seat in this game") from None
        if index != self.seat_index or message.player not in (None, self.seat):
            self._warn(f"seat {self.seat}: an action for another seat")
            raise Refusal("not_your_seat", "you may act only for your own seat")
        room = self.entry.room
        if room is None:
            raise Refusal("not_started", "the game has not started yet")
        try:
            action = action_from_dict(message.action)
            if message.seq is not None and message.seq != self.seq:
                raise Refusal("stale", "the game has moved on since: look again")
            await room.act(self.seat, action, None if message.seq is None else self.sent_view)
            self.acked = message.ref
            self.due.set()  # the player waits to see their action taken
        except (ActionFormatError, RulesError) as exc:
            raise Refusal("rules" if isinstance(exc, RulesError) else "bad_action", str(exc)) from None
        except StoreError as exc:
            error_id = incident(f"game {self.entry.table.code}: a decision of {self.seat} was not saved", exc)
            raise Refusal(
                "server", told("your move could not be saved: try again", error_id), error_id
            ) from None

    # -- sending ---------------------------------------------------------------------

    async def _send_loop(self) -> None:
        """Send what changed whenever something did, coalescing changes that come meanwhile."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self._send_changes()  # until the connection closes: the receiving side cleans up

    async def _send_changes(self) -> None:
        while True:
            await self.due.wait()
            self.due.clear()
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.lobby_dirty:
                self.lobby_dirty = False
                await self._send({"type": "lobby", "table": self.entry.table.public()})
            room = self.entry.room
            if self.game_dirty and room is not None and self in room.counted:
                self.game_dirty = False
                await room.refresh(self.seat)
                snapshot = room.snapshot(self.seat, self.sent_view)
                if self._worth_sending(snapshot):
                    await self.ws.send_text(FRAGMENTS.message(self._game_message(snapshot)))

    def _worth_sending(self, snapshot: Snapshot) -> bool:
        """Whether there is anything new for the client: its view, the log, who is at the
        table, the acknowledgement of its action. A change it cannot see sends nothing: an
        empty message would tell that a bystander decided something."""
        return bool(
            not self.sent_view
            or snapshot.changed
            or self.lines
            or snapshot.fields["seats"] != self.sent_seats
            or self.acked != self.sent_ack
        )

    def _urgent(self) -> bool:
        """Whether to send at once: the lobby changed, the game waits for this seat, or the
        seat's own action is not acknowledged yet. Others' updates may wait a little."""
        room = self.entry.room
        return (
            self.lobby_dirty
            or room is None
            or self.acked != self.sent_ack
            or (self.seat is not None and self.seat in room.waiting)
        )

    def _game_message(self, snapshot: Snapshot) -> dict[str, Any]:
        """The snapshot as a message, its view holding only the keys that changed since the last
        game message sent (all of them in the first)."""
        full = not self.sent_view
        if full or snapshot.changed:
            self.seq += 1
        self.sent_view = snapshot.view
        message = {
            "type": "game",
            "seq": self.seq,
            **snapshot.fields,
            "full": full,
            "view": snapshot.changed,
            "log": self.lines,
        }
        message["acked"] = self.sent_ack = self.acked
        self.sent_seats = snapshot.fields["seats"]
        self.lines = []
        return message

    async def _send(self, message: dict[str, Any]) -> None:
        await self.ws.send_text(encode(message))

    def _warn(self, what: str) -> None:
        log.warning("game %s: %s (from %s)", self.entry.table.code, what, self.peer)


@router.websocket("/ws/{code}")
async def game_socket(ws: WebSocket, code: str) -> None:
    """Play or watch the game `code`."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    address = address_key(ws.client.host) if ws.client else "?"
    if not hub.lookups.take(address):
        await _close(ws, LATER, "too many game lookups: slow down")
        return
    try:
        if not re.fullmatch(CODE_PATTERN, code):
            raise LobbyError(404, "there is no such game here")
        entry = hub.entry(code)
    except LobbyError as exc:
        await _close(ws, UNKNOWN, str(exc))
        return
    try:
        await Connection(ws, hub, entry).run()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the client left: noticed reading, or sending (after the other task noticed it)
    except Closing as closing:
        log.info("game %s: closing a connection: %s", entry.table.code, closing)
        await _close(ws, closing.code, str(closing))
    except LobbyError as exc:  # a game that cannot be resumed: its message is plain, with an error id
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnected):
            await ws.send_text(encode(Refusal("server", str(exc), exc.error_id).message()))
        await _close(ws, FAILED, str(exc))
    except Exception as exc:
        error_id = incident(f"game {entry.table.code}: a connection failed", exc)
        log.exception("error %s", error_id)
        await _close(ws, FAILED, told("the server failed", error_id))


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Close with a reason cut to fit (123 bytes), unless the connection is closed already."""
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnected):
        if ws.client_state == WebSocketState.CONNECTED:
            await ws.close(code, close_reason(reason))
