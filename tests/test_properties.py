"""Stateful property tests: Hypothesis plays games of random legal decisions and checks,
after every step, the invariants of `munchkin.checks` (the soak run's too): every card
in exactly one place, levels from 1 to 10, one winner at most; `legal_actions` never
raises, the game never waits for a player with nothing to do, and every listed action
of every player is accepted (a sample, on copies); real actions of other players or
moments and junk actions are refused leaving the state byte-identical; no view holds a
hidden card; replaying the seed and the decisions gives the same state; a won game
refuses every verb naming B2.

Sizes come from the environment, so CI runs small and a long run is one variable away:
`MUNCHKIN_PROPERTY_EXAMPLES` (examples per test, default 60), `MUNCHKIN_PROPERTY_STEPS`
(Hypothesis steps per game, default 30), `MUNCHKIN_PROPERTY_WARMUP` (most bot decisions
before Hypothesis takes over, default 300), `MUNCHKIN_PROPERTY_SAMPLE` (listed actions
tried per player and step, default 4).
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from munchkin import checks
from munchkin.bots.random_bot import RandomBot
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.match import play_match, seat_players

EXAMPLES = int(os.environ.get("MUNCHKIN_PROPERTY_EXAMPLES", "60"))
STEPS = int(os.environ.get("MUNCHKIN_PROPERTY_STEPS", "30"))
WARMUP = int(os.environ.get("MUNCHKIN_PROPERTY_WARMUP", "300"))
SAMPLE = int(os.environ.get("MUNCHKIN_PROPERTY_SAMPLE", "4"))
FAST_FORWARD = 200
"""Most bot decisions in one fast-forward step."""
WHOLE_GAME = 8_000
"""Most decisions of a game played to its end."""

SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    # A step plays and checks a real game position, which takes milliseconds: that is
    # the test running, not slow data generation.
    suppress_health_check=[HealthCheck.too_slow],
)


def _no_problems(problems: list[str]) -> None:
    assert not problems, "\n".join(problems)


def _junk(data: st.DataObject, fields: dict[str, list[Any]]) -> Action:
    """An action with each field drawn from `fields` (`checks.action_fields`), often its default."""
    return Action(**{k: data.draw(st.just(v[0]) | st.sampled_from(v), label=k) for k, v in fields.items()})


class RandomPlay(RuleBasedStateMachine):
    """One game: a bot plays a few hundred decisions, then Hypothesis decides which
    player acts and how, fast-forwards, and tries actions that should be refused."""

    def __init__(self, sets: str) -> None:
        super().__init__()
        self.cards = checks.cards_of(sets)
        self.fields: dict[str, list[Any]] = {}
        self.game: Game | None = None
        self.seed = 0
        self.decisions: list[tuple[str, Action]] = []
        self.pool: dict[Action, None] = {}

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    @initialize(
        players=st.integers(2, 6),
        seed=st.integers(0, 2**31 - 1),
        warmup=st.integers(0, WARMUP),
        uniform=st.frozensets(st.integers(0, 5), max_size=2),
    )
    def new_game(self, players: int, seed: int, warmup: int, uniform: frozenset[int]) -> None:
        """The game from its seed, then `warmup` decisions as in a match: a bot a seat,
        weighted or (seats in `uniform`) uniform."""
        self.seed = seed
        bots = [RandomBot(seed * 10 + i, i in uniform) for i in range(players)]
        play_match(self.cards, players, seed, bots, warmup, after_decision=self.record)
        self.game = self.game or Game.new(self.cards, seat_players(players), seed)
        self.fields = checks.action_fields(self.cards, self.g.players)

    def record(self, game: Game, player: str, action: Action) -> None:
        self.game = game
        self.decisions.append((player, action))
        _no_problems(checks.cheap_problems(game))

    def decide(self, player: str, action: Action) -> None:
        self.g.apply(player, action)
        self.record(self.g, player, action)

    def forward(self, decisions: int, bot: RandomBot) -> None:
        """Let `bot` decide for whoever the game waits for."""
        for _ in range(decisions):
            if self.g.over:
                return
            player = self.g.waiting_for()[0]
            self.decide(player, bot.pick(player, self.g.legal_actions(player)))

    # -- rules ---------------------------------------------------------------------------

    @precondition(lambda self: not self.g.over)
    @rule(data=st.data())
    def any_player_decides(self, data: st.DataObject) -> None:
        """A player the game waits for, or anyone with an out-of-turn action, acts."""
        waiting = self.g.waiting_for()
        others = [p for p in self.g.players if p not in waiting and self.g.legal_actions(p)]
        player = data.draw(st.sampled_from(waiting + others), label="player")
        self.decide(player, data.draw(st.sampled_from(self.g.legal_actions(player)), label="action"))

    @precondition(lambda self: not self.g.over)
    @rule(decisions=st.integers(1, FAST_FORWARD), bot_seed=st.integers(0, 99), uniform=st.booleans())
    def fast_forward(self, decisions: int, bot_seed: int, uniform: bool) -> None:
        self.forward(decisions, RandomBot(bot_seed, uniform))

    @rule(data=st.data())
    def junk_is_refused_unchanged(self, data: st.DataObject) -> None:
        player = data.draw(st.sampled_from([*self.g.players, "nobody"]), label="player")
        _no_problems(checks.junk_problems(self.g, [(player, _junk(data, self.fields))]))

    @precondition(lambda self: bool(self.pool))
    @rule(data=st.data())
    def real_actions_of_other_moments_are_refused_unchanged(self, data: st.DataObject) -> None:
        action = data.draw(st.sampled_from(list(self.pool)), label="action")
        player = data.draw(st.sampled_from(self.g.players), label="player")
        legal, problems = checks.all_legal(self.g)
        _no_problems(problems + checks.refusal_problems(self.g, legal, [(player, action)]))

    @rule()
    def replay_gives_the_same_state(self) -> None:
        _no_problems(checks.replay_problems(self.cards, self.g, self.seed, self.decisions))

    # -- after every step ----------------------------------------------------------------

    @invariant()
    def invariants_hold(self) -> None:
        if self.game is None:
            return
        rng = random.Random(len(self.decisions))
        legal, problems = checks.all_legal(self.g)
        problems += checks.cheap_problems(self.g) + checks.liveness_problems(self.g, legal)
        problems += checks.acceptance_problems(self.g, legal, rng, SAMPLE)
        problems += checks.view_problems(self.g, rng) + checks.won_problems(self.g)
        for actions in legal.values():
            self.pool.update(dict.fromkeys(actions))
        _no_problems(problems)

    def teardown(self) -> None:
        if self.game is not None and sys.exc_info()[0] is None:  # after a failed step, replay tells no more
            self.replay_gives_the_same_state()


@pytest.mark.parametrize("sets", checks.SET_CHOICES)
def test_random_play_keeps_every_invariant(sets: str) -> None:
    run_state_machine_as_test(lambda: RandomPlay(sets), settings=SETTINGS)


@settings(
    max_examples=max(1, EXAMPLES // 3),
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a smaller seed is no simpler game
)
@given(
    sets=st.sampled_from(checks.SET_CHOICES),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**31 - 1),
    data=st.data(),
)
def test_a_won_game_refuses_every_decision(sets: str, players: int, seed: int, data: st.DataObject) -> None:
    """A whole game to its end; then every verb, the decisions of the game made again by
    anyone, and junk are refused (B2), and the game replays exactly."""
    machine = RandomPlay(sets)
    machine.new_game(players, seed, WHOLE_GAME, uniform=frozenset())
    game = machine.g
    assume(game.over)  # random play rarely goes on and on
    _no_problems(checks.replay_problems(machine.cards, game, seed, machine.decisions))
    _no_problems(checks.won_problems(game))
    actions = [a for _, a in data.draw(st.lists(st.sampled_from(machine.decisions), max_size=10))]
    actions += [_junk(data, machine.fields) for _ in range(data.draw(st.integers(0, 5), label="junk"))]
    attempts = [(data.draw(st.sampled_from(game.players), label="player"), a) for a in actions]
    _no_problems(checks.refusal_problems(game, checks.all_legal(game)[0], attempts))
