"""Words for what a player is shown, shared by the terminal and the browser: actions as menu
lines, the situation as one line, breakdowns one part per line."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from munchkin.cards.schema import CardDef, Effect
from munchkin.engine.actions import Action
from munchkin.text import treasures

Name = Callable[[str | None], str]

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
    return f"Ask {a.arg} for help ({treasures(a.reward)}{items})"


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


def situation(
    data: Mapping[str, Any], names: Mapping[str, str], advice: Mapping[str, Any] | None = None
) -> str:
    """Why the player is asked, in one line: their turn, a question, a fight to respond to;
    with `advice` (`PlayerView.advice`), a fight of theirs says who is winning. `data` may
    hold the legal actions (`legal`): a fight suggests help only when it may be asked."""
    me, n = data["player"], namer(names)
    combat, offer, prompt = data["combat"], data["offer"], data["prompt"]
    if data["winners"]:
        return f"Game over: {winners_text(data['winners'])} after {data['turn']} turns."
    if not data["deciding"]:
        return f"{data['active']}'s turn: waiting for the others."
    if prompt is not None and prompt["player"] == me:
        return question(prompt_kind(data) or prompt["kind"]) + _prompt_detail(data, n) + "."
    if offer is not None and offer["to"] == me:
        give, take = (", ".join(c["name"] for c in offer[k]) for k in ("give", "take"))
        what = f"for your {take}" if take else "as a gift"
        return f"{offer['from']} offers you {give or 'nothing'} {what}: accept or decline."
    if combat is not None and combat["asked"] == me:
        return f"{combat['fighter']} asks you for help, promising {treasures(combat['reward'])}."
    if data.get("pending") is not None:
        return f"{_pending_said(data['pending'], n, me)}: play a card that answers it, or pass (Enter)."
    if combat is not None and combat["stage"] == "run":
        return _run_stage(combat, me, n)
    if combat is not None and me not in (combat["fighter"], combat["helper"]):
        monsters = ", ".join(n(m["id"]) for m in combat["monsters"])
        return f"{combat['fighter']} is fighting {monsters}: respond with a card, or pass (Enter)."
    if data["phase"] == "setup":
        return "Before the first turn: play races, classes and items, or pass (Enter) when ready."
    if combat is not None:
        return _own_fight(data, me, advice)
    return _own_turn(data) if data["active"] == me else "Respond, or pass (Enter)."


TURN_STEPS = {
    "start": "Your turn: kick open the door (play cards first if you like).",
    "face_up": "Your turn: deal with the card drawn face up.",
    "after_door": "Your turn: look for trouble (fight a monster from your hand) or loot the room.",
    "end": "Your turn: end it when you are done (sell, trade, put on items first).",
}
"""What the player's own turn asks for now, by the step it is at (`phase`, B3, B4)."""


def _own_turn(data: Mapping[str, Any]) -> str:
    """The step of the player's own turn; at its end, a hand over the limit warns that
    charity follows (B5)."""
    said = TURN_STEPS.get(data["phase"], "Your turn.")
    hand, limit = len(data.get("hand") or ()), data.get("hand_limit")
    if data["phase"] == "end" and limit is not None and hand > limit:
        said += f" Your hand ({hand}) is over the limit of {limit}: ending the turn, charity follows (B5)."
    return said


def _run_stage(combat: Mapping[str, Any], me: str, n: Name) -> str:
    """The monsters won: who runs away, for the runner or for a bystander (B9)."""
    runners = combat.get("runners") or [combat["fighter"]]
    if me in runners:
        return "The monsters win: run away (a die roll per monster, 5 or more escapes)."
    monsters = ", ".join(n(m["id"]) for m in combat["monsters"])
    who = " and ".join(runners)
    return f"{who} must run away from {monsters}: respond with a card, or pass (Enter)."


def _prompt_detail(data: Mapping[str, Any], n: Name) -> str:
    """What a question of the player's needs said beside it, from the view: the points a
    failed roll misses (B14), the gold of a tax still owed, the top treasure discard a
    Cleric would take, the monster a re-roll is against."""
    prompt = data["prompt"]
    kind = prompt["kind"]
    if kind == "flight" and prompt.get("missing") is not None:
        return f"; the roll is {prompt['missing']} short"
    if kind == "pay_tax" and prompt.get("owed") is not None:
        return f"; {prompt['owed']} gold still owed"
    if kind == "resurrect" and data.get("treasure_discard"):
        return f"; the top treasure discard is {n(data['treasure_discard'][-1]['id'])}"
    if kind == "reroll" and prompt.get("about"):
        return f" (against {n(prompt['about'])})"
    return ""


def _pending_roll(pending: Mapping[str, Any]) -> str:
    """A pending roll's die with what is added to it: `4`, `4 (+1 = 5)`."""
    roll, mod = pending["roll"], pending["modifier"]
    return f"{roll} ({mod:+d} = {roll + mod})" if mod else f"{roll}"


def _pending_said(pending: Mapping[str, Any], n: Name, me: str) -> str:
    """What awaits answers (the view's `pending`), as a sentence: "You rolled 4 against Cave
    Troll (5 or more escapes): a failure" (B9, B14, B16)."""
    who = "You" if pending["player"] == me else pending["player"]
    if pending["kind"] == "curse":
        target = "you" if pending["on"] == me else pending["on"]
        if pending["player"] is None:
            return f"{n(pending['card'])}, drawn face up, hits {target}"
        return f"{who} played {n(pending['card'])} on {target}"
    verdict = "a success" if pending["success"] else "a failure"
    if pending["kind"] == "theft":
        aim = f"to steal {n(pending['card'])} from {pending['on']} ({pending['needs']} or more steals it)"
    else:
        aim = f"against {n(pending['card'])} ({pending['needs']} or more escapes)"
    return f"{who} rolled {_pending_roll(pending)} {aim}, {verdict}"


def pending_noun(pending: Mapping[str, Any], n: Name, me: str) -> str:
    """What awaits answers as a noun: "your roll of 4 against Cave Troll", "Bob's roll of 3
    to steal Gold Tooth from Cid", "Duck of Doom played on you" (B16)."""
    whose = "your" if pending["player"] == me else f"{pending['player']}'s"
    if pending["kind"] == "curse":
        return f"{n(pending['card'])} played on {'you' if pending['on'] == me else pending['on']}"
    roll = _pending_roll(pending)
    if pending["kind"] == "theft":
        return f"{whose} roll of {roll} to steal {n(pending['card'])} from {pending['on']}"
    return f"{whose} roll of {roll} against {n(pending['card'])}"


def _own_fight(data: Mapping[str, Any], me: str, advice: Mapping[str, Any] | None) -> str:
    """The player's own fight: where it stands, and what they may do; asking for help only
    when one of the legal actions (`data["legal"]`, if given) asks (B8)."""
    said = verdict((advice or {}).get("combat"), me)
    ask = " ask for help," if any(_verb(a) == "ask_help" for a in data.get("legal") or ()) else ""
    if not said:
        return f"You are in a fight: play cards,{ask} or fight (resolve the combat)."
    if losing(advice, me):
        return f"{said} Play cards,{ask} or choose Fight! to lose and run away."
    return f"{said} Play cards, or fight (resolve the combat)."


def _verb(action: Action | Mapping[str, Any]) -> str | None:
    """The verb of a legal action, as an `Action` or as plain data (`action_to_dict`)."""
    return action.get("verb") if isinstance(action, Mapping) else action.verb


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


DOUBLED = re.compile(r"\b([a-z]+) (?=(?i:\1)\b)")
"""A kind word said twice by a part of a breakdown: "curse Curse! Wet Noodle Arms"."""


def breakdown_lines(explain: str) -> list[str]:
    """A breakdown string ("munchkins 7 = 3 Ann's level (B6) + 4 ...") as one part a line, a
    kind word its card's name repeats said once ("- 2 Curse! Wet Noodle Arms")."""
    head, _, parts = DOUBLED.sub("", explain).partition(" = ")
    if not parts:
        return [explain]
    terms = re.split(r" (?=[+-] \d)", parts)
    return [head, *(f"  {t if t[0] in '+-' else '+ ' + t}" for t in terms)]


# -- the fight -------------------------------------------------------------------------------


def verdict(combat: Mapping[str, Any] | None, me: str | None) -> str:
    """Where the fight stands, for `me` (None: a spectator): "You are losing by 4 (5 more
    to win)." Ties go to the monsters unless a Warrior fights or helps (B6, B14)."""
    if combat is None:
        return ""
    margin, wins, helper = combat["margin"], combat["wins"], combat["helper"]
    if me is not None and me in (combat["fighter"], helper):
        who = "You are"
    else:
        who = f"{combat['fighter']} and {helper} are" if helper else f"{combat['fighter']} is"
    if wins:
        return (
            f"{who} winning by {margin}." if margin > 0 else f"{who} winning: tied, and a Warrior wins ties."
        )
    if margin == 0:
        return f"{who} losing: tied, and the monsters win ties (1 more to win)."
    return f"{who} losing by {-margin} ({1 - margin} more to win)."


def losing(advice: Mapping[str, Any] | None, me: str) -> bool:
    """Whether `me` fights, or helps, on the losing side of the fight now."""
    combat = (advice or {}).get("combat")
    if not combat:
        return False
    return me in (combat["fighter"], combat["helper"]) and not combat["wins"]


def escape_line(entry: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One runner's chance against one monster on one die (B9), with the modifier's parts if
    it has any: "Troll: 3 in 6 (a roll of 4 or more; run away 1 = 1 Elf (B14))"; "Troll: 2 in
    6 (a roll of 5 or more)". The browser's `escapeLine` (table.js) reads the same."""
    name = namer(names)(entry["monster"])
    if entry.get("automatic") == "escapes":
        return f"{name}: escaped at once, no roll"
    if entry.get("automatic") == "caught":
        return f"{name}: nobody escapes it by running"
    need = entry["needs"] - entry["modifier"]
    roll = (
        "every roll escapes" if need <= 1 else "even a 6 fails" if need > 6 else f"a roll of {need} or more"
    )
    parts = entry["explain"].partition(" = ")[2]
    return f"{name}: {entry['faces']} in 6 ({roll}{'' if parts in ('', '0') else '; ' + entry['explain']})"


def escape_lines(advice: Mapping[str, Any] | None, me: str | None, names: Mapping[str, str]) -> list[str]:
    """Each runner's escape chances, `me` first, as lines ("If you run: ...")."""
    combat = (advice or {}).get("combat")
    if not combat:
        return []
    runners = sorted(combat["run"], key=lambda name: name != me)
    out = []
    for runner in runners:
        who = "you" if runner == me else runner
        out.append(f"If {who} must run away, per monster:")
        out += [f"  {escape_line(entry, names)}" for entry in combat["run"][runner]]
    return out


# -- what a play costs, or does not do --------------------------------------------------------


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
        sold = [f"{_listed(n, action.cards)} go to the discard pile, for their gold (B12)"]
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


# -- menus -----------------------------------------------------------------------------------

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


# -- the end of the game ---------------------------------------------------------------------


def how_won(events: Sequence[Any], names: Mapping[str, str]) -> list[str]:
    """How each winner reached the winning level, from the game's events: "Ann reached
    level 10 on turn 31 by killing Tollbooth Troll, helped by Bob." (B2)"""
    n, out = namer(names), []
    for index, event in enumerate(events):
        if event.kind != "game_won":
            continue
        player, level, source = event.data["player"], None, None
        monsters: list[str] = []
        fighter = helper = None
        turn = None
        for back in reversed(events[:index]):
            d = back.data
            if back.kind == "level_up" and d["player"] == player and level is None:
                level, source = d["level"], d["source"]
            elif back.kind == "combat_resolved" and fighter is None:
                fighter = d["player"]
            elif back.kind == "monster_entered":
                monsters.insert(0, n(d["card"]))
            elif back.kind == "help_accepted" and helper is None:
                helper = d["player"]
            elif back.kind == "turn_started":
                turn = d["turn"]
                break
        killed = " and ".join(dict.fromkeys(monsters)) or "the monsters"
        when = f" on turn {turn}" if turn is not None else ""
        if source == "elf helper" and fighter:
            out.append(f"{player} reached level {level}{when} helping {fighter} kill {killed}, as an Elf.")
        else:
            helped = f", helped by {helper}" if helper and helper != player else ""
            out.append(f"{player} reached level {level}{when} by killing {killed}{helped}.")
    return out


def standings(data: Mapping[str, Any], events: Sequence[Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The end of a game as a table: each player's place, level, race and class, fights won
    and deaths (winners first, then by level), the turns played, and how the winners won."""
    winners = list(data["winners"])
    fights: dict[str, int] = {}
    deaths: dict[str, int] = {}
    for event in events:
        if event.kind == "combat_resolved" and event.data["won"]:
            fights[event.data["player"]] = fights.get(event.data["player"], 0) + 1
        elif event.kind == "died":
            deaths[event.data["player"]] = deaths.get(event.data["player"], 0) + 1
    tables = sorted(data["players"], key=lambda t: (t["name"] not in winners, -t["level"]))
    rows, place, last = [], 0, None
    for number, table in enumerate(tables, 1):
        key = (table["name"] in winners, table["level"])
        if key != last:
            place, last = number, key
        traits = [c["name"] for c in table["races"] + table["classes"]]
        rows.append(
            {
                "place": place,
                "name": table["name"],
                "level": table["level"],
                "won": table["name"] in winners,
                "traits": ", ".join(traits) or "Human, no class",
                "fights_won": fights.get(table["name"], 0),
                "deaths": deaths.get(table["name"], 0),
            }
        )
    return {
        "winners": winners,
        "title": f"Game over: {winners_text(winners)}.",
        "turns": data["turn"],
        "how": how_won(events, names),
        "rows": rows,
    }


def standings_lines(end: Mapping[str, Any]) -> list[str]:
    """The standings as lines of text (the terminal's end screen), in columns as wide as
    their longest entry."""
    lines = [end["title"], f"{end['turns']} turns played.", *end["how"], ""]
    rows = end["rows"]
    name = max((len(row["name"]) for row in rows), default=0)
    traits = max((len(row["traits"]) for row in rows), default=0)
    for row in rows:
        mark = "winner" if row["won"] else f"#{row['place']}"
        lines.append(
            f"{mark:>6}  {row['name']:<{name}}  level {row['level']:>2}  {row['traits']:<{traits}}  "
            f"fights won {row['fights_won']}, deaths {row['deaths']}"
        )
    return lines


ENGINE_WORDS = {
    "name it with on:": "it is played on that card",
    "name them with target:": "it is played on one of them",
}
"""Whole phrases of the engine's refusals, in player words (before `ENGINE_PATTERNS`)."""
ENGINE_PATTERNS = (
    (re.compile(r"name (.+?) with (?:on|target|cards):"), r"it is played on \1"),
    (re.compile(r"\b([a-z]+(?:_[a-z]+)+)\b"), None),
)
"""The engine's words for what an action names (`on:`, `target:`, `cards:`), and its verbs
(`look_for_trouble`), as a player says them."""
OPEN_DECISION = "wait: another decision is open"
"""The engine's refusal of a play while a question, an offer or a request is open (B4)."""


JUST_HAPPENED = "what just happened"
"""The engine's words for a pending roll or curse, in a refusal of a play that does not answer
it (B16): named from the view (`pending_noun`)."""


def open_decision(data: Mapping[str, Any] | None) -> str:
    """What a play waits for, in player words, from the player's view (`data`; None: not at
    hand): "first answer Bob's trade offer", "wait for Cid to answer their question"."""
    if data is None:
        return "wait for the open question to be answered"
    me, prompt, offer, combat = data["player"], data.get("prompt"), data.get("offer"), data.get("combat")
    if prompt is not None:
        asked = prompt["player"]
        return (
            "first answer the question open to you"
            if asked == me
            else f"wait for {asked} to answer their question"
        )
    if offer is not None:
        if offer["to"] == me:
            return f"first answer {offer['from']}'s trade offer"
        whose = "your" if offer["from"] == me else f"{offer['from']}'s"
        return f"wait for {offer['to']} to answer {whose} trade offer"
    if combat is not None and combat.get("asked"):
        if combat["asked"] == me:
            return f"first answer {combat['fighter']}'s request for help"
        return f"wait for {combat['asked']} to answer {combat['fighter']}'s request for help"
    return open_decision(None)


def player_words(message: str, names: Mapping[str, str], data: Mapping[str, Any] | None = None) -> str:
    """A refusal of the engine ("name a monster of the fight with on:") in player words
    ("it is played on a monster of the fight"): no field names, verbs or card ids. With the
    player's view (`data`), a play that waits for an open decision says which (B4)."""
    message = message.replace(OPEN_DECISION, open_decision(data))
    pending = (data or {}).get("pending")
    if pending is not None and data is not None:
        message = message.replace(JUST_HAPPENED, pending_noun(pending, namer(names), data["player"]))
    for engine, words in ENGINE_WORDS.items():
        message = message.replace(engine, words)
    for pattern, replacement in ENGINE_PATTERNS:
        message = pattern.sub(replacement or (lambda m: m.group(1).replace("_", " ")), message)
    return re.sub(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b", lambda m: names.get(m.group(), m.group()), message)
