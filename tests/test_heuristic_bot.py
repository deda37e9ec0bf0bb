"""The heuristic bot: it wins at least half of its 4-player games against three random bots,
only ever picks an action its view lists, never reads the state, replays from its seed, and
makes the decisions its rules promise in positions built for them."""

from __future__ import annotations

import ast
from pathlib import Path

from bot_positions import CATALOG, SETS, answer_until, choice, play_until, start
from munchkin.bots import Bot, heuristic
from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.setup import HirelingSetup, PlayerSetup, Position, build
from munchkin.match import play_match, seat_players
from munchkin.views import PlayerView

GAMES = 200
PLAYERS = 4
NAMES = [name for name, _ in seat_players(PLAYERS)]


class LegalOnly:
    """Passes each view to the bot and checks that its answer is one of the view's actions."""

    def __init__(self, bot: HeuristicBot) -> None:
        self.bot = bot

    def choose(self, view: PlayerView) -> Action:
        action = self.bot.choose(view)
        assert action in view.legal, f"{view.player} chose {action}, not among {view.legal}"
        return action


def _seat(seed: int) -> int:
    """Seat 0 in the first half of the games, then a seat that turns with the seed."""
    return 0 if seed < GAMES // 2 else seed % PLAYERS


def _heuristic_wins(seed: int, cards: list[CardDef]) -> bool:
    seat = _seat(seed)
    bots: list[Bot] = [RandomBot(seed * 10 + i) for i in range(PLAYERS)]
    bots[seat] = LegalOnly(HeuristicBot(seed, cards))
    return play_match(cards, PLAYERS, seed, bots).winner == NAMES[seat]


def test_heuristic_bot_wins_half_of_its_games_against_random_bots_with_legal_actions() -> None:
    """200 games, the card-set choices taking turns every 4 seeds (so each meets every seat);
    every decision is checked by `LegalOnly`."""
    choices = list(SETS.values())
    wins = sum(_heuristic_wins(seed, choices[seed // PLAYERS % len(choices)]) for seed in range(GAMES))
    assert wins / GAMES >= 0.5, f"the heuristic bot won {wins} of {GAMES} games"


def test_the_bot_never_imports_the_state_or_the_game() -> None:
    """No module of the bot's package imports the game or its state."""
    imported = []
    for module in Path(heuristic.__file__).parent.glob("*.py"):
        tree = ast.parse(module.read_text())
        imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [
            alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        ]
    forbidden = ("munchkin.engine.state", "munchkin.engine.game", "munchkin.engine.rules")
    assert imported and not [m for m in imported if m.startswith(forbidden)]


def test_a_game_replays_exactly_from_its_seed() -> None:
    cards = SETS["base+horses"]

    def decisions() -> list[tuple[str, Action]]:
        bots: list[Bot] = [HeuristicBot(7, cards), RandomBot(1), RandomBot(2), RandomBot(3)]
        return play_match(cards, PLAYERS, 7, bots).decisions

    assert decisions() == decisions()


# -- decisions in positions built for them --------------------------------------------------------


def test_a_one_shot_turns_a_lost_fight_and_is_kept_when_already_winning() -> None:
    losing = start(
        [PlayerSetup("Ann", hand=["flask-of-liquid-courage"]), PlayerSetup("Bob")], ["paperwork-imp"]
    )
    losing.apply("Ann", Action("kick_door"))
    assert choice(losing, "Ann") == Action("play", "flask-of-liquid-courage")
    winning = start(
        [PlayerSetup("Ann", level=4, hand=["flask-of-liquid-courage"]), PlayerSetup("Bob")], ["paperwork-imp"]
    )
    winning.apply("Ann", Action("kick_door"))
    assert choice(winning, "Ann") == Action("resolve_combat")


def test_help_is_asked_of_the_strongest_player_who_is_not_the_leader_for_one_treasure() -> None:
    game = start(
        [
            PlayerSetup("Ann"),
            PlayerSetup("Bob", level=8, equipped=["comically-large-hammer"]),
            PlayerSetup("Cid", level=2, equipped=["sword-of-moderate-slicing"]),
            PlayerSetup("Dee", level=2),
        ],
        ["tax-collecting-goose"],
    )
    game.apply("Ann", Action("kick_door"))
    assert choice(game, "Ann") == Action("ask_help", "Cid", reward=1)


def test_help_is_refused_to_a_player_the_fight_would_make_win() -> None:
    def asked_by_bob(level: int) -> Action:
        game = start(
            [
                PlayerSetup("Bob", level=level),
                PlayerSetup("Ann", level=6, equipped=["crown-of-questionable-authority"]),
            ],
            ["ogre-in-a-tutu"],
        )
        game.apply("Bob", Action("kick_door"))
        game.apply("Bob", Action("ask_help", "Ann", reward=1))
        return choice(game, "Ann")

    assert asked_by_bob(level=2) == Action("accept_help")
    assert asked_by_bob(level=9) == Action("decline_help")


def test_an_enhancer_goes_on_the_monster_of_a_fight_that_would_win_the_game() -> None:
    def ann_answers(bob_level: int) -> Action:
        game = start(
            [PlayerSetup("Bob", level=bob_level), PlayerSetup("Ann", level=5, hand=["comically-oversized"])],
            ["gerbil-of-mild-peril"],
        )
        game.apply("Bob", Action("kick_door"))
        return choice(game, "Ann")

    assert ann_answers(bob_level=9) == Action("play", "comically-oversized", on="gerbil-of-mild-peril")
    assert ann_answers(bob_level=3) == Action("pass")


def test_a_hireling_is_sacrificed_to_a_monster_that_cannot_be_escaped() -> None:
    game = start(
        [PlayerSetup("Ann", level=3, hirelings=[HirelingSetup("unpaid-torchbearer")]), PlayerSetup("Bob")],
        ["bureaucratic-basilisk"],
    )
    game.apply("Ann", Action("kick_door"))
    chosen = play_until(game, "Ann", "sacrifice_hireling")
    assert chosen == [Action("resolve_combat"), Action("sacrifice_hireling", "unpaid-torchbearer")]
    assert game.state.players[0].level == 3


def test_spare_items_are_sold_together_for_a_level_and_the_best_one_kept() -> None:
    """One sale of the items that make 1000 gold, each of them needed (B12, R7); the
    crown, the best headgear, stays in use, the small change too."""
    needed = ["conical-hat-of-big-brains", "tinfoil-thinking-cap", "viking-lid-of-overcompensation"]
    game = start(
        [
            PlayerSetup(
                "Ann",
                level=2,
                equipped=["crown-of-questionable-authority"],
                carried=[*needed, "bucket-of-valor"],
            ),
            PlayerSetup("Bob"),
        ],
        ["elf"],
    )
    chosen = play_until(game, "Ann", "kick_door")
    assert [sorted(a.cards) for a in chosen if a.verb == "sell"] == [needed]
    ann = game.state.players[0]
    assert ann.level == 3 and game.state.ids(ann.equipped) == ["crown-of-questionable-authority"]
    assert game.state.ids(ann.carried) == ["bucket-of-valor"]


def test_the_better_item_is_worn_and_a_curse_goes_to_the_leader() -> None:
    game = start(
        [
            PlayerSetup(
                "Ann",
                equipped=["bucket-of-valor"],
                carried=["crown-of-questionable-authority"],
                hand=["stubbed-toe-of-doom"],
            ),
            PlayerSetup("Bob", level=7),
            PlayerSetup("Cid", level=3),
        ],
        ["elf"],
    )
    chosen = play_until(game, "Ann", "kick_door")
    assert chosen[:3] == [
        Action("unequip", "bucket-of-valor"),
        Action("equip", "crown-of-questionable-authority"),
        Action("play", "stubbed-toe-of-doom", target="Bob"),
    ]


def test_a_warrior_berserks_with_its_least_useful_card_to_win_a_tie() -> None:
    game = start(
        [
            PlayerSetup("Ann", class_=["warrior"], hand=["exploding-cabbage", "fungal-colossus"]),
            PlayerSetup("Bob"),
        ],
        ["paperwork-imp"],
    )
    game.apply("Ann", Action("kick_door"))
    assert choice(game, "Ann") == Action("berserk", "fungal-colossus")


def test_charity_gives_away_the_least_useful_cards() -> None:
    monsters = ["apocalypse-llama", "dungeon-masters-cat", "elder-lawn-wyrm"]
    game = start(
        [
            PlayerSetup("Ann", level=2, hand=[*monsters, "hat-eating-moths", "exploding-cabbage", "cheat"]),
            PlayerSetup("Bob"),
        ],
        ["elf", "sock-gremlin"],
    )
    chosen = play_until(game, "Ann", "choose")
    chosen += play_until(game, "Ann", "choose")
    given = [a.arg for a in chosen if a.verb == "choose"]
    assert len(given) == 2 and set(given) <= {*monsters, "sock-gremlin"}


# -- the questions of issue 11 ------------------------------------------------------------------


def test_a_wizard_pays_cheap_cards_for_flight_from_painful_bad_stuff() -> None:
    """A roll of 3 misses by 2: two cheap cards for +1 each save two levels and the hat (B14)."""
    hand = ["bucket-of-valor", "pet-rock-of-protection"]
    game = build(
        CATALOG,
        Position(
            [PlayerSetup("Ann", level=3, class_=["wizard"], hand=hand), PlayerSetup("Bob")],
            door_deck=["yeti-influencer"],
        ),
        dice=[3],
    )
    game.apply("Ann", Action("kick_door"))
    assert answer_until(game, "Ann", "flight") == Action("choose", "bucket-of-valor")
    assert answer_until(game, "Ann", "flight") == Action("choose", "pet-rock-of-protection")
    assert game.state.players[0].level == 3 and game.state.combat is None


def test_a_wizard_with_nothing_to_lose_keeps_its_cards() -> None:
    """At level 1 with no headgear the Bad Stuff costs nothing: flight is declined (B14)."""
    hand = ["bucket-of-valor", "pet-rock-of-protection"]
    game = build(
        CATALOG,
        Position(
            [PlayerSetup("Ann", level=1, class_=["wizard"], hand=hand), PlayerSetup("Bob")],
            door_deck=["yeti-influencer"],
        ),
        dice=[3],
    )
    game.apply("Ann", Action("kick_door"))
    assert answer_until(game, "Ann", "flight") == Action("choose", "decline")
    assert sorted(game.state.ids(game.state.players[0].hand)) == sorted(hand)


def test_charity_goes_to_the_least_dangerous_of_the_tied_lowest() -> None:
    """Bob and Cid are both level 2; Cid is far stronger, so Bob gets the card (B5)."""
    hand = [
        "apocalypse-llama",
        "dungeon-masters-cat",
        "elder-lawn-wyrm",
        "hat-eating-moths",
        "cheat",
        "cheat",
    ]
    game = start(
        [
            PlayerSetup("Ann", level=5, hand=hand),
            PlayerSetup("Bob", level=2),
            PlayerSetup("Cid", level=2, equipped=["crown-of-questionable-authority", "iron-clogs"]),
        ],
        ["elf"],
    )
    assert answer_until(game, "Ann", "charity_to") == Action("choose", "Bob")


def test_when_half_breed_goes_the_more_useful_race_is_kept() -> None:
    """Elf or Dwarf: the Dwarf, whose axe the bot wields (B14)."""
    game = start(
        [
            PlayerSetup(
                "Ann", level=3, race=["elf", "dwarf"], boosts=["half-breed"], equipped=["axe-of-grudges"]
            ),
            PlayerSetup("Bob"),
        ],
        ["elf"],
    )
    game.apply("Ann", Action("discard", "half-breed"))
    assert answer_until(game, "Ann", "keep_race") == Action("choose", "dwarf")
    assert game.state.ids(game.state.players[0].races) == ["dwarf"]


def test_when_super_munchkin_goes_the_more_useful_class_is_kept() -> None:
    game = start(
        [
            PlayerSetup("Ann", level=3, class_=["wizard", "warrior"], boosts=["super-munchkin"]),
            PlayerSetup("Bob"),
        ],
        ["elf"],
    )
    game.apply("Ann", Action("discard", "super-munchkin"))
    assert answer_until(game, "Ann", "keep_class") == Action("choose", "warrior")


def test_a_half_elf_takes_the_bad_stuff_branch_that_hurts_less() -> None:
    """Elves lose 3 levels, everyone else 1: an Elf held alone beside Half-Breed chooses not
    to count as an Elf (B14)."""
    game = build(
        CATALOG,
        Position(
            [PlayerSetup("Ann", level=4, race=["elf"], boosts=["half-breed"]), PlayerSetup("Bob")],
            door_deck=["hipster-lich-apprentice"],
        ),
        dice=[1],
    )
    game.apply("Ann", Action("kick_door"))
    assert answer_until(game, "Ann", "half_trait") == Action("choose", "not as elf")
    assert game.state.players[0].level == 3


def _over_the_big_limit(others: list[PlayerSetup], big: list[str]) -> Game:
    """Ann stops being a Dwarf while she uses two Big items (B11, B14)."""
    game = start([PlayerSetup("Ann", level=3, race=["dwarf"], equipped=big), *others], ["elf"])
    game.apply("Ann", Action("discard", "dwarf"))
    return game


def test_a_big_item_over_the_limit_is_sold_when_that_gives_a_level() -> None:
    game = _over_the_big_limit([PlayerSetup("Bob")], ["gilded-toilet-throne", "plate-armor-of-clanking"])
    assert answer_until(game, "Ann", "get_rid") == Action("choose", "sell gilded-toilet-throne")
    ann = game.state.players[0]
    assert ann.level == 4 and game.state.ids(ann.equipped) == ["plate-armor-of-clanking"]


def test_a_big_item_over_the_limit_goes_to_the_weakest_player_when_no_sale_gives_a_level() -> None:
    others = [PlayerSetup("Bob", level=5, equipped=["crown-of-questionable-authority"]), PlayerSetup("Cid")]
    game = _over_the_big_limit(others, ["comically-large-hammer", "plate-armor-of-clanking"])
    assert answer_until(game, "Ann", "get_rid") == Action("choose", "give plate-armor-of-clanking to Cid")
    assert game.state.ids(game.state.players[2].equipped) == ["plate-armor-of-clanking"]


def test_a_big_item_over_the_limit_that_nobody_can_hold_is_discarded_the_least_valuable() -> None:
    others = [PlayerSetup("Bob", equipped=["gilded-toilet-throne"])]
    game = _over_the_big_limit(others, ["comically-large-hammer", "plate-armor-of-clanking"])
    assert answer_until(game, "Ann", "get_rid") == Action("choose", "plate-armor-of-clanking")
    assert game.state.ids(game.state.players[0].equipped) == ["comically-large-hammer"]


def _helped_cleric_win(top_discard: str) -> Game:
    """Ann, a Cleric, has won a helped fight: her first treasure is drawn face up (B7, B14)."""
    game = build(
        CATALOG,
        Position(
            [
                PlayerSetup("Ann", level=3, class_=["cleric"], hand=["pet-rock-of-protection"]),
                PlayerSetup("Bob", level=2),
            ],
            door_deck=["rustling-raccoon"],
            treasure_deck=["bucket-of-valor"] * 2,
            treasure_discard=[top_discard],
        ),
    )
    game.apply("Ann", Action("kick_door"))
    game.apply("Ann", Action("ask_help", "Bob"))
    game.apply("Bob", Action("accept_help"))
    game.apply("Ann", Action("resolve_combat"))
    return game


def test_a_cleric_pays_a_cheap_card_for_a_precious_treasure_discard() -> None:
    game = _helped_cleric_win("fully-matching-adventure-outfit")
    assert answer_until(game, "Ann", "resurrect") == Action("choose", "pet-rock-of-protection")
    assert game.state.ids(game.state.players[0].hand) == ["fully-matching-adventure-outfit"]


def test_a_cleric_draws_rather_than_pay_for_a_treasure_discard_worth_no_more() -> None:
    game = _helped_cleric_win("bucket-of-valor")
    assert answer_until(game, "Ann", "resurrect") == Action("choose", "draw")
