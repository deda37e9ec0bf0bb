"""A game state as plain JSON-able data: for saving, comparing and replay checks."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import astuple
from typing import Any

from munchkin.engine.state import COMBAT_FIELDS, PLAYER_ZONES, GameState


def state_to_dict(g: GameState) -> dict[str, Any]:
    """Everything that decides what happens next, with card instances as integers."""
    before, between, after = _changing(g)
    cards = [d.id for d in g.defs]
    return {**before, "cards": cards, **between, "options": g.options.changed(), **after}


def _changing(g: GameState) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """`state_to_dict` but for what never changes during a game (the cards, the options), in
    three parts: the keys that sort before "cards", those between "cards" and "options",
    and those after. (The state's own lists and tuples, as JSON reads them.)"""
    c = g.combat
    before = {
        "active": g.active,
        "attached": {str(k): v for k, v in sorted(g.attached.items())},
        "body": g.body,
        "card_sex": {str(k): v for k, v in sorted(g.card_sex.items())},
    }
    between = {
        "carrying": {str(k): v for k, v in sorted(g.carrying.items())},
        "charity_given": g.charity_given,
        "combat": None if c is None else {slot: getattr(c, slot) for slot in COMBAT_FIELDS},
        "dice": (g.dice.state, g.dice.forced),
        "door_deck": g.door_deck,
        "door_discard": g.door_discard,
        "face_up": g.face_up,
        "first_door_kicked": g.first_door_kicked,
        "fought": g.fought,
        "gold": g.gold,
        "offer": None if g.offer is None else (g.offer.giver, g.offer.taker, g.offer.give, g.offer.take),
    }
    after = {
        "pending": None if g.pending is None else astuple(g.pending),
        "phase": g.phase,
        "players": [
            {
                "name": p.name,
                "sex": p.sex,
                "level": p.level,
                "dead": p.dead,
                "awaiting_cards": p.awaiting_cards,
                "lasting": p.lasting,
                **{zone: getattr(p, zone) for zone in PLAYER_ZONES},
            }
            for p in g.players
        ],
        "prompt": None
        if g.prompt is None
        else {
            "player": g.prompt.player,
            "kind": g.prompt.kind,
            "options": g.prompt.options,
            "data": [str(x) for x in g.prompt.data],
        },
        "setup_passed": g.setup_passed,
        "sold_double": g.sold_double,
        "tasks": [repr(t) for t in g.tasks],
        "treasure_deck": g.treasure_deck,
        "treasure_discard": g.treasure_discard,
        "turn": g.turn,
        "winners": g.winners,
    }
    return before, between, after


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""`json.dumps(..., sort_keys=True, separators=(",", ":"))`, with its encoder made once."""
_FIXED: dict[int, tuple[object, str]] = {}
"""The JSON of each game's cards and of each set of options, which never change during a
game, by the identity of the object they come from (kept, so that it is not reused)."""


def _fixed(key: object, make: Callable[[], object]) -> str:
    known = _FIXED.get(id(key))
    if known is None or known[0] is not key:
        if len(_FIXED) > 1000:
            _FIXED.clear()
        known = _FIXED[id(key)] = (key, _ENCODE(make()))
    return known[1]


def fingerprint(g: GameState) -> str:
    """A canonical string of the whole state: equal states give equal strings.

    It is `json.dumps(state_to_dict(g), sort_keys=True, separators=(",", ":"))`, written in
    three parts around the JSON of the cards and of the options, made once per game."""
    before, between, after = _changing(g)
    cards = _fixed(g.defs, lambda: [d.id for d in g.defs])
    options = _fixed(g.options, g.options.changed)
    return (
        f'{_ENCODE(before)[:-1]},"cards":{cards},{_ENCODE(between)[1:-1]},'
        f'"options":{options},{_ENCODE(after)[1:]}'
    )


def snapshot(g: GameState) -> tuple[object, ...]:
    """The whole state as nested tuples: a cheaper `fingerprint` for equality checks."""
    c = g.combat
    return (
        tuple(
            (
                p.name,
                p.sex,
                p.level,
                p.dead,
                p.awaiting_cards,
                tuple(p.lasting),
                *(tuple(getattr(p, z)) for z in PLAYER_ZONES),
            )
            for p in g.players
        ),
        (
            g.active,
            g.turn,
            g.phase,
            g.face_up,
            g.prompt,
            g.offer,
            g.pending,
            g.winners,
            g.gold,
            g.charity_given,
        ),
        (g.first_door_kicked, g.fought, g.sold_double, tuple(g.setup_passed)),
        (tuple(g.door_deck), tuple(g.treasure_deck), tuple(g.door_discard), tuple(g.treasure_discard)),
        tuple(sorted((k, tuple(v)) for k, v in g.carrying.items())),
        tuple(sorted((k, tuple(v)) for k, v in g.attached.items())),
        tuple(sorted(g.card_sex.items())),
        None
        if c is None
        else tuple(tuple(v) if isinstance(v, list) else v for v in (getattr(c, s) for s in COMBAT_FIELDS)),
        tuple(g.body),
        tuple(g.tasks),
        (g.dice.state, g.dice.forced),
        g.options,
    )
