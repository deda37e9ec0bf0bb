"""The PettingZoo environment passes PettingZoo's own API and seed tests, ends games with
+1 for every winner, truncates at `max_decisions`, and refuses an id outside the mask."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from munchkin.rl import env, raw_env

# api_test warns about a dict observation unless the environment is one of PettingZoo's own
# classic games by name; the dict of "observation" and "action_mask" is the one they use too.


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=1000)


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_api_test_on_games_that_end() -> None:
    """Win level 2: games end within the cycles, so the end of a game is tested too."""
    api_test(env(players=3, sets=("base", "horses"), options={"win_level": 2}), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=500)


def _play(e: raw_env, seed: int, steps: int = 100_000) -> dict[str, float]:
    """Random masked actions until every agent is done; the rewards each agent got."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    total: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(steps):
        obs, reward, done, cut, info = e.last()
        total[agent] += reward
        if done or cut:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        assert ids.tolist() == info["legal_action_ids"].tolist()
        assert info["legal_action_features"].shape[0] == len(ids)
        e.step(int(rng.choice(ids)))
    return total


def test_winners_get_one_and_the_others_nothing() -> None:
    for seed in range(4):
        e = raw_env(players=4, options={"win_level": 3})
        total = _play(e, seed)
        assert e.agents == []
        winners = e.game.winners if e.game else []
        assert winners and total == {a: float(a in winners) for a in e.possible_agents}


def test_games_are_truncated_at_max_decisions() -> None:
    e = raw_env(players=3, max_decisions=40)
    total = _play(e, 1)
    assert e.decisions == 40 and e.game is not None and not e.game.over
    assert total == dict.fromkeys(e.possible_agents, 0.0)


def test_level_shaping_pays_the_change_of_the_level_lead() -> None:
    e = raw_env(players=4, options={"win_level": 4}, shaping=1.0)
    total = _play(e, 2)
    game = e.game
    assert game is not None and game.over
    win = {a: float(a in game.winners) for a in e.possible_agents}
    # the potential telescopes: the final lead over the others, over the win level
    levels = {p.name: p.level for p in game.state.players}
    for agent, reward in total.items():
        others = (sum(levels.values()) - levels[agent]) / 3
        assert reward == pytest.approx(win[agent] + (levels[agent] - others) / 4)


def test_a_seeded_reset_replays_the_same_game() -> None:
    a, b = raw_env(), raw_env()
    _play(a, 3, steps=600)
    _play(b, 3, steps=600)
    assert a.game is not None and b.game is not None
    assert a.game.fingerprint() == b.game.fingerprint()
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed  # unseeded resets follow the last seeded one


def test_an_id_outside_the_mask_is_refused_with_its_name() -> None:
    e = raw_env()
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    with pytest.raises(ValueError, match="is not legal for player_"):
        e.step(illegal)


def test_only_the_selected_agent_has_a_mask() -> None:
    e = raw_env()
    e.reset(seed=4)
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == e.agent_selection)
        assert np.array_equal(mask, e.action_mask(agent))


def test_ansi_render_shows_the_table_from_the_selected_seat() -> None:
    e = env(render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    assert isinstance(text, str) and "player_0: level 1" in text and "player_1" in text
    assert raw_env().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")
