"""The game state: players, piles, links between cards. Plain data, cheap to copy.

A card in a game is an *instance*: an integer index into `GameState.defs`, the
shared, immutable card definitions. Every instance is in exactly one zone.
Decks keep their top card at the END of the list (a pop draws it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from munchkin.cards.schema import CardDef
from munchkin.engine.card import cards_of
from munchkin.engine.dice import Dice
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions

PLAYER_ZONES = (
    "hand",
    "races",
    "classes",
    "boosts",
    "equipped",
    "carried",
    "steeds",
    "hirelings",
    "curses",
)
IN_PLAY_ZONES = ("equipped", "carried", "steeds", "hirelings")


class PlayerState:
    """One character and the cards in front of (and behind) them."""

    __slots__ = (
        "awaiting_cards",
        "boosts",
        "carried",
        "classes",
        "curses",
        "dead",
        "equipped",
        "hand",
        "hirelings",
        "lasting",
        "level",
        "name",
        "races",
        "sex",
        "steeds",
    )

    def __new__(cls, *args: object, **kwargs: object) -> PlayerState:
        """A bare instance, for `copy` (the compiled class needs a `__new__` of its own)."""
        return object.__new__(cls)

    def __init__(self, name: str, sex: str = "male", level: int = 1) -> None:
        self.name = name
        self.sex = sex
        self.level = level
        self.dead = False
        self.awaiting_cards = False  # came back from death; 4 + 4 cards on the next own turn (B10)
        self.hand: list[int] = []
        self.races: list[int] = []
        self.classes: list[int] = []
        self.boosts: list[int] = []  # Half-Breed, Super Munchkin
        self.equipped: list[int] = []  # items in use
        self.carried: list[int] = []  # items in play, not in use
        self.steeds: list[int] = []
        self.hirelings: list[int] = []
        self.curses: list[int] = []  # lasting curses in front of the player
        self.lasting: list[tuple[str, int, int]] = []  # (kind, amount, source instance)

    def copy(self) -> PlayerState:
        c = PlayerState.__new__(PlayerState)
        c.name, c.sex, c.level, c.dead = self.name, self.sex, self.level, self.dead
        c.awaiting_cards = self.awaiting_cards
        c.hand, c.races, c.classes = self.hand[:], self.races[:], self.classes[:]
        c.boosts, c.equipped, c.carried = self.boosts[:], self.equipped[:], self.carried[:]
        c.steeds, c.hirelings, c.curses = self.steeds[:], self.hirelings[:], self.curses[:]
        c.lasting = self.lasting[:]
        return c

    def zones(self) -> Iterator[list[int]]:
        """Every zone of this player, hand included."""
        for name in PLAYER_ZONES:
            yield getattr(self, name)


COMBAT_FIELDS = (
    "asked",
    "backstabs",
    "bribe",
    "declined",
    "defeated_left",
    "escaped",
    "fighter",
    "forced",
    "gone_treasures",
    "helper",
    "mods",
    "monsters",
    "passed",
    "played",
    "ready",
    "rerolled",
    "reward",
    "runners",
    "stage",
    "twins",
)
"""The attributes of a fight, in order (serialize.py reads them: compiled classes have no
`__slots__` to list)."""


class Combat:
    """A fight in progress (B6-B9, B16)."""

    __slots__ = COMBAT_FIELDS

    def __new__(cls, *args: object, **kwargs: object) -> Combat:
        """A bare instance, for `copy` (the compiled class needs a `__new__` of its own)."""
        return object.__new__(cls)

    def __init__(self, fighter: int, n_players: int) -> None:
        self.fighter = fighter
        self.helper: int | None = None
        self.asked: int | None = None  # a help request awaiting an answer
        self.reward = 0  # treasures promised to the helper (B8)
        self.bribe: tuple[int, ...] = ()  # items in play promised to the helper (B8)
        self.declined: tuple[int, ...] = ()  # players who declined to help in this fight (R31)
        self.monsters: list[int] = []
        self.played: list[tuple[int, int]] = []  # one-shots: (instance, side 0 munchkins/1 monsters)
        self.mods: list[tuple[int, int, int, str]] = []  # (player, amount, source, power)
        self.passed = [False] * n_players
        self.ready = False
        self.stage = "fight"  # fight | run
        self.runners: list[int] = []  # players still to run away, in order (B9)
        self.escaped: list[int] = []  # players who escaped automatically (H4)
        self.rerolled: list[int] = []  # Halflings who used their re-roll (B14)
        self.backstabs: tuple[tuple[int, int], ...] = ()  # (thief, victim): once each per fight (B14)
        self.gone_treasures = 0  # treasures of monsters sent away with them (charm), won at the end (B7)
        self.defeated_left = False  # a monster left defeated: with the rest gone, the fight is won (B7)
        self.twins: tuple[tuple[int, int], ...] = ()  # (twin card, the monster it copies)
        self.forced = False  # the helper was made to help: leaves when the fight is for the win

    def copy(self) -> Combat:
        c = Combat.__new__(Combat)
        c.fighter, c.helper, c.asked, c.reward = self.fighter, self.helper, self.asked, self.reward
        c.bribe, c.declined = self.bribe, self.declined
        c.monsters, c.played, c.mods = self.monsters[:], self.played[:], self.mods[:]
        c.passed, c.ready, c.stage = self.passed[:], self.ready, self.stage
        c.runners, c.escaped, c.rerolled = self.runners[:], self.escaped[:], self.rerolled[:]
        c.backstabs, c.gone_treasures, c.defeated_left = (
            self.backstabs,
            self.gone_treasures,
            self.defeated_left,
        )
        c.twins, c.forced = self.twins, self.forced
        return c

    def fighters(self) -> list[int]:
        """The munchkins' side: the fighter and the helper, if any."""
        return [self.fighter] if self.helper is None else [self.fighter, self.helper]


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question only `player` may answer, with `choose`; `data` is the context."""

    player: int
    kind: str
    options: tuple[str, ...]
    data: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class Pending:
    """Something that has just happened and takes effect once everyone who could respond
    has (a die roll, a curse played): `kind` "run" (a run-away roll against the monster
    `card`), "theft" (a theft roll for `card` of seat `other`) or "curse" (the curse `card`
    on seat `other`, played by `seat`, or drawn face up when `seat` is None; `value`: the
    hireling it was played on, else -1)."""

    kind: str
    seat: int | None
    card: int
    other: int = -1
    value: int = 0  # the die, for rolls
    modifier: int = 0
    needs: int = 0  # the total that succeeds
    passed: tuple[int, ...] = ()  # seats that passed since the last response

    @property
    def success(self) -> bool:
        return self.value + self.modifier >= self.needs


@dataclass(frozen=True, slots=True)
class Offer:
    """A trade offered by `giver` to `taker`, awaiting an answer (B13)."""

    giver: int
    taker: int
    give: tuple[int, ...]
    take: tuple[int, ...]


class GameState:
    """Everything that decides what happens next."""

    __slots__ = (
        "active",
        "attached",
        "body",
        "card_sex",
        "cards",
        "carrying",
        "charity_given",
        "combat",
        "defs",
        "dice",
        "door_deck",
        "door_discard",
        "face_up",
        "first_door_kicked",
        "fought",
        "gold",
        "offer",
        "options",
        "pending",
        "phase",
        "players",
        "prompt",
        "setup_passed",
        "sold_double",
        "tasks",
        "treasure_deck",
        "treasure_discard",
        "turn",
        "winners",
    )

    def __new__(cls, *args: object, **kwargs: object) -> GameState:
        """A bare instance, for `copy` (the compiled class needs a `__new__` of its own)."""
        return object.__new__(cls)

    def __init__(
        self,
        defs: tuple[CardDef, ...],
        players: list[PlayerState],
        dice: Dice,
        options: TableOptions = DEFAULT_OPTIONS,
    ) -> None:
        self.defs = defs
        self.cards = cards_of(defs)  # what the rules read of each instance's definition
        self.options = options
        self.players = players
        self.dice = dice
        self.active = 0
        self.turn = 1
        self.phase = "start"  # setup | start | face_up | combat | after_door | end | over
        self.door_deck: list[int] = []
        self.treasure_deck: list[int] = []
        self.door_discard: list[int] = []
        self.treasure_discard: list[int] = []
        self.carrying: dict[int, list[int]] = {}  # hireling -> items it carries (H7)
        self.attached: dict[int, list[int]] = {}  # card -> Cheat!, enhancers on it (B17, S5)
        self.card_sex: dict[int, str] = {}  # a hireling's sex after a change (H15)
        self.combat: Combat | None = None
        self.prompt: Prompt | None = None
        self.pending: Pending | None = None  # a roll or curse awaiting responses (B9, B15)
        self.offer: Offer | None = None
        self.face_up: int | None = None  # a door drawn face up awaiting keep/play (B4)
        self.body: list[int] = []  # a dead character's cards, awaiting looting (B10)
        self.tasks: list[tuple[object, ...]] = []  # queued steps of a resolution in progress
        self.first_door_kicked = False
        self.fought = False  # a monster was fought this turn (B4)
        self.sold_double = False  # the Halfling's double sale was used this turn (B14)
        self.setup_passed: list[bool] = []
        self.gold = 0  # gold of this turn's sales not yet turned into a level (B12)
        self.charity_given: tuple[tuple[int, int], ...] = ()  # (seat, cards) this charity (B5)
        self.winners: tuple[int, ...] = ()  # everyone who reached the win level at once (B2)

    def copy(self) -> GameState:
        c = GameState.__new__(GameState)
        c.defs, c.cards, c.dice, c.options = self.defs, self.cards, self.dice.copy(), self.options
        c.players = [p.copy() for p in self.players]
        c.active, c.turn, c.phase = self.active, self.turn, self.phase
        c.door_deck, c.treasure_deck = self.door_deck[:], self.treasure_deck[:]
        c.door_discard, c.treasure_discard = self.door_discard[:], self.treasure_discard[:]
        c.carrying = {k: v[:] for k, v in self.carrying.items()}
        c.attached = {k: v[:] for k, v in self.attached.items()}
        c.card_sex = dict(self.card_sex)
        c.combat = self.combat.copy() if self.combat else None
        c.prompt, c.offer, c.face_up, c.pending = self.prompt, self.offer, self.face_up, self.pending
        c.tasks, c.body = self.tasks[:], self.body[:]
        c.first_door_kicked, c.fought, c.sold_double = (
            self.first_door_kicked,
            self.fought,
            self.sold_double,
        )
        c.setup_passed = self.setup_passed[:]
        c.gold, c.charity_given = self.gold, self.charity_given
        c.winners = self.winners
        return c

    # -- lookups -----------------------------------------------------------------

    def card(self, inst: int) -> CardDef:
        """The definition of a card instance."""
        return self.defs[inst]

    def index(self, name: str) -> int:
        """A player's seat from their name (KeyError when unknown)."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def find(self, zone: list[int], card_id: str) -> int | None:
        """The first instance of `card_id` in a zone."""
        cards = self.cards
        for inst in zone:
            if cards[inst].id == card_id:
                return inst
        return None

    def distinct(self, zone: list[int]) -> list[int]:
        """The first instance of each card id in a zone, in zone order."""
        first: dict[str, int] = {}
        cards = self.cards
        for inst in zone:
            first.setdefault(cards[inst].id, inst)
        return list(first.values())

    def distinct_ids(self, zone: list[int]) -> list[str]:
        """The card ids of a zone, each once, in zone order."""
        return list(dict.fromkeys(self.cards[inst].id for inst in zone))

    def ids(self, zone: list[int]) -> list[str]:
        """Card ids of a zone."""
        return [self.cards[i].id for i in zone]

    def items_in_play(self, p: PlayerState) -> list[int]:
        """Items, steeds and hireling-carried items a player has in play (H8, S1)."""
        carried_by_hirelings = [i for h in p.hirelings for i in self.carrying.get(h, ())]
        return p.equipped + p.carried + p.steeds + carried_by_hirelings

    def items_in_use(self, p: PlayerState) -> list[int]:
        """Items worn or held: in use by the player or by the player's hirelings (B11, H7, H8)."""
        return p.equipped + [i for h in p.hirelings for i in self.carrying.get(h, ())]

    def zones(self) -> Iterator[tuple[str, list[int]]]:
        """Every zone that holds cards, named, for invariant checks."""
        yield "door_deck", self.door_deck
        yield "treasure_deck", self.treasure_deck
        yield "door_discard", self.door_discard
        yield "treasure_discard", self.treasure_discard
        for p in self.players:
            for zone_name in PLAYER_ZONES:
                yield f"{p.name}.{zone_name}", getattr(p, zone_name)
        for owner, cards in self.carrying.items():
            yield f"carried_by:{owner}", cards
        for owner, cards in self.attached.items():
            yield f"attached_to:{owner}", cards
        if self.combat:
            yield "combat.monsters", self.combat.monsters
            yield "combat.played", [inst for inst, _ in self.combat.played]
        yield "body", self.body
        if self.pending is not None and self.pending.kind == "curse":
            yield "pending", [self.pending.card]
        if self.face_up is not None:
            yield "face_up", [self.face_up]
