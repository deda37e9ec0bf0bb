"""The reference encoder: `encode_view(data)`, the observation vector from a view's data
(`PlayerView.data`, what `munchkin.views.view(game, player)` shows that player) and nothing
else. It is what a bot that only gets `PlayerView`s uses, and what the fast encoder from the
game state (`munchkin.rl.state_encoder.Encoder`) is checked against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from munchkin.cards.schema import CardDef
from munchkin.rl.catalog import FIGHT_SLOTS, MAX_PLAYERS, Catalog, default_catalog
from munchkin.rl.layout import (
    MAX_COPIES,
    PHASES,
    SLOT_FIELDS,
    ZONE_COUNTS,
    Layout,
    layout_for,
    option_values,
    prompt_kind,
    slot_values,
)


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
    w.scal[start : start + len(SLOT_FIELDS)] = slot_values(card, copies)


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
        w.set("prompt_kind", prompt_kind(prompt["kind"]), 1.0)
        w.set("prompt_options", 0, len(prompt["options"]) / 10)
        if "missing" in prompt:
            w.set("prompt_missing", 0, prompt["missing"] / 5)
        if prompt["about"] is not None:
            w.count("prompt_about", [index[prompt["about"]]])
    return w.array()
