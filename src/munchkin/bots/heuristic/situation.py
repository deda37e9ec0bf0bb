"""One decision: the view read once (the tables, the hand, the fight on), with the card
definitions to understand it and the bot's seeded source to break ties."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from munchkin.bots.heuristic.harms import run_loss
from munchkin.bots.heuristic.seats import WIN_LEVEL, Seat, matches, monster_strength, strength, threat
from munchkin.bots.heuristic.values import card_value, item_worth, trait_score
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.views import PlayerView


@dataclass(frozen=True)
class Fight:
    """The fight on, as the view shows it."""

    fighter: Seat
    helper: Seat | None
    monsters: tuple[CardDef, ...]
    """The monsters as they fight: a twin as the monster it copies."""
    treasures: int
    lead: int
    """The munchkins' total minus the monsters' total."""
    stage: str
    reward: int
    ids: tuple[str, ...] = ()
    """The monsters' cards as played, named by `on:` (a twin by its own card)."""
    powers: tuple[int, ...] = ()
    """What each monster adds to the monsters' side: its level, enhancers and `vs` bonuses."""
    forced: bool = False
    """The helper was made to help (force_help)."""
    monster_total: int = 0
    munchkin_cards: int = 0
    """The bonuses of the one-shots played for the munchkins."""

    @property
    def fighters(self) -> list[Seat]:
        return [self.fighter] + ([self.helper] if self.helper else [])

    @property
    def levels(self) -> int:
        return sum(1 if m.type == "steed" else m.levels for m in self.monsters)

    @property
    def tie_wins(self) -> bool:
        """A Warrior on the munchkins' side, fighter or helper, wins ties (B6, B14)."""
        return any("warrior" in s.classes for s in self.fighters)

    @property
    def munchkins_win(self) -> bool:
        """Strictly stronger, or tied with a Warrior fighting or helping (B6, B14)."""
        return self.lead > 0 or (self.lead == 0 and self.tie_wins)

    @property
    def to_win(self) -> int:
        """Points the munchkins lack to win."""
        return 0 if self.munchkins_win else 1 - self.lead - self.tie_wins

    @property
    def to_lose(self) -> int:
        """Points the monsters lack to win."""
        return self.lead + self.tie_wins if self.munchkins_win else 0

    def gain(self, seat: Seat) -> int:
        """Levels a munchkin gets from winning: the fighter's kills, an Elf helper's level
        per monster (B7, B14)."""
        if seat is self.fighter:
            return self.levels
        return len(self.monsters) if seat is self.helper and "elf" in seat.races else 0

    def game_winner(self) -> Seat | None:
        """Who would reach the winning level by winning this fight, the fighter first (an
        Elf helper may win with them, B2)."""
        return next((s for s in self.fighters if s.level + self.gain(s) >= s.win_level), None)

    def game_winners(self) -> list[Seat]:
        """Everyone who would win the game by winning this fight: all of them win (B2)."""
        return [s for s in self.fighters if s.level + self.gain(s) >= s.win_level]

    def index(self, card_id: str | None) -> int | None:
        """Where a monster of the fight, named as in `on:`, stands among `monsters`."""
        return self.ids.index(card_id) if card_id in self.ids else None

    def lead_for(self, seat: Seat) -> int:
        """The lead if `seat` fought alone instead (the fight passed on): their strength and
        the one-shots played for the munchkins against the monsters, with the `vs` bonuses
        that match them instead of the fighters (H12, B16)."""
        vs_now = sum(
            vs.bonus for m in self.monsters for vs in m.vs if any(matches(vs, f) for f in self.fighters)
        )
        vs_then = sum(vs.bonus for m in self.monsters for vs in m.vs if matches(vs, seat))
        return strength(seat) + self.munchkin_cards - (self.monster_total - vs_now + vs_then)

    def lead_with(self, helper: Seat) -> int:
        """The lead once `helper` joins: their strength, less the monsters' `vs` bonuses that
        only the helper matches (H12, R20)."""
        extra = sum(
            vs.bonus
            for m in self.monsters
            for vs in m.vs
            if matches(vs, helper) and not matches(vs, self.fighter)
        )
        return self.lead + strength(helper) - extra


def read_fight(combat: Mapping[str, Any], seats: Mapping[str, Seat], defs: Mapping[str, CardDef]) -> Fight:
    """The view's fight: each monster as it fights (a twin as its original, with the original's
    enhancers too) and what it adds; the treasures at stake as the engine counts them (B7, S9)."""
    entries = combat["monsters"]
    fighters = [seats[combat["fighter"]]] + ([seats[combat["helper"]]] if combat["helper"] else [])
    monsters = tuple(defs[m.get("as", m["id"])] for m in entries)
    own = [sum(defs[a["id"]].bonus for a in m.get("attached", ())) for m in entries]
    copied = {m["id"]: bonus for m, bonus in reversed(list(zip(entries, own, strict=True)))}
    powers = tuple(
        monster_strength(card, fighters) + bonus + (copied.get(m["as"], 0) if "as" in m else 0)
        for card, m, bonus in zip(monsters, entries, own, strict=True)
    )
    return Fight(
        fighter=fighters[0],
        helper=fighters[1] if len(fighters) > 1 else None,
        monsters=monsters,
        treasures=combat["treasures"],
        lead=combat["munchkins"]["total"] - combat["monster_side"]["total"],
        stage=combat["stage"],
        reward=combat["reward"],
        ids=tuple(m["id"] for m in entries),
        powers=powers,
        forced=combat["forced"],
        monster_total=combat["monster_side"]["total"],
        munchkin_cards=sum(defs[c["id"]].bonus for c in combat["played"] if c["side"] == "munchkins"),
    )


@dataclass
class Memory:
    """What the bot remembers between decisions: the players already asked to help in this
    turn's fight (turn, names)."""

    asked_turn: int = -1
    asked: set[str] = field(default_factory=set)

    def asked_now(self, turn: int) -> set[str]:
        """The players asked to help in this turn's fight."""
        if self.asked_turn != turn:
            self.asked_turn, self.asked = turn, set()
        return self.asked


class Situation:
    """One decision: the view read once, with the card definitions to understand it."""

    def __init__(
        self, view: PlayerView, defs: Mapping[str, CardDef], rng: random.Random, memory: Memory
    ) -> None:
        self.view = view
        self.data = view.data
        self.defs = defs
        self.rng = rng
        self.memory = memory
        self.options: Mapping[str, Any] = self.data.get("options") or {}
        win_level = self.options.get("win_level", WIN_LEVEL)
        self.seats = {t["name"]: Seat(t, defs, win_level) for t in self.data["players"]}
        self.me = self.seats[view.player]
        self.hand = [defs[c["id"]] for c in self.data["hand"]]
        combat = self.data["combat"]
        self.fight = read_fight(combat, self.seats, defs) if combat else None

    def legal(self, verb: str, **fields: object) -> list[Action]:
        """The legal actions of a verb whose fields have these values."""
        actions = self._by_verb.get(verb, ())
        if not fields:
            return list(actions)
        return [a for a in actions if all(getattr(a, k) == v for k, v in fields.items())]

    @cached_property
    def _by_verb(self) -> dict[str, list[Action]]:
        """The legal actions by verb, in the view's order."""
        by_verb: dict[str, list[Action]] = {}
        for a in self.view.legal:
            by_verb.setdefault(a.verb, []).append(a)
        return by_verb

    def best(self, actions: Iterable[Action], score: Callable[[Action], float]) -> Action | None:
        """The highest-scoring action; the seeded source breaks ties."""
        scored = [(score(a), a) for a in actions]
        if not scored:
            return None
        top = max(value for value, _ in scored)
        return self.rng.choice([a for value, a in scored if value == top])

    def card(self, card_id: str | None) -> CardDef:
        return self.defs[card_id or ""]

    def value(self, card_id: str | None) -> float:
        return card_value(self.card(card_id), self.me)

    def in_hand(self, card_id: str | None) -> bool:
        return any(c.id == card_id for c in self.hand)

    def worth_in_play(self, card_id: str) -> float:
        """A card in play, a race or class, or else a hand card, as worth to the bot."""
        worth = {c.id: item_worth(c, in_use) for c, in_use in self.me.in_play()}
        worth |= {c.id: trait_score(c, ()) for c in self.me.cards("races") + self.me.cards("classes")}
        if card_id in worth:
            return worth[card_id]
        return self.value(card_id) if card_id in self.defs else 0.0

    def least_valuable(self, options: Iterable[Action]) -> Action | None:
        """Lose, take off or give up the card worth least to the bot."""
        return self.best(options, lambda a: -self.worth_in_play(a.arg or ""))

    @cached_property
    def hand_value(self) -> float:
        return sum(card_value(c, self.me) for c in self.hand)

    @cached_property
    def opponents(self) -> list[Seat]:
        return [s for s in self.seats.values() if s is not self.me and not s.dead]

    @cached_property
    def leader(self) -> Seat | None:
        """The opponent closest to winning."""
        return max(self.opponents, key=lambda s: (threat(s), s.name), default=None)

    def spite(self, seat: Seat) -> float:
        """How much the bot gains by what hurts another player: all of it for the leader, half
        for an opponent level with or above the bot, nothing for those behind."""
        if seat is self.me:
            return -1.0
        if seat is self.leader:
            return 1.0
        return 0.5 if seat.level >= self.me.level else 0.0

    def dangerous(self, seat: Seat, gain: int) -> bool:
        """Whether `gain` levels would bring an opponent too close to winning, or level with
        the bot or past it."""
        level = seat.level + gain
        if gain <= 0 or seat is self.me:
            return False
        return level >= seat.win_level - 2 or level >= self.me.level

    def fight_window(self) -> Fight | None:
        """The fight, while the bot may play into it, resolve it or pass."""
        fight = self.fight
        open_to_me = self.legal("resolve_combat") or self.legal("pass")
        return fight if fight is not None and fight.stage == "fight" and open_to_me else None

    def run_loss(self, modifier_change: int = 0) -> float:
        """What running from this fight is expected to cost the bot."""
        assert self.fight is not None
        reroll = "halfling" in self.me.races and bool(self.hand)
        modifier = self.data["run_away_modifier"] + modifier_change
        return run_loss(self.fight.monsters, self.me, modifier, self.hand_value, reroll)


Rule = Callable[[Situation], Action | None]
"""One of the bot's rules: the action it takes in this situation, or None to leave it to the next."""
