"""A game state as plain JSON-able data: for saving, comparing and replay checks."""

from __future__ import annotations

import json
from dataclasses import astuple
from typing import Any

from munchkin.engine.state import COMBAT_FIELDS, PLAYER_ZONES, GameState


def state_to_dict(g: GameState) -> dict[str, Any]:
    """Everything that decides what happens next, with card instances as integers."""
    c = g.combat
    return {
        "cards": [d.id for d in g.defs],
        "players": [
            {
                "name": p.name,
                "sex": p.sex,
                "level": p.level,
                "dead": p.dead,
                "awaiting_cards": p.awaiting_cards,
                "lasting": [list(x) for x in p.lasting],
                **{zone: list(getattr(p, zone)) for zone in PLAYER_ZONES},
            }
            for p in g.players
        ],
        "active": g.active,
        "turn": g.turn,
        "phase": g.phase,
        "door_deck": g.door_deck,
        "treasure_deck": g.treasure_deck,
        "door_discard": g.door_discard,
        "treasure_discard": g.treasure_discard,
        "carrying": {str(k): v for k, v in sorted(g.carrying.items())},
        "attached": {str(k): v for k, v in sorted(g.attached.items())},
        "card_sex": {str(k): v for k, v in sorted(g.card_sex.items())},
        "combat": None if c is None else {slot: getattr(c, slot) for slot in sorted(COMBAT_FIELDS)},
        "prompt": None
        if g.prompt is None
        else {
            "player": g.prompt.player,
            "kind": g.prompt.kind,
            "options": list(g.prompt.options),
            "data": [str(x) for x in g.prompt.data],
        },
        "offer": None
        if g.offer is None
        else [g.offer.giver, g.offer.taker, list(g.offer.give), list(g.offer.take)],
        "pending": None if g.pending is None else list(astuple(g.pending)),
        "face_up": g.face_up,
        "body": g.body,
        "tasks": [repr(t) for t in g.tasks],
        "first_door_kicked": g.first_door_kicked,
        "fought": g.fought,
        "sold_double": g.sold_double,
        "gold": g.gold,
        "charity_given": [list(x) for x in g.charity_given],
        "setup_passed": g.setup_passed,
        "winners": list(g.winners),
        "options": g.options.changed(),
        "dice": [g.dice.state, None if g.dice.forced is None else list(g.dice.forced)],
    }


def fingerprint(g: GameState) -> str:
    """A canonical string of the whole state: equal states give equal strings."""
    return json.dumps(state_to_dict(g), sort_keys=True, separators=(",", ":"))


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
