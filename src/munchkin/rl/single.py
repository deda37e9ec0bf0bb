"""A Gymnasium environment for one learning seat, the other seats played by our bots.

`single_agent(opponents=("heuristic",) * 3)` seats the learner and one bot per entry of
`opponents` ("random", "heuristic", or any object with the bots' `choose(view)`). Between
two of the learner's decisions the bots decide for their seats, each from its own view, and
whoever of several may respond is picked by a source seeded with the game's seed. The
episode ends with the game (`terminated`, reward +1 when the learner is among the winners)
or after `max_decisions` decisions of all players (`truncated`).

Observations are the vector of the AEC environment (`observation_space` is that `Box`); the
mask comes from `action_masks()` (what sb3-contrib's `MaskablePPO` asks for) and in
`info["action_mask"]`. An id outside the mask is replaced by the engine's default action
(passing where one may pass) and counted in `info["illegal_action"]`: masked training never
sends one, and `gymnasium.utils.env_checker.check_env`, which steps with unmasked samples,
still runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from munchkin.bots import Bot
from munchkin.bots.registry import BOT_KINDS, UnknownBot, make_bot
from munchkin.engine.game import Game
from munchkin.engine.options import TableOptions, parse_options
from munchkin.rl.aec import DEFAULT_MAX_DECISIONS, agent_names, level_potential, new_game, table_text
from munchkin.rl.catalog import Catalog, Encoded, default_catalog
from munchkin.rl.features import ActionFeatures
from munchkin.rl.observation import Encoder
from munchkin.sim.simulate import cards_for
from munchkin.views import view

Opponent = str | Bot


def make_opponent(kind: Opponent, seed: int, cards: Sequence[Any]) -> Bot:
    """A bot for a seat: a kind of `munchkin.bots.registry` ("random", "heuristic", "easy"...),
    or a bot given as is."""
    if not isinstance(kind, str):
        return kind
    try:
        return make_bot(kind, seed, cards)
    except UnknownBot as exc:
        raise ValueError(f"unknown opponent {kind!r}: one of {', '.join(BOT_KINDS)}, or a bot") from exc


class SingleAgentEnv(gym.Env[np.ndarray, np.int64]):
    """One learner against bots (see the module's text)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponents: Sequence[Opponent] = ("heuristic",) * 3,
        sets: Sequence[str] = ("base",),
        options: TableOptions | Mapping[str, Any] | None = None,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
        seat: int | None = 0,
        shaping: float = 0.0,
        action_features: bool = False,
        render_mode: str | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        if not 1 <= len(opponents) <= 5:
            raise ValueError("1 to 5 opponents")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.opponents = tuple(opponents)
        self.players = len(opponents) + 1
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat is 0 to {self.players - 1}, or None for a seat drawn each game")
        self.fixed_seat = seat
        self.sets = tuple(sets)
        self.cards = cards_for(self.sets)
        self.table_options = parse_options(dict(options) if isinstance(options, Mapping) else options)
        self.max_decisions = max_decisions
        self.shaping = shaping
        self.render_mode = render_mode
        self.catalog = catalog or default_catalog()
        self.encoder = Encoder(self.catalog)
        self.features = ActionFeatures(self.catalog) if action_features else None
        layout = self.encoder.layout
        self.observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.catalog.size)
        self.names = agent_names(self.players)
        self.game: Game | None = None
        self.legal = Encoded({}, {}, [])
        self.seat = seat or 0
        self.decisions = 0
        self.illegal = 0

    @property
    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game from a seed drawn from `np_random` (seeded by `seed`)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.game, self._chooser = new_game(self.cards, self.players, game_seed, self.table_options)
        self.game_seed = game_seed
        self.seat = self.fixed_seat if self.fixed_seat is not None else game_seed % self.players
        others = [s for s in range(self.players) if s != self.seat]
        self.bots: dict[str, Bot] = {
            self.names[s]: make_opponent(kind, game_seed * 10 + s, self.cards)
            for s, kind in zip(others, self.opponents, strict=True)
        }
        self.decisions = 0
        self.illegal = 0
        self._potential = level_potential(self.game, self.seat)
        self._play_bots()
        return self._observation(), self._info()

    def _play_bots(self) -> None:
        """Let the bots decide until the learner must, or the game ends or is cut short."""
        game = self._game
        me = self.names[self.seat]
        while not game.over and self.decisions < self.max_decisions:
            waiting = game.waiting_for()
            player = waiting[0] if len(waiting) == 1 else self._chooser.choice(waiting)
            if player == me:
                self.legal = self.catalog.encode(game.state, self.seat, game.legal_actions(me))
                if self.legal.actions:
                    return
                # nothing the catalog expresses: the engine's default answer stands in
                game.apply(me, game.default_action(me))
            else:
                game.apply(player, self.bots[player].choose(view(game, player)))
            self.decisions += 1
        self.legal = Encoded({}, {}, [])

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (sb3-contrib's `MaskablePPO` reads this)."""
        return self.legal.mask(self.catalog.size, bool)

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._game
        me = self.names[self.seat]
        chosen = self.legal.actions.get(int(action))
        illegal = chosen is None
        if chosen is None:
            self.illegal += 1
            chosen = game.default_action(me)
        game.apply(me, chosen)
        self.decisions += 1
        self._play_bots()
        reward = 0.0
        if self.shaping:
            potential = level_potential(game, self.seat)
            reward += self.shaping * (potential - self._potential)
            self._potential = potential
        terminated = game.over
        if terminated and me in game.winners:
            reward += 1.0
        truncated = not terminated and self.decisions >= self.max_decisions
        info = self._info()
        info["illegal_action"] = illegal
        return self._observation(), reward, terminated, truncated, info

    def _observation(self) -> np.ndarray:
        return self.encoder.encode(self._game, self.seat, deciding=True if self.legal.actions else None)

    def _info(self) -> dict[str, Any]:
        legal = self.legal
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "legal_action_ids": np.array(legal.ids, np.int64),
        }
        if self.features is not None:
            info["legal_action_features"] = self.features.rows(legal.ids, legal.keys, legal.actions)
        game = self._game
        info["winners"] = list(game.winners)
        info["won"] = self.names[self.seat] in game.winners
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return table_text(self._game, self.names[self.seat])


def single_agent(opponents: Sequence[Opponent] = ("heuristic",) * 3, **kwargs: Any) -> SingleAgentEnv:
    """The learner against `opponents` (see `SingleAgentEnv` for the other arguments)."""
    return SingleAgentEnv(opponents, **kwargs)
