"""Events read as sentences; explanations add up to the numbers the engine uses."""

from __future__ import annotations

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.describe import situation, winners_line, winners_text
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.match import play_match
from munchkin.text import SENTENCES, sentence
from munchkin.views import view
from shared_wins import both_win_game

CARDS = load_builtin_sets(["base"])
NAMES = {c.id: c.name for c in CARDS}


def _events_of_games(seeds: range) -> list[Event]:
    events: list[Event] = []
    for seed in seeds:
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, on_event=events.append)
    return events


def test_every_event_of_real_games_has_its_own_sentence() -> None:
    events = _events_of_games(range(6))
    kinds = {e.kind for e in events}
    assert not kinds - SENTENCES.keys(), "event kinds without a sentence"
    for event in events:
        line = sentence(event, NAMES)
        assert line is None or (line and "{" not in line), line


def test_a_door_reads_like_the_table_talk() -> None:
    event = Event("door_kicked", {"player": "Ann", "card": "x", "name": "X", "type": "monster", "level": 2})
    assert sentence(event, {"x": "Sulky Gnome"}) == "Ann kicks open the door: Sulky Gnome (level 2)."


def test_combat_breakdowns_are_the_numbers_the_fight_compares() -> None:
    """The totals explained before the deciding pass are the strengths compared (B6)."""
    last: dict[str, int] = {}
    compared = 0

    def explain(game: Game, player: str, action: Action) -> None:
        last.clear()
        if game.state.combat is not None and game.state.combat.stage == "fight":
            ours, theirs = game.explain_combat()
            assert all(p.rule for p in ours.parts + theirs.parts)
            last.update(munchkins=ours.total, monsters=theirs.total)

    def resolved(event: Event) -> None:
        nonlocal compared
        if event.kind == "combat_resolved" and last:
            assert (event["munchkins"], event["monsters"]) == (last["munchkins"], last["monsters"])
            compared += 1

    for seed in range(3):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, on_event=resolved, after_decision=explain)
    assert compared > 20


def test_the_events_of_issue_11_have_sentences() -> None:
    names = {"troll": "Cave Troll", "drum": "War Drum", "di": "Divine Intervention"}
    told = [
        (
            Event("monster_left", {"player": "Ann", "card": "troll"}),
            "Cave Troll leaves Ann's fight, defeated but not killed.",
        ),
        (
            Event("drawn_face_up", {"player": "Bob", "card": "di"}),
            "Bob draws Divine Intervention, which acts at once.",
        ),
        (Event("came_back", {"player": "Cid"}), "Cid comes back, with new cards to come on their own turn."),
        (Event("card_given", {"player": "Ann", "card": "drum", "to": "Bob"}), "Ann gives War Drum to Bob."),
        (
            Event("die_rolled", {"player": "Bob", "purpose": "looting order", "roll": 4, "modifier": 0}),
            "Bob rolls 4 for the looting order.",
        ),
    ]
    for event, line in told:
        assert sentence(event, names) == line


def test_every_winner_of_a_shared_win_is_told() -> None:
    """Scenario b02: the fighter and the Elf helper reach level 10 in the same fight (B2)."""
    game, events = both_win_game()
    won = [sentence(e) for e in events if e.kind == "game_won"]
    assert won == [f"{name} reaches the winning level and wins the game!" for name in ("ann", "bob")]
    data = view(game, "cid").data
    assert data["winners"] == ["ann", "bob"] and data["winner"] == "ann"
    assert situation(data, NAMES) == f"Game over: ann and bob win together after {data['turn']} turns."
    assert winners_text(["ann", "bob", "cid"]) == "ann, bob and cid win together"
    assert winners_line(["ann"]) == "Winner: ann" and winners_line([]) == "Winner: nobody"
