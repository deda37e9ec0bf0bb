"""Reading a player's table from the view, with the card definitions (public, like reading
the cards): the character's traits, what is in play, and the combat strengths that follow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, cached_property
from typing import Any

from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef, Condition, VsBonus

WIN_LEVEL = 10
"""The winning level unless the table chose another (the view's `options`, B2)."""
WORN_SLOTS = ("headgear", "armor", "footgear")

Traits = tuple[frozenset[str], frozenset[str], str | None]


@cache
def builtin_definitions() -> dict[str, CardDef]:
    """The built-in card sets by id, loaded once."""
    return {card.id: card for card in load_builtin_sets(["base", "horses"])}


class Seat:
    """One player's table as the view shows it, read with the card definitions."""

    def __init__(
        self, table: Mapping[str, Any], defs: Mapping[str, CardDef], win_level: int = WIN_LEVEL
    ) -> None:
        self.table = table
        self.defs = defs
        self.win_level = win_level
        """The level that wins this game (B2)."""
        self.name: str = table["name"]
        self.level: int = table["level"]
        self.sex: str = table["sex"]
        self.dead: bool = table["dead"]
        self.hand_count: int = table["hand_count"]
        self.memo: dict[str, Any] = {}
        """What is worked out from this table once per decision (`equipment.best_layout`)."""

    def cards(self, zone: str) -> list[CardDef]:
        return [self.defs[c["id"]] for c in self.table[zone]]

    def with_attached(self, zone: str) -> list[tuple[CardDef, list[CardDef]]]:
        """Each card of a zone with the cards attached to it (enhancers, Cheat!)."""
        return [
            (self.defs[c["id"]], [self.defs[a["id"]] for a in c.get("attached", ())])
            for c in self.table[zone]
        ]

    @cached_property
    def races(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cards("races")) or frozenset({"human"})

    @cached_property
    def classes(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cards("classes"))

    def hirelings(self) -> list[tuple[CardDef, list[CardDef]]]:
        """Each hireling with the items it carries."""
        return [
            (self.defs[h["id"]], [self.defs[i["id"]] for i in h["carrying"]]) for h in self.table["hirelings"]
        ]

    @cached_property
    def hirelings_allowed(self) -> int:
        """One hireling in play, more with a race, class or boost that says so (H1, H16)."""
        cards = self.cards("races") + self.cards("classes") + self.cards("boosts")
        return 1 + sum(c.extra_hirelings for c in cards)

    def hireling_room(self) -> bool:
        """Whether another hireling may come into play (a Cheat! aside, H1)."""
        return len(self.table["hirelings"]) < self.hirelings_allowed

    def traits(self) -> list[Traits]:
        """The character's races, classes and sex, then each hireling's (H12, H15)."""
        out: list[Traits] = [(self.races, self.classes, self.sex)]
        for h in self.table["hirelings"]:
            card = self.defs[h["id"]]
            sex = h.get("sex", card.sex)
            out.append((frozenset(card.race), frozenset(card.class_), None if sex == "none" else sex))
        return out

    @cached_property
    def immunities(self) -> frozenset[str]:
        """Effect words of curses that cannot touch the player: `immune_to` of the items and
        steeds in use and the hirelings in play."""
        cards = self.cards("equipped") + self.cards("steeds") + [h for h, _ in self.hirelings()]
        return frozenset(word for c in cards for word in c.immune_to)

    def in_play(self) -> list[tuple[CardDef, bool]]:
        """Items, steeds, hirelings and what they carry, each with whether it adds strength."""
        cards = [(c, True) for c in self.cards("equipped") + self.cards("steeds")]
        cards += [(c, False) for c in self.cards("carried")]
        for hireling, carrying in self.hirelings():
            cards += [(hireling, True)] + [(c, True) for c in carrying]
        return cards


def usable(card: CardDef, seat: Seat, cheated: bool = False) -> bool:
    """Whether the character may use an item: restrictions limit using (B11); Cheat! lifts them."""
    traits = (seat.races, seat.classes, seat.sex)
    if cheated:
        return True
    if card.requires and not card.requires.met_by(*traits):
        return False
    return not (card.forbids and card.forbids.matches(*traits))


def strength(seat: Seat) -> int:
    """A character's own combat strength (B6): level, items in use, steeds and hirelings with
    what is on them, race and class enhancers, lasting combat curses."""
    total = seat.level + sum(c.bonus for c in seat.cards("equipped"))
    total += sum(c.bonus + sum(e.bonus for e in on) for c, on in seat.with_attached("steeds"))
    for zone in ("races", "classes"):
        total += sum(e.bonus for _, on in seat.with_attached(zone) for e in on)
    total += sum(h.bonus + sum(i.bonus for i in carrying) for h, carrying in seat.hirelings())
    return total + sum(e["amount"] for e in seat.table["lasting"] if e["kind"] == "combat")


def threat(seat: Seat) -> float:
    """How close a player is to winning: levels first, then the strength to take the next ones."""
    return seat.level + 0.25 * (strength(seat) - seat.level)


def matches(vs: VsBonus, seat: Seat) -> bool:
    """Whether a monster's `vs` bonus applies to this character or one of their hirelings (H12)."""
    return any(
        (vs.race is not None and vs.race in races)
        or (vs.class_ is not None and vs.class_ in classes)
        or (vs.sex is not None and vs.sex == sex)
        for races, classes, sex in seat.traits()
    )


def monster_strength(card: CardDef, fighters: Sequence[Seat]) -> int:
    """A monster's level (twice a steed's bonus, S9) with its `vs` bonuses against these
    fighters (H12, R20)."""
    level = 2 * card.bonus if card.type == "steed" else card.level or 0
    return level + sum(vs.bonus for vs in card.vs if any(matches(vs, s) for s in fighters))


def holds(cond: Condition, seat: Seat) -> bool:
    """The test of a conditional effect, on the character's own traits (H14)."""
    return (
        bool(seat.races.intersection(cond.race))
        or bool(seat.classes.intersection(cond.class_))
        or (cond.sex is not None and seat.sex == cond.sex)
        or (cond.level_at_least is not None and seat.level >= cond.level_at_least)
    )
