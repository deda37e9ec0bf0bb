"""Menus of legal actions: what Enter does, and the kinds actions are grouped by, in order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from munchkin.engine.actions import Action

DEFAULT_VERBS = (
    "pass",
    "decline_help",
    "decline_trade",
    "resolve_combat",
    "run_away",
    "kick_door",
    "loot_room",
    "end_turn",
)
"""What Enter does, best first: let the game go on without giving anything away."""
COSTLY_VERBS = ("sell", "discard", "backstab", "steal", "trade", "sacrifice_hireling")
"""Verbs Enter never falls back to: they give something away."""


NO_DEFAULT_PROMPTS = ("set_die", "lose_card", "tax_item", "pay_tax")
"""Questions whose answers Enter never picks: which is best depends on whose roll or on the
items' worth to the player (the first option may be the worst)."""


def default_action(legal: Sequence[Action], losing: bool = False, prompt: str | None = None) -> Action | None:
    """What Enter does: the first legal action by `DEFAULT_VERBS` (pass where allowed), else the
    card drawn face up kept, else the first legal action that gives nothing away (`COSTLY_VERBS`),
    else nothing. While the player is `losing` their fight, never "Fight!": no default
    at all when that is the only way on without giving something away. An answer to a
    question of kind `prompt` in `NO_DEFAULT_PROMPTS` is never the default."""
    if prompt in NO_DEFAULT_PROMPTS:
        legal = [a for a in legal if a.verb != "choose"]
    for verb in DEFAULT_VERBS:
        if Action(verb) in legal and not (losing and verb == "resolve_combat"):
            return Action(verb)
    if losing and Action("resolve_combat") in legal:
        return None
    kept = [a for a in legal if a.verb == "keep"]  # a card drawn face up, kept in the hand (B4)
    return next((a for a in kept + list(legal) if a.verb not in COSTLY_VERBS), None)


GROUPS = {
    "main": "To do now",
    "play": "Play a card",
    "powers": "Race and class powers",
    "items": "Your items: put on, take off, sell, discard",
    "help": "Ask for help",
    "trade": "Trade and give",
    "self_curse": "Curses on yourself",
}
"""The kinds of actions, in the order menus show them (self-curses last)."""
GROUP_VERBS = {
    "play": ("play", "look_for_trouble"),
    "powers": ("berserk", "turn_undead", "charm", "backstab", "steal"),
    "items": ("equip", "unequip", "sell", "discard"),
    "help": ("ask_help",),
    "trade": ("trade",),
}
CURSE_TYPES = ("curse", "trap")


def group_of(action: Action, me: str, types: Mapping[str, str]) -> str:
    """The kind of an action (`GROUPS`); `types`: card id -> card type."""
    if action.verb == "play" and types.get(action.arg or "") in CURSE_TYPES and action.target in (me, None):
        return "self_curse"
    return next((group for group, verbs in GROUP_VERBS.items() if action.verb in verbs), "main")


def grouped(
    legal: Sequence[Action], me: str, types: Mapping[str, str], first: Action | None = None
) -> list[tuple[str, list[Action]]]:
    """The legal actions by kind, in the order of `GROUPS`, `first` (the default) leading."""
    groups: dict[str, list[Action]] = {group: [] for group in GROUPS}
    for action in legal:
        groups[group_of(action, me, types)].append(action)
    if first is not None and first in groups["main"]:
        groups["main"].remove(first)
        groups["main"].insert(0, first)
    return [(group, actions) for group, actions in groups.items() if actions]
