"""Playing a scenario's steps through the engine (shared/spec/scenario-format.md).

An action step first lets the other players' decisions take their defaults until the action
is legal, as the format says. Beyond that, the runner reads a step as a player would mean it
(README, "Scenarios"):

- the player's own step the action implies is taken first: a face-up door card is kept
  before the turn goes on with anything else (B4), a lost fight is given up before running
  from it (B9);
- a field the format lets one leave out is filled in when only one legal action fits: the
  monster of a one-monster fight for `on:`, the class power a `discard` pays for (B14);
- `pass` by a player nobody is asking is nothing to do (R17: one who could only pass is not
  asked);
- `settle` lets a fighter's `resolve_combat` stand after others answered it, as long as the
  fighter does nothing else in that fight (R17).

Nothing else is ever decided for the acting player, and a step marked `refused: true` gets
none of this.
"""

from __future__ import annotations

from dataclasses import dataclass

from munchkin.engine.actions import Action, action
from munchkin.engine.errors import RulesError
from munchkin.engine.game import Game
from munchkin.engine.rules.strength import munchkins_win
from munchkin.scenario.checks import check_expect
from munchkin.scenario.model import ActionStep, ExpectStep, SettleStep, Step

MAX_DEFAULTS = 500
"""Most default decisions applied for one step before the runner gives up."""
LEGAL_SHOWN = 30
"""Most legal actions listed in a failure message."""
RUN_VERBS = frozenset({"run_away", "sacrifice_hireling"})
"""Verbs of a fighter who has lost (B9, H4)."""
PAID_POWERS = ("berserk", "turn_undead", "backstab")
"""Class powers paid for by discarding one card, each one `discard` may stand for (B14)."""
PAID_ANSWERS = ("reroll", "flight")
"""Questions answered by discarding a card (the Halfling's second roll, the Wizard's flight,
B14): `discard` that card stands for choosing it."""


class StepFailure(Exception):
    """A step that did not go as the scenario says."""


@dataclass
class Table:
    """A scenario's game, and what the runner remembers between steps: whether the active
    fighter said `resolve_combat` in the fight on now (`ready_in`: that fight's number)."""

    game: Game
    fights: int = 0
    ready_in: int = -1
    was_fighting: bool = False

    def note_fight(self) -> None:
        """Count the fights as they start, so a readiness never outlives its fight."""
        fighting = self.game.state.combat is not None
        if fighting and not self.was_fighting:
            self.fights += 1
        self.was_fighting = fighting


def run_step(table: Table, step: Step) -> None:
    """Carry out one step; raise `StepFailure` when it does not go as written."""
    if isinstance(step, SettleStep):
        settle(table)
    elif isinstance(step, ExpectStep):
        problems = list(check_expect(table.game, step))
        if problems:
            raise StepFailure("; ".join(problems))
    elif step.refused:
        expect_refusal(table.game, step)
    else:
        play_action(table, step)
    table.note_fight()


def play_action(table: Table, step: ActionStep) -> None:
    """Apply defaults of other players until the action is legal, then apply it (or what it
    stands for); the step the action implies of its own player is taken first."""
    game, player = table.game, step.player
    for _ in range(MAX_DEFAULTS):
        table.note_fight()
        meant = _as_written_or_meant(game, player, step.action)
        if meant is not None:
            _apply(table, player, meant)
            return
        others = [name for name in game.waiting_for() if name != player]
        implied = None if others else implied_step(game, player, step.action)
        if implied is not None:
            _apply(table, player, implied)
        elif others:
            apply_default(game, others[0])
        elif step.action.verb == "pass":
            return  # nobody is asking the player: nothing to do (R17)
        else:
            reason = game.refusal(player, step.action)
            raise StepFailure(f"not legal: {reason}; {legal_list(game, player)}")
    raise StepFailure(f"still not legal after {MAX_DEFAULTS} default decisions of other players")


def _apply(table: Table, player: str, action: Action) -> None:
    """Apply a decision of the acting player, remembering a fighter's readiness."""
    game = table.game
    table.note_fight()
    combat = game.state.combat
    fighter = combat is not None and game.state.players[combat.fighter].name == player
    game.apply(player, action)
    if fighter:
        table.ready_in = table.fights if action.verb == "resolve_combat" else -1


def _as_written_or_meant(game: Game, player: str, action: Action) -> Action | None:
    """The action, when legal; else the one legal action it stands for with a field left
    out: `on:` the only monster it may go on, or the class power a `discard` pays for (a
    Warrior's, a Cleric's, a Thief's on the only fighter, the Halfling's second roll, the
    Wizard's flight)."""
    if game.refusal(player, action) is None:
        return action
    legal = game.legal_actions(player)
    if action.verb == "play" and action.on is None:
        fits = [a for a in legal if a.verb == "play" and a.arg == action.arg and a.target == action.target]
    elif action.verb == "discard":
        prompt = game.state.prompt
        answers = prompt is not None and prompt.kind in PAID_ANSWERS
        fits = [
            a
            for a in legal
            if a.arg == action.arg and (a.verb in PAID_POWERS or (answers and a.verb == "choose"))
        ]
    else:
        return None
    return fits[0] if len(fits) == 1 else None


def implied_step(game: Game, player: str, action: Action) -> Action | None:
    """The player's own step that `action` implies, when only it stands in the way: the
    face-up door card kept in the hand when the player goes on with anything but that card
    (B4: whatever is not played goes to the hand), the fight given up (`resolve_combat`)
    before running from it while losing (B9), the room looted before ending a turn that
    fought no monster (B4, R2)."""
    g = game.state
    legal = game.legal_actions(player)
    if g.face_up is not None and action.arg != g.card(g.face_up).id:
        return next((a for a in legal if a.verb == "keep"), None)
    if action.verb in RUN_VERBS and g.combat is not None and not munchkins_win(g):
        return next((a for a in legal if a.verb == "resolve_combat"), None)
    if action.verb == "end_turn":
        return next((a for a in legal if a.verb == "loot_room"), None)
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


def settle(table: Table) -> None:
    """Defaults for every pending decision of players other than the active player; a
    fighter's `resolve_combat` given in this fight stands when it is asked again."""
    game = table.game
    for _ in range(MAX_DEFAULTS):
        table.note_fight()
        if game.over:
            return
        active = game.state.players[game.state.active].name
        others = [name for name in game.waiting_for() if name != active]
        if others:
            apply_default(game, others[0])
        elif table.ready_in == table.fights and _ready_again(game, active):
            _apply(table, active, action("resolve_combat"))
        else:
            return
    raise StepFailure(f"the game did not settle after {MAX_DEFAULTS} default decisions")


def _ready_again(game: Game, player: str) -> bool:
    """Whether the player fights and may say `resolve_combat` (again)."""
    combat = game.state.combat
    return (
        combat is not None
        and game.state.players[combat.fighter].name == player
        and game.refusal(player, action("resolve_combat")) is None
    )


def apply_default(game: Game, player: str) -> None:
    """Apply `player`'s default decision."""
    action = game.default_action(player)
    try:
        game.apply(player, action)
    except RulesError as exc:
        raise StepFailure(
            f"engine error: the default decision of {player} ({action}) was refused: {exc}"
        ) from None


def legal_list(game: Game, player: str) -> str:
    """The player's legal actions (the first `LEGAL_SHOWN`) and whom the game waits for."""
    actions = [str(a) for a in game.legal_actions(player)]
    waiting = ", ".join(game.waiting_for()) or "nobody"
    if not actions:
        return f"{player} has no legal action now (waiting for: {waiting})"
    shown = ", ".join(actions[:LEGAL_SHOWN]) + (", ..." if len(actions) > LEGAL_SHOWN else "")
    return f"legal for {player}: {shown} (waiting for: {waiting})"
