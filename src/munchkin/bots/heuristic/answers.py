"""Questions put to the bot (`choose`): each kind of prompt by its own rule; the others lose
the least valuable card."""

from __future__ import annotations

from collections.abc import Callable

from munchkin.bots.heuristic import limits, responses, running
from munchkin.bots.heuristic.harms import harm, names_any
from munchkin.bots.heuristic.seats import threat
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import TREASURE_VALUE, cheapest_payment, trait_score
from munchkin.engine.actions import Action


def answer_prompt(s: Situation) -> Action | None:
    """Answer the question asked: each kind by its own rule; where a card played would put
    a broken limit right, play it when it costs less than what would go (B11)."""
    prompt, options = s.data["prompt"], s.legal("choose")
    if not options:
        return None
    answer = ANSWERS.get(prompt["kind"])
    if answer is not None:
        return answer(s, options)
    return s.least_valuable(options)


def _loot(s: Situation, options: list[Action]) -> Action | None:
    """Take the best card of the body (B10)."""
    return s.best(options, lambda a: s.value(a.arg))


def _charity(s: Situation, options: list[Action]) -> Action | None:
    """Give away the least valuable card (B5)."""
    return s.best(options, lambda a: -s.value(a.arg))


def _charity_to(s: Situation, options: list[Action]) -> Action | None:
    """Among the tied lowest players, the least dangerous gets the card (B5)."""
    return s.best(options, lambda a: -threat(s.seats[a.arg or ""]))


def _remove_curse(s: Situation, options: list[Action]) -> Action | None:
    """Free the worst curse."""
    return s.best(options, lambda a: harm(s.card(a.arg).effects, s.me, 0.0))


def _keep_trait(s: Situation, options: list[Action]) -> Action | None:
    """Keep the race or class worth most, with the items it lets the bot use (B14)."""
    held = [c for c, _ in s.me.in_play()] + s.hand
    return s.best(options, lambda a: trait_score(s.card(a.arg), held))


def _half_trait(s: Situation, options: list[Action]) -> Action | None:
    """Count a half race or class, or not, whichever branch of the effect hurts less (B14)."""
    source = s.defs.get(s.data["prompt"]["about"] or "")
    half = (options[0].arg or "").removeprefix("as ").split("/")
    effects = [] if source is None else [*source.bad_stuff, *source.effects]
    branches = [e.arg for e in effects if e.kind == "conditional" and names_any(e.arg.if_, half)]
    if not branches:
        return options[-1]
    as_half = sum(harm(b.then, s.me, s.hand_value) for b in branches)
    not_half = sum(harm(b.else_, s.me, s.hand_value) for b in branches)
    return options[0] if as_half < not_half else options[-1]


def _resurrect(s: Situation, options: list[Action]) -> Action | None:
    """Pay the cheapest card of the hand for the top treasure discard when it is worth more
    than that card and an unknown treasure together; else draw (B14)."""
    top = s.data["treasure_discard"][-1]["id"]
    draw = next(a for a in options if a.arg == "draw")
    pay = s.least_valuable([a for a in options if a.arg != "draw"])
    if pay is None or s.value(top) <= s.value(pay.arg) + TREASURE_VALUE:
        return draw
    return pay


def _pay_tax(s: Situation, options: list[Action]) -> Action | None:
    """Pay an income tax with the items worth least to the bot that together make the gold
    owed: the dearest in gold of them first, the rest being asked again (docs/card-format.md)."""
    items = [(a, s.card(a.arg).value or 0, s.worth_in_play(a.arg or "")) for a in options]
    paid = cheapest_payment(items, s.data["prompt"].get("owed") or 0)
    return s.least_valuable(options) if paid is None else max(paid, key=lambda item: item[1])[0]


ANSWERS: dict[str, Callable[[Situation, list[Action]], Action | None]] = {
    "loot": _loot,
    "charity": _charity,
    "charity_to": _charity_to,
    "reroll": running.reroll,
    "flight": running.flight,
    "remove_curse": _remove_curse,
    "keep_race": _keep_trait,
    "keep_class": _keep_trait,
    "half_trait": _half_trait,
    "get_rid": limits.get_rid,
    "take_off": limits.take_off,
    "set_die": responses.set_die,
    "pay_tax": _pay_tax,
    "resurrect": _resurrect,
}
"""Each kind of question and its answer; the others lose the least valuable card."""
