"""What players ask besides the lobby and the game (issue 13): the whole log of a game as
their seat (or a spectator) may read it, the rules in short, and a new game with the same
seats once a game is over.

Play again: the first seat to ask makes the new table: the same card sets, timer, table
options and seats (each human seat held by the same token, not ready yet; the bots as they
were). The old table names it (`again` in its public data, told to everyone connected), so
each player, and each spectator, follows with the seat they had.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from munchkin.tui.rules_help import RULES
from munchkin.web.api import Code, Limited, address_of
from munchkin.web.hub import Entry, Hub
from munchkin.web.lobby import OVER, LobbyError, Table
from munchkin.web.protocol import Token
from munchkin.web.tokens import new_code

router = APIRouter(prefix="/api")

WHOLE_LOG_LINES = 10_000
"""The most lines `whole_log` sends, the last ones (a whole game is a few thousand)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Seated(_Body):
    token: Token


class MaybeSeated(_Body):
    token: Token | None = None


@router.get("/rules")
async def rules() -> dict[str, str]:
    """The rules in short, in Markdown: the words of the terminal's `?` screen."""
    return {"markdown": RULES}


@router.post("/games/{code}/log")
async def whole_log(code: Code, body: MaybeSeated, hub: Limited) -> dict[str, Any]:
    """Every line of the game's log so far, as the token's seat reads it (none: a spectator),
    up to its last `WHOLE_LOG_LINES`."""
    entry = hub.entry(code)
    seat = None if body.token is None else entry.table.seats[hub.seat(entry, body.token)].name
    room = entry.room
    if room is None:
        return {"lines": []}
    return {"lines": room.last_lines(seat, WHOLE_LOG_LINES)}


@router.post("/games/{code}/again", status_code=201)
async def play_again(request: Request, code: Code, body: Seated, hub: Limited) -> dict[str, Any]:
    """A new game with the same seats, once this one is over; the same one to everyone who asks."""
    entry = hub.entry(code)
    hub.seat(entry, body.token)
    if entry.table.status != OVER:
        raise LobbyError(409, "the game is not over yet")
    async with entry.lock:
        if entry.table.again is None:
            await _new_table(hub, entry, address_of(request))
    hub._told(entry)
    return entry.table.public()


async def _new_table(hub: Hub, entry: Entry, address: str) -> None:
    """The new table, saved, and the old one naming it (under the old entry's lock)."""
    old = entry.table
    hub._check_room_for(address, bot_heavy=old.bot_heavy)
    code = new_code()
    while code in hub.entries:
        code = new_code()
    seats = [replace(slot, ready=False) for slot in old.seats]
    table = Table(code, old.sets, old.response_seconds, seats, options=old.options)
    await hub._saving(hub.db.save, table)
    hub.entries[code] = Entry(table, owner=address, touched=hub.loop.time())
    named = old.copy()
    named.again = code
    entry.table = named
