"""What the room tells a seat besides its view, to help a person decide (issue 13): the
advice (`munchkin.advice`: why a card of the hand cannot be played now, warnings before a
costly play, the fight's verdict and escape chances), the kind of each legal action (for
grouped menus), the end of the game as standings, and what a stand-in bot did for a seat.

Everything comes from the player's own `PlayerView` (or, for spectators, what is public), so
nothing here tells a player more than their view holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.views import PlayerView
from munchkin.words.fight import verdict
from munchkin.words.menus import group_of
from munchkin.words.refusals import player_words
from munchkin.words.standings import standings


def seat_advice(view: PlayerView, names: Mapping[str, str]) -> dict[str, Any]:
    """A seat's advice, the fight's verdict in words for that seat, and why a card cannot be
    played now in player words (what it waits for, from the seat's view)."""
    advice = dict(view.advice)
    advice["why_not"] = {
        card: {**why, "message": player_words(why["message"], names, view.data)}
        for card, why in advice.get("why_not", {}).items()
    }
    if advice.get("combat"):
        advice["combat"] = {**advice["combat"], "verdict": verdict(advice["combat"], view.player)}
    return advice


def public_advice(view: PlayerView) -> dict[str, Any]:
    """What spectators are told of the fight (its verdict and chances: all face up)."""
    combat = view.advice.get("combat")
    return {"combat": None if not combat else {**combat, "verdict": verdict(combat, None)}}


def groups(legal: Sequence[Action], seat: str, types: Mapping[str, str]) -> list[str]:
    """The kind of each legal action (`words.menus.GROUPS`), in the order of `legal`."""
    return [group_of(action, seat, types) for action in legal]


def end_of_game(
    data: Mapping[str, Any], history: Sequence[Event], names: Mapping[str, str]
) -> dict[str, Any]:
    """The standings once the game is over (the same for everyone: all of it is public)."""
    return standings(data, history, names)
