"""scripts/soak.py loaded as a module, for the tests that run its games."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "scripts" / "soak.py"
    spec = importlib.util.spec_from_file_location("soak", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module
    spec.loader.exec_module(module)
    return module


soak = _load()
