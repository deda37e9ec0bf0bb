"""Effect words that act between players (B3, B14, B15; docs/card-format.md):

- `steal_level`: the victim loses a level and the player of the card gains one (never
  below 1, never the winning level: such a play is refused, see play.py);
- `others_take: N`: the players to the victim's left, then right, each take a card from
  the victim's hand, unseen, and keep it;
- `swap_race` / `swap_class`: the victim's races (classes) are replaced by the first one
  found in the door discard pile from the top; none found, they are lost;
- `income_tax`: the victim discards an item of their choice; every other player then
  discards items worth at least as much, or loses a level if they cannot.
"""

from __future__ import annotations

from munchkin.cards.schema import Effect
from munchkin.engine.events import Event
from munchkin.engine.rules.character import gain_levels, lose_levels
from munchkin.engine.rules.effects import immunities, lose_card, register_word
from munchkin.engine.rules.items import discard, handed_items, reconcile_use
from munchkin.engine.state import GameState, Prompt


@register_word("steal_level")
def steal_level(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    lose_levels(g, seat, 1, ev, g.cards[source].id)
    if caster is not None:
        gain_levels(g, caster, 1, ev, g.cards[source].id, may_win=False)


@register_word("others_take")
def others_take(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    n = len(g.players)
    takers = [(seat + 1) % n, (seat - 1) % n][: effect.arg]
    for taker in takers:
        hand = g.players[seat].hand
        if not hand or g.players[taker].dead or taker == seat:
            continue
        inst = hand.pop(g.dice.below(len(hand)))  # taken unseen: a draw from the seeded source (B19)
        g.players[taker].hand.append(inst)
        ev.append(Event("card_taken", {"player": g.players[taker].name, "from": g.players[seat].name}))


@register_word("swap_race")
@register_word("swap_class")
def swap_trait(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    p = g.players[seat]
    kind = "race" if effect.kind == "swap_race" else "class"
    zone = p.races if kind == "race" else p.classes
    if not zone:
        ev.append(Event("no_effect", {"player": p.name, "card": g.cards[source].id}))
        return
    found = next((i for i in reversed(g.door_discard) if g.cards[i].type == kind), None)
    for inst in list(zone):
        zone.remove(inst)
        discard(g, inst)
    if found is not None:
        g.door_discard.remove(found)
        zone.append(found)
    new = None if found is None else g.cards[found].id
    ev.append(Event("trait_swapped", {"player": p.name, "kind": kind, "card": new}))
    reconcile_use(g, seat, ev)


def _items_of(g: GameState, seat: int) -> list[int]:
    """The items that pay the tax: a hireling of gold value is an Item (H5)."""
    return handed_items(g, seat)


@register_word("income_tax")
def income_tax(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    """The victim's item first; the others pay after (queued, so each may be asked)."""
    items = _items_of(g, seat)
    if not items:
        ev.append(Event("no_effect", {"player": g.players[seat].name, "card": g.cards[source].id}))
        return
    options = tuple(g.distinct_ids(items))
    prompt = Prompt(seat, "tax_item", options, (source,))
    if len(options) == 1:
        answer_tax(g, prompt, options[0], ev)
    else:
        g.prompt = prompt


def answer_tax(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """The victim's item (`tax_item`), or a payer's next item (`pay_tax`)."""
    source = prompt.data[0]
    assert isinstance(source, int)
    seat = prompt.player
    inst = g.find(_items_of(g, seat), option)
    assert inst is not None
    value = g.cards[inst].value or 0
    lose_card(g, seat, inst, ev, g.cards[source].id)
    if prompt.kind == "tax_item":
        n = len(g.players)
        payers = [(seat + k) % n for k in range(1, n)]
        g.tasks[0:0] = [("tax", payer, value, source) for payer in payers]
        return
    owed = prompt.data[1]
    assert isinstance(owed, int)
    if value < owed:
        g.tasks.insert(0, ("tax", seat, owed - value, source))


def tax_task(g: GameState, seat: int, owed: int, source: int, ev: list[Event]) -> None:
    """A player pays items worth `owed`, choosing which, or loses a level when they cannot."""
    p = g.players[seat]
    if p.dead or owed <= 0:
        return
    if "income_tax" in immunities(g, seat):
        ev.append(Event("immune", {"player": p.name, "card": g.cards[source].id, "effect": "income_tax"}))
        return
    items = _items_of(g, seat)
    if sum(g.cards[i].value or 0 for i in items) < owed:
        ev.append(Event("tax_unpaid", {"player": p.name, "owed": owed}))
        lose_levels(g, seat, 1, ev, g.cards[source].id)
        return
    options = tuple(g.distinct_ids(items))
    prompt = Prompt(seat, "pay_tax", options, (source, owed))
    if len(options) == 1:
        answer_tax(g, prompt, options[0], ev)
    else:
        g.prompt = prompt
