"""The observation: one agent's view of the game as a fixed-length float32 vector.

Every number comes from what `munchkin.views.view(game, player)` shows that player (their
hand, every table, the discard piles, the fight, a trade on offer, the question asked) and
nothing else. Two encoders build the same vector:

- `encode_view(data)` from a view's data (the reference, and what a bot that only gets
  `PlayerView`s uses);
- `Encoder.encode(game, seat)` from the game state, reading only the parts of the state the
  view shows, without building the view's dictionaries (about five times faster than
  building the view and encoding it).

`tests/test_rl_observation.py` checks that both give the same vector over random games.
Seats are relative to the observer: block 0 is the observer, block 1 the next seat, and so
on; blocks of seats the game does not have are zeros. `LAYOUT.fields` names every field
with its size, bounds and meaning (docs/rl.md prints the table).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from munchkin.cards.schema import CardDef
from munchkin.engine.game import Game
from munchkin.engine.rules.character import hand_limit
from munchkin.engine.rules.run_away import ESCAPE_ROLL, run_modifier
from munchkin.engine.rules.strength import character_parts, monster_side, munchkin_side
from munchkin.engine.state import Combat, GameState, Offer, PlayerState, Prompt
from munchkin.rl.catalog import FIGHT_SLOTS, MAX_PLAYERS, Catalog, default_catalog, fight_slots
from munchkin.views import PRIVATE_PROMPTS

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
    "races",
    "classes",
    "boosts",
    "equipped",
    "carried",
    "steeds",
    "hirelings",
    "curses",
    "lasting",
)
_PLAYER_SIZE = len(PLAYER_FIELDS)
ZONE_COUNTS = ("races", "classes", "boosts", "equipped", "carried", "steeds", "hirelings", "curses")
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


def _clip(x: float, low: float, high: float) -> float:
    return low if x < low else high if x > high else x


class _Writer:
    """Collects one vector's values for `encode_view`: the scalars in a list, the card counts
    as indices."""

    __slots__ = ("counts", "layout", "offsets", "scal")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.offsets = layout.offsets
        self.scal = [0.0] * layout.scalars
        self.counts: list[int] = []

    def set(self, name: str, k: int, value: float) -> None:
        self.scal[self.offsets[name] + k] = value

    def block(self, name: str, values: Sequence[float]) -> None:
        start = self.offsets[name]
        self.scal[start : start + len(values)] = values

    def count(self, name: str, cards: Iterable[int]) -> None:
        """Add one for each catalog card index in `cards`."""
        base = self.offsets[name]
        self.counts.extend(base + c for c in cards)

    def array(self) -> np.ndarray:
        layout = self.layout
        out = np.zeros(layout.size, np.float32)
        head = out[: layout.scalars]
        head[:] = self.scal
        np.clip(head, layout.low[: layout.scalars], layout.high[: layout.scalars], out=head)
        if len(self.counts) > 48:
            out += np.bincount(self.counts, minlength=layout.size)[: layout.size]
        else:
            for i in self.counts:
                out[i] += 1.0
        if self.counts:
            tail = out[layout.scalars :]
            np.minimum(tail, MAX_COPIES, out=tail)
        return out


def _scalars(
    w: _Writer,
    *,
    phase: str,
    turn: int,
    my_turn: bool,
    deciding: bool,
    decks: tuple[int, int],
    options: Sequence[float],
    hand_limit: int,
    run_mod: int,
    gold: int,
    double_sale: bool,
) -> None:
    if phase in PHASES:
        w.set("phase", PHASES.index(phase), 1.0)
    w.set("turn", 0, min(turn, 1000) / 100)
    w.set("my_turn", 0, float(my_turn))
    w.set("deciding", 0, float(deciding))
    w.set("door_deck", 0, decks[0] / 100)
    w.set("treasure_deck", 0, decks[1] / 100)
    w.block("options", options)
    w.set("hand_limit", 0, hand_limit / 20)
    w.set("run_away_modifier", 0, run_mod / 5)
    w.set("gold", 0, gold / 1000)
    w.set("double_sale_used", 0, float(double_sale))


def _player(
    w: _Writer,
    rel: int,
    *,
    level: int,
    sex: str,
    dead: bool,
    hand_count: int,
    strength: int,
    active: bool,
    winner: bool,
    zones: Sequence[int],
    lasting: int,
) -> None:
    values = [
        1.0,
        level / 20,
        float(sex == "male"),
        float(sex == "female"),
        float(dead),
        hand_count / 10,
        strength / 20,
        float(active),
        float(winner),
        *(n / 10 for n in zones),
        lasting / 10,
    ]
    w.block(f"player_{rel}", values)


def _slot(w: _Writer, slot: int, card: CardDef, copies: int) -> None:
    start = w.offsets["fight_slots"] + slot * len(SLOT_FIELDS)
    w.scal[start : start + len(SLOT_FIELDS)] = _slot_values(card, copies)


def _prompt_kind(kind: str) -> int:
    return PROMPT_KINDS.index(kind) if kind in PROMPT_KINDS else len(PROMPT_KINDS)


class _DiscardCounts:
    """The card counts of both discard piles together, kept from one call to the next: a
    pile mostly only grows, so only the cards added since are counted."""

    def __init__(self, cards: int) -> None:
        self.doors: list[int] = []
        self.treasures: list[int] = []
        """The piles as they were counted."""
        self.counts = np.zeros(cards, np.float32)
        self.most = 0.0
        """The highest of `counts`."""

    def vector(
        self, doors: list[int], treasures: list[int], cat: list[int], attached: Mapping[int, list[int]]
    ) -> tuple[np.ndarray, float]:
        """The piles' card counts, and the highest of them."""
        if attached and any(inst in doors or inst in treasures for inst in attached):
            self._forget()  # attachments leave with their card: count them too, afresh
            counts = np.zeros_like(self.counts)
            for inst in _flatten(doors + treasures, attached):
                counts[cat[inst]] += 1.0
            return counts, float(counts.max())
        known_doors, known_treasures = len(self.doors), len(self.treasures)
        if _changed(doors, self.doors) or _changed(treasures, self.treasures):
            self._forget()
            known_doors = known_treasures = 0
        most = _count(self.counts, doors[known_doors:], cat, self.most)
        self.most = _count(self.counts, treasures[known_treasures:], cat, most)
        self.doors, self.treasures = doors[:], treasures[:]
        return self.counts, self.most

    def _forget(self) -> None:
        self.doors, self.treasures = [], []
        self.counts[:] = 0.0
        self.most = 0.0


def _changed(pile: list[int], seen: list[int]) -> bool:
    """Whether `pile` is anything but `seen` with cards added at its end."""
    return len(pile) < len(seen) or pile[: len(seen)] != seen


def _count(counts: np.ndarray, cards: list[int], cat: list[int], most: float) -> float:
    """Add one per card to `counts`; the highest count, given `most` the highest before."""
    for inst in cards:
        count = counts[cat[inst]] + 1.0
        counts[cat[inst]] = count
        most = max(most, float(count))
    return most


def _flatten(zone: Iterable[int], attached: Mapping[int, list[int]]) -> list[int]:
    out = []
    for inst in zone:
        out.append(inst)
        if inst in attached:
            out.extend(_flatten(attached[inst], attached))
    return out


class Encoder:
    """Observation vectors of one game's players, straight from the game state.

    The vector is written by blocks: the head's and the players' scalars in one slice, the
    fight's, the offer's and the question's only when there is one, the discard piles from
    their cache, and every other card count as an index of the vector."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or default_catalog()
        self.layout = layout_for(self.catalog)
        self._defs: tuple[object, ...] = ()
        self._cat: list[int] = []
        at = self.layout.offsets
        self._at = at
        self._tables = [""] + [f"table_{k}" for k in range(1, MAX_PLAYERS)]
        self._field_indices: dict[str, list[int]] = {}
        """Each card field's vector index of each card instance of the game last encoded."""
        self._head = struct.Struct(f"{at['combat']}f")
        """Packs the scalars from `phase` to the last player block (`combat` follows)."""
        self._combat = _Section(self.layout, "combat", "offer")
        self._offer = _Section(self.layout, "offer", "prompt")
        self._prompt = _Section(self.layout, "prompt", "my_hand")
        self._low = self.layout.low[: self.layout.scalars].copy()
        self._high = self.layout.high[: self.layout.scalars].copy()
        self._discarded = _DiscardCounts(len(self.catalog.card_ids))

    def _card_indices(self, g: GameState) -> list[int]:
        if g.defs is not self._defs:
            index = self.catalog.card_index
            self._cat = [index[d.id] for d in g.defs]
            self._defs = g.defs
            self._field_indices = {
                f.name: [f.start + k for k in self._cat]
                for f in self.layout.fields[self.layout.card_fields :]
            }
        return self._cat

    def _counts(self, g: GameState) -> _Counts:
        """The card counts of one vector, with each card field's vector index of each card
        instance (built once per game)."""
        self._card_indices(g)
        return _Counts(self._field_indices, g.attached)

    def encode(self, game: Game, seat: int, deciding: bool | None = None) -> np.ndarray:
        """The vector of what `seat` sees now. `deciding`: whether the game waits for this
        player (computed when not given)."""
        g = game.state
        counts = self._counts(g)
        if deciding is None:
            deciding = g.players[seat].name in game.waiting_for()
        out = np.zeros(self.layout.size, np.float32)
        view = out.data
        self._head.pack_into(view, 0, *_head(g, seat, deciding), *self._players(g, seat, counts))
        self._discards(g, out)
        if g.face_up is not None:
            counts.add("face_up", [g.face_up])
        counts.add("body", g.body)
        if g.combat is not None:
            self._combat.write(view, self._fight(g, g.combat, seat, counts))
        if g.offer is not None:
            self._offer.write(view, self._trade_offer(g.offer, seat, len(g.players), counts))
        if g.prompt is not None:
            self._prompt.write(view, self._question(g.prompt, seat, len(g.players), counts))
        head = out[: self.layout.scalars]
        # np.clip's result, cheaper: no value is NaN or a negative zero
        np.minimum(head, self._high, out=head)
        np.maximum(head, self._low, out=head)
        counts.write(view)
        return out

    def _discards(self, g: GameState, out: np.ndarray) -> None:
        """Both discard piles' counts, from their cache, into the `discards` field."""
        cat = self._cat
        start = self._at["discards"]
        field = out[start : start + len(self.catalog.card_ids)]
        counts, most = self._discarded.vector(g.door_discard, g.treasure_discard, cat, g.attached)
        if most > MAX_COPIES:
            np.minimum(counts, MAX_COPIES, out=field)
        else:
            field[:] = counts

    def _players(self, g: GameState, seat: int, counts: _Counts) -> list[float]:
        """Every player block in relative seat order (zeros for the seats the game lacks);
        their face-up cards go to `counts`."""
        n = len(g.players)
        winners = g.winners
        values: list[float] = []
        for r in range(n):
            i = (seat + r) % n
            p = g.players[i]
            values += _player_values(g, i, p, i in winners)
            carried = [x for h in p.hirelings for x in g.carrying.get(h, ())] if p.hirelings else []
            others = _other_zones(p)
            if r == 0:
                counts.add("my_hand", p.hand)
                counts.add("my_equipped", [*p.equipped, *carried])
                counts.add("my_other", others)
            else:
                counts.add(self._tables[r], [*p.equipped, *carried, *others])
        values += _ABSENT[n]
        return values

    def _fight(self, g: GameState, c: Combat, seat: int, counts: _Counts) -> _Block:
        """The fight's scalars (`combat` to `fight_slots`); its cards go to `counts`."""
        block = self._combat.block(seat, len(g.players))
        block.set("combat", 1.0)
        block.seat("fighter", c.fighter)
        if c.helper is not None:
            block.seat("helper", c.helper)
        if c.asked is not None:
            block.seat("asked", c.asked)
        block.set("reward", c.reward / 5)
        block.set("run_stage", float(c.stage == "run"))
        block.set("munchkin_total", munchkin_side(g).total / 20)
        block.set("monster_total", monster_side(g).total / 20)
        for i in c.runners:
            block.seat("runners", i)
        for i in c.declined:
            block.seat("declined", i)
        powers = [0] * MAX_PLAYERS
        for who, amount, _, _ in c.mods:
            powers[block.rel(who)] += amount
        for k, amount in enumerate(powers):
            if amount:
                block.set("powers", amount / 5, k)
        ids = [g.defs[m].id for m in c.monsters]
        for cid, slot in fight_slots(g, c.monsters).items():
            if slot < FIGHT_SLOTS:
                values = _slot_values(self.catalog.defs[cid], ids.count(cid))
                for k, value in enumerate(values, slot * len(SLOT_FIELDS)):
                    block.set("fight_slots", value, k)
        counts.add("fight_monsters", c.monsters)
        counts.add("played_munchkins", [i for i, side in c.played if not side])
        counts.add("played_monsters", [i for i, side in c.played if side])
        return block

    def _trade_offer(self, offer: Offer, seat: int, players: int, counts: _Counts) -> _Block:
        """The offer's scalars (`offer` to `offer_to`); its cards go to `counts`."""
        block = self._offer.block(seat, players)
        block.set("offer", 1.0)
        block.seat("offer_from", offer.giver)
        block.seat("offer_to", offer.taker)
        counts.add("offer_give", offer.give)
        counts.add("offer_take", offer.take)
        return block

    def _question(self, prompt: Prompt, seat: int, players: int, counts: _Counts) -> _Block:
        """The question's scalars (`prompt` to `prompt_missing`); the card it is about, when
        shown, goes to `counts`."""
        asked = prompt.player == seat
        block = self._prompt.block(seat, players)
        block.set("prompt", 1.0)
        block.seat("prompt_player", prompt.player)
        block.set("prompt_kind", 1.0, _prompt_kind(prompt.kind))
        block.set("prompt_options", (len(prompt.options) if asked else 0) / 10)
        if prompt.kind == "flight":
            _, total, paid = prompt.data
            assert isinstance(total, int) and isinstance(paid, int)
            block.set("prompt_missing", (ESCAPE_ROLL - total - max(0, paid)) / 5)
        first = prompt.data[0] if prompt.data else None
        if isinstance(first, int) and (asked or prompt.kind not in PRIVATE_PROMPTS):
            counts.add_card("prompt_about", first)
        return block


class _Section:
    """The scalars from one field to another, written as one slice."""

    def __init__(self, layout: Layout, first: str, after: str) -> None:
        self.start, self.end = layout.offsets[first], layout.offsets[after]
        self.at = {f.name: f.start - self.start for f in layout.fields if self.start <= f.start < self.end}
        """Each field's offset within the section."""
        self._zeros = [0.0] * (self.end - self.start)
        self._packer = struct.Struct(f"{self.end - self.start}f")

    def block(self, seat: int, players: int) -> _Block:
        """The section's scalars to fill, as `seat` of a game of `players` sees them."""
        return _Block(self._zeros[:], self.at, seat, players)

    def write(self, view: memoryview, block: _Block) -> None:
        """Write `block` into the vector `view` shows."""
        self._packer.pack_into(view, 4 * self.start, *block.values)


class _Block:
    """One section's scalars being filled, for one observer."""

    __slots__ = ("at", "observer", "players", "values")

    def __init__(self, values: list[float], at: Mapping[str, int], observer: int, players: int) -> None:
        self.values, self.at, self.observer, self.players = values, at, observer, players

    def rel(self, seat: int) -> int:
        """A seat relative to the observer."""
        return (seat - self.observer) % self.players

    def set(self, name: str, value: float, k: int = 0) -> None:
        self.values[self.at[name] + k] = value

    def seat(self, name: str, seat: int) -> None:
        """Mark `seat`, relative to the observer, in the one-hot field `name`."""
        self.values[self.at[name] + self.rel(seat)] = 1.0


_PHASE_VALUES = {phase: [float(k == i) for k in range(len(PHASES))] for i, phase in enumerate(PHASES)}
_NO_PHASE = [0.0] * len(PHASES)
_ABSENT = [[0.0] * (_PLAYER_SIZE * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
"""The player blocks of the seats a game of n players lacks."""


def _head(g: GameState, seat: int, deciding: bool) -> list[float]:
    """The scalars from `phase` to `double_sale_used`."""
    return [
        *_PHASE_VALUES.get(g.phase, _NO_PHASE),
        min(g.turn, 1000) / 100,
        float(g.active == seat),
        float(deciding),
        len(g.door_deck) / 100,
        len(g.treasure_deck) / 100,
        *_options(g),
        hand_limit(g, g.players[seat]) / 20,
        run_modifier(g, seat).total / 5,
        g.gold / 1000,
        float(g.sold_double),
    ]


def _player_values(g: GameState, i: int, p: PlayerState, winner: bool) -> list[float]:
    """One player's block, as `_player` writes it from a view."""
    strength = 0
    for part in character_parts(g, i):
        strength += part.amount
    sex = p.sex
    return [
        1.0,
        p.level / 20,
        float(sex == "male"),
        float(sex == "female"),
        float(p.dead),
        len(p.hand) / 10,
        strength / 20,
        float(g.active == i),
        float(winner),
        len(p.races) / 10,
        len(p.classes) / 10,
        len(p.boosts) / 10,
        len(p.equipped) / 10,
        len(p.carried) / 10,
        len(p.steeds) / 10,
        len(p.hirelings) / 10,
        len(p.curses) / 10,
        len(p.lasting) / 10,
    ]


def _slot_values(card: CardDef, copies: int) -> list[float]:
    """One fight slot's scalars."""
    level = (card.level or 0) / 20
    return [1.0, level, card.treasures / 5, card.levels / 5, float(card.undead), float(copies)]


class _Counts:
    """The card counts of one vector, as the vector index of each card counted."""

    __slots__ = ("attached", "fields", "indices")

    def __init__(self, fields: Mapping[str, list[int]], attached: Mapping[int, list[int]]) -> None:
        self.fields = fields
        """Each card field's vector index of each card instance."""
        self.attached = attached
        self.indices: list[int] = []

    def add(self, name: str, zone: Sequence[int]) -> None:
        """Count each card of `zone` and the cards attached to it in the field `name`."""
        if not zone:
            return
        at = self.fields[name]
        if self.attached and not self.attached.keys().isdisjoint(zone):
            _add_attached(self.indices, at, zone, self.attached)
        else:
            self.indices += [at[inst] for inst in zone]

    def add_card(self, name: str, inst: int) -> None:
        """Count one card alone (not what is attached to it) in the field `name`."""
        self.indices.append(self.fields[name][inst])

    def write(self, view: memoryview) -> None:
        """Write each index's count (at most MAX_COPIES) into the vector `view` shows, zeros
        at those indices (a memoryview's item assignment is several times numpy's speed)."""
        indices = self.indices
        if len(set(indices)) == len(indices):  # each index once, the common case
            for i in indices:
                view[i] = 1
            return
        tally: dict[int, int] = {}
        for i in indices:
            tally[i] = tally.get(i, 0) + 1
        for i, count in tally.items():
            view[i] = min(count, MAX_COUNT)


def _add_attached(
    indices: list[int], at: list[int], zone: Iterable[int], attached: Mapping[int, list[int]]
) -> None:
    for inst in zone:
        indices.append(at[inst])
        if inst in attached:
            _add_attached(indices, at, attached[inst], attached)


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


_OPTION_CACHE: dict[int, tuple[object, list[float]]] = {}


def _options(g: GameState) -> list[float]:
    """`option_values` once per options object (they are immutable)."""
    cached = _OPTION_CACHE.get(id(g.options))
    if cached is None or cached[0] is not g.options:
        cached = (g.options, option_values(g.options.model_dump()))
        _OPTION_CACHE[id(g.options)] = cached
    return cached[1]


def _other_zones(p: PlayerState) -> list[int]:
    return p.races + p.classes + p.boosts + p.carried + p.steeds + p.hirelings + p.curses


_LAYOUTS: dict[int, Layout] = {}


def layout_for(catalog: Catalog) -> Layout:
    """The layout over a catalog's cards (one per card count)."""
    n = len(catalog.card_ids)
    if n not in _LAYOUTS:
        _LAYOUTS[n] = Layout(n)
    return _LAYOUTS[n]


def encode_view(data: Mapping[str, Any], catalog: Catalog | None = None) -> np.ndarray:
    """The vector from a view's data (`PlayerView.data`): the reference encoder."""
    catalog = catalog or default_catalog()
    layout = layout_for(catalog)
    index = catalog.card_index
    w = _Writer(layout)
    names = [t["name"] for t in data["players"]]
    seat, n = names.index(data["player"]), len(names)

    def rel(name: str) -> int:
        return (names.index(name) - seat) % n

    def ids(cards: Iterable[Mapping[str, Any]]) -> list[int]:
        out = []
        for card in cards:
            out.append(index[card["id"]])
            out.extend(ids(card.get("attached", ())))
        return out

    _scalars(
        w,
        phase=data["phase"],
        turn=data["turn"],
        my_turn=data["active"] == data["player"],
        deciding=data["deciding"],
        decks=(data["door_deck_count"], data["treasure_deck_count"]),
        options=option_values(data["options"]),
        hand_limit=data["hand_limit"],
        run_mod=data["run_away_modifier"],
        gold=data["gold_this_turn"],
        double_sale=data["double_sale_used"],
    )
    for t in data["players"]:
        _player(
            w,
            rel(t["name"]),
            level=t["level"],
            sex=t["sex"],
            dead=t["dead"],
            hand_count=t["hand_count"],
            strength=t["strength"],
            active=t["name"] == data["active"],
            winner=t["name"] in data["winners"],
            zones=[len(t[z]) for z in ZONE_COUNTS],
            lasting=len(t["lasting"]),
        )
        carried = [card for h in t["hirelings"] for card in h["carrying"]]
        other = [t[z] for z in ("races", "classes", "boosts", "carried", "steeds")]
        hirelings = [{k: v for k, v in h.items() if k != "carrying"} for h in t["hirelings"]]
        others = [card for zone in other for card in zone] + hirelings + list(t["curses"])
        if t["name"] == data["player"]:
            w.count("my_hand", ids(data["hand"]))
            w.count("my_equipped", ids(list(t["equipped"]) + carried))
            w.count("my_other", ids(others))
        else:
            w.count(f"table_{rel(t['name'])}", ids(list(t["equipped"]) + carried + others))
    w.count("discards", ids(list(data["door_discard"]) + list(data["treasure_discard"])))
    if data["face_up"] is not None:
        w.count("face_up", ids([data["face_up"]]))
    w.count("body", ids(data["body"]))
    c = data["combat"]
    if c is not None:
        w.set("combat", 0, 1.0)
        w.set("fighter", rel(c["fighter"]), 1.0)
        if c["helper"] is not None:
            w.set("helper", rel(c["helper"]), 1.0)
        if c["asked"] is not None:
            w.set("asked", rel(c["asked"]), 1.0)
        w.set("reward", 0, c["reward"] / 5)
        w.set("run_stage", 0, float(c["stage"] == "run"))
        w.set("munchkin_total", 0, c["munchkins"]["total"] / 20)
        w.set("monster_total", 0, c["monster_side"]["total"] / 20)
        for name in c["runners"]:
            w.set("runners", rel(name), 1.0)
        for name in c["declined"]:
            w.set("declined", rel(name), 1.0)
        powers = [0] * MAX_PLAYERS
        for power in c["powers"]:
            powers[rel(power["player"])] += power["amount"]
        for k, amount in enumerate(powers):
            if amount:
                w.set("powers", k, amount / 5)
        monster_ids = [m["id"] for m in c["monsters"]]
        for slot, cid in enumerate(dict.fromkeys(monster_ids)):
            if slot < FIGHT_SLOTS:
                _slot(w, slot, catalog.defs[cid], monster_ids.count(cid))
        w.count("fight_monsters", ids(c["monsters"]))
        w.count("played_munchkins", ids(p for p in c["played"] if p["side"] == "munchkins"))
        w.count("played_monsters", ids(p for p in c["played"] if p["side"] == "monsters"))
    offer = data["offer"]
    if offer is not None:
        w.set("offer", 0, 1.0)
        w.set("offer_from", rel(offer["from"]), 1.0)
        w.set("offer_to", rel(offer["to"]), 1.0)
        w.count("offer_give", ids(offer["give"]))
        w.count("offer_take", ids(offer["take"]))
    prompt = data["prompt"]
    if prompt is not None:
        w.set("prompt", 0, 1.0)
        w.set("prompt_player", rel(prompt["player"]), 1.0)
        w.set("prompt_kind", _prompt_kind(prompt["kind"]), 1.0)
        w.set("prompt_options", 0, len(prompt["options"]) / 10)
        if "missing" in prompt:
            w.set("prompt_missing", 0, prompt["missing"] / 5)
        if prompt["about"] is not None:
            w.count("prompt_about", [index[prompt["about"]]])
    return w.array()
