"""The heuristic bot: a handful of scores read from its own view, never from the game state.

Everything is valued in strength points (a +1 bonus is worth 1, a level `LEVEL_VALUE`),
from the face-up tables and the card definitions (public, like reading the cards). The
modules, one concept each:

- `seats`: a player's table read from the view: traits, cards in play, `strength`, `threat`;
- `values`: what a card in the hand or in play is worth to the bot (`card_value`);
- `harms`: what effects (Bad Stuff, curses) would cost a player, and running away;
- `situation`: one decision, the view read once, with the fight on (`Fight`);
- `fights`: its own fights, won by the cheapest means (`cheapest_cover`), or given up;
- `helping`: whom it asks for help, and when it helps;
- `hampering`: others' fights, turned when they would win the game or bring the leader close;
- `running`: running away, hirelings sacrificed, flight and re-rolls;
- `answers`: the questions put to it (loot, charity, limits, a tax, a die to set);
- `responses`: answers to a roll or a curse awaiting them (a die set, a roll again, a curse
  cancelled);
- `fight_words`: what the fight words of cards do to a fight, for `fights` and `hampering`;
- `limits`: limits put right (B11);
- `equipment`, `selling`, `curses`, `own_turn`: its own turn.

With them it wins its fights by the cheapest means (class powers, one-shots, a helper
bribed with the fewest treasures), adds a Wandering Monster or a twin to a fight won
comfortably, or runs, sacrificing a hireling when that is cheaper than the expected Bad
Stuff; helps others for treasure, but never someone the fight would make win nor the
leader close to winning; turns the leader's fights when that is worth the cards, and anyone's fight that
would win the game with everything it has; on its own turn plays what makes it stronger,
uses the best items, sells what it can spare for levels and curses the leader. A seeded
random source only breaks ties, so a game replays exactly from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from munchkin.bots.heuristic.answers import answer_prompt
from munchkin.bots.heuristic.fights import own_fight
from munchkin.bots.heuristic.hampering import others_fight
from munchkin.bots.heuristic.helping import answer_help_request
from munchkin.bots.heuristic.own_turn import own_turn, play_anytime
from munchkin.bots.heuristic.responses import answer_pending
from munchkin.bots.heuristic.running import run
from munchkin.bots.heuristic.seats import builtin_definitions
from munchkin.bots.heuristic.selling import answer_offer
from munchkin.bots.heuristic.situation import Memory, Rule, Situation
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.views import PlayerView

__all__ = ["HeuristicBot"]

RULES: tuple[Rule, ...] = (
    answer_prompt,
    answer_pending,
    answer_offer,
    answer_help_request,
    play_anytime,
    run,
    own_fight,
    others_fight,
    own_turn,
)
"""The bot's rules in order: the first with something to do decides."""
FALLBACK_VERBS = ("pass", "end_turn", "decline_help", "decline_trade", "resolve_combat", "run_away")


class HeuristicBot:
    """Plays by the rules above, from its own view only; a seeded source breaks ties."""

    def __init__(self, seed: int = 0, cards: Sequence[CardDef] | None = None) -> None:
        self.rng = random.Random(seed)
        self.defs = builtin_definitions() if cards is None else {c.id: c for c in cards}
        self.memory = Memory()

    def choose(self, view: PlayerView) -> Action:
        """The first rule with something to do decides; else do nothing where that is
        allowed, or anything legal."""
        s = Situation(view, self.defs, self.rng, self.memory)
        for rule in RULES:
            action = rule(s)
            if action is not None:
                return action
        for verb in FALLBACK_VERBS:
            if s.legal(verb):
                return s.legal(verb)[0]
        return self.rng.choice(s.view.legal)
