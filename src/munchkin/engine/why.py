"""Why not, and what else: the reason behind a refusal, and what a play would do besides
its own effect, for interfaces that grey out cards and warn before a play (issue 13).

Both come from the engine's own checks and moves, never a second copy of them: a refusal
is the `RulesError` that `apply` would raise; the consequences are read off a copy of the
game on which the action was applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from munchkin.engine.actions import Action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event

if TYPE_CHECKING:
    from munchkin.engine.game import Game


class Consequence(NamedTuple):
    """Something a decision does besides what it is for, worth a warning: `kind` is
    "replaces" (a race or class discarded for the new one), "carried" (an item that goes
    into play but not into use), or "loses" (a card lost to a limit)."""

    kind: str
    card: str
    rule: str
    message: str


def refusal(game: Game, player: str, action: Action) -> RulesError | None:
    """The error `apply` would raise for this action now, or None when it is legal."""
    if action in game.legal_actions(player):
        return None
    try:
        game.check(player, action)
    except RulesError as exc:
        return exc
    return None


def why_not_play(game: Game, player: str, card_id: str) -> RulesError | None:
    """Why no play of this card is legal now (its plainest play's refusal), or None when
    one is."""
    if any(a.verb == "play" and a.arg == card_id for a in game.legal_actions(player)):
        return None
    return refusal(game, player, Action("play", card_id))


def consequences(game: Game, player: str, action: Action) -> list[Consequence]:
    """What a legal action would also do to the player's own cards: a race or class it
    replaces (B14), an item that goes into play carried, not in use (B11), cards lost to a
    limit (B11, S2). Empty for an action that is not legal."""
    if refusal(game, player, action) is not None:
        return []
    trial = game.copy()
    events = trial.apply(player, action)
    g, seat = game.state, game.state.index(player)
    before, after = g.players[seat], trial.state.players[seat]
    found = [
        Consequence("replaces", g.cards[i].id, "B14", f"{g.cards[i].name} is discarded for it")
        for i in before.races + before.classes
        if i not in after.races + after.classes and i in trial.state.door_discard
    ]
    if action.verb == "play" and action.arg is not None:
        new = [i for i in after.carried if i not in before.carried and g.cards[i].id == action.arg]
        found += [Consequence("carried", action.arg, "B11", _carried_reason(g.cards[i].name)) for i in new]
    found += [_lost(e) for e in events if e.kind == "card_lost" and e.data.get("player") == player]
    return found


def _carried_reason(name: str) -> str:
    return f"you cannot use {name} now: it will be carried, not in use"


def _lost(event: Event) -> Consequence:
    return Consequence("loses", event["card"], "B11", f"{event['card']} is lost to a limit")
