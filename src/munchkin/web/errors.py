"""What a client is told when the server fails: a plain sentence and an error id, never the
detail (a database path, an exception's text, a decision number), which goes to the server
log under the same id so that an operator can find it from a player's report."""

from __future__ import annotations

import logging
import secrets

log = logging.getLogger("munchkin.web")


def incident(what: str, detail: object) -> str:
    """Log `what` happened with its `detail` under a new error id; the id (8 hex digits)."""
    error_id = secrets.token_hex(4)
    log.error("error %s: %s: %s", error_id, what, detail)
    return error_id


def told(sentence: str, error_id: str) -> str:
    """The sentence a client gets, naming the error id."""
    return f"{sentence} (error {error_id})"


CLOSE_REASON_BYTES = 123
"""A WebSocket close reason is at most 123 bytes of UTF-8 (RFC 6455, 5.5)."""


def close_reason(text: str) -> str:
    """`text` cut to fit a close frame, never in the middle of a character."""
    data = text.encode()
    if len(data) <= CLOSE_REASON_BYTES:
        return text
    return data[: CLOSE_REASON_BYTES - 3].decode(errors="ignore") + "..."
