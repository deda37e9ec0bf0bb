"""Lobby tables: the seats of a game before and while it is played, and who holds them.

A table has human seats (the creator holds the first) and bot seats. Humans join
with a name and get a secret seat token, of which the table keeps only the hash.
The creator (the host) starts the game once every human seat is taken and ready.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.match import NAMES, SEXES
from munchkin.session import HUMAN, Seat

OPEN, PLAYING, OVER = "open", "playing", "over"


class LobbyError(Exception):
    """A lobby request that cannot be granted: an HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class SeatSlot:
    """One seat: a human's (empty until someone joins) or a bot's."""

    kind: str
    name: str | None = None
    sex: str = "female"
    token_hash: str | None = None
    ready: bool = False

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


@dataclass
class Table:
    """A game in the lobby, in play or over."""

    code: str
    sets: tuple[str, ...]
    response_seconds: float
    seats: list[SeatSlot]
    status: str = OPEN
    game_id: int | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    options: TableOptions = DEFAULT_OPTIONS
    """The rule options the game is played by (B2, B1...), chosen by its creator."""

    def seat_of(self, token_hash: str) -> int | None:
        """The seat the token holds, if any."""
        return next((i for i, s in enumerate(self.seats) if s.token_hash == token_hash), None)

    def join(self, name: str, sex: str, token_hash: str) -> int:
        """Take the first free human seat; its index."""
        if self.status != OPEN:
            raise LobbyError(409, "this game has already started")
        taken = {s.name.casefold() for s in self.seats if s.name}
        if name.casefold() in taken:
            raise LobbyError(409, f"the name {name!r} is taken at this table")
        free = next((i for i, s in enumerate(self.seats) if s.human and s.token_hash is None), None)
        if free is None:
            raise LobbyError(409, "every seat at this table is taken")
        self.seats[free] = SeatSlot(HUMAN, name, sex, token_hash)
        return free

    def set_ready(self, index: int, ready: bool) -> None:
        if self.status != OPEN:
            raise LobbyError(409, "this game has already started")
        self.seats[index].ready = ready

    def start_problem(self, index: int) -> str | None:
        """Why the holder of seat `index` may not start the game now, or None."""
        if self.status != OPEN:
            return "this game has already started"
        if index != 0:
            return "only the player who created the game starts it"
        humans = [s for s in self.seats if s.human]
        if any(s.token_hash is None for s in humans):
            return "a seat is still free: share the link"
        if not all(s.ready for s in humans):
            return "not everyone is ready"
        return None

    def game_seats(self) -> list[Seat]:
        """The seats in turn order, bots named after the names the humans left free."""
        taken = {s.name.casefold() for s in self.seats if s.name}
        free = iter([(n, x) for n, x in zip(NAMES, SEXES, strict=True) if n.casefold() not in taken])
        seats = []
        for slot in self.seats:
            if slot.name is None:
                slot.name, slot.sex = next(free)
            seats.append(Seat(slot.name, slot.sex, slot.kind))
        return seats

    def public(self) -> dict[str, Any]:
        """What anyone with the code may see: no token, not even its hash."""
        return {
            "code": self.code,
            "sets": list(self.sets),
            "response_seconds": self.response_seconds,
            "options": self.options.changed(),
            "status": self.status,
            "seats": [
                {"kind": s.kind, "name": s.name, "sex": s.sex, "ready": s.ready, "taken": bool(s.token_hash)}
                for s in self.seats
            ],
        }
