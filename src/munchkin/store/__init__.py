"""Saved games: a database of game setups and their decisions (see `store.store`)."""

from munchkin.store.models import FORMAT_VERSION, Decision, GameInfo, Progress, SavedGame, Seat, Setup
from munchkin.store.store import MissingDatabase, Store, StoreError, default_url, replay, verify

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
