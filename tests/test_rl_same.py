"""The environments' fast paths return what the slow ones did: seeded games hash to the
digests recorded with the code before the fast paths (commit 96308d2), and the fast
observation, features and mask agree with their reference builders step by step.

The digests pin the games too: a change of the rules that changes these games changes
them. Then check the reference test below, and record them anew with `rl_games.aec_digest`
and `rl_games.single_digest`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from munchkin.rl import raw_env, single_agent
from munchkin.rl.observation import encode_view
from munchkin.views import view
from rl_games import aec_digest, single_digest

AEC_GAMES: list[tuple[dict[str, Any], int, int, str]] = [
    ({"players": 4}, 0, 3000, "d993842d467c9174343e0981e01122c666d17e089d76822989cd4cfc3297e57b"),
    (
        {"players": 3, "sets": ("base", "horses"), "options": {"win_level": 4}, "shaping": 0.5},
        1,
        3000,
        "985fb0cd8041e022930421ade1bf440787580e7889e02148fd6af9d048c655b0",
    ),
    (
        {"players": 6, "sets": ("base", "horses"), "max_decisions": 900},
        2,
        3000,
        "1090556e60c1608ad2c7c5f7ed6ec980c513bedee12e661d86440952cb3dcc91",
    ),
    (
        {"players": 2, "action_features": False},
        3,
        1500,
        "3c19f78358ffaf82bee38da2930350842b7bc958c473b0db36fd048a376f72ba",
    ),
    (
        {"players": 5, "sets": ("base", "horses"), "shaping": 1.0},
        6,
        4000,
        "cfe7894c9e6a5bb2c3059b18693ace2c5b94a94e2bdae9718fa6ca50e81f86f4",
    ),
]
"""(environment arguments, seed, steps, digest): a game cut by the steps, one won at level
4, one truncated at 900 decisions, one without features, one won at level 10."""

SINGLE_GAMES: list[tuple[dict[str, Any], int, int, str]] = [
    (
        {"opponents": ("random",) * 3, "action_features": True, "shaping": 1.0},
        4,
        800,
        "95ba5d3c83ee056a6d19cab2b4fd2e287e52715162943bdadb94a3978bcfd611",
    ),
    (
        {"opponents": ("random",), "sets": ("base", "horses"), "seat": None, "options": {"win_level": 5}},
        5,
        800,
        "303f5c373af5884787e1b91b31eabdb129af86bc01628110b5286698ee6a131d",
    ),
]


GAMES = [("aec", *game) for game in AEC_GAMES] + [("single", *game) for game in SINGLE_GAMES]


@pytest.mark.parametrize(
    ("kind", "kwargs", "seed", "steps", "digest"), GAMES, ids=[f"{g[0]}-{g[2]}" for g in GAMES]
)
def test_seeded_games_return_what_they_did_before_the_fast_paths(
    kind: str, kwargs: dict[str, Any], seed: int, steps: int, digest: str
) -> None:
    if kind == "aec":
        assert aec_digest(raw_env(**kwargs), seed, steps) == digest
    else:
        assert single_digest(single_agent(**kwargs), seed, steps) == digest


def test_each_step_agrees_with_the_reference_builders() -> None:
    """Every step of a few games: the observation of every agent is `encode_view`'s, the
    mask holds exactly the legal ids, and each feature row is the one built from scratch."""
    checked = 0
    for players, sets, seed in ((4, ("base",), 7), (3, ("base", "horses"), 8), (6, ("base", "horses"), 9)):
        e = raw_env(players=players, sets=sets, max_decisions=700)
        assert e.features is not None
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, _, done, cut, info = e.last()
            if done or cut:
                e.step(None)
                continue
            game = e.game
            assert game is not None
            for other in e.agents:
                reference = encode_view(view(game, other).data)
                assert np.array_equal(e.observe(other)["observation"], reference)
            ids = info["legal_action_ids"]
            assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(e.legal.actions) == ids.tolist()
            rows = [e.features.build(i, e.legal.keys[i], e.legal.actions[i]) for i in ids.tolist()]
            assert np.array_equal(info["legal_action_features"], np.stack(rows))
            e.step(int(rng.choice(ids)))
            checked += 1
    assert checked > 1500
