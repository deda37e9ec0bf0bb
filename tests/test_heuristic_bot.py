"""The heuristic bot: it wins at least half of its 4-player games against three random bots,
only ever picks an action its view lists, never reads the state, replays from its seed, and
makes the decisions its rules promise in positions built for them."""

from __future__ import annotations

import ast
from pathlib import Path

from munchkin.bots import Bot, heuristic
from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.setup import HirelingSetup, PlayerSetup, Position, build
from munchkin.match import play_match, seat_players
from munchkin.views import PlayerView, view

GAMES = 200
PLAYERS = 4
SETS = {"base": load_builtin_sets(["base"]), "base+horses": load_builtin_sets(["base", "horses"])}
CATALOG = {card.id: card for card in SETS["base+horses"]}
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
    tree = ast.parse(Path(heuristic.__file__).read_text())
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    forbidden = ("munchkin.engine.state", "munchkin.engine.game")
    assert imported and not [m for m in imported if m.startswith(forbidden)]


def test_a_game_replays_exactly_from_its_seed() -> None:
    cards = SETS["base+horses"]

    def decisions() -> list[tuple[str, Action]]:
        bots: list[Bot] = [HeuristicBot(7, cards), RandomBot(1), RandomBot(2), RandomBot(3)]
        return play_match(cards, PLAYERS, 7, bots).decisions

    assert decisions() == decisions()


# -- decisions in positions built for them --------------------------------------------------------


def _game(players: list[PlayerSetup], door: list[str] | None = None) -> Game:
    """A position at the start of the first player's turn; two treasures for a fight won."""
    return build(CATALOG, Position(players, door_deck=door or [], treasure_deck=["bucket-of-valor"] * 2))


def _choice(game: Game, player: str) -> Action:
    return HeuristicBot(0, SETS["base+horses"]).choose(view(game, player))


def _play_until(game: Game, player: str, verb: str, limit: int = 20) -> list[Action]:
    """The bot's decisions for `player`, applied, up to and including the first with `verb`."""
    chosen = []
    bot = HeuristicBot(0, SETS["base+horses"])
    for _ in range(limit):
        action = bot.choose(view(game, player))
        game.apply(player, action)
        chosen.append(action)
        if action.verb == verb:
            return chosen
    raise AssertionError(f"no {verb} in {chosen}")


def test_a_one_shot_turns_a_lost_fight_and_is_kept_when_already_winning() -> None:
    losing = _game(
        [PlayerSetup("Ann", hand=["flask-of-liquid-courage"]), PlayerSetup("Bob")], ["paperwork-imp"]
    )
    losing.apply("Ann", Action("kick_door"))
    assert _choice(losing, "Ann") == Action("play", "flask-of-liquid-courage")
    winning = _game(
        [PlayerSetup("Ann", level=4, hand=["flask-of-liquid-courage"]), PlayerSetup("Bob")], ["paperwork-imp"]
    )
    winning.apply("Ann", Action("kick_door"))
    assert _choice(winning, "Ann") == Action("resolve_combat")


def test_help_is_asked_of_the_strongest_player_who_is_not_the_leader_for_one_treasure() -> None:
    game = _game(
        [
            PlayerSetup("Ann"),
            PlayerSetup("Bob", level=8, equipped=["comically-large-hammer"]),
            PlayerSetup("Cid", level=2, equipped=["sword-of-moderate-slicing"]),
            PlayerSetup("Dee", level=2),
        ],
        ["tax-collecting-goose"],
    )
    game.apply("Ann", Action("kick_door"))
    assert _choice(game, "Ann") == Action("ask_help", "Cid", reward=1)


def test_help_is_refused_to_a_player_the_fight_would_make_win() -> None:
    def asked_by_bob(level: int) -> Action:
        game = _game(
            [
                PlayerSetup("Bob", level=level),
                PlayerSetup("Ann", level=6, equipped=["crown-of-questionable-authority"]),
            ],
            ["ogre-in-a-tutu"],
        )
        game.apply("Bob", Action("kick_door"))
        game.apply("Bob", Action("ask_help", "Ann", reward=1))
        return _choice(game, "Ann")

    assert asked_by_bob(level=2) == Action("accept_help")
    assert asked_by_bob(level=9) == Action("decline_help")


def test_an_enhancer_goes_on_the_monster_of_a_fight_that_would_win_the_game() -> None:
    def ann_answers(bob_level: int) -> Action:
        game = _game(
            [PlayerSetup("Bob", level=bob_level), PlayerSetup("Ann", level=5, hand=["comically-oversized"])],
            ["gerbil-of-mild-peril"],
        )
        game.apply("Bob", Action("kick_door"))
        return _choice(game, "Ann")

    assert ann_answers(bob_level=9) == Action("play", "comically-oversized", on="gerbil-of-mild-peril")
    assert ann_answers(bob_level=3) == Action("pass")


def test_a_hireling_is_sacrificed_to_a_monster_that_cannot_be_escaped() -> None:
    game = _game(
        [PlayerSetup("Ann", level=3, hirelings=[HirelingSetup("unpaid-torchbearer")]), PlayerSetup("Bob")],
        ["bureaucratic-basilisk"],
    )
    game.apply("Ann", Action("kick_door"))
    chosen = _play_until(game, "Ann", "sacrifice_hireling")
    assert chosen == [Action("resolve_combat"), Action("sacrifice_hireling", "unpaid-torchbearer")]
    assert game.state.players[0].level == 3


def test_spare_items_are_sold_together_for_a_level_and_the_best_one_kept() -> None:
    spare = [
        "tinfoil-thinking-cap",
        "bucket-of-valor",
        "helm-of-stylish-dents",
        "viking-lid-of-overcompensation",
    ]
    game = _game(
        [
            PlayerSetup("Ann", level=2, equipped=["crown-of-questionable-authority"], carried=spare),
            PlayerSetup("Bob"),
        ],
        ["elf"],
    )
    chosen = _play_until(game, "Ann", "kick_door")
    assert sorted(a.cards[0] for a in chosen if a.verb == "sell") == sorted(spare)
    ann = game.state.players[0]
    assert ann.level == 3 and game.state.ids(ann.equipped) == ["crown-of-questionable-authority"]


def test_the_better_item_is_worn_and_a_curse_goes_to_the_leader() -> None:
    game = _game(
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
    chosen = _play_until(game, "Ann", "kick_door")
    assert chosen[:3] == [
        Action("unequip", "bucket-of-valor"),
        Action("equip", "crown-of-questionable-authority"),
        Action("play", "stubbed-toe-of-doom", target="Bob"),
    ]


def test_a_warrior_berserks_with_its_least_useful_card_to_win_a_tie() -> None:
    game = _game(
        [
            PlayerSetup("Ann", class_=["warrior"], hand=["exploding-cabbage", "fungal-colossus"]),
            PlayerSetup("Bob"),
        ],
        ["paperwork-imp"],
    )
    game.apply("Ann", Action("kick_door"))
    assert _choice(game, "Ann") == Action("berserk", "fungal-colossus")


def test_charity_gives_away_the_least_useful_cards() -> None:
    monsters = ["apocalypse-llama", "dungeon-masters-cat", "elder-lawn-wyrm"]
    game = _game(
        [
            PlayerSetup("Ann", level=2, hand=[*monsters, "hat-eating-moths", "exploding-cabbage", "cheat"]),
            PlayerSetup("Bob"),
        ],
        ["elf", "sock-gremlin"],
    )
    chosen = _play_until(game, "Ann", "choose")
    chosen += _play_until(game, "Ann", "choose")
    given = [a.arg for a in chosen if a.verb == "choose"]
    assert len(given) == 2 and set(given) <= {*monsters, "sock-gremlin"}
