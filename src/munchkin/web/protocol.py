"""The WebSocket protocol: what a client may send (checked with pydantic) and what it is sent.

Client to server, one JSON object per text message of at most `max_message_bytes`:

- `{"type": "hello", "token": TOKEN | null}`: the first message; take your seat, or
  watch (null).
- `{"type": "act", "token": TOKEN, "action": ACTION, "player": NAME?, "seq": N?, "ref": N?}`:
  ACTION is `action_to_dict`'s plain data; `player`, if given, must be the token's
  seat; with `seq` (the last one received) the action is refused (`stale`) once the
  player's view has changed since, so that a click never lands in a later window; `ref`
  comes back in the refusal, or as `acked` in the first game message that holds the action.

Server to client:

- `{"type": "welcome", "code", "seat": NAME | null}`
- `{"type": "lobby", "table": {...}}`: the lobby table, whenever it changes.
- `{"type": "game", "seq", "full", "view", "labels", "situation", "log", "deadline",
  "seats"}`: `seq` numbers the views this connection was sent (it goes up by one with
  each message whose view changed, and by nothing else: not with decisions it cannot see);
  `view` is `view(game, you).to_dict()` (a spectator's holds no hand and
  no actions), all of it when `full` (the first game message of a connection), else
  only its top-level keys that changed since the last game message;
  `labels` are the legal actions in words (sent with `view.legal`); `log` the new
  sentences; `deadline` the seconds left to answer out of turn, or null; `acked` the
  `ref` of this connection's last action taken.
- `{"type": "refused", "code", "message", "ref"}`: a message that was not acted on; the
  server's own failures (`code` "server") are a plain sentence naming an error id, the
  detail is in the server's log under that id; `too_many`: a seat's 200th move of a turn
  that could go on without end (equip, unequip, trade, ask for help: `room.FREE_MOVES`).

The server closes a connection with a code and a reason of at most 123 bytes: 1000 (the game
expired, left the lobby or was closed by its host), 1008 (a token that holds no seat, or a
seat the host freed: the reason names the token), 1009 (a message too large), 1011 (the
server failed, or the game cannot be resumed: with an error id), 1013 (try again later: too
many spectators or game lookups), 4404 (no such game), 4409 (the seat was opened in another tab).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from munchkin.engine.events import Event
from munchkin.text import sentence
from munchkin.views import PRIVATE_PROMPTS, event_for
from munchkin.web.tokens import TOKEN_PATTERN

Token = Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)]
PRIVATE_KEYS = frozenset({"player", "hand", "legal", "deciding", "run_away_modifier", "hand_limit"})
"""Keys of a player's view that are about that player alone: a spectator gets none of them."""
encode = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON text, as every message is sent."""

SHARED_FIELDS = frozenset({"view", "advice", "labels", "groups", "end"})
"""A game message's fields whose values (for `view`, each of its values) come from the room's
tracks, shared by several connections and messages: `Fragments` encodes each of them once."""
FRAGMENTS_KEPT = 4096


class Fragments:
    """Game messages as JSON text, exactly `encode(message)`, but with the values that several
    connections are sent (`SHARED_FIELDS`) encoded once each: by identity, as the room never
    changes a value it has sent. The loop's own: not for threads."""

    def __init__(self, kept: int = FRAGMENTS_KEPT) -> None:
        self.kept = kept
        self.known: dict[int, tuple[object, str]] = {}
        """JSON text by the identity of the value (kept with it, so that the identity is not
        reused); forgotten all at once beyond `kept`."""

    def message(self, message: Mapping[str, Any]) -> str:
        """`encode(message)`."""
        parts = []
        for key, value in message.items():
            if key == "view":
                text = "{" + ",".join(f"{encode(k)}:{self.value(v)}" for k, v in value.items()) + "}"
            else:
                text = self.value(value) if key in SHARED_FIELDS else encode(value)
            parts.append(f"{encode(key)}:{text}")
        return "{" + ",".join(parts) + "}"

    def value(self, value: object) -> str:
        """`encode(value)`, from the text kept for a list or dict encoded before."""
        if not isinstance(value, list | dict):
            return encode(value)
        known = self.known.get(id(value))
        if known is None or known[0] is not value:
            if len(self.known) >= self.kept:
                self.known.clear()
            known = self.known[id(value)] = (value, encode(value))
        return known[1]


class Refusal(Exception):
    """A client message not acted on: a short code and a one-line reason for the client."""

    def __init__(self, code: str, message: str, error_id: str | None = None) -> None:
        super().__init__(message)
        self.code, self.error_id = code, error_id

    def message(self, ref: int | None = None) -> dict[str, object]:
        out: dict[str, object] = {"type": "refused", "code": self.code, "message": str(self), "ref": ref}
        if self.error_id is not None:
            out["error_id"] = self.error_id
        return out


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Token | None = None


class Act(_Message):
    type: Literal["act"]
    token: Token
    action: dict[str, Any]
    player: str | None = Field(default=None, max_length=64)
    seq: int | None = Field(default=None, ge=0)
    ref: int | None = Field(default=None, ge=0, lt=2**53)


_INBOUND: TypeAdapter[Hello | Act] = TypeAdapter(Annotated[Hello | Act, Field(discriminator="type")])


def parse(text: str) -> Hello | Act:
    """A client message, or a `Refusal` naming the first thing wrong with it."""
    try:
        return _INBOUND.validate_json(text)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        if error["type"] == "json_invalid":
            raise Refusal("bad_json", "not a JSON object") from None
        where = ".".join(str(part) for part in error["loc"]) or "message"
        raise Refusal("bad_message", f"{where}: {error['msg']}") from None


def public_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """A player's view stripped of everything about that player: what a spectator sees."""
    out = {key: value for key, value in data.items() if key not in PRIVATE_KEYS}
    prompt = out.get("prompt")
    if prompt:
        private = prompt["kind"] in PRIVATE_PROMPTS
        out["prompt"] = {**prompt, "options": [], "about": None if private else prompt["about"]}
    return out


def tell(events: Iterable[Event], seat: str | None, names: Mapping[str, str]) -> list[str]:
    """The events as `seat` may see them (`event_for`; a spectator as nobody), as sentences."""
    who = seat or ""
    return [line for event in events if (line := sentence(event_for(event, who), names))]
