"""The engine's one entry point: legal actions, apply, copy, explain (architecture.md).

A `Game` holds a `GameState` and nothing else that matters: no clock, no files,
no global random. Every change goes through `apply`, which validates first and
changes nothing on refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from munchkin.cards.schema import CardDef
from munchkin.engine import flow, why
from munchkin.engine.actions import Action
from munchkin.engine.dice import Dice
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.explain import Breakdown
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.engine.rules import (  # noqa: F401  (each module registers its verbs)
    discarding,
    equipment,
    help,
    hirelings,
    play,
    player_effects,
    powers,
    run_away,
    trade_sell,
    turn,
)
from munchkin.engine.rules.character import hand_limit
from munchkin.engine.rules.decks import deal
from munchkin.engine.rules.strength import character_parts, monster_side, munchkin_side
from munchkin.engine.serialize import fingerprint, snapshot
from munchkin.engine.state import GameState, PlayerState
from munchkin.engine.verbs import REGISTRY

MIN_DOORS = 40
MIN_TREASURES = 30


KEYWORDS = frozenset({"discard"})
"""Arguments that are neither a player nor a card: a Cleric's kick from the discard (B14)."""


def unknown_name(state: GameState, action: Action, ids: frozenset[str]) -> str | None:
    """Why an action names no player or card of this game (`ids`: its cards' ids) where it
    names one, or None: its words reach every player's log and the saved game, so they are
    never free text (B4). A prompt's answer (`choose`) is checked against the prompt's own
    options."""
    names = {p.name for p in state.players}
    if action.target is not None and action.target not in names:
        return f"target {_shown(action.target)} names no player of this game"
    arg = action.arg
    if action.verb != "choose" and arg is not None and not (arg in names or arg in ids or arg in KEYWORDS):
        return f"{_shown(arg)} names no player or card of this game"
    named = (("on", action.on), ("hireling", action.hireling))
    listed = (("cards", action.cards), ("give", action.give), ("take", action.take))
    for field, value in (*named, *((f, v) for f, values in listed for v in values)):
        if value is not None and value not in ids:
            return f"{field} {_shown(value)} names no card of this game"
    return None


def _shown(text: str) -> str:
    """A name given in an action, cut short and quoted with its control characters escaped."""
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


class SetupError(ValueError):
    """A game that cannot be set up (too few players, too few cards)."""


class Game:
    """A game of Munchkin: ask who may act and what, then apply their decisions."""

    __slots__ = ("_ids", "_listed", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._listed: dict[str, list[Action]] = {}  # by player, until `apply` changes the state
        self._ids: frozenset[str] | None = None  # the ids of the game's cards, once asked

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        cards: Sequence[CardDef],
        players: Sequence[tuple[str, str]],
        seed: int = 0,
        options: TableOptions = DEFAULT_OPTIONS,
    ) -> Game:
        """A new game by the table's options: shuffled decks, 4 door and 4 treasure cards
        each, then everyone may play races, classes and items before the first turn (B1)."""
        if not 2 <= len(players) <= 6:
            raise SetupError("a game has 2 to 6 players (B1)")
        defs = tuple(card for card in cards for _ in range(card.copies))
        doors = sum(1 for card in defs if card.deck == "door")
        if doors < MIN_DOORS or len(defs) - doors < MIN_TREASURES:
            raise SetupError(
                f"the chosen card sets hold {doors} door and {len(defs) - doors} treasure cards; "
                f"a game needs at least {MIN_DOORS} and {MIN_TREASURES} (add the base set)"
            )
        state = GameState(defs, [PlayerState(name, sex) for name, sex in players], Dice(seed), options)
        for inst, card in enumerate(defs):
            (state.door_deck if card.deck == "door" else state.treasure_deck).append(inst)
        state.dice.shuffle(state.door_deck)
        state.dice.shuffle(state.treasure_deck)
        ev: list[Event] = []
        for seat in range(len(players)):
            deal(state, seat, ev)
        state.phase = "setup"
        state.setup_passed = [False] * len(players)
        game = cls(state)
        flow.advance(state, ev)
        return game

    # -- the API -----------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return [p.name for p in self.state.players]

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def winners(self) -> list[str]:
        """Everyone who won: several when one fight took them to the win level together (B2)."""
        return [self.state.players[w].name for w in self.state.winners]

    @property
    def winner(self) -> str | None:
        """The first winner, or None (with several, see `winners`)."""
        return self.winners[0] if self.state.winners else None

    @property
    def options(self) -> TableOptions:
        """The table's rule options, chosen when the game was set up."""
        return self.state.options

    def legal_actions(self, player: str) -> list[Action]:
        """Every action `player` may take now, out-of-turn ones included."""
        listed = self._listed.get(player)
        if listed is None:
            listed = self._listed[player] = flow.legal_actions(self.state, self.state.index(player))
        return list(listed)

    def waiting_for(self) -> list[str]:
        """Players whose decision holds the game up now."""
        return [self.state.players[i].name for i in flow.waiting_for(self.state)]

    def default_action(self, player: str) -> Action:
        """Pass where passing is allowed, else the first legal option."""
        return flow.default_action(self.state, self.state.index(player))

    def check(self, player: str, action: Action) -> None:
        """Raise RulesError if the action is not legal now; change nothing."""
        try:
            seat = self.state.index(player)
        except KeyError:
            raise RulesError("B1", f"there is no player '{player}'") from None
        verb = REGISTRY.get(action.verb)
        if verb is None:
            raise RulesError("B4", f"unknown verb '{action.verb}'")
        if self.state.phase == "over":
            raise RulesError("B2", "the game is over")
        stray = action.stray_fields()
        if stray:
            raise RulesError("B4", f"{action.verb} takes no {', '.join(stray)}")
        if self._ids is None:
            self._ids = frozenset(card.id for card in self.state.cards)
        unknown = unknown_name(self.state, action, self._ids)
        if unknown is not None:
            raise RulesError("B4", unknown)
        if self.state.players[seat].dead:
            raise RulesError("B10", "the dead make no decisions until their next turn")
        verb.check(self.state, seat, action)

    def refusal(self, player: str, action: Action) -> RulesError | None:
        """Why `apply` would refuse this action now (rule and message), or None (issue 13)."""
        return why.refusal(self, player, action)

    def why_not_play(self, player: str, card_id: str) -> RulesError | None:
        """Why no play of this card of the hand is legal now, or None when one is."""
        return why.why_not_play(self, player, card_id)

    def consequences(self, player: str, action: Action) -> list[why.Consequence]:
        """What a legal action also does to its player's cards, worth a warning first."""
        return why.consequences(self, player, action)

    def apply(self, player: str, action: Action) -> list[Event]:
        """Validate, change the state, and return what happened. An action already listed
        by `legal_actions` for this state passed the same checks then, so is not checked again."""
        if action not in self._listed.get(player, ()):
            self.check(player, action)
        self._listed = {}
        ev: list[Event] = []
        REGISTRY[action.verb].do(self.state, self.state.index(player), action, ev)
        flow.advance(self.state, ev)
        return ev

    def fingerprint(self) -> str:
        """The whole state as a canonical string (equal states, equal strings)."""
        return fingerprint(self.state)

    def snapshot(self) -> tuple[object, ...]:
        """The whole state as nested tuples, cheaper than `fingerprint` to compare."""
        return snapshot(self.state)

    def copy(self) -> Game:
        """An independent copy (bots and search copy games often)."""
        return Game(self.state.copy())

    # -- explanations --------------------------------------------------------------------

    def explain_combat(self) -> tuple[Breakdown, Breakdown]:
        """Both sides' strength in the fight on now (B6)."""
        return munchkin_side(self.state), monster_side(self.state)

    def explain_strength(self, player: str) -> Breakdown:
        """A character's own combat strength outside any fight (B6)."""
        return Breakdown(player, tuple(character_parts(self.state, self.state.index(player))))

    def explain_run_away(self, player: str) -> Breakdown:
        """What would be added to a run-away roll now (B9, S6)."""
        monsters = self.state.combat.monsters if self.state.combat else []
        single = monsters[0] if len(monsters) == 1 else None
        return run_away.run_modifier(self.state, self.state.index(player), single)

    def hand_limit(self, player: str) -> int:
        return hand_limit(self.state, self.state.players[self.state.index(player)])
