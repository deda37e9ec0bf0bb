"""The observation: the same vector from the state as from the player's view, inside the
declared space, and blind to every card hidden from the player."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from munchkin.engine.invariants import hidden_redrawn
from munchkin.rl import env, raw_env
from munchkin.rl.catalog import default_catalog
from munchkin.rl.observation import Encoder, encode_view, layout_for
from munchkin.views import view
from rl_games import random_states


def test_the_state_encoder_gives_the_views_vector() -> None:
    encoder = Encoder()
    checked = 0
    for game in random_states(games=10, decisions=1500, stride=2, seed=2):
        for seat, name in enumerate(game.players):
            fast = encoder.encode(game, seat)
            reference = encode_view(view(game, name).data)
            assert np.array_equal(fast, reference), f"fields differ: {_fields(fast, reference)}"
            checked += 1
    assert checked > 2000


def _fields(a: np.ndarray, b: np.ndarray) -> list[str]:
    layout = layout_for(default_catalog())
    wrong = set(np.flatnonzero(a != b).tolist())
    return [f.name for f in layout.fields if wrong & set(range(f.start, f.start + f.size))]


def test_cards_hidden_from_a_player_do_not_change_what_they_observe() -> None:
    encoder, rng, catalog = Encoder(), random.Random(5), default_catalog()
    compared = 0
    for game in random_states(games=10, decisions=1200, stride=5, seed=3):
        for seat, name in enumerate(game.players):
            other = hidden_redrawn(game, name, rng)
            assert other.fingerprint() != game.fingerprint() or len(game.state.door_deck) < 2
            assert np.array_equal(encoder.encode(game, seat), encoder.encode(other, seat))
            mine = catalog.encode(game.state, seat, game.legal_actions(name))
            theirs = catalog.encode(other.state, seat, other.legal_actions(name))
            assert mine.actions == theirs.actions
            compared += 1
    assert compared > 1000


def test_observations_stay_inside_the_declared_space() -> None:
    e = raw_env(players=5, sets=("base", "horses"), max_decisions=3000)
    space = e.observation_space("player_0")
    rng = np.random.default_rng(0)
    e.reset(seed=11)
    for _ in range(3000):
        if not e.agents:
            break
        for other in e.agents:
            assert space.contains(e.observe(other))
        _, _, done, cut, info = e.last(observe=False)
        e.step(None if done or cut else int(rng.choice(info["legal_action_ids"])))


def test_the_declared_bounds_hold_before_clipping() -> None:
    """No field is clipped in ordinary games: the bounds are wide enough to say everything."""
    layout = layout_for(default_catalog())
    encoder = Encoder()
    low, high = layout.low, layout.high
    for game in random_states(games=6, decisions=2000, stride=9, seed=4):
        for seat in range(len(game.players)):
            vector = encoder.encode(game, seat)
            at_bound = (vector == low) & (low < 0) | (vector == high) & (high > 1)
            assert not at_bound.any(), _fields(vector * at_bound, np.zeros_like(vector))


def test_the_layout_documents_every_field() -> None:
    layout = layout_for(default_catalog())
    assert layout.size == sum(f.size for f in layout.fields)
    assert all(f.doc for f in layout.fields)
    table = layout.table()
    assert all(f"`{f.name}`" in table for f in layout.fields)
    assert env().observation_space("player_0")["observation"].shape == (layout.size,)
