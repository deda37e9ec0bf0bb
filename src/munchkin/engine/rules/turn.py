"""The turn: kick open the door, look for trouble or loot, charity, next player (B4, B5, B10, S9)."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.character import hand_limit, is_class
from munchkin.engine.rules.combat import start_fight
from munchkin.engine.rules.curses import curse_hits
from munchkin.engine.rules.decks import act_when_drawn, acts_when_drawn, deal, draw, draw_to_hand
from munchkin.engine.rules.items import discard
from munchkin.engine.rules.treasures import may_resurrect
from munchkin.engine.state import GameState, Prompt
from munchkin.engine.timing import free_to_act
from munchkin.engine.verbs import Options, refuse, register, single


def _active_in(g: GameState, seat: int, phase: str) -> bool:
    return (
        seat == g.active
        and g.phase == phase
        and free_to_act(g, seat)
        and g.prompt is None
        and g.offer is None
    )


# -- kick open the door ------------------------------------------------------------


def check_kick(g: GameState, seat: int, a: Action) -> None:
    if not _active_in(g, seat, "start"):
        raise refuse("B4", "the door is kicked open once, at the start of your turn")
    if a.arg == "discard":  # Cleric: take the top door discard instead (B14)
        p = g.players[seat]
        if not is_class(g, p, "cleric"):
            raise refuse("B14", "only a Cleric may take from the discard pile")
        if not bool(g.door_discard):
            raise refuse("B14", "the door discard pile is empty")
        if g.find(p.hand, a.cards[0] if a.cards else "") is None:
            raise refuse("B14", "discard a card from your hand for it (cards:)")


def do_kick(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    g.first_door_kicked = True
    if a.arg == "discard":
        paid = g.find(p.hand, a.cards[0])
        assert paid is not None
        p.hand.remove(paid)
        inst: int | None = g.door_discard.pop()
        discard(g, paid)
    else:
        inst = draw(g, "door", ev)
    if inst is None:
        g.phase = "after_door"
        ev.append(Event("door_empty", {"player": p.name}))
        return
    card = g.cards[inst]
    ev.append(
        Event(
            "door_kicked",
            {"player": p.name, "card": card.id, "name": card.name, "type": card.type, "level": card.level},
        )
    )
    reveal_door(g, seat, inst, ev)


def reveal_door(g: GameState, seat: int, inst: int, ev: list[Event]) -> None:
    """A monster is fought, a curse hits the drawer, anything else awaits keep or play (B4)."""
    kind = g.cards[inst].type
    if kind == "monster":
        start_fight(g, seat, inst, ev)
    elif kind in ("curse", "trap"):
        g.phase = "after_door"
        curse_hits(g, seat, inst, None, ev)
    elif acts_when_drawn(g, inst):
        g.phase = "after_door"
        act_when_drawn(g, inst, ev)
    else:
        g.face_up = inst
        g.phase = "face_up"


def kick_options(g: GameState, seat: int) -> Iterator[Action]:
    if g.phase != "start" or seat != g.active:
        return
    yield action("kick_door")
    if may_resurrect(g, seat, g.door_discard):
        for card_id in g.distinct_ids(g.players[seat].hand):
            yield action("kick_door", "discard", cards=(card_id,))


# -- a face-up card: keep it, or fight a steed (B4, S9) -------------------------------


def _face_up_is(g: GameState, seat: int, card_id: str | None) -> bool:
    return _active_in(g, seat, "face_up") and g.face_up is not None and g.cards[g.face_up].id == card_id


def check_keep(g: GameState, seat: int, a: Action) -> None:
    if not _face_up_is(g, seat, a.arg):
        raise refuse("B4", "only the card just drawn face up can be kept")


def do_keep(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    assert g.face_up is not None
    g.players[seat].hand.append(g.face_up)
    ev.append(Event("card_kept", {"player": g.players[seat].name, "card": g.cards[g.face_up].id}))
    g.face_up = None
    g.phase = "after_door"


def check_monstrify(g: GameState, seat: int, a: Action) -> None:
    if not _face_up_is(g, seat, a.arg):
        raise refuse("S9", "only a steed drawn face up may be fought as a monster")
    card = g.cards[g.face_up or 0]
    if card.type != "steed":
        raise refuse("S9", f"{card.name} is not a steed")
    if card.bonus <= 0:
        raise refuse("S9", f"{card.name} shows no bonus, so it cannot be fought")


def do_monstrify(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    inst = g.face_up
    assert inst is not None
    g.face_up = None
    start_fight(g, seat, inst, ev)


def face_up_options(verb: str) -> Options:
    def options(g: GameState, seat: int) -> Iterator[Action]:
        if g.face_up is not None:
            yield action(verb, g.cards[g.face_up].id)

    return options


# -- look for trouble, loot the room (B4) ---------------------------------------------


def check_loot(g: GameState, seat: int, a: Action) -> None:
    if not _active_in(g, seat, "after_door"):
        raise refuse("B4", "loot the room only after a door with no monster")


def do_loot(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    g.phase = "end"
    ev.append(Event("room_looted", {"player": g.players[seat].name}))
    draw_to_hand(g, seat, "door", 1, ev)


def check_trouble(g: GameState, seat: int, a: Action) -> None:
    if not _active_in(g, seat, "after_door"):
        raise refuse("B4", "look for trouble only after a door with no monster")
    inst = g.find(g.players[seat].hand, a.arg or "")
    if inst is None:
        raise refuse("B4", f"{a.arg} is not in your hand")
    card = g.cards[inst or 0]
    if card.type == "steed":
        raise refuse("S9", "a steed cannot be fought from the hand")
    if card.type != "monster":
        raise refuse("B4", f"{card.name} is not a monster")


def do_trouble(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    inst = g.find(p.hand, a.arg or "")
    assert inst is not None
    p.hand.remove(inst)
    ev.append(Event("trouble_sought", {"player": p.name, "card": g.cards[inst].id}))
    start_fight(g, seat, inst, ev)


def trouble_options(g: GameState, seat: int) -> Iterator[Action]:
    if g.phase != "after_door" or seat != g.active:
        return
    hand = g.players[seat].hand
    for card_id in g.distinct_ids([i for i in hand if g.cards[i].type == "monster"]):
        yield action("look_for_trouble", card_id)


# -- end of turn: charity, the next player (B5, B10) ----------------------------------


def check_end(g: GameState, seat: int, a: Action) -> None:
    if not _active_in(g, seat, "end"):
        raise refuse("B4", "the turn ends after the fight, or after looking for trouble or looting")


def do_end(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    ev.append(Event("turn_ended", {"player": g.players[seat].name}))
    charity_or_next(g, ev)


def charity_or_next(g: GameState, ev: list[Event]) -> None:
    """Give away cards over the hand limit, one at a time, then pass the turn (B5)."""
    p = g.players[g.active]
    excess = len(p.hand) - hand_limit(g, p)
    if p.dead or excess <= 0:
        next_turn(g, ev)
        return
    options = tuple(g.distinct_ids(p.hand))
    prompt = Prompt(g.active, "charity", options)
    if len(options) == 1:
        give_charity(g, prompt, options[0], ev)
    else:
        g.prompt = prompt


def give_charity(g: GameState, prompt: Prompt, card_id: str, ev: list[Event]) -> None:
    """The card goes to the lowest-level player, split as evenly as possible: among those
    tied with the fewest gifts so far, the giver chooses; the giver who is (one of) the
    lowest discards it (B5)."""
    seat = prompt.player
    p = g.players[seat]
    inst = g.find(p.hand, card_id)
    assert inst is not None
    candidates = charity_takers(g, seat)
    if not candidates:
        p.hand.remove(inst)
        discard(g, inst)
        ev.append(Event("charity", {"player": p.name, "card": card_id, "to": None}))
        charity_or_next(g, ev)
    elif len(candidates) == 1:
        hand_charity(g, seat, inst, candidates[0], ev)
    else:
        names = tuple(g.players[i].name for i in candidates)
        g.prompt = Prompt(seat, "charity_to", names, (inst,))


def charity_takers(g: GameState, seat: int) -> list[int]:
    """Who may take the giver's next card: the lowest-level living others who have had the
    fewest cards of this charity; none when the giver is (one of) the lowest (B5)."""
    others = [i for i, q in enumerate(g.players) if i != seat and not q.dead]
    if not others:
        return []
    lowest = min(g.players[i].level for i in others)
    if g.players[seat].level <= lowest:
        return []
    given = dict(g.charity_given)
    tied = [i for i in others if g.players[i].level == lowest]
    fewest = min(given.get(i, 0) for i in tied)
    return [i for i in tied if given.get(i, 0) == fewest]


def answer_charity_to(g: GameState, prompt: Prompt, name: str, ev: list[Event]) -> None:
    """The giver's choice among tied lowest players (B5)."""
    inst = prompt.data[0]
    assert isinstance(inst, int)
    hand_charity(g, prompt.player, inst, g.index(name), ev)


def hand_charity(g: GameState, seat: int, inst: int, to: int, ev: list[Event]) -> None:
    p = g.players[seat]
    p.hand.remove(inst)
    g.players[to].hand.append(inst)
    given = dict(g.charity_given)
    g.charity_given = tuple({**given, to: given.get(to, 0) + 1}.items())
    ev.append(Event("charity", {"player": p.name, "card": g.cards[inst].id, "to": g.players[to].name}))
    charity_or_next(g, ev)


def next_turn(g: GameState, ev: list[Event]) -> None:
    """The next player's turn. The dead come back as it begins, holding no cards; a
    character who came back starts its own next turn with 4 door and 4 treasure cards (B10)."""
    g.active = (g.active + 1) % len(g.players)
    g.turn += 1
    g.phase = "start"
    g.fought = False
    g.sold_double = False
    g.gold = 0
    g.charity_given = ()
    p = g.players[g.active]
    ev.append(Event("turn_started", {"player": p.name, "turn": g.turn}))
    for q in g.players:
        if q.dead:
            q.dead = False
            q.awaiting_cards = True
            ev.append(Event("came_back", {"player": q.name}))
    if p.awaiting_cards:
        p.awaiting_cards = False
        deal(g, g.active, ev)


register("kick_door", check_kick, do_kick, kick_options)
register("keep", check_keep, do_keep, face_up_options("keep"))
register("monstrify", check_monstrify, do_monstrify, face_up_options("monstrify"))
register(
    "loot_room",
    check_loot,
    do_loot,
    single("loot_room", lambda g, s: g.phase == "after_door" and s == g.active),
)
register("look_for_trouble", check_trouble, do_trouble, trouble_options)
register("end_turn", check_end, do_end, single("end_turn", lambda g, s: g.phase == "end" and s == g.active))
