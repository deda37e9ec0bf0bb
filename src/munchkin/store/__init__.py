"""Saved games: a database of game setups and their decisions (see `store.store`)."""

from munchkin.store.errors import MissingDatabase, StoreError
from munchkin.store.models import FORMAT_VERSION, Decision, GameInfo, Progress, SavedGame, Seat, Setup
from munchkin.store.opening import default_url
from munchkin.store.replay import replay, verify
from munchkin.store.store import Store

__all__ = [
    "FORMAT_VERSION",
    "Decision",
    "GameInfo",
    "MissingDatabase",
    "Progress",
    "SavedGame",
    "Seat",
    "Setup",
    "Store",
    "StoreError",
    "default_url",
    "replay",
    "verify",
]
