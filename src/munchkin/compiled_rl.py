"""The RL environment's encoders in the compiled build (issue 17, item 4).

`munchkin build-engine` compiles, beside the engine, the modules of `munchkin.rl` that a
step of the environment spends its time in (RL_MODULES: the catalog, the observation's
layout and encoder, the action features): the same source, as `munchkin._cengine.rl.X`,
with the digest of their sources (`RL_SOURCE` in the compiled package). `munchkin.rl`
calls `choose()` before importing them: when the compiled engine runs and that digest is
these sources', every `munchkin.rl.X` of RL_MODULES is the compiled module (sys.modules),
as the engine's are; otherwise they run as they are. The pure engine (`MUNCHKIN_ENGINE=pure`)
always gets the pure modules: the compiled ones read the compiled engine's classes.

This module imports neither numpy nor the rl extra: `build-engine` reads it on machines
without them.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path

from munchkin import engine

RL_MODULES = ("catalog", "layout", "features", "state_encoder")
"""The modules of `munchkin.rl` that the compiled build holds too."""
RL_DIR = Path(__file__).parent / "rl"
RL_PACKAGE = "munchkin.rl"
COMPILED_RL = f"{engine.COMPILED_PACKAGE}.rl"


def rl_source_hash() -> str:
    """A digest of the sources of RL_MODULES: the compiled build records the one it was made
    from, and its RL modules are used only while they are unchanged."""
    digest = hashlib.sha256()
    for name in RL_MODULES:
        digest.update(name.encode() + b"\0")
        digest.update((RL_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def compiled_problem() -> str | None:
    """Why the compiled RL modules cannot be used (no compiled engine, or one built from
    other RL sources), or None."""
    problem = engine.compiled_problem()
    if problem is not None:
        return problem
    built = importlib.import_module(engine.COMPILED_PACKAGE)
    if getattr(built, "RL_SOURCE", None) != rl_source_hash():
        return f"the compiled build has other RL sources: rebuild it ({engine.BUILD_COMMAND})"
    return None


def choose() -> tuple[str, str]:
    """Make RL_MODULES the compiled ones when they can be used; which ones run, and why."""
    problem = "the pure engine runs" if engine.ENGINE != "compiled" else compiled_problem()
    if problem is not None:
        return "pure", problem
    try:
        loaded = {name: importlib.import_module(f"{COMPILED_RL}.{name}") for name in RL_MODULES}
    except ImportError as exc:
        return "pure", f"the compiled RL modules do not load ({exc}): rebuild them ({engine.BUILD_COMMAND})"
    package = sys.modules[RL_PACKAGE]
    for name, module in loaded.items():
        sys.modules[f"{RL_PACKAGE}.{name}"] = module
        setattr(package, name, module)
    return "compiled", f"built by {engine.BUILD_COMMAND}"
