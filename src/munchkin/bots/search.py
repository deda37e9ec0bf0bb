"""The search bot: information-set Monte Carlo tree search from its own view (issue 16).

`SearchBot` is handed a `PlayerView` and nothing else, like every bot. Each decision it
builds a `WorldSampler` from that view (`search_worlds`) and searches (`search_tree`): every
iteration on a fresh world, consistent with what the seat sees, with the unseen cards dealt
again and new dice; playouts and their evaluation are in `search_eval`. One legal action is
answered at once. The budget is `iterations` per decision (deterministic for a seed), or
`think_ms` (the iterations that fit; the time is counted from the view's arrival), or both.

`CheatingSearchBot` is the same search on the true game (`see` hands it over before each
decision, `sees_state` says it wants it), with new dice each iteration: what it wins over
`SearchBot` is the worth of the hidden cards. It exists to be measured, never to play
people.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.search_eval import PlayoutPolicy
from munchkin.bots.search_tree import Search, SearchConfig, SearchStats
from munchkin.bots.search_worlds import WorldSampler
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.dice import Dice
from munchkin.engine.game import Game
from munchkin.views import PlayerView

__all__ = ["DEFAULT_THINK_MS", "CheatingSearchBot", "SearchBot"]

DEFAULT_THINK_MS = 200.0
"""The time budget per decision when none is given."""


class SearchBot:
    """ISMCTS over worlds sampled from its own view; the heuristic's choice is its prior."""

    sees_state = False

    def __init__(
        self,
        seed: int,
        cards: Sequence[CardDef],
        *,
        think_ms: float | None = None,
        iterations: int | None = None,
    ) -> None:
        if think_ms is not None and not think_ms > 0:
            raise ValueError(f"SearchBot: think_ms must be a positive number of milliseconds, not {think_ms}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"SearchBot: iterations must be at least 1, not {iterations}")
        if think_ms is None and iterations is None:
            think_ms = DEFAULT_THINK_MS
        self.cards = tuple(cards)
        self.rng = random.Random(seed)
        self.config = SearchConfig(think_ms=think_ms, iterations=iterations)
        self.favourite = HeuristicBot(seed, self.cards)
        self.last = SearchStats()
        """What the last decision's search did (iterations, seconds, root visits)."""
        self._policies: dict[tuple[str, ...], PlayoutPolicy] = {}

    def choose(self, view: PlayerView) -> Action:
        """One legal action at once; else the search's most visited action."""
        started = time.perf_counter()
        legal = view.legal
        if len(legal) == 1:
            self.last = SearchStats(0, time.perf_counter() - started)
            return legal[0]
        favourite = self.favourite.choose(view)
        worlds = self.worlds(view)
        players = tuple(p["name"] for p in view.data["players"])
        search = Search(self.config, self.policy(players), self.rng)
        action, self.last = search.run(view.player, legal, worlds, favourite, started)
        return action

    def worlds(self, view: PlayerView) -> Callable[[], Game]:
        """Fresh worlds consistent with the view."""
        sampler = WorldSampler(view, self.cards, self.rng)
        return lambda: sampler.sample(self.rng)

    def policy(self, players: tuple[str, ...]) -> PlayoutPolicy:
        """The playout policy for a table of these players (made once)."""
        policy = self._policies.get(players)
        if policy is None:
            policy = self._policies[players] = PlayoutPolicy(
                self.cards, players, self.rng, self.config.epsilon
            )
        return policy


class CheatingSearchBot(SearchBot):
    """The same search on the true game, hidden cards and all (new dice each iteration)."""

    sees_state = True
    _game: Game | None = None

    def see(self, game: Game) -> None:
        """The true game, before each decision (`munchkin.match.play_match` calls it)."""
        self._game = game

    def worlds(self, view: PlayerView) -> Callable[[], Game]:
        """Copies of the true game with new dice."""
        if self._game is None:
            raise RuntimeError("CheatingSearchBot: call see(game) before choose(view)")
        true = self._game.copy()
        self._game = None  # seen once: the next decision needs the game again

        def world() -> Game:
            copy = true.copy()
            copy.state.dice = Dice(self.rng.getrandbits(64))
            return copy

        return world
