"""The decision vocabulary of scenario-format.md as one small frozen type.

Cards are named by card id (the same id names every copy), players by name.
"""

from __future__ import annotations

from typing import Final, NamedTuple

CARD_VERBS = frozenset(
    {
        "play",
        "keep",
        "monstrify",
        "look_for_trouble",
        "equip",
        "unequip",
        "discard",
        "sacrifice_hireling",
        "berserk",
        "turn_undead",
        "charm",
        "backstab",
        "steal",
    }
)
"""Verbs whose argument is a card id."""
PLAYER_VERBS = frozenset({"trade", "ask_help"})
"""Verbs whose argument is a player's name."""


VERB_FIELDS: dict[str, frozenset[str]] = {
    verb: frozenset(fields.split())
    for verb, fields in {
        "kick_door": "arg cards",
        "loot_room": "",
        "look_for_trouble": "arg",
        "end_turn": "",
        "pass": "",
        "play": "arg target on cards",
        "keep": "arg",
        "monstrify": "arg",
        "equip": "arg hireling",
        "unequip": "arg",
        "discard": "arg",
        "sell": "arg cards",
        "trade": "arg give take",
        "accept_trade": "",
        "decline_trade": "",
        "ask_help": "arg reward give",
        "accept_help": "",
        "decline_help": "",
        "resolve_combat": "",
        "run_away": "arg cards",
        "sacrifice_hireling": "arg helper_escapes",
        "choose": "arg",
        "berserk": "arg",
        "turn_undead": "arg",
        "charm": "arg",
        "backstab": "arg target",
        "steal": "arg target cards",
    }.items()
}
"""The fields each verb uses; an action that sets any other is refused."""
VERBS = tuple(VERB_FIELDS)
"""Every verb: those of scenario-format.md, and the class powers (B14) as extensions."""


class Action(NamedTuple):
    """One decision. `arg` is the verb's argument (a card id, a player, an option).

    An immutable named tuple: legal-action lists build many of these, and a tuple is
    built in a third of the time of a frozen dataclass."""

    verb: str
    arg: str | None = None
    target: str | None = None
    on: str | None = None
    hireling: str | None = None
    cards: tuple[str, ...] = ()
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    reward: int = 0
    helper_escapes: bool = False

    def stray_fields(self) -> list[str]:
        """Fields set that this verb does not use."""
        used = VERB_FIELDS.get(self.verb, frozenset())
        return [key for key, value in action_to_dict(self).items() if key != "verb" and key not in used]

    def __str__(self) -> str:
        parts = [self.verb] + ([self.arg] if self.arg else [])
        for key in ("target", "on", "hireling"):
            if getattr(self, key):
                parts.append(f"{key}={getattr(self, key)}")
        for key in ("cards", "give", "take"):
            if getattr(self, key):
                parts.append(f"{key}={','.join(getattr(self, key))}")
        if self.reward:
            parts.append(f"reward={self.reward}")
        if self.helper_escapes:
            parts.append("helper_escapes")
        return " ".join(parts)


_PLAIN: Final[dict[str, dict[str | None, Action]]] = {}
"""The actions of a verb and its argument alone, by verb and argument."""


def action(
    verb: str,
    arg: str | None = None,
    target: str | None = None,
    on: str | None = None,
    hireling: str | None = None,
    cards: tuple[str, ...] = (),
    give: tuple[str, ...] = (),
    take: tuple[str, ...] = (),
    reward: int = 0,
    helper_escapes: bool = False,
) -> Action:
    """`Action(...)`, built faster: the option listers build every legal action with it. An
    action of a verb and its argument alone (most of them) is made once and found again:
    lists of legal actions repeat the same ones decision after decision, and an action is
    an immutable value. Others are built with `tuple.__new__`, which costs less than calling
    the class (and than finding one by all its fields)."""
    plain = target is None and on is None and hireling is None
    if plain and not (cards or give or take or reward or helper_escapes):
        by_arg = _PLAIN.get(verb)
        if by_arg is None:
            by_arg = _PLAIN[verb] = {}
        made = by_arg.get(arg)
        if made is None:
            made = by_arg[arg] = tuple.__new__(Action, (verb, arg, None, None, None, (), (), (), 0, False))
        return made
    return tuple.__new__(Action, (verb, arg, target, on, hireling, cards, give, take, reward, helper_escapes))


def action_to_dict(action: Action) -> dict[str, object]:
    """An action as plain data, leaving out fields at their defaults (for saves and the wire)."""
    data: dict[str, object] = {"verb": action.verb}
    for key in ("arg", "target", "on", "hireling"):
        if getattr(action, key) is not None:
            data[key] = getattr(action, key)
    for key in ("cards", "give", "take"):
        if getattr(action, key):
            data[key] = list(getattr(action, key))
    if action.reward:
        data["reward"] = action.reward
    if action.helper_escapes:
        data["helper_escapes"] = True
    return data


class ActionFormatError(ValueError):
    """Plain data that does not describe an action."""


def action_from_dict(data: object) -> Action:
    """The inverse of `action_to_dict`; refuses anything else with ActionFormatError."""
    if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
        raise ActionFormatError("an action is a mapping with a 'verb'")
    if data["verb"] not in VERBS:
        raise ActionFormatError(f"unknown verb '{data['verb']}'")
    unknown = set(data) - {
        "verb",
        "arg",
        "target",
        "on",
        "hireling",
        "cards",
        "give",
        "take",
        "reward",
        "helper_escapes",
    }
    if unknown:
        raise ActionFormatError(f"unknown key(s): {', '.join(sorted(unknown))}")
    texts = {k: data.get(k) for k in ("arg", "target", "on", "hireling")}
    lists = {k: data.get(k, []) for k in ("cards", "give", "take")}
    reward, escapes = data.get("reward", 0), data.get("helper_escapes", False)
    if not all(v is None or isinstance(v, str) for v in texts.values()):
        raise ActionFormatError("arg, target, on and hireling are strings")
    if not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in lists.values()):
        raise ActionFormatError("cards, give and take are lists of card ids")
    if not isinstance(reward, int) or isinstance(reward, bool) or not isinstance(escapes, bool):
        raise ActionFormatError("reward is an integer and helper_escapes a boolean")
    return Action(
        data["verb"],
        texts["arg"],
        texts["target"],
        texts["on"],
        texts["hireling"],
        tuple(lists["cards"]),
        tuple(lists["give"]),
        tuple(lists["take"]),
        reward,
        escapes,
    )
