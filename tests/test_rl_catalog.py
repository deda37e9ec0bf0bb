"""The action catalog: over random games, the mask and the engine's legal actions map one
to one, and every masked-in id applies without error."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.rl.catalog import default_catalog
from rl_games import random_states


def test_every_key_has_one_id_and_the_families_tile_the_space() -> None:
    catalog = default_catalog()
    assert len(set(catalog.keys)) == catalog.size
    assert sum(f.size for f in catalog.families) == catalog.size
    ends = [f.start + f.size for f in catalog.families]
    assert [f.start for f in catalog.families] == [0, *ends[:-1]]


def test_mask_and_legal_actions_map_one_to_one_over_random_games() -> None:
    catalog = default_catalog()
    states = legal = 0
    for game in random_states(games=12, decisions=1500, stride=3):
        g = game.state
        for seat, name in enumerate(game.players):
            actions = game.legal_actions(name)
            encoded = catalog.encode(g, seat, actions)
            assert encoded.unlisted == [], f"no id for {encoded.unlisted}"
            assert set(actions) == set(encoded.actions.values())
            assert len(encoded.actions) == len(set(actions))  # one id each, none shared
            legal += len(actions)
        states += 1
    assert states > 1000 and legal > 10_000


def _applies(game: Game, name: str, action: Action) -> None:
    copy = game.copy()  # a fresh game: `apply` checks the action again
    copy.apply(name, action)


def test_every_masked_in_action_applies_without_error() -> None:
    catalog = default_catalog()
    tried = 0
    for game in random_states(games=6, decisions=1200, stride=7, seed=1):
        for name in game.waiting_for():
            seat = game.state.index(name)
            encoded = catalog.encode(game.state, seat, game.legal_actions(name))
            for action_id, action in encoded.actions.items():
                assert catalog.keys[action_id] == encoded.keys[action_id]
                _applies(game, name, action)
                tried += 1
    assert tried > 2000


def test_keys_read_as_text() -> None:
    catalog = default_catalog()
    assert catalog.describe(0) == "kick_door"
    assert catalog.family(catalog.index[("choose_die", 6)]).name == "choose_die"


def test_docs_show_the_catalog_and_the_observation_as_they_are() -> None:
    from pathlib import Path

    from munchkin.rl.observation import layout_for

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    catalog = default_catalog()
    assert catalog.table() in text
    assert layout_for(catalog).table() in text
    assert f"Discrete({catalog.size})" in text
