"""When may a player act: turn phases and the fight's stages (B4, B11, B16)."""

from __future__ import annotations

from munchkin.engine.state import GameState
from munchkin.engine.verbs import refuse

OWN_TURN_PHASES = ("start", "face_up", "after_door", "end")


def own_turn_calm(g: GameState, seat: int) -> bool:
    """On your own turn outside combat (B11), or before the first turn (B1)."""
    if g.phase == "setup":
        return not g.setup_passed[seat]
    return (
        seat == g.active
        and g.phase in OWN_TURN_PHASES
        and g.prompt is None
        and g.offer is None
        and g.pending is None
    )


def own_turn(g: GameState, seat: int) -> bool:
    """Any time on your own turn, even in a fight (B14), or before the first turn (B1)."""
    if g.phase == "setup":
        return not g.setup_passed[seat]
    return seat == g.active and free_to_act(g, seat) and g.prompt is None and g.offer is None


def require_own_turn_calm(g: GameState, seat: int, rule: str, what: str) -> None:
    if not own_turn_calm(g, seat):
        raise refuse(rule, f"{what} only on your own turn, outside combat")


def in_fight(g: GameState) -> bool:
    """A fight is on and not yet lost (B16)."""
    return (
        g.combat is not None
        and g.combat.stage == "fight"
        and not g.tasks
        and g.prompt is None
        and g.pending is None
    )


def free_to_act(g: GameState, seat: int) -> bool:
    """No one else's question is open, the game is not over, the player is alive."""
    return (g.prompt is None or g.prompt.player == seat) and _unhindered(g, seat)


SETTLED_AT_ONCE = ("take_off", "get_rid", "keep_race", "keep_class")
"""Questions settled at once, before anyone else acts: a broken limit, a second race or class
left without its Half-Breed or Super Munchkin (B11, B14)."""


def another_is_asked(g: GameState, seat: int) -> bool:
    """Someone else has a decision open, one not settled at once (R56): another player's
    question (also while what comes after it waits), a trade offer, or a roll or a curse
    awaiting answers."""
    prompt = g.prompt
    if prompt is not None and (prompt.player == seat or prompt.kind in SETTLED_AT_ONCE):
        return False
    asked = prompt is not None or g.offer is not None or g.pending is not None
    return asked and g.phase != "over" and not g.players[seat].dead


def _unhindered(g: GameState, seat: int) -> bool:
    return g.phase != "over" and not g.players[seat].dead and not g.tasks and g.pending is None
