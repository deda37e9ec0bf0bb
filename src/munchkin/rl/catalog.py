"""The action catalog: every engine action as one integer of a fixed `Discrete(K)` space.

The catalog is a list of *keys*, one per action id, grouped in families (docs/rl.md lists
them). A key names the verb and its arguments as a policy can read them from its
observation:

- a card by its card id's index in the catalog's card list (all built-in sets, sorted by id);
- a player by their seat relative to the acting seat (0 = oneself, 1 = the next seat, ...);
- a monster of the fight by its *fight slot*: the order of its card id among the fight's
  distinct monster ids, as the observation lists them;
- one's own hirelings by their slot among one's distinct hireling ids, in play order;
- the items of a sale, and the two items of a trade, by *slots*: the cards the listed
  actions of that family name, each card id once, in catalog order (sale slots over every
  listed sale; trade slots for what one gives over every listed trade, for what one takes
  per partner).

`encode` turns the engine's legal actions of one state into ids, and back through the
returned table, so a masked-in id applies exactly the listed action. Within one state the
map is one to one: two listed actions never share a key. The few listed actions that no key
expresses (more fight monsters, hirelings or slotted cards than the families hold) are
returned apart as `unlisted`, and the mask leaves them out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement, permutations

import numpy as np

from munchkin.cards.loader import builtin_set_names, load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.rules.fight_cards import fight_word
from munchkin.engine.state import GameState

MAX_PLAYERS = 6
"""Relative seats 0..5: a game has 2 to 6 players."""
FIGHT_SLOTS = 6
"""Distinct monsters of one fight that actions can name."""
HIRELING_SLOTS = 4
"""Own hirelings that `equip ... hireling=` can name."""
SALE_SLOTS = 16
"""Distinct cards that listed sales can name; a sale is a multiset of up to 3 of them."""
SALE_SIZE = 3
TRADE_SLOTS = 16
"""Distinct cards given (and, per partner, taken) that listed trades can name."""
REWARDS = 21
"""Treasures promised for help: 0 to 20."""
CHOICE_SLOTS = 20
"""Answers to a question in a form no other choose family reads, by their position."""
DIE_FACES = ("1", "2", "3", "4", "5", "6")

SIMPLE_VERBS = (
    "kick_door",
    "loot_room",
    "end_turn",
    "pass",
    "accept_trade",
    "decline_trade",
    "accept_help",
    "decline_help",
    "resolve_combat",
    "run_away",
)
"""Verbs listed with no argument: one id each."""
CARD_VERBS = (
    "play",
    "keep",
    "monstrify",
    "look_for_trouble",
    "equip",
    "unequip",
    "discard",
    "sacrifice_hireling",
    "berserk",
    "turn_undead",
    "charm",
)
"""Verbs listed with one card id as their only argument: one id per card."""

OWN_TARGETS: dict[str, tuple[str, ...]] = {
    "steed_enhancer": ("steed",),
    "item_enhancer": ("item",),
    "cheat": ("item", "steed", "hireling"),
    "wandering_monster": ("monster",),
}
"""Card types played `on:` a card of one's own, and the types of that card."""

Key = tuple[object, ...]


@dataclass(frozen=True)
class Family:
    """A block of consecutive ids: `name`, its first id, its size and what its key holds."""

    name: str
    start: int
    size: int
    key: str


def all_builtin_cards() -> tuple[CardDef, ...]:
    """One definition per card id over every built-in set."""
    return tuple({c.id: c for c in load_builtin_sets(list(builtin_set_names()))}.values())


def own_target_types(card: CardDef) -> tuple[str, ...]:
    """The types of one's own cards that `card` may be played on (`on:`), if any."""
    if card.type in OWN_TARGETS:
        return OWN_TARGETS[card.type]
    if card.type == "other" and card.enhances:
        return (card.enhances,)
    if card.type == "one_shot" and any(e.kind == "change_sex" for e in card.effects):
        return ("hireling",)
    return ()


def is_illusion(card: CardDef) -> bool:
    word = fight_word(card)
    return word is not None and word.kind == "illusion"


class Catalog:
    """The fixed action space over `cards` (by default every built-in card)."""

    def __init__(self, cards: Sequence[CardDef] | None = None) -> None:
        defs = {c.id: c for c in (all_builtin_cards() if cards is None else cards)}
        self.card_ids: tuple[str, ...] = tuple(sorted(defs))
        self.defs: dict[str, CardDef] = {i: defs[i] for i in self.card_ids}
        self.card_index: dict[str, int] = {cid: k for k, cid in enumerate(self.card_ids)}
        self.keys: list[Key] = []
        self.families: list[Family] = []
        ids, rels = self.card_ids, range(MAX_PLAYERS)
        fights = range(FIGHT_SLOTS)
        by_type: dict[str, list[str]] = {}
        for cid in ids:
            by_type.setdefault(self.defs[cid].type, []).append(cid)

        def family(name: str, key: str, keys: Iterable[Key]) -> None:
            start = len(self.keys)
            self.keys.extend(keys)
            self.families.append(Family(name, start, len(self.keys) - start, key))

        family("simple", "verb", ((v,) for v in SIMPLE_VERBS))
        for verb in CARD_VERBS:
            family(verb, "card", ((verb, c) for c in ids))
        family("play_target", "card x relative seat", (("play_target", c, r) for c in ids for r in rels))
        family("play_on_fight", "card x fight slot", (("play_on_fight", c, m) for c in ids for m in fights))
        own = [
            ("play_on_own", c, t)
            for c in ids
            for kind in own_target_types(self.defs[c])
            for t in by_type.get(kind, [])
        ]
        family("play_on_own", "card x own card of the types it takes", own)
        illusions = [c for c in ids if is_illusion(self.defs[c])]
        family(
            "play_illusion",
            "card x monster in hand x fight slot replaced (-1: the only one)",
            (
                ("play_illusion", c, new, old)
                for c in illusions
                for new in by_type.get("monster", [])
                for old in (-1, *fights)
            ),
        )
        family("kick_door_discard", "card", (("kick_door_discard", c) for c in ids))
        family(
            "run_away_order",
            "fight slots, in the order run from",
            (
                ("run_away_order", order)
                for size in (2, 3)
                for order in dict.fromkeys(
                    p for combo in combinations_with_replacement(range(3), size) for p in permutations(combo)
                )
            ),
        )
        family(
            "equip_hireling",
            "card x own hireling slot",
            (("equip_hireling", c, h) for c in ids for h in range(HIRELING_SLOTS)),
        )
        family("sacrifice_escape", "hireling (helper escapes too)", (("sacrifice_escape", c) for c in ids))
        family(
            "sell",
            "multiset of up to 3 sale slots",
            (
                ("sell", combo)
                for size in range(1, SALE_SIZE + 1)
                for combo in combinations_with_replacement(range(SALE_SLOTS), size)
            ),
        )
        family(
            "trade",
            "partner x give slot x take slot (-1: a gift)",
            (
                ("trade", r, give, take)
                for r in range(1, MAX_PLAYERS)
                for give in range(TRADE_SLOTS)
                for take in range(-1, TRADE_SLOTS)
            ),
        )
        family(
            "ask_help",
            "relative seat x treasures promised",
            (("ask_help", r, n) for r in range(1, MAX_PLAYERS) for n in range(REWARDS)),
        )
        family("backstab", "card discarded x relative seat", (("backstab", c, r) for c in ids for r in rels))
        family("steal", "item x relative seat", (("steal", c, r) for c in ids for r in range(1, MAX_PLAYERS)))
        family("choose_card", "card", (("choose_card", c) for c in ids))
        family("choose_decline", "", [("choose_decline",)])
        family("choose_die", "die face", (("choose_die", f) for f in range(1, 7)))
        family("choose_player", "relative seat", (("choose_player", r) for r in rels))
        family("choose_half", "0: it counts, 1: it does not", (("choose_half", k) for k in (0, 1)))
        family("choose_sell", "card", (("choose_sell", c) for c in ids))
        family("choose_give", "card x relative seat", (("choose_give", c, r) for c in ids for r in rels))
        family("choose_index", "option position", (("choose_index", k) for k in range(CHOICE_SLOTS)))
        self.index: dict[Key, int] = {key: i for i, key in enumerate(self.keys)}
        assert len(self.index) == len(self.keys), "catalog keys are unique"
        self.family_of: list[int] = []
        for number, fam in enumerate(self.families):
            self.family_of.extend([number] * fam.size)

    @property
    def size(self) -> int:
        """K, the number of action ids."""
        return len(self.keys)

    def family(self, action_id: int) -> Family:
        return self.families[self.family_of[action_id]]

    def encode(self, g: GameState, seat: int, legal: Sequence[Action]) -> Encoded:
        """The ids of `seat`'s legal actions in state `g`, each with its action."""
        ctx = _Context(self, g, seat, legal)
        ids: dict[int, Action] = {}
        keys: dict[int, Key] = {}
        unlisted: list[Action] = []
        for action in legal:
            key = ctx.key(action)
            action_id = None if key is None else self.index.get(key)
            if action_id is None:
                unlisted.append(action)
            elif action_id in ids and ids[action_id] != action:
                raise AssertionError(f"{action} and {ids[action_id]} share the key {key}")
            else:
                ids[action_id] = action
                keys[action_id] = key  # type: ignore[assignment]
        return Encoded(ids, keys, unlisted)

    def table(self) -> str:
        """The families as a Markdown table (docs/rl.md)."""
        rows = ["| family | first id | ids | key |", "| --- | --- | --- | --- |"]
        rows += [f"| `{f.name}` | {f.start} | {f.size} | {f.key} |" for f in self.families]
        return "\n".join(rows)

    def describe(self, action_id: int) -> str:
        """The key of an id as text, e.g. `play_target:curse-of-x:1`."""
        return ":".join(str(part) for part in self.keys[action_id])


@dataclass
class Encoded:
    """One state's legal actions by id (`actions`, with their `keys`), and those no id
    expresses (`unlisted`)."""

    actions: dict[int, Action]
    keys: dict[int, Key]
    unlisted: list[Action]
    ids: list[int] = field(init=False)
    """The ids of `actions`, sorted."""

    def __post_init__(self) -> None:
        self.ids = sorted(self.actions)

    def mask(self, size: int, dtype: type = np.int8) -> np.ndarray:
        """A new array of `size` zeros with a one at each id."""
        mask: np.ndarray = np.zeros(size, dtype)
        if len(self.actions) > 8:
            mask.put(self.ids, 1)
        else:
            for action_id in self.actions:
                mask[action_id] = 1
        return mask


class _Context:
    """What the keys of one state's actions are relative to: seats, fight and other slots."""

    def __init__(self, catalog: Catalog, g: GameState, seat: int, legal: Sequence[Action]) -> None:
        self.catalog, self.g, self.seat, self.legal = catalog, g, seat, legal
        self._rel: dict[str, int] | None = None
        self._fight: dict[str, int] | None = None
        self._hirelings: dict[str, int] | None = None
        self._sale: dict[str, int] | None = None
        self._give: dict[str, int] | None = None
        self._take: dict[str, dict[str, int]] | None = None

    @property
    def rel(self) -> dict[str, int]:
        """Each player's seat relative to the actor."""
        if self._rel is None:
            n, seat = len(self.g.players), self.seat
            self._rel = {p.name: (i - seat) % n for i, p in enumerate(self.g.players)}
        return self._rel

    @property
    def fight(self) -> dict[str, int]:
        if self._fight is None:
            c = self.g.combat
            self._fight = {} if c is None else fight_slots(self.g, c.monsters)
        return self._fight

    @property
    def hirelings(self) -> dict[str, int]:
        if self._hirelings is None:
            ids = self.g.distinct_ids(self.g.players[self.seat].hirelings)
            self._hirelings = {cid: k for k, cid in enumerate(ids)}
        return self._hirelings

    def _slots(self, cards: Iterable[str]) -> dict[str, int]:
        order = sorted(set(cards), key=self.catalog.card_index.__getitem__)
        return {cid: k for k, cid in enumerate(order)}

    @property
    def sale(self) -> dict[str, int]:
        if self._sale is None:
            self._sale = self._slots(c for a in self.legal if a.verb == "sell" for c in a.cards)
        return self._sale

    @property
    def give(self) -> dict[str, int]:
        if self._give is None:
            self._give = self._slots(c for a in self.legal if a.verb == "trade" for c in a.give)
        return self._give

    def take(self, partner: str) -> dict[str, int]:
        if self._take is None:
            by_partner: dict[str, list[str]] = {}
            for a in self.legal:
                if a.verb == "trade":
                    by_partner.setdefault(a.arg or "", []).extend(a.take)
            self._take = {name: self._slots(cards) for name, cards in by_partner.items()}
        return self._take.get(partner, {})

    def key(self, a: Action) -> Key | None:
        """The catalog key of a listed action, or None when no family expresses it."""
        verb = a.verb
        if verb == "play":
            return self._play(a)
        if verb in _SIMPLE:
            if a.cards:
                if verb == "run_away":
                    slots = tuple(self.fight.get(c, FIGHT_SLOTS) for c in a.cards)
                    return ("run_away_order", slots)
                if verb == "kick_door" and a.arg == "discard" and len(a.cards) == 1:
                    return ("kick_door_discard", a.cards[0])
                return None
            return (verb,) if a.arg is None else None
        if verb == "choose":
            return self._choose(a.arg or "")
        if verb == "sell":
            sale = self.sale
            return ("sell", tuple(sorted(sale[c] for c in a.cards)))
        if verb == "trade":
            if len(a.give) != 1 or len(a.take) > 1:
                return None
            take = self.take(a.arg or "")[a.take[0]] if a.take else -1
            return ("trade", self.rel[a.arg or ""], self.give[a.give[0]], take)
        if verb == "ask_help":
            return None if a.give else ("ask_help", self.rel[a.arg or ""], a.reward)
        if verb == "equip" and a.hireling is not None:
            return ("equip_hireling", a.arg, self.hirelings.get(a.hireling, HIRELING_SLOTS))
        if verb == "sacrifice_hireling" and a.helper_escapes:
            return ("sacrifice_escape", a.arg)
        if verb == "backstab":
            return ("backstab", a.arg, self.rel[a.target or ""])
        if verb == "steal":
            return ("steal", a.arg, self.rel[a.target or ""]) if len(a.cards) <= 1 else None
        return (verb, a.arg)

    def _play(self, a: Action) -> Key | None:
        card = self.catalog.defs.get(a.arg or "")
        if card is None:
            return None
        if a.cards:
            if len(a.cards) != 1 or a.on is None:
                return None
            return ("play_illusion", a.arg, a.on, self.fight.get(a.cards[0], FIGHT_SLOTS))
        if a.target is not None:
            return None if a.on is not None else ("play_target", a.arg, self.rel[a.target])
        if a.on is None:
            return ("play", a.arg)
        if is_illusion(card):
            return ("play_illusion", a.arg, a.on, -1)
        on = self.catalog.defs.get(a.on)
        if on is not None and on.type in own_target_types(card):
            return ("play_on_own", a.arg, a.on)
        return ("play_on_fight", a.arg, self.fight.get(a.on, FIGHT_SLOTS))

    def _choose(self, option: str) -> Key | None:
        g = self.g
        prompt = g.prompt
        if prompt is not None and prompt.kind == "set_die" and option in DIE_FACES:
            return ("choose_die", int(option))
        if option == "decline":
            return ("choose_decline",)
        if option in self.rel:
            return ("choose_player", self.rel[option])
        if option in self.catalog.card_index:
            return ("choose_card", option)
        if prompt is not None and prompt.kind == "half_trait" and option in prompt.options[:2]:
            return ("choose_half", prompt.options.index(option))
        verb, _, rest = option.partition(" ")
        if verb == "sell" and rest in self.catalog.card_index:
            return ("choose_sell", rest)
        if verb == "give":
            card, _, name = rest.partition(" to ")
            if card in self.catalog.card_index and name in self.rel:
                return ("choose_give", card, self.rel[name])
        if prompt is not None and option in prompt.options:
            return ("choose_index", prompt.options.index(option))
        return None


_SIMPLE = frozenset(SIMPLE_VERBS)


def fight_slots(g: GameState, monsters: Sequence[int]) -> dict[str, int]:
    """Each distinct monster id of the fight and its slot (fight order)."""
    return {cid: k for k, cid in enumerate(g.distinct_ids(list(monsters)))}


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog over every built-in card, built once per process."""
    return Catalog()
