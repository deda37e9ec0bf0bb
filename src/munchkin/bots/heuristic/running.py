"""Running away after a lost fight (B9, B14, H4): a hireling sacrificed when that is cheaper
than the expected Bad Stuff, run-away one-shots when they save more than they cost, the
Wizard's flight and the Halfling's re-roll after a failed roll."""

from __future__ import annotations

from munchkin.bots.heuristic.harms import bad_stuff, escape_chance, harm
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import words
from munchkin.engine.actions import Action


def run(s: Situation) -> Action | None:
    """After a lost fight: sacrifice a hireling when the Bad Stuff would cost more, use
    run-away one-shots when they save more than they cost, else roll (B9, H4); a Wizard's
    flight is asked after a failed roll (`flight`)."""
    if not s.legal("run_away"):
        return None
    loss = s.run_loss()
    sacrifices = s.legal("sacrifice_hireling", helper_escapes=False)
    cheapest = s.best(sacrifices, lambda a: -_hireling_worth(s, a.arg))
    if cheapest is not None and _hireling_worth(s, cheapest.arg) < loss:
        return cheapest
    savings = {a: _escape_gain(s, a, loss) - s.value(a.arg) for a in s.legal("play")}
    best = s.best([a for a, saving in savings.items() if saving > 0], savings.__getitem__)
    return best or s.legal("run_away")[0]


def _hireling_worth(s: Situation, card_id: str | None) -> float:
    """A hireling and what it carries, as lost by a sacrifice (H9)."""
    worths = [1.0 + h.bonus + sum(i.bonus for i in c) for h, c in s.me.hirelings() if h.id == card_id]
    return min(worths, default=0.0)


def _escape_gain(s: Situation, action: Action, loss: float) -> float:
    """What a run-away one-shot saves (B9, R9)."""
    card = s.card(action.arg)
    if card.type != "one_shot" or card.uses != "run_away":
        return 0.0
    if words(card) & {"escape", "escape_together"}:
        return loss
    return loss - s.run_loss(card.run_away)


def flight(s: Situation, options: list[Action]) -> Action | None:
    """A Wizard pays its cheapest cards for +1 each to a failed roll when they make the
    escape, and the Bad Stuff escaped costs more than they do (B14)."""
    decline = s.legal("choose", arg="decline")
    cards = sorted((a for a in options if a.arg != "decline"), key=lambda a: s.value(a.arg))
    missing = s.data["prompt"].get("missing")
    if not cards or not isinstance(missing, int) or missing > len(cards):
        return decline[0] if decline else None
    cost = sum(s.value(a.arg) for a in cards[:missing])
    return cards[0] if cost < _bad_stuff_cost(s) else (decline or cards)[0]


def _bad_stuff_cost(s: Situation) -> float:
    """What the Bad Stuff of the monster being run from would cost the bot (B9, S9)."""
    monster = s.defs.get(s.data["prompt"]["about"] or "")
    if monster is None:
        return 0.0
    return harm(bad_stuff(monster), s.me, s.hand_value)


def reroll(s: Situation, options: list[Action]) -> Action | None:
    """A Halfling pays its cheapest card to roll a failed escape again, when the Bad Stuff
    it may avoid is worth more (B14)."""
    decline = s.legal("choose", arg="decline")[0]
    monsters = s.fight.monsters if s.fight else ()
    bad = max((harm(m.bad_stuff, s.me, s.hand_value) for m in monsters), default=0.0)
    chance = escape_chance(s.data["run_away_modifier"], reroll=False)
    pay = s.best([a for a in options if a != decline], lambda a: -s.value(a.arg))
    return pay if pay is not None and chance * bad > s.value(pay.arg) else decline
