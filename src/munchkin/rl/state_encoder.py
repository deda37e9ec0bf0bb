"""The fast encoder: `Encoder.encode(game, seat)`, the vector `encode_view` builds from
that player's view, straight from the game state. It reads only the parts of the state the view
shows, without building the view's dictionaries (about five times faster than building the
view and encoding it), and keeps what does not change from one call to the next: each card
instance's vector index per card field (once per game), the counts of the discard piles (which
mostly only grow), the table options' values (once per options object).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from munchkin.engine.game import Game
from munchkin.engine.rules.character import hand_limit
from munchkin.engine.rules.run_away import ESCAPE_ROLL, run_modifier
from munchkin.engine.rules.strength import character_parts, monster_side, munchkin_side
from munchkin.engine.state import Combat, GameState, Offer, PlayerState, Prompt
from munchkin.rl.catalog import FIGHT_SLOTS, MAX_PLAYERS, Catalog, default_catalog, fight_slots
from munchkin.rl.layout import (
    MAX_COPIES,
    MAX_COUNT,
    PHASES,
    PLAYER_FIELDS,
    SLOT_FIELDS,
    Layout,
    layout_for,
    option_values,
    prompt_kind,
    slot_values,
)
from munchkin.views import PRIVATE_PROMPTS


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
                values = slot_values(self.catalog.defs[cid], ids.count(cid))
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
        block.set("prompt_kind", 1.0, prompt_kind(prompt.kind))
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
_ABSENT = [[0.0] * (len(PLAYER_FIELDS) * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
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
    """One player's block, as `encode_view` writes it from a view."""
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
