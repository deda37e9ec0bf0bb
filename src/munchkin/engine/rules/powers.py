"""Class powers paid for by discarding cards (B14): the Warrior's berserking, the Cleric's
turning, the Wizard's charm, the Thief's backstab and theft. Each works wherever its owner
is: fighter, helper or bystander. (The Wizard's flight is asked after a roll: run_away.py.)"""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.rules.character import is_class, lose_levels
from munchkin.engine.rules.combat import fight, reopen_window, send_away
from munchkin.engine.rules.items import discard, hand_over, handed_items, receive_problem
from munchkin.engine.rules.responses import wait_for_answers
from munchkin.engine.rules.strength import monster_card
from munchkin.engine.state import GameState, Pending
from munchkin.engine.timing import free_to_act, in_fight
from munchkin.engine.verbs import Check, Do, Options, refuse, register, seat_of

THEFT_ROLL = 4
CLASS_OF = {
    "berserk": "warrior",
    "turn_undead": "cleric",
    "charm": "wizard",
    "backstab": "thief",
    "steal": "thief",
}
"""The class whose power each verb is (B14): only members of that class are asked about it."""


def _pay(g: GameState, seat: int, card_id: str | None) -> None:
    """Discard the card that pays for a power."""
    p = g.players[seat]
    inst = g.find(p.hand, card_id or "")
    assert inst is not None
    p.hand.remove(inst)
    discard(g, inst)


def _require_payment(g: GameState, seat: int, card_id: str | None) -> None:
    if g.find(g.players[seat].hand, card_id or "") is None:
        raise refuse("B14", f"{card_id} is not in your hand to discard")


def _uses(g: GameState, seat: int, power: str) -> int:
    return sum(1 for who, _, _, kind in fight(g).mods if who == seat and kind == power)


def _add_mod(g: GameState, seat: int, amount: int, power: str, a: Action, ev: list[Event]) -> None:
    inst = g.find(g.players[seat].hand, a.arg or "")
    assert inst is not None
    _pay(g, seat, a.arg)
    fight(g).mods.append((seat, amount, inst, power))
    ev.append(Event("power_used", {"player": g.players[seat].name, "power": power, "card": a.arg}))


def _require_class(g: GameState, seat: int, verb: str, what: str) -> None:
    cls = CLASS_OF[verb]
    if not is_class(g, g.players[seat], cls):
        raise refuse("B14", f"only a {cls.title()} may {what}")


def _check_fight_power(g: GameState, seat: int, a: Action, power: str) -> None:
    if not (free_to_act(g, seat) and in_fight(g)):
        raise refuse("B14", f"{power} is used in a fight")
    _require_class(g, seat, a.verb, f"use {power}")
    if seat not in fight(g).fighters():
        raise refuse("B14", f"{power} is for the fighter or the helper")
    most = g.options.power_discards
    if _uses(g, seat, power) >= most:
        raise refuse("B14", f"at most {most} cards for {power}")
    _require_payment(g, seat, a.arg)


def check_berserk(g: GameState, seat: int, a: Action) -> None:
    _check_fight_power(g, seat, a, "berserking")


def do_berserk(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    _add_mod(g, seat, 1, "berserking", a, ev)
    reopen_window(g)


def check_turning(g: GameState, seat: int, a: Action) -> None:
    _check_fight_power(g, seat, a, "turning")
    if not any(monster_card(g, m).undead for m in fight(g).monsters):
        raise refuse("B14", "turning works against Undead")


def do_turning(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    _add_mod(g, seat, 3, "turning", a, ev)
    reopen_window(g)


def check_charm(g: GameState, seat: int, a: Action) -> None:
    if not (free_to_act(g, seat) and in_fight(g) and seat in fight(g).fighters()):
        raise refuse("B14", "the fighter or the helper charms a monster during the fight")
    _require_class(g, seat, "charm", "charm")
    fewest = g.options.charm_cards
    if len(g.players[seat].hand) < fewest:
        raise refuse("B14", f"charming costs the whole hand, {fewest} cards or more")
    if g.find(fight(g).monsters, a.arg or "") is None:
        raise refuse("B14", f"{a.arg} is not in the fight")


def do_charm(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    """The whole hand is discarded; the monster leaves the fight, defeated: no level, and its
    treasures are won with the fight's, when it is over (B7, B14)."""
    p = g.players[seat]
    for inst in p.hand:
        discard(g, inst)
    p.hand.clear()
    monster = g.find(fight(g).monsters, a.arg or "")
    assert monster is not None
    ev.append(Event("power_used", {"player": p.name, "power": "charm", "card": a.arg}))
    send_away(g, monster, True, ev)


def check_backstab(g: GameState, seat: int, a: Action) -> None:
    if not (free_to_act(g, seat) and in_fight(g)):
        raise refuse("B14", "backstab is used in a fight")
    _require_class(g, seat, "backstab", "backstab")
    victim = seat_of(g, a.target, "B14")
    if not (victim != seat and victim in fight(g).fighters()):
        raise refuse("B14", "backstab another player in the fight")
    already = (seat, victim) in fight(g).backstabs
    if already:
        raise refuse("B14", f"you backstabbed {a.target} already in this fight: once per victim")
    _require_payment(g, seat, a.arg)


def do_backstab(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    victim = g.index(a.target or "")
    inst = g.find(g.players[seat].hand, a.arg or "")
    assert inst is not None
    _pay(g, seat, a.arg)
    c = fight(g)
    c.mods.append((victim, -2, inst, "backstab"))
    c.backstabs = (*c.backstabs, (seat, victim))
    ev.append(
        Event(
            "power_used",
            {"player": g.players[seat].name, "power": "backstab", "card": a.arg, "target": a.target},
        )
    )
    reopen_window(g)


def may_steal(g: GameState, seat: int) -> bool:
    """Theft is tried at any time when no fight is going on, on anyone's turn (B14)."""
    return (
        g.combat is None
        and g.phase not in ("setup", "over")
        and free_to_act(g, seat)
        and g.prompt is None
        and g.offer is None
    )


def check_steal(g: GameState, seat: int, a: Action) -> None:
    if not may_steal(g, seat):
        raise refuse("B14", "theft is tried when no fight is going on")
    _require_class(g, seat, "steal", "steal")
    victim = seat_of(g, a.target, "B14")
    if victim == seat:
        raise refuse("B14", "steal from another player")
    inst = g.find(handed_items(g, victim), a.arg or "")
    if inst is None:
        raise refuse("B14", f"{g.players[victim].name} has no {a.arg} in play")
    problem = _theft_problem(g, seat, inst)
    if problem is not None:
        raise problem
    if len(a.cards) != 1:
        raise refuse("B14", "discard one card to try (cards:)")
    _require_payment(g, seat, a.cards[0])


def do_steal(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    """Roll 4 or more: the item is the Thief's; else the Thief loses a level (B14)."""
    victim = g.index(a.target or "")
    inst = g.find(handed_items(g, victim), a.arg or "")
    assert inst is not None
    _pay(g, seat, a.cards[0])
    pending = Pending("theft", seat, inst, other=victim, value=g.dice.d6(), needs=THEFT_ROLL)
    ev.append(
        Event(
            "die_rolled",
            {
                "player": g.players[seat].name,
                "purpose": "theft",
                "card": a.arg,
                "roll": pending.value,
                "modifier": 0,
                "success": pending.success,
            },
        )
    )
    if not wait_for_answers(g, pending):
        settle_theft(g, pending, ev)


def settle_theft(g: GameState, pending: Pending, ev: list[Event]) -> None:
    """The theft's roll stands: the item changes hands (a hireling with what it carries,
    H11), or the Thief loses a level (B14)."""
    thief, victim, inst = pending.seat, pending.other, pending.card
    assert thief is not None
    if not pending.success:
        lose_levels(g, thief, 1, ev, "failed theft")
        return
    if inst not in handed_items(g, victim):
        return  # it left play while the roll was answered
    hand_over(g, [(victim, thief, inst)], ev)
    card = g.cards[inst].id
    ev.append(
        Event("stolen", {"player": g.players[thief].name, "card": card, "from": g.players[victim].name})
    )


def _hand_options(verb: str) -> Options:
    """One action per card of the hand that could pay for the power."""

    def options(g: GameState, seat: int) -> Iterator[Action]:
        if g.combat is not None:
            yield from (action(verb, card_id) for card_id in g.distinct_ids(g.players[seat].hand))

    return options


def charm_options(g: GameState, seat: int) -> Iterator[Action]:
    if g.combat is not None:
        yield from (action("charm", m) for m in g.distinct_ids(g.combat.monsters))


def backstab_options(g: GameState, seat: int) -> Iterator[Action]:
    p = g.players[seat]
    if g.combat is None or not p.hand:
        return
    card_id = g.cards[p.hand[0]].id
    for victim in g.combat.fighters():
        yield action("backstab", card_id, target=g.players[victim].name)


def steal_options(g: GameState, seat: int) -> Iterator[Action]:
    p = g.players[seat]
    if not p.hand or not may_steal(g, seat):
        return
    pay = g.cards[p.hand[0]].id
    for victim, q in enumerate(g.players):
        if q is not p:
            for card_id in g.distinct_ids(_stealable(g, seat, victim)):
                yield action("steal", card_id, target=q.name, cards=(pay,))


def _stealable(g: GameState, thief: int, victim: int) -> list[int]:
    """The Items in play a Thief may try to steal from `victim`."""
    return [i for i in handed_items(g, victim) if _theft_problem(g, thief, i) is None]


def _theft_problem(g: GameState, thief: int, inst: int) -> RulesError | None:
    """Why an Item in play may not be stolen: only small ones, a hireling with a gold value
    among them when the Thief could have one more; never a steed (B14, H5, H1, S4)."""
    card = g.cards[inst]
    if card.type == "steed":
        return refuse("S4", "a steed cannot be stolen")
    if card.big:
        return refuse("S4", "only small items can be stolen, not a Big one")
    problem = receive_problem(g, thief, [inst], []) if card.type == "hireling" else None
    return None if problem is None else RulesError(problem.rule, "you could not have it: " + problem.message)


def _register_power(verb: str, check: Check, do: Do, options: Options) -> None:
    register(verb, check, do, options, power_of=CLASS_OF[verb])


_register_power("berserk", check_berserk, do_berserk, _hand_options("berserk"))
_register_power("turn_undead", check_turning, do_turning, _hand_options("turn_undead"))
_register_power("charm", check_charm, do_charm, charm_options)
_register_power("backstab", check_backstab, do_backstab, backstab_options)
_register_power("steal", check_steal, do_steal, steal_options)
