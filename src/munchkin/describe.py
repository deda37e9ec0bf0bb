"""Words for what a player is shown, shared by the terminal and the browser: actions as menu
lines, the situation as one line, breakdowns one part per line."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from munchkin.engine.actions import Action

Name = Callable[[str | None], str]

PROMPTS = {
    "charity": "Your hand is over the limit: choose a card to give away (charity)",
    "charity_to": "Several players are tied for the lowest level: choose who gets the card (charity)",
    "loot": "Loot the body: choose a card to take",
    "reroll": "Your run-away roll failed: discard a card to roll again, or decline",
    "flight": "Your run-away roll failed: discard cards for flight (+1 each), or pay no more",
    "lose_card": "Bad Stuff: choose the card you lose",
    "remove_curse": "Choose the curse to remove",
    "kill_hireling": "Choose the hireling that is killed",
    "turn_hireling": "Choose the hireling that is taken away",
    "take_off": "Your items no longer fit: take one off, or play a card that makes them fit",
    "get_rid": (
        "Over the limit of Big or Complex items or steeds: discard, sell or give one away, "
        "or play a card that puts it right"
    ),
    "keep_race": "Half-Breed is gone: choose the one race you keep",
    "keep_class": "Super Munchkin is gone: choose the one class you keep",
    "half_trait": (
        "This hits a race or class you hold beside Half-Breed or Super Munchkin: choose whether it counts"
    ),
    "set_die": "Choose the number the die shows",
    "tax_item": "Income tax: choose the item you lose (the others pay its value)",
    "pay_tax": "Income tax: choose an item to pay with",
}
"""Each question's kind (`prompt.kind`) as the one line that asks it."""


def namer(names: Mapping[str, str]) -> Name:
    """Card ids to display names, falling back to the id."""
    return lambda card_id: names.get(card_id or "", card_id or "?")


def _listed(n: Name, ids: tuple[str, ...]) -> str:
    return ", ".join(n(i) for i in ids) or "nothing"


def _play(a: Action, n: Name, me: str) -> str:
    text = f"Play {n(a.arg)}"
    if a.target:
        text += " on yourself" if a.target == me else f" on {a.target}"
    if a.on:
        text += f" on {n(a.on)}"
    return text


def _trade(a: Action, n: Name, me: str) -> str:
    if not a.take:
        return f"Give {_listed(n, a.give)} to {a.arg}"
    return f"Offer {a.arg} your {_listed(n, a.give)} for their {_listed(n, a.take)}"


def _ask(a: Action, n: Name, me: str) -> str:
    items = f" and {_listed(n, a.give)}" if a.give else ""
    return f"Ask {a.arg} for help ({a.reward} treasure{'s' if a.reward != 1 else ''}{items})"


def _run(a: Action, n: Name, me: str) -> str:
    return f"Run away ({' then '.join(n(c) for c in a.cards)})" if a.cards else "Run away"


def _kick(a: Action, n: Name, me: str) -> str:
    if a.arg == "discard":
        return f"Kick open the door from the discards (Cleric), paying {_listed(n, a.cards)}"
    return "Kick open the door"


def _sacrifice(a: Action, n: Name, me: str) -> str:
    return f"Sacrifice {n(a.arg)} to escape" + (" (your helper escapes too)" if a.helper_escapes else "")


def _equip(a: Action, n: Name, me: str) -> str:
    return f"Give {n(a.arg)} to {n(a.hireling)} to use" if a.hireling else f"Put on {n(a.arg)}"


def _choose(a: Action, n: Name, me: str) -> str:
    """An answer read from its shape alone (no question at hand)."""
    return choice(a.arg or "", n, None)


def _get_rid(option: str, n: Name) -> str:
    """`ID` (discard), `sell ID` or `give ID to NAME` (B11)."""
    verb, _, rest = option.partition(" ")
    if verb == "sell":
        return f"Sell {n(rest)}"
    if verb == "give" and " to " in rest:
        card, _, name = rest.partition(" to ")
        return f"Give {n(card)} to {name}"
    return f"Discard {n(option)}"


def _half_trait(option: str, n: Name) -> str:
    """`as elf` or `not as elf` (B14): whether a half race or class counts for the effect."""
    negated = option.startswith("not as ")
    traits = option.removeprefix("not as ").removeprefix("as ")
    named = " and ".join(n(t) for t in traits.split("/"))
    return f"Do not count as {named} (the other branch)" if negated else f"Count as {named}"


CHOICES: dict[str, Callable[[str, Name], str]] = {
    "charity": lambda o, n: f"Give away {n(o)}",
    "charity_to": lambda o, n: f"Give the card to {o}",
    "loot": lambda o, n: f"Take {n(o)}",
    "reroll": lambda o, n: f"Discard {n(o)} to roll again",
    "flight": lambda o, n: f"Flight: discard {n(o)} for +1 to the roll",
    "lose_card": lambda o, n: f"Lose {n(o)}",
    "remove_curse": lambda o, n: f"Remove {n(o)}",
    "kill_hireling": lambda o, n: f"Lose the hireling {n(o)}",
    "turn_hireling": lambda o, n: f"Let the hireling {n(o)} go",
    "take_off": lambda o, n: f"Take off {n(o)}",
    "get_rid": _get_rid,
    "keep_race": lambda o, n: f"Keep {n(o)}, discard the other races",
    "keep_class": lambda o, n: f"Keep {n(o)}, discard the other classes",
    "half_trait": _half_trait,
    "set_die": lambda o, n: f"Set the die to {o}",
    "tax_item": lambda o, n: f"Lose {n(o)} to the tax",
    "pay_tax": lambda o, n: f"Pay with {n(o)}",
}
"""The answers to each kind of question, as menu lines."""
DECLINES = {
    "reroll": "Decline: no second roll",
    "flight": "Pay no more for flight",
}


def choice(option: str, n: Name, kind: str | None) -> str:
    """One answer to a question of `kind` in words; without a kind, read from its shape."""
    if option == "decline":
        return DECLINES.get(kind or "", "Decline")
    words = CHOICES.get(kind or "")
    if words is not None:
        return words(option, n)
    if option.startswith(("sell ", "give ")):
        return _get_rid(option, n)
    if option.startswith(("as ", "not as ")):
        return _half_trait(option, n)
    return f"Choose {n(option)}"


WORDS: dict[str, Callable[[Action, Name, str], str]] = {
    "kick_door": _kick,
    "loot_room": lambda a, n, me: "Loot the room (draw a door face down)",
    "look_for_trouble": lambda a, n, me: f"Look for trouble: fight {n(a.arg)}",
    "end_turn": lambda a, n, me: "End your turn",
    "pass": lambda a, n, me: "Pass",
    "play": _play,
    "keep": lambda a, n, me: f"Keep {n(a.arg)} in your hand",
    "monstrify": lambda a, n, me: f"Fight {n(a.arg)} as a monster",
    "equip": _equip,
    "unequip": lambda a, n, me: f"Take off {n(a.arg)}",
    "discard": lambda a, n, me: f"Discard {n(a.arg)}",
    "sell": lambda a, n, me: f"Sell {_listed(n, a.cards)}",
    "trade": _trade,
    "accept_trade": lambda a, n, me: "Accept the trade",
    "decline_trade": lambda a, n, me: "Decline the trade",
    "ask_help": _ask,
    "accept_help": lambda a, n, me: "Help",
    "decline_help": lambda a, n, me: "Refuse to help",
    "resolve_combat": lambda a, n, me: "Fight! (resolve the combat)",
    "run_away": _run,
    "sacrifice_hireling": _sacrifice,
    "choose": _choose,
    "berserk": lambda a, n, me: f"Berserk: discard {n(a.arg)} for +1",
    "turn_undead": lambda a, n, me: f"Turn undead: discard {n(a.arg)} for +3 against undead",
    "charm": lambda a, n, me: f"Charm {n(a.arg)} away (discard your whole hand)",
    "backstab": lambda a, n, me: f"Backstab {a.target}: discard {n(a.arg)} for -2",
    "steal": lambda a, n, me: f"Try to steal {n(a.arg)} from {a.target} (discard {_listed(n, a.cards)})",
}


def describe(action: Action, names: Mapping[str, str], me: str, prompt: str | None = None) -> str:
    """One legal action in words, as `me` reads it ("Ask Bob for help (2 treasures)"); an
    answer (`choose`) as the answer to the open question of kind `prompt`."""
    if action.verb == "choose":
        return choice(action.arg or "", namer(names), prompt)
    words = WORDS.get(action.verb)
    return str(action) if words is None else words(action, namer(names), me)


def prompt_kind(data: Mapping[str, Any]) -> str | None:
    """The kind of the question a view's player is asked, if any."""
    prompt = data.get("prompt")
    return prompt["kind"] if prompt and prompt["player"] == data.get("player") else None


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


def default_action(legal: list[Action]) -> Action | None:
    """What Enter does: the first legal action by `DEFAULT_VERBS` (pass where allowed), else the
    first legal action."""
    for verb in DEFAULT_VERBS:
        if Action(verb) in legal:
            return Action(verb)
    return legal[0] if legal else None


def situation(data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Why the player is asked, in one line: their turn, a question, a fight to respond to."""
    me, n = data["player"], namer(names)
    combat, offer, prompt = data["combat"], data["offer"], data["prompt"]
    if data["winners"]:
        return f"Game over: {winners_text(data['winners'])} after {data['turn']} turns."
    if not data["deciding"]:
        return f"{data['active']}'s turn: waiting for the others."
    if prompt is not None and prompt["player"] == me:
        return PROMPTS.get(prompt["kind"], f"Choose ({prompt['kind']})") + "."
    if offer is not None and offer["to"] == me:
        give, take = (", ".join(c["name"] for c in offer[k]) or "nothing" for k in ("give", "take"))
        return f"{offer['from']} offers you {give} for your {take}: accept or decline."
    if combat is not None and combat["asked"] == me:
        return f"{combat['fighter']} asks you for help, promising {combat['reward']} treasure(s)."
    if combat is not None and combat["stage"] == "run":
        return "The monsters win: run away (a die roll per monster, 5 or more escapes)."
    if combat is not None and combat["fighter"] != me:
        monsters = ", ".join(n(m["id"]) for m in combat["monsters"])
        return f"{combat['fighter']} is fighting {monsters}: respond with a card, or pass (Enter)."
    if data["phase"] == "setup":
        return "Before the first turn: play races, classes and items, or pass (Enter) when ready."
    if combat is not None:
        return "You are in a fight: play cards, ask for help, or fight (resolve the combat)."
    return "Your turn." if data["active"] == me else "Respond, or pass (Enter)."


def winners_text(winners: Sequence[str]) -> str:
    """`Ann wins`, or `Ann and Bob win` when one fight took several to the win level (B2)."""
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return f"{', '.join(winners[:-1])} and {winners[-1]} win together"


def winners_line(winners: Sequence[str]) -> str:
    """`Winner: Ann`, `Winners: Ann and Bob (together)` (B2), or `Winner: nobody`, for the
    one-line summaries of the command line."""
    if len(winners) > 1:
        return f"Winners: {', '.join(winners[:-1])} and {winners[-1]} (together)"
    return f"Winner: {winners[0] if winners else 'nobody'}"


def options_text(changed: Mapping[str, Any]) -> str:
    """The table options that differ from the rules' defaults, as `NAME=VALUE` words (the
    way `--option` takes them), or "standard rules"."""
    if not changed:
        return "standard rules"
    words = (
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in changed.items()
    )
    return "options " + ", ".join(words)


def breakdown_lines(explain: str) -> list[str]:
    """A breakdown string ("munchkins 7 = 3 Ann's level (B6) + 4 ...") as one part a line."""
    head, _, parts = explain.partition(" = ")
    if not parts:
        return [explain]
    terms = re.split(r" (?=[+-] \d)", parts)
    return [head, *(f"  {t if t[0] in '+-' else '+ ' + t}" for t in terms)]
