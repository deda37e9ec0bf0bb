"""Putting a broken limit right, at once and as its owner chooses (B11, B14, H6, S2, S8).

After any change of race, class, sex or capacity, a queued "fit" task brings the
owner's cards back within the rules: one race and one class (more with Half-Breed or
Super Munchkin), items in use within the slots and hands, Big and Complex items and
steeds within their limits. Nothing else happens until it is done.
"""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.character import class_slots, race_slots
from munchkin.engine.rules.items import (
    Problem,
    can_use,
    cheated,
    discard,
    hand_over,
    hireling_can_use,
    holding_problem,
    limit_problem,
    receive_problem,
    remove_from_play,
    use_problem,
)
from munchkin.engine.rules.trade_sell import check_sale, may_sell, sell
from munchkin.engine.state import GameState, PlayerState, Prompt
from munchkin.engine.verbs import holds

LIMIT_PROMPTS = ("take_off", "get_rid")
"""Questions about a broken limit; a card that restores the limit also answers them (B11)."""


def fit_task(g: GameState, seat: int, ev: list[Event]) -> None:
    """Races and classes beyond the slots are discarded, the owner keeping the one they
    choose (B14); items and steeds that can no longer be used become carried, and so do items
    a hireling can no longer use (B11, S8, H7); a carried steed that can now be used is
    ridden (S8); over a slot or hand limit the owner takes off
    an item of their choice; over the Big, Complex or steed limit the owner gets rid of one,
    by discarding, selling or giving it (B11, H6, S2). Repeats until everything fits."""
    p = g.players[seat]
    if _ask_which_trait(g, seat):
        return
    for inst in [i for i in p.equipped + p.steeds if not can_use(g, p, i)]:
        take_off(g, p, inst, ev)
    _ride_usable_steeds(g, p, ev)
    for h in p.hirelings:
        for inst in [i for i in g.carrying.get(h, ()) if not hireling_can_use(g, h, i)]:
            g.carrying[h].remove(inst)
            p.carried.append(inst)
            ev.append(Event("item_unequipped", {"player": p.name, "card": g.cards[inst].id}))
    problem = use_problem(g, p, p.equipped)
    if problem is not None:
        _ask_or_do(g, Prompt(seat, "take_off", tuple(g.distinct_ids(_breaking(g, p, problem)))), ev)
        return
    problem = holding_problem(g, p, p.equipped + p.carried, p.steeds)
    if problem is not None:
        _ask_or_do(g, Prompt(seat, "get_rid", ways_to_get_rid(g, seat, _breaking(g, p, problem))), ev)


def _ride_usable_steeds(g: GameState, p: PlayerState, ev: list[Event]) -> None:
    """A carried steed its owner can now use is ridden at once, when that breaks no limit:
    a steed is in use whenever it is in play and can be (S8)."""
    for inst in [i for i in p.carried if g.cards[i].type == "steed" and can_use(g, p, i)]:
        others = [i for i in p.carried if i != inst]
        if limit_problem(g, p, p.equipped, others, [*p.steeds, inst]) is None:
            p.carried.remove(inst)
            p.steeds.append(inst)
            ev.append(Event("item_equipped", {"player": p.name, "card": g.cards[inst].id, "hireling": None}))


def _ask_which_trait(g: GameState, seat: int) -> bool:
    """When Half-Breed or Super Munchkin goes, its owner keeps one race (class) of their
    choice and discards the rest (B14). True when the question is open."""
    p = g.players[seat]
    for kind, zone, slots in (
        ("keep_race", p.races, race_slots(g, p)),
        ("keep_class", p.classes, class_slots(g, p)),
    ):
        if len(zone) > slots:
            g.prompt = Prompt(seat, kind, tuple(g.distinct_ids(zone)))
            return True
    return False


def _breaking(g: GameState, p: PlayerState, problem: Problem) -> list[int]:
    """The cards of a player that break the limit of `problem`: one of them must go."""
    kind = problem.kind
    if kind == "steeds":
        return [s for s in p.steeds if not cheated(g, s)]
    if kind in ("big", "complex"):
        return [i for i in p.equipped + p.carried if getattr(g.cards[i], kind) and not cheated(g, i)]
    return [i for i in p.equipped if g.cards[i].takes(kind) and not cheated(g, i)]


def ways_to_get_rid(g: GameState, seat: int, candidates: list[int]) -> tuple[str, ...]:
    """Each card that may go: discarded (its id), sold on one's own turn outside combat when
    that sale is legal (`sell ID`), or given to a living player who can hold it (`give ID to
    NAME`) (B11)."""
    discards = g.distinct_ids(candidates)
    sales, gifts = [], []
    for inst in g.distinct(candidates):
        card_id = g.cards[inst].id
        if holds(may_sell, g, seat) and holds(check_sale, g, seat, [inst]):
            sales.append(f"sell {card_id}")
        for other, q in enumerate(g.players):
            if other != seat and not q.dead and receive_problem(g, other, [inst], []) is None:
                gifts.append(f"give {card_id} to {q.name}")
    return (*discards, *sales, *gifts)


def _ask_or_do(g: GameState, prompt: Prompt, ev: list[Event]) -> None:
    """Ask, unless there is only one answer."""
    if len(prompt.options) == 1:
        answer_fit(g, prompt, prompt.options[0], ev)
    else:
        g.prompt = prompt


def answer_fit(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """Keep the race or class chosen, take off the item chosen, or get rid of it as chosen;
    then check the limits again."""
    seat = prompt.player
    p = g.players[seat]
    if prompt.kind in ("keep_race", "keep_class"):
        _keep_only(g, seat, p.races if prompt.kind == "keep_race" else p.classes, option, ev)
    elif prompt.kind == "take_off":
        inst = g.find(p.equipped, option)
        assert inst is not None
        take_off(g, p, inst, ev)
    else:
        _get_rid(g, seat, option, ev)
    g.tasks.insert(0, ("fit", seat))


def _keep_only(g: GameState, seat: int, zone: list[int], card_id: str, ev: list[Event]) -> None:
    """Discard races (classes) other than the one kept, the oldest first, down to the slots."""
    p = g.players[seat]
    slots = race_slots(g, p) if zone is p.races else class_slots(g, p)
    kept = g.find(zone, card_id)
    for inst in [i for i in zone if i != kept]:
        if len(zone) <= slots:
            break
        zone.remove(inst)
        discard(g, inst)
        ev.append(Event("card_discarded", {"player": p.name, "card": g.cards[inst].id}))


def _get_rid(g: GameState, seat: int, option: str, ev: list[Event]) -> None:
    p = g.players[seat]
    verb, _, rest = option.partition(" ")
    card_id, _, name = rest.partition(" to ") if verb in ("sell", "give") else (option, "", "")
    inst = g.find(p.equipped + p.carried + p.steeds, card_id)
    assert inst is not None
    if verb == "sell":
        sell(g, seat, [inst], ev)
    elif verb == "give":
        hand_over(g, [(seat, g.index(name), inst)], ev)
        ev.append(Event("card_given", {"player": p.name, "card": card_id, "to": name}))
    else:
        remove_from_play(g, p, inst)
        discard(g, inst)
        ev.append(Event("card_lost", {"player": p.name, "card": card_id, "source": "limit"}))


def take_off(g: GameState, p: PlayerState, inst: int, ev: list[Event]) -> None:
    """An item (or steed) in use becomes carried."""
    (p.steeds if inst in p.steeds else p.equipped).remove(inst)
    p.carried.append(inst)
    ev.append(Event("item_unequipped", {"player": p.name, "card": g.cards[inst].id}))
