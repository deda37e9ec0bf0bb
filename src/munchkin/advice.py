"""What a player is told besides the view, to decide well: why a card of the hand cannot be
played now, what a play would also cost, where the fight stands, and each runner's chance
against each monster. Everything here comes from the engine's own checks and breakdowns
(`Game.why_not_play`, `Game.consequences`, `munchkins_win`, `run_modifier`), and holds
nothing the player may not see: their own cards, and what is face up.

`PlayerView.advice` builds it on first use; bots never ask for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from munchkin.engine.rules.run_away import ESCAPE_ROLL, run_modifier
from munchkin.engine.rules.strength import monster_def, munchkins_win

if TYPE_CHECKING:
    from munchkin.engine.actions import Action
    from munchkin.engine.game import Game

PLAY_VERBS = ("play", "look_for_trouble")
"""The ways a card of the hand is used (a monster from the hand: looking for trouble)."""
WARNED_TYPES = frozenset({"race", "class", "item", "steed", "hireling", "other"})
"""Cards whose play may replace a race or class, or break a limit (`Game.consequences`)."""


def advise(game: Game, player: str, legal: Sequence[Action] | None = None) -> dict[str, Any]:
    """`why_not`: card id -> {rule, message} for each card of the hand no play of which is
    legal now; `warnings`: legal action index (as text) -> the consequences worth a warning
    before it; `combat`: `combat_advice`. `legal`: the player's legal actions now, if known."""
    g = game.state
    seat = g.index(player)
    if legal is None:
        legal = game.legal_actions(player)
    usable = {a.arg for a in legal if a.verb in PLAY_VERBS}
    why_not: dict[str, dict[str, str]] = {}
    if not game.over:
        for card_id in g.distinct_ids(g.players[seat].hand):
            if card_id in usable:
                continue
            refused = game.why_not_play(player, card_id)
            if refused is not None:
                why_not[card_id] = {"rule": refused.rule, "message": refused.message}
    types = {g.defs[i].id: g.defs[i].type for i in g.players[seat].hand + g.items_in_play(g.players[seat])}
    warnings: dict[str, list[dict[str, str]]] = {}
    for index, action in enumerate(legal):
        if action.verb in ("play", "equip") and types.get(action.arg or "") in WARNED_TYPES:
            found = game.consequences(player, action)
            if found:
                warnings[str(index)] = [c._asdict() for c in found]
    return {"why_not": why_not, "warnings": warnings, "combat": combat_advice(game)}


def combat_advice(game: Game) -> dict[str, Any] | None:
    """The fight as it stands (public): `margin` (munchkins minus monsters), `wins` (by the
    rules, ties to a Warrior), the fighters, and `run`: for each of them, each monster's
    escape chance on one die (B9), with the modifier's breakdown."""
    g = game.state
    c = g.combat
    if c is None:
        return None
    ours, theirs = game.explain_combat()
    run = {g.players[s].name: [_escape(game, s, m) for m in c.monsters] for s in c.fighters()}
    return {
        "margin": ours.total - theirs.total,
        "wins": munchkins_win(g),
        "fighter": g.players[c.fighter].name,
        "helper": None if c.helper is None else g.players[c.helper].name,
        "run": run,
    }


def _escape(game: Game, seat: int, monster: int) -> dict[str, Any]:
    """One runner against one monster: the faces of the die that escape, out of 6."""
    g = game.state
    p, card, c = g.players[seat], monster_def(g, monster), g.combat
    breakdown = run_modifier(g, seat, monster)
    out: dict[str, Any] = {
        "monster": g.defs[monster].id,
        "modifier": breakdown.total,
        "explain": str(breakdown),
        "needs": ESCAPE_ROLL,
    }
    if p.level <= card.escape_below or (c is not None and seat in c.escaped):
        out.update(faces=6, automatic="escapes")
    elif card.no_escape:
        out.update(faces=0, automatic="caught")
    else:
        out["faces"] = max(0, min(6, 7 - (ESCAPE_ROLL - breakdown.total)))
    return out
