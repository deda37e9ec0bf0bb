"""The contract's example scenarios (shared/spec/examples) pass unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from munchkin.scenario.runner import run_file

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "spec" / "examples"
FILES = sorted(EXAMPLES.glob("*.yaml")) if EXAMPLES.is_dir() else []

pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason=f"no spec examples folder at {EXAMPLES}")


def test_there_are_examples() -> None:
    assert FILES, f"no *.yaml in {EXAMPLES}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_passes(path: Path) -> None:
    result = run_file(path)
    assert result.ok, result.message
