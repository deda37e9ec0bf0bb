"""Worlds a seat cannot tell from the true game: built from its view alone (issue 16).

A search bot never holds the game state. From its `PlayerView` (its own hand, everything
face up, the counts of what is hidden) and its legal actions, `WorldSampler` builds a
*template* with the engine's position builder (`munchkin.engine.setup.build`): the tables,
the own hand, the discard piles and the cards face up as the view shows them, and every
card the seat has not seen (the catalog's copies less the cards in sight) dealt to the
other hands and the decks, as many as the view counts. The fight, the question open, the
roll or curse awaiting answers, the trade offered and the turn's numbers are then set as
the view tells them. Each `sample` copies the template and deals the unseen cards again at
random (as `munchkin.engine.invariants.hidden_redrawn` redraws hidden cards, but from the
view: uniformly over the hands' and decks' contents), with new dice: a world consistent
with the view, built in the time of a copy.

What the view does not tell (who passed in a fight, whether the fighter said to resolve,
what is still queued in a resolution, a question's inner details) is read from the seat's
own legal actions where they show it, and else set to the plain case: it is the seat's
uncertainty, and never looked up in the true game. `tests/test_search_bot.py` checks that a
sampled world gives the seat the same view and the same legal actions as the true game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from munchkin.bots.search_sight import all_cards, placed_after, unseen_ids, visible_ids
from munchkin.cards.schema import CardDef
from munchkin.engine.dice import Dice
from munchkin.engine.game import Game
from munchkin.engine.options import TableOptions
from munchkin.engine.rules.character import is_class
from munchkin.engine.rules.combat import monster_treasures
from munchkin.engine.rules.turn import charity_takers
from munchkin.engine.setup import HirelingSetup, PlayerSetup, Position, build
from munchkin.engine.state import Combat, GameState, Offer, Pending, Prompt
from munchkin.views import PlayerView

Card = dict[str, Any]
"""A card as a view shows it: id, name, type, and what is attached to it."""
SOURCED_MODS = ("double", "run bonus")
"""Fight modifiers whose source is a card played into the fight (the others are powers,
fuelled by cards now on a discard pile)."""


class WorldSampler:
    """Worlds consistent with one view: `sample(rng)` gives a new one each time."""

    def __init__(self, view: PlayerView, cards: Sequence[CardDef], rng: random.Random) -> None:
        self.player = view.player
        self.legal = list(view.legal)
        data = view.data
        self.data = data
        catalog = {card.id: card for card in cards}
        self.catalog: Mapping[str, CardDef] = catalog
        seats = [p["name"] for p in data["players"]]
        self.seat = seats.index(self.player)
        unseen = unseen_ids(cards, visible_ids(data))
        self.template = self._build(unseen, rng)
        g = self.template.state
        self.hidden_hands = [i for i in range(len(seats)) if i != self.seat]
        self.counts = [len(g.players[i].hand) for i in self.hidden_hands]
        self.hidden = [inst for i in self.hidden_hands for inst in g.players[i].hand]
        self.hidden += g.door_deck + g.treasure_deck
        self.doors = [inst for inst in self.hidden if g.defs[inst].deck == "door"]
        self.treasures = [inst for inst in self.hidden if g.defs[inst].deck != "door"]
        self.door_count, self.treasure_count = len(g.door_deck), len(g.treasure_deck)
        prompt = g.prompt
        self.others_charity = (
            prompt if prompt and prompt.player != self.seat and prompt.kind in CHARITY else None
        )

    # -- sampling ------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Game:
        """A copy of the template with the unseen cards dealt again and new dice."""
        world = self.template.copy()
        self.redeal(world.state, rng)
        return world

    def redeal(self, g: GameState, rng: random.Random) -> None:
        """Deal the unseen cards again: each deck gets as many of its own cards as it holds,
        the hands share the rest, every arrangement as likely."""
        doors, treasures = self.doors[:], self.treasures[:]
        rng.shuffle(doors)
        rng.shuffle(treasures)
        g.door_deck = doors[: self.door_count]
        g.treasure_deck = treasures[: self.treasure_count]
        rest = doors[self.door_count :] + treasures[self.treasure_count :]
        rng.shuffle(rest)
        start = 0
        for seat, count in zip(self.hidden_hands, self.counts, strict=True):
            g.players[seat].hand = rest[start : start + count]
            start += count
        g.dice = Dice(rng.getrandbits(64))
        if self.others_charity is not None:
            g.prompt = _charity(g, self.others_charity)

    # -- the template ----------------------------------------------------------------------

    def _build(self, unseen: list[str], rng: random.Random) -> Game:
        """The position the view shows, the unseen cards dealt once, then the turn's state."""
        data = self.data
        rng.shuffle(unseen)
        doors = [c for c in unseen if self.catalog[c].deck == "door"]
        treasures = [c for c in unseen if self.catalog[c].deck != "door"]
        door_count, treasure_count = data["door_deck_count"], data["treasure_deck_count"]
        rest = doors[door_count:] + treasures[treasure_count:]
        hands: dict[int, list[str]] = {}
        for i, p in enumerate(data["players"]):
            if i != self.seat:
                hands[i], rest = rest[: p["hand_count"]], rest[p["hand_count"] :]
        extras = placed_after(data)
        position = Position(
            players=[
                _player_setup(p, data["hand"], hands, i, self.seat) for i, p in enumerate(data["players"])
            ],
            active=data["active"],
            door_deck=doors[:door_count],
            treasure_deck=treasures[:treasure_count],
            door_discard=[c["id"] for c in data["door_discard"]] + [c["id"] for c in extras],
            treasure_discard=[c["id"] for c in data["treasure_discard"]],
            first_door_kicked=not (
                data["phase"] == "setup" or (data["turn"] == 1 and data["phase"] == "start")
            ),
            options=TableOptions(**data["options"]),
        )
        game = build(self.catalog, position, seed=rng.getrandbits(63))
        self._set_turn(game.state, extras)
        return game

    def _set_turn(self, g: GameState, extras: list[Card]) -> None:
        """Everything beyond the position: attachments, the fight, the question, the roll or
        curse pending, the offer, the turn's numbers."""
        data = self.data
        cut = len(g.door_discard) - len(extras)
        spare = dict(zip(map(id, extras), g.door_discard[cut:], strict=True))
        g.door_discard = g.door_discard[:cut]
        by_view: dict[int, int] = {}  # id() of a view's card dict -> its instance

        def take(card: Card) -> int:
            return spare[id(card)]

        for p, table in zip(g.players, data["players"], strict=True):
            zones = {
                "races": p.races,
                "classes": p.classes,
                "boosts": p.boosts,
                "equipped": p.equipped,
                "carried": p.carried,
                "steeds": p.steeds,
                "hirelings": p.hirelings,
                "curses": p.curses,
            }
            for zone, insts in zones.items():
                for card, inst in zip(table[zone], insts, strict=True):
                    by_view[id(card)] = inst
                    if zone == "hirelings" and card["carrying"]:
                        for carried, c_inst in zip(card["carrying"], g.carrying[inst], strict=True):
                            by_view[id(carried)] = c_inst
            p.dead = table["dead"]
            p.lasting = [
                (entry["kind"], entry["amount"], _source(g, p, entry["source"])) for entry in table["lasting"]
            ]
        me = g.players[self.seat]
        for card, inst in zip(data["hand"], me.hand, strict=True):
            by_view[id(card)] = inst
        for pile, insts in (("door_discard", g.door_discard), ("treasure_discard", g.treasure_discard)):
            for card, inst in zip(data[pile], insts, strict=True):
                by_view[id(card)] = inst
        for card in extras:
            by_view[id(card)] = take(card)
        for card in all_cards(data):
            placed = by_view.get(id(card))
            if placed is None:
                continue
            if card.get("attached"):
                g.attached[placed] = [by_view[id(a)] for a in card["attached"]]
            if "sex" in card:
                g.card_sex[placed] = card["sex"]
        g.turn, g.phase = data["turn"], data["phase"]
        g.gold, g.sold_double = data["gold_this_turn"], data["double_sale_used"]
        g.winners = tuple(self._seat_of(name) for name in data["winners"])
        g.face_up = None if data["face_up"] is None else by_view[id(data["face_up"])]
        g.body = [by_view[id(c)] for c in data["body"]]
        g.fought = data["combat"] is not None or (
            data["phase"] == "after_door" and not self._legal("loot_room")
        )
        if data["phase"] == "setup":
            g.setup_passed = [i != self.seat or not data["deciding"] for i in range(len(g.players))]
        if data["combat"] is not None:
            g.combat = self._combat(g, data["combat"], by_view)
            # The treasures of monsters sent away with them are counted in the fight's.
            shown = sum(monster_treasures(g, inst) for inst in g.combat.monsters)
            g.combat.gone_treasures = data["combat"]["treasures"] - shown
        if data["offer"] is not None:
            offer = data["offer"]
            g.offer = Offer(
                self._seat_of(offer["from"]),
                self._seat_of(offer["to"]),
                tuple(_instances(g, g.players[self._seat_of(offer["from"])], offer["give"])),
                tuple(_instances(g, g.players[self._seat_of(offer["to"])], offer["take"])),
            )
        if data["pending"] is not None:
            g.pending = self._pending(g, data["pending"], by_view, extras)
        if data["prompt"] is not None:
            g.prompt = self._prompt(g, data["prompt"])

    def _combat(self, g: GameState, view: dict[str, Any], by_view: dict[int, int]) -> Combat:
        c = Combat(self._seat_of(view["fighter"]), len(g.players))
        c.helper = None if view["helper"] is None else self._seat_of(view["helper"])
        c.asked = None if view["asked"] is None else self._seat_of(view["asked"])
        c.reward, c.stage, c.forced = view["reward"], view["stage"], view["forced"]
        c.defeated_left = view["defeated_left"]
        c.monsters = [by_view[id(m)] for m in view["monsters"]]
        c.played = [(by_view[id(card)], int(card["side"] == "monsters")) for card in view["played"]]
        c.runners = [self._seat_of(name) for name in view["runners"]]
        c.declined = tuple(self._seat_of(name) for name in view["declined"])
        twins = []
        for m, inst in zip(view["monsters"], c.monsters, strict=True):
            if "as" in m:
                original = next(
                    (
                        o
                        for o, other in zip(view["monsters"], c.monsters, strict=True)
                        if other != inst and o["id"] == m["as"]
                    ),
                    None,
                )
                # The original may have left the fight since (sent away): any copy in sight.
                copied = by_view[id(original)] if original is not None else _find_anywhere(g, m["as"])
                if copied is not None:
                    twins.append((inst, copied))
        c.twins = tuple(twins)
        played = [inst for inst, _ in c.played]
        mods = []
        for power in view["powers"]:
            sourced = power["power"] in SOURCED_MODS and played
            source = (
                played[-1] if sourced else (g.door_discard or g.treasure_discard or played or c.monsters)[-1]
            )
            mods.append((self._seat_of(power["player"]), power["amount"], source, power["power"]))
        c.mods = mods
        c.backstabs = self._backstabs(g, c)
        # What the view does not say: this seat passed when it is not asked; the fighter said
        # to resolve when it may not say so any more.
        deciding = self.data["deciding"]
        if (
            c.stage == "fight"
            and self.seat != c.fighter
            and self.data["pending"] is None
            and self.data["prompt"] is None
        ):
            c.passed[self.seat] = not deciding
        if self.seat == c.fighter and c.stage == "fight" and c.asked is None:
            c.ready = (
                not self._legal("resolve_combat")
                and self.data["pending"] is None
                and self.data["prompt"] is None
            )
        return c

    def _backstabs(self, g: GameState, c: Combat) -> tuple[tuple[int, int], ...]:
        """Who backstabbed whom: the view shows only the victims. This seat did, when it is a
        Thief and may not backstab that victim now; else another Thief (the seat cannot tell
        which)."""
        mine = {a.target for a in self.legal if a.verb == "backstab"}
        done: list[tuple[int, int]] = []
        for victim, _, _, power in c.mods:
            if power != "backstab":
                continue
            thieves = [
                i
                for i, p in enumerate(g.players)
                if i != victim and (i, victim) not in done and is_class(g, p, "thief")
            ]
            if self.seat in thieves and g.players[victim].name not in mine:
                done.append((self.seat, victim))
            elif others := [i for i in thieves if i != self.seat]:
                done.append((others[0], victim))
        return tuple(done)

    def _pending(
        self, g: GameState, view: dict[str, Any], by_view: dict[int, int], extras: list[Card]
    ) -> Pending:
        seat = None if view["player"] is None else self._seat_of(view["player"])
        other = -1 if view["on"] is None else self._seat_of(view["on"])
        if view["kind"] == "curse":
            card = next(by_view[id(c)] for c in extras if c.get("pending"))
        elif view["kind"] == "run":
            card = next(
                (
                    inst
                    for inst in (g.combat.monsters if g.combat else [])
                    if g.cards[inst].id == view["card"]
                ),
                0,
            )
            g.tasks = [("ran", seat)]
        else:
            victim = g.players[other]
            card = next(
                iter(_instances(g, victim, [{"id": view["card"]}], zones=("equipped", "carried", "steeds"))),
                0,
            )
        passed = () if self.data["deciding"] else (self.seat,)
        if view["kind"] == "curse":
            return Pending("curse", seat, card, other, -1, 0, 0, passed)
        return Pending(view["kind"], seat, card, other, view["roll"], view["modifier"], view["needs"], passed)

    def _prompt(self, g: GameState, view: dict[str, Any]) -> Prompt:
        seat = self._seat_of(view["player"])
        options = tuple(view["options"])
        if not options and view["kind"] == "loot":
            options = tuple(g.distinct_ids(g.body))  # the body is face up
        options = options or ("decline",)
        about = view.get("about")
        source = _find_anywhere(g, about) if about else None
        kind = view["kind"]
        data: tuple[object, ...] = ()
        if kind in ("reroll",):
            data = (source,)
        elif kind == "flight":
            data = (source, 5 - view["missing"], 0)
        elif kind == "charity_to":
            data = (_find_anywhere(g, about, g.players[seat].hand) if about else 0,)
        elif kind == "tax_item":
            data = (source,)
        elif kind == "pay_tax":
            data = (source, view["owed"])
        elif kind in (
            "take_off",
            "get_rid",
            "keep_race",
            "keep_class",
            "charity",
            "loot",
            "set_die",
            "resurrect",
        ):
            data = ()
        elif kind == "half_trait":
            data = (source, None, None)
        else:
            data = (source, None)
        return Prompt(seat, kind, options, data)

    def _seat_of(self, name: str) -> int:
        return [p["name"] for p in self.data["players"]].index(name)

    def _legal(self, verb: str) -> bool:
        return any(a.verb == verb for a in self.legal)


CHARITY = ("charity", "charity_to")
"""Questions about the asked seat's hand (B5): for another seat, made again from each
world's deal."""


def _charity(g: GameState, prompt: Prompt) -> Prompt:
    """Another seat's charity question as this world's deal makes it: the cards of its hand
    to give, or who may take the card it gives (a card of its hand)."""
    hand = g.players[prompt.player].hand
    if prompt.kind == "charity":
        return Prompt(prompt.player, "charity", tuple(g.distinct_ids(hand)) or ("decline",))
    takers = tuple(g.players[i].name for i in charity_takers(g, prompt.player))
    return Prompt(prompt.player, "charity_to", takers or ("decline",), (hand[0] if hand else 0,))


def _player_setup(
    table: dict[str, Any], own_hand: list[Card], hands: dict[int, list[str]], i: int, seat: int
) -> PlayerSetup:
    def ids(zone: str) -> list[str]:
        return [card["id"] for card in table[zone]]

    return PlayerSetup(
        name=table["name"],
        level=table["level"],
        sex=table["sex"],
        race=ids("races"),
        class_=ids("classes"),
        hand=[card["id"] for card in own_hand] if i == seat else hands[i],
        equipped=ids("equipped"),
        carried=ids("carried"),
        steeds=ids("steeds"),
        hirelings=[HirelingSetup(h["id"], [c["id"] for c in h["carrying"]]) for h in table["hirelings"]],
        curses=ids("curses"),
        boosts=ids("boosts"),
    )


def _source(g: GameState, p: Any, card_id: str) -> int:
    """The instance a lasting modifier comes from: the player's own curse of that id, else
    any card of that id in sight."""
    found = g.find(p.curses, card_id)
    return found if found is not None else (_find_anywhere(g, card_id) or 0)


def _find_anywhere(g: GameState, card_id: str | None, zone: Sequence[int] | None = None) -> int | None:
    if card_id is None:
        return None
    if zone is not None:
        found = g.find(list(zone), card_id)
        if found is not None:
            return found
    for _, insts in g.zones():
        found = g.find(insts, card_id)
        if found is not None:
            return found
    return next((i for i, d in enumerate(g.defs) if d.id == card_id), None)


def _instances(
    g: GameState,
    p: Any,
    cards: list[Card],
    zones: Sequence[str] = ("hand", "equipped", "carried", "steeds", "hirelings", "races", "classes"),
) -> list[int]:
    """Instances of a player's cards, by id, each used once."""
    out: list[int] = []
    for card in cards:
        for zone in zones:
            inst = next((i for i in getattr(p, zone) if g.cards[i].id == card["id"] and i not in out), None)
            if inst is not None:
                out.append(inst)
                break
        else:
            inst = next(
                (
                    i
                    for insts in g.carrying.values()
                    for i in insts
                    if g.cards[i].id == card["id"] and i not in out
                ),
                None,
            )
            if inst is not None:
                out.append(inst)
    return out
