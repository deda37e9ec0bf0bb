"""Playing a card from the hand (or the face-up door card): the `play` verb.

Each card type's timing, checks and effect are in card_types.py; while a roll or a curse
awaits answers only answering cards are played (responses.py), and while a limit is broken
only a card that puts it right (limits.py).
"""

from __future__ import annotations

from collections.abc import Callable

from munchkin.engine.actions import Action, action
from munchkin.engine.card import Card
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.rules.card_types import (
    CHEATABLE,
    CHECKS,
    DOES,
    WHEN,
    TypeCheck,
    aimed,
    attachable,
    in_time,
    source_card,
)
from munchkin.engine.rules.combat import reopen_window
from munchkin.engine.rules.fight_cards import check_fight_card, fight_kind, play_fight_card
from munchkin.engine.rules.items import can_use, holding_problem, reconcile_use, use_problem
from munchkin.engine.rules.limits import LIMIT_PROMPTS
from munchkin.engine.rules.responses import answer_word, answering_cards, play_answer
from munchkin.engine.state import GameState
from munchkin.engine.timing import another_is_asked, free_to_act, in_fight, own_turn
from munchkin.engine.verbs import holds, refuse, register

ANY_TIME = ("go_up_a_level", "curse", "hireling")
"""Cards played at any time (B3, B15, H1): also while the card drawn face up waits (R1)."""


def at_any_time(card: Card) -> bool:
    """Whether a card is played at any time: an `ANY_TIME` type, or a one-shot usable at any
    time (`uses: any`), also while the card drawn face up waits (R50)."""
    return card.type in ANY_TIME or (card.type == "one_shot" and card.uses == "any")


QUIET = ("go_up_a_level", "hireling")
"""Any-time cards that ask no one anything: also played while another player's question is
open (B3, H1, R56). A curse may ask its victim a question, so it waits."""


def _may_play(g: GameState, seat: int, kind: str | None = None) -> None:
    if free_to_act(g, seat) and g.prompt is None and g.offer is None:
        return
    if kind in QUIET and another_is_asked(g, seat):
        return
    raise refuse("B4", "wait: another decision is open")


def check_play(g: GameState, seat: int, a: Action) -> None:
    if _limit_question(g, seat):
        if a not in fixing_plays(g, seat):
            raise refuse("B11", "first put your items back within the limits")
        return
    if g.pending is not None and not _quiet_while_asked(g, seat, a):
        _check_answer(g, seat, a)
        return
    inst = source_card(g, seat, a.arg)
    _may_play(g, seat, None if inst is None else brought_in(g, seat, inst, a).type)
    if inst is None:
        raise refuse("B4", f"{a.arg} is not in your hand")
    if (
        g.phase == "face_up"
        and seat == g.active
        and inst != g.face_up
        and not at_any_time(brought_in(g, seat, inst, a))
    ):
        raise refuse("B4", "first decide what to do with the card drawn face up")
    kind = g.cards[inst].type
    if not in_time(g, seat, kind):
        _, rule, message = WHEN[kind]
        raise refuse(rule, message)
    if g.phase == "setup":
        _check_before_first_turn(g, seat, inst)
    if answer_word(g.cards[inst]) is not None:
        raise refuse("B16", f"{g.cards[inst].name} answers a die roll or a curse")
    _check_of(g.cards[inst])(g, seat, inst, a)


def _check_before_first_turn(g: GameState, seat: int, inst: int) -> None:
    """Before the first turn, each may play one race, one class and usable items (B1)."""
    p, card = g.players[seat], g.cards[inst]
    if card.type in ("race", "class"):
        zone = p.races if card.type == "race" else p.classes
        if zone:
            raise refuse("B1", f"before the first turn you may play one {card.type}")
        return
    if card.type not in ("item", "steed"):
        raise refuse("B1", "before the first turn: a race, a class and usable items")
    if not can_use(g, p, inst):
        raise refuse("B1", f"before the first turn only usable items: you cannot use {card.name}")


def _check_of(card: Card) -> TypeCheck:
    """The check of a card's play: its fight word's, else its type's."""
    return check_fight_card if fight_kind(card) is not None else CHECKS[card.type]


def _quiet(card: Card) -> bool:
    return card.type in QUIET


def _anything(card: Card) -> bool:
    return True


def _quiet_while_asked(g: GameState, seat: int, a: Action) -> bool:
    """A Go Up a Level or a hireling played while a roll or a curse awaits answers (R56)."""
    inst = g.find(g.players[seat].hand, a.arg or "")
    return inst is not None and _quiet(brought_in(g, seat, inst, a)) and another_is_asked(g, seat)


def brought_in(g: GameState, seat: int, inst: int, a: Action) -> Card:
    """The card whose timing a play follows: its own, or, for a Cheat! played with a card
    from the hand, that card's, which it brings into play (B17, H16)."""
    card = g.cards[inst]
    if card.type == "cheat" and a.on is not None:
        other = g.find(g.players[seat].hand, a.on)
        if other is not None:
            return g.cards[other]
    return card


def _check_answer(g: GameState, seat: int, a: Action) -> None:
    """While a roll or a curse awaits answers, only the cards that answer it are played."""
    inst = g.find(g.players[seat].hand, a.arg or "")
    if inst is None:
        raise refuse("B4", f"{a.arg} is not in your hand")
    assert inst is not None
    if not (a.target is None and a.on is None):
        raise refuse("B4", "an answer names no target")
    if a.arg not in {g.cards[i].id for i in answering_cards(g, seat)}:
        raise refuse(
            "B16", f"{g.cards[inst].name} does not answer what just happened; play it or pass when asked"
        )


def answer_plays(g: GameState, seat: int) -> list[Action]:
    """The plays that answer the pending roll or curse (B16)."""
    return [action("play", g.cards[inst].id) for inst in answering_cards(g, seat)]


def _limit_question(g: GameState, seat: int) -> bool:
    return g.prompt is not None and g.prompt.player == seat and g.prompt.kind in LIMIT_PROMPTS


def fixing_plays(g: GameState, seat: int) -> list[Action]:
    """While a limit is broken, the plays that would put it right: a card that restores the
    limit (a Dwarf for Big items, a hireling with hands) fixes it (B11, H6)."""
    lifted = g.copy()
    lifted.prompt, lifted.tasks = None, []
    kind = g.prompt.kind if g.prompt is not None else ""
    fixing = []
    for a in play_options(lifted, seat):
        trial = lifted.copy()
        do_play(trial, seat, a, [])
        p = trial.players[seat]
        fixed = (
            use_problem(trial, p, p.equipped) is None
            if kind == "take_off"
            else holding_problem(trial, p, p.equipped + p.carried, p.steeds) is None
        )
        if fixed:
            fixing.append(a)
    return fixing


def do_play(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    if _limit_question(g, seat):
        g.prompt = None  # the card played puts the limit right; the limits are checked again
        reconcile_use(g, seat, ev)
    inst = source_card(g, seat, a.arg)
    assert inst is not None
    p, card = g.players[seat], g.cards[inst]
    if g.pending is not None and answer_word(card) is not None:
        p.hand.remove(inst)
        ev.append(Event("card_played", {"player": p.name, "card": card.id, "name": card.name}))
        play_answer(g, seat, inst, ev)
        return
    if inst == g.face_up:
        g.face_up = None
        g.phase = "after_door"
    else:
        p.hand.remove(inst)
    ev.append(
        Event(
            "card_played",
            {"player": p.name, "card": card.id, "name": card.name, "target": a.target, "on": a.on},
        )
    )
    (play_fight_card if fight_kind(card) is not None else DOES[card.type])(g, seat, inst, a, ev)
    if g.combat is not None and g.combat.stage == "fight":
        reopen_window(g)  # everyone may respond to a card played into a fight (B16)


# -- options -------------------------------------------------------------------------


def play_options(g: GameState, seat: int) -> list[Action]:
    """Every legal play, checked here with the parts of `check_play`: each card of the hand
    (or the card drawn face up) that may be played at this time, with each sensible target
    that its type's check accepts."""
    answers = answer_plays(g, seat) if g.pending is not None else []
    hand = g.distinct(g.players[seat].hand)
    gate: Callable[[Card], bool] = _anything  # what a card must be to be played now
    if g.pending is None and holds(_may_play, g, seat):
        face_up = g.face_up if g.phase == "face_up" and seat == g.active else None
        if face_up is not None:
            gate = at_any_time
        playable = hand if face_up is None else [face_up, *hand]
    elif another_is_asked(g, seat):
        gate, playable = _quiet, hand
    else:
        return answers
    setup = g.phase == "setup"
    timely: dict[str, bool] = {}  # whether each card type may be played now
    plays: list[Action] = []
    for inst in playable:
        card = g.cards[inst]
        kind = card.type
        gated = inst != g.face_up
        if gated and not (gate(card) or kind == "cheat"):
            continue
        now = timely.get(kind)
        if now is None:
            now = timely[kind] = in_time(g, seat, kind)
        if not now or answer_word(card) is not None:
            continue
        if setup and not holds(_check_before_first_turn, g, seat, inst):
            continue
        check = _check_of(card)
        for a in _plays_of(g, seat, inst):
            if gated and kind == "cheat" and not gate(brought_in(g, seat, inst, a)):
                continue
            try:
                check(g, seat, inst, a)
            except RulesError:
                continue
            plays.append(a)
    return answers + plays


def _plays_of(g: GameState, seat: int, inst: int) -> list[Action]:
    """The ways to play one card: with each sensible target or none, by its type."""
    p, card = g.players[seat], g.cards[inst]
    kind = card.type
    word = fight_kind(card)
    if word is not None:
        return _fight_plays(g, seat, card, word)
    if kind in ("curse", "trap") or aimed(card):
        return [action("play", card.id, target=q.name) for q in g.players if not q.dead]
    if kind == "monster_enhancer" or (kind == "one_shot" and in_fight(g)):
        monsters = g.combat.monsters if g.combat else []
        on_monsters = [action("play", card.id, on=m) for m in g.distinct_ids(monsters)]
        return [action("play", card.id), *on_monsters] if kind == "one_shot" else on_monsters
    if kind in ("steed_enhancer", "item_enhancer", "cheat"):
        targets = attachable(g, p)
        if kind == "cheat":
            targets = targets + [i for i in p.hand if g.cards[i].type in CHEATABLE]
        return [action("play", card.id, on=t) for t in g.distinct_ids(targets)]
    if kind == "wandering_monster":
        hand_monsters = [i for i in p.hand if g.cards[i].type == "monster"]
        return [action("play", card.id, on=m) for m in g.distinct_ids(hand_monsters)]
    if kind == "other" and card.enhances:
        traits = p.races if card.enhances == "race" else p.classes
        return [action("play", card.id, on=t) for t in g.distinct_ids(traits)]
    if kind != "monster" and not (kind == "other" and not own_turn(g, seat)):
        if kind == "one_shot" and "change_sex" in card.kinds:
            on_hirelings = [action("play", card.id, on=h) for h in g.distinct_ids(p.hirelings)]
            return [action("play", card.id), *on_hirelings]
        return [action("play", card.id)]
    return []


def _fight_plays(g: GameState, seat: int, card: Card, word: str) -> list[Action]:
    """The ways to play a fight card: on each monster, at each player, or plainly."""
    monsters = g.distinct_ids(g.combat.monsters) if g.combat is not None else []
    if word in ("twin", "send_away"):
        return [action("play", card.id, on=m) for m in monsters]
    if word == "illusion":
        hand = [i for i in g.players[seat].hand if g.cards[i].type == "monster"]
        if len(monsters) == 1:
            return [action("play", card.id, on=new) for new in g.distinct_ids(hand)]
        return [
            action("play", card.id, on=new, cards=(old,)) for new in g.distinct_ids(hand) for old in monsters
        ]
    if word in ("force_help", "pass_fight"):
        return [action("play", card.id, target=q.name) for q in g.players if not q.dead]
    return [action("play", card.id)]


register("play", check_play, do_play, play_options, prechecked=True)
