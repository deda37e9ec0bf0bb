"""Build a game from a described position (scenarios, puzzles, bug reports).

The position names card ids; each mention is a new card instance. The game
holds exactly the cards the position names: decks are not filled up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from munchkin.cards.schema import CardDef
from munchkin.engine import flow
from munchkin.engine.dice import Dice
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.engine.state import GameState, PlayerState


@dataclass
class HirelingSetup:
    card: str
    carrying: list[str] = field(default_factory=list)


@dataclass
class PlayerSetup:
    name: str
    level: int = 1
    sex: str = "male"
    race: list[str] = field(default_factory=list)
    class_: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    equipped: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    steeds: list[str] = field(default_factory=list)
    hirelings: list[HirelingSetup] = field(default_factory=list)
    curses: list[str] = field(default_factory=list)
    boosts: list[str] = field(default_factory=list)


@dataclass
class Position:
    players: list[PlayerSetup]
    active: str | None = None
    door_deck: list[str] = field(default_factory=list)  # top card first
    treasure_deck: list[str] = field(default_factory=list)
    door_discard: list[str] = field(default_factory=list)
    treasure_discard: list[str] = field(default_factory=list)
    first_door_kicked: bool = True  # False: the game's first door is still to be kicked (B15)
    options: TableOptions = DEFAULT_OPTIONS


class UnknownCard(KeyError):
    """A position names a card id that no card set defines."""


class PositionError(ValueError):
    """A position no game going on can be in."""


def _is_boost(catalog: Mapping[str, CardDef], card_id: str) -> bool:
    """A card listed with the races or classes that is not one but lets its owner have one
    more (Half-Breed, Super Munchkin): it is in play beside them (B14)."""
    card = catalog.get(card_id)
    return (
        card is not None
        and card.type not in ("race", "class")
        and bool(card.extra_races or card.extra_classes)
    )


def build(
    catalog: Mapping[str, CardDef],
    position: Position,
    seed: int = 0,
    dice: Sequence[int] | None = None,
) -> Game:
    """A game at the start of the active player's turn, the first door counted as kicked
    unless the position says otherwise."""
    defs: list[CardDef] = []

    def make(card_id: str) -> int:
        if card_id not in catalog:
            raise UnknownCard(card_id)
        defs.append(catalog[card_id])
        return len(defs) - 1

    def many(ids: Sequence[str]) -> list[int]:
        return [make(i) for i in ids]

    _check_levels(position)
    players = []
    carrying: dict[int, list[int]] = {}
    for ps in position.players:
        p = PlayerState(ps.name, ps.sex, ps.level)
        traits = [*ps.race, *ps.class_]
        boosts = [*ps.boosts, *(i for i in traits if _is_boost(catalog, i))]  # Half-Breed... (B14)
        p.hand, p.boosts = many(ps.hand), many(boosts)
        p.races, p.classes = (
            many([i for i in ps.race if i not in boosts]),
            many([i for i in ps.class_ if i not in boosts]),
        )
        p.equipped, p.carried, p.steeds = many(ps.equipped), many(ps.carried), many(ps.steeds)
        p.curses = many(ps.curses)
        for hs in ps.hirelings:
            h = make(hs.card)
            p.hirelings.append(h)
            if hs.carrying:
                carrying[h] = many(hs.carrying)
        players.append(p)
    piles = [
        many(list(reversed(position.door_deck))),
        many(list(reversed(position.treasure_deck))),
        many(position.door_discard),
        many(position.treasure_discard),
    ]
    forced = tuple(dice) if dice is not None else None
    g = GameState(tuple(defs), players, Dice(seed, forced), position.options)
    g.door_deck, g.treasure_deck, g.door_discard, g.treasure_discard = piles
    g.carrying = carrying
    g.active = 0 if position.active is None else g.index(position.active)
    g.first_door_kicked = position.first_door_kicked
    g.setup_passed = [True] * len(players)
    _apply_lasting_curses(g)
    flow.advance(g, [Event("position_set", {})])
    return Game(g)


def _check_levels(position: Position) -> None:
    """Nobody in a game going on is at the win level or above: that ends it (B2)."""
    win = position.options.win_level
    for ps in position.players:
        if ps.level >= win:
            problem = f"in a game going on, everyone is below the win level, {win} (B2)"
            raise PositionError(f"{ps.name} starts at level {ps.level}: {problem}")


def _apply_lasting_curses(g: GameState) -> None:
    """Lasting curses in a position carry their lasting modifiers (B15)."""
    for p in g.players:
        for inst in p.curses:
            for effect in g.defs[inst].effects:
                if effect.lasting:
                    p.lasting.append((effect.kind, effect.arg, inst))
