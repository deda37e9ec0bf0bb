"""Load, run and check scenarios (shared/spec/scenario-format.md).

`run_paths` turns files and folders into one `ScenarioResult` per scenario.
Nothing a scenario file holds, and nothing the engine raises while running it,
stops the other scenarios: every problem becomes a FAIL whose message names
the file, the step (1-based) or key, and what is wrong.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from munchkin.cards.loader import (
    CardLoadError,
    builtin_set_names,
    load_builtin_sets,
    load_yaml,
    parse_cards,
    read_text_file,
)
from munchkin.cards.schema import CardDef
from munchkin.engine.errors import DiceExhausted
from munchkin.engine.game import Game
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.engine.setup import HirelingSetup, PlayerSetup, Position, PositionError, UnknownCard, build
from munchkin.errortext import clean, show, suggest
from munchkin.scenario.model import (
    PlayerSpec,
    Scenario,
    ScenarioError,
    parse_scenario,
)
from munchkin.scenario.playing import StepFailure, Table, run_step

MAX_SCENARIO_BYTES = 1024 * 1024
"""Largest scenario file accepted (1 MiB)."""


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario file."""

    file: str
    title: str
    ok: bool
    message: str = ""
    malformed: bool = False
    """The file itself is bad input (unreadable, bad YAML, unknown key, verb or card)."""

    def line(self) -> str:
        """`PASS title` or `FAIL title: reason`, printable (a file's escape codes never reach
        the terminal)."""
        title = clean(self.title, 200)
        return f"PASS {title}" if self.ok else f"FAIL {title}: {clean(self.message, 2000)}"

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "title": self.title, "ok": self.ok, "message": self.message}


# ------------------------------------------------------------------ files and folders


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    """Run every scenario of the given files and folders (folders searched for *.yaml)."""
    results: list[ScenarioResult] = []
    for path in map(Path, paths):
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.yaml") if p.is_file())
            if not files:
                results.append(_failed(str(path), "no *.yaml scenario files in this folder"))
            results.extend(run_file(file) for file in files)
        elif path.exists():
            results.append(run_file(path))
        else:
            results.append(_failed(str(path), "no such file or folder"))
    return results


def run_file(path: str | Path) -> ScenarioResult:
    """Load and run one scenario file; never raises."""
    source = str(path)
    title = Path(path).name
    try:
        data = read_scenario_data(path)
        title = _raw_title(data) or title
        return run_scenario(parse_scenario(data, source))
    except ScenarioError as exc:
        return ScenarioResult(source, title, False, exc.message, malformed=True)
    except Exception as exc:  # never a traceback for the user
        return ScenarioResult(source, title, False, f"{source}: internal error: {_exc_text(exc)}")


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file (no card ids checked yet)."""
    return parse_scenario(read_scenario_data(path), str(path))


def read_scenario_data(path: str | Path) -> object:
    """The YAML document of a scenario file: at most 1 MiB, nesting at most 50 deep."""
    source = str(path)
    try:
        return load_yaml(read_text_file(path, source, MAX_SCENARIO_BYTES), source)
    except CardLoadError as exc:
        raise ScenarioError(exc.message) from None
    except OSError as exc:
        raise ScenarioError(f"{source}: cannot read the file: {exc.strerror or exc}") from None


def _raw_title(data: object) -> str | None:
    if isinstance(data, dict) and isinstance(data.get("title"), str) and data["title"].strip():
        return clean(data["title"], 200)
    return None


def _failed(source: str, problem: str) -> ScenarioResult:
    return ScenarioResult(source, source, False, f"{source}: {problem}", malformed=True)


def _exc_text(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# ------------------------------------------------------------------------ the catalog


@functools.cache
def builtin_catalog() -> Mapping[str, CardDef]:
    """Every card of every built-in set, by id (loaded once)."""
    return {card.id: card for card in load_builtin_sets(builtin_set_names())}


def scenario_catalog(scenario: Scenario) -> dict[str, CardDef]:
    """The scenario's own cards first, then the built-in ones."""
    try:
        own = parse_cards(scenario.file.cards, scenario.source) if scenario.file.cards else []
    except CardLoadError as exc:
        raise ScenarioError(exc.message) from None
    catalog = dict(_builtin_or_empty())
    catalog.update((card.id, card) for card in own)
    return catalog


def _builtin_or_empty() -> Mapping[str, CardDef]:
    """The built-in cards, or none when they do not load (see `_unknown_card`)."""
    try:
        return builtin_catalog()
    except CardLoadError:
        return {}


def check_card_ids(scenario: Scenario, catalog: Mapping[str, CardDef]) -> None:
    """Refuse any card id of the setup or the steps that no card set defines."""
    for key, card in scenario.file.setup.card_refs():
        if card not in catalog:
            raise ScenarioError(f"{scenario.source}: key '{key}': {_unknown_card(card, catalog)}")
    for number, step in enumerate(scenario.steps, start=1):
        for where, card in step.card_refs():
            if card not in catalog:
                problem = _unknown_card(card, catalog)
                raise ScenarioError(f"{scenario.source}: step {number}: {where}: {problem}")


def _unknown_card(card: str, catalog: Mapping[str, CardDef]) -> str:
    problem = f"unknown card {show(card)}{suggest(card, list(catalog))}"
    try:
        builtin_catalog()
    except CardLoadError as exc:
        problem += f" (the built-in card sets did not load: {exc.message})"
    return problem


# ------------------------------------------------------------------------ running


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """Build the position and play the steps; a FAIL names the step and what went wrong."""
    catalog = scenario_catalog(scenario)
    check_card_ids(scenario, catalog)
    table = Table(build_game(scenario, catalog))
    for number, step in enumerate(scenario.steps, start=1):
        where = f"{scenario.source}: step {number} ({step.describe()})"
        try:
            run_step(table, step)
        except StepFailure as exc:
            return ScenarioResult(scenario.source, scenario.title, False, f"{where}: {exc}")
        except DiceExhausted:
            dice = scenario.file.dice or []
            problem = f"dice exhausted (the scenario forces {len(dice)} roll{'s' * (len(dice) != 1)})"
            return ScenarioResult(scenario.source, scenario.title, False, f"{where}: {problem}")
        except Exception as exc:  # an engine bug must not stop the other scenarios
            message = f"{where}: engine error: {_exc_text(exc)}"
            return ScenarioResult(scenario.source, scenario.title, False, message)
    return ScenarioResult(scenario.source, scenario.title, True)


def build_game(scenario: Scenario, catalog: Mapping[str, CardDef]) -> Game:
    """The game at the scenario's starting position."""
    setup = scenario.file.setup
    position = Position(
        players=[_player_setup(p) for p in setup.players],
        active=setup.active,
        door_deck=list(setup.door_deck),
        treasure_deck=list(setup.treasure_deck),
        door_discard=list(setup.door_discard),
        treasure_discard=list(setup.treasure_discard),
        first_door_kicked=setup.first_door_kicked,
        options=_options(scenario),
    )
    dice = scenario.file.dice
    try:
        return build(catalog, position, seed=scenario.file.seed, dice=dice)
    except UnknownCard as exc:
        raise ScenarioError(f"{scenario.source}: setup: unknown card {show(exc.args[0])}") from None
    except DiceExhausted:
        raise ScenarioError(f"{scenario.source}: setup: dice exhausted") from None
    except PositionError as exc:
        raise ScenarioError(f"{scenario.source}: setup: {exc}") from None
    except Exception as exc:
        raise ScenarioError(f"{scenario.source}: setup: engine error: {_exc_text(exc)}") from None


def _options(scenario: Scenario) -> TableOptions:
    try:
        return parse_options(scenario.file.options, f"{scenario.source}: options")
    except OptionsError as exc:
        raise ScenarioError(str(exc)) from None


def _player_setup(p: PlayerSpec) -> PlayerSetup:
    return PlayerSetup(
        name=p.name,
        level=p.level,
        sex=p.sex,
        race=list(p.race),
        class_=list(p.class_),
        hand=list(p.hand),
        equipped=list(p.equipped),
        carried=list(p.carried),
        steeds=list(p.steeds),
        curses=list(p.curses),
        boosts=list(p.boosts),
        hirelings=[HirelingSetup(h.card, list(h.carrying)) for h in p.hirelings],
    )
