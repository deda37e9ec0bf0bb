"""Lobby tables: the seats of a game before and while it is played, and who holds them.

A table has human seats (the creator holds the first) and bot seats. Humans join
with a name and get a secret seat token, of which the table keeps only the hash.
The creator (the host) starts the game once every human seat is taken and ready, and may
free a seat before that (a player who never gets ready cannot hold the game up for good).

Two names at one table may not look alike: they are compared by `name_key`, after NFKC
normalisation (the full-width form of "Host" is "Host"), case folding, and a skeleton that
maps letters of other scripts that look like Latin ones to those ("Host" spelt with a
Cyrillic o is "Host").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.match import NAMES, SEXES
from munchkin.session import HUMAN, Seat

OPEN, PLAYING, OVER = "open", "playing", "over"
STATUSES = (OPEN, PLAYING, OVER)

LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones (after case folding: the small letters)
        "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "e", "\u04bb": "h", "\u0456": "i",
        "\u0457": "i", "\u0458": "j", "\u043a": "k", "\u04cf": "l", "\u043c": "m", "\u043d": "h",
        "\u043e": "o", "\u0440": "p", "\u051b": "q", "\u0441": "c", "\u0455": "s", "\u0442": "t",
        "\u0443": "y", "\u051d": "w", "\u0445": "x", "\u0501": "d", "\u0261": "g", "\u04af": "y",
        "\u0475": "v",
        # Greek ones
        "\u03b1": "a", "\u03b2": "b", "\u03b5": "e", "\u03b7": "n", "\u03b9": "i", "\u03ba": "k",
        "\u03bd": "v", "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03c7": "x",
        "\u03f2": "c", "\u03c9": "w", "\u03bc": "u",
        # Latin letters and digits drawn alike
        "\u0131": "i", "\u0142": "l", "0": "o", "1": "l", "5": "s",
    }
)  # fmt: skip
"""A small table of confusables for `name_key`, in place of Unicode's full one (UTS #39): no
maintained library that computes the UTS #39 skeleton could be pinned here. It covers the
letters of the Cyrillic and Greek alphabets that are drawn like Latin letters (after NFKC
and case folding), and the digits that pass for letters; other scripts compare as they are."""
SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))
"""Pairs of letters that pass for one."""


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, marks dropped, look-alikes mapped."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    key = " ".join(bare.translate(LOOK_ALIKES).split())
    for pair, one in SEQUENCES:
        key = key.replace(pair, one)
    return key


class LobbyError(Exception):
    """A lobby request that cannot be granted: an HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str, error_id: str | None = None) -> None:
        super().__init__(message)
        self.status, self.error_id = status, error_id


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
    again: str | None = None
    """The code of the game its players went on to play once it was over (`player_api`)."""

    def seat_of(self, token_hash: str) -> int | None:
        """The seat the token holds, if any."""
        return next((i for i, s in enumerate(self.seats) if s.token_hash == token_hash), None)

    def copy(self) -> Table:
        """A copy to change: the table itself changes only once the copy is saved."""
        return replace(self, seats=[replace(slot) for slot in self.seats])

    def join(self, name: str, sex: str, token_hash: str) -> int:
        """Take the first free human seat; its index."""
        if self.status != OPEN:
            raise LobbyError(409, "this game has already started")
        taken = {name_key(s.name) for s in self.seats if s.name}
        if name_key(name) in taken:
            raise LobbyError(409, f"the name {name!r} is taken at this table (or one that looks like it)")
        free = next((i for i, s in enumerate(self.seats) if s.human and s.token_hash is None), None)
        if free is None:
            raise LobbyError(409, "every seat at this table is taken")
        self.seats[free] = SeatSlot(HUMAN, name, sex, token_hash)
        return free

    def free(self, host: int, index: int) -> None:
        """The host (seat 0) gives seat `index` up for someone else, before the start."""
        if self.status != OPEN:
            raise LobbyError(409, "this game has already started")
        if host != 0:
            raise LobbyError(403, "only the player who created the game frees seats")
        if not 0 < index < len(self.seats) or not self.seats[index].human:
            raise LobbyError(422, "seat: choose another player's human seat")
        if self.seats[index].token_hash is None:
            raise LobbyError(409, "this seat is free already")
        self.seats[index] = SeatSlot(HUMAN)

    def check_close(self, host: int) -> None:
        """The host (seat 0) may close the table before the start, for good."""
        if self.status != OPEN:
            raise LobbyError(409, "this game has already started")
        if host != 0:
            raise LobbyError(403, "only the player who created the game closes it")

    @property
    def bot_heavy(self) -> bool:
        """At least as many bot seats as human ones."""
        bots = sum(not s.human for s in self.seats)
        return bots >= len(self.seats) - bots

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
        taken = {name_key(s.name) for s in self.seats if s.name}
        free = iter([(n, x) for n, x in zip(NAMES, SEXES, strict=True) if name_key(n) not in taken])
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
            **({"again": self.again} if self.again else {}),
            "seats": [
                {"kind": s.kind, "name": s.name, "sex": s.sex, "ready": s.ready, "taken": bool(s.token_hash)}
                for s in self.seats
            ],
        }
