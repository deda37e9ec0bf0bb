"""A feature vector for each legal action, for models that score actions one by one.

`ActionFeatures.rows(ids, keys, actions)` gives `size` floats per action (`row`, one
action's): the action's family (one-hot), the two cards it names (A: the card played, used,
sold or given; B: the card it is played on, the monster of a slot, the hireling, the card
taken), each as its type (one-hot) and numbers, the relative seat it names (one-hot), then
a few numbers: fight slot, treasures promised, cards named, die face, the sale's gold, the
helper escaping. docs/rl.md lists them. Each row is built once and kept, side by side with
the others in one array that one fancy index reads: by id when the family names no card
beyond its key (most families), otherwise by id and action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import get_args

import numpy as np

from munchkin.cards.schema import CardDef, CardType
from munchkin.engine.actions import Action
from munchkin.rl.catalog import FIGHT_SLOTS, MAX_PLAYERS, REWARDS, Catalog, Key

CARD_TYPES: tuple[str, ...] = tuple(get_args(CardType))
CARD_NUMBERS = ("bonus", "level", "treasures", "levels", "value", "big", "undead", "door")
CARD_FEATURES = len(CARD_TYPES) + len(CARD_NUMBERS)
EXTRA = ("slot", "reward", "cards", "die", "gold", "helper_escapes")
CACHE_LIMIT = 200_000
"""Rows kept by id and action at most: past it, every kept row is dropped."""
BY_ACTION = frozenset({"play_on_fight", "equip_hireling", "trade", "sell", "run_away_order"})
"""Families whose row reads cards of the action that its key names only by a slot; every other
family's row is the same for every action of its id."""


def card_features(card: CardDef | None) -> list[float]:
    """A card's type (one-hot) and numbers, scaled to about [0, 1]; zeros for no card."""
    out = [0.0] * CARD_FEATURES
    if card is None:
        return out
    if card.type in CARD_TYPES:
        out[CARD_TYPES.index(card.type)] = 1.0
    base = len(CARD_TYPES)
    out[base : base + len(CARD_NUMBERS)] = [
        card.bonus / 10,
        (card.level or 0) / 20,
        card.treasures / 5 if card.type == "monster" else 0.0,
        card.levels / 5 if card.type == "monster" else 0.0,
        (card.value or 0) / 1000,
        float(card.big),
        float(card.undead),
        float(card.deck == "door"),
    ]
    return out


class ActionFeatures:
    """Feature rows of a catalog's actions."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.families = {fam.name: k for k, fam in enumerate(catalog.families)}
        self.size = len(catalog.families) + 2 * CARD_FEATURES + MAX_PLAYERS + len(EXTRA)
        self._by_action = [catalog.families[f].name in BY_ACTION for f in catalog.family_of]
        self._forget()

    def _forget(self) -> None:
        """Drop every kept row."""
        self._kept = np.zeros((64, self.size), np.float32)
        """The rows built so far, in the order they were built (doubled when full)."""
        self._count = 0
        self._of_id = [-1] * self.catalog.size
        """The position in `_kept` of each id's row, for the families not BY_ACTION."""
        self._of_action: dict[tuple[int, Action], int] = {}
        """The position in `_kept` of each (id, action)'s row, for the families BY_ACTION."""

    def _keep(self, row: np.ndarray) -> int:
        if self._count == len(self._kept):
            self._kept = np.concatenate([self._kept, np.zeros_like(self._kept)])
        self._kept[self._count] = row
        self._count += 1
        return self._count - 1

    def row(self, action_id: int, key: Key, action: Action) -> np.ndarray:
        """The row of one action (a new array)."""
        return self.rows([action_id], {action_id: key}, {action_id: action})[0]

    def rows(self, ids: Sequence[int], keys: Mapping[int, Key], actions: Mapping[int, Action]) -> np.ndarray:
        """The rows of `ids` (with their keys and actions), in order, as one new array of
        shape (len(ids), size)."""
        if len(self._of_action) >= CACHE_LIMIT:
            self._forget()
        of_id, of_action, by_action = self._of_id, self._of_action, self._by_action
        kept = []
        for i in ids:
            if by_action[i]:
                k = of_action.get((i, actions[i]))
                if k is None:
                    k = of_action[(i, actions[i])] = self._keep(self.build(i, keys[i], actions[i]))
            else:
                k = of_id[i]
                if k < 0:
                    k = of_id[i] = self._keep(self.build(i, keys[i], actions[i]))
            kept.append(k)
        return self._kept[kept]

    def build(self, action_id: int, key: Key, a: Action) -> np.ndarray:
        """The row of one action, built from scratch (the reference the caches keep)."""
        defs = self.catalog.defs
        family = self.catalog.family(action_id).name
        out = np.zeros(self.size, np.float32)
        out[self.families[family]] = 1.0
        first: str | None = None
        second: str | None = None
        rel: int | None = None
        extra = dict.fromkeys(EXTRA, 0.0)
        if family in ("trade",):
            first, second = a.give[0], (a.take[0] if a.take else None)
            rel = _int(key[1])
        elif family == "sell":
            sold = sorted(a.cards, key=lambda c: -(defs[c].value or 0) if c in defs else 0)
            first, second = sold[0], (sold[1] if len(sold) > 1 else None)
            extra["cards"] = len(a.cards) / 3
            extra["gold"] = sum(defs[c].value or 0 for c in a.cards if c in defs) / 1000
        elif family == "ask_help":
            rel = _int(key[1])
            extra["reward"] = _int(key[2]) / (REWARDS - 1)
        elif family == "run_away_order":
            extra["cards"] = len(a.cards) / 3
            first = a.cards[0]
        elif family == "choose_die":
            extra["die"] = _int(key[1]) / 6
        elif family in ("choose_player", "choose_half", "choose_index"):
            rel = _int(key[1]) if family == "choose_player" else None
            extra["slot"] = _int(key[1]) / 20 if family == "choose_index" else 0.0
        elif family.startswith("choose_"):
            first = str(key[1]) if len(key) > 1 else None
            rel = _int(key[2]) if family == "choose_give" else None
        else:
            first = a.arg
            if family in ("play_target", "backstab", "steal"):
                rel = _int(key[2])
            elif family == "play_on_fight":
                second = a.on
                extra["slot"] = _int(key[2]) / FIGHT_SLOTS
            elif family in ("play_on_own", "play_illusion"):
                second = a.on
            elif family == "equip_hireling":
                second = a.hireling
            elif family == "kick_door_discard":
                first = a.cards[0]
            elif family == "sacrifice_escape":
                extra["helper_escapes"] = 1.0
        base = len(self.catalog.families)
        out[base : base + CARD_FEATURES] = card_features(defs.get(first or ""))
        out[base + CARD_FEATURES : base + 2 * CARD_FEATURES] = card_features(defs.get(second or ""))
        base += 2 * CARD_FEATURES
        if rel is not None and 0 <= rel < MAX_PLAYERS:
            out[base + rel] = 1.0
        base += MAX_PLAYERS
        out[base : base + len(EXTRA)] = list(extra.values())
        return out


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value
