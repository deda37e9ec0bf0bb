"""Who a character is: races, classes, sex, levels, hand limit (B1-B3, B14)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.state import GameState, PlayerState

WIN_LEVEL = 10


def races(g: GameState, p: PlayerState) -> frozenset[str]:
    """Race ids in play; a character with none is human (B1)."""
    return frozenset(g.defs[i].id for i in p.races) or frozenset({"human"})


def classes(g: GameState, p: PlayerState) -> frozenset[str]:
    """Class ids in play."""
    return frozenset(g.defs[i].id for i in p.classes)


def is_race(g: GameState, p: PlayerState, race: str) -> bool:
    return g.find(p.races, race) is not None


def is_class(g: GameState, p: PlayerState, cls: str) -> bool:
    return g.find(p.classes, cls) is not None


def race_slots(g: GameState, p: PlayerState) -> int:
    """One race, more with Half-Breed (B14)."""
    return 1 + sum(g.defs[i].extra_races for i in p.boosts)


def class_slots(g: GameState, p: PlayerState) -> int:
    """One class, more with Super Munchkin (B14)."""
    return 1 + sum(g.defs[i].extra_classes for i in p.boosts)


def hand_limit(g: GameState, p: PlayerState) -> int:
    """5 cards at the end of the turn, 6 for a Dwarf (B5, B14)."""
    return 6 if is_race(g, p, "dwarf") else 5


def gain_levels(g: GameState, seat: int, n: int, events: list[Event], source: str, may_win: bool) -> None:
    """Raise a level; only a kill (or a card that says so) gives the winning level (B2, B3)."""
    if g.winner is not None:
        return  # the first to reach level 10 wins; nothing happens after (B2)
    p = g.players[seat]
    cap = WIN_LEVEL if may_win else WIN_LEVEL - 1
    new = min(cap, p.level + n) if p.level < cap else p.level
    if new == p.level:
        return
    p.level = new
    events.append(Event("level_up", {"player": p.name, "level": new, "source": source}))
    if new >= WIN_LEVEL and g.winner is None:
        g.winner = seat
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
    card = g.defs[h]
    sex = g.card_sex.get(h, card.sex)
    return frozenset(card.race), frozenset(card.class_), None if sex == "none" else sex


def hirelings_allowed(g: GameState, p: PlayerState) -> int:
    """One hireling in play, more with a card that says so (H1, H16)."""
    return 1 + sum(g.defs[i].extra_hirelings for i in p.races + p.classes + p.boosts)
