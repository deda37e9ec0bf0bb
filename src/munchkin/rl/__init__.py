"""Reinforcement learning on the engine (the `rl` extra): a PettingZoo AEC environment,
`env()` / `raw_env`, and a Gymnasium one-learner environment, `single_agent()`.

See docs/rl.md: the action catalog, the observation's fields, and how to plug the
environments into other libraries.
"""

from __future__ import annotations

from munchkin.rl.aec import env, raw_env
from munchkin.rl.catalog import Catalog, default_catalog
from munchkin.rl.observation import Encoder, encode_view
from munchkin.rl.single import SingleAgentEnv, single_agent

__all__ = [
    "Catalog",
    "Encoder",
    "SingleAgentEnv",
    "default_catalog",
    "encode_view",
    "env",
    "raw_env",
    "single_agent",
]
