"""Every scenario in tests/scenarios passes, and every rule of rules.md has a scenario."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from munchkin.scenario.runner import load_scenario, run_file

SCENARIOS = Path(__file__).parent / "scenarios"
RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md"
RULE_ID = re.compile(r"^- \*\*([BHSC]\d+)")
FILES = sorted(SCENARIOS.rglob("*.yaml"))


def rule_ids() -> list[str]:
    """Rule ids of rules.md, in order (`- **B1 Setup.**`, `- **H1** ...`)."""
    if not RULES_MD.is_file():
        pytest.skip(f"no rules.md at {RULES_MD}")
    lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    return [m.group(1) for line in lines if (m := RULE_ID.match(line))]


def covered_rules() -> set[str]:
    """Rule ids named in the `rules:` of the scenarios (malformed files name none)."""
    covered: set[str] = set()
    for path in FILES:
        try:
            covered.update(load_scenario(path).file.rules)
        except Exception:  # reported by test_scenario_passes
            continue
    return covered


def uncovered(prefixes: str) -> list[str]:
    covered = covered_rules()
    return [rule for rule in rule_ids() if rule[0] in prefixes and rule not in covered]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario_passes(path: Path) -> None:
    result = run_file(path)
    assert result.ok, result.message


def test_rules_md_lists_rules() -> None:
    ids = rule_ids()
    assert "B1" in ids and len(ids) == len(set(ids)), ids


def test_every_base_rule_is_covered() -> None:
    missing = uncovered("B")
    assert not missing, f"base rules covered by no scenario in tests/scenarios: {', '.join(missing)}"


def test_every_expansion_rule_is_covered() -> None:
    missing = uncovered("HSC")
    assert not missing, f"expansion rules covered by no scenario in tests/scenarios: {', '.join(missing)}"
