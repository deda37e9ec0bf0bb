"""Games that end with several winners (B2), for the tests of everything that tells a winner.

- `both_win_game`: scenario b02's position played out: a level-9 fighter and a level-9 Elf
  helper kill a monster together, and both win.
- `shared_win_seed`: the first seed whose game between random bots, at a low win level,
  ends with several winners (such games are common there: an Elf helper levels up with
  the fighter).
"""

from __future__ import annotations

import functools
from pathlib import Path

from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.engine.options import TableOptions
from munchkin.scenario.model import ActionStep, SettleStep
from munchkin.scenario.runner import build_game, load_scenario, scenario_catalog
from munchkin.session import Seat, Session

SCENARIO = Path(__file__).parent / "scenarios" / "b02-fighter-and-elf-helper-both-win.yaml"
LOW_WIN = TableOptions(win_level=3)
"""A table where shared wins come quickly."""
RANDOM_BOTS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
MAX_SEEDS = 500


def both_win_game() -> tuple[Game, list[Event]]:
    """Scenario b02 played to its end (its checks left out): ann and bob win together; the
    game and the events of its decisions."""
    scenario = load_scenario(SCENARIO)
    game = build_game(scenario, scenario_catalog(scenario))
    events: list[Event] = []
    for step in scenario.steps:
        if isinstance(step, ActionStep):
            _others_until_legal(game, step.player, step.action, events)
            events += game.apply(step.player, step.action)
        elif isinstance(step, SettleStep):
            _others_until_legal(game, None, None, events)
    assert game.winners == ["ann", "bob"], game.winners
    return game, events


def _others_until_legal(game: Game, player: str | None, action: Action | None, events: list[Event]) -> None:
    """The other players' default decisions until `action` is legal (or, with none, until
    nobody but the active player is waited for), as the scenario runner plays them."""
    while not game.over:
        if player is not None and action is not None:
            try:
                game.check(player, action)
                return
            except RulesError:
                pass
        active = game.state.players[game.state.active].name
        others = [name for name in game.waiting_for() if name not in (player, active)]
        if not others:
            return
        events += game.apply(others[0], game.default_action(others[0]))


@functools.cache
def shared_win_seed(seats: tuple[Seat, ...] = RANDOM_BOTS, options: TableOptions = LOW_WIN) -> int:
    """The first seed whose game of these bot seats, by `options`, has several winners."""
    for seed in range(MAX_SEEDS):
        session = Session.start(seats, ["base"], seed, options=options)
        session.run_to_end()
        if len(session.winners) > 1:
            return seed
    raise AssertionError(f"no game of the first {MAX_SEEDS} seeds had several winners")
