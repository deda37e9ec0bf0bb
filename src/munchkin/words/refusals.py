"""The engine's refusals in player words: no field names, verbs or card ids, and a play
that waits for an open decision says which."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from munchkin.words.names import namer
from munchkin.words.situation import pending_noun

ENGINE_WORDS = {
    "name it with on:": "it is played on that card",
    "name them with target:": "it is played on one of them",
}
"""Whole phrases of the engine's refusals, in player words (before `ENGINE_PATTERNS`)."""
ENGINE_PATTERNS = (
    (re.compile(r"name (.+?) with (?:on|target|cards):"), r"it is played on \1"),
    (re.compile(r"\b([a-z]+(?:_[a-z]+)+)\b"), None),
)
"""The engine's words for what an action names (`on:`, `target:`, `cards:`), and its verbs
(`look_for_trouble`), as a player says them."""
OPEN_DECISION = "wait: another decision is open"
"""The engine's refusal of a play while a question, an offer or a request is open (B4)."""


JUST_HAPPENED = "what just happened"
"""The engine's words for a pending roll or curse, in a refusal of a play that does not answer
it (B16): named from the view (`pending_noun`)."""


def open_decision(data: Mapping[str, Any] | None) -> str:
    """What a play waits for, in player words, from the player's view (`data`; None: not at
    hand): "first answer Bob's trade offer", "wait for Cid to answer their question"."""
    if data is None:
        return "wait for the open question to be answered"
    me, prompt, offer, combat = data["player"], data.get("prompt"), data.get("offer"), data.get("combat")
    if prompt is not None:
        asked = prompt["player"]
        return (
            "first answer the question open to you"
            if asked == me
            else f"wait for {asked} to answer their question"
        )
    if offer is not None:
        if offer["to"] == me:
            return f"first answer {offer['from']}'s trade offer"
        whose = "your" if offer["from"] == me else f"{offer['from']}'s"
        return f"wait for {offer['to']} to answer {whose} trade offer"
    if combat is not None and combat.get("asked"):
        if combat["asked"] == me:
            return f"first answer {combat['fighter']}'s request for help"
        return f"wait for {combat['asked']} to answer {combat['fighter']}'s request for help"
    return open_decision(None)


def player_words(message: str, names: Mapping[str, str], data: Mapping[str, Any] | None = None) -> str:
    """A refusal of the engine ("name a monster of the fight with on:") in player words
    ("it is played on a monster of the fight"): no field names, verbs or card ids. With the
    player's view (`data`), a play that waits for an open decision says which (B4)."""
    message = message.replace(OPEN_DECISION, open_decision(data))
    pending = (data or {}).get("pending")
    if pending is not None and data is not None:
        message = message.replace(JUST_HAPPENED, pending_noun(pending, namer(names), data["player"]))
    for engine, words in ENGINE_WORDS.items():
        message = message.replace(engine, words)
    for pattern, replacement in ENGINE_PATTERNS:
        message = pattern.sub(replacement or (lambda m: m.group(1).replace("_", " ")), message)
    return re.sub(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b", lambda m: names.get(m.group(), m.group()), message)
