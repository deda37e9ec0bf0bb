"""A saved game played again: its starting position, its decisions checked by the engine,
and the fingerprints of the states saved with them."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence

from munchkin.cards.loader import CardLoadError, load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.game import Game, SetupError
from munchkin.store.errors import StoreError
from munchkin.store.models import PLAYING, WON, Decision, Progress, SavedGame, Setup

Hook = Callable[[Game, int, Decision], None]
"""Called with the game, the decision's number (from 1) and the decision."""


def state_fingerprint(game: Game) -> str:
    """The SHA-256 of the engine's canonical fingerprint."""
    return hashlib.sha256(game.fingerprint().encode()).hexdigest()


def progress_of(game: Game) -> Progress:
    """How `game` stands now."""
    status = WON if game.over else PLAYING
    return Progress(status, tuple(game.winners), game.state.turn, state_fingerprint(game))


@functools.cache
def load_cards(sets: tuple[str, ...]) -> tuple[CardDef, ...]:
    """The cards of the named built-in sets (loaded once)."""
    return tuple(load_builtin_sets(sets))


def new_game(setup: Setup) -> Game:
    """The starting position by the setup's table options; CardLoadError or SetupError if the
    setup cannot start a game."""
    seats = [(seat.name, seat.sex) for seat in setup.seats]
    return Game.new(load_cards(setup.sets), seats, setup.seed, setup.options)


def replay(
    setup: Setup,
    decisions: Sequence[Decision],
    where: str,
    before: Hook | None = None,
    after: Hook | None = None,
) -> tuple[Game, list[Event]]:
    """The game again from its setup, each decision checked by the engine; its events.
    `before` runs once a decision is found legal, `after` once it is applied."""
    try:
        game = new_game(setup)
    except (CardLoadError, SetupError) as exc:
        raise StoreError(f"{where}: {exc}") from None
    events: list[Event] = []
    for number, decision in enumerate(decisions, 1):
        try:
            game.check(decision.player, decision.action)
        except RulesError as exc:
            raise StoreError(
                f"{where}, decision {number}: {decision.player} {decision.action}: {exc}"
            ) from None
        if before:
            before(game, number, decision)
        events += game.apply(decision.player, decision.action)
        if after:
            after(game, number, decision)
    return game, events


def fingerprint_check(where: str) -> Hook:
    """An `after` hook for `replay`: refuse the first decision whose replayed state is not the
    one saved with it (a `StoreError` naming it)."""

    def check(game: Game, number: int, decision: Decision) -> None:
        if state_fingerprint(game) != decision.fingerprint:
            raise StoreError(f"{where}, decision {number}: the replayed state is not the saved one")

    return check


def verify(saved: SavedGame) -> tuple[Game, list[Event]]:
    """`replay`, checking the state after every decision and at the end against the saved
    fingerprints; a `StoreError` names the first decision where they differ."""
    game, events = replay(
        saved.info.setup, saved.decisions, saved.where, after=fingerprint_check(saved.where)
    )
    check_final(saved, game)
    return game, events


def check_final(saved: SavedGame, game: Game) -> None:
    """Refuse a replayed game whose state is not the one saved after the last decision, or
    whose status, winners or turn are not the game row's (a `StoreError` naming the column)."""
    row, replayed = saved.info.progress, progress_of(game)
    if replayed.fingerprint != row.fingerprint:
        raise StoreError(f"{saved.where}: the replayed state is not the one saved after the last decision")
    for column, says, replay_says in (
        ("status", row.status, replayed.status),
        ("winners", _names(row.winners), _names(replayed.winners)),
        ("turn", str(row.turn), str(replayed.turn)),
    ):
        if says != replay_says:
            raise StoreError(
                f"{saved.where}: {column}: the game row says {says}, the replay says {replay_says}"
            )


def _names(names: Sequence[str]) -> str:
    """Players' names as a message tells them: `Ann, Bob`, or `none`."""
    return ", ".join(names) or "none"
