"""The benchmark, in one run: (a) random legal decisions through complete games on one core,
(b) median and 99th-percentile microseconds of `legal_actions` and of `copy` on mid-game
states, (c) the same random loop on RLCard's UNO (the `bench` extra), (d) memory per state
copy, (e) `simulate`'s speed-up from 1 to 2 workers, (f) where a decision's time goes, (g) the
reinforcement-learning environment's loop (`munchkin.rl`, the `rl` extra) beside the same loop
on the engine alone.

A fixed pure-Python loop is timed in the same run: the `*_baselines` figures give costs in
units of that loop, comparable across machines. `"engine"` names the engine measured
(`munchkin.engine.ENGINE`); with several (`run(s, ENGINES)`), (a), (b), (d) and (f) are
measured for each engine in a process of its own, each with its own ratios.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.engine import ENGINE
from munchkin.engine.flow import SITUATIONS, situation
from munchkin.engine.game import Game
from munchkin.match import play_match, seat_players
from munchkin.sim.simulate import SimConfig, cards_for, run_local, timed
from munchkin.views import view

Figures = dict[str, dict[str, Any]]
SKIPPED_UNO = "install the bench extra: pip install -e '.[bench]'"
SKIPPED_RL = "install the rl extra: pip install -e '.[rl]'"
RL_EPISODE_CAP = 2_000
"""Decisions per game at most in (g): uniform random choices make very long games."""
STRIDE = 3
"""Every STRIDE-th state of a sampling game is kept."""
REPEATS = 3
"""Calls timed per state in (b), all counted."""
DECISIONS_CAP = 20_000
"""Decisions per game at most in (f), so that one endless game cannot stall the bench."""
TRACE_CAP = 5_000
"""Decisions per game at most in a trace."""
ENGINES = ("pure", "compiled")
"""The engines `run` measures side by side, each in a process of its own."""


@dataclass(frozen=True)
class BenchSettings:
    games: int = 20
    players: int = 4
    seed: int = 0
    sets: tuple[str, ...] = ("base",)
    samples: int = 500
    uno_games: int = 500
    sim_games: int = 64


def baseline_loop() -> int:
    """The fixed piece of plain Python every figure is compared with."""
    total = 0
    for i in range(1000):
        total += i * i % 7
    return total


def median_us(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1e6


def percentile_us(samples: Sequence[float], q: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)] * 1e6


def once(call: Callable[[], object]) -> float:
    """Seconds taken by one call."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def random_bots(players: int, seed: int) -> list[RandomBot]:
    """Random bots for a game, seeded from its seed."""
    return [RandomBot(seed * 10 + seat) for seat in range(players)]


def random_games(cards: Sequence[CardDef], s: BenchSettings) -> dict[str, Any]:
    """(a) Complete games of random legal decisions, one after the other."""
    decisions = 0
    cpu, start = cpu_seconds(), time.perf_counter()
    for i in range(s.games):
        decisions += len(
            play_match(cards, s.players, s.seed + i, random_bots(s.players, s.seed + i)).decisions
        )
    seconds = time.perf_counter() - start
    return {
        "games": s.games,
        "decisions": decisions,
        "seconds": seconds,
        "games_per_s": s.games / seconds,
        "decisions_per_s": decisions / seconds,
        "cores_used": (cpu_seconds() - cpu) / seconds,
    }


def game_states(cards: Sequence[CardDef], players: int, seed: int) -> list[Game]:
    """A copy of every state of one random game that is not over."""
    states: list[Game] = []

    def keep(game: Game, player: str, action: object) -> None:
        if not game.over:
            states.append(game.copy())

    play_match(cards, players, seed, random_bots(players, seed), after_decision=keep)
    return states


def mid_game_states(cards: Sequence[CardDef], s: BenchSettings) -> list[Game]:
    """`s.samples` states from the middle half of fresh games (not the timed ones)."""
    states: list[Game] = []
    seed = s.seed + s.games
    while len(states) < s.samples:
        seen = game_states(cards, s.players, seed)
        states += seen[len(seen) // 4 : 3 * len(seen) // 4 : STRIDE]
        seed += 1
    return states[: s.samples]


def engine_calls(states: Sequence[Game]) -> dict[str, Any]:
    """(b) `legal_actions` for the player the game waits for, and `copy`, REPEATS times per
    state; `legal_actions` each time on a fresh copy, so it is computed, not remembered."""
    legal = [
        once(partial(g.copy().legal_actions, g.waiting_for()[0])) for g in states for _ in range(REPEATS)
    ]
    copies = [once(g.copy) for g in states for _ in range(REPEATS)]
    return {
        "states": len(states),
        "legal_actions_median_us": median_us(legal),
        "legal_actions_p99_us": percentile_us(legal, 99),
        "copy_median_us": median_us(copies),
        "copy_p99_us": percentile_us(copies, 99),
    }


def decision_costs(cards: Sequence[CardDef], s: BenchSettings) -> dict[str, Any]:
    """(f) Where a decision's time goes, in games like those of (a): listing the player's
    legal actions, the bot's choice among them, and `apply` (the change, and what the game
    then does by itself: rolls, effects, passes for those who could only pass). Also how many
    verbs the player's situation asks about and how many legal actions result, per decision."""
    parts = {"legal_actions": 0.0, "bot_choice": 0.0, "apply": 0.0}
    decisions = verbs = listed = 0
    for i in range(max(1, s.games // 4)):
        seed = s.seed + i
        game = Game.new(cards, seat_players(s.players), seed=seed)
        bots, chooser = random_bots(s.players, seed), random.Random(seed)
        while not game.over and decisions < DECISIONS_CAP * (i + 1):
            player = chooser.choice(game.waiting_for())
            seat = game.players.index(player)
            verbs += len(SITUATIONS[situation(game.state, seat)]) if game.state.prompt is None else 1
            start = time.perf_counter()
            legal = game.legal_actions(player)
            listed_at = time.perf_counter()
            action = bots[seat].pick(player, legal)
            picked_at = time.perf_counter()
            game.apply(player, action)
            parts["legal_actions"] += listed_at - start
            parts["bot_choice"] += picked_at - listed_at
            parts["apply"] += time.perf_counter() - picked_at
            decisions += 1
            listed += len(legal)
    total = sum(parts.values())
    figures: dict[str, Any] = {"decisions": decisions}
    for name, seconds in parts.items():
        figures[f"{name}_us"] = seconds / decisions * 1e6
        figures[f"{name}_share"] = seconds / total
    figures["verbs_asked_per_decision"] = verbs / decisions
    figures["legal_actions_per_decision"] = listed / decisions
    return figures


def state_memory(states: Sequence[Game]) -> dict[str, Any]:
    """(d) Bytes allocated for a copy of a mid-game state (card definitions are shared)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copies = [g.copy() for g in states]
        allocated = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return {"states": len(copies), "bytes_per_state": allocated / len(copies)}


def uno(s: BenchSettings) -> dict[str, Any]:
    """(c) Random legal actions through RLCard UNO games: the raw game loop and the env loop."""
    try:
        rlcard = importlib.import_module("rlcard")
        uno_game = importlib.import_module("rlcard.games.uno.game")
    except ImportError:
        return {"skipped": SKIPPED_UNO}
    rng = random.Random(s.seed)

    listed = 0

    def raw_game(index: int) -> int:
        nonlocal listed
        game = uno_game.UnoGame()
        game.np_random.seed(s.seed + index)
        state, _ = game.init_game()
        steps = 0
        while not game.is_over():
            listed += len(state["legal_actions"])
            state, _ = game.step(rng.choice(state["legal_actions"]))
            steps += 1
        return steps

    env = rlcard.make("uno", config={"seed": s.seed})

    def env_game(index: int) -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    figures: dict[str, Any] = {"games": s.uno_games, "players": env.num_players}
    for name, play in (("raw", raw_game), ("env", env_game)):
        cpu, start = cpu_seconds(), time.perf_counter()
        steps = sum(play(i) for i in range(s.uno_games))
        seconds = time.perf_counter() - start
        figures[f"{name}_decisions_per_s"] = steps / seconds
        figures[f"{name}_cores_used"] = (cpu_seconds() - cpu) / seconds
        if name == "raw":
            figures["raw_legal_actions_per_decision"] = listed / steps
    figures["raw_decision_us"] = 1e6 / figures["raw_decisions_per_s"]
    return figures


def rl_env(s: BenchSettings) -> dict[str, Any]:
    """(g) The PettingZoo environment driven as a learner drives it: `last()` (the observation,
    its mask and the legal actions' features), a uniform choice among the legal action ids,
    `step`, for `s.games` games of at most RL_EPISODE_CAP decisions; then the same games'
    loop on the engine alone (a uniform choice among `legal_actions`, `apply`)."""
    try:
        aec = importlib.import_module("munchkin.rl.aec")
    except ImportError:
        return {"skipped": SKIPPED_RL}
    env = aec.raw_env(players=s.players, sets=s.sets, max_decisions=RL_EPISODE_CAP)
    rng = random.Random(s.seed)
    steps = listed = 0
    start = time.perf_counter()
    for i in range(s.games):
        env.reset(seed=s.seed + i)
        for _ in env.agent_iter():
            _, _, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            ids = info["legal_action_ids"].tolist()
            listed += len(ids)
            env.step(rng.choice(ids))
            steps += 1
    env_seconds = time.perf_counter() - start
    rng = random.Random(s.seed)
    decisions = 0
    start = time.perf_counter()
    for i in range(s.games):
        game, chooser = aec.new_game(env.cards, s.players, s.seed + i, env.table_options)
        for _ in range(RL_EPISODE_CAP):
            if game.over:
                break
            waiting = game.waiting_for()
            player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
            game.apply(player, rng.choice(game.legal_actions(player)))
            decisions += 1
    engine_seconds = time.perf_counter() - start
    return {
        "games": s.games,
        "steps": steps,
        "env_steps_per_s": steps / env_seconds,
        "engine_decisions_per_s": decisions / engine_seconds,
        "env_step_in_engine_decisions": (env_seconds / steps) / (engine_seconds / decisions),
        "legal_actions_per_step": listed / steps,
        "action_ids": env.catalog.size,
        "observation_size": env.encoder.layout.size,
        "encoders": importlib.import_module("munchkin.rl").RL_BUILD,
    }


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children: per wall-clock second, the
    cores a timed loop was given (`cores_used`; under 1.0 on one core, the machine was shared
    and the loop's rate is lower by as much)."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def speed_up(s: BenchSettings) -> dict[str, Any]:
    """(e) The same simulation with 1, then 2 workers, run as `munchkin simulate` runs it: the
    timings include starting and stopping the workers. `cores_used` (CPU seconds per second)
    tells whether the machine gave the second core. Games last from a few hundredths of a
    second to about a second, so a few long ones finishing last weigh on the speed-up of a
    short run: the default of 64 games keeps that under a few percent."""
    config = SimConfig(s.sim_games, s.players, ("random",), s.sets, s.seed)
    figures: dict[str, Any] = {"games": s.sim_games}
    for workers in (1, 2):
        cpu = cpu_seconds()
        _, seconds = timed(partial(run_local, config, workers))
        figures[f"workers_{workers}_games_per_s"] = s.sim_games / seconds
        figures[f"workers_{workers}_cores_used"] = (cpu_seconds() - cpu) / seconds
    figures["speed_up"] = figures["workers_2_games_per_s"] / figures["workers_1_games_per_s"]
    return figures


def engine_figures(s: BenchSettings) -> Figures:
    """(a), (b), (d) and (f) on the engine this process runs, with the baseline loop timed in
    the same process."""
    cards = cards_for(s.sets)
    baseline_us = median_us([once(baseline_loop) for _ in range(300)])
    games = random_games(cards, s)
    states = mid_game_states(cards, s)
    calls = engine_calls(states)
    memory = state_memory(states)
    costs = decision_costs(cards, s)
    return {
        "baseline": {"loop_median_us": baseline_us},
        "random_games": games,
        "engine_calls": calls,
        "decision_costs": costs,
        "memory": memory,
    }


def engine_in_process(engine: str, s: BenchSettings) -> Figures:
    """`engine_figures` in a new process that runs `engine` (MUNCHKIN_ENGINE)."""
    code = "import sys; from munchkin import bench; print(bench.engine_figures_from(sys.argv[1]))"
    env = {**os.environ, "MUNCHKIN_ENGINE": engine}
    argument = json.dumps(dataclasses.asdict(s))
    done = subprocess.run(
        [sys.executable, "-c", code, argument], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"the {engine} engine could not be measured: {reason}")
    figures: Figures = json.loads(done.stdout)
    return figures


def engine_figures_from(settings: str) -> str:
    """`engine_figures` as JSON, for settings given as JSON (the measuring process's side)."""
    data = json.loads(settings)
    return json.dumps(engine_figures(BenchSettings(**{**data, "sets": tuple(data["sets"])})))


class BenchError(RuntimeError):
    """An engine asked for that could not be measured (the compiled one not built, say)."""


def engine_ratios(part: Figures, rlcard: dict[str, Any]) -> dict[str, float]:
    """An engine's figures as ratios: to the baseline loop timed beside them, and to RLCard
    UNO's raw game loop."""
    baseline_us = part["baseline"]["loop_median_us"]
    games, calls, costs = part["random_games"], part["engine_calls"], part["decision_costs"]
    decision_us = 1e6 / games["decisions_per_s"]
    ratios = {
        "decision_baselines": decision_us / baseline_us,
        "legal_actions_median_baselines": calls["legal_actions_median_us"] / baseline_us,
        "copy_median_baselines": calls["copy_median_us"] / baseline_us,
    }
    if "skipped" not in rlcard:
        ratios["our_decisions_per_s_vs_uno_raw"] = games["decisions_per_s"] / rlcard["raw_decisions_per_s"]
        ratios["our_decisions_per_s_vs_uno_env"] = games["decisions_per_s"] / rlcard["env_decisions_per_s"]
        ratios["our_legal_actions_vs_uno_decision"] = costs["legal_actions_us"] / rlcard["raw_decision_us"]
        ratios["legal_actions_median_vs_uno_decision"] = (
            calls["legal_actions_median_us"] / rlcard["raw_decision_us"]
        )
        ratios["copy_median_vs_uno_decision"] = calls["copy_median_us"] / rlcard["raw_decision_us"]
    return ratios


def run(s: BenchSettings, engines: Sequence[str] = ()) -> dict[str, Any]:
    """Every figure, by part, with the baseline and the ratios: on the engine this process
    runs, or with `engines` ("pure", "compiled"), each engine's own figures, each measured in
    a process of its own, beside one run of UNO, the rl environment and `simulate` here."""
    parts = {e: engine_in_process(e, s) for e in engines} if engines else {ENGINE: engine_figures(s)}
    rlcard = uno(s)
    rl = rl_env(s)
    simulate = {**speed_up(s), "engine": ENGINE}
    if not engines:
        part = parts[ENGINE]
        ratios = engine_ratios(part, rlcard)
        if "skipped" not in rl and "skipped" not in rlcard:
            ratios["rl_env_steps_per_s_vs_uno_env"] = rl["env_steps_per_s"] / rlcard["env_decisions_per_s"]
        return {
            "engine": ENGINE,
            "baseline": part["baseline"],
            "random_games": part["random_games"],
            "engine_calls": part["engine_calls"],
            "rlcard_uno": rlcard,
            "rl_env": rl,
            "decision_costs": part["decision_costs"],
            "memory": part["memory"],
            "simulate": simulate,
            "ratios": ratios,
        }
    by_engine = {e: {"engine": e, **part, "ratios": engine_ratios(part, rlcard)} for e, part in parts.items()}
    figures: dict[str, Any] = {
        "engine": "both" if set(engines) == set(ENGINES) else ",".join(engines),
        "rlcard_uno": rlcard,
        "rl_env": rl,
        "simulate": simulate,
        "engines": by_engine,
    }
    if set(engines) == set(ENGINES):
        pure, compiled = parts["pure"], parts["compiled"]
        figures["ratios"] = {
            "compiled_vs_pure_decisions_per_s": compiled["random_games"]["decisions_per_s"]
            / pure["random_games"]["decisions_per_s"],
            "compiled_vs_pure_legal_actions_median": compiled["engine_calls"]["legal_actions_median_us"]
            / pure["engine_calls"]["legal_actions_median_us"],
            "compiled_vs_pure_copy_median": compiled["engine_calls"]["copy_median_us"]
            / pure["engine_calls"]["copy_median_us"],
        }
    return figures


def profile_games(cards: Sequence[CardDef], s: BenchSettings) -> Any:
    """The loop of (a) under pyinstrument (the `bench` extra): a sampling profile of where
    complete random games spend their time. Returns the profiler's session."""
    profiler = importlib.import_module("pyinstrument").Profiler(interval=0.0005)
    profiler.start()
    try:
        random_games(cards, s)
    finally:
        session = profiler.stop()
    return session


def as_text(figures: dict[str, Any], indent: str = "") -> str:
    """One aligned line per figure, under a heading per part (and per engine)."""
    lines = []
    for part, values in figures.items():
        if not isinstance(values, dict):
            lines.append(f"{indent}{part}: {values}")
        elif any(isinstance(v, dict) for v in values.values()):
            lines.append(f"{indent}{part}:")
            lines.append(as_text(values, indent + "  "))
        else:
            lines.append(f"{indent}{part}:")
            for key, value in values.items():
                shown = value if isinstance(value, str) else f"{value:,.3f}".rstrip("0").rstrip(".")
                lines.append(f"{indent}  {key:>34}: {shown}")
    return "\n".join(lines)


def trace_game(
    cards: Sequence[CardDef], players: int, seed: int, views: bool = True, cap: int = TRACE_CAP
) -> list[str]:
    """One digest per decision of a seeded random game: who the game waits for, every
    player's legal actions, the decision, its events, the deciding player's view (unless
    `views` is false) and the fingerprint after it. Two engines (or two versions of one)
    that play the same give the same digests; the first that differs names the decision
    where they part."""
    game = Game.new(cards, seat_players(players), seed=seed)
    bots, chooser = random_bots(players, seed), random.Random(seed)
    digests = [hashlib.sha1(game.fingerprint().encode()).hexdigest()]
    while not game.over and len(digests) <= cap:
        waiting = game.waiting_for()
        legal = [game.legal_actions(name) for name in game.players]
        player = chooser.choice(waiting)
        seen = view(game, player).to_dict() if views else None
        action = bots[game.players.index(player)].pick(player, legal[game.players.index(player)])
        events = [(e.kind, e.data) for e in game.apply(player, action)]
        state = (waiting, legal, seen, action, events, game.fingerprint())
        digests.append(hashlib.sha1(repr(state).encode()).hexdigest())
    return digests


def trace(
    sets: Sequence[str], games: int, players: int = 4, seed: int = 0, views: bool = True
) -> dict[int, list[str]]:
    """`trace_game` for each of `games` seeds from `seed`, by seed."""
    cards = cards_for(tuple(sets))
    return {s: trace_game(cards, players, s, views) for s in range(seed, seed + games)}
