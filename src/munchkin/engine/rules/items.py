"""Items in play: who may use what, slots, Big and Complex limits (B11, B17, H6, H7, S2, S3)."""

from __future__ import annotations

from dataclasses import dataclass

from munchkin.engine.card import Card
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.rules.character import (
    classes,
    full_traits,
    hireling_traits,
    hirelings_allowed,
    is_race,
    races,
)
from munchkin.engine.state import GameState, PlayerState
from munchkin.engine.verbs import refuse

WORN_SLOTS = ("headgear", "armor", "footgear")


def cheated(g: GameState, inst: int) -> bool:
    """A Cheat! attached to this card lets its owner break one rule for it (B17)."""
    attached = g.attached.get(inst)
    if attached:
        for a in attached:
            if g.cards[a].type == "cheat":
                return True
    return False


def traits_allow(
    card: Card,
    race_ids: frozenset[str],
    class_ids: frozenset[str],
    sex: str | None,
    forbidden: tuple[frozenset[str], frozenset[str]] | None = None,
) -> bool:
    """Whether `requires`/`forbids` let a character (or hireling) with these traits use it;
    `forbidden`: the races and classes `forbids` is checked against, when not all of them."""
    if card.requires and not card.requires.met_by(race_ids, class_ids, sex):
        return False
    race_no, class_no = forbidden or (race_ids, class_ids)
    return not (card.forbids and card.forbids.matches(race_no, class_no, sex))


def can_use(g: GameState, p: PlayerState, inst: int) -> bool:
    """Restrictions limit using, not carrying (B11); a Cheat! lifts them (B17). A race or
    class held alone beside Half-Breed or Super Munchkin forbids nothing (B14)."""
    if cheated(g, inst):
        return True
    forbidden = full_traits(g, p) if p.boosts else None
    return traits_allow(g.cards[inst], races(g, p), classes(g, p), p.sex, forbidden)


def hireling_can_use(g: GameState, hireling: int, item: int) -> bool:
    """A carrier hireling uses items fit for its own race, class and sex (H7, H15, H16)."""
    if cheated(g, item) or cheated(g, hireling) or g.cards[hireling].uses_any:
        return True
    return traits_allow(g.cards[item], *hireling_traits(g, hireling))


def used_by_hirelings(g: GameState, p: PlayerState) -> list[int]:
    """The items a player's carrier hirelings carry and can use: they count for the owner (H7, H8)."""
    return [i for h in p.hirelings for i in g.carrying.get(h, ()) if hireling_can_use(g, h, i)]


def _capacity_cards(g: GameState, p: PlayerState) -> list[Card]:
    """Hirelings and steeds in play give the extra hands, Big and Complex room they name
    (H6, S3): a carrier that names some gives it too (cards override rules)."""
    return [g.cards[h] for h in p.hirelings] + [g.cards[s] for s in p.steeds]


def hands_available(g: GameState, p: PlayerState, equipped: list[int] | None = None) -> int:
    """Two hands, more from capacity cards and from items in use (`equipped`, by default
    the player's) that give hands (B11, H6)."""
    worn = p.equipped if equipped is None else equipped
    extra = sum(g.cards[i].extra_hands for i in worn)
    return 2 + extra + sum(c.extra_hands for c in _capacity_cards(g, p))


def big_allowed(g: GameState, p: PlayerState) -> int | None:
    """One Big item in play, any number for a Dwarf (None), more with capacity (B11, S3)."""
    if is_race(g, p, "dwarf"):
        return None
    return 1 + sum(c.extra_big for c in _capacity_cards(g, p))


def complex_allowed(g: GameState, p: PlayerState) -> int:
    return 1 + sum(c.extra_complex for c in _capacity_cards(g, p))


def steeds_allowed(g: GameState, p: PlayerState, equipped: list[int] | None = None) -> int:
    """One steed, more for a Centaur or a card that says so, a steed ridden too (S2): among
    items, those in use (`equipped`, by default the player's)."""
    worn = p.equipped if equipped is None else equipped
    givers = p.races + p.classes + p.boosts + worn + p.hirelings + p.steeds
    return 1 + sum(g.cards[i].extra_steeds for i in givers)


@dataclass(frozen=True, slots=True)
class Problem:
    """A limit a layout of cards would break: which (`kind`), the rule, and why."""

    kind: str  # a worn slot, "hands", "big", "complex", "steeds" or "hirelings"
    rule: str
    message: str

    def __str__(self) -> str:
        return self.message


def limit_problem(
    g: GameState, p: PlayerState, equipped: list[int], carried: list[int], steeds: list[int]
) -> Problem | None:
    """What limit a layout of items would break, or None. Cheated cards are exempt (B17)."""
    return use_problem(g, p, equipped) or holding_problem(g, p, equipped + carried, steeds, equipped)


def use_problem(g: GameState, p: PlayerState, equipped: list[int]) -> Problem | None:
    """Slots and hands of the items in use (B11, H6)."""
    worn: dict[str, int] = {}
    hands = 0
    for i in equipped:
        card = g.cards[i]
        if card.worn and not cheated(g, i):
            for slot in card.worn:
                worn[slot] = worn.get(slot, 0) + 1
            if "hands" in card.worn:
                hands += card.hands
    for slot in WORN_SLOTS:
        if worn.get(slot, 0) > 1:
            return Problem(slot, "B11", f"only one {slot} may be in use")
    if hands <= 2:
        return None  # never more than the two hands everyone has
    available = hands_available(g, p, equipped)
    if hands > available:
        return Problem("hands", "B11", f"not enough free hands ({hands} needed, {available} available)")
    return None


def holding_problem(
    g: GameState, p: PlayerState, owned: list[int], steeds: list[int], equipped: list[int] | None = None
) -> Problem | None:
    """Big and Complex items in play, and steeds in use (B11, S2, S3); `equipped`: the items
    in use, by default the player's."""
    big = complex_ = 0
    for i in owned:
        card = g.cards[i]
        if (card.big or card.complex) and not cheated(g, i):
            big += card.big
            complex_ += card.complex
    # Each limit is at least one, so it is only worked out when more are held.
    if big > 1:
        cap = big_allowed(g, p)
        if cap is not None and big > cap:
            return Problem("big", "B11", "only one Big item may be in play")
    if complex_ > 1 and complex_ > complex_allowed(g, p):
        return Problem("complex", "B11", "only one Complex item may be in play")
    if len(steeds) > 1 and sum(1 for s in steeds if not cheated(g, s)) > steeds_allowed(g, p, equipped):
        return Problem("steeds", "S2", "only one steed may be in play")
    return None


def place_new_item(g: GameState, p: PlayerState, inst: int) -> Problem | None:
    """Put an item into play: in use when its owner can use it and it fits, else carried, which
    only the Big, Complex and steed limits can stop (B11).

    Returns None when placed, or the problem that stops it entering play."""
    if can_use(g, p, inst) and _fits_in_use(g, p, inst):
        p.equipped.append(inst)
        return None
    problem = holding_problem(g, p, [*p.equipped, *p.carried, inst], p.steeds)
    if problem is None:
        p.carried.append(inst)
    return problem


def _fits_in_use(g: GameState, p: PlayerState, inst: int) -> bool:
    """Whether an item may go into use: it breaks no limit, or only one that its owner's
    items in use already break without it (hands gone in the same exchange), in a slot it
    does not take (B11)."""
    after = limit_problem(g, p, [*p.equipped, inst], p.carried, p.steeds)
    if after is None:
        return True
    before = limit_problem(g, p, p.equipped, [*p.carried, inst], p.steeds)
    use_kinds = (*WORN_SLOTS, "hands")
    return (
        before is not None
        and before.kind == after.kind
        and after.kind in use_kinds
        and not g.cards[inst].takes(after.kind)
    )


def check_placeable(g: GameState, p: PlayerState, inst: int) -> Problem | None:
    """Whether an item could enter play now, without changing anything."""
    if can_use(g, p, inst) and limit_problem(g, p, [*p.equipped, inst], p.carried, p.steeds) is None:
        return None
    return holding_problem(g, p, [*p.equipped, *p.carried, inst], p.steeds)


def remove_from_play(g: GameState, p: PlayerState, inst: int) -> None:
    """Take a card out of whichever of the player's in-play zones holds it (H8)."""
    for zone in (p.equipped, p.carried, p.steeds, p.hirelings, p.races, p.classes, p.boosts, p.curses):
        if inst in zone:
            zone.remove(inst)
            return
    for h in p.hirelings:
        if inst in g.carrying.get(h, ()):
            g.carrying[h].remove(inst)
            return
    raise ValueError(f"card {inst} is not in play for {p.name}")


def discard(g: GameState, inst: int) -> None:
    """Send a card, and whatever is attached to it, to its discard pile (B17)."""
    for attached in g.attached.pop(inst, ()):
        discard(g, attached)
    g.card_sex.pop(inst, None)  # a changed sex goes with the card out of play (H15)
    pile = g.door_discard if g.cards[inst].deck == "door" else g.treasure_discard
    pile.append(inst)


def reconcile_use(g: GameState, seat: int, ev: list[Event]) -> None:
    """After a change of race, class, sex or capacity, the owner's items must be brought
    back within the rules at once: queued, so the owner can be asked which (H6)."""
    g.tasks.insert(0, ("fit", seat))


def receive_problem(g: GameState, seat: int, gets: list[int], gives: list[int]) -> Problem | None:
    """The limit a player would break by getting these cards in play for those: the Big,
    Complex, steed and hireling limits, without the room the cards given take with them; a
    steed its new owner cannot ride is an ordinary Big item, carried (B11, H1, S2, S8, R27)."""
    cards = g.cards
    if not any(_limited(cards[i]) for i in gets) and not any(_gives_room(cards[i]) for i in gives):
        return None  # only Big, Complex, steeds and hirelings have limits on holding
    p = g.players[seat]
    after = p.copy()
    for zone in (after.equipped, after.carried, after.steeds, after.hirelings):
        zone[:] = [i for i in zone if i not in gives]
    for i in gets:
        kind = cards[i].type
        if kind == "hireling":
            after.hirelings.append(i)
        elif kind == "steed" and can_use(g, p, i):
            after.steeds.append(i)
        else:
            (after.equipped if kind != "steed" and can_use(g, p, i) else after.carried).append(i)
    if sum(1 for h in after.hirelings if not cheated(g, h)) > hirelings_allowed(g, after):
        return Problem("hirelings", "H1", "only one hireling may be in play")
    return holding_problem(g, after, after.equipped + after.carried, after.steeds)


def _limited(card: Card) -> bool:
    return card.big or card.complex or card.type in ("steed", "hireling")


def _gives_room(card: Card) -> bool:
    """A card in play that lets its owner hold more: Big, Complex or steed room (S2, S3)."""
    return bool(card.extra_big or card.extra_complex or card.extra_steeds)


def hand_over(g: GameState, moves: list[tuple[int, int, int]], ev: list[Event]) -> None:
    """Cards in play change hands, all at once: (from seat, to seat, card). A card its new
    owner cannot hold after all is discarded (B11)."""
    for src, _, inst in moves:
        remove_from_play(g, g.players[src], inst)
    for _, dst, inst in moves:
        taker = g.players[dst]
        kind = g.cards[inst].type
        if kind in ("steed", "hireling"):
            (taker.steeds if kind == "steed" else taker.hirelings).append(inst)
        elif place_new_item(g, taker, inst) is not None:
            discard(g, inst)
            ev.append(Event("card_lost", {"player": taker.name, "card": g.cards[inst].id, "source": "limit"}))
    for seat in {s for move in moves for s in move[:2]}:
        reconcile_use(g, seat, ev)


def require_fits(problem: Problem | None, prefix: str = "") -> None:
    """Refuse with the rule of the limit that would break, if any."""
    if problem is not None:
        raise RulesError(problem.rule, prefix + problem.message)


def handed_items(g: GameState, seat: int) -> list[int]:
    """Items a player has in play that can change hands: a hireling only when it is an Item
    (B13, H5, S1)."""
    p = g.players[seat]
    return [i for i in g.items_in_play(p) + p.hirelings if g.cards[i].is_item]


def pick_handed(g: GameState, seat: int, card_ids: tuple[str, ...], rule: str) -> list[int]:
    """The items in play, named by card id, that a player trades or promises; refused under
    `rule` when one is not there, under H5 when it is a hireling without a gold value."""
    p = g.players[seat]
    pool = handed_items(g, seat)
    picked = []
    for card_id in card_ids:
        inst = g.find(pool, card_id)
        if not (g.find(p.hirelings, card_id) is None or inst is not None):
            raise refuse("H5", f"{card_id} has no gold value, so it is no Item and cannot change hands")
        if inst is None:
            raise refuse(rule, f"{card_id} is not an item {p.name} has in play")
        assert inst is not None
        pool.remove(inst)
        picked.append(inst)
    return picked
