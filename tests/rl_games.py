"""Random games for the rl tests: states reached by random bots, with both card sets and
2 to 6 players; digests of everything the environments return over seeded games."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.game import Game
from munchkin.engine.options import DEFAULT_OPTIONS
from munchkin.rl.aec import new_game, raw_env
from munchkin.rl.single import SingleAgentEnv
from munchkin.sim.simulate import cards_for


def random_states(games: int, decisions: int, stride: int = 1, seed: int = 0) -> Iterator[Game]:
    """Every `stride`-th state of `games` random games, each cut after `decisions`."""
    for k in range(games):
        sets = ("base",) if k % 2 == 0 else ("base", "horses")
        players = 2 + (k + seed) % 5
        game, chooser = new_game(cards_for(sets), players, seed * 1000 + k, DEFAULT_OPTIONS)
        bots = [RandomBot(seed * 1000 + k * 10 + s) for s in range(players)]
        for step in range(decisions):
            if game.over:
                break
            if step % stride == 0:
                yield game
            waiting = game.waiting_for()
            player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
            seat = game.state.index(player)
            game.apply(player, bots[seat].pick(player, game.legal_actions(player)))


def _feed(digest: Any, value: object) -> None:
    """Add one value to a digest: arrays by dtype, shape and bytes, containers item by item,
    the rest by repr."""
    if isinstance(value, np.ndarray):
        digest.update(f"{value.dtype}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for key in sorted(value):
            digest.update(repr(key).encode())
            _feed(digest, value[key])
    elif isinstance(value, tuple | list):
        digest.update(f"{type(value).__name__}{len(value)}".encode())
        for item in value:
            _feed(digest, item)
    else:
        digest.update(repr(value).encode())


def aec_digest(e: raw_env, seed: int, steps: int, every: int = 7) -> str:
    """A hash of everything the AEC environment returns over one seeded game of random
    masked choices: at each step `last()` (observation, mask, reward, flags, info) and
    every agent's info, reward and flags; every `every` steps, every agent's observation."""
    digest = hashlib.sha256()
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    for k, agent in enumerate(e.agent_iter(steps)):
        obs, reward, done, cut, info = e.last()
        _feed(digest, (agent, reward, done, cut))
        _feed(digest, obs)
        _feed(digest, info)
        for table in (e.infos, e.rewards, e._cumulative_rewards, e.terminations, e.truncations):
            _feed(digest, table)
        if k % every == 0:
            for other in e.agents:
                _feed(digest, e.observe(other))
                _feed(digest, e.action_mask(other))
        e.step(None if done or cut else int(rng.choice(info["legal_action_ids"])))
    return digest.hexdigest()


def single_digest(e: SingleAgentEnv, seed: int, steps: int) -> str:
    """A hash of everything the one-learner environment returns over one seeded game of
    random masked choices: each step's observation, reward, flags, info and mask."""
    digest = hashlib.sha256()
    rng = np.random.default_rng(seed)
    obs, info = e.reset(seed=seed)
    _feed(digest, (obs, info, e.action_masks()))
    for _ in range(steps):
        obs, reward, done, cut, info = e.step(int(rng.choice(info["legal_action_ids"])))
        _feed(digest, (obs, reward, done, cut))
        _feed(digest, info)
        _feed(digest, e.action_masks())
        if done or cut:
            break
    return digest.hexdigest()
