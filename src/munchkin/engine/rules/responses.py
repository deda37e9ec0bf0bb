"""Responses to what has just happened: a die just rolled, a curse just played (B9, B15, B19).

A roll or a curse does not take effect at once when someone holds a card that answers
it: it becomes `GameState.pending`, and each player who could answer plays the card or
passes, as in a fight's window (B16). Nothing else happens meanwhile. The answers are
card words (docs/card-format.md):

- `set_die`: after any die roll (running away, a theft), the die shows the number the
  player chooses;
- `roll_again`: a runner who has just escaped a monster rolls again for it;
- `cancel_curse`: the curse played (or drawn) does nothing and is discarded.
"""

from __future__ import annotations

from dataclasses import replace

from munchkin.engine.card import Card
from munchkin.engine.events import Event
from munchkin.engine.rules.items import discard
from munchkin.engine.state import GameState, Pending, Prompt

ANSWERS: dict[str, tuple[str, ...]] = {
    "set_die": ("run", "theft"),
    "roll_again": ("run",),
    "cancel_curse": ("curse",),
}
"""Each answering word, and the kinds of pending event it answers."""
DIE_FACES = ("1", "2", "3", "4", "5", "6")


def answer_word(card: Card) -> str | None:
    """The answering word of a card, if it has one."""
    for kind in card.kinds:
        if kind in ANSWERS:
            return kind
    return None


def answers(g: GameState, seat: int, inst: int) -> bool:
    """Whether this card of the player's hand answers what is pending now."""
    p, word = g.pending, answer_word(g.cards[inst])
    if p is None or word is None or p.kind not in ANSWERS[word]:
        return False
    if word == "roll_again":
        return seat != p.seat and p.success  # only an escape is rolled again
    return True


def answering_cards(g: GameState, seat: int) -> list[int]:
    """The cards of the hand, one per card id, that the player may answer with now."""
    if g.pending is None or seat in g.pending.passed or g.players[seat].dead or g.prompt is not None:
        return []
    return [inst for inst in g.distinct(g.players[seat].hand) if answers(g, seat, inst)]


def responders(g: GameState) -> list[int]:
    """Seats that could still answer what is pending, from the player it concerns on."""
    if g.pending is None:
        return []
    n = len(g.players)
    first = g.pending.seat if g.pending.seat is not None else g.pending.other
    order = [(first + k) % n for k in range(n)]
    return [seat for seat in order if answering_cards(g, seat)]


def wait_for_answers(g: GameState, pending: Pending) -> bool:
    """Hold `pending` for answers when anyone could answer it; False when nobody could."""
    g.pending = pending
    if responders(g):
        return True
    g.pending = None
    return False


def passed(g: GameState, seat: int) -> None:
    p = g.pending
    assert p is not None
    g.pending = replace(p, passed=(*p.passed, seat))


def play_answer(g: GameState, seat: int, inst: int, ev: list[Event]) -> None:
    """The card answers: the die is set (asked next), the escape rolled again, or the
    curse cancelled. Everyone may answer again after a change (B16)."""
    p = g.pending
    assert p is not None
    word = answer_word(g.cards[inst])
    discard(g, inst)
    if word == "set_die":
        g.prompt = Prompt(seat, "set_die", DIE_FACES)
    elif word == "roll_again":
        assert p.seat is not None
        g.pending = None
        g.tasks.insert(0, ("roll", p.seat, p.card))
        ev.append(Event("roll_again", {"player": g.players[seat].name, "runner": g.players[p.seat].name}))
    else:
        g.pending = None
        discard(g, p.card)
        target = g.players[p.other].name
        ev.append(
            Event(
                "curse_cancelled", {"player": g.players[seat].name, "card": g.cards[p.card].id, "on": target}
            )
        )


def set_die(g: GameState, prompt: Prompt, face: str, ev: list[Event]) -> None:
    """The die now shows the chosen number; the answers start again."""
    p = g.pending
    assert p is not None
    g.pending = replace(p, value=int(face), passed=())
    who = g.players[prompt.player].name
    ev.append(Event("die_set", {"player": who, "roll": int(face), "success": g.pending.success}))
