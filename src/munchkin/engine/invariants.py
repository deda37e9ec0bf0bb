"""Checks that must hold after every decision, for tests and soak runs."""

from __future__ import annotations

import random

from munchkin.engine.game import Game
from munchkin.engine.rules.character import win_level
from munchkin.engine.state import GameState


def card_places(g: GameState) -> list[str]:
    """Problems with where cards are: every card instance must be in exactly one zone."""
    everywhere = [inst for _, cards in g.zones() for inst in cards]
    if len(everywhere) == len(g.defs) and len(set(everywhere)) == len(everywhere):
        return []
    seen: dict[int, str] = {}
    problems = []
    for zone, cards in g.zones():
        for inst in cards:
            if inst in seen:
                problems.append(f"card {inst} ({g.defs[inst].id}) is in {seen[inst]} and in {zone}")
            seen[inst] = zone
    missing = set(range(len(g.defs))) - seen.keys()
    problems += [f"card {i} ({g.defs[i].id}) is nowhere" for i in sorted(missing)]
    return problems


def levels(g: GameState) -> list[str]:
    """Problems with levels: always from 1 to the win level, and only winners there (B2, B3)."""
    top = win_level(g)
    problems = [f"{p.name} is at level {p.level}" for p in g.players if not 1 <= p.level <= top]
    at_top = [i for i, p in enumerate(g.players) if p.level >= top]
    if sorted(at_top) != sorted(g.winners):
        problems.append(f"level {top} reached by seats {at_top}, winners {list(g.winners)}")
    return problems


def hidden_redrawn(game: Game, player: str, rng: random.Random) -> Game:
    """The same game as `player` knows it, with each card hidden from them (in a deck or
    another player's hand) swapped at random with another hidden card of the same deck:
    what the player sees must not change (non-interference)."""
    other = game.copy()
    g = other.state
    zones = [g.door_deck, g.treasure_deck] + [p.hand for p in g.players if p.name != player]
    for deck in ("door", "treasure"):
        slots = [(zone, k) for zone in zones for k, inst in enumerate(zone) if g.defs[inst].deck == deck]
        pool = [zone[k] for zone, k in slots]
        rng.shuffle(pool)
        for (zone, k), inst in zip(slots, pool, strict=True):
            zone[k] = inst
    return other
