"""Checks of a whole game, shared by the soak run (scripts/soak.py) and the property tests.

Each `*_problems` function returns what is wrong, as sentences: an empty list means the
check passed. The cheap ones run after every decision; the others (which copy the game
and try actions on the copies) at a sample of decisions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import VERBS, Action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.invariants import card_places, hidden_redrawn, levels
from munchkin.engine.state import IN_PLAY_ZONES, GameState
from munchkin.match import replay
from munchkin.views import view

SET_CHOICES = ("base", "base,horses")
"""The card sets soak games and property tests choose from."""
UNKNOWN_VERB = "no-such-verb"


@cache
def cards_of(sets: str) -> tuple[CardDef, ...]:
    """The cards of comma-separated built-in sets, loaded once per process."""
    return tuple(load_builtin_sets(sets.split(",")))


def cheap_problems(game: Game) -> list[str]:
    """Every card in exactly one place, levels from 1 to the win level, only winners there,
    and the game over exactly when someone has won (B2, B3); then `link_problems`."""
    problems = card_places(game.state) + levels(game.state)
    if game.over != bool(game.winners):
        problems.append(f"over={game.over} but winners={game.winners}")
    return problems + link_problems(game.state)


def link_problems(g: GameState) -> list[str]:
    """What links cards to cards and players stays true: items are carried only by hirelings
    in play, nothing stays attached to a card in a deck or a discard pile, a changed sex
    belongs to a hireling in play (H7, B17, S5, H15); at most two races and two classes
    (B14); the dead hold no cards until their next turn (B10)."""
    hirelings = {h for p in g.players for h in p.hirelings}
    piles = set(g.door_deck + g.treasure_deck + g.door_discard + g.treasure_discard)
    problems = [
        f"{g.defs[h].id} carries items out of play"
        for h, items in g.carrying.items()
        if items and h not in hirelings
    ]
    problems += [
        f"cards stay attached to {g.defs[h].id} in a pile"
        for h, on in g.attached.items()
        if on and h in piles
    ]
    problems += [f"{g.defs[h].id} keeps a changed sex out of play" for h in g.card_sex if h not in hirelings]
    for p in g.players:
        if len(p.races) > 2 or len(p.classes) > 2:
            problems.append(f"{p.name} has races {g.ids(p.races)} and classes {g.ids(p.classes)}")
        if p.dead and (p.hand or any(getattr(p, zone) for zone in IN_PLAY_ZONES)):
            problems.append(f"{p.name} is dead but holds cards")
    return problems


def all_legal(game: Game) -> tuple[dict[str, list[Action]], list[str]]:
    """Every player's legal actions, and a problem for each player for whom listing raised."""
    legal: dict[str, list[Action]] = {}
    problems = []
    for player in game.players:
        try:
            legal[player] = game.legal_actions(player)
        except Exception as exc:
            legal[player] = []
            problems.append(f"legal_actions({player}) raised {exc!r}")
    return legal, problems


def liveness_problems(game: Game, legal: dict[str, list[Action]]) -> list[str]:
    """A game that is not over waits for someone, and everyone it waits for can act."""
    waiting = game.waiting_for()
    if not game.over and not waiting:
        return ["the game waits for nobody"]
    return [f"the game waits for {p}, who has no legal action" for p in waiting if not legal[p]]


def try_on_copy(game: Game, player: str, action: Action) -> tuple[RulesError | None, list[str]]:
    """Apply `action` to a copy of the game: the refusal, if any, and the problems seen (an
    exception other than RulesError, a refusal that changed the state, an accepted action
    that broke the cheap invariants)."""
    trial = game.copy()
    before = trial.fingerprint()
    try:
        trial.apply(player, action)
    except RulesError as exc:
        changed = trial.fingerprint() != before
        return exc, [f"{player}: refused {action} changed the state"] if changed else []
    except Exception as exc:
        return None, [f"{player}: {action} raised {exc!r} instead of a RulesError"]
    return None, [f"after {player}: {action}: {p}" for p in cheap_problems(trial)]


def acceptance_problems(
    game: Game, legal: dict[str, list[Action]], rng: random.Random, per_player: int
) -> list[str]:
    """A sample of each player's listed actions, tried on copies: each is accepted, keeps
    the cheap invariants, and leaves the original game as it was."""
    before = game.fingerprint()
    problems = []
    for player, actions in legal.items():
        for action in rng.sample(actions, min(per_player, len(actions))):
            refusal, seen = try_on_copy(game, player, action)
            problems += seen + ([f"{player}: listed {action} {refusal}"] if refusal else [])
    if game.fingerprint() != before:
        problems.append("applying actions to copies changed the original game")
    return problems


def refusal_problems(
    game: Game, legal: dict[str, list[Action]], attempts: Sequence[tuple[str, Action]]
) -> list[str]:
    """Real actions (listed at other moments or for other players) that are not listed now
    for the player who tries them: each is refused and changes nothing."""
    problems = []
    for player, action in attempts:
        if action not in legal[player]:
            refusal, seen = try_on_copy(game, player, action)
            problems += seen + ([] if refusal else [f"{player}: {action} accepted though not listed"])
    return problems


def junk_problems(game: Game, attempts: Sequence[tuple[str, Action]]) -> list[str]:
    """Junk actions are refused without a change, or accepted keeping the invariants
    (`apply` ignores the fields a verb does not use)."""
    return [problem for player, action in attempts for problem in try_on_copy(game, player, action)[1]]


def won_problems(game: Game) -> list[str]:
    """A won game waits for nobody, lists nothing and refuses every verb naming B2."""
    if not game.over:
        return []
    problems = [f"the won game waits for {game.waiting_for()}"] if game.waiting_for() else []
    for player in game.players:
        if game.legal_actions(player):
            problems.append(f"the won game lists actions for {player}")
        for verb in VERBS:
            refusal, seen = try_on_copy(game, player, Action(verb))
            if refusal is None or refusal.rule != "B2":
                seen.append(f"{player}: {verb} after the win: {refusal or 'accepted'}, not refused (B2)")
            problems += seen
    return problems


def view_problems(game: Game, rng: random.Random) -> list[str]:
    """No view depends on hidden cards: redrawing them changes nothing a player sees,
    their legal actions included (non-interference)."""
    problems = []
    for player in game.players:
        if view(game, player).to_dict() != view(hidden_redrawn(game, player, rng), player).to_dict():
            problems.append(f"{player}'s view changes with cards hidden from them")
    return problems


def replay_problems(
    cards: Sequence[CardDef], game: Game, seed: int, decisions: Sequence[tuple[str, Action]]
) -> list[str]:
    """Replaying the seed, the table options and the decisions gives the same state (B19)."""
    try:
        again = replay(cards, len(game.players), seed, decisions, game.options)
    except Exception as exc:
        return [f"replay of {len(decisions)} decisions raised {exc!r}"]
    return (
        [] if again.fingerprint() == game.fingerprint() else [f"replay of {len(decisions)} decisions differs"]
    )


# -- junk actions ------------------------------------------------------------------------------


def action_fields(cards: Sequence[CardDef], players: Sequence[str]) -> dict[str, list[Any]]:
    """The values each field of a junk action is drawn from, the field's default first:
    real card ids and player names, and unknown ones."""
    ids = sorted({c.id for c in cards})
    names = [*players, "nobody"]
    some_cards = [(), *((i,) for i in ids), (ids[0], ids[-1])]
    return {
        "verb": [*VERBS, UNKNOWN_VERB],
        "arg": [None, *ids, *names, "no-such-card"],
        "target": [None, *names],
        "on": [None, *ids],
        "hireling": [None, *ids],
        "cards": some_cards,
        "give": some_cards,
        "take": some_cards,
        "reward": [0, 1, 2, -1],
        "helper_escapes": [False, True],
    }


def junk_action(rng: random.Random, fields: dict[str, list[Any]], filled: float = 0.3) -> Action:
    """A random verb, each other field left at its default or, with chance `filled`, drawn."""
    values = {
        key: rng.choice(choices) if rng.random() < filled else choices[0] for key, choices in fields.items()
    }
    return Action(**{**values, "verb": rng.choice(fields["verb"])})
