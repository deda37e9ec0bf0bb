"""Reinforcement learning on the engine (the `rl` extra): a PettingZoo AEC environment,
`env()` / `raw_env`, and a Gymnasium one-learner environment, `single_agent()`.

See docs/rl.md: the action catalog, the observation's fields, and how to plug the
environments into other libraries.
"""

from __future__ import annotations

from munchkin import compiled_rl

RL_BUILD, RL_BUILD_NOTE = compiled_rl.choose()
"""Whether the encoders run compiled ("compiled", `munchkin.compiled_rl`) or as they are
("pure"), and why. Chosen before any of them is imported, hence the imports below it."""

from munchkin.rl.aec import env, raw_env  # noqa: E402
from munchkin.rl.catalog import Catalog, default_catalog  # noqa: E402
from munchkin.rl.observation import Encoder, encode_view  # noqa: E402
from munchkin.rl.single import SingleAgentEnv, single_agent  # noqa: E402

__all__ = [
    "RL_BUILD",
    "RL_BUILD_NOTE",
    "Catalog",
    "Encoder",
    "SingleAgentEnv",
    "default_catalog",
    "encode_view",
    "env",
    "raw_env",
    "single_agent",
]
