"""What one player may see: the only window bots, the terminal and the web client get.

A view says whether the player is asked to decide, but not who else is (that
would tell who holds a card they could respond with). It holds the player's
own hand, everything face up (every table, the
discard piles, the fight, a dead character's body, a trade on offer, a roll or a curse
awaiting answers), the
table's options and the winners, and counts of what is hidden (other hands, the decks). It never holds another
player's hand, the order of a deck or a card drawn face down by someone else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action, action_to_dict
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.engine.rules.combat import treasure_count
from munchkin.engine.rules.run_away import ESCAPE_ROLL, run_modifier
from munchkin.engine.rules.strength import character_parts, monster_def
from munchkin.engine.state import GameState, Pending, PlayerState, Prompt

_PLAIN: dict[int, tuple[CardDef, dict[str, Any]]] = {}
"""The view of each card with nothing attached and no sex of its own, by the identity of its
definition (kept, so that the identity is not reused): built once, shared by every view (which
nobody changes)."""


def _card(g: GameState, inst: int) -> dict[str, Any]:
    card = g.defs[inst]
    attached = g.attached.get(inst)
    if not attached and inst not in g.card_sex:
        known = _PLAIN.get(id(card))
        if known is None or known[0] is not card:
            if len(_PLAIN) > 10_000:  # card sets loaded from files, one after another
                _PLAIN.clear()
            known = _PLAIN[id(card)] = (card, {"id": card.id, "name": card.name, "type": card.type})
        return known[1]
    out: dict[str, Any] = {"id": card.id, "name": card.name, "type": card.type}
    if attached:
        out["attached"] = [_card(g, a) for a in attached]
    if inst in g.card_sex:
        out["sex"] = g.card_sex[inst]
    return out


def _cards(g: GameState, zone: list[int]) -> list[dict[str, Any]]:
    return [_card(g, i) for i in zone]


def _table(g: GameState, p: PlayerState) -> dict[str, Any]:
    """Everything a player has face up, and the numbers that follow from it."""
    seat = g.players.index(p)
    return {
        "name": p.name,
        "level": p.level,
        "sex": p.sex,
        "dead": p.dead,
        "hand_count": len(p.hand),
        "races": _cards(g, p.races),
        "classes": _cards(g, p.classes),
        "boosts": _cards(g, p.boosts),
        "equipped": _cards(g, p.equipped),
        "carried": _cards(g, p.carried),
        "steeds": _cards(g, p.steeds),
        "hirelings": [{**_card(g, h), "carrying": _cards(g, g.carrying.get(h, []))} for h in p.hirelings],
        "curses": _cards(g, p.curses),
        "lasting": [{"kind": k, "amount": a, "source": g.defs[s].id} for k, a, s in p.lasting],
        "strength": sum(part.amount for part in character_parts(g, seat)),
        "run_away_modifier": run_modifier(g, seat).total,
    }


def _combat(game: Game) -> dict[str, Any] | None:
    g = game.state
    c = g.combat
    if c is None:
        return None
    ours, theirs = game.explain_combat()
    return {
        "fighter": g.players[c.fighter].name,
        "helper": None if c.helper is None else g.players[c.helper].name,
        "asked": None if c.asked is None else g.players[c.asked].name,
        "reward": c.reward,
        "stage": c.stage,
        "monsters": [_monster(g, i) for i in c.monsters],
        "treasures": treasure_count(g),
        "forced": c.forced,
        "defeated_left": c.defeated_left,
        "played": [{**_card(g, i), "side": "monsters" if side else "munchkins"} for i, side in c.played],
        "munchkins": {"total": ours.total, "explain": str(ours)},
        "monster_side": {"total": theirs.total, "explain": str(theirs)},
        "runners": [g.players[i].name for i in c.runners],
        "declined": [g.players[i].name for i in c.declined],
        "powers": [
            {"player": g.players[who].name, "power": power, "amount": amount}
            for who, amount, _, power in c.mods
        ],
    }


def _monster(g: GameState, inst: int) -> dict[str, Any]:
    """A monster of the fight; a twin tells the monster it fights as (`as`)."""
    out = dict(_card(g, inst))
    fights_as = monster_def(g, inst).id
    if fights_as != out["id"]:
        out["as"] = fights_as
    return out


def _pending(g: GameState, p: Pending) -> dict[str, Any]:
    """What awaits answers, all of it face up: a die just rolled (to run from the monster
    `card`, or to steal the item `card` from `on`) or a curse just played on `on` (B9, B14,
    B15); `player` rolled or played it (None for a curse drawn face up); a roll with what is
    added to it and the total it needs."""
    roll = p.kind != "curse"
    return {
        "kind": p.kind,
        "player": None if p.seat is None else g.players[p.seat].name,
        "card": g.defs[p.card].id,
        "on": g.players[p.other].name if p.other >= 0 else None,
        "roll": p.value if roll else None,
        "modifier": p.modifier if roll else None,
        "needs": p.needs if roll else None,
        "success": p.success if roll else None,
    }


PRIVATE_PROMPTS = frozenset({"charity_to"})
"""Questions about a card only the one asked may see (the card given away as charity, B5)."""


def _prompt(g: GameState, prompt: Prompt, seat: int) -> dict[str, Any]:
    """An open question as `seat` sees it: the options only for the one asked; the card it is
    about (the monster of a re-roll, the card that takes an item), unless that card is
    private; for the Wizard's flight, the points the roll still misses (B14); for an income
    tax still owed, the gold (docs/card-format.md)."""
    asked = prompt.player == seat
    out: dict[str, Any] = {
        "player": g.players[prompt.player].name,
        "kind": prompt.kind,
        "options": list(prompt.options) if asked else [],
        "about": _prompt_source(g, prompt.data) if asked or prompt.kind not in PRIVATE_PROMPTS else None,
    }
    if prompt.kind == "flight":
        _, total, paid = prompt.data
        assert isinstance(total, int) and isinstance(paid, int)
        out["missing"] = ESCAPE_ROLL - total - max(0, paid)
    if prompt.kind == "pay_tax":
        out["owed"] = prompt.data[1]
    return out


def _prompt_source(g: GameState, data: tuple[object, ...]) -> str | None:
    """The card a question is about (the monster of a re-roll, the card that takes an item)."""
    first = data[0] if data else None
    return g.defs[first].id if isinstance(first, int) else None


@dataclass(slots=True)
class PlayerView:
    """One player's view of the game at one moment: the legal actions at once, the rest
    (`data`) built on first use, so a bot that needs only the actions pays nothing more."""

    player: str
    legal: list[Action]
    _build: Callable[[], dict[str, Any]] = field(repr=False)
    _data: dict[str, Any] | None = field(default=None, repr=False)
    _game: Game | None = field(default=None, repr=False)
    _advice: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build()
        return self._data

    @property
    def advice(self) -> dict[str, Any]:
        """For people deciding (`munchkin.advice.advise`): why a card of the hand cannot be
        played now, warnings before a play, the fight's verdict and escape chances."""
        if self._advice is None:
            from munchkin.advice import advise  # only interfaces for people ask for it

            self._advice = {} if self._game is None else advise(self._game, self.player, self.legal)
        return self._advice

    def to_dict(self) -> dict[str, Any]:
        """Plain data, ready for JSON."""
        return {**self.data, "legal": [action_to_dict(a) for a in self.legal]}


def view(game: Game, player: str, public: Callable[[], dict[str, Any]] | None = None) -> PlayerView:
    """What `player` may see now, and what they may do. Read it before the game moves on.
    `public` gives what every player sees alike at this moment (`public_part`), when the
    caller shares it between the views of one moment; else it is built for this view."""
    shared = public if public is not None else lambda: public_part(game)
    return PlayerView(player, game.legal_actions(player), lambda: _see(game, player, shared()), _game=game)


VIEW_KEYS = (
    "player",
    "turn",
    "active",
    "phase",
    "winner",
    "winners",
    "options",
    "hand",
    "players",
    "door_deck_count",
    "treasure_deck_count",
    "door_discard",
    "treasure_discard",
    "face_up",
    "body",
    "combat",
    "offer",
    "prompt",
    "pending",
    "gold_this_turn",
    "double_sale_used",
    "deciding",
    "run_away_modifier",
    "hand_limit",
)
"""A view's keys, in the order it has them."""


def public_part(game: Game, before: dict[str, Any] | None = None) -> dict[str, Any]:
    """The part of a view that is the same for every player: everything face up and the
    counts of what is hidden. With `before` (the public part of an earlier moment of the same
    game), each value equal to the one there is that very object, so that what did not change
    is told apart from what did by identity, and is not encoded again."""
    g = game.state
    part: dict[str, Any] = {
        "turn": g.turn,
        "active": g.players[g.active].name,
        "phase": g.phase,
        "winner": game.winner,
        "winners": game.winners,
        "options": game.options.model_dump(),
        "players": [_table(g, p) for p in g.players],
        "door_deck_count": len(g.door_deck),
        "treasure_deck_count": len(g.treasure_deck),
        "door_discard": _cards(g, g.door_discard),
        "treasure_discard": _cards(g, g.treasure_discard),
        "face_up": None if g.face_up is None else _card(g, g.face_up),
        "body": _cards(g, g.body),
        "combat": _combat(game),
        "offer": None
        if g.offer is None
        else {
            "from": g.players[g.offer.giver].name,
            "to": g.players[g.offer.taker].name,
            "give": _cards(g, list(g.offer.give)),
            "take": _cards(g, list(g.offer.take)),
        },
        "pending": None if g.pending is None else _pending(g, g.pending),
        "gold_this_turn": g.gold,
        "double_sale_used": g.sold_double,
    }
    if before is not None:
        for key, value in part.items():
            old = before.get(key)
            if old is not value and old == value:
                part[key] = old
    return part


def _see(game: Game, player: str, public: dict[str, Any]) -> dict[str, Any]:
    """`player`'s view: `public` (`public_part`) and what is theirs alone, in `VIEW_KEYS` order."""
    g = game.state
    seat = g.index(player)
    prompt = g.prompt
    own: dict[str, Any] = {
        "player": player,
        "hand": _cards(g, g.players[seat].hand),
        "prompt": None if prompt is None else _prompt(g, prompt, seat),
        "deciding": player in game.waiting_for(),
        "run_away_modifier": run_modifier(g, seat).total,
        "hand_limit": game.hand_limit(player),
    }
    return {key: own[key] if key in own else public[key] for key in VIEW_KEYS}


PRIVATE_EVENTS = {"charity": ("player", "to")}
"""Events whose card only some players see, when it passes to another player (`to`): the
names of the players who see it."""


def event_for(event: Event, player: str) -> Event:
    """An event as `player` may see it: a card passed face down to another player is hidden
    from the others; one discarded (`to` None) lies face up on its discard pile."""
    witnesses = PRIVATE_EVENTS.get(event.kind)
    if witnesses is None or event.data.get("to") is None:
        return event
    if player in (event.data.get(k) for k in witnesses):
        return event
    return Event(event.kind, {**event.data, "card": None})
