"""Events and explanations as readable sentences ("Ann kicks open the door: ...")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from munchkin.engine.events import Event

Render = Callable[[dict[str, Any], Callable[[str | None], str]], str | None]


def _door(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    level = f" (level {d['level']})" if d.get("level") is not None else ""
    return f"{d['player']} kicks open the door: {n(d['card'])}{level}."


def _roll(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """A die roll: to run away or steal (a success or not), or for the looting order among
    players tied in level (B10), which has no verdict."""
    mod = f" {d['modifier']:+d}" if d["modifier"] else ""
    against = f" against {n(d['card'])}" if d.get("card") else ""
    if "success" not in d:
        return f"{d['player']} rolls {d['roll']}{mod} for the {d['purpose']}."
    verdict = "success" if d["success"] else "failure"
    return f"{d['player']} rolls {d['roll']}{mod} to {d['purpose']}{against}: {verdict}."


def _treasures(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if not d["face_up"]:
        return f"{d['player']} draws {d['count']} treasure(s) face down."
    cards = ", ".join(n(c) for c in d["cards"]) or "nothing"
    return f"{d['player']} draws face up: {cards}; the helper takes {d['helper_gets']}."


def _played(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    on = f" on {n(d['on'])}" if d.get("on") else ""
    target = f" at {d['target']}" if d.get("target") else ""
    return f"{d['player']} plays {n(d['card'])}{on}{target}."


def _charity(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if d["to"] is None:
        return f"{d['player']} discards {n(d['card'])} as charity."
    return f"{d['player']} gives {n(d['card'])} to {d['to']} as charity."


def _swapped(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if d["card"] is None:
        return f"{d['player']} loses the {d['kind']} and finds none to take instead."
    return f"{d['player']} swaps {d['kind']} and is now {n(d['card'])}."


def _resolved(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    result = "win" if d["won"] else "lose"
    return f"The munchkins ({d['munchkins']}) {result} against the monsters ({d['monsters']})."


SENTENCES: dict[str, Render | None] = {
    "turn_started": lambda d, n: f"-- Turn {d['turn']}: {d['player']} --",
    "door_kicked": _door,
    "door_empty": lambda d, n: f"{d['player']} kicks open the door, but the deck is empty.",
    "monster_entered": lambda d, n: f"{n(d['card'])} (level {d['level']}) joins the fight.",
    "card_kept": lambda d, n: f"{d['player']} keeps {n(d['card'])}.",
    "card_played": _played,
    "room_looted": lambda d, n: f"{d['player']} loots the room.",
    "trouble_sought": lambda d, n: f"{d['player']} looks for trouble with {n(d['card'])}.",
    "cards_drawn": lambda d, n: f"{d['player']} draws {d['count']} {d['deck']} card(s).",
    "help_asked": lambda d, n: (
        f"{d['player']} asks {d['helper']} for help, promising {d['reward']} treasure(s)"
        + (f" and {', '.join(n(c) for c in d['items'])}." if d.get("items") else ".")
    ),
    "bribe_paid": lambda d, n: f"{d['player']} hands {', '.join(n(c) for c in d['cards'])} to {d['to']}.",
    "help_accepted": lambda d, n: f"{d['player']} agrees to help.",
    "help_declined": lambda d, n: f"{d['player']} declines to help.",
    "ready": None,
    "passed": None,
    "position_set": None,
    "combat_resolved": _resolved,
    "level_up": lambda d, n: f"{d['player']} goes up to level {d['level']} ({n(d['source'])}).",
    "level_down": lambda d, n: f"{d['player']} drops to level {d['level']} ({n(d['source'])}).",
    "treasures_drawn": _treasures,
    "combat_over": None,
    "running": lambda d, n: f"{d['player']} tries to run away.",
    "die_rolled": _roll,
    "escaped": lambda d, n: f"{d['player']} escapes{' automatically' if d['automatic'] else ''}.",
    "no_escape": lambda d, n: f"{d['player']} cannot escape {n(d['card'])}.",
    "caught": lambda d, n: f"{n(d['card'])} catches {d['player']}: Bad Stuff!",
    "died": lambda d, n: f"{d['player']} dies.",
    "looted": lambda d, n: f"{d['player']} loots {n(d['card'])} from the body.",
    "card_lost": lambda d, n: f"{d['player']} loses {n(d['card'])}.",
    "hand_lost": lambda d, n: f"{d['player']} loses the whole hand ({d['count']} cards).",
    "sex_changed": lambda d, n: f"{d['player']} is now {d['sex']}.",
    "lasting_penalty": lambda d, n: (
        f"{d['player']} suffers {d['amount']:+d} to {d['kind'].replace('_', ' ')}."
    ),
    "curse_removed": lambda d, n: f"{d['player']} is rid of {n(d['card'])}.",
    "hireling_killed": lambda d, n: f"{d['player']}'s hireling {n(d['card'])} is killed; its items stay.",
    "hireling_turned": lambda d, n: f"{d['player']}'s hireling {n(d['card'])} goes over to {d['to']}.",
    "hireling_sacrificed": lambda d, n: f"{d['player']} sacrifices {n(d['card'])} to escape.",
    "card_discarded": lambda d, n: f"{d['player']} discards {n(d['card'])}.",
    "item_equipped": lambda d, n: f"{d['player']} puts on {n(d['card'])}.",
    "item_unequipped": lambda d, n: f"{d['player']} takes off {n(d['card'])}.",
    "sold": lambda d, n: f"{d['player']} sells {', '.join(n(c) for c in d['cards'])} for {d['gold']} gold.",
    "trade_offered": lambda d, n: f"{d['player']} offers {d['to']} a trade.",
    "trade_done": lambda d, n: f"{d['player']} accepts the trade.",
    "trade_declined": lambda d, n: f"{d['player']} declines the trade.",
    "power_used": lambda d, n: f"{d['player']} uses {d['power']}, discarding {n(d['card'])}.",
    "stolen": lambda d, n: f"{d['player']} steals {n(d['card'])} from {d['from']}.",
    "charity": _charity,
    "turn_ended": lambda d, n: f"{d['player']} ends the turn.",
    "deck_refilled": lambda d, n: f"The {d['deck']} deck is reshuffled from its discards.",
    "game_won": lambda d, n: f"{d['player']} reaches the winning level and wins the game!",
    "monster_left": lambda d, n: f"{n(d['card'])} leaves {d['player']}'s fight, defeated but not killed.",
    "drawn_face_up": lambda d, n: f"{d['player']} draws {n(d['card'])}, which acts at once.",
    "came_back": lambda d, n: f"{d['player']} comes back, with new cards to come on their own turn.",
    "card_given": lambda d, n: f"{d['player']} gives {n(d['card'])} to {d['to']}.",
    "card_taken": lambda d, n: f"{d['player']} takes a card from {d['from']}.",
    "curse_cancelled": lambda d, n: f"{d['player']} cancels {n(d['card'])} on {d['on']}.",
    "die_set": lambda d, n: (
        f"{d['player']} sets the die to {d['roll']}: {'success' if d['success'] else 'failure'}."
    ),
    "roll_again": lambda d, n: f"{d['player']} makes {d['runner']} roll again.",
    "fight_passed": lambda d, n: f"{d['player']} passes the fight to {d['to']}.",
    "help_forced": lambda d, n: f"{d['player']} makes {d['helper']} help.",
    "helper_left": lambda d, n: f"{d['player']} stops helping.",
    "immune": lambda d, n: f"{n(d['card'])} does not touch {d['player']}.",
    "monster_defeated": lambda d, n: f"{n(d['card'])} is defeated at once by {d['player']}.",
    "monster_ignores": lambda d, n: f"{n(d['card'])} ignores {d['player']}.",
    "no_effect": lambda d, n: f"{n(d['card'])} has no effect on {d['player']}.",
    "tax_unpaid": lambda d, n: f"{d['player']} cannot pay {d['owed']} gold of tax and loses a level.",
    "trait_swapped": _swapped,
}


def sentence(event: Event, names: Mapping[str, str] | None = None) -> str | None:
    """One event as a sentence, or None for bookkeeping events not worth telling."""
    lookup = names or {}

    def name(card_id: str | None) -> str:
        return lookup.get(card_id or "", card_id or "?")

    if event.kind not in SENTENCES:
        return f"{event.kind}: {event.data}"
    render = SENTENCES[event.kind]
    return None if render is None else render(event.data, name)
