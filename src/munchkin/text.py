"""Events and explanations as readable sentences ("Ann kicks open the door: ...")."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from munchkin.engine.events import Event
from munchkin.engine.rules.powers import THEFT_ROLL
from munchkin.engine.rules.run_away import ESCAPE_ROLL

Render = Callable[[dict[str, Any], Callable[[str | None], str]], str | None]


def _level_note(d: dict[str, Any]) -> str:
    return "" if d.get("level") is None else f" (level {d['level']})"


def _door(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    level = f" (level {d['level']})" if d.get("level") is not None else ""
    return f"{d['player']} kicks open the door: {n(d['card'])}{level}."


NEEDS = {"run away": ESCAPE_ROLL, "theft": THEFT_ROLL}
"""The total a roll of each purpose needs (B9, B14)."""
PURPOSES = {"run away": "to run away from", "theft": "to steal"}


def _roll(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """A die roll with its sum and what it needs ("rolls 3, -3 = 0, needs 5 to run away from
    the Troll: failure"), or for the looting order among players tied in level (B10), which
    has no verdict."""
    roll, mod = d["roll"], d["modifier"]
    total = f", {mod:+d} = {roll + mod}" if mod else ""
    if "success" not in d:
        return f"{d['player']} rolls {roll}{total} for the {d['purpose']}."
    needs = NEEDS.get(d["purpose"])
    needed = f", needs {needs}" if needs is not None else ""
    purpose = PURPOSES.get(d["purpose"], f"to {d['purpose']}")
    against = f" {n(d['card'])}" if d.get("card") else ""
    if not against:
        purpose = f"to {d['purpose']}"
    verdict = "success" if d["success"] else "failure"
    return f"{d['player']} rolls {roll}{total}{needed} {purpose}{against}: {verdict}."


def _treasures(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if not d["face_up"]:
        return f"{d['player']} draws {d['count']} treasure(s) face down."
    cards = ", ".join(n(c) for c in d["cards"]) or "nothing"
    taken = ", ".join(n(c) for c in d["cards"][: d["helper_gets"]])
    return f"{d['player']} draws face up: {cards}; the helper takes {taken or 'nothing'}."


def _offer(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """A trade offered, with its items (B13)."""
    give = ", ".join(n(c) for c in d.get("give", ())) or "nothing"
    take = ", ".join(n(c) for c in d.get("take", ()))
    if not take:
        return f"{d['player']} offers {d['to']} {give} as a gift."
    return f"{d['player']} offers {d['to']} {give} for {take}."


LEVEL_SOURCES = {"kill": "a kill", "elf helper": "an Elf's help", "sale": "a sale"}


def _level(d: dict[str, Any], n: Callable[[str | None], str], way: str) -> str:
    source = LEVEL_SOURCES.get(d["source"]) or n(d["source"])
    return f"{d['player']} {way} to level {d['level']} ({source})."


def _played(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    on = f" on {n(d['on'])}" if d.get("on") else ""
    target = f" at {d['target']}" if d.get("target") else ""
    return f"{d['player']} plays {n(d['card'])}{on}{target}."


def _charity(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """A card given away or discarded as charity (B5); "a card" for one passed face down to
    another player (`views.event_for`)."""
    card = "a card" if d["card"] is None else n(d["card"])
    if d["to"] is None:
        return f"{d['player']} discards {card} as charity."
    return f"{d['player']} gives {card} to {d['to']} as charity."


def _and(words: list[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _carried(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """What a hireling carried, which leaves play with it (H9, H11): `with`, added to the
    event by the log (`tui.history`); nothing when it carried nothing."""
    items = [n(c) for c in d.get("with") or ()]
    if not items:
        return ""
    return f"; {_and(items)}, which it carried, go{'es' if len(items) == 1 else ''} with it"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def treasures(n: int) -> str:
    """A number of treasures in words: `no treasure`, `1 treasure`, `2 treasures`."""
    return "no treasure" if n == 0 else _count(n, "treasure")


def _escaped(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    """An escape from one monster, or from every monster at once (a sacrificed hireling's
    helper, H4)."""
    if d.get("card") is None:
        return f"{d['player']} escapes every monster of the fight, without rolling."
    at_once = " at once, without rolling" if d["automatic"] else ""
    return f"{d['player']} escapes {n(d['card'])}{at_once}."


def _equipped(d: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if d.get("hireling"):
        return f"{d['player']} gives {n(d['card'])} to {n(d['hireling'])} to use."
    return f"{d['player']} puts on {n(d['card'])}."


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
    "monster_entered": lambda d, n: f"{n(d['card'])}{_level_note(d)} joins the fight.",
    "card_kept": lambda d, n: f"{d['player']} keeps {n(d['card'])}.",
    "card_played": _played,
    "room_looted": lambda d, n: f"{d['player']} loots the room.",
    "trouble_sought": lambda d, n: f"{d['player']} looks for trouble with {n(d['card'])}.",
    "cards_drawn": lambda d, n: f"{d['player']} draws {d['count']} {d['deck']} card(s).",
    "help_asked": lambda d, n: (
        f"{d['player']} asks {d['helper']} for help, promising {treasures(d['reward'])}"
        + (f" and {', '.join(n(c) for c in d['items'])}." if d.get("items") else ".")
    ),
    "bribe_paid": lambda d, n: f"{d['player']} hands {', '.join(n(c) for c in d['cards'])} to {d['to']}.",
    "help_accepted": lambda d, n: f"{d['player']} agrees to help.",
    "help_declined": lambda d, n: f"{d['player']} declines to help.",
    "ready": None,
    "passed": None,
    "position_set": None,
    "combat_resolved": _resolved,
    "level_up": lambda d, n: _level(d, n, "goes up"),
    "level_down": lambda d, n: _level(d, n, "drops"),
    "treasures_drawn": _treasures,
    "combat_over": None,
    "running": lambda d, n: f"{d['player']} tries to run away.",
    "die_rolled": _roll,
    "escaped": _escaped,
    "no_escape": lambda d, n: f"{d['player']} cannot escape {n(d['card'])}.",
    "caught": lambda d, n: f"{n(d['card'])} catches {d['player']}: Bad Stuff!",
    "died": lambda d, n: f"{d['player']} dies.",
    "looted": lambda d, n: f"{d['player']} loots {n(d['card'])} from the body.",
    "card_lost": lambda d, n: f"{d['player']} loses {n(d['card'])}.",
    "hand_lost": lambda d, n: f"{d['player']} loses the whole hand ({_count(d['count'], 'card')}).",
    "sex_changed": lambda d, n: f"{d['player']} is now {d['sex']}.",
    "lasting_penalty": lambda d, n: (
        f"{d['player']} suffers {d['amount']:+d} to {d['kind'].replace('_', ' ')}."
    ),
    "curse_removed": lambda d, n: f"{d['player']} is rid of {n(d['card'])}.",
    "hireling_killed": lambda d, n: f"{d['player']}'s hireling {n(d['card'])} is killed; its items stay.",
    "hireling_turned": lambda d, n: f"{d['player']}'s hireling {n(d['card'])} goes over to {d['to']}.",
    "hireling_sacrificed": lambda d, n: f"{d['player']} sacrifices {n(d['card'])} to escape{_carried(d, n)}.",
    "card_discarded": lambda d, n: f"{d['player']} discards {n(d['card'])}{_carried(d, n)}.",
    "item_equipped": _equipped,
    "item_unequipped": lambda d, n: f"{d['player']} takes off {n(d['card'])}.",
    "sold": lambda d, n: (
        f"{d['player']} sells {', '.join(n(c) for c in d['cards'])} for {d['gold']} gold{_carried(d, n)}."
    ),
    "trade_offered": _offer,
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
    "immune": lambda d, n: (
        f"{n(d['card'])}: no effect on {d['player']} (protected from: {d['effect'].replace('_', ' ')})."
    ),
    "monster_defeated": lambda d, n: f"{n(d['card'])} is defeated at once by {d['player']}.",
    "monster_ignores": lambda d, n: f"{n(d['card'])} ignores {d['player']}.",
    "no_effect": lambda d, n: f"{n(d['card'])}: no effect on {d['player']}.",
    # the level lost instead, if any, is its own event (`level_down`): none at level 1 (B3)
    "tax_unpaid": lambda d, n: f"{d['player']} cannot pay {d['owed']} gold of tax.",
    "trait_swapped": _swapped,
    "resurrected": lambda d, n: (
        f"{d['player']} discards {n(d['paid'])} to take {n(d['card'])} from the treasure discards."
    ),
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


# -- "no effect" --------------------------------------------------------------------------

QUIET = frozenset({"ready", "passed", "position_set"})
"""Bookkeeping events: they neither end a curse's or Bad Stuff's effects nor show them."""
EFFECTS = frozenset(
    {
        "card_lost",
        "level_down",
        "level_up",
        "died",
        "hand_lost",
        "sex_changed",
        "lasting_penalty",
        "hireling_killed",
        "hireling_turned",
        "no_effect",
        "immune",
        "card_taken",
        "trait_swapped",
        "tax_unpaid",
        "curse_removed",
        "curse_cancelled",
        "cards_drawn",
        "item_unequipped",
    }
)
"""What a curse or Bad Stuff may do (or the engine's own "no effect")."""


def _hit(event: Event, curses: Collection[str]) -> tuple[str, str] | None:
    """(victim, card) when the event is Bad Stuff or a curse about to act."""
    d = event.data
    if event.kind == "caught":
        return d["player"], d["card"]
    if event.kind in ("door_kicked", "drawn_face_up") and d.get("card") in curses:
        return d["player"], d["card"]
    if event.kind == "card_played" and d.get("card") in curses:
        return d.get("target") or d["player"], d["card"]
    return None


def _passing(event: Event, curses: Collection[str]) -> bool:
    """Events that leave a curse or Bad Stuff still to act: bookkeeping, and cards played
    that are not curses (an answer to it)."""
    return event.kind in QUIET or (event.kind == "card_played" and event.data.get("card") not in curses)


def with_no_effect(before: Sequence[Event], new: Sequence[Event], curses: Collection[str]) -> list[Event]:
    """`new` with a `no_effect` event wherever a curse or Bad Stuff (in `new`, or the last
    thing told in `before`) turned out to do nothing: the next event told is none of its
    effects. `curses`: the ids of the curse cards. A curse waiting for answers, or Bad Stuff
    waiting for its victim's choice, is not concluded until something else happens."""
    pending = next((_hit(e, curses) for e in reversed(before) if not _passing(e, curses)), None)
    out: list[Event] = []
    for event in new:
        if event.kind in QUIET or (pending and _passing(event, curses)):
            out.append(event)  # bookkeeping, or an answer played to the curse (cancelling it, say)
            continue
        if pending is not None and event.kind not in EFFECTS:
            out.append(Event("no_effect", {"player": pending[0], "card": pending[1]}))
        pending = None if event.kind in EFFECTS else _hit(event, curses)
        out.append(event)
    return out
