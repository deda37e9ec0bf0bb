"""What a play gives up, to confirm before it, and why a legal play would do nothing now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from munchkin.cards.schema import CardDef, Effect
from munchkin.engine.actions import Action
from munchkin.words.names import Name, listed, namer


def carried_by(table: Mapping[str, Any], hireling: str) -> list[str]:
    """The ids of the items one of a player's hirelings carries (a view's table)."""
    found = (h for h in table.get("hirelings", []) if h["id"] == hireling)
    return [card["id"] for h in found for card in h.get("carrying", [])]


def _goes_with(table: Mapping[str, Any], hireling: str, n: Name) -> list[str]:
    """What a hireling carries leaves play with it (H11)."""
    items = [n(i) for i in carried_by(table, hireling)]
    if not items:
        return []
    verb = "goes" if len(items) == 1 else "go"
    return [f"{', '.join(items)}, carried by {n(hireling)}, {verb} with it (H11)"]


DISCARD_COSTS = {
    "race": "you lose {card} and what it gives you (B14)",
    "class": "you lose {card} and what it gives you (B14)",
    "other": "you lose {card} and what it gives you (B14)",
    "hireling": "you lose the hireling {card} (H3)",
    "steed": "you lose the steed {card} (S7)",
}
"""What discarding a card of each type from play costs (the `discard` verb)."""


def costs(
    action: Action, table: Mapping[str, Any], types: Mapping[str, str], names: Mapping[str, str]
) -> list[str]:
    """What a costly action gives up, to confirm before it (a repeated key never takes it
    unasked): discarding a card in play, a sale, a hireling's sacrifice, with the items a
    hireling carries (H9, H11). `table`: the player's own (a view's); `types`: card id ->
    type. Empty for any other action."""
    n = namer(names)
    if action.verb == "discard" and action.arg:
        words = DISCARD_COSTS.get(types.get(action.arg, ""), "you lose {card}")
        return [words.format(card=n(action.arg)), *_goes_with(table, action.arg, n)]
    if action.verb == "sell":
        sold = [f"{listed(n, action.cards)} go to the discard pile, for their gold (B12)"]
        return sold + [line for card in action.cards for line in _goes_with(table, card, n)]
    if action.verb == "sacrifice_hireling" and action.arg:
        return [f"you lose the hireling {n(action.arg)} (H4)", *_goes_with(table, action.arg, n)]
    return []


def _on_hireling(effect: Effect) -> bool:
    """Whether an effect acts on a hireling of its target: kills, takes or costs one (H3)."""
    return effect.kind in ("hireling_dies", "steal_hireling") or (
        effect.kind == "lose" and effect.arg == "hireling"
    )


def no_effect_now(
    action: Action,
    data: Mapping[str, Any],
    defs: Mapping[str, CardDef],
    advice: Mapping[str, Any] | None = None,
) -> str | None:
    """Why a legal play would do nothing now, or None: a card that only removes a curse,
    played on a player with no curse in play; a one-shot's run-away bonus for a runner on a
    steed whose run-away value replaces it (S6, R66: the runner's breakdown has the steed's
    part); a card that only acts on a hireling, played on a player with none (H3); a hireling
    sacrificed to escape monsters that are all escaped without a roll (H4, B9). `data`: the
    player's view; `advice`: `PlayerView.advice`."""
    me = data["player"]
    if action.verb == "sacrifice_hireling":
        run = ((advice or {}).get("combat") or {}).get("run", {}).get(me, [])
        if run and all(entry.get("automatic") == "escapes" for entry in run):
            return "you escape every monster without a roll"
    card = defs.get(action.arg or "") if action.verb == "play" else None
    if card is None:
        return None
    target = action.target or me
    table = next((t for t in data["players"] if t["name"] == target), None)
    whom = "you" if target == me else target
    if table is not None and card.effects:
        if all(e.kind == "remove_curse" for e in card.effects) and not table["curses"]:
            return f"no curse on {whom} to remove"
        if all(_on_hireling(e) for e in card.effects) and not table.get("hirelings"):
            return f"no hireling on {whom}"
    if card.type == "one_shot" and card.uses == "run_away" and card.run_away > 0 and not card.effects:
        run = ((advice or {}).get("combat") or {}).get("run", {}).get(me, [])
        if any("(S6)" in entry["explain"] for entry in run):
            return "your steed's run-away value replaces its bonus (S6, R66)"
    return None
