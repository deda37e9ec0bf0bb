"""Answers to what awaits answers (B9, B14, B15; the view's `pending`): a die just rolled to run
away or to steal, a curse just played. The heavy die saves the bot's own failed roll or theft,
or spoils an opponent's escape or theft, the leader's first; the glue makes an opponent who
escaped painful Bad Stuff roll again; the ring cancels a curse aimed at the bot that hurts, or
that would lose it the fight it is winning.
Otherwise the bot passes. After the heavy die it chooses the face (`set_die`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from munchkin.bots.heuristic.harms import bad_stuff, escape_chance, harm, weakening
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import LEVEL_VALUE, TREASURE_VALUE, item_worth, words
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action

DIE_FACES = range(1, 7)


def answer_pending(s: Situation) -> Action | None:
    """Play the answer worth most more than it costs, else pass."""
    pending = s.data.get("pending")
    if pending is None or not s.legal("pass"):
        return None
    gains = {a: _gain(s, pending, s.card(a.arg)) - s.value(a.arg) for a in s.legal("play")}
    best = s.best([a for a, gain in gains.items() if gain > 0], gains.__getitem__)
    return best or s.legal("pass")[0]


def _gain(s: Situation, pending: Mapping[str, Any], card: CardDef) -> float:
    """What an answering card would bring the bot now."""
    kind, answer = pending["kind"], words(card)
    if kind == "curse":
        if pending["on"] != s.me.name or "cancel_curse" not in answer:
            return 0.0
        curse = s.card(pending["card"])
        return harm(curse.effects, s.me, s.hand_value) + _fight_turned(s, curse)
    roller = s.seats[pending["player"]]
    flips = _face_flips(pending, mine=roller is s.me)
    if kind == "run":
        monster = _monster(s, pending["card"])
        bad = harm(bad_stuff(monster), roller, s.hand_value if roller is s.me else roller.hand_count)
        if roller is s.me:
            return bad if flips and "set_die" in answer else 0.0
        if not pending["success"]:
            return 0.0
        if "roll_again" in answer:
            chance = escape_chance(pending["modifier"] - pending["needs"] + 5, "halfling" in roller.races)
            return s.spite(roller) * bad * (1 - chance)
        return s.spite(roller) * bad if flips and "set_die" in answer else 0.0
    if kind == "theft" and flips and "set_die" in answer:
        item = s.card(pending["card"])
        victim = s.seats[pending["on"]]
        if roller is s.me:
            return item_worth(item, True) + LEVEL_VALUE
        mine = s.worth_in_play(item.id) if victim is s.me else s.spite(victim) * -item_worth(item, True)
        return mine + s.spite(roller) * (item_worth(item, True) + LEVEL_VALUE)
    return 0.0


def _fight_turned(s: Situation, curse: CardDef) -> float:
    """What the bot's fight, won now, brings it when the strength the curse takes would lose
    it (a curse played into the fight, B15): the levels, a fighter's treasures too."""
    fight = s.fight
    if fight is None or s.me not in fight.fighters or not fight.munchkins_win:
        return 0.0
    if weakening(curse.effects, s.me) < fight.to_lose:
        return 0.0
    treasures = fight.treasures - fight.reward if s.me is fight.fighter else fight.reward
    return fight.gain(s.me) * LEVEL_VALUE + treasures * TREASURE_VALUE


def _face_flips(pending: Mapping[str, Any], mine: bool) -> bool:
    """Whether setting the die turns the roll: a failure of the bot's own into a success, or
    someone else's success into a failure."""
    face = max(DIE_FACES) if mine else min(DIE_FACES)
    return (face + pending["modifier"] >= pending["needs"]) != bool(pending["success"])


def _monster(s: Situation, card_id: str) -> CardDef:
    """The monster run from, as it fights (a twin as its original)."""
    fight = s.fight
    index = fight.index(card_id) if fight is not None else None
    return fight.monsters[index] if fight is not None and index is not None else s.card(card_id)


def set_die(s: Situation, options: list[Action]) -> Action | None:
    """The highest face for the bot's own roll, the lowest for anyone else's."""
    pending = s.data.get("pending") or {}
    mine = pending.get("player") == s.me.name
    return (max if mine else min)(options, key=lambda a: int(a.arg or 0))
