#!/usr/bin/env python3
"""Soak run: complete games of random legal decisions, checking the engine's invariants.

    .venv/bin/python scripts/soak.py [--decisions 1000000] [--seed S] [--sets base base,horses] [--workers N]

Games have 2 to 6 players, one of the chosen card sets, the table options given
(`--option NAME=VALUE`, repeatable; the rules' defaults otherwise), and a mix of weighted
and uniform random bots. After every decision: every card in exactly one place, levels
from 1 to the win level, only the winners there (several when one fight took them there
together, B2), links between cards intact. At a sample of
decisions: `legal_actions` of every player does not raise, the game waits only for
players who can act, and each listed action is accepted (on a copy); real actions of
other players or moments and junk actions are refused, leaving the state byte-identical;
no view holds a hidden card. At the end of each game: replaying the seed and the
decisions gives the same state, and a won game refuses every verb and the actions
remembered from the game (B2). Prints progress, then the figures (games finished, and
how many of them several players won together) and every violation; exits 1 when there
is any.

The checks live in `munchkin.checks`, shared with tests/test_properties.py.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.checks import (
    SET_CHOICES,
    acceptance_problems,
    action_fields,
    all_legal,
    cards_of,
    cheap_problems,
    junk_action,
    junk_problems,
    liveness_problems,
    refusal_problems,
    replay_problems,
    view_problems,
    won_problems,
)
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.options import DEFAULT_OPTIONS, OptionsError, TableOptions, parse_assignments
from munchkin.match import play_match, seat_players
from munchkin.views import PlayerView

GAME_DECISIONS = 20_000
"""Most decisions in one game (uniform bots can play on and on)."""
SAMPLE_EVERY = 40
"""The sampled checks run after one decision in this many."""
POOL_SIZE = 300
"""Real actions remembered per game, to try at other moments and for other players."""
ACCEPT_SAMPLE = 4
"""Listed actions tried per player at a sampled decision."""
REAL_SAMPLE, JUNK_SAMPLE = 6, 3
"""Real actions and junk actions tried at a sampled decision."""
VIEW_EVERY = 10
"""Views are compared at one sampled decision in this many."""


# -- one game --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides a soak game."""

    index: int
    seed: int
    sets: str
    players: int
    uniform: tuple[bool, ...]

    def __str__(self) -> str:
        bots = "".join("u" if u else "w" for u in self.uniform)
        return f"game {self.index} (seed {self.seed}, sets {self.sets}, {self.players} players, bots {bots})"


@dataclass
class GameReport:
    spec: GameSpec
    decisions: int
    finished: bool
    violations: list[str]
    winners: int = 0
    """How many won: several when one fight took them to the win level together (B2)."""


class _Stop(Exception):
    """Ends a game at its first violation: a broken state says nothing more."""


@dataclass
class _Checker:
    """Runs the checks after each decision of one game and remembers what they need."""

    cards: Sequence[CardDef]
    fields: dict[str, list[Any]]
    seed: int
    rng: random.Random
    sample_every: int
    decisions: list[tuple[str, Action]] = field(default_factory=list)
    pool: dict[Action, None] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    chosen: tuple[str, Action] | None = None
    game: Game | None = None

    def after(self, game: Game, player: str, action: Action) -> None:
        self.game = game
        self.decisions.append((player, action))
        problems = cheap_problems(game)
        if self.rng.randrange(self.sample_every) == 0:
            problems += self.sampled(game)
        if problems:
            where = f"decision {len(self.decisions)} ({player}: {action})"
            self.violations += [f"{where}: {p}" for p in problems]
            raise _Stop

    def sampled(self, game: Game) -> list[str]:
        legal, problems = all_legal(game)
        problems += liveness_problems(game, legal)
        problems += acceptance_problems(game, legal, self.rng, ACCEPT_SAMPLE)
        for actions in legal.values():
            self.pool.update(dict.fromkeys(actions))
        while len(self.pool) > POOL_SIZE:
            del self.pool[next(iter(self.pool))]
        problems += refusal_problems(game, legal, self.attempts(game, self.real(REAL_SAMPLE)))
        junk = [junk_action(self.rng, self.fields) for _ in range(JUNK_SAMPLE)]
        problems += junk_problems(game, self.attempts(game, junk))
        if self.rng.randrange(VIEW_EVERY) == 0:
            problems += view_problems(game, self.rng)
        return problems

    def real(self, n: int) -> list[Action]:
        return self.rng.sample(list(self.pool), min(n, len(self.pool)))

    def attempts(self, game: Game, actions: list[Action]) -> list[tuple[str, Action]]:
        """Each action, by a player chosen at random."""
        return [(self.rng.choice(game.players), a) for a in actions]

    def finish(self) -> None:
        """The end of a game without violations: it replays exactly, and once won it refuses
        every verb and every action remembered (B2, B19)."""
        game = self.game
        if game is None or self.violations:
            return
        self.violations += replay_problems(self.cards, game, self.seed, self.decisions)
        if game.over:
            self.violations += won_problems(game)
            remembered = self.attempts(game, self.real(POOL_SIZE))
            self.violations += refusal_problems(game, all_legal(game)[0], remembered)


class _Recording:
    """A bot that remembers its last choice, so a crash in `apply` can name it."""

    def __init__(self, bot: RandomBot, checker: _Checker) -> None:
        self.bot, self.checker = bot, checker

    def choose(self, player_view: PlayerView) -> Action:
        action = self.bot.choose(player_view)
        self.checker.chosen = (player_view.player, action)
        return action


def soak_game(
    spec: GameSpec, max_decisions: int, sample_every: int, options: TableOptions = DEFAULT_OPTIONS
) -> GameReport:
    """Play one game by the table `options` with every check; a crash or a broken invariant
    ends it."""
    cards = cards_of(spec.sets)
    names = [name for name, _ in seat_players(spec.players)]
    checker = _Checker(cards, action_fields(cards, names), spec.seed, random.Random(spec.seed), sample_every)
    bots = [_Recording(RandomBot(spec.seed * 10 + i, u), checker) for i, u in enumerate(spec.uniform)]
    try:
        play_match(
            cards, spec.players, spec.seed, bots, max_decisions, after_decision=checker.after, options=options
        )
    except _Stop:
        pass
    except Exception:
        who = "" if checker.chosen is None else f" ({checker.chosen[0]}: {checker.chosen[1]})"
        crash = traceback.format_exc(limit=-4)
        checker.violations.append(f"decision {len(checker.decisions) + 1}{who} crashed:\n{crash}")
    checker.finish()
    finished = checker.game is not None and checker.game.over
    winners = 0 if checker.game is None else len(checker.game.winners)
    return GameReport(spec, len(checker.decisions), finished, checker.violations, winners)


def game_specs(seed: int, sets: Sequence[str], uniform_share: float) -> Iterator[GameSpec]:
    """The endless, seeded sequence of soak games."""
    rng = random.Random(seed)
    for index in count():
        players = rng.randint(2, 6)
        uniform = tuple(rng.random() < uniform_share for _ in range(players))
        yield GameSpec(index, rng.randrange(1 << 31), rng.choice(sets), players, uniform)


# -- the run ---------------------------------------------------------------------------------


@dataclass
class Totals:
    decisions: int = 0
    games: int = 0
    finished: int = 0
    shared_wins: int = 0
    violations: list[str] = field(default_factory=list)

    def add(self, report: GameReport) -> None:
        self.decisions += report.decisions
        self.games += 1
        self.finished += report.finished
        self.shared_wins += report.winners > 1
        self.violations += [f"{report.spec}: {v}" for v in report.violations]


def run(args: argparse.Namespace) -> Totals:
    """Play games on `args.workers` processes until `args.decisions` decisions are made."""
    totals = Totals()
    specs = game_specs(args.seed, args.sets, args.uniform_share)
    start = last = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        running: set[Future[GameReport]] = set()
        while running or totals.decisions < args.decisions:
            while totals.decisions < args.decisions and len(running) < 2 * args.workers:
                game = (next(specs), args.game_decisions, args.sample_every, args.options)
                running.add(pool.submit(soak_game, *game))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                totals.add(future.result())
            now = time.perf_counter()
            if now - last >= args.progress:
                last = now
                print(_progress(totals, now - start), flush=True)
    return totals


def _progress(totals: Totals, seconds: float) -> str:
    return (
        f"{seconds:7.1f}s  decisions {totals.decisions:>9}  games {totals.games:>6}  "
        f"violations {len(totals.violations)}  {totals.decisions / seconds:,.0f} decisions/s"
    )


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=1_000_000, help="decisions to make at least")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sequence of games")
    parser.add_argument(
        "--sets", nargs="+", default=list(SET_CHOICES), help="card set choices, e.g. base,horses"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--game-decisions", type=int, default=GAME_DECISIONS, help="most decisions a game")
    parser.add_argument("--sample-every", type=int, default=SAMPLE_EVERY, help="sampled checks 1 in N")
    parser.add_argument("--uniform-share", type=float, default=0.2, help="share of uniform random bots")
    parser.add_argument("--progress", type=float, default=10.0, help="seconds between progress lines")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option, repeatable"
    )
    args = parser.parse_args(argv)
    try:
        args.options = parse_assignments(args.option)
    except OptionsError as exc:
        parser.error(str(exc))
    for sets in args.sets:
        try:
            cards_of(sets)
        except Exception as exc:
            parser.error(f"--sets {sets}: {exc}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    start = time.perf_counter()
    totals = run(args)
    seconds = time.perf_counter() - start
    print(f"decisions made: {totals.decisions}")
    print(f"games finished: {totals.finished} of {totals.games} (cap {args.game_decisions} decisions a game)")
    print(f"games won by several players together: {totals.shared_wins}")
    print(f"invariant violations: {len(totals.violations)}")
    for violation in totals.violations:
        print(f"  {violation}")
    print(f"decisions per second: {totals.decisions / seconds:,.0f}")
    return 1 if totals.violations else 0


if __name__ == "__main__":
    sys.exit(main())
