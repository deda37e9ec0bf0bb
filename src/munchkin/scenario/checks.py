"""The checks of an `expect:` step (shared/spec/scenario-format.md): each one that does not
hold is a message naming the key, the expected and the actual value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.state import PlayerState
from munchkin.scenario.model import ActionPattern, ExpectStep, PileChecks, PlayerChecks


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
