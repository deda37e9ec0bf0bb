"""Who a character is: races, classes, sex, levels, hand limit (B1-B3, B14)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.state import GameState, PlayerState


def races(g: GameState, p: PlayerState) -> frozenset[str]:
    """Race ids in play; a character with none is human (B1)."""
    return frozenset(g.cards[i].id for i in p.races) or frozenset({"human"})


def classes(g: GameState, p: PlayerState) -> frozenset[str]:
    """Class ids in play."""
    return frozenset(g.cards[i].id for i in p.classes)


def half_traits(g: GameState, p: PlayerState) -> frozenset[str]:
    """A race beside Half-Breed with no second race, or a class beside Super Munchkin with no
    second class: its owner has its advantages and none of its disadvantages (B14)."""
    if not p.boosts:
        return frozenset()
    half: set[str] = set()
    if len(p.races) == 1 and race_slots(g, p) > 1:
        half.add(g.cards[p.races[0]].id)
    if len(p.classes) == 1 and class_slots(g, p) > 1:
        half.add(g.cards[p.classes[0]].id)
    return frozenset(half)


def full_traits(g: GameState, p: PlayerState) -> tuple[frozenset[str], frozenset[str]]:
    """The races and classes whose disadvantages count too: all but the half ones (B14)."""
    half = half_traits(g, p)
    return races(g, p) - half, classes(g, p) - half


def is_race(g: GameState, p: PlayerState, race: str) -> bool:
    return g.find(p.races, race) is not None


def is_class(g: GameState, p: PlayerState, cls: str) -> bool:
    return g.find(p.classes, cls) is not None


def race_slots(g: GameState, p: PlayerState) -> int:
    """One race, more with Half-Breed (B14)."""
    return 1 + sum(g.cards[i].extra_races for i in p.boosts)


def class_slots(g: GameState, p: PlayerState) -> int:
    """One class, more with Super Munchkin (B14)."""
    return 1 + sum(g.cards[i].extra_classes for i in p.boosts)


def hand_limit(g: GameState, p: PlayerState) -> int:
    """5 cards at the end of the turn (a table option), one more for a Dwarf (B5, B14)."""
    return g.options.hand_limit + (1 if is_race(g, p, "dwarf") else 0)


def win_level(g: GameState) -> int:
    """The level that wins: 10, or the table's choice (B2)."""
    return g.options.win_level


def gain_levels(g: GameState, seat: int, n: int, events: list[Event], source: str, may_win: bool) -> None:
    """Raise a level; only a kill (or a card that says so) gives the winning level (B2, B3).
    Everyone who reaches it from the same resolution wins together (B2)."""
    p = g.players[seat]
    top = win_level(g)
    cap = top if may_win else top - 1
    new = min(cap, p.level + n) if p.level < cap else p.level
    if new == p.level:
        return
    p.level = new
    events.append(Event("level_up", {"player": p.name, "level": new, "source": source}))
    if new >= top:
        g.winners = (*g.winners, seat)
        g.phase = "over"
        events.append(Event("game_won", {"player": p.name}))


def lose_levels(g: GameState, seat: int, n: int, events: list[Event], source: str) -> None:
    """Lower a level, never below 1 (B3)."""
    p = g.players[seat]
    new = max(1, p.level - n)
    if new != p.level:
        p.level = new
        events.append(Event("level_down", {"player": p.name, "level": new, "source": source}))


def hireling_traits(g: GameState, h: int) -> tuple[frozenset[str], frozenset[str], str | None]:
    """A hireling's races, classes and sex; a robot (`sex: none`) has no sex (H15)."""
    card = g.cards[h]
    sex = g.card_sex.get(h, card.sex)
    return frozenset(card.race), frozenset(card.class_), None if sex == "none" else sex


def hirelings_allowed(g: GameState, p: PlayerState) -> int:
    """One hireling in play, more with a card that says so (H1, H16)."""
    return 1 + sum(g.cards[i].extra_hirelings for i in p.races + p.classes + p.boosts)
