"""Load, run and check scenarios (shared/spec/scenario-format.md).

`run_paths` turns files and folders into one `ScenarioResult` per scenario.
Nothing a scenario file holds, and nothing the engine raises while running it,
stops the other scenarios: every problem becomes a FAIL whose message names
the file, the step (1-based) or key, and what is wrong.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
from munchkin.engine.actions import Action
from munchkin.engine.errors import DiceExhausted, RulesError
from munchkin.engine.game import Game
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.engine.rules.strength import munchkins_win
from munchkin.engine.setup import HirelingSetup, PlayerSetup, Position, UnknownCard, build
from munchkin.engine.state import PlayerState
from munchkin.errortext import clean, show, suggest
from munchkin.scenario.model import (
    ActionPattern,
    ActionStep,
    ExpectStep,
    PileChecks,
    PlayerChecks,
    PlayerSpec,
    Scenario,
    ScenarioError,
    SettleStep,
    Step,
    parse_scenario,
)

MAX_SCENARIO_BYTES = 1024 * 1024
"""Largest scenario file accepted (1 MiB)."""
MAX_DEFAULTS = 500
"""Most default decisions applied for one step before the runner gives up."""
_LEGAL_SHOWN = 30
"""Most legal actions listed in a failure message."""


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
        """`PASS title` or `FAIL title: reason`."""
        return f"PASS {self.title}" if self.ok else f"FAIL {self.title}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "title": self.title, "ok": self.ok, "message": self.message}


class StepFailure(Exception):
    """A step whose check or action did not go as the scenario says."""


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
        size = Path(path).stat().st_size
        if size > MAX_SCENARIO_BYTES:
            raise ScenarioError(f"{source}: file too large ({size / 2**20:.1f} MiB; the limit is 1 MiB)")
        return load_yaml(read_text_file(path, source), source)
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
    game = build_game(scenario, catalog)
    for number, step in enumerate(scenario.steps, start=1):
        where = f"{scenario.source}: step {number} ({step.describe()})"
        try:
            run_step(game, step)
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


def run_step(game: Game, step: Step) -> None:
    """Carry out one step; raise `StepFailure` when it does not go as written."""
    if isinstance(step, SettleStep):
        settle(game)
    elif isinstance(step, ExpectStep):
        problems = list(check_expect(game, step))
        if problems:
            raise StepFailure("; ".join(problems))
    elif step.refused:
        expect_refusal(game, step)
    else:
        play_action(game, step)


def play_action(game: Game, step: ActionStep) -> None:
    """Apply defaults of other players until the action is legal, then apply it; the step
    the action implies of its own player is taken first (`implied_step`)."""
    for _ in range(MAX_DEFAULTS):
        try:
            game.check(step.player, step.action)
        except RulesError as exc:
            others = [name for name in game.waiting_for() if name != step.player]
            implied = None if others else implied_step(game, step.player, step.action)
            if implied is not None:
                game.apply(step.player, implied)
                continue
            if not others:
                raise StepFailure(f"not legal: {exc}; {_legal_list(game, step.player)}") from None
            apply_default(game, others[0])
        else:
            game.apply(step.player, step.action)
            return
    raise StepFailure(f"still not legal after {MAX_DEFAULTS} default decisions of other players")


RUN_VERBS = frozenset({"run_away", "sacrifice_hireling"})
"""Verbs of a fighter who has lost (B9, H4)."""


def implied_step(game: Game, player: str, action: Action) -> Action | None:
    """The player's own step that `action` implies, when only it stands in the way: the
    face-up door card kept in the hand when the player goes on with anything but that card
    (B4: whatever is not played goes to the hand), the fight given up (`resolve_combat`)
    before running from it while losing (B9). None otherwise: nothing else is ever decided
    for the acting player."""
    g = game.state
    legal = game.legal_actions(player)
    if g.face_up is not None and action.arg != g.card(g.face_up).id:
        return next((a for a in legal if a.verb == "keep"), None)
    if action.verb in RUN_VERBS and g.combat is not None and not munchkins_win(g):
        return next((a for a in legal if a.verb == "resolve_combat"), None)
    return None


def expect_refusal(game: Game, step: ActionStep) -> None:
    """The engine must refuse the action with a rules error and change nothing."""
    before = game.fingerprint()
    try:
        game.apply(step.player, step.action)
    except RulesError:
        if game.fingerprint() != before:
            raise StepFailure("the engine refused the action but changed the game state") from None
        return
    raise StepFailure("expected the engine to refuse this action, but it was accepted")


def settle(game: Game) -> None:
    """Defaults for every pending decision of players other than the active player."""
    for _ in range(MAX_DEFAULTS):
        if game.over:
            return
        active = game.state.players[game.state.active].name
        others = [name for name in game.waiting_for() if name != active]
        if not others:
            return
        apply_default(game, others[0])
    raise StepFailure(f"the game did not settle after {MAX_DEFAULTS} default decisions")


def apply_default(game: Game, player: str) -> None:
    """Apply `player`'s default decision."""
    action = game.default_action(player)
    try:
        game.apply(player, action)
    except RulesError as exc:
        raise StepFailure(
            f"engine error: the default decision of {player} ({action}) was refused: {exc}"
        ) from None


def _legal_list(game: Game, player: str) -> str:
    actions = [str(a) for a in game.legal_actions(player)]
    waiting = ", ".join(game.waiting_for()) or "nobody"
    if not actions:
        return f"{player} has no legal action now (waiting for: {waiting})"
    shown = ", ".join(actions[:_LEGAL_SHOWN]) + (", ..." if len(actions) > _LEGAL_SHOWN else "")
    return f"legal for {player}: {shown} (waiting for: {waiting})"


# ------------------------------------------------------------------------- checks


def check_expect(game: Game, step: ExpectStep) -> Iterator[str]:
    """A message for every check of the step that does not hold."""
    for name, checks in step.players.items():
        yield from check_player(game, name, checks)
    if step.combat is not None:
        yield from check_combat(game, step.combat.player_strength, step.combat.monster_strength)
    state = game.state
    for key, pile in (("door_discard", state.door_discard), ("treasure_discard", state.treasure_discard)):
        pile_checks: PileChecks | None = getattr(step, key)
        if pile_checks is not None:
            yield from check_pile(key, state.ids(pile), pile_checks)
    winners: list[str | None] = list(game.winners) or [None]
    if step.check_winner and step.winner not in winners:
        yield _mismatch("winner", step.winner, game.winners or None)
    if step.winners is not None and not same_cards(list(step.winners), game.winners):
        yield _mismatch("winners", list(step.winners), game.winners)
    for name, patterns in step.legal.items():
        yield from (f"legal.{name}: {p} is not legal" for p in patterns if not is_legal(game, name, p))
    for name, patterns in step.not_legal.items():
        yield from (f"not_legal.{name}: {p} is legal" for p in patterns if is_legal(game, name, p))


def check_player(game: Game, name: str, checks: PlayerChecks) -> Iterator[str]:
    """Mismatches of one player's checks."""
    state = game.state
    p = state.players[state.index(name)]
    scalars = {
        "level": lambda: p.level,
        "sex": lambda: p.sex,
        "hand_count": lambda: len(p.hand),
        "dead": lambda: p.dead,
    }
    for key, get in scalars.items():
        expected = getattr(checks, key)
        if expected is not None and expected != (actual := get()):
            yield _mismatch(f"{name}.{key}", expected, actual)
    if checks.run_away_modifier is not None:
        modifier = game.explain_run_away(name)
        if modifier.total != checks.run_away_modifier:
            yield _mismatch(
                f"{name}.run_away_modifier", checks.run_away_modifier, f"{modifier.total} ({modifier})"
            )
    exact = {"race": p.races, "class_": p.classes, "steeds": p.steeds, "hirelings": p.hirelings}
    for key, zone in exact.items():
        expected = getattr(checks, key)
        if expected is not None and not same_cards(expected, state.ids(zone)):
            yield _mismatch(f"{name}.{key.rstrip('_')}", expected, state.ids(zone))
    includes = {"hand": p.hand, "equipped": p.equipped, "carried": p.carried, "in_play": in_play(game, p)}
    for key, zone in includes.items():
        expected = getattr(checks, key)
        if expected is not None and not includes_cards(state.ids(zone), expected):
            yield _mismatch(f"{name}.{key}", expected, state.ids(zone), "to include ")
    if checks.not_in_play is not None:
        present = set(state.ids(in_play(game, p)))
        found = [card for card in checks.not_in_play if card in present]
        if found:
            expected = _fmt(checks.not_in_play)
            yield f"{name}.not_in_play: expected none of {expected} in play, found {_fmt(found)}"
    if checks.hireling_items is not None:
        yield from check_hireling_items(game, name, p, checks.hireling_items)


def check_hireling_items(
    game: Game, name: str, p: PlayerState, expected: Mapping[str, list[str]]
) -> Iterator[str]:
    """Each named hireling carries exactly the items named."""
    state = game.state
    for hireling, items in expected.items():
        instances = [h for h in p.hirelings if state.defs[h].id == hireling]
        key = f"{name}.hireling_items.{hireling}"
        if not instances:
            yield f"{key}: {name} has no hireling '{hireling}' (hirelings: {_fmt(state.ids(p.hirelings))})"
            continue
        actual = [card for h in instances for card in state.ids(state.carrying.get(h, []))]
        if not same_cards(items, actual):
            yield _mismatch(key, items, actual)


def check_combat(game: Game, player_strength: int | None, monster_strength: int | None) -> Iterator[str]:
    """The strength of both sides of the fight on now."""
    if game.state.combat is None:
        yield "combat: no fight is on"
        return
    munchkins, monsters = game.explain_combat()
    if player_strength is not None and munchkins.total != player_strength:
        yield _mismatch("combat.player_strength", player_strength, f"{munchkins.total} ({munchkins})")
    if monster_strength is not None and monsters.total != monster_strength:
        yield _mismatch("combat.monster_strength", monster_strength, f"{monsters.total} ({monsters})")


def check_pile(key: str, actual: list[str], checks: PileChecks) -> Iterator[str]:
    """A discard pile's includes/excludes."""
    if not includes_cards(actual, checks.includes):
        yield _mismatch(f"{key}.includes", checks.includes, actual, "to include ")
    found = [card for card in checks.excludes if card in actual]
    if found:
        yield f"{key}.excludes: expected none of {_fmt(checks.excludes)}, found {_fmt(found)}"


def in_play(game: Game, p: PlayerState) -> list[int]:
    """Every card a player has in play: races, classes, items, steeds, hirelings, their items,
    lasting curses, and the cards attached to any of these."""
    state = game.state
    cards = [*p.races, *p.classes, *p.boosts, *p.curses, *state.items_in_play(p), *p.hirelings]
    attached = [a for card in cards for a in state.attached.get(card, [])]
    return list(dict.fromkeys(cards + attached))


def is_legal(game: Game, player: str, pattern: ActionPattern) -> bool:
    """Whether some legal action matches the pattern, or the action as written is accepted."""
    if any(pattern.matches(a) for a in game.legal_actions(player)):
        return True
    try:
        game.check(player, pattern.action)
    except RulesError:
        return False
    return True


def same_cards(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Lists compared as sets; an id listed more than once must be there that many times."""
    if set(expected) != set(actual):
        return False
    want, have = Counter(expected), Counter(actual)
    return all(have[card] == count for card, count in want.items() if count > 1)


def includes_cards(actual: Sequence[str], expected: Sequence[str]) -> bool:
    """Whether `actual` holds every expected id (as many copies as listed)."""
    have = Counter(actual)
    return all(have[card] >= count for card, count in Counter(expected).items())


def _mismatch(key: str, expected: object, actual: object, relation: str = "") -> str:
    return f"{key}: expected {relation}{_fmt(expected)}, got {_fmt(actual)}"


def _fmt(value: object) -> str:
    """A value as the scenario file would write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)
