"""The lobby over HTTP: create a game, look at it, join, get ready, start; the card data."""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator

from munchkin.cards.loader import builtin_set_names
from munchkin.cardtext import details
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.session import BOT_KINDS
from munchkin.store.store import load_cards
from munchkin.web.guard import address_key
from munchkin.web.hub import Granted, Hub
from munchkin.web.lobby import LobbyError
from munchkin.web.protocol import Token
from munchkin.web.tokens import CODE_PATTERN

NAME_PATTERN = r"^[^\W_][\w .'-]{0,23}$"
"""A player's name: 1 to 24 letters, digits, spaces and .'- (starting with a letter or digit)."""
CARD_FIELDS = {
    "id",
    "name",
    "deck",
    "type",
    "text",
    "bonus",
    "value",
    "slot",
    "big",
    "level",
    "treasures",
    "levels",
    "run_away",
    "undead",
    "hands",
    "sex",
}
"""Card data the client draws faces from: printed on the card, so public."""

Name = Annotated[str, StringConstraints(strip_whitespace=True, pattern=NAME_PATTERN)]
Sex = Literal["female", "male"]
SetName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,32}$")]


def _known_bot(kind: str) -> str:
    if kind not in BOT_KINDS:
        raise ValueError(f"choose among {', '.join(BOT_KINDS)}")
    return kind


BotKind = Annotated[str, AfterValidator(_known_bot)]
"""A bot seat: `bot:KIND`, a level (`bot:easy`, `bot:medium`, `bot:hard`) or a kind."""
Code = Annotated[str, Path(pattern=CODE_PATTERN)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(_Body):
    name: Name
    sex: Sex = "female"
    sets: list[SetName] = Field(default=["base"], min_length=1, max_length=4)
    seats: int = Field(default=4, ge=2, le=6)
    bots: list[BotKind] = Field(default=[], max_length=5)
    response_seconds: float | None = Field(default=None, ge=0, le=300)
    options: dict[str, Any] = Field(default={}, max_length=32)
    """Table options by name (checked by the engine's `parse_options`: a bad one is refused
    naming it)."""

    @field_validator("sets")
    @classmethod
    def _known_sets(cls, sets: list[str]) -> list[str]:
        unknown = sorted(set(sets) - set(builtin_set_names()))
        if unknown or len(set(sets)) != len(sets):
            raise ValueError(f"choose distinct sets among {', '.join(builtin_set_names())}")
        return sets


class JoinGame(_Body):
    name: Name
    sex: Sex = "female"


class Ready(_Body):
    token: Token
    ready: bool = True


class Start(_Body):
    token: Token


class Free(_Body):
    token: Token
    seat: int = Field(ge=0, le=5)


async def hub_of(request: Request) -> Hub:
    """The server's games (`async`, as every dependency here: FastAPI would run a plain
    function in a worker thread, for work that never waits)."""
    hub: Hub = request.app.state.hub
    return hub


def address_of(request: Request) -> str:
    """The client's address as limits count it (the one a trusted proxy forwards)."""
    return address_key(request.client.host) if request.client else "?"


async def limited(request: Request, hub: Annotated[Hub, Depends(hub_of)]) -> Hub:
    """The hub, if this address has not made too many lobby requests lately."""
    if not hub.requests.take(address_of(request)):
        raise LobbyError(429, "too many requests: slow down")
    return hub


async def looking_up(request: Request, hub: Annotated[Hub, Depends(hub_of)]) -> Hub:
    """The hub, if this address has not looked up too many games by their codes lately."""
    if not hub.lookups.take(address_of(request)):
        raise LobbyError(429, "too many game lookups: slow down")
    return hub


Limited = Annotated[Hub, Depends(limited)]
LookingUp = Annotated[Hub, Depends(looking_up)]
router = APIRouter(prefix="/api")


def _granted(seat: Granted) -> dict[str, Any]:
    return seat._asdict()


@router.get("/options")
async def options() -> dict[str, Any]:
    """What a new game may be made of, the table options with their descriptions included."""
    return {
        "sets": builtin_set_names(),
        "bots": list(BOT_KINDS),
        "seats": [2, 6],
        "table_options": _table_options(),
    }


@functools.cache
def _table_options() -> list[dict[str, Any]]:
    """Each table option for the create-game form: name, description, default, and what it
    takes (numbers from minimum to maximum, true/false, or one of its choices)."""
    schemas = TableOptions.model_json_schema()["properties"]
    out = []
    for name, field in TableOptions.model_fields.items():
        schema = schemas[name]
        entry: dict[str, Any] = {
            "name": name,
            "description": field.description,
            "default": getattr(DEFAULT_OPTIONS, name),
            "type": "choice" if "enum" in schema else schema["type"],
        }
        if "enum" in schema:
            entry["choices"] = schema["enum"]
        if schema["type"] == "integer":
            entry["minimum"], entry["maximum"] = schema["minimum"], schema["maximum"]
        out.append(entry)
    return out


@router.post("/games", status_code=201)
async def create(request: Request, body: CreateGame, hub: Limited) -> dict[str, Any]:
    """A new game; you hold its first seat."""
    granted = await hub.create(
        address_of(request),
        body.name,
        body.sex,
        body.sets,
        body.seats,
        body.bots,
        body.response_seconds,
        body.options,
    )
    return _granted(granted)


@router.get("/games/{code}")
async def table(code: Code, hub: LookingUp) -> dict[str, Any]:
    """A game's lobby table: its seats, who is ready, whether it started."""
    return hub.entry(code).table.public()


@router.post("/games/{code}/join", status_code=201)
async def join(code: Code, body: JoinGame, hub: Limited) -> dict[str, Any]:
    """Take a free seat; keep the token, it is your seat."""
    return _granted(await hub.join(code, body.name, body.sex))


@router.post("/games/{code}/ready")
async def ready(code: Code, body: Ready, hub: Limited) -> dict[str, Any]:
    await hub.ready(code, body.token, body.ready)
    return hub.entry(code).table.public()


@router.post("/games/{code}/free")
async def free(code: Code, body: Free, hub: Limited) -> dict[str, Any]:
    """The creator gives a seat up for someone else, before the start (its token holds no seat now)."""
    await hub.free(code, body.token, body.seat)
    return hub.entry(code).table.public()


@router.post("/games/{code}/close")
async def close(code: Code, body: Start, hub: Limited) -> dict[str, Any]:
    """The creator closes the game before the start: it is gone for everyone."""
    await hub.close_table(code, body.token)
    return {"code": code.upper(), "closed": True}


@router.post("/games/{code}/start")
async def start(code: Code, body: Start, hub: Limited) -> dict[str, Any]:
    """The creator starts the game once every seat is taken and everyone is ready."""
    await hub.start(code, body.token)
    return hub.entry(code).table.public()


@router.get("/cards")
async def cards(sets: Annotated[str, Query(max_length=100, pattern=r"^[a-z0-9,-]+$")] = "base") -> list[Any]:
    """The cards of the named sets as the client draws them (card data, no game state)."""
    names = tuple(sorted(set(sets.split(",")) & set(builtin_set_names())))
    if not names:
        raise LobbyError(404, f"no such card sets: {sets}")
    return _card_faces(names)


@functools.cache
def _card_faces(sets: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{**card.model_dump(include=CARD_FIELDS), "details": details(card)} for card in load_cards(sets)]
