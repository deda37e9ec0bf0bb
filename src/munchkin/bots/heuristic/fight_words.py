"""What the fight words of cards do to the fight on (docs/card-format.md, fight words), in
points for one side and rewards gained or lost: a twin, an illusion, a monster sent away, a
forced helper, a doubled fighter, a fight passed on."""

from __future__ import annotations

from munchkin.bots.heuristic.seats import Seat, monster_strength
from munchkin.bots.heuristic.situation import Fight, Situation
from munchkin.bots.heuristic.values import GAME_VALUE, LEVEL_VALUE, TREASURE_VALUE
from munchkin.cards.schema import FIGHT_WORDS, CardDef
from munchkin.engine.actions import Action

PASSED_FIGHT_CHANCES = ((0, 0.9), (-6, 0.5), (-11, 0.25), (-1000, 0.1))
"""The chance to win a fight passed on, by how far ahead the player is (more than the first)."""


def fight_word(card: CardDef) -> str | None:
    """The word of a card that acts on the fight, if it has one."""
    return next((e.kind for e in card.effects if e.kind in FIGHT_WORDS), None)


def rewards(card: CardDef) -> tuple[int, int]:
    """Levels and treasures for beating a monster (a steed fought as one: 1 and 1, S9)."""
    return (1, 1) if card.type == "steed" else (card.levels, card.treasures)


def replaced(fight: Fight, action: Action) -> int:
    """The monster an illusion replaces: the one named with `cards:`, or the only one."""
    index = fight.index(action.cards[0]) if action.cards else 0
    return index or 0


def illusion_change(s: Situation, fight: Fight, action: Action) -> int:
    """How much stronger the monsters get when the hand's monster replaces the old one."""
    return monster_strength(s.card(action.on), fight.fighters) - fight.powers[replaced(fight, action)]


def lost_reward(s: Situation, fight: Fight, gone: int, new: CardDef | None, keeps_treasures: bool) -> float:
    """What the bot gives up when a monster of its fight goes (sent away, or replaced by `new`),
    the fight being won: its level, the game if that level was needed, its treasures unless
    they are kept (B2, B7)."""
    levels, treasures = rewards(fight.monsters[gone])
    new_levels, new_treasures = rewards(new) if new is not None else (0, 0)
    fighter = s.me is fight.fighter
    lost_levels = levels - new_levels if fighter else (0 if new else int(fight.gain(s.me) > 0))
    if s.me in fight.game_winners() and s.me.level + fight.gain(s.me) - lost_levels < s.me.win_level:
        return GAME_VALUE
    lost_treasures = 0 if keeps_treasures or not fighter else treasures - new_treasures
    return lost_levels * LEVEL_VALUE + lost_treasures * TREASURE_VALUE


def fight_value(fight: Fight, seat: Seat) -> float:
    """What a fight brings a player who fights it alone and wins: its levels (the game if
    they reach the winning level) and its treasures (B2, B7)."""
    if seat.level + fight.levels >= seat.win_level:
        return GAME_VALUE
    return fight.levels * LEVEL_VALUE + fight.treasures * TREASURE_VALUE


def win_chance(fight: Fight, seat: Seat) -> float:
    """How likely `seat` is to win the fight passed to them: sure when ahead, less the further
    behind they start (they may still ask for help and play one-shots)."""
    lead = fight.lead_for(seat) + ("warrior" in seat.classes)
    return next(chance for behind, chance in PASSED_FIGHT_CHANCES if lead > behind)


def wins_alone(fight: Fight, seat: Seat, margin: int = 0) -> bool:
    """Whether `seat`, fighting it alone (the fight passed to them), would win by `margin`."""
    lead = fight.lead_for(seat)
    return lead > margin or (lead == margin and "warrior" in seat.classes)
