"""The PettingZoo AEC environment: one agent per seat, whoever the game waits for acts.

`agent_selection` is the player whose decision holds the game (`Game.waiting_for`); when
several may respond at once (a fight's response window), a source seeded by the game's
seed picks one, as `munchkin.match.play_match` does. A response out of turn (pass, a
one-shot, help) is just that agent's step. The game's seed comes from `reset(seed=)`, so a
seeded reset replays the whole game for the same actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.options import TableOptions, parse_options
from munchkin.match import SEXES
from munchkin.rl.catalog import Catalog, Encoded, default_catalog
from munchkin.rl.features import ActionFeatures
from munchkin.rl.observation import Encoder
from munchkin.sim.simulate import cards_for
from munchkin.words.actions import describe

DEFAULT_MAX_DECISIONS = 10_000
"""Decisions (of all players) after which a game is truncated."""


def agent_names(players: int) -> list[str]:
    return [f"player_{i}" for i in range(players)]


def new_game(
    cards: Sequence[CardDef], players: int, seed: int, options: TableOptions
) -> tuple[Game, random.Random]:
    """A game whose players are named like the agents, and the seeded source that picks who
    acts when several may."""
    names = agent_names(players)
    game = Game.new(cards, list(zip(names, SEXES[:players], strict=True)), seed=seed, options=options)
    return game, random.Random(seed ^ 0x5EED)


def level_potential(game: Game, seat: int) -> float:
    """The shaping potential: one's level minus the others' mean, over the win level."""
    levels = [p.level for p in game.state.players]
    others = (sum(levels) - levels[seat]) / max(1, len(levels) - 1)
    return (levels[seat] - others) / game.options.win_level


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo recommends: out-of-bounds actions and calls out
    of order are refused with a clear error. Takes the arguments of `raw_env`."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """Munchkin for 2 to 6 agents, `player_0` to `player_{n-1}`.

    - `players`, `sets`, `options` (table options: a `TableOptions` or a mapping): the game.
    - `max_decisions`: decisions of all players after which every agent is truncated.
    - `shaping`: each step, each agent also gets `shaping` times the change of its level
      lead (`level_potential`); 0 (the default) leaves the plain +1 for a win.
    - `action_features`: whether `info["legal_action_features"]` is filled.
    - `render_mode`: None or "ansi" (`render()` returns the table as text).
    """

    metadata = {"render_modes": ["ansi"], "name": "munchkin_v0", "is_parallelizable": False}

    def __init__(
        self,
        players: int = 4,
        sets: Sequence[str] = ("base",),
        options: TableOptions | Mapping[str, Any] | None = None,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
        render_mode: str | None = None,
        shaping: float = 0.0,
        action_features: bool = True,
        catalog: Catalog | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if not 2 <= players <= 6:
            raise ValueError("a game has 2 to 6 players")
        self.players = players
        self.sets = tuple(sets)
        self.cards = cards_for(self.sets)
        self.table_options = parse_options(dict(options) if isinstance(options, Mapping) else options)
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.shaping = shaping
        self.catalog = catalog or default_catalog()
        self.encoder = Encoder(self.catalog)
        self.features = ActionFeatures(self.catalog) if action_features else None
        self.possible_agents = agent_names(players)
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        """Each agent's seat: the agents are the game's players, in seat order."""
        layout = self.encoder.layout
        box = spaces.Box(layout.low, layout.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.catalog.size,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.catalog.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None
        self.legal: Encoded = Encoded({}, {}, [])
        self.decisions = 0
        self.last_action: tuple[str, Action] | None = None

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the loop ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: from `seed`, or from the next seed of the source seeded by the last
        seeded reset. `options` is accepted as PettingZoo asks, and ignored: table options
        are chosen when the environment is made."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = seed if seed is not None else self._seeds.randrange(2**31)
        if seed is not None:
            self._seeds.random()  # the next unseeded reset plays another game
        self.game, self._chooser = new_game(self.cards, self.players, game_seed, self.table_options)
        self.game_seed = game_seed
        self.decisions = 0
        self.last_action = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._potentials = [level_potential(self.game, i) for i in range(self.players)]
        self._select()

    def _select(self) -> None:
        """Point `agent_selection` at the player the game waits for, with their legal actions."""
        game = self._game
        waiting = game.waiting_for()
        agent = waiting[0] if len(waiting) == 1 else self._chooser.choice(waiting)
        seat = self._seats[agent]
        self.agent_selection = agent
        self.legal = self.catalog.encode(game.state, seat, game.legal_actions(agent))
        if not self.legal.actions:
            raise RuntimeError(f"{agent} must decide but no listed action has an id: {self.legal.unlisted}")
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = self._info()

    def _info(self) -> dict[str, Any]:
        legal = self.legal
        info: dict[str, Any] = {
            "legal_action_ids": np.array(legal.ids, np.int64),
            "unlisted": len(legal.unlisted),
        }
        if self.features is not None:
            info["legal_action_features"] = self.features.rows(legal.ids, legal.keys, legal.actions)
        return info

    @property
    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees, and its mask: its legal actions when it is the one selected,
        otherwise none."""
        game = self._game
        seat = self._seats[agent]
        selected = agent == self.agent_selection and not (self.terminations.get(agent) or game.over)
        mask = self.legal.mask(self.catalog.size) if selected else np.zeros(self.catalog.size, np.int8)
        observation = self.encoder.encode(game, seat, deciding=None if not selected else True)
        return {"observation": observation, "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray:
        """The mask alone (cheaper than `observe` when the observation is not needed)."""
        if agent == self.agent_selection and not self._game.over:
            return self.legal.mask(self.catalog.size)
        return np.zeros(self.catalog.size, np.int8)

    def decode(self, action_id: int) -> Action:
        """The engine action of a masked-in id for the selected agent."""
        action = self.legal.actions.get(int(action_id))
        if action is None:
            raise ValueError(
                f"action {int(action_id)} ({self.catalog.describe(int(action_id))}) is not legal for "
                f"{self.agent_selection} now: choose an id of observation['action_mask']"
            )
        return action

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        chosen = self.decode(int(action))  # type: ignore[arg-type]
        self._cumulative_rewards[agent] = 0.0
        game.apply(agent, chosen)
        self.decisions += 1
        self.last_action = (agent, chosen)
        self._clear_rewards()
        if self.shaping:
            for i, a in enumerate(self.possible_agents):
                potential = level_potential(game, i)
                self.rewards[a] += self.shaping * (potential - self._potentials[i])
                self._potentials[i] = potential
        if game.over:
            for winner in game.winners:
                self.rewards[winner] += 1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.decisions >= self.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if game.over or self.decisions >= self.max_decisions:
            self.infos = {a: {} for a in self.agents}
            self.legal = Encoded({}, {}, [])
            self.agent_selection = self.agents[0]
        else:
            self._select()
        if self.render_mode == "ansi":
            pass  # render() is called by the user and returns the text

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text, as the selected agent may see it (render_mode "ansi")."""
        if self.render_mode is None:
            return None
        return table_text(self._game, self.agent_selection, self.last_action)

    def close(self) -> None:
        pass


def table_text(game: Game, viewer: str, last: tuple[str, Action] | None = None) -> str:
    """A few lines: each player's level, strength and hand, the fight, the question open,
    and the last decision, from `viewer`'s side of the table."""
    g = game.state
    me = g.index(viewer)
    lines = [f"turn {g.turn}, {g.players[g.active].name}'s turn, phase {g.phase} (seen by {viewer})"]
    for i, p in enumerate(g.players):
        strength = game.explain_strength(p.name).total
        hand = ", ".join(g.ids(p.hand)) if i == me else f"{len(p.hand)} cards"
        status = " dead" if p.dead else ""
        lines.append(f"  {p.name}: level {p.level}, strength {strength}{status}; hand: {hand}")
    if g.combat is not None:
        ours, theirs = game.explain_combat()
        monsters = ", ".join(g.ids(g.combat.monsters))
        lines.append(f"  fight: {monsters}: munchkins {ours.total} vs monsters {theirs.total}")
    if g.prompt is not None and g.prompt.player == me:
        lines.append(f"  asked ({g.prompt.kind}): {', '.join(g.prompt.options)}")
    if last is not None:
        who, action = last
        lines.append(f"  last: {who}: {describe(action, {}, who)}")
    if game.over:
        lines.append(f"  winners: {', '.join(game.winners)}")
    return "\n".join(lines)
