"""Legal actions in words, as menu lines: "Ask Bob for help (2 treasures)", with what the
cards say a choice needs known."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.text import treasures
from munchkin.words.names import Name, listed, namer
from munchkin.words.prompts import choice


def _play(a: Action, n: Name, me: str) -> str:
    text = f"Play {n(a.arg)}"
    if a.target:
        text += " on yourself" if a.target == me else f" on {a.target}"
    if a.on:
        text += f" on {n(a.on)}"
    return text


def _trade(a: Action, n: Name, me: str) -> str:
    if not a.take:
        return f"Give {listed(n, a.give)} to {a.arg}"
    return f"Offer {a.arg} your {listed(n, a.give)} for their {listed(n, a.take)}"


def _ask(a: Action, n: Name, me: str) -> str:
    items = f" and {listed(n, a.give)}" if a.give else ""
    return f"Ask {a.arg} for help ({treasures(a.reward)}{items})"


def _run(a: Action, n: Name, me: str) -> str:
    return f"Run away ({' then '.join(n(c) for c in a.cards)})" if a.cards else "Run away"


def _kick(a: Action, n: Name, me: str) -> str:
    if a.arg == "discard":
        return f"Kick open the door from the discards (Cleric), paying {listed(n, a.cards)}"
    return "Kick open the door"


def _sacrifice(a: Action, n: Name, me: str) -> str:
    return f"Sacrifice {n(a.arg)} to escape" + (" (your helper escapes too)" if a.helper_escapes else "")


def _equip(a: Action, n: Name, me: str) -> str:
    return f"Give {n(a.arg)} to {n(a.hireling)} to use" if a.hireling else f"Put on {n(a.arg)}"


def _choose(a: Action, n: Name, me: str) -> str:
    """An answer read from its shape alone (no question at hand)."""
    return choice(a.arg or "", n, None)


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
    "sell": lambda a, n, me: f"Sell {listed(n, a.cards)}",
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
    "steal": lambda a, n, me: f"Try to steal {n(a.arg)} from {a.target} (discard {listed(n, a.cards)})",
}


def describe(
    action: Action,
    names: Mapping[str, str],
    me: str,
    prompt: str | None = None,
    defs: Mapping[str, CardDef] | None = None,
) -> str:
    """One legal action in words, as `me` reads it ("Ask Bob for help (2 treasures)"); an
    answer (`choose`) as the answer to the open question of kind `prompt`. With the cards'
    `defs`, what the choice needs known: an item given up with its gold value, a sale's gold
    (B12), a steed fought as a monster's level and reward (S9)."""
    if action.verb == "choose":
        return choice(action.arg or "", namer(names), prompt, defs)
    if (
        action.verb == "play"
        and action.on
        and getattr((defs or {}).get(action.arg or ""), "type", "") == ("wandering_monster")
    ):
        return f"Bring {namer(names)(action.on)} into the fight with {namer(names)(action.arg)}"
    words = WORDS.get(action.verb)
    said = str(action) if words is None else words(action, namer(names), me)
    return said + _facts(action, defs or {})


def _facts(action: Action, defs: Mapping[str, CardDef]) -> str:
    """What a line needs said to be chosen knowingly, from the cards: a sale's gold, of which
    every full 1000 buys a level (B12); a steed fought as a monster: its level, twice its
    bonus, what beating it gives and what it does to one caught (S9)."""
    if action.verb == "sell" and defs:
        gold = sum(defs[c].value or 0 for c in action.cards if c in defs)
        return f" ({gold} gold: every full 1000 buys a level, B12)"
    steed = defs.get(action.arg or "") if action.verb == "monstrify" else None
    if steed is not None:
        return f" (level {2 * steed.bonus}; beaten: 1 level and 1 treasure; caught: lose a level, S9)"
    return ""
