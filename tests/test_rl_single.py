"""The one-learner Gymnasium environment passes Gymnasium's checker and plays whole games
against our bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from munchkin.bots.random_bot import RandomBot
from munchkin.rl import single_agent


@pytest.mark.parametrize("opponents", [("heuristic",) * 3, ("random",) * 3, ("random", "heuristic")])
def test_gymnasium_check_env(opponents: tuple[str, ...]) -> None:
    check_env(single_agent(opponents=opponents), skip_render_check=True)


def test_a_whole_game_against_random_bots() -> None:
    e = single_agent(opponents=("random",) * 3, options={"win_level": 4}, action_features=True)
    obs, info = e.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    steps = 0
    while not done:
        mask = e.action_masks()
        assert mask.any() and np.array_equal(np.flatnonzero(mask), info["legal_action_ids"])
        assert info["legal_action_features"].shape[0] == mask.sum()
        assert e.observation_space.contains(obs)
        obs, reward, done, cut, info = e.step(int(rng.choice(info["legal_action_ids"])))
        assert not info["illegal_action"] and not cut
        steps += 1
    assert info["won"] == (reward == 1.0) and info["winners"]
    assert steps < e.decisions  # the bots decided too


def test_an_unmasked_id_stands_for_the_default_action() -> None:
    e = single_agent(opponents=("random",) * 2)
    e.reset(seed=2)
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    _, _, _, _, info = e.step(illegal)
    assert info["illegal_action"] and e.illegal == 1


def test_seats_bots_and_truncation() -> None:
    e = single_agent(opponents=[RandomBot(0), "random"], seat=None, max_decisions=30)
    seats = set()
    for seed in range(6):
        _, info = e.reset(seed=seed)
        seats.add(e.seat)
        cut = False
        while not cut:
            _, _, done, cut, info = e.step(int(info["legal_action_ids"][0]))
            assert not done
        assert e.decisions == 30
    assert len(seats) > 1
    with pytest.raises(ValueError, match="unknown opponent"):
        single_agent(opponents=("clever",)).reset(seed=0)
