"""The pure and the compiled engine (issue 15): how one is chosen, and that both play the same.

The comparison plays seeded random games through each engine, in a process of its own, and
compares every state: who is waited for, every player's legal actions, the decision, its
events, the deciding player's view and the fingerprint. It needs the compiled engine built
(`munchkin build-engine`); CI builds it and sets MUNCHKIN_REQUIRE_COMPILED=1, so
that there the test fails instead of being skipped.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

import munchkin.engine
from munchkin.engine import ENGINE, compiled_problem, which

GAMES = 20
SETS = (("base",), ("base", "horses"))
REQUIRED = os.environ.get("MUNCHKIN_REQUIRE_COMPILED") == "1"


def needs_compiled() -> None:
    """Skip unless the compiled engine is built from the sources as they are now (asked at
    run time: an engine source edited during a test run makes the build stale)."""
    problem = compiled_problem()
    if problem is not None and not REQUIRED:
        pytest.skip(f"{problem} (CI requires it: MUNCHKIN_REQUIRE_COMPILED=1)")


TRACES = (
    "import json, sys; from munchkin import bench; "
    "print(json.dumps({s: bench.trace(s.split(','), int(sys.argv[1])) for s in sys.argv[2:]}))"
)


def python(code: str, *args: str, engine: str | None = None, **kwargs: object) -> subprocess.Popen[str]:
    env = {key: value for key, value in os.environ.items() if key != "MUNCHKIN_ENGINE"}
    if engine is not None:
        env["MUNCHKIN_ENGINE"] = engine
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,  # type: ignore[call-overload]
    )


def run(code: str, *args: str, engine: str | None = None) -> subprocess.CompletedProcess[str]:
    process = python(code, *args, engine=engine)
    out, err = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_both_engines_play_every_state_alike() -> None:
    needs_compiled()
    sets = [",".join(s) for s in SETS]
    running = {engine: python(TRACES, str(GAMES), *sets, engine=engine) for engine in ("pure", "compiled")}
    traces = {}
    for engine, process in running.items():
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, f"{engine}: {err[-2000:]}"
        traces[engine] = json.loads(out)
    pure, compiled = traces["pure"], traces["compiled"]
    assert sum(len(game) for games in pure.values() for game in games.values()) > 2 * GAMES * 100
    for card_sets, games in pure.items():
        assert len(games) == GAMES
        for seed, digests in games.items():
            other = compiled[card_sets][seed]
            first = next((i for i, (a, b) in enumerate(zip(digests, other, strict=False)) if a != b), None)
            assert first is None and len(digests) == len(other), (
                f"sets {card_sets}, seed {seed}: the engines part at decision {first} "
                f"({len(digests)} and {len(other)} decisions)"
            )


def test_pure_is_chosen_by_the_environment() -> None:
    done = run(
        "import munchkin.engine as e, munchkin.engine.game as g; print(e.ENGINE, g.__file__)", engine="pure"
    )
    assert done.returncode == 0, done.stderr
    engine, path = done.stdout.split()
    assert engine == "pure" and path.endswith(os.path.join("engine", "game.py"))


def test_an_unknown_engine_is_refused() -> None:
    done = run("import munchkin.engine", engine="fast")
    assert done.returncode != 0
    assert "MUNCHKIN_ENGINE='fast': choose 'pure' or 'compiled'" in done.stderr


FAKE_BUILD = (
    "import sys, types; build = types.ModuleType('munchkin._cengine'); build.SOURCE = 'old'; "
    "sys.modules['munchkin._cengine'] = build; "
    "import munchkin.engine as e; print(e.ENGINE, '|', e.ENGINE_NOTE)"
)
NO_BUILD = (
    "import sys; sys.modules['munchkin._cengine'] = None; "
    "import munchkin.engine as e; print(e.ENGINE, '|', e.ENGINE_NOTE)"
)


def test_a_stale_or_missing_build_runs_the_pure_engine() -> None:
    for code, reason in ((FAKE_BUILD, "was built from other sources"), (NO_BUILD, "is not built")):
        done = run(code)
        assert done.returncode == 0, done.stderr
        engine, note = done.stdout.split(" | ")
        assert engine == "pure" and reason in note and "munchkin build-engine" in note


def test_a_stale_or_missing_build_is_refused_when_the_compiled_engine_is_asked_for() -> None:
    for code, reason in ((FAKE_BUILD, "was built from other sources"), (NO_BUILD, "is not built")):
        done = run(code, engine="compiled")
        assert done.returncode != 0
        assert f"ImportError: MUNCHKIN_ENGINE=compiled, but the compiled engine {reason}" in done.stderr


def test_the_compiled_build_is_used_by_default_for_every_engine_module() -> None:
    needs_compiled()
    code = (
        "import munchkin.engine as e; from munchkin.engine import flow; "
        "import munchkin.engine.rules.play as play; "
        "from munchkin.engine.game import Game; import munchkin.engine.options as options; "
        "print(e.ENGINE, Game.__module__, flow.__name__, play.__name__, options.__file__.endswith('.py'))"
    )
    done = run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "compiled",
        "munchkin._cengine.game",
        "munchkin._cengine.flow",
        "munchkin._cengine.rules.play",
        "True",  # a pydantic model: always pure
    ]


USERS = """
import importlib, importlib.util, json
users = {"munchkin.match": None, "munchkin.views": None, "munchkin.session": None,
         "munchkin.bots.search": None, "munchkin.web.hub": "fastapi", "munchkin.rl.aec": "pettingzoo"}
print(json.dumps({
    user: importlib.import_module(user).Game.__module__
    for user, extra in users.items() if extra is None or importlib.util.find_spec(extra)
}))
"""


def test_the_server_bots_and_rl_environment_run_the_compiled_engine_by_default() -> None:
    """Issue 15.6: what plays games (matches, views, sessions, the search bot, the server's
    hub, the RL environment) gets the compiled Game by importing the engine as usual."""
    needs_compiled()
    done = run(USERS)
    assert done.returncode == 0, done.stderr[-2000:]
    games = json.loads(done.stdout)
    assert {"munchkin.match", "munchkin.views", "munchkin.session", "munchkin.bots.search"} <= set(games)
    assert set(games.values()) == {"munchkin._cengine.game"}


def test_worker_processes_run_the_engine_of_their_parent() -> None:
    if ENGINE == "compiled" and compiled_problem() is not None:
        pytest.skip("the engine's sources changed since this process chose the compiled engine")
    for method in ("fork", "spawn"):
        if method not in multiprocessing.get_all_start_methods():
            continue
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method)) as pool:
            assert pool.submit(which).result() == ENGINE == munchkin.engine.ENGINE


WORKER_ENGINES = """
import json, multiprocessing, sys
from munchkin.sim import simulate
config = simulate.SimConfig(2, max_decisions=20)
def engines_of(records):
    return simulate.report_data(config, records, 1.0, "")["timing"]["engines"]
engines = {}
for method in ("fork", "spawn"):
    simulate.pool_context = lambda: multiprocessing.get_context(method)
    engines[method] = engines_of(simulate.run_local(config, 2))
if sys.argv[1:] == ["ray"]:
    import ray
    from munchkin.sim.distributed import run_ray
    ray.init(num_cpus=1, include_dashboard=False)
    engines["ray"] = engines_of(run_ray(config, "auto"))
    ray.shutdown()
print(json.dumps(engines))
"""


def worker_engines(engine: str | None, *args: str) -> dict[str, list[str]]:
    """The engines `simulate`'s workers report they played on, forked and spawned (and Ray's,
    with "ray"), in a fresh process run with MUNCHKIN_ENGINE=`engine` (unset for None)."""
    done = run(WORKER_ENGINES, *args, engine=engine)
    assert done.returncode == 0, done.stderr[-2000:]
    engines: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return engines


def test_simulate_workers_report_the_engine_they_ran() -> None:
    assert worker_engines("pure") == {"fork": ["pure"], "spawn": ["pure"]}


def test_simulate_workers_run_the_compiled_engine_by_default_when_it_is_built() -> None:
    needs_compiled()
    assert worker_engines(None) == {"fork": ["compiled"], "spawn": ["compiled"]}


def test_ray_workers_run_the_compiled_engine_by_default_when_it_is_built() -> None:
    pytest.importorskip("ray", reason="ray is not installed (the 'ray' extra)")
    needs_compiled()
    assert worker_engines(None, "ray") == {"fork": ["compiled"], "spawn": ["compiled"], "ray": ["compiled"]}
