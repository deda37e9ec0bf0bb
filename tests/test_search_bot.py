"""The search bot is fair (issue 16): it is handed only its seat's view, the worlds it
searches look to that seat exactly like the true game, and cards hidden from it do not
change what it decides. Also its budget, its determinism and the cheating variant's
hook in `play_match`."""

from __future__ import annotations

import copy
import gc
import inspect
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from munchkin.bots.heuristic import HeuristicBot
from munchkin.bots.search import CheatingSearchBot, SearchBot
from munchkin.bots.search_worlds import WorldSampler
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.game import Game
from munchkin.engine.invariants import card_places, hidden_redrawn
from munchkin.engine.state import GameState
from munchkin.match import play_match, seat_players
from munchkin.views import PlayerView, view

SETS = {"base": load_builtin_sets(["base"]), "base+horses": load_builtin_sets(["base", "horses"])}


def mid_game_states(cards: list, seeds: range, every: int, limit: int) -> Iterator[Game]:
    """States of seeded games between heuristic bots, one every `every` decisions."""
    for seed in seeds:
        game = Game.new(cards, seat_players(4), seed=seed)
        bots = [HeuristicBot(seed * 10 + i, cards) for i in range(4)]
        chooser = random.Random(seed)
        for step in range(limit):
            if game.over:
                break
            if step % every == every - 1:
                yield game
            waiting = game.waiting_for()
            player = waiting[0] if len(waiting) == 1 else chooser.choice(waiting)
            game.apply(player, bots[game.players.index(player)].choose(view(game, player)))


def detached(v: PlayerView) -> PlayerView:
    """The same view as plain data, with no way back to the game it was read from."""
    data = copy.deepcopy(v.data)
    return PlayerView(v.player, list(v.legal), lambda: data)


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from `root` (classes and modules not followed)."""
    seen, todo = {id(root)}, [root]
    while todo:
        obj = todo.pop()
        yield obj
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type | type(inspect)):
                seen.add(id(ref))
                todo.append(ref)


def one_decision_state(cards: list) -> tuple[Game, str]:
    """A mid-game state and a player with several legal actions there."""
    for game in mid_game_states(cards, range(100), 7, 400):
        for player in game.players:
            if len(game.legal_actions(player)) > 2:
                return game, player
    raise AssertionError("no state with a choice")


@pytest.mark.parametrize("sets", ["base", "base+horses"])
def test_sampled_worlds_look_like_the_true_game_to_the_seat(sets: str) -> None:
    """For mid-game states and every seat: a world sampled from the seat's view gives that
    seat the same view and the same legal actions, and holds the game's cards, each once."""
    cards = SETS[sets]
    rng = random.Random(16)
    checked = 0
    for game in mid_game_states(cards, range(3), 11, 700):
        true_cards = Counter(d.id for d in game.state.defs)
        for player in game.players:
            seen = view(game, player)
            sampler = WorldSampler(detached(seen), cards, rng)
            for _ in range(2):
                world = sampler.sample(rng)
                theirs = view(world, player)
                assert theirs.data == seen.data, (sets, game.state.turn, player)
                assert sorted(theirs.legal, key=str) == sorted(seen.legal, key=str), (
                    sets,
                    game.state.turn,
                    player,
                )
                assert card_places(world.state) == []
                assert Counter(d.id for d in world.state.defs) == true_cards
                checked += 1
    assert checked > 300


def test_sampled_worlds_deal_the_hidden_cards_again() -> None:
    """Worlds differ where the seat cannot see: the other hands are dealt anew."""
    cards = SETS["base"]
    game, player = one_decision_state(cards)
    sampler = WorldSampler(view(game, player), cards, random.Random(1))
    rng = random.Random(2)
    hands = {
        tuple(tuple(world.state.ids(p.hand)) for p in world.state.players if p.name != player)
        for world in (sampler.sample(rng) for _ in range(10))
    }
    assert len(hands) > 1


def test_the_bot_is_handed_only_a_view_and_keeps_no_game() -> None:
    """`choose` takes a view alone; a view cut off from the game gives the same decision as
    the live one; the bot holds no game or game state once it has decided."""
    parameters = list(inspect.signature(SearchBot.choose).parameters.values())
    assert [p.name for p in parameters] == ["self", "view"]
    assert parameters[1].annotation in (PlayerView, "PlayerView")
    cards = SETS["base"]
    game, player = one_decision_state(cards)
    live, cut_off = SearchBot(5, cards, iterations=12), SearchBot(5, cards, iterations=12)
    assert live.choose(view(game, player)) == cut_off.choose(detached(view(game, player)))
    assert live.last.root == cut_off.last.root
    games = [obj for obj in reachable(cut_off) if isinstance(obj, Game | GameState)]
    assert games == []


def test_cards_hidden_from_the_bot_do_not_change_its_decision() -> None:
    """Two true games that differ only in cards the seat cannot see (other hands, the decks)
    give the same decision and the same search for the same seed."""
    cards = SETS["base"]
    rng = random.Random(3)
    compared = 0
    for game in mid_game_states(cards, range(3), 97, 400):
        for player in game.players:
            if len(game.legal_actions(player)) < 2:
                continue
            other = hidden_redrawn(game, player, rng)
            hidden = [p.hand for p in game.state.players if p.name != player]
            assert hidden != [p.hand for p in other.state.players if p.name != player]
            first, second = SearchBot(9, cards, iterations=6), SearchBot(9, cards, iterations=6)
            assert first.choose(view(game, player)) == second.choose(view(other, player))
            assert first.last.root == second.last.root
            compared += 1
    assert compared >= 8


def test_one_legal_action_is_answered_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = SETS["base"]
    game = Game.new(cards, seat_players(4), seed=0)
    while True:
        waiting = game.waiting_for()
        only = [p for p in waiting if len(game.legal_actions(p)) == 1]
        if only:
            break
        game.apply(waiting[0], game.default_action(waiting[0]))

    def no_sampling(*args: object) -> None:
        raise AssertionError("a world was sampled for a forced decision")

    monkeypatch.setattr(WorldSampler, "__init__", no_sampling)
    bot = SearchBot(0, cards, think_ms=10_000)
    v = view(game, only[0])
    assert bot.choose(v) == v.legal[0]
    assert bot.last.iterations == 0


def test_the_budget_is_kept_and_the_search_is_deterministic() -> None:
    """An iteration budget is spent exactly, every root action tried; the same seed and
    view give the same search; a time budget stops in time."""
    cards = SETS["base"]
    game, player = one_decision_state(cards)
    legal = game.legal_actions(player)
    first, second = (
        SearchBot(1, cards, iterations=3 * len(legal)),
        SearchBot(1, cards, iterations=3 * len(legal)),
    )
    assert first.choose(view(game, player)) == second.choose(view(game, player))
    assert first.last.iterations == 3 * len(legal)
    assert first.last.root == second.last.root
    assert sum(visits for visits, _ in first.last.root.values()) == 3 * len(legal)
    assert all(visits > 0 for visits, _ in first.last.root.values())
    timed = SearchBot(1, cards, think_ms=30)
    timed.choose(view(game, player))
    assert timed.last.iterations >= 1
    assert timed.last.seconds < 2.0  # one iteration past 30 ms at most, on a loaded machine


@pytest.mark.parametrize("bad", [{"think_ms": 0}, {"think_ms": -5}, {"iterations": 0}])
def test_a_bad_budget_is_refused_clearly(bad: dict) -> None:
    with pytest.raises(ValueError, match=r"SearchBot: (think_ms|iterations) must"):
        SearchBot(0, SETS["base"], **bad)


def test_play_match_shows_the_cheating_bot_the_true_game() -> None:
    """The cheating variant is handed the true game before each decision (`sees_state`);
    the fair one is not, and never has `see`."""
    cards = SETS["base"]
    cheat = CheatingSearchBot(0, cards, iterations=2)
    seen: list[Game] = []
    see = cheat.see
    cheat.see = lambda game: (seen.append(game), see(game))[1]  # type: ignore[method-assign]
    bots = [cheat] + [HeuristicBot(i, cards) for i in range(3)]
    result = play_match(cards, 4, 1, bots, max_decisions=80)
    assert len(seen) == sum(1 for player, _ in result.decisions if player == "Ann")
    assert not hasattr(SearchBot(0, cards), "see")
    with pytest.raises(RuntimeError, match="see"):
        game, player = one_decision_state(cards)
        CheatingSearchBot(0, cards, iterations=2).choose(view(game, player))


def test_searches_from_every_seat_finish_and_few_worlds_break() -> None:
    """From every seat's view of mid-game states the search finishes its budget; worlds
    whose guesses about other seats break off early (`SearchStats.broken`) stay rare."""
    cards = SETS["base+horses"]
    iterations = broken = 0
    for game in mid_game_states(cards, range(1), 41, 500):
        for player in game.players:
            if len(game.legal_actions(player)) < 2:
                continue
            bot = SearchBot(4, cards, iterations=2)
            assert bot.choose(view(game, player)) in game.legal_actions(player)
            assert bot.last.iterations == 2
            iterations += bot.last.iterations
            broken += bot.last.broken
    assert iterations >= 30, iterations
    assert broken <= iterations // 10
