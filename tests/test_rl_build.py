"""The RL encoders run compiled with the compiled engine, when built from their sources
(`munchkin.compiled_rl`), and as they are otherwise: always with the pure engine."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pettingzoo")

from munchkin import compiled_rl
from test_engines import REQUIRED, run


def needs_compiled() -> None:
    """Skip unless the compiled build holds the RL modules of these very sources (CI
    requires it: MUNCHKIN_REQUIRE_COMPILED=1)."""
    problem = compiled_rl.compiled_problem()
    if problem is not None and not REQUIRED:
        pytest.skip(f"{problem} (CI requires it: MUNCHKIN_REQUIRE_COMPILED=1)")


PROBE = (
    "import munchkin.rl as rl, munchkin.rl.catalog as c; from munchkin.rl.state_encoder import Encoder; "
    "print(rl.RL_BUILD, c.__name__, Encoder.__module__, c.__file__.endswith('.py'), '|', rl.RL_BUILD_NOTE)"
)


def test_the_pure_engine_runs_the_pure_encoders() -> None:
    done = run(PROBE, engine="pure")
    assert done.returncode == 0, done.stderr
    fields, note = done.stdout.split(" | ")
    assert fields.split() == ["pure", "munchkin.rl.catalog", "munchkin.rl.state_encoder", "True"]
    assert "the pure engine runs" in note


def test_the_compiled_engine_runs_the_compiled_encoders() -> None:
    needs_compiled()
    done = run(PROBE)
    assert done.returncode == 0, done.stderr
    fields = done.stdout.split(" | ")[0].split()
    assert fields == [
        "compiled",
        "munchkin._cengine.rl.catalog",
        "munchkin._cengine.rl.state_encoder",
        "False",
    ]


def test_encoders_built_from_other_sources_run_as_they_are() -> None:
    needs_compiled()
    code = "import munchkin.engine, munchkin._cengine as b; b.RL_SOURCE = 'old'; " + PROBE
    done = run(code)
    assert done.returncode == 0, done.stderr
    fields, note = done.stdout.split(" | ")
    assert fields.split()[0] == "pure" and "other RL sources" in note


def test_every_compiled_module_has_its_source() -> None:
    for name in compiled_rl.RL_MODULES:
        assert os.path.exists(compiled_rl.RL_DIR / f"{name}.py")
    assert len(compiled_rl.rl_source_hash()) == 64
