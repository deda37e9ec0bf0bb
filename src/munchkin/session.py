"""A game being played: seats of humans and bots, saved after every decision, with undo.

A session is the setup (seats, card sets, seed, table options) and the list of decisions so far;
the game is what the engine makes of them. Bots decide through their own player's
view, each from a seeded source derived from the game seed and its seat; resuming
replays the saved decisions and asks each bot again at its own decisions (the
answer is not used, the saved decision is), so a resumed game goes on exactly as
it would have without the interruption. Search bots (`hard`) are not asked again: they
would think anew for every decision replayed, and thinking bounded by time does not replay.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from munchkin.bots import Bot
from munchkin.bots.registry import SEAT_KINDS, Thinking, bot_of_seat
from munchkin.cards.loader import CardLoadError
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game, SetupError
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.store.errors import StoreError
from munchkin.store.models import Decision, Seat, Setup, seats_problem, valid_seed
from munchkin.store.replay import (
    check_final,
    fingerprint_check,
    load_cards,
    new_game,
    progress_of,
    replay,
    verify,
)
from munchkin.store.store import Store
from munchkin.text import sentence
from munchkin.views import PlayerView, public_part, view

__all__ = ["BOT_KINDS", "HUMAN", "Seat", "Session", "SessionError", "bot_seed"]

HUMAN = "human"


BOT_KINDS = SEAT_KINDS
"""Seat kinds played by bots (`bot:KIND`, from `munchkin.bots.registry`)."""
BotMaker = Callable[[str, int, Sequence[CardDef]], Bot]
"""Makes the bot of a seat from its kind (in `BOT_KINDS`), its seed and the game's cards."""


def make_seat_bot(seat_kind: str, seed: int, cards: Sequence[CardDef]) -> Bot:
    """The bot of a seat of kind `seat_kind`, at its kind's own budget if it searches."""
    found = bot_of_seat(seat_kind)
    if found is None:
        raise SessionError(f"unknown kind {seat_kind!r} (known: {', '.join([HUMAN, *BOT_KINDS])})")
    return found.make(seed, cards, Thinking())


def searches(seat_kind: str) -> bool:
    """Whether the bot of a seat of this kind thinks for a budget (a search bot)."""
    found = bot_of_seat(seat_kind)
    return found is not None and found.searches


class SessionError(Exception):
    """A session cannot do what was asked; `str()` is one line."""


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in a game seeded `seed`."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{seat}".encode()).digest()[:8], "big")


@dataclass
class _Run:
    """The game the decisions lead to, its events, and the bots in step with it."""

    game: Game
    events: list[Event]
    bots: dict[str, Bot]
    decisions: list[Decision]
    public: dict[str, Any] | None = None
    """What every player sees alike now (`views.public_part`), once built: shared by the views
    of this moment."""
    earlier: dict[str, Any] | None = None
    """The public part last built before it, whose unchanged values the next one reuses."""

    def public_part(self) -> dict[str, Any]:
        """The public part of the views of this moment, built once."""
        if self.public is None:
            self.public = public_part(self.game, self.earlier)
        return self.public

    def moved(self) -> None:
        """The game moved on: the public part is built anew (from the last one) when asked."""
        if self.public is not None:
            self.earlier, self.public = self.public, None


class Session:
    """A game at a table of humans and bots, saved after every decision if given a store."""

    def __init__(
        self,
        setup: Setup,
        decisions: Sequence[Decision],
        store: Store | None,
        game_id: int | None,
        check: bool = False,
        make_bot: BotMaker = make_seat_bot,
    ) -> None:
        self.setup = setup
        self.make_bot = make_bot
        self.seats, self.sets, self.seed = setup.seats, setup.sets, setup.seed
        self.store, self.game_id = store, game_id
        self._run = self._replayed(decisions, check)
        self.names = {card.id: card.name for card in load_cards(setup.sets)}

    @classmethod
    def start(
        cls,
        seats: Sequence[Seat],
        sets: Sequence[str],
        seed: int,
        store: Store | None = None,
        options: TableOptions = DEFAULT_OPTIONS,
        make_bot: BotMaker = make_seat_bot,
    ) -> Session:
        """A new game by the table's `options`; saved at once (and after every decision) when
        `store` is given. `make_bot` makes the bots of its seats (the web server's think apart)."""
        setup = Setup(tuple(sets), seed, tuple(seats), datetime.now(UTC), options=options)
        _check_setup(setup)
        session = cls(setup, (), None, None, make_bot=make_bot)
        if store is not None:
            session.store, session.game_id = store, store.create(setup, progress_of(session._run.game))
        return session

    @classmethod
    def resume(cls, game_id: int, store: Store, make_bot: BotMaker = make_seat_bot) -> Session:
        """A saved game, replayed from its seed and decisions, the state after every decision
        checked against the one saved with it, and the last against the game row."""
        saved = store.load(game_id)
        try:
            session = cls(saved.info.setup, saved.decisions, store, game_id, check=True, make_bot=make_bot)
            check_final(saved, session._run.game)
        except StoreError:
            verify(saved)  # names the first decision whose state differs, if one does
            raise
        return session

    # -- what the table sees -------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self._run.game.over

    @property
    def winners(self) -> list[str]:
        """Everyone who won: several when one fight took them to the win level together (B2)."""
        return self._run.game.winners

    @property
    def winner(self) -> str | None:
        """The first winner, or None."""
        return self._run.game.winner

    @property
    def options(self) -> TableOptions:
        """The table's rule options, saved with the game."""
        return self.setup.options

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(self._run.decisions)

    @property
    def decision_count(self) -> int:
        """How many decisions were made so far (`len(decisions)` without copying them)."""
        return len(self._run.decisions)

    def fingerprint(self) -> str:
        """The engine's canonical fingerprint of the whole state."""
        return self._run.game.fingerprint()

    def view(self, player: str) -> PlayerView:
        """What `player` may see and do now."""
        return view(self._run.game, player, self._run.public_part)

    def waiting_humans(self) -> list[str]:
        """Human players whose decision holds the game up now."""
        return [p for p in self._run.game.waiting_for() if p not in self._run.bots]

    def bots_asked(self) -> bool:
        """Whether a bot's decision holds the game up now."""
        return any(p in self._run.bots for p in self._run.game.waiting_for())

    def log(self) -> list[str]:
        """Everything that happened since the cards were dealt, as sentences."""
        return [line for event in self._run.events if (line := sentence(event, self.names))]

    # -- deciding ------------------------------------------------------------------------

    def apply(self, player: str, action: Action) -> list[Event]:
        """A human's decision: the engine checks it (RulesError changes nothing), the store saves it."""
        if player in self._run.bots:
            raise SessionError(f"{player} is a bot: bots decide in step_bots")
        return self._play(player, action)

    def step_bots(
        self, on_event: Callable[[Event], None] | None = None, limit: int | None = None
    ) -> list[Event]:
        """Bots decide, each through its own view, until a human must decide, the game is
        over, or `limit` decisions were made; the events, also passed to `on_event`."""
        played: list[Event] = []
        for _ in range(limit) if limit is not None else itertools.count():
            player = next((p for p in self._run.game.waiting_for() if p in self._run.bots), None)
            if player is None:
                break
            events = self._play(player, self._run.bots[player].choose(self.view(player)))
            if on_event:
                for event in events:
                    on_event(event)
            played += events
        return played

    def run_to_end(self, on_event: Callable[[Event], None] | None = None) -> list[Event]:
        """Play a game of bots only to its end."""
        humans = [seat.name for seat in self.seats if seat.kind == HUMAN]
        if humans:
            raise SessionError(f"run_to_end is for games of bots only; humans here: {', '.join(humans)}")
        return self.step_bots(on_event)

    def undo(self, player: str) -> int:
        """Go back to just before `player`'s previous decision, taking back every decision
        since (meant for local games); the number of decisions taken back."""
        if player in self._run.bots or player not in {seat.name for seat in self.seats}:
            raise SessionError(f"{player!r} is not a human player of this game")
        done = self._run.decisions
        last = next((i for i in range(len(done) - 1, -1, -1) if done[i].player == player), None)
        if last is None:
            raise SessionError(f"{player} has made no decision to undo")
        run = self._replayed(done[:last])
        if self.store is not None and self.game_id is not None:
            self.store.truncate(self.game_id, len(done), last, progress_of(run.game))
        self._run = run
        return len(done) - last

    # -- inside --------------------------------------------------------------------------

    def _play(self, player: str, action: Action) -> list[Event]:
        """Apply, record and save one decision; if saving fails, back to before it."""
        self._run.moved()  # before the engine: a refused decision only costs building it again
        events = self._run.game.apply(player, action)
        progress = progress_of(self._run.game)
        decision = Decision(player, action, progress.fingerprint)
        self._run.decisions.append(decision)
        self._run.events += events
        if self.store is not None and self.game_id is not None:
            try:
                self.store.append(self.game_id, len(self._run.decisions), decision, progress)
            except StoreError:
                self._run = self._replayed(self._run.decisions[:-1])
                raise
        return events

    def _replayed(self, decisions: Sequence[Decision], check: bool = False) -> _Run:
        """The game after `decisions`, with bots asked again at their own decisions; with
        `check`, the state after each decision compared with the fingerprint saved with it."""
        bots = self._bots()

        asked = {seat.name for seat in self.seats if not searches(seat.kind)}

        def ask_bot(game: Game, _number: int, decision: Decision) -> None:
            bot = bots.get(decision.player)
            if bot is not None and decision.player in asked:
                bot.choose(view(game, decision.player))

        after = fingerprint_check(self._where()) if check else None
        game, events = replay(self.setup, decisions, self._where(), before=ask_bot, after=after)
        return _Run(game, events, bots, list(decisions))

    def _bots(self) -> dict[str, Bot]:
        """A fresh bot for every bot seat."""
        try:
            cards = load_cards(self.sets)
            return {
                seat.name: _make_bot(self.make_bot, seat, bot_seed(self.seed, i), cards)
                for i, seat in enumerate(self.seats)
                if seat.kind != HUMAN
            }
        except (CardLoadError, SessionError) as exc:
            raise SessionError(f"{self._where()}: {exc}") from None

    def _where(self) -> str:
        return "new game" if self.store is None else f"{self.store.name}: game {self.game_id}"


def _make_bot(make: BotMaker, seat: Seat, seed: int, cards: Sequence[CardDef]) -> Bot:
    if seat.kind not in BOT_KINDS:
        known = ", ".join([HUMAN, *BOT_KINDS])
        raise SessionError(f"seat {seat.name}: unknown kind {seat.kind!r} (known: {known})")
    try:
        return make(seat.kind, seed, cards)
    except ImportError as exc:
        raise SessionError(f"seat {seat.name}: {seat.kind} is not available ({exc})") from None


def _check_setup(setup: Setup) -> None:
    """Refuse a setup that cannot start or cannot be saved (the seats and seed as a save is
    checked when loaded: `store.models`)."""
    problem = seats_problem(setup.seats)
    if problem is not None:
        raise SessionError(problem)
    if not valid_seed(setup.seed):
        raise SessionError(f"the seed must be a 64-bit integer, got {setup.seed!r}")
    try:
        new_game(setup)
    except (CardLoadError, SetupError) as exc:
        raise SessionError(str(exc)) from None
