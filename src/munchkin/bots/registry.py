"""Every kind of bot, by name: the one list the simulator, the tournament, terminal and web
games and the RL opponents make their bots from.

Kinds: `random`, `heuristic`, `search` (information-set Monte Carlo tree search from the
seat's view, `munchkin.bots.search`), `cheat` (the same search on the true state: it sees
every hidden card, so it plays only in simulations and tournaments), and the levels offered
to people, `easy` (`munchkin.bots.easy`), `medium` (the heuristic) and `hard` (search).
A game's seat of a bot is `bot:KIND` (`seat_kind`). Bots other than the random one are
imported only when first made.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from munchkin.bots import Bot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef

SEAT_PREFIX = "bot:"
HARD_THINK_MS = 500.0
"""Thinking time of a `hard` bot per decision, in milliseconds, unless told otherwise."""


@dataclass(frozen=True)
class Thinking:
    """A search bot's budget per decision: milliseconds or iterations (its default: neither)."""

    think_ms: float | None = None
    iterations: int | None = None


Factory = Callable[[int, Sequence[CardDef], Thinking], Bot]


@dataclass(frozen=True)
class BotKind:
    """A kind of bot: how it is made, and what it is."""

    name: str
    summary: str
    make: Factory
    searches: bool = False
    """It thinks for a budget (`Thinking` applies to it alone)."""
    fair: bool = True
    """It sees only its seat's view (False: it searches the true state)."""


def _module(name: str) -> Any:
    return importlib.import_module(f"munchkin.bots.{name}")


def _heuristic(seed: int, cards: Sequence[CardDef], _: Thinking) -> Bot:
    bot: Bot = _module("heuristic").HeuristicBot(seed, cards)
    return bot


def _easy(seed: int, cards: Sequence[CardDef], _: Thinking) -> Bot:
    bot: Bot = _module("easy").EasyBot(seed, cards)
    return bot


def _search(cls: str, default_ms: float | None = None) -> Factory:
    def make(seed: int, cards: Sequence[CardDef], thinking: Thinking) -> Bot:
        think_ms = thinking.think_ms
        if think_ms is None and thinking.iterations is None:
            think_ms = default_ms
        bot: Bot = getattr(_module("search"), cls)(
            seed, cards, think_ms=think_ms, iterations=thinking.iterations
        )
        return bot

    return make


KINDS: dict[str, BotKind] = {
    kind.name: kind
    for kind in (
        BotKind("random", "a random legal action, weighted by verb", lambda seed, _c, _t: RandomBot(seed)),
        BotKind("heuristic", "rules of thumb read from its view", _heuristic),
        BotKind("search", "Monte Carlo tree search over worlds its view allows", _search("SearchBot"), True),
        BotKind("cheat", "the same search on the true state", _search("CheatingSearchBot"), True, False),
        BotKind("easy", "the heuristic, with a random move now and then", _easy),
        BotKind("medium", "the heuristic bot", _heuristic),
        BotKind(
            "hard", f"search, {HARD_THINK_MS:g} ms a decision", _search("SearchBot", HARD_THINK_MS), True
        ),
    )
}
BOT_KINDS = tuple(KINDS)
LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = tuple(f"{SEAT_PREFIX}{name}" for name, kind in KINDS.items() if kind.fair)
"""Seats a game may give a bot (`bot:KIND`): every kind that plays fair."""


class UnknownBot(ValueError):
    """A bot kind not in `KINDS`; `str()` names it and the known ones."""


def kind(name: str) -> BotKind:
    """The kind called `name`, or UnknownBot."""
    found = KINDS.get(name)
    if found is None:
        raise UnknownBot(f"unknown bot {name!r} (known: {', '.join(BOT_KINDS)})")
    return found


def make_bot(
    name: str,
    seed: int,
    cards: Sequence[CardDef],
    *,
    think_ms: float | None = None,
    iterations: int | None = None,
) -> Bot:
    """A bot of the kind `name`; `think_ms` or `iterations` is its budget if it searches
    (ignored by the others)."""
    return kind(name).make(seed, cards, Thinking(think_ms, iterations))


def seat_kind(name: str) -> str:
    """The seat kind of a bot: `bot:NAME`."""
    return f"{SEAT_PREFIX}{name}"


def bot_of_seat(seat: str) -> BotKind | None:
    """The bot kind that plays a seat of kind `seat` (`bot:NAME`), or None (a human, or an
    unknown or unfair kind)."""
    if seat not in SEAT_KINDS:
        return None
    return KINDS[seat.removeprefix(SEAT_PREFIX)]
