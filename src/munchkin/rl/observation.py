"""The observation: one agent's view of the game as a fixed-length float32 vector.

Every number comes from what `munchkin.views.view(game, player)` shows that player (their
hand, every table, the discard piles, the fight, a trade on offer, the question asked) and
nothing else. Two encoders build the same vector:

- `encode_view(data)` from a view's data (the reference, and what a bot that only gets
  `PlayerView`s uses; `munchkin.rl.view_encoder`);
- `Encoder.encode(game, seat)` from the game state, reading only the parts of the state the
  view shows, without building the view's dictionaries (about five times faster than
  building the view and encoding it; `munchkin.rl.state_encoder`).

`tests/test_rl_observation.py` checks that both give the same vector over random games.
Seats are relative to the observer: block 0 is the observer, block 1 the next seat, and so
on; blocks of seats the game does not have are zeros. `layout_for(catalog).fields` names
every field with its size, bounds and meaning (`munchkin.rl.layout`; docs/rl.md prints the
table).

This module gathers the public names of the three.
"""

from __future__ import annotations

from munchkin.rl.layout import Field, Layout, layout_for
from munchkin.rl.state_encoder import Encoder
from munchkin.rl.view_encoder import encode_view

__all__ = ["Encoder", "Field", "Layout", "encode_view", "layout_for"]
