"""The rules engine: one source, two builds (issue 15).

These modules are plain typed Python: the *pure* engine. `munchkin build-engine`
compiles the same source with mypyc into `munchkin._cengine`: the *compiled* engine. On
import, this package chooses one of them for the whole process:

- `MUNCHKIN_ENGINE=pure`: these modules, as they are;
- `MUNCHKIN_ENGINE=compiled`: the compiled build, or an ImportError saying why it cannot
  be used;
- unset: the compiled build when it is built from these very sources and loads, else the
  pure engine.

With the compiled build chosen, every `munchkin.engine.X` module name is the compiled
module (sys.modules), so nothing that imports the engine needs to know: bots, the server,
simulate and Ray workers, which inherit the environment, all run the same engine. `ENGINE`
says which one runs and `ENGINE_NOTE` why. The modules of PURE_MODULES are never
compiled; they import the chosen engine like any other caller.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

PURE_MODULES = frozenset({"options", "setup", "invariants"})
"""Never compiled: a pydantic model (options), a KeyError subclass (setup), the checks the
tests and soak runs make (invariants)."""
COMPILED_PACKAGE = "munchkin._cengine"
"""The compiled build's package, beside this one (built, never committed)."""
BUILD_COMMAND = "munchkin build-engine"
_HERE = Path(__file__).parent


def compiled_modules() -> list[str]:
    """The modules the compiled build holds, named under this package (`rules.play`)."""
    names = []
    for path in sorted(_HERE.glob("*.py")) + sorted(_HERE.glob("rules/*.py")):
        parts = path.relative_to(_HERE).with_suffix("").parts
        name = ".".join(parts)
        if parts[-1] != "__init__" and name not in PURE_MODULES:
            names.append(name)
    return names


def source_hash() -> str:
    """A digest of the sources of `compiled_modules()`: the compiled build records the one it
    was made from, and is used only while they are unchanged."""
    digest = hashlib.sha256()
    for name in compiled_modules():
        digest.update(name.encode() + b"\0")
        digest.update((_HERE / (name.replace(".", "/") + ".py")).read_bytes())
    return digest.hexdigest()


def compiled_problem() -> str | None:
    """Why the compiled engine cannot be used (not built, or built from other sources), or
    None."""
    try:
        built = importlib.import_module(COMPILED_PACKAGE)
    except ImportError:
        return f"the compiled engine is not built ({BUILD_COMMAND})"
    if getattr(built, "SOURCE", None) != source_hash():
        return f"the compiled engine was built from other sources: rebuild it ({BUILD_COMMAND})"
    return None


def _load_compiled() -> dict[str, ModuleType] | str:
    """The compiled modules by name, or why they cannot be used."""
    problem = compiled_problem()
    if problem is not None:
        return problem
    try:
        names = ["rules", *compiled_modules()]
        return {name: importlib.import_module(f"{COMPILED_PACKAGE}.{name}") for name in names}
    except ImportError as exc:
        return f"the compiled engine does not load ({exc}): rebuild it ({BUILD_COMMAND})"


def _choose() -> tuple[str, str]:
    wanted = os.environ.get("MUNCHKIN_ENGINE", "")
    if wanted not in ("", "pure", "compiled"):
        raise ImportError(f"MUNCHKIN_ENGINE={wanted!r}: choose 'pure' or 'compiled'")
    if wanted == "pure":
        return "pure", "MUNCHKIN_ENGINE=pure"
    loaded = _load_compiled()
    if isinstance(loaded, str):
        if wanted == "compiled":
            raise ImportError(f"MUNCHKIN_ENGINE=compiled, but {loaded}")
        return "pure", loaded
    for name, module in loaded.items():
        sys.modules[f"{__name__}.{name}"] = module
        if "." not in name:
            globals()[name] = module
    return "compiled", f"built by {BUILD_COMMAND}" + (" (MUNCHKIN_ENGINE=compiled)" if wanted else "")


ENGINE, ENGINE_NOTE = _choose()
"""Which engine runs in this process ("pure" or "compiled"), and why."""


def which() -> str:
    """The engine this process runs: "pure" or "compiled" (for worker processes to say)."""
    return ENGINE
