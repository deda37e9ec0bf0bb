"""The questions a player is asked: each kind as the line that asks it, its answers as menu
lines, and the kind of the question open in a view."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from munchkin.cards.schema import CardDef
from munchkin.words.names import Name

PROMPTS = {
    "charity": "Your hand is over the limit: choose a card to give away (charity)",
    "charity_discard": "Your hand is over the limit: choose a card to discard (you are the lowest level)",
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
    "resurrect": "A treasure face up: draw it, or discard a card for the top treasure discard (Cleric)",
}
"""Each question's kind (`prompt.kind`, or `prompt_kind`'s) as the one line that asks it."""
CHARITY_TO = "charity to "
"""`prompt_kind` of a charity whose cards go to another player: `charity to Bob` (B5)."""


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
    "charity": lambda o, n: f"Give away {n(o)} (charity)",
    "charity_discard": lambda o, n: f"Discard {n(o)} (you are the lowest level)",
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
    "resurrect": lambda o, n: (
        "Draw it from the deck" if o == "draw" else f"Discard {n(o)} for the top discard"
    ),
}
"""The answers to each kind of question, as menu lines."""
DECLINES = {
    "reroll": "Decline: no second roll",
    "flight": "Pay no more for flight",
}


VALUED_PROMPTS = ("lose_card", "tax_item", "pay_tax")
"""Questions whose answers give up an item: each names its gold value, when known."""


def _valued(n: Name, defs: Mapping[str, CardDef]) -> Name:
    """Card names with their gold value, when they have one: "Gold Tooth (300 gold)"."""

    def name(card: str | None) -> str:
        value = getattr(defs.get(card or ""), "value", None)
        return n(card) + ("" if value is None else f" ({value} gold)")

    return name


def choice(option: str, n: Name, kind: str | None, defs: Mapping[str, CardDef] | None = None) -> str:
    """One answer to a question of `kind` in words; without a kind, read from its shape. An
    item given up (`VALUED_PROMPTS`) says its gold value, with the cards' `defs`."""
    if defs and kind in VALUED_PROMPTS:
        n = _valued(n, defs)
    if option == "decline":
        return DECLINES.get(kind or "", "Decline")
    if kind is not None and kind.startswith(CHARITY_TO):
        return f"Give {n(option)} to {kind.removeprefix(CHARITY_TO)}"
    words = CHOICES.get(kind or "")
    if words is not None:
        return words(option, n)
    if option.startswith(("sell ", "give ")):
        return _get_rid(option, n)
    if option.startswith(("as ", "not as ")):
        return _half_trait(option, n)
    return f"Choose {n(option)}"


def prompt_kind(data: Mapping[str, Any]) -> str | None:
    """The kind of the question a view's player is asked, if any; for charity, where the
    cards go (`charity_kind`)."""
    prompt = data.get("prompt")
    if not prompt or prompt["player"] != data.get("player"):
        return None
    if prompt["kind"] == "charity" and "players" in data:
        return charity_kind(data)
    return prompt["kind"]


def charity_kind(data: Mapping[str, Any]) -> str:
    """Where the view's player's charity goes (B5): `charity_discard` when they are (one of)
    the lowest level of the living players, else `charity to NAME` (`Bob or Cid`: the lowest
    others, tied; the one who has had fewer cards of it takes the next)."""
    levels = {t["name"]: t["level"] for t in data["players"] if not t["dead"]}
    mine = levels.pop(data["player"], 0)
    lowest = min(levels.values(), default=None)
    if lowest is None or mine <= lowest:
        return "charity_discard"
    return CHARITY_TO + " or ".join(name for name, level in levels.items() if level == lowest)


def question(kind: str) -> str:
    """The one line that asks a question of `kind` (`prompt_kind`'s)."""
    if kind.startswith(CHARITY_TO):
        return (
            f"Your hand is over the limit: choose a card to give to {kind.removeprefix(CHARITY_TO)} (charity)"
        )
    return PROMPTS.get(kind, f"Choose ({kind})")
