"""Running away after a lost fight, and sacrificing a hireling instead (B9, B14, H4, S6, S7).

After a failed roll, the runner's class and race powers may still save it: the Wizard's
flight (cards for +1 each to that roll), then the Halfling's re-roll (B14)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

from munchkin.cards.schema import Effect
from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.explain import Breakdown, Part
from munchkin.engine.rules.character import is_class, is_race
from munchkin.engine.rules.combat import fight, finish_fight
from munchkin.engine.rules.effects import queue_effects
from munchkin.engine.rules.items import can_use, discard, used_by_hirelings
from munchkin.engine.rules.responses import wait_for_answers
from munchkin.engine.rules.strength import monster_card
from munchkin.engine.state import GameState, Pending, Prompt
from munchkin.engine.verbs import refuse, register

ESCAPE_ROLL = 5
ELF_RUN_AWAY = 1
"""The Elf's run-away bonus (B14)."""
RUN_POWERS = ("run bonus",)
STEED_BAD_STUFF = (Effect(lose_levels=1),)


def run_modifier(g: GameState, seat: int, monster: int | None = None) -> Breakdown:
    """What is added to a run-away roll (B9, B14, B15, H8, S6)."""
    p = g.players[seat]
    traits = p.races + p.classes
    own = [i for i in traits + [e for t in traits for e in g.attached.get(t, ())] if g.cards[i].run_away]
    own += [i for i in p.equipped if g.cards[i].run_away and can_use(g, p, i)]
    own += [i for i in used_by_hirelings(g, p) if g.cards[i].run_away]  # for its owner (H8)
    riding = [(steed_run_away(g, s), s) for s in p.steeds if _sets_run_away(g, s)]
    parts: list[Part]
    if riding:  # the steed's modifier replaces the rider's own (S6, R13)
        value, best = max(riding)
        parts = [Part(f"steed {g.cards[best].name}", value, g.cards[best].id, "S6")]
    else:
        parts = [Part(g.cards[i].name, g.cards[i].run_away, g.cards[i].id, "B9") for i in own]
        parts += [  # an Elf card that names no run-away value still has the Elf's +1 (B14)
            Part(g.cards[i].name, ELF_RUN_AWAY, g.cards[i].id, "B14")
            for i in p.races
            if g.cards[i].id == "elf" and not g.cards[i].run_away
        ]
    for kind, amount, source in p.lasting:
        if kind == "run_away":
            parts.append(Part(f"penalty {g.cards[source].name}", amount, g.cards[source].id, "B15"))
    if g.combat is not None:
        for who, amount, source, power in g.combat.mods:
            if riding and amount > 0:
                continue  # a one-shot item's bonus is the rider's own: the steed's replaces it (S6, R66)
            if who == seat and power in RUN_POWERS:
                parts.append(Part(g.cards[source].name, amount, g.cards[source].id, "B9"))
    if (
        monster is not None
        and monster_card(g, monster).type == "monster"
        and monster_card(g, monster).run_away
    ):
        card = monster_card(g, monster)
        parts.append(Part(f"{card.name}", card.run_away, card.id, "B9"))
    return Breakdown("run away", tuple(parts))


def _sets_run_away(g: GameState, steed: int) -> bool:
    """Whether a steed has a run-away value, even 0, of its own or from its enhancers (S6, R13)."""
    return g.cards[steed].run_away_given or steed_run_away(g, steed) != 0


def steed_run_away(g: GameState, steed: int) -> int:
    """A steed's run-away value, with its steed enhancers' (S5)."""
    return g.cards[steed].run_away + sum(g.cards[e].run_away for e in g.attached.get(steed, ()))


def start_running(g: GameState, seat: int, order: tuple[str, ...] = ()) -> None:
    """Queue one roll per monster, in the order the runner chose (else the fight's), then
    the runner is done (B9)."""
    monsters = fight(g).monsters[:]
    ordered = []
    for card_id in order:
        inst = g.find(monsters, card_id)
        assert inst is not None
        monsters.remove(inst)
        ordered.append(inst)
    g.tasks.extend(("roll", seat, m) for m in ordered + monsters)
    g.tasks.append(("ran", seat))


def roll_task(g: GameState, seat: int, monster: int, ev: list[Event]) -> None:
    """One roll against one monster: 5 or more escapes; failing brings its Bad Stuff (B9)."""
    p, card, c = g.players[seat], monster_card(g, monster), fight(g)
    if p.dead:
        return
    if p.level <= card.escape_below:
        ev.append(Event("escaped", {"player": p.name, "card": g.cards[monster].id, "automatic": True}))
        return
    if card.no_escape:  # beats escapes by cards too, but not a hireling's sacrifice (H4)
        ev.append(Event("no_escape", {"player": p.name, "card": g.cards[monster].id}))
        caught(g, seat, monster, ev)
        return
    if seat in c.escaped:
        ev.append(Event("escaped", {"player": p.name, "card": g.cards[monster].id, "automatic": True}))
        return
    roll = g.dice.d6()
    mod = run_modifier(g, seat, monster).total
    pending = Pending("run", seat, monster, value=roll, modifier=mod, needs=ESCAPE_ROLL)
    ev.append(
        Event(
            "die_rolled",
            {
                "player": p.name,
                "purpose": "run away",
                "card": g.cards[monster].id,
                "roll": roll,
                "modifier": mod,
                "success": pending.success,
            },
        )
    )
    if not wait_for_answers(g, pending):
        settle_roll(g, seat, monster, roll + mod, 0, ev)


def settle_roll(g: GameState, seat: int, monster: int, total: int, flight: int, ev: list[Event]) -> None:
    """A roll's outcome, once its total (with `flight` cards already paid) is known: escape,
    the Wizard's flight, the Halfling's re-roll, or the Bad Stuff (B9, B14). `flight` is -1
    once the Wizard has declined to pay more."""
    p, c = g.players[seat], fight(g)
    if total + max(0, flight) >= ESCAPE_ROLL:
        ev.append(Event("escaped", {"player": p.name, "card": g.cards[monster].id, "automatic": False}))
    elif _flight_helps(g, seat, total, flight):
        options = ("decline", *g.distinct_ids(p.hand))
        g.prompt = Prompt(seat, "flight", options, (monster, total, flight))
    elif g.options.halfling_reroll and is_race(g, p, "halfling") and p.hand and seat not in c.rerolled:
        g.prompt = Prompt(seat, "reroll", ("decline", *g.distinct_ids(p.hand)), (monster,))
    else:
        caught(g, seat, monster, ev)


def _flight_helps(g: GameState, seat: int, total: int, flight: int) -> bool:
    """A Wizard may still pay for flight, and enough cards could make the roll (B14)."""
    p = g.players[seat]
    if flight < 0 or not is_class(g, p, "wizard"):
        return False
    more = min(len(p.hand), g.options.power_discards - flight)
    return more > 0 and total + flight + more >= ESCAPE_ROLL


def answer_flight(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """The Wizard discards a card for +1 to the roll just seen, or declines (B14)."""
    monster, total, flight = prompt.data
    assert isinstance(monster, int) and isinstance(total, int) and isinstance(flight, int)
    if option == "decline":
        settle_roll(g, prompt.player, monster, total, -1, ev)
        return
    _discard_from_hand(g, prompt.player, option)
    ev.append(
        Event("power_used", {"player": g.players[prompt.player].name, "power": "flight", "card": option})
    )
    settle_roll(g, prompt.player, monster, total, flight + 1, ev)


def _discard_from_hand(g: GameState, seat: int, card_id: str) -> None:
    p = g.players[seat]
    inst = g.find(p.hand, card_id)
    assert inst is not None
    p.hand.remove(inst)
    discard(g, inst)


def caught(g: GameState, seat: int, monster: int, ev: list[Event]) -> None:
    """The monster's Bad Stuff, at once (B9); a steed fought as a monster costs a level (S9)."""
    card = monster_card(g, monster)
    ev.append(Event("caught", {"player": g.players[seat].name, "card": g.cards[monster].id}))
    queue_effects(g, seat, STEED_BAD_STUFF if card.type == "steed" else card.bad_stuff, monster)


def answer_reroll(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """A Halfling may discard a card to roll a failed run-away roll again, once (B14)."""
    monster = prompt.data[0]
    assert isinstance(monster, int)
    if option == "decline":
        caught(g, prompt.player, monster, ev)
        return
    p = g.players[prompt.player]
    _discard_from_hand(g, prompt.player, option)
    fight(g).rerolled.append(prompt.player)
    ev.append(Event("power_used", {"player": p.name, "power": "re-roll", "card": option}))
    g.tasks.insert(0, ("roll", prompt.player, monster))


def ran_task(g: GameState, seat: int, ev: list[Event]) -> None:
    """A runner is done; when nobody is left to run, the fight ends without rewards (B9)."""
    c = fight(g)
    if seat in c.runners:
        c.runners.remove(seat)
    for monster in c.monsters:  # "even if you escape" Bad Stuff (H4)
        queue_effects(g, seat, monster_card(g, monster).even_if_escaped, monster)
    if not c.runners:
        finish_fight(g, ev)


def check_run(g: GameState, seat: int, a: Action) -> None:
    c = g.combat
    if not (
        c is not None and c.stage == "run" and c.runners[:1] == [seat] and not g.tasks and g.prompt is None
    ):
        raise refuse("B9", "one runs away only after losing a fight, in turn")
    assert c is not None
    if a.cards:
        fought = sorted(g.ids(c.monsters))
        if sorted(a.cards) != fought:
            raise refuse("B9", f"roll once for each monster: {', '.join(fought)}")


def run_options(g: GameState, seat: int) -> Iterator[Action]:
    """Run in the fight's order; with two or three monsters, in any order (B9)."""
    c = g.combat
    if c is None or c.runners[:1] != [seat]:
        return
    yield action("run_away")
    if 2 <= len(c.monsters) <= 3:
        for order in dict.fromkeys(permutations(g.ids(c.monsters))):
            yield action("run_away", cards=order)


def do_run(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    ev.append(Event("running", {"player": g.players[seat].name}))
    start_running(g, seat, a.cards)


register("run_away", check_run, do_run, run_options)
