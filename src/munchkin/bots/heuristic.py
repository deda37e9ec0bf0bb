"""The heuristic bot: a handful of scores read from its own view, never from the game state.

Everything is valued in strength points (a +1 bonus is worth 1, a level `LEVEL_VALUE`),
from the face-up tables and the card definitions (public, like reading the cards):

- `card_value`: what a card in the hand is worth to the bot (charity, payments, loot);
- `strength` and `threat`: a player's combat strength, and how close they are to winning;
- `harm`: what effects (Bad Stuff, curses) would cost a player;
- `cheapest_cover`: the cheapest cards that add up to the points a fight needs.

With them it wins its fights by the cheapest means (class powers, one-shots, a helper
bribed with the fewest treasures), adds a Wandering Monster to a fight won comfortably,
or runs, sacrificing a hireling when that is cheaper
than the expected Bad Stuff; helps others for treasure, but never someone the fight
would make win nor the leader close to winning; turns the leader's fights when that is
worth the cards, and anyone's fight that would win the game with everything it has; on
its own turn plays what makes it stronger, uses the best items, sells what it can spare
for levels and curses the leader. A seeded random source only breaks ties, so a game
replays exactly from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations
from typing import Any

from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef, Condition, Effect, VsBonus
from munchkin.engine.actions import Action
from munchkin.views import PlayerView

WIN_LEVEL = 10
"""The winning level unless the table chose another (the view's `options`, B2)."""
LEVEL_VALUE = 3.0
TREASURE_VALUE = 1.5
GAME_VALUE = 1000.0
"""Winning the game (or stopping someone from winning it) outweighs any card."""
GOLD_PER_LEVEL = 1000
ESCAPE_ROLL = 5
TROUBLE_MARGIN = 2
"""How much stronger than a monster the bot wants to be before fighting it by choice."""
RESERVE_SHARE = 0.5
"""The part of its combat one-shots the bot counts on when it chooses to fight."""
HELP_MARGIN = 1
"""How much the munchkins must then win by for the bot to agree to help."""
HELP_OVERHEAD = 0.5
"""What asking for help costs beyond the bribe: the helper sees the treasures."""
MAX_POWER_CARDS = 3
"""Cards per power and fight unless the table chose another number (`power_discards`, B14)."""
WORN_SLOTS = ("headgear", "armor", "footgear")
TRAIT_VALUES = {
    "warrior": 3.0,
    "elf": 3.0,
    "cleric": 2.0,
    "wizard": 2.0,
    "dwarf": 2.0,
    "thief": 1.5,
    "halfling": 1.5,
    "centaur": 1.0,
    "goblin-kin": 1.0,
}
"""What a race or class is worth for its powers (B14, C1), before the items it lets one use."""
KEPT_VALUES = {"curse": 1.2, "trap": 1.2, "monster_enhancer": 1.5, "cheat": 1.5}
"""Cards kept in the hand to use against others (default 1)."""

Traits = tuple[frozenset[str], frozenset[str], str | None]


@cache
def builtin_definitions() -> dict[str, CardDef]:
    """The built-in card sets by id, loaded once."""
    return {card.id: card for card in load_builtin_sets(["base", "horses"])}


# -- reading a player's table -----------------------------------------------------------------


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

    def traits(self) -> list[Traits]:
        """The character's races, classes and sex, then each hireling's (H12, H15)."""
        out: list[Traits] = [(self.races, self.classes, self.sex)]
        for h in self.table["hirelings"]:
            card = self.defs[h["id"]]
            sex = h.get("sex", card.sex)
            out.append((frozenset(card.race), frozenset(card.class_), None if sex == "none" else sex))
        return out

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
    if card.requires and not card.requires.matches(*traits):
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


# -- values and harms -------------------------------------------------------------------------


def gold_worth(card: CardDef) -> float:
    return (card.value or 0) / GOLD_PER_LEVEL * LEVEL_VALUE


def use_worth(card: CardDef) -> float:
    """What a card in play adds while used: its bonus, a little for running away."""
    return card.bonus + 0.3 * card.run_away


def item_worth(card: CardDef, in_use: bool) -> float:
    """A card in play: what it adds while used, and its gold."""
    return (use_worth(card) if in_use else 0.0) + gold_worth(card)


def trait_score(card: CardDef, held: Iterable[CardDef]) -> float:
    """What a race or class is worth: its powers, plus the bonuses of the items among `held`
    it lets one use, less those it forbids."""
    fit = 0.0
    for item in held:
        for rule, sign in ((item.requires, 1), (item.forbids, -1)):
            if rule and card.id in (rule.race if card.type == "race" else rule.class_):
                fit += sign * item.bonus
    return TRAIT_VALUES.get(card.id, 1.0) + fit


def one_shot_value(card: CardDef) -> float:
    extras = {"escape": 2.0, "draw_treasures": 2 * TREASURE_VALUE}
    return 0.7 * card.bonus + 0.5 * card.run_away + sum(extras.get(e.kind, 0.3) for e in card.effects)


def card_value(card: CardDef, me: Seat) -> float:
    """What a card in the hand is worth to `me`."""
    kind = card.type
    if kind == "go_up_a_level":
        return LEVEL_VALUE if me.level < me.win_level - 1 else 0.2
    if kind == "item":
        return (card.bonus if usable(card, me) else 0.3 * card.bonus) + gold_worth(card)
    if kind in ("steed", "hireling"):
        return card.bonus + 1.0 + gold_worth(card)
    if kind == "one_shot":
        return one_shot_value(card)
    if kind in ("race", "class"):
        return 0.5 * trait_score(card, ())
    if kind == "monster":
        return 1.0 if monster_strength(card, [me]) + TROUBLE_MARGIN <= strength(me) else 0.4
    if kind == "divine_intervention":
        return LEVEL_VALUE if "cleric" in me.classes else 0.2
    if kind == "steed_enhancer":
        return card.bonus if me.table["steeds"] else 0.5
    return KEPT_VALUES.get(kind, 1.0)


def _names_any(cond: Condition, traits: Iterable[str]) -> bool:
    """Whether a condition names one of these races or classes."""
    return bool({*cond.race, *cond.class_}.intersection(traits))


def holds(cond: Condition, seat: Seat) -> bool:
    """The test of a conditional effect, on the character's own traits (H14)."""
    return (
        bool(seat.races.intersection(cond.race))
        or bool(seat.classes.intersection(cond.class_))
        or (cond.sex is not None and seat.sex == cond.sex)
        or (cond.level_at_least is not None and seat.level >= cond.level_at_least)
    )


def branch(effect: Effect, seat: Seat) -> tuple[Effect, ...]:
    """The effects a conditional effect comes to for this player."""
    cond = effect.arg
    return cond.then if holds(cond.if_, seat) else cond.else_


def harm(effects: Iterable[Effect], seat: Seat, hand_value: float) -> float:
    """What effects (Bad Stuff, a curse) would cost a player; the victim chooses what to lose."""
    return sum(_effect_harm(e, seat, hand_value) for e in effects)


def _effect_harm(effect: Effect, seat: Seat, hand_value: float) -> float:
    kind, arg = effect.kind, effect.arg
    if kind == "lose_levels":
        return min(arg, seat.level - 1) * LEVEL_VALUE
    if kind == "die":
        return hand_value + sum(item_worth(c, in_use) for c, in_use in seat.in_play())
    if kind == "lose":
        return _loss_harm(arg, seat, hand_value)
    if kind in ("hireling_dies", "steal_hireling"):
        keeps_items = kind == "hireling_dies"
        worths = [h.bonus + (0 if keeps_items else sum(i.bonus for i in c)) for h, c in seat.hirelings()]
        return min(worths, default=0)
    if kind in ("lose_class", "lose_race"):
        return LEVEL_VALUE / 2 if seat.table["classes" if kind == "lose_class" else "races"] else 0.0
    if kind == "change_sex":
        return 0.3 + sum(c.bonus for c in seat.cards("equipped") if c.requires and c.requires.sex)
    if kind in ("run_away", "combat"):
        return max(0.0, -0.5 * arg)
    if kind == "conditional":
        return harm(branch(effect, seat), seat, hand_value)
    return 0.0


def _loss_harm(what: str, seat: Seat, hand_value: float) -> float:
    """`lose: WHAT`: the victim gives up the least valuable card of that kind."""
    if what == "hand_cards":
        return hand_value
    if what == "hireling":
        return sum(h.bonus + sum(i.bonus for i in c) for h, c in seat.hirelings())
    kinds = [item_worth(c, in_use) for c, in_use in seat.in_play() if c.type != "hireling" and _is(c, what)]
    return min(kinds, default=0.0)


def _is(card: CardDef, what: str) -> bool:
    """Whether a card is of the kind a `lose:` effect names."""
    if what == "big":
        return card.big
    if what == "steed":
        return card.type == "steed"
    return card.slot == what if what in (*WORN_SLOTS, "hands") else card.is_item


def weakening(effects: Iterable[Effect], seat: Seat) -> int:
    """How much strength effects take from a fighter at once (a curse played into a fight)."""
    total = 0
    for effect in effects:
        kind, arg = effect.kind, effect.arg
        if kind == "lose_levels":
            total += min(arg, seat.level - 1)
        elif kind == "combat":
            total += max(0, -arg)
        elif kind == "lose" and arg not in ("hand_cards", "hireling"):
            total += min((c.bonus if used else 0 for c, used in seat.in_play() if _is(c, arg)), default=0)
        elif kind == "conditional":
            total += weakening(branch(effect, seat), seat)
    return total


def levels_lost(effects: Iterable[Effect], seat: Seat) -> int:
    """How many levels effects take from a player."""
    total = 0
    for effect in effects:
        if effect.kind == "lose_levels":
            total += effect.arg
        elif effect.kind == "conditional":
            total += levels_lost(branch(effect, seat), seat)
    return min(total, seat.level - 1)


def escape_chance(modifier: int, reroll: bool) -> float:
    """A d6 plus the modifier reaching 5 (B9); a Halfling may roll a failure again (B14)."""
    p = min(1.0, max(0.0, (7 - ESCAPE_ROLL + modifier) / 6))
    return 1 - (1 - p) ** 2 if reroll else p


def run_loss(
    monsters: Sequence[CardDef], seat: Seat, modifier: int, hand_value: float, reroll: bool
) -> float:
    """The expected cost of running from every monster of a lost fight (B9, S9)."""
    total = 0.0
    for m in monsters:
        if seat.level <= m.escape_below:
            continue
        bad = (Effect(lose_levels=1),) if m.type == "steed" else m.bad_stuff
        p = 0.0 if m.no_escape else escape_chance(modifier + m.run_away, reroll)
        total += (1 - p) * harm(bad, seat, hand_value)
    return total


@dataclass(frozen=True)
class Use:
    """One way to spend a card (or a favour) for points in a fight."""

    action: Action
    points: int
    cost: float
    stops_win: bool = False


def cheapest_cover(uses: Iterable[Use], need: int) -> list[Use] | None:
    """Uses that add up to `need` points at a low cost (greedy by cost per point, then the
    dearest that are not needed dropped), or None when all of them together fall short."""
    chosen: list[Use] = []
    for use in sorted((u for u in uses if u.points > 0), key=lambda u: (u.cost / u.points, -u.points)):
        if sum(u.points for u in chosen) >= need:
            break
        chosen.append(use)
    if sum(u.points for u in chosen) < need:
        return None
    for use in sorted(chosen, key=lambda u: -u.cost):
        if sum(u.points for u in chosen) - use.points >= need:
            chosen.remove(use)
    return chosen


# -- the fight on -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Fight:
    """The fight on, as the view shows it."""

    fighter: Seat
    helper: Seat | None
    monsters: tuple[CardDef, ...]
    treasures: int
    lead: int
    """The munchkins' total minus the monsters' total."""
    stage: str
    reward: int

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
    """The view's fight, with the treasures at stake: the monsters' and their enhancers' (B7, S9)."""
    monsters = tuple(defs[m["id"]] for m in combat["monsters"])
    extra = sum(defs[a["id"]].extra_treasures for m in combat["monsters"] for a in m.get("attached", ()))
    own = sum(1 if m.type == "steed" else m.treasures for m in monsters)
    return Fight(
        fighter=seats[combat["fighter"]],
        helper=seats[combat["helper"]] if combat["helper"] else None,
        monsters=monsters,
        treasures=max(0, own + extra),
        lead=combat["munchkins"]["total"] - combat["monster_side"]["total"],
        stage=combat["stage"],
        reward=combat["reward"],
    )


# -- one decision -----------------------------------------------------------------------------


class Situation:
    """One decision: the view read once, with the card definitions to understand it."""

    def __init__(self, view: PlayerView, defs: Mapping[str, CardDef]) -> None:
        self.view = view
        self.data = view.data
        self.defs = defs
        self.options: Mapping[str, Any] = self.data.get("options") or {}
        win_level = self.options.get("win_level", WIN_LEVEL)
        self.seats = {t["name"]: Seat(t, defs, win_level) for t in self.data["players"]}
        self.me = self.seats[view.player]
        self.hand = [defs[c["id"]] for c in self.data["hand"]]
        combat = self.data["combat"]
        self.fight = read_fight(combat, self.seats, defs) if combat else None

    def legal(self, verb: str, **fields: object) -> list[Action]:
        """The legal actions of a verb whose fields have these values."""
        return [
            a
            for a in self.view.legal
            if a.verb == verb and all(getattr(a, k) == v for k, v in fields.items())
        ]

    def card(self, card_id: str | None) -> CardDef:
        return self.defs[card_id or ""]

    def value(self, card_id: str | None) -> float:
        return card_value(self.card(card_id), self.me)

    def in_hand(self, card_id: str | None) -> bool:
        return any(c.id == card_id for c in self.hand)

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

    def dangerous(self, seat: Seat, gain: int) -> bool:
        """Whether `gain` levels would bring a player too close to winning: to the winning
        level, or the leader close to it or past the bot."""
        level = seat.level + gain
        if gain <= 0 or seat is self.me:
            return False
        close = level >= seat.win_level - 2 or level > self.me.level
        return level >= seat.win_level or (seat is self.leader and close)

    def run_loss(self, modifier_change: int = 0) -> float:
        """What running from this fight is expected to cost the bot."""
        assert self.fight is not None
        reroll = "halfling" in self.me.races and bool(self.hand)
        modifier = self.data["run_away_modifier"] + modifier_change
        return run_loss(self.fight.monsters, self.me, modifier, self.hand_value, reroll)


Rule = Callable[[Situation], Action | None]


class HeuristicBot:
    """Plays by the scores above, from its own view only; a seeded source breaks ties."""

    def __init__(self, seed: int = 0, cards: Sequence[CardDef] | None = None) -> None:
        self.rng = random.Random(seed)
        self.defs = builtin_definitions() if cards is None else {c.id: c for c in cards}
        self._asked: tuple[int, set[str]] = (-1, set())
        """(turn, players) already asked to help in this turn's fight."""

    def choose(self, view: PlayerView) -> Action:
        """The first rule with something to do decides."""
        s = Situation(view, self.defs)
        rules: tuple[Rule, ...] = (
            self._answer_prompt,
            self._answer_offer,
            self._answer_help_request,
            self._play_anytime,
            self._run,
            self._fight,
            self._own_turn,
        )
        for rule in rules:
            action = rule(s)
            if action is not None:
                return action
        return self._fallback(s)

    def _best(self, actions: Iterable[Action], score: Callable[[Action], float]) -> Action | None:
        """The highest-scoring action; the seeded source breaks ties."""
        scored = [(score(a), a) for a in actions]
        if not scored:
            return None
        top = max(value for value, _ in scored)
        return self.rng.choice([a for value, a in scored if value == top])

    def _fallback(self, s: Situation) -> Action:
        """Do nothing where that is allowed; otherwise anything legal."""
        for verb in ("pass", "end_turn", "decline_help", "decline_trade", "resolve_combat", "run_away"):
            if s.legal(verb):
                return s.legal(verb)[0]
        return self.rng.choice(s.view.legal)

    # -- questions put to the bot ------------------------------------------------------------

    def _answer_prompt(self, s: Situation) -> Action | None:
        """Answer the question asked: each kind by its own rule; where a card played would put
        a broken limit right, play it when it costs less than what would go (B11)."""
        prompt, options = s.data["prompt"], s.legal("choose")
        if not options:
            return None
        answer = self._ANSWERS.get(prompt["kind"])
        if answer is not None:
            return answer(self, s, options)
        return self._least_valuable(s, options)

    def _loot(self, s: Situation, options: list[Action]) -> Action | None:
        """Take the best card of the body (B10)."""
        return self._best(options, lambda a: s.value(a.arg))

    def _charity(self, s: Situation, options: list[Action]) -> Action | None:
        """Give away the least valuable card (B5)."""
        return self._best(options, lambda a: -s.value(a.arg))

    def _charity_to(self, s: Situation, options: list[Action]) -> Action | None:
        """Among the tied lowest players, the least dangerous gets the card (B5)."""
        return self._best(options, lambda a: -threat(s.seats[a.arg or ""]))

    def _remove_curse(self, s: Situation, options: list[Action]) -> Action | None:
        """Free the worst curse."""
        return self._best(options, lambda a: harm(s.card(a.arg).effects, s.me, 0.0))

    def _keep_trait(self, s: Situation, options: list[Action]) -> Action | None:
        """Keep the race or class worth most, with the items it lets the bot use (B14)."""
        held = [c for c, _ in s.me.in_play()] + s.hand
        return self._best(options, lambda a: trait_score(s.card(a.arg), held))

    def _half_trait(self, s: Situation, options: list[Action]) -> Action | None:
        """Count a half race or class, or not, whichever branch of the effect hurts less (B14)."""
        source = s.defs.get(s.data["prompt"]["about"] or "")
        half = (options[0].arg or "").removeprefix("as ").split("/")
        effects = [] if source is None else [*source.bad_stuff, *source.effects]
        branches = [e.arg for e in effects if e.kind == "conditional" and _names_any(e.arg.if_, half)]
        if not branches:
            return options[-1]
        as_half = sum(harm(b.then, s.me, s.hand_value) for b in branches)
        not_half = sum(harm(b.else_, s.me, s.hand_value) for b in branches)
        return options[0] if as_half < not_half else options[-1]

    def _get_rid(self, s: Situation, options: list[Action]) -> Action | None:
        """Over the Big, Complex or steed limit: sell an item when that gives a level, else
        play a card that puts the limit right if it is worth less than the item, else give the
        item to the weakest player, else discard the least valuable (B11, B12)."""
        sales = [a for a in options if (a.arg or "").startswith("sell ")]
        paying = [a for a in sales if self._sale_levels(s, ((a.arg or "").removeprefix("sell "),)) > 0]
        if paying:
            return self._best(paying, lambda a: -self._worth_in_play(s, (a.arg or "").removeprefix("sell ")))
        discards = [a for a in options if " " not in (a.arg or "")]
        fixing = self._fixing_play(s, discards)
        if fixing is not None:
            return fixing
        gifts = [a for a in options if (a.arg or "").startswith("give ")]
        if gifts:
            return self._best(gifts, lambda a: self._gift_score(s, a.arg or ""))
        return self._least_valuable(s, discards or options)

    def _take_off(self, s: Situation, options: list[Action]) -> Action | None:
        """Items no longer fit: play a card that makes them fit if it is worth less than the
        least useful item, else take that one off (B11)."""
        return self._fixing_play(s, options) or self._least_valuable(s, options)

    def _gift_score(self, s: Situation, option: str) -> float:
        """A gift to the weakest player, of the item the bot loses least by."""
        card_id, _, name = option.removeprefix("give ").partition(" to ")
        return -threat(s.seats[name]) * 10 - self._worth_in_play(s, card_id)

    def _flight(self, s: Situation, options: list[Action]) -> Action | None:
        """A Wizard pays its cheapest cards for +1 each to a failed roll when they make the
        escape, and the Bad Stuff escaped costs more than they do (B14)."""
        decline = s.legal("choose", arg="decline")
        cards = sorted((a for a in options if a.arg != "decline"), key=lambda a: s.value(a.arg))
        missing = s.data["prompt"].get("missing")
        if not cards or not isinstance(missing, int) or missing > len(cards):
            return decline[0] if decline else None
        cost = sum(s.value(a.arg) for a in cards[:missing])
        return cards[0] if cost < self._bad_stuff_cost(s) else (decline or cards)[0]

    def _bad_stuff_cost(self, s: Situation) -> float:
        """What the Bad Stuff of the monster being run from would cost the bot (B9, S9)."""
        monster = s.defs.get(s.data["prompt"]["about"] or "")
        if monster is None:
            return 0.0
        bad = (Effect(lose_levels=1),) if monster.type == "steed" else monster.bad_stuff
        return harm(bad, s.me, s.hand_value)

    def _set_die(self, s: Situation, options: list[Action]) -> Action | None:
        """The highest face for the bot's own side's roll, the lowest against someone else."""
        mine = s.fight is not None and s.me in s.fight.fighters
        return (
            max(options, key=lambda a: int(a.arg or 0))
            if mine
            else min(options, key=lambda a: int(a.arg or 0))
        )

    def _least_valuable(self, s: Situation, options: list[Action]) -> Action | None:
        """Lose, take off or give up the card worth least to the bot."""
        return self._best(options, lambda a: -self._worth_in_play(s, a.arg or ""))

    @staticmethod
    def _worth_in_play(s: Situation, card_id: str) -> float:
        """A card in play, a race or class, or else a hand card, as worth to the bot."""
        worth = {c.id: item_worth(c, in_use) for c, in_use in s.me.in_play()}
        worth |= {c.id: trait_score(c, ()) for c in s.me.cards("races") + s.me.cards("classes")}
        if card_id in worth:
            return worth[card_id]
        return s.value(card_id) if card_id in s.defs else 0.0

    def _fixing_play(self, s: Situation, cards: list[Action]) -> Action | None:
        """A card from the hand that puts the broken limit right (a Dwarf for Big items, a
        hireling with hands), listed beside the answers, when it is worth less than the least
        valuable of the `cards` that would go otherwise (B11)."""
        plays = s.legal("play")
        if not plays or not cards:
            return None
        at_stake = min(self._worth_in_play(s, a.arg or "") for a in cards)
        cheapest = min(plays, key=lambda a: s.value(a.arg))
        return cheapest if s.value(cheapest.arg) < at_stake else None

    def _reroll(self, s: Situation, options: list[Action]) -> Action | None:
        """A Halfling pays its cheapest card to roll a failed escape again, when the Bad Stuff
        it may avoid is worth more (B14)."""
        decline = s.legal("choose", arg="decline")[0]
        monsters = s.fight.monsters if s.fight else ()
        bad = max((harm(m.bad_stuff, s.me, s.hand_value) for m in monsters), default=0.0)
        chance = escape_chance(s.data["run_away_modifier"], reroll=False)
        pay = self._best([a for a in options if a != decline], lambda a: -s.value(a.arg))
        return pay if pay is not None and chance * bad > s.value(pay.arg) else decline

    _ANSWERS: dict[str, Callable[[HeuristicBot, Situation, list[Action]], Action | None]] = {
        "loot": _loot,
        "charity": _charity,
        "charity_to": _charity_to,
        "reroll": _reroll,
        "flight": _flight,
        "remove_curse": _remove_curse,
        "keep_race": _keep_trait,
        "keep_class": _keep_trait,
        "half_trait": _half_trait,
        "get_rid": _get_rid,
        "take_off": _take_off,
        "set_die": _set_die,
    }
    """Each kind of question and its answer; the others lose the least valuable card."""

    def _answer_offer(self, s: Situation) -> Action | None:
        """Accept a trade that gives more than it takes (B13)."""
        offer = s.data["offer"]
        if offer is None or offer["to"] != s.me.name:
            return None
        gets = sum(item_worth(s.card(c["id"]), usable(s.card(c["id"]), s.me)) for c in offer["give"])
        gives = sum(item_worth(s.card(c["id"]), True) for c in offer["take"])
        accept = s.legal("accept_trade")
        return accept[0] if accept and gets > gives else s.legal("decline_trade")[0]

    def _answer_help_request(self, s: Situation) -> Action | None:
        """Help when the fight is then won, for an Elf's level, or for a bribe when the fighter
        stays behind the bot; never a player it would make win, nor the leader close to
        winning (B8)."""
        if not s.legal("accept_help"):
            return None
        fight = s.fight
        assert fight is not None
        elf_levels = len(fight.monsters) if "elf" in s.me.races else 0
        wins = fight.lead_with(s.me) >= HELP_MARGIN
        i_win = s.me.level + elf_levels >= s.me.win_level
        stays_behind = fight.fighter.level + fight.levels < s.me.level
        paid = (fight.reward > 0 and stays_behind) or elf_levels > 0
        worth_it = paid and not s.dangerous(fight.fighter, fight.levels)
        return s.legal("accept_help" if wins and (i_win or worth_it) else "decline_help")[0]

    # -- any time ------------------------------------------------------------------------------

    def _play_anytime(self, s: Situation) -> Action | None:
        """Go Up a Level and hirelings are played as soon as they may be (B3, H1)."""
        plays = s.legal("play", target=None, on=None)
        return next((a for a in plays if s.card(a.arg).type in ("go_up_a_level", "hireling")), None)

    # -- running away --------------------------------------------------------------------------

    def _run(self, s: Situation) -> Action | None:
        """After a lost fight: sacrifice a hireling when the Bad Stuff would cost more, use
        run-away one-shots when they save more than they cost, else roll (B9, H4); a Wizard's
        flight is asked after a failed roll (`_flight`)."""
        if not s.legal("run_away"):
            return None
        loss = s.run_loss()
        sacrifices = s.legal("sacrifice_hireling", helper_escapes=False)
        cheapest = self._best(sacrifices, lambda a: -self._hireling_worth(s, a.arg))
        if cheapest is not None and self._hireling_worth(s, cheapest.arg) < loss:
            return cheapest
        savings = {a: self._escape_gain(s, a, loss) - s.value(a.arg) for a in s.legal("play")}
        best = self._best([a for a, saving in savings.items() if saving > 0], savings.__getitem__)
        return best or s.legal("run_away")[0]

    @staticmethod
    def _hireling_worth(s: Situation, card_id: str | None) -> float:
        """A hireling and what it carries, as lost by a sacrifice (H9)."""
        worths = [1.0 + h.bonus + sum(i.bonus for i in c) for h, c in s.me.hirelings() if h.id == card_id]
        return min(worths, default=0.0)

    @staticmethod
    def _escape_gain(s: Situation, action: Action, loss: float) -> float:
        """What a run-away one-shot saves (B9, R9)."""
        card = s.card(action.arg)
        if card.type != "one_shot" or card.uses != "run_away":
            return 0.0
        if any(e.kind == "escape" for e in card.effects):
            return loss
        return loss - s.run_loss(card.run_away)

    # -- fights --------------------------------------------------------------------------------

    def _fight(self, s: Situation) -> Action | None:
        fight = s.fight
        if fight is None or fight.stage != "fight" or not (s.legal("resolve_combat") or s.legal("pass")):
            return None
        if s.me in fight.fighters:
            return self._win_own_fight(s, fight)
        return self._hamper(s, fight) or s.legal("pass")[0]

    def _win_own_fight(self, s: Situation, fight: Fight) -> Action:
        """When winning, bring in a Wandering Monster still clearly beaten, then resolve; when
        losing, the cheapest way to win that is worth it, else a Wizard's charm when the hand
        is worth less than the run, else give up."""
        done = (s.legal("resolve_combat") or s.legal("pass"))[0]
        if fight.munchkins_win:
            return self._more_monsters(s, fight) or done
        budget = self._win_value(s, fight) + s.run_loss()
        plans = [(cost, action) for cost, action in self._boost_plans(s, fight) if cost <= budget]
        if plans:
            action = min(plans, key=lambda plan: plan[0])[1]
            if action.verb == "ask_help":
                self._asked[1].add(action.arg or "")
            return action
        charms = s.legal("charm") if len(fight.monsters) == 1 else []
        if charms and s.hand_value < s.run_loss() + fight.treasures * TREASURE_VALUE:
            return charms[0]
        return done

    def _more_monsters(self, s: Situation, fight: Fight) -> Action | None:
        """A Wandering Monster with a monster from the hand, for more levels and treasures, when
        the fight does not already win the game and is still won by the usual margin (B16)."""
        if s.me is not fight.fighter or fight.game_winner() is s.me:
            return None
        wanderers = [
            a
            for a in s.legal("play")
            if s.card(a.arg).type == "wandering_monster"
            and fight.to_lose - monster_strength(s.card(a.on), fight.fighters) > TROUBLE_MARGIN
        ]
        return self._best(wanderers, lambda a: s.card(a.on).levels + 0.5 * s.card(a.on).treasures)

    def _win_value(self, s: Situation, fight: Fight) -> float:
        """What winning this fight brings the bot (B7); the game, alone or shared (B2)."""
        if s.me in fight.game_winners():
            return GAME_VALUE
        levels = fight.gain(s.me) * LEVEL_VALUE
        treasures = fight.treasures - fight.reward if s.me is fight.fighter else fight.reward
        return levels + treasures * TREASURE_VALUE

    def _boost_plans(self, s: Situation, fight: Fight) -> list[tuple[float, Action]]:
        """Ways to turn the fight, each as (cost, first action): cards alone, or help with
        cards if need be."""
        uses = self._boosts(s)
        plans = []
        cards = cheapest_cover(uses, fight.to_win)
        if cards:
            plans.append((sum(u.cost for u in cards), max(cards, key=lambda u: u.points).action))
        ask = self._help_to_ask(s, fight)
        if ask is not None:
            added = fight.lead_with(s.seats[ask.arg or ""]) - fight.lead
            rest = cheapest_cover(uses, fight.to_win - added)
            if rest is not None:
                cost = ask.reward * TREASURE_VALUE + HELP_OVERHEAD + sum(u.cost for u in rest)
                plans.append((cost, ask))
        return plans

    def _boosts(self, s: Situation) -> list[Use]:
        """Each hand card's best use for the munchkins: a one-shot, a monster weakened, or
        the price of berserking or turning (B14, B16), at most 3 cards per power."""
        by_card: dict[str, list[tuple[int, Action]]] = {}
        for a in s.legal("play", target=None):
            card = s.card(a.arg)
            if a.on is None and card.type == "one_shot" and card.bonus > 0:
                by_card.setdefault(card.id, []).append((card.bonus, a))
            elif a.on is not None and card.type == "monster_enhancer" and card.bonus < 0:
                by_card.setdefault(card.id, []).append((-card.bonus, a))
        for verb, points in (("berserk", 1), ("turn_undead", 3)):
            for a in s.legal(verb):
                by_card.setdefault(a.arg or "", []).append((points, a))
        uses: list[Use] = []
        paid = {"berserk": 0, "turn_undead": 0}
        for card_id in sorted(by_card, key=s.value):
            points, action = max(by_card[card_id], key=lambda use: use[0])
            for _ in range(sum(1 for c in s.hand if c.id == card_id)):
                if paid.get(action.verb) == s.options.get("power_discards", MAX_POWER_CARDS):
                    break
                if action.verb in paid:
                    paid[action.verb] += 1
                uses.append(Use(action, points, s.value(card_id)))
        return uses

    def _help_to_ask(self, s: Situation, fight: Fight) -> Action | None:
        """Whom to ask, not yet asked in this fight: whoever adds the most, not the leader
        (unless nobody else may and the leader is far from winning), nor an Elf it would make
        win; for the fewest treasures a rational helper accepts: one, none for an Elf, who
        gains a level (B8)."""
        if self._asked[0] != s.data["turn"]:
            self._asked = (s.data["turn"], set())
        candidates = []
        for other in s.opponents:
            elf = "elf" in other.races
            too_close = other is s.leader and other.level >= other.win_level - 2
            makes_win = elf and other.level + len(fight.monsters) >= other.win_level
            if other.name in self._asked[1] or too_close or makes_win:
                continue
            action = s.legal("ask_help", arg=other.name, reward=min(0 if elf else 1, fight.treasures))
            if action:
                candidates.append((other is s.leader, -fight.lead_with(other), other.name, action[0]))
        return min(candidates)[3] if candidates else None

    def _hamper(self, s: Situation, fight: Fight) -> Action | None:
        """Stop anyone about to win the game with everything; turn a fight of the leader close
        to winning when the cards for it are worth less than what the fight would bring."""
        if not fight.munchkins_win:
            return None
        uses = self._hampers(s, fight)
        if fight.game_winner() is not None:
            best = max(uses, key=lambda u: (u.stops_win, u.points, -u.cost), default=None)
            return best.action if best and (best.points > 0 or best.stops_win) else None
        if not any(s.dangerous(seat, fight.gain(seat)) for seat in fight.fighters):
            return None
        plan = cheapest_cover(uses, fight.to_lose)
        budget = fight.levels * LEVEL_VALUE + fight.treasures * TREASURE_VALUE
        if plan is None or sum(u.cost for u in plan) > budget:
            return None
        return max(plan, key=lambda u: u.points).action

    def _hampers(self, s: Situation, fight: Fight) -> list[Use]:
        """Cards against the munchkins: monster enhancers and one-shots for the monsters, a
        Wandering Monster, backstabs and curses on the fighters (B14, B15, B16)."""
        uses = [Use(a, 2, s.value(a.arg)) for a in s.legal("backstab")]
        winners = fight.game_winners()
        fighters = {f.name: f for f in fight.fighters}
        for a in s.legal("play"):
            card = s.card(a.arg)
            if a.on is not None and card.type in ("monster_enhancer", "one_shot") and card.bonus > 0:
                uses.append(Use(a, card.bonus, s.value(a.arg)))
            elif card.type == "wandering_monster":
                points = monster_strength(s.card(a.on), fight.fighters)
                uses.append(Use(a, points, s.value(a.arg) + s.value(a.on)))
            elif card.type in ("curse", "trap") and a.target in fighters:
                victim = fighters[a.target or ""]
                level_after = victim.level - levels_lost(card.effects, victim) + fight.gain(victim)
                stops = winners == [victim] and level_after < victim.win_level
                uses.append(Use(a, weakening(card.effects, victim), s.value(a.arg), stops))
        return uses

    # -- own turn ------------------------------------------------------------------------------

    def _own_turn(self, s: Situation) -> Action | None:
        """Grow stronger, then take the turn's next step."""
        steps: tuple[Rule, ...] = (
            self._fight_face_up_steed,
            self._play_traits,
            self._play_kept_cards,
            self._play_steeds_and_items,
            self._arrange_items,
            self._play_utilities,
            self._curse,
            self._sell,
            self._next_step,
        )
        return next((action for step in steps if (action := step(s)) is not None), None)

    def _fight_face_up_steed(self, s: Situation) -> Action | None:
        """Fight a steed drawn face up as a monster when it is clearly beaten (S9)."""
        return next((a for a in s.legal("monstrify") if self._beats(s, s.card(a.arg))), None)

    @staticmethod
    def _beats(s: Situation, monster: CardDef) -> bool:
        """Whether the bot is clearly stronger than a monster, counting on part of its combat
        one-shots; on all of them, and no margin, for the fight that wins the game."""
        levels = 1 if monster.type == "steed" else monster.levels
        all_in = s.me.level + levels >= s.me.win_level
        reserve = sum(c.bonus for c in s.hand if c.type == "one_shot" and c.uses == "combat")
        share, margin = (1.0, 0) if all_in else (RESERVE_SHARE, TROUBLE_MARGIN)
        return strength(s.me) + share * reserve >= monster_strength(monster, [s.me]) + margin

    def _play_traits(self, s: Situation) -> Action | None:
        """A race or class for an empty place, or one clearly better than the one it replaces (R8)."""
        held = [c for c, _ in s.me.in_play()] + s.hand
        best: tuple[float, Action] | None = None
        for a in s.legal("play", target=None, on=None):
            card = s.card(a.arg)
            if card.type not in ("race", "class"):
                continue
            zone = s.me.cards("races" if card.type == "race" else "classes")
            boosts = s.me.cards("boosts")
            places = 1 + sum(b.extra_races if card.type == "race" else b.extra_classes for b in boosts)
            replaced = trait_score(zone[0], held) + 0.5 if len(zone) >= places else 0.0
            gain = trait_score(card, held) - replaced
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _play_kept_cards(self, s: Situation) -> Action | None:
        """Cards that stay in play: Half-Breed, Super Munchkin, race and class enhancers, steed
        enhancers, and a Cheat! on the best card the bot could not use without it (B14, B17, S5)."""
        plays = s.legal("play")
        kept = [a for a in plays if s.card(a.arg).type in ("other", "steed_enhancer", "item_enhancer")]
        if kept:
            return kept[0]
        cheats = [a for a in plays if s.card(a.arg).type == "cheat" and self._cheat_gain(s, a) >= 2]
        return self._best(cheats, lambda a: self._cheat_gain(s, a))

    @staticmethod
    def _cheat_gain(s: Situation, action: Action) -> int:
        """The bonus a Cheat! unlocks: a carried item the bot may not use, or a hand card it
        could not play without one (B17)."""
        target = s.card(action.on)
        carried = any(c.id == target.id for c in s.me.cards("carried"))
        if carried and not usable(target, s.me):
            return target.bonus
        blocked = s.in_hand(target.id) and not s.legal("play", arg=target.id, on=None)
        return target.bonus if blocked else 0

    def _play_steeds_and_items(self, s: Situation) -> Action | None:
        """Steeds it can ride; items it can use, and small ones it cannot (to carry and sell)."""
        for a in s.legal("play", target=None, on=None):
            card = s.card(a.arg)
            if card.type == "steed" and usable(card, s.me):
                return a
            if card.type == "item" and (usable(card, s.me) or not (card.big or card.complex)):
                return a
        return None

    def _arrange_items(self, s: Situation) -> Action | None:
        """Use the best items the slots and hands allow; hand the rest to carrier hirelings (B11, H7)."""
        best = best_layout(s.me)
        equipped = {c.id for c in s.me.cards("equipped")}
        for a in s.legal("unequip"):
            if a.arg in equipped and a.arg not in best:
                return a
        for a in s.legal("equip", hireling=None):
            if a.arg in best:
                return a
        spare = [a for a in s.legal("equip") if a.hireling and a.arg not in best and s.card(a.arg).bonus > 0]
        return self._best(spare, lambda a: s.card(a.arg).bonus)

    def _play_utilities(self, s: Situation) -> Action | None:
        """Loot boxes at once, a curse remover when cursed, Divine Intervention for a Cleric
        when no other Cleric would win by it."""
        for a in s.legal("play", target=None, on=None):
            card = s.card(a.arg)
            kinds = {e.kind for e in card.effects}
            if "draw_treasures" in kinds or ("remove_curse" in kinds and s.me.table["lasting"]):
                return a
            if card.type == "divine_intervention" and "cleric" in s.me.classes:
                rivals = [o for o in s.opponents if "cleric" in o.classes and o.level >= o.win_level - 1]
                if not rivals:
                    return a
        return None

    def _curse(self, s: Situation) -> Action | None:
        """Curse the leader where it hurts; with too many cards at the end of the turn, whoever
        it hurts most rather than give the curse away (B5, B15)."""
        over_limit = s.data["phase"] == "end" and len(s.hand) > s.data["hand_limit"]

        def score(a: Action) -> float:
            victim = s.seats[a.target or ""]
            weight = 1.0 if victim is s.leader else 0.5 if over_limit and victim is not s.me else 0.0
            return weight * harm(s.card(a.arg).effects, victim, victim.hand_count)

        curses = [a for a in s.legal("play") if s.card(a.arg).type in ("curse", "trap") and score(a) > 0]
        return self._best(curses, score)

    def _sell(self, s: Situation) -> Action | None:
        """The sale that gains most: levels (each full 1000 gold, never the winning one) for
        less than they are worth, the least useful items first; a Halfling's first sale of the
        turn counts its best item twice (B12, B14). With pooled gold (a table option) items
        are sold one by one, the most valuable first, once the turn's gold then reaches 1000."""
        if not s.legal("sell"):
            return None
        if s.options.get("sale_gold") == "pooled":
            return self._sell_pooled(s)
        gains = {
            a: self._sale_levels(s, a.cards) * LEVEL_VALUE - self._sale_costs(s, a.cards)
            for a in s.legal("sell")
        }
        return self._best([a for a, gain in gains.items() if gain > 0], gains.__getitem__)

    def _sale_levels(self, s: Situation, card_ids: Sequence[str]) -> int:
        """Levels a sale of these items gives the bot (B12): never the winning level."""
        double = "halfling" in s.me.races and not s.data["double_sale_used"]
        values = [s.card(c).value or 0 for c in card_ids]
        gold = self._sale_gold(values, double)
        if s.options.get("sale_gold") == "pooled":
            gold += s.data["gold_this_turn"]
        return max(0, min(gold // GOLD_PER_LEVEL, s.me.win_level - 1 - s.me.level))

    def _sale_costs(self, s: Situation, card_ids: Sequence[str]) -> float:
        return sum(self._sale_cost(s, c) for c in card_ids)

    def _sell_pooled(self, s: Situation) -> Action | None:
        """Sell what costs less than a level to lose, when this turn's gold then reaches 1000;
        the most valuable first (B12, R7)."""
        gold = s.data["gold_this_turn"]
        double = "halfling" in s.me.races and not s.data["double_sale_used"]
        goods = [(a, self._sale_cost(s, a.cards[0]), s.card(a.cards[0]).value or 0) for a in s.legal("sell")]
        chosen: list[tuple[Action, float, int]] = []
        for good in sorted((g for g in goods if g[2] > 0), key=lambda g: (g[1] / g[2], -g[2])):
            if gold + self._sale_gold([g[2] for g in chosen], double) >= GOLD_PER_LEVEL:
                break
            chosen.append(good)
        enough = gold + self._sale_gold([g[2] for g in chosen], double) >= GOLD_PER_LEVEL
        if not enough or sum(g[1] for g in chosen) >= LEVEL_VALUE or s.me.level >= s.me.win_level - 1:
            return None
        return max(chosen, key=lambda g: g[2])[0]

    @staticmethod
    def _sale_gold(values: Sequence[int], double: bool) -> int:
        return sum(values) + (max(values, default=0) if double else 0)

    @staticmethod
    def _sale_cost(s: Situation, card_id: str) -> float:
        """What selling a card loses: little for a card the bot does not use, else its use."""
        card = s.card(card_id)
        if s.in_hand(card_id):
            return 0.1 if card.type in ("item", "steed") else s.value(card_id)
        used = any(c.id == card_id and in_use for c, in_use in s.me.in_play())
        if not used or (card.type == "item" and card_id not in best_layout(s.me)):
            return 0.1
        return use_worth(card) + (1.0 if card.type == "hireling" else 0.0)

    def _next_step(self, s: Situation) -> Action | None:
        """Kick the door; keep a face-up card not played; fight a monster from the hand that is
        clearly beaten, else loot; end the turn; end the setup (B1, B4)."""
        step = s.legal("kick_door", arg=None) or s.legal("keep")
        if step:
            return step[0]
        trouble = [a for a in s.legal("look_for_trouble") if self._beats(s, s.card(a.arg))]
        if trouble:
            return self._best(trouble, lambda a: s.card(a.arg).levels + 0.5 * s.card(a.arg).treasures)
        return next((s.legal(verb)[0] for verb in ("loot_room", "end_turn", "pass") if s.legal(verb)), None)


def best_layout(me: Seat) -> set[str]:
    """The ids of the items worth using together: the best of each worn slot, the best hands'
    worth, every item with no slot; ties keep the items already in use (B11, H6)."""
    items = [(c, True, on) for c, on in me.with_attached("equipped")]
    items += [(c, False, on) for c, on in me.with_attached("carried")]
    mine = [
        (c, in_use)
        for c, in_use, on in items
        if c.type == "item" and usable(c, me, any(e.type == "cheat" for e in on))
    ]

    def score(entry: tuple[CardDef, bool]) -> tuple[float, bool, str]:
        return (use_worth(entry[0]), entry[1], entry[0].id)

    chosen = {c.id for c, _ in mine if c.slot == "none"}
    for slot in WORN_SLOTS:
        worn = [e for e in mine if e[0].slot == slot]
        if worn:
            chosen.add(max(worn, key=score)[0].id)
    held = [e for e in mine if e[0].slot == "hands"]
    capacity = 2 + sum(c.extra_hands for c in me.cards("steeds"))
    capacity += sum(h.extra_hands for h, _ in me.hirelings() if h.carries == 0)
    fits = [
        combo
        for n in range(len(held) + 1)
        for combo in combinations(held, n)
        if sum(c.hands for c, _ in combo) <= capacity
    ]
    best = max(fits, key=lambda combo: (sum(score(e)[0] for e in combo), sum(e[1] for e in combo)))
    return chosen | {c.id for c, _ in best}
