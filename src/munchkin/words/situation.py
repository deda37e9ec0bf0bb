"""Why the player is asked, in one line: their turn and its step, a question, an offer, a
request for help, a roll or curse awaiting answers, or a fight and where it stands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from munchkin.engine.actions import Action
from munchkin.text import treasures
from munchkin.words.fight import losing, verdict
from munchkin.words.names import Name, namer
from munchkin.words.prompts import prompt_kind, question
from munchkin.words.standings import winners_text


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
