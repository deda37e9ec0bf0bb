"""The layout of the observation vector: its fields in order, each with its offset, size,
bounds and meaning (`layout_for(catalog).fields`; docs/rl.md prints `Layout.table()`), and the
values both encoders write in the fields that are more than a count or a ratio (the table
options, a fight slot, the question's kind).

The scalars come first, clipped to their bounds; then one card-count vector per zone, the
copies of each card id in catalog order (at most `MAX_COPIES`). Seats are relative to the
observer: block 0 is the observer, block 1 the next seat, and so on; blocks of seats the game
does not have are zeros.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from munchkin.cards.schema import CardDef
from munchkin.rl.catalog import FIGHT_SLOTS, MAX_PLAYERS, Catalog

PHASES = ("setup", "start", "face_up", "combat", "after_door", "end", "over")
PROMPT_KINDS = (
    "charity",
    "charity_to",
    "loot",
    "reroll",
    "flight",
    "lose_card",
    "remove_curse",
    "kill_hireling",
    "turn_hireling",
    "take_off",
    "get_rid",
    "keep_race",
    "keep_class",
    "half_trait",
    "set_die",
    "tax_item",
    "pay_tax",
    "resurrect",
)
"""Known question kinds; any other kind sets the `other` bit."""
OPTION_FIELDS = (
    ("win_level", 20),
    ("door_cards", 10),
    ("treasure_cards", 10),
    ("hand_limit", 20),
    ("power_discards", 10),
    ("charm_cards", 10),
    ("halfling_reroll", 1),
    ("loot_ties", 1),
    ("sale_gold", 1),
    ("curses_before_first_door", 1),
    ("help_asks", 10),
)
"""Table options and their divisors; `loot_ties` is 1 for `seat`, `sale_gold` 1 for `pooled`."""
ZONE_COUNTS = ("races", "classes", "boosts", "equipped", "carried", "steeds", "hirelings", "curses")
PLAYER_FIELDS = (
    "present",
    "level",
    "male",
    "female",
    "dead",
    "hand_count",
    "strength",
    "active",
    "winner",
    *ZONE_COUNTS,
    "lasting",
)
SLOT_FIELDS = ("present", "level", "treasures", "levels", "undead", "copies")
MAX_COPIES = 4.0
"""Highest count in a card-count vector (no built-in card has more than 3 copies)."""
MAX_COUNT = int(MAX_COPIES)


@dataclass(frozen=True)
class Field:
    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str


class Layout:
    """The fields of the vector, in order."""

    def __init__(self, cards: int) -> None:
        self.fields: list[Field] = []
        self.size = 0
        self.cards = cards
        p, c = MAX_PLAYERS, cards
        add = self._add
        add("phase", len(PHASES), 0, 1, "one-hot: " + ", ".join(PHASES))
        add("turn", 1, 0, 10, "turn number / 100, at most 10")
        add("my_turn", 1, 0, 1, "1 when it is the observer's turn")
        add("deciding", 1, 0, 1, "1 when the game waits for the observer's decision")
        add("door_deck", 1, 0, 5, "cards left in the door deck / 100")
        add("treasure_deck", 1, 0, 5, "cards left in the treasure deck / 100")
        add("options", len(OPTION_FIELDS), 0, 2, "table options: " + ", ".join(n for n, _ in OPTION_FIELDS))
        add("hand_limit", 1, 0, 2, "the observer's hand limit / 20")
        add("run_away_modifier", 1, -3, 3, "added to the observer's run-away rolls / 5, clipped")
        add("gold", 1, 0, 5, "gold of this turn's sales not yet a level / 1000")
        add("double_sale_used", 1, 0, 1, "the Halfling's double sale was used this turn")
        for k in range(p):
            add(
                f"player_{k}",
                len(PLAYER_FIELDS),
                -2,
                5,
                "the observer: present, level/20, male, female, dead, hand count/10, strength/20, "
                "active, winner, then cards per zone/10 (races, classes, boosts, equipped, carried, "
                "steeds, hirelings, curses, lasting effects); clipped to [-2, 5]"
                if k == 0
                else f"seat +{k}: as `player_0`",
            )
        add("combat", 1, 0, 1, "a fight is on")
        add("fighter", p, 0, 1, "one-hot relative seat of the fighter")
        add("helper", p, 0, 1, "one-hot relative seat of the helper")
        add("asked", p, 0, 1, "one-hot relative seat of the player asked to help")
        add("reward", 1, 0, 5, "treasures promised to the helper / 5")
        add("run_stage", 1, 0, 1, "the fight is lost and its side runs away")
        add("munchkin_total", 1, -2, 5, "the munchkins' side strength / 20, clipped")
        add("monster_total", 1, -2, 5, "the monsters' side strength / 20, clipped")
        add("runners", p, 0, 1, "relative seats still to run away")
        add("declined", p, 0, 1, "relative seats that declined to help in this fight")
        add("powers", p, -5, 5, "class power bonuses in this fight by relative seat / 5, clipped")
        add(
            "fight_slots",
            FIGHT_SLOTS * len(SLOT_FIELDS),
            0,
            MAX_COPIES,
            "per fight slot: present, level/20, treasures/5, levels/5, undead, copies",
        )
        add("offer", 1, 0, 1, "a trade is on offer")
        add("offer_from", p, 0, 1, "one-hot relative seat offering the trade")
        add("offer_to", p, 0, 1, "one-hot relative seat it is offered to")
        add("prompt", 1, 0, 1, "a question is open")
        add("prompt_player", p, 0, 1, "one-hot relative seat of the player asked")
        add("prompt_kind", len(PROMPT_KINDS) + 1, 0, 1, "one-hot: " + ", ".join(PROMPT_KINDS) + ", other")
        add("prompt_options", 1, 0, 5, "answers open to the observer / 10 (0 when another is asked)")
        add("prompt_missing", 1, -2, 2, "for flight: points the roll still misses / 5")
        self.scalars = self.size
        """Every field before this offset is a scalar; the card-count vectors follow."""
        self.card_fields = len(self.fields)
        """The position in `fields` of the first card-count vector."""
        add("my_hand", c, 0, MAX_COPIES, "copies of each card id in the observer's hand")
        add("my_equipped", c, 0, MAX_COPIES, "the observer's items in use (and their hirelings' items)")
        add("my_other", c, 0, MAX_COPIES, "the observer's other face-up cards and what is attached")
        for k in range(1, p):
            add(f"table_{k}", c, 0, MAX_COPIES, f"seat +{k}: every face-up card in front of them")
        add("discards", c, 0, MAX_COPIES, "the door and treasure discard piles")
        add("face_up", c, 0, MAX_COPIES, "the door card drawn face up, awaiting keep or play")
        add("body", c, 0, MAX_COPIES, "a dead character's cards awaiting looting")
        add("fight_monsters", c, 0, MAX_COPIES, "the monsters of the fight and what is attached to them")
        add("played_munchkins", c, 0, MAX_COPIES, "one-shots played in the fight for the munchkins")
        add("played_monsters", c, 0, MAX_COPIES, "one-shots played in the fight for the monsters")
        add("offer_give", c, 0, MAX_COPIES, "the cards offered")
        add("offer_take", c, 0, MAX_COPIES, "the cards asked for")
        add("prompt_about", c, 0, MAX_COPIES, "the card the question is about, when shown")
        self.offsets = {f.name: f.start for f in self.fields}
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])

    def _add(self, name: str, size: int, low: float, high: float, doc: str) -> None:
        self.fields.append(Field(name, self.size, size, low, high, doc))
        self.size += size

    def table(self) -> str:
        """The fields as a Markdown table (docs/rl.md)."""
        rows = ["| field | offset | size | bounds | meaning |", "| --- | --- | --- | --- | --- |"]
        for f in self.fields:
            rows.append(f"| `{f.name}` | {f.start} | {f.size} | [{f.low:g}, {f.high:g}] | {f.doc} |")
        return "\n".join(rows)


_LAYOUTS: dict[int, Layout] = {}


def layout_for(catalog: Catalog) -> Layout:
    """The layout over a catalog's cards (one per card count)."""
    n = len(catalog.card_ids)
    if n not in _LAYOUTS:
        _LAYOUTS[n] = Layout(n)
    return _LAYOUTS[n]


def option_values(options: Mapping[str, Any]) -> list[float]:
    """The table options as the `options` field holds them."""
    out = []
    for name, divisor in OPTION_FIELDS:
        value = options[name]
        if name == "loot_ties":
            value = value == "seat"
        elif name == "sale_gold":
            value = value == "pooled"
        out.append(float(value) / divisor)
    return out


def slot_values(card: CardDef, copies: int) -> list[float]:
    """One fight slot's scalars."""
    level = (card.level or 0) / 20
    return [1.0, level, card.treasures / 5, card.levels / 5, float(card.undead), float(copies)]


def prompt_kind(kind: str) -> int:
    """The index of a question kind in the `prompt_kind` one-hot (the last: `other`)."""
    return PROMPT_KINDS.index(kind) if kind in PROMPT_KINDS else len(PROMPT_KINDS)
