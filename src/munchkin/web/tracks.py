"""What each audience of an online game (a seat, or the spectators) sees: its `Track`.

A room brings a track up to date after each job for the seats the game waits for (and the
one who just decided), and for the others only when their connection is about to be told:
building views nobody is sent would cost more than the decisions themselves. A connection
numbers the views it is sent itself (`seq`, in `ws`): the game's own count of decisions
would tell a player that a bystander was asked (they held a card to respond with) even when
nothing they can see changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from munchkin.engine.actions import Action
from munchkin.session import Session
from munchkin.web.assist import groups, public_advice, seat_advice
from munchkin.web.protocol import public_view
from munchkin.words.actions import describe
from munchkin.words.prompts import prompt_kind
from munchkin.words.situation import situation
from munchkin.words.standings import winners_text


@dataclass(frozen=True)
class Track:
    """What one audience (a seat; None: the spectators) sees now, and how often it changed."""

    seq: int
    data: dict[str, Any]
    legal: list[Action]
    changed_at: float
    """Loop time of the last change (a response window runs from there)."""
    situation: str = ""
    labels: list[str] | None = None
    """The legal actions in words; None until worked out (`finish_track`)."""
    advice: dict[str, Any] | None = None
    """`assist.seat_advice` (the spectators': `public_advice`), as the view was seen."""
    groups: list[str] | None = None
    """The kind of each legal action, with the labels."""


def next_track(session: Session, seat: str | None, track: Track | None, now: float) -> Track | None:
    """`seat`'s track after a change of the game: a new one if what it sees changed, else None."""
    if seat is None:
        seen = session.view(session.seats[0].name)
        data, legal = public_view(seen.data), []
    else:
        seen = session.view(seat)
        data, legal = seen.data, seen.legal
    if track is not None and track.data == data and track.legal == legal:
        return None
    advice = public_advice(seen) if seat is None else seat_advice(seen, session.names)
    if track is None:
        return Track(1, data, legal, now, advice=advice)
    labels = track.labels if track.legal == legal else None
    kinds = track.groups if track.legal == legal else None
    return Track(track.seq + 1, data, legal, now, track.situation, labels, advice, kinds)


def finish_track(
    track: Track, before: Track | None, names: Mapping[str, str], types: Mapping[str, str]
) -> Track:
    """The track with its situation and the labels of its actions worked out, if new; `names`
    and `types` are the game's player names and card types by id."""
    if before is not None and track is before:
        return track
    if track.data.get("player") is None:  # the spectators'
        winners, active = track.data["winners"], track.data["active"]
        text = f"Game over: {winners_text(winners)}." if winners else f"{active}'s turn."
        return replace(track, situation=text, labels=[])
    view = {**track.data, "legal": track.legal}
    text = situation(view, names, track.advice).replace(" (Enter)", "")  # the terminal's key
    labels, kinds, player = track.labels, track.groups, track.data["player"]
    if labels is None:
        kind = prompt_kind(view)
        labels = [describe(action, names, player, kind) for action in track.legal]
    if kinds is None:
        kinds = groups(track.legal, player, types)
    return replace(track, situation=text, labels=labels, groups=kinds)
