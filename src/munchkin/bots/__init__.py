"""Bots: they receive a player's view, never the game state, and pick a legal action."""

from __future__ import annotations

from typing import Protocol

from munchkin.engine.actions import Action
from munchkin.views import PlayerView


class Bot(Protocol):
    """Anything that picks one of the view's legal actions."""

    def choose(self, view: PlayerView) -> Action: ...
